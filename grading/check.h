/*
 * check.h — `make check` (build/grade --check, the student's practice run): what it concludes and prints.
 *
 * Without a GPU the grading still runs every step that needs none (the build as the grader does it, the
 * markers, edits outside the regions, the region screen and its include rules), then stops at the first
 * run of a program. The findings are the grader's own sentences (build.c, screen.c), one line each, then
 * one line on what was not checked and how to get it. The decisions are pure (tests/test_check.c).
 */
#ifndef GR_CHECK_H
#define GR_CHECK_H

#include "job.h"

/* What a practice run came to. */
typedef enum {
    GR_CHECK_RAN,      /* the GPU part ran (or nothing needed it): the grade's table */
    GR_CHECK_FINDINGS, /* no GPU: the checks that need none found something */
    GR_CHECK_CLEAN,    /* no GPU: they found nothing; correctness, sanitizer and speed not checked */
    GR_CHECK_NOT_RUN   /* not graded for another reason (the grader's error): as `make grade` says it */
} gr_check_outcome;

/* One finding: its chapter, whom it concerns ("" for the whole file, else the variants it costs), the
 * grader's sentence. */
typedef struct {
    int ch;
    char who[200];
    char text[700];
} gr_check_finding;

/* The findings of the checks that need no GPU, in chapter order: a chapter that could not be built or
 * spliced (missing file, markers, nvcc), an edit outside the regions, each region-screen sentence once
 * (with every variant it costs). Returns how many (at most max stored). */
int gr_check_findings(const gr_sub_result *s, gr_check_finding *out, int max);

/* The outcome from the submission's state and the number of findings. */
gr_check_outcome gr_check_decide(gr_sub_status st, int n_findings);

/* The exit code of an outcome (st: the submission's state, for GR_CHECK_RAN and GR_CHECK_NOT_RUN). */
gr_exit gr_check_exit(gr_check_outcome o, gr_sub_status st);

/* The one line on what was not checked: why (the first no-GPU reason, cut to its cause) and how to get it. */
void gr_check_not_checked(const char *why, char *out, size_t len);

/* A run's outcome (a grading that is not the practice run: GR_CHECK_RAN); whether it ran without a GPU. */
gr_check_outcome gr_check_outcome_of(const gr_sub_result *s, gr_mode mode);
static inline int gr_check_no_gpu(gr_check_outcome o) { return o == GR_CHECK_FINDINGS || o == GR_CHECK_CLEAN; }

/* The conclusion without a GPU, instead of the grade's table: each finding on its line, then what was not
 * checked (why: gr_sub_judge's reason). Before the reports are written (they free the compile logs). */
void gr_check_print_static(FILE *f, const gr_sub_result *s, const char *why);

/* How a practice run scores a chapter's performance points: timed beside the reference (where this copy has
 * it: the course repository), else against the reference's recorded table (handouts/results/chN.json)
 * where it was recorded on this GPU model at the chapter's benchmark size, else not at all: those points
 * leave the total and its maximum, and the chapter says so (never a total the grader would not give). */
typedef enum { GR_PERF_TIMED, GR_PERF_RECORDED, GR_PERF_NOT_SCORED } gr_check_perf_way;
typedef struct {
    int have_ref;            /* the reference was timed beside the student's code */
    char gpu_here[128];      /* this GPU's name (nvidia-smi), "" when unknown */
    char gpu_recorded[128];  /* the recorded table's "gpu", "" when none */
    char size_perf[64];      /* the chapter's benchmark size, canonical (gr_size.canon) */
    char size_recorded[64];  /* the recorded table's size, canonical */
} gr_check_perf_in;
gr_check_perf_way gr_check_perf_decide(const gr_check_perf_in *in);

/* The practice run's self-checked chapters (no reference here): their performance points as decided
 * above, the totals again. Nothing outside check mode. */
void gr_check_score_perf(const gr_config *x, gr_sub_result *res);

#endif /* GR_CHECK_H */
