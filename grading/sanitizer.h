/* sanitizer.h — the one reader of compute-sanitizer's output, for the grader and `make sanitize`, so both judge the
 * same text the same way (formats as captured on the H100: tests/captured/sanitizer_*.txt). */
#ifndef GR_SANITIZER_H
#define GR_SANITIZER_H

#include <stddef.h>

typedef struct {
    int found_summary;       /* saw "ERROR SUMMARY" or "RACECHECK SUMMARY": the tool finished */
    long errors, warnings;   /* from the summary */
    char first[256];         /* the first reported finding, trimmed, or "" */
    char where[256];         /* the "at ..." line after it, trimmed, or "" */
    int not_supported;       /* the sanitizer refused the device or could not start */
    char tool_error[256];    /* a line the sanitizer printed about itself failing */
} gr_san_report;

void gr_san_parse(const char *text, gr_san_report *r);

/* The one rule: findings = errors + warnings of the summary; a run is clean only with a summary that counts none
 * (no summary: the tool did not finish, which is not "clean"). */
long gr_san_findings(const gr_san_report *r);

/* Is one of the comma-separated kernel names called in the text ("name(")? */
int gr_san_kernel_in(const char *text, const char *kernels);

/* The first finding as the sanitizer printed it: its line and the three after it (for feedback). */
void gr_san_first_excerpt(const char *text, char *out, size_t len);

#endif /* GR_SANITIZER_H */
