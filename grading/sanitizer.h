/*
 * sanitizer.h — reading compute-sanitizer's output: how many errors its summary counts, whether a
 * variant's kernel is named in it, and the first finding (for feedback). Formats as captured on the
 * H100 in tests/captured/sanitizer_*.txt.
 */
#ifndef GR_SANITIZER_H
#define GR_SANITIZER_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Errors counted by the summary line: memcheck, synccheck and initcheck end with "ERROR SUMMARY: N
 * errors", racecheck with "RACECHECK SUMMARY: H hazards displayed (N errors, W warnings)". *summary
 * says whether a summary was there at all (no summary: the tool did not finish). */
static inline int gr_san_errors(const char *text, int *summary)
{
    const char *es = strstr(text, "ERROR SUMMARY: "), *rs = strstr(text, "RACECHECK SUMMARY: ");
    *summary = es || rs;
    int errors = 0;
    if (es) errors += atoi(es + strlen("ERROR SUMMARY: "));
    if (rs) {
        const char *paren = strchr(rs, '(');
        if (paren) errors += atoi(paren + 1);
    }
    return errors;
}

/* Is one of the comma-separated kernel names called in the text ("name(")? */
static inline int gr_kernel_in(const char *text, const char *kernels)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", kernels);
    char *save = NULL;
    for (char *k = strtok_r(buf, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
        char pat[96];
        snprintf(pat, sizeof pat, "%s(", k);
        if (strstr(text, pat)) return 1;
    }
    return 0;
}

/* The first finding: the first sanitizer line that is not a banner, with the two lines after it. */
static inline void gr_first_finding(const char *text, char *out, size_t len)
{
    const char *p = text;
    out[0] = 0;
    while (p && *p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (n > 10 && !strncmp(p, "=========", 9) && !strstr(p, "COMPUTE-SANITIZER") && strncmp(p, "========= ERROR SUMMARY", 23)) {
            const char *end = p;
            for (int k = 0; k < 4 && end; k++) {
                end = strchr(end, '\n');
                if (end) end++;
            }
            size_t m = end ? (size_t)(end - p) : strlen(p);
            snprintf(out, len, "%.*s", (int)m, p);
            return;
        }
        p = nl ? nl + 1 : NULL;
    }
}

#endif /* GR_SANITIZER_H */
