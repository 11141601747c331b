/* build.h — compiling a student's chapter (regions spliced into the pristine starter) and listing its variants. */
#ifndef GR_BUILD_H
#define GR_BUILD_H

#include "job.h"

#define GR_BUILD_OUT_CAP (6 << 10) /* the head of nvcc's stdout and of its stderr kept */

/* What a chapter's build hands back (from a process of its own, pipeline.c): no pointers. */
typedef struct {
    gr_ch_status status;      /* GR_CH_GRADED: built; else not gradable, build failed or grader error */
    char reason[800];         /* why not, in words for the student */
    char outside[300];        /* a note on edits outside the TODO regions (ignored), or "" */
    int n_regions;            /* the starter's TODO regions */
    int n_untouched;          /* of them, those the student's file still holds as the starter gave them */
    char untouched[300];      /* their names, ", " between */
    char log[2 * GR_RUN_TEXT_MAX(GR_BUILD_OUT_CAP)]; /* nvcc's stderr, then its stdout; "" if it did not run */
} gr_build_report;

/* Splices, then compiles in the sandbox into WORK/build/prog; says how it went in *rep. */
void gr_build_chapter(const gr_config *x, const gr_sub_state *s, const gr_chapter_rubric *ch, const char *student,
                      const char *work, gr_build_report *rep);

/* Runs `prog --list --json -`: its variants and their kernels into pv (at most max); 0 with why if none. */
int gr_list_variants(const gr_config *x, const gr_sub_state *s, const char *prog, const char *work, gr_prog_variant *pv,
                     int max, char *why, size_t wlen);

#endif /* GR_BUILD_H */
