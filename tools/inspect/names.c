/* names.c — small helpers, a chapter's variants (--list --json) and kernel names in tool output (see toolparse.h). */
#define _GNU_SOURCE 1
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"

#include "jsonl.h"

/* ================================================================ small helpers */
void tp_copy(char *buf, size_t len, const char *s, size_t n)
{
    if (n >= len) n = len - 1;
    memcpy(buf, s, n);
    buf[n] = 0;
}

const char *tp_skip_space(const char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    return s;
}

int tp_parse_variants(const char *text, tp_variant *out, int max, char *err, size_t errlen)
{
    char jerr[200];
    json_t *lines = wb_jsonl_parse(text, strlen(text), jerr, sizeof jerr), *obj;
    if (!lines) {
        snprintf(err, errlen, "the variant list is not JSON lines: %s", jerr);
        return -1;
    }
    int n = 0;
    size_t line_no;
    json_array_foreach(lines, line_no, obj)
    {
        const char *name = json_string_value(json_object_get(obj, WB_JSON_VARIANT));
        const char *idea = json_string_value(json_object_get(obj, WB_JSON_IDEA));
        const char *kernels = json_string_value(json_object_get(obj, WB_JSON_KERNELS));
        if (!name || !*name || n == max) {
            if (!name || !*name) snprintf(err, errlen, "entry %zu of the variant list has no \"variant\" string", line_no + 1);
            else snprintf(err, errlen, "more than %d variants", max);
            json_decref(lines);
            return -1;
        }
        tp_variant *v = &out[n++];
        memset(v, 0, sizeof *v);
        tp_copy(v->name, sizeof v->name, name, strlen(name));
        snprintf(v->idea, sizeof v->idea, "%s", idea ? idea : "");
        for (const char *k = kernels ? kernels : ""; *k;) {
            const char *comma = strchr(k, ',');
            size_t klen = comma ? (size_t)(comma - k) : strlen(k);
            while (klen && (*k == ' ')) k++, klen--;
            while (klen && k[klen - 1] == ' ') klen--;
            if (klen && v->n_kernels < TP_MAX_KERNELS) tp_copy(v->kernels[v->n_kernels++], TP_NAME, k, klen);
            if (!comma) break;
            k = comma + 1;
        }
        json_t *threads = json_object_get(obj, WB_JSON_THREADS), *dsmem = json_object_get(obj, WB_JSON_DSMEM);
        for (int k = 0; k < v->n_kernels; k++) {
            json_int_t t = json_integer_value(json_array_get(threads, (size_t)k));
            json_int_t d = json_integer_value(json_array_get(dsmem, (size_t)k));
            v->threads[k] = t > 0 && t <= INT_MAX ? (int)t : 0;
            v->dsmem[k] = d > 0 && d <= LONG_MAX ? (long)d : 0;
        }
    }
    json_decref(lines);
    if (n == 0) {
        snprintf(err, errlen, "the program listed no variants");
        return -1;
    }
    return n;
}

int tp_variant_find(const tp_variant *v, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(v[i].name, name) == 0) return i;
    return -1;
}

int tp_kernel_matches(const char *symbol, const char *name)
{
    size_t n = strlen(name);
    if (n == 0) return 0;
    symbol = tp_skip_space(symbol);
    if (strcmp(symbol, name) == 0) return 1;
    char mangled[TP_NAME + 24];
    snprintf(mangled, sizeof mangled, "_Z%zu%s", n, name);
    if (strncmp(symbol, mangled, strlen(mangled)) == 0) return 1;
    if (strncmp(symbol, "void ", 5) == 0) symbol += 5;
    if (strncmp(symbol, name, n) == 0 && (symbol[n] == '(' || symbol[n] == '<')) return 1;
    return 0;
}

void tp_base_name(const char *symbol, char *buf, size_t len)
{
    if (symbol[0] == '_' && symbol[1] == 'Z' && isdigit((unsigned char)symbol[2])) {
        char *end;
        long n = strtol(symbol + 2, &end, 10);
        if (n > 0 && (size_t)n <= strlen(end)) {
            tp_copy(buf, len, end, (size_t)n);
            return;
        }
    }
    if (strncmp(symbol, "void ", 5) == 0) symbol += 5;
    size_t k = strcspn(symbol, "(<");
    tp_copy(buf, len, symbol, k);
}
