/* sanitizer.c — see sanitizer.h. */
#include "sanitizer.h"

#include <stdio.h>
#include <string.h>

static void copy_trimmed(char *buf, size_t len, const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '\t')) s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n')) n--;
    if (n >= len) n = len - 1;
    memcpy(buf, s, n);
    buf[n] = 0;
}

/* Lines that open a finding: "Invalid __global__ read", "Error: Race reported", "Barrier error",
 * "Uninitialized __global__ memory read", "Program hit cudaErrorLaunchFailure", … */
static int opens_finding(const char *body)
{
    static const char *const starts[] = {"Invalid", "Error",  "Warning",      "Barrier", "Uninitialized",
                                         "Program hit", "Race", "Misaligned", "Out-of-range", "Malloc",
                                         "Leaked"};
    if (!strncmp(body, "COMPUTE-SANITIZER", 17) || !strncmp(body, "Saved host backtrace", 20) ||
        !strncmp(body, "Host Frame", 10))
        return 0;
    for (size_t k = 0; k < sizeof starts / sizeof starts[0]; k++)
        if (!strncmp(body, starts[k], strlen(starts[k]))) return 1;
    return strstr(body, "hazard") != NULL;
}

static void parse_line(const char *line, gr_san_report *r, int *want_where)
{
    if (strncmp(line, "=========", 9) != 0) return;
    const char *body = line + 9;
    int indent = 0;
    while (*body == ' ') body++, indent++;
    const char *rs = strstr(body, "RACECHECK SUMMARY:");
    long e, w;
    if (!strncmp(body, "ERROR SUMMARY:", 14) && strstr(body, "not printed")) {
        /* "ERROR SUMMARY: 1260 errors were not printed": a note after the real summary */
    } else if (!strncmp(body, "ERROR SUMMARY:", 14)) {
        r->found_summary = 1;
        if (sscanf(body + 14, "%ld", &e) == 1) r->errors = e;
    } else if (rs) {
        r->found_summary = 1;
        const char *paren = strchr(rs, '(');
        if (paren && sscanf(paren, "(%ld error%*[s,] %ld warning", &e, &w) == 2) {
            r->errors = e;
            r->warnings = w;
        }
    } else if (strstr(body, "not supported") || strstr(body, "Error: Target application terminated before first instrumented") ||
               strstr(body, "Unable to find injection library")) {
        if (strstr(body, "not supported") || strstr(body, "injection")) r->not_supported = 1;
        if (!r->tool_error[0]) copy_trimmed(r->tool_error, sizeof r->tool_error, body, strlen(body));
    } else if (indent <= 1 && *body && !r->first[0] && opens_finding(body)) {
        copy_trimmed(r->first, sizeof r->first, body, strlen(body));
        *want_where = 1;
    } else if (*want_where && indent > 1 && !strncmp(body, "at ", 3)) {
        copy_trimmed(r->where, sizeof r->where, body, strlen(body));
        *want_where = 0;
    }
}

void gr_san_parse(const char *text, gr_san_report *r)
{
    memset(r, 0, sizeof *r);
    int want_where = 0;
    for (const char *p = text; p && *p;) {
        size_t len = strcspn(p, "\n");
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)len, p);
        line[strcspn(line, "\r")] = 0;
        parse_line(line, r, &want_where);
        p = p[len] ? p + len + 1 : NULL;
    }
}

long gr_san_findings(const gr_san_report *r) { return r->errors + r->warnings; }

int gr_san_kernel_in(const char *text, const char *kernels)
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

void gr_san_first_excerpt(const char *text, char *out, size_t len)
{
    out[0] = 0;
    for (const char *p = text; p && *p;) {
        size_t n = strcspn(p, "\n");
        if (n > 10 && !strncmp(p, "=========", 9) && !strstr(p, "COMPUTE-SANITIZER") &&
            strncmp(p, "========= ERROR SUMMARY", 23)) {
            const char *end = p;
            for (int k = 0; k < 4 && end; k++) {
                end = strchr(end, '\n');
                if (end) end++;
            }
            size_t m = end ? (size_t)(end - p) : strlen(p);
            snprintf(out, len, "%.*s", (int)m, p);
            return;
        }
        p = p[n] ? p + n + 1 : NULL;
    }
}
