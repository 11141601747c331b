/* regions.c — see regions.h. */
#define _GNU_SOURCE 1
#include "regions.h"
#include "gr_util.h"

#include <stdarg.h>

/* If the line at text[at..] is a marker of kind "BEGIN" or "END", copies its name and returns 1;
 * returns -1 for a marker with a malformed name, 0 for any other line. */
static int wb_region_marker(const char *line, size_t len, const char *kind, char *name)
{
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
    char prefix[32];
    int plen = snprintf(prefix, sizeof prefix, "// %s TODO(", kind);
    if (len - i < (size_t)plen || memcmp(line + i, prefix, (size_t)plen) != 0) return 0;
    i += (size_t)plen;
    size_t k = 0;
    while (i < len && (isalnum((unsigned char)line[i]) || line[i] == '-' || line[i] == '_')) {
        if (k + 1 >= WB_REGION_NAME) return -1;
        name[k++] = line[i++];
    }
    name[k] = 0;
    if (k == 0 || i >= len || line[i] != ')') return -1;
    for (i++; i < len; i++)
        if (!isspace((unsigned char)line[i])) return -1;
    return 1;
}

/* The one line of a parse error into err; -1. */
__attribute__((format(printf, 3, 4))) static int wb_regions_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

int wb_regions_parse(const char *text, size_t len, wb_region *out, int max, char *err, size_t errlen)
{
    int n = 0, open = 0, lineno = 0;
    char name[WB_REGION_NAME];
    size_t at = 0;
    while (at < len) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t line_len = nl ? (size_t)(nl - (text + at)) : len - at;
        size_t next = nl ? at + line_len + 1 : len;
        lineno++;
        int b = wb_region_marker(text + at, line_len, "BEGIN", name);
        int e = b ? 0 : wb_region_marker(text + at, line_len, "END", name);
        if (b < 0 || e < 0)
            return wb_regions_fail(err, errlen, "line %d: malformed TODO marker (expected '// %s TODO(name)')",
                                   lineno, b < 0 ? "BEGIN" : "END");
        if (b) {
            if (open)
                return wb_regions_fail(err, errlen, "line %d: BEGIN TODO(%s) inside region '%s' (line %d), which is "
                                       "not closed", lineno, name, out[n].name, out[n].line);
            if (n >= max) return wb_regions_fail(err, errlen, "line %d: more than %d TODO regions", lineno, max);
            for (int k = 0; k < n; k++)
                if (strcmp(out[k].name, name) == 0)
                    return wb_regions_fail(err, errlen, "line %d: TODO region '%s' appears twice (first at line %d)",
                                           lineno, name, out[k].line);
            snprintf(out[n].name, sizeof out[n].name, "%s", name);
            out[n].begin = next;
            out[n].line = lineno;
            open = 1;
        } else if (e) {
            if (!open || strcmp(name, out[n].name) != 0)
                return wb_regions_fail(err, errlen, "line %d: END TODO(%s) without a matching BEGIN", lineno, name);
            out[n].end = at;
            n++;
            open = 0;
        }
        at = next;
    }
    if (open)
        return wb_regions_fail(err, errlen, "TODO region '%s' (line %d) is never closed", out[n].name, out[n].line);
    return n;
}

/* text with the content of each of its n regions r[k] replaced by src's region fill[k] (fill NULL: emptied);
 * a malloc'd string, its length in *out_len. */
static char *wb_regions_fill(const char *text, size_t len, const wb_region *r, int n, const char *src,
                             const wb_region *fill, size_t *out_len)
{
    size_t total = len + 1, o = 0, at = 0;
    for (int k = 0; fill && k < n; k++) total += fill[k].end - fill[k].begin;
    char *out = (char *)malloc(total);
    if (!out) return NULL;
    for (int k = 0; k < n; k++) {
        memcpy(out + o, text + at, r[k].begin - at);
        o += r[k].begin - at;
        if (fill) memcpy(out + o, src + fill[k].begin, fill[k].end - fill[k].begin);
        o += fill ? fill[k].end - fill[k].begin : 0;
        at = r[k].end;
    }
    memcpy(out + o, text + at, len - at);
    o += len - at;
    out[o] = 0;
    *out_len = o;
    return out;
}

char *wb_regions_outside(const char *text, size_t len, size_t *out_len, char *err, size_t errlen)
{
    wb_region r[64];
    int n = wb_regions_parse(text, len, r, 64, err, errlen);
    return n < 0 ? NULL : wb_regions_fill(text, len, r, n, NULL, NULL, out_len);
}

char *wb_regions_splice(const char *pristine, size_t plen, const char *student, size_t slen,
                                      size_t *out_len, char *err, size_t errlen)
{
    wb_region pr[64], sr[64], fill[64];
    char why[200];
    int pn = wb_regions_parse(pristine, plen, pr, 64, why, sizeof why);
    if (pn < 0) {
        snprintf(err, errlen, "starter: %s", why);
        return NULL;
    }
    int sn = wb_regions_parse(student, slen, sr, 64, err, errlen);
    if (sn < 0) return NULL;
    for (int k = 0; k < pn; k++) {
        int match = -1;
        for (int j = 0; j < sn; j++)
            if (strcmp(pr[k].name, sr[j].name) == 0) match = j;
        if (match < 0) {
            snprintf(err, errlen, "TODO region '%.63s' is missing (its BEGIN/END markers were removed or renamed)",
                     pr[k].name);
            return NULL;
        }
        fill[k] = sr[match];
    }
    if (sn != pn) {
        snprintf(err, errlen, "the file has %d TODO regions, the starter %d", sn, pn);
        return NULL;
    }
    return wb_regions_fill(pristine, plen, pr, pn, student, fill, out_len);
}

char *wb_read_file(const char *path, size_t *len)
{
    return gr_read_capped(path, (size_t)1 << 30, len);
}
