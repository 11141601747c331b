/* check.h — `make check` (build/grade --check, the practice run): what it concludes and prints. Without a GPU
 * the steps that need none still run (build, markers, edits outside the regions, region screen): their
 * sentences one line each, each chapter's regions that still hold the starter's text, then one line on what was not
 * checked and how to get it, and one that says what it all means. The decisions are pure. */
#ifndef GR_CHECK_H
#define GR_CHECK_H

#include "job.h"

typedef enum {
    GR_CHECK_RAN,      /* the GPU part ran (or nothing needed it): the grade's table */
    GR_CHECK_FINDINGS, /* no GPU: the checks that need none found something */
    GR_CHECK_CLEAN,    /* no GPU: they found nothing; correctness, sanitizer and speed not checked */
    GR_CHECK_NOT_RUN   /* not graded for another reason (the grader's error): as `make grade` says it */
} gr_check_outcome;

typedef struct {
    int ch;
    char who[200];      /* "" for the whole file, else the variants it costs */
    char text[700];     /* the grader's sentence */
} gr_check_finding;

/* The findings of the checks that need no GPU, in chapter order: a chapter not built or spliced, an edit
 * outside the regions, each region-screen sentence once. Returns how many (at most max stored). */
int gr_check_findings(const gr_sub_result *s, gr_check_finding *out, int max);

gr_check_outcome gr_check_decide(gr_sub_status st, int n_findings);

/* The exit code of an outcome (st: for GR_CHECK_RAN and GR_CHECK_NOT_RUN). */
gr_exit gr_check_exit(gr_check_outcome o, gr_sub_status st);

/* The one line on what was not checked: why (the first no-GPU reason, cut to its cause) and how to get it. */
void gr_check_not_checked(const char *why, char *out, size_t len);

/* A run's outcome (a grading that is not the practice run: GR_CHECK_RAN); whether it ran without a GPU. */
gr_check_outcome gr_check_outcome_of(const gr_sub_result *s, gr_mode mode);
static inline int gr_check_no_gpu(gr_check_outcome o) { return o == GR_CHECK_FINDINGS || o == GR_CHECK_CLEAN; }

/* A chapter's regions that still hold the starter's text, as a line ("4 of 4 regions untouched (…): …"), or "". */
void gr_check_untouched(const gr_ch_result *cr, char *out, size_t len);

/* The last line without a GPU, in plain words: findings to fix, or nothing found in what this machine can
 * check; the regions not done yet; what needs a GPU; what make's `Error 7` or `Error 8` after it means. */
void gr_check_summary(int n_findings, int n_untouched, int n_regions, char *out, size_t len);

/* The conclusion without a GPU instead of the grade's table (why: gr_sub_judge's reason). Before the
 * reports are written (they free the compile logs). */
void gr_check_print_static(FILE *f, const gr_sub_result *s, const char *why);

/* How a practice run scores performance: timed beside the reference (where this copy has it), else against
 * its recorded table (handouts/results/chN.json) if recorded on this GPU model at the benchmark size, else
 * not at all: those points leave the total and its maximum (never a total the grader would not give), and
 * an estimate from the speed of light (gr_check_estimate_of) is told beside them, never added. */
typedef enum { GR_PERF_TIMED, GR_PERF_RECORDED, GR_PERF_NOT_SCORED } gr_check_perf_way;
typedef struct {
    int have_ref;            /* the reference was timed beside the student's code */
    char gpu_here[128];      /* this GPU's name (nvidia-smi), "" when unknown */
    char gpu_recorded[128];  /* the recorded table's "gpu", "" when none */
    char size_perf[64];      /* the chapter's benchmark size, canonical */
    char size_recorded[64];  /* the recorded table's size, canonical */
} gr_check_perf_in;
gr_check_perf_way gr_check_perf_decide(const gr_check_perf_in *in);

/* Not scored, an estimate instead where both speeds of light are known: a variant's time ratio to the reference
 * predicted as the reference's recorded % of the speed of light (handouts/results/, another GPU or size) over
 * the student's % measured in this run (the same work: time goes as one over the %), and the points the
 * rubric's bands give that ratio, out of points. ok 0 when either % is unknown. Pure. */
typedef struct {
    int ok;
    double ratio, pts;
} gr_check_estimate;
gr_check_estimate gr_check_estimate_of(const gr_rubric *rub, double stu_pct, double ref_pct, double points);

/* The practice run's self-checked chapters: their performance points as decided above, then the totals. */
void gr_check_score_perf(const gr_config *x, gr_sub_result *res);

#endif /* GR_CHECK_H */
