/* build.h — compiling a student's chapter (regions spliced into the pristine starter) and listing its variants. */
#ifndef GR_BUILD_H
#define GR_BUILD_H

#include "job.h"

/* What the build child (a forked process per chapter) reports to its parent, in WORK/build.json. */
typedef struct {
    gr_ch_status status;      /* GR_CH_GRADED: built; else not gradable, build failed or grader error */
    char reason[800];         /* why not, in words for the student */
    char outside[300];        /* a note on edits outside the TODO regions (ignored), or "" */
} gr_build_report;

/* The one pair that writes and reads it (JSON). read returns -1 if the file is missing or bad. */
int gr_build_report_write(const char *path, const gr_build_report *r);
int gr_build_report_read(const char *path, gr_build_report *r);

/* Splices, then compiles in the sandbox. Writes WORK/build.json (gr_build_report) and WORK/compile.log.
 * Returns 0 when the binary WORK/build/prog exists. */
int gr_build_chapter(const gr_config *x, const gr_sub_state *s, const gr_chapter_rubric *ch, const char *student, const char *work);

/* ---------------------------------------------------------------- the program's variants */
int gr_list_variants(const gr_config *x, const gr_sub_state *s, const char *prog, const char *work, gr_prog_variant *pv, int max,
                            char *why, size_t wlen);

#endif /* GR_BUILD_H */
