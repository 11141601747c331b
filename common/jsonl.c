/* jsonl.c — see jsonl.h. */
#include "jsonl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

json_t *wb_jsonl_parse(const char *text, size_t len, char *err, size_t errlen)
{
    json_t *lines = json_array();
    size_t at = 0;
    int lineno = 0;
    while (at < len) {
        const char *p = text + at;
        const char *nl = memchr(p, '\n', len - at);
        size_t n = nl ? (size_t)(nl - p) : len - at;
        at += n + (nl != NULL);
        lineno++;
        size_t k = 0;
        while (k < n && (p[k] == ' ' || p[k] == '\t' || p[k] == '\r')) k++;
        if (k == n) continue;
        json_error_t je;
        json_t *obj = json_loadb(p, n, 0, &je);
        if (!json_is_object(obj)) {
            snprintf(err, errlen, "line %d: not a JSON object (%s)", lineno, obj ? "another JSON value" : je.text);
            json_decref(obj);
            json_decref(lines);
            return NULL;
        }
        json_array_append_new(lines, obj);
    }
    return lines;
}

json_t *wb_jsonl_load(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot read %s", path);
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            char *more = realloc(buf, cap *= 2);
            if (!more) {
                free(buf);
                buf = NULL;
            } else {
                buf = more;
            }
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        snprintf(err, errlen, "cannot read %s", path);
        return NULL;
    }
    char inner[200];
    json_t *lines = wb_jsonl_parse(buf, len, inner, sizeof inner);
    free(buf);
    if (!lines) snprintf(err, errlen, "%s: %s", path, inner);
    return lines;
}

json_t *wb_jsonl_find(const json_t *lines, const char *variant, const char *size)
{
    size_t i;
    json_t *o;
    json_array_foreach(lines, i, o)
    {
        const char *v = json_string_value(json_object_get(o, WB_JSON_VARIANT));
        const char *s = json_string_value(json_object_get(o, WB_JSON_SIZE));
        if (v && strcmp(v, variant) == 0 && (!size || (s && strcmp(s, size) == 0))) return o;
    }
    return NULL;
}

static int row_string(const json_t *line, const char *key, char *out, size_t len, int required, char *err,
                      size_t errlen)
{
    const json_t *v = json_object_get(line, key);
    out[0] = 0;
    if (!v || json_is_null(v)) {
        if (!required) return 0;
        snprintf(err, errlen, "field \"%s\" is missing", key);
        return -1;
    }
    if (!json_is_string(v)) {
        snprintf(err, errlen, "field \"%s\" is not a string", key);
        return -1;
    }
    snprintf(out, len, "%s", json_string_value(v));
    return 0;
}

static int row_number(const json_t *line, const char *key, double *out, char *err, size_t errlen)
{
    const json_t *v = json_object_get(line, key);
    *out = NAN;
    if (!v || json_is_null(v)) return 0;
    if (!json_is_number(v)) {
        snprintf(err, errlen, "field \"%s\" is not a number", key);
        return -1;
    }
    *out = json_number_value(v);
    return 0;
}

/* An optional "PASS"/"FAIL" check field; absent or null reads WB_NOT_CHECKED. */
static int row_check(const json_t *line, const char *key, wb_grading_check *out, char *err, size_t errlen)
{
    char s[16];
    if (row_string(line, key, s, sizeof s, 0, err, errlen)) return -1;
    *out = WB_NOT_CHECKED;
    if (!s[0]) return 0;
    if (!strcmp(s, "PASS")) *out = WB_CHECKED_PASS;
    else if (!strcmp(s, "FAIL")) *out = WB_CHECKED_FAIL;
    else {
        snprintf(err, errlen, "field \"%s\" is \"%s\", not PASS or FAIL", key, s);
        return -1;
    }
    return 0;
}

/* An optional non-negative integer; absent or null reads -1. */
static int row_index(const json_t *line, const char *key, long long *out, char *err, size_t errlen)
{
    const json_t *v = json_object_get(line, key);
    *out = -1;
    if (!v || json_is_null(v)) return 0;
    if (!json_is_integer(v) || json_integer_value(v) < 0) {
        snprintf(err, errlen, "field \"%s\" is not a non-negative integer", key);
        return -1;
    }
    *out = (long long)json_integer_value(v);
    return 0;
}

int wb_row_get(const json_t *line, wb_row *row, char *err, size_t errlen)
{
    memset(row, 0, sizeof *row);
    if (row_string(line, WB_JSON_CHAPTER, row->chapter, sizeof row->chapter, 0, err, errlen) ||
        row_string(line, WB_JSON_VARIANT, row->variant, sizeof row->variant, 1, err, errlen) ||
        row_string(line, WB_JSON_SIZE, row->size, sizeof row->size, 1, err, errlen) ||
        row_string(line, WB_JSON_GPU, row->gpu, sizeof row->gpu, 0, err, errlen) ||
        row_string(line, WB_JSON_UNIT, row->unit, sizeof row->unit, 0, err, errlen) ||
        row_string(line, WB_JSON_EXTRA_NAME, row->extra_name, sizeof row->extra_name, 0, err, errlen) ||
        row_string(line, WB_JSON_EXTRA, row->extra, sizeof row->extra, 0, err, errlen) ||
        row_number(line, WB_JSON_MEDIAN_MS, &row->median_ms, err, errlen) ||
        row_number(line, WB_JSON_PREP_MS, &row->prep_ms, err, errlen) ||
        row_number(line, WB_JSON_THROUGHPUT, &row->throughput, err, errlen) ||
        row_number(line, WB_JSON_SOL_PCT, &row->sol_pct, err, errlen) ||
        row_number(line, WB_JSON_SPEEDUP, &row->speedup, err, errlen) ||
        row_number(line, WB_JSON_CPU_MS, &row->cpu_ms, err, errlen) ||
        row_number(line, WB_JSON_REP_WALL_MS, &row->rep_wall_ms, err, errlen) ||
        row_check(line, WB_JSON_TIMED_CHECK, &row->timed_check, err, errlen) ||
        row_check(line, WB_JSON_ROTATED_CHECK, &row->rotated_check, err, errlen) ||
        row_string(line, WB_JSON_INPUT_WRITTEN_NAME, row->input_written_name, sizeof row->input_written_name, 0, err,
                   errlen) ||
        row_string(line, WB_JSON_TIMED_FAULT, row->timed_fault, sizeof row->timed_fault, 0, err, errlen) ||
        row_string(line, WB_JSON_UNAVAILABLE_REASON, row->unavailable_reason, sizeof row->unavailable_reason, 0, err,
                   errlen) ||
        row_index(line, WB_JSON_INPUT_WRITTEN, &row->input_written, err, errlen))
        return -1;
    char verdict[16];
    if (row_string(line, WB_JSON_VERDICT, verdict, sizeof verdict, 1, err, errlen)) return -1;
    if (wb_verdict_parse(verdict, &row->verdict)) {
        snprintf(err, errlen, "field \"%s\" is \"%s\", not PASS, FAIL, TODO, REFERENCE, CEILING or UNAVAILABLE", WB_JSON_VERDICT, verdict);
        return -1;
    }
    const json_t *seed = json_object_get(line, WB_JSON_SEED), *reps = json_object_get(line, WB_JSON_REPS);
    if (json_is_integer(seed)) row->seed = (unsigned long long)json_integer_value(seed);
    if (json_is_integer(reps)) row->reps = (int)json_integer_value(reps);
    const json_t *dims = json_object_get(line, WB_JSON_DIMS), *d;
    size_t k;
    json_array_foreach(dims, k, d)
    {
        if (k >= WB_MAX_DIMS || !json_is_integer(d)) {
            snprintf(err, errlen, "field \"%s\" is not an array of at most %d integers", WB_JSON_DIMS, WB_MAX_DIMS);
            return -1;
        }
        row->dims[k] = (long long)json_integer_value(d);
        row->n_dims = (int)k + 1;
    }
    return 0;
}

int wb_jsonl_unavailable(const char *path, const char *variant, char *why, size_t len)
{
    char err[200];
    json_t *lines = wb_jsonl_load(path, err, sizeof err), *o;
    size_t i;
    int found = 0;
    json_array_foreach(lines, i, o)
    {
        wb_row row;
        if (found || wb_row_get(o, &row, err, sizeof err) || row.verdict != WB_UNAVAILABLE ||
            (variant && strcmp(row.variant, variant)))
            continue;
        found = 1;
        if (len) snprintf(why, len, "%s", row.unavailable_reason[0] ? row.unavailable_reason : "no reason given");
    }
    json_decref(lines);
    return found;
}
