/* results.h — what a grading found and the judgments made on it alone. Pure: no runs, no files; the writers
 * (report.h) decide nothing. Tests: tests/test_verdict.c, tests/test_judge.c. */
#ifndef GR_RESULTS_H
#define GR_RESULTS_H

#include <stddef.h>

#include "diagnose.h"
#include "rubric.h"

/* What the grader caught a variant at (honesty.h decides, the reports list), a bitmask of 1u << gr_caught. The
 * names are what grading.json lists and tests read: never rename them. */
typedef enum {
    GR_CAUGHT_ABOVE_CEILING,
    GR_CAUGHT_TIMED_CHECK,
    GR_CAUGHT_ROTATED_CHECK,
    GR_CAUGHT_HOST_COMPUTE,
    GR_CAUGHT_SCREEN_PERF,
    GR_CAUGHT_SCREEN_CORRECT,
    GR_CAUGHT_N
} gr_caught;

static inline const char *gr_caught_name(gr_caught c)
{
    static const char *const names[GR_CAUGHT_N] = {"above-ceiling", "timed-check",   "rotated-check",
                                                   "host-compute",  "screen-perf",   "screen-correct"};
    return c >= 0 && c < GR_CAUGHT_N ? names[c] : "?";
}

/* Does a finding cost the correctness points (every one costs the performance points)? A wrong or stale
 * result is a wrong result; being too fast or computing on the host is not. */
static inline int gr_caught_costs_correct(unsigned mask)
{
    return (mask & (1u << GR_CAUGHT_TIMED_CHECK | 1u << GR_CAUGHT_ROTATED_CHECK | 1u << GR_CAUGHT_SCREEN_CORRECT)) != 0;
}

/* The course's grading, or the student's practice run of their own code (--check). */
typedef enum { GR_MODE_GRADE, GR_MODE_CHECK } gr_mode;
static inline const char *gr_mode_name(gr_mode m) { return m == GR_MODE_CHECK ? "check" : "grade"; }

/* What compute-sanitizer said of a variant. Scored runs (the correct variants): clean, a finding, or unfinished
 * (no points, never shown as clean; a finding outranks it). A failing variant's run for feedback only
 * (evidence.c): a finding there scores nothing. */
typedef enum { GR_SANV_NOT_RUN, GR_SANV_CLEAN, GR_SANV_UNFINISHED, GR_SANV_FINDING, GR_SANV_FEEDBACK_FINDING } gr_san_verdict;
static inline int gr_sanv_ran(gr_san_verdict s) { return s == GR_SANV_CLEAN || s == GR_SANV_UNFINISHED || s == GR_SANV_FINDING; }
static inline int gr_sanv_found(gr_san_verdict s) { return s == GR_SANV_FINDING || s == GR_SANV_FEEDBACK_FINDING; }

/* GR_V_UNAVAILABLE: this GPU cannot run it, as gr_avail_decide believes (CONTRACT.md): not graded. */
typedef enum { GR_V_NOT_RUN, GR_V_PASS, GR_V_WRONG, GR_V_TODO, GR_V_CRASH, GR_V_TIMEOUT, GR_V_ERROR, GR_V_SELF_PASS, GR_V_SELF_FAIL,
               GR_V_UNAVAILABLE } gr_verdict;
const char *gr_verdict_name(gr_verdict v);

/* Can a variant be graded on this GPU? From its lines' verdicts there, the reference's (have_ref 0: the practice
 * run without one) and the student's: only the reference's UNAVAILABLE counts; the student's alone is a dodge. */
typedef enum { GR_AVAIL_RUNS, GR_AVAIL_NOT_HERE, GR_AVAIL_DODGED } gr_avail;
gr_avail gr_avail_decide(int have_ref, wb_verdict ref, wb_verdict stu);

/* What a variant's runs came to, all a verdict depends on. */
typedef struct {
    int self;              /* the program's own verdicts (the practice run without a reference) */
    int runs_expected;     /* self: the (seed, size) rows a complete run reports */
    int runs_total;        /* comparisons made (self: rows seen) */
    int runs_bad;          /* of which wrong: a mismatch, missing, or a written input (self: not PASS) */
    int runs_todo;         /* of which the untouched poison of a TODO (self: rows that said TODO) */
    int failed;            /* a run that left results missing ended badly (then: how) */
    int timed_out, crashed;
    gr_avail avail;        /* gr_avail_decide's, over the runs: NOT_HERE from any run, else DODGED from any */
} gr_verdict_facts;

/* The verdict: UNAVAILABLE, or WRONG for a dodge, as avail says; PASS when nothing was wrong; TODO when every
 * run was the untouched poison; a run that ended badly names how (TIMEOUT before CRASH before ERROR); else WRONG.
 * Self: SELF_PASS only when every row came and passed; TODO when every row seen said so; else SELF_FAIL. */
gr_verdict gr_verdict_decide(const gr_verdict_facts *f);

typedef enum { GR_CH_GRADED, GR_CH_MISSING, GR_CH_NOT_GRADABLE, GR_CH_BUILD_FAILED, GR_CH_GRADER_ERROR, GR_CH_NO_GPU } gr_ch_status;
const char *gr_ch_status_name(gr_ch_status s);
/* The state named by its word, or -1 (also gr_sub_status_parse). */
int gr_ch_status_parse(const char *s);
/* A chapter the grader could not grade (one the student failed is graded: 0). */
static inline int gr_ch_not_graded(gr_ch_status s) { return s == GR_CH_GRADER_ERROR || s == GR_CH_NO_GPU; }

/* How the first of a variant's runs that left results missing ended. */
typedef enum { GR_LOST_NONE, GR_LOST_RAN, GR_LOST_NO_BUDGET } gr_lost_kind;

/* What correctness saw of a variant: the facts its feedback is made of (report.h composes the sentences). */
typedef struct {
    int self;                       /* the program's own verdicts (the practice run without a reference) */
    int runs_bad, runs_total;
    char sizes_bad[200];            /* the sizes with a wrong run, in the order seen */
    gr_lost_kind lost;
    char lost_how[200];             /* GR_LOST_RAN: the sandbox's words; GR_LOST_NO_BUDGET: what was spent */
    char lost_tail[400];            /* GR_LOST_RAN: the program's last lines on stderr */
    int mismatch;                   /* the most telling wrong run (the largest size): its seed, size, comparison */
    unsigned long long seed;
    char size[48];
    gr_cmp cmp;
    int wrote_input;                /* a run wrote an input: which, at which element, at which seed and size */
    char input_name[32];
    long long input_at;
    unsigned long long input_seed;
    char input_size[48];
    char self_row[16];              /* self: the first failing row's verdict word, at size and seed above */
    gr_avail avail;                 /* NOT_HERE: not graded; DODGED: the student's program said so, not the reference */
    char unavailable[WB_REASON_LEN]; /* the reason its line gave (the reference's, or the dodging student's) */
} gr_var_facts;

typedef struct {
    char name[64];
    gr_variant_rubric rub;          /* its points (zero if the rubric does not list it) */
    gr_verdict verdict;
    double correct_pts, perf_pts, san_pts;
    gr_var_facts seen;              /* what correctness saw: the feedback's facts */
    char san[700];                  /* sanitizer: "clean", the first finding, or why not run */
    gr_san_verdict san_state;
    int perf_ran;
    double stu_ms, ref_ms, ratio;
    double ref_sol_pct;             /* the reference's % of the speed of light at the benchmark size; 0: unknown */
    double stu_sol_pct;             /* the practice run's own timing (no reference): the student's %; 0: unknown */
    char perf_note[300];
    unsigned caught;                /* what the grader caught: bits 1u << gr_caught (above) */
    char caught_note[600];          /* one sentence per finding, for the student */
    gr_diag_ev ev;                  /* what correctness, the sanitizer and perf saw (diagnose.h) */
    gr_diag diag;                   /* the named bug, or GR_BUG_NONE */
} gr_var_result;

static inline double gr_var_score(const gr_var_result *v) { return v->correct_pts + v->perf_pts + v->san_pts; }
/* One this GPU cannot run is not graded: its points leave the maximum. */
static inline int gr_var_graded(const gr_var_result *v) { return v->verdict != GR_V_UNAVAILABLE; }
static inline double gr_var_max(const gr_var_result *v) { return gr_var_graded(v) ? v->rub.correct + v->rub.perf + v->rub.sanitizer : 0; }
/* The time ratio to the reference where the benchmark measured one, else 0. */
static inline double gr_var_ratio(const gr_var_result *v) { return v->perf_ran && v->ratio > 0 ? v->ratio : 0; }
/* The student's % of the speed of light: the reference's over the time ratio (same work), else 0. */
double gr_var_sol_pct(const gr_var_result *v);

/* How sure a diagnosis is, which the feedback's wording follows: nothing to say, only what was seen (no rule
 * named a class, or slow without a measured cause), a cause measured by the counters, a likely bug. */
typedef enum { GR_DIAG_SAYS_NOTHING, GR_DIAG_SEEN, GR_DIAG_MEASURED, GR_DIAG_LIKELY } gr_diag_claim;
gr_diag_claim gr_diag_claim_of(gr_bug b);

/* A variant's points come in parts, each scored apart (results.json has a test per part). */
typedef enum { GR_PART_CORRECT, GR_PART_SANITIZER, GR_PART_PERF } gr_part;
/* The fact that explains a part's points. Correctness: a finding that costs them, else what correctness saw
 * (detail: gr_var_detail's, "" none), else the verdict's word; performance: any finding, else the benchmark's
 * note; the sanitizer: its line. */
const char *gr_var_part_why(const gr_var_result *r, gr_part p, const char *detail);
/* Whether there is more to tell of a variant than its row (detail as above). */
int gr_var_has_notes(const gr_var_result *r, const char *detail);
/* From the verdict correctness left: a scored sanitizer run is for a correct variant only. */
int gr_var_sanitized(const gr_var_result *r);
/* The feedback's sanitizer run (evidence.c): a failing variant, not one that hit its time limit (under
 * the tool it would only hang again, slower), not one whose finding is known already. */
int gr_var_feedback_sanitized(const gr_var_result *r);
/* The variant failed: wrong, crashed, timed out or errored. */
int gr_var_failed(const gr_var_result *r);

typedef struct {
    int number;
    char dir[128];
    gr_ch_status status;
    char reason[600];
    char outside[300];              /* edits outside the TODO regions (ignored) */
    int n_regions, n_untouched;     /* the starter's regions; of them, those still as the starter gave them */
    char untouched[300];            /* their names, ", " between (build.c) */
    char *compile_log;              /* head + tail */
    int self_check;                 /* check mode without a reference: verdicts are the program's own */
    gr_var_result v[GR_MAX_VAR];
    int n_v;
    double score, max;
    char perf_note[640];            /* the chapter's: a practice run's estimate lists every variant (check.c) */
    double wall_s;
    struct {
        const char *name;           /* a pipeline step's (static); s: its wall time (grading.json "steps") */
        double s;
    } step[12];
    int n_step;
} gr_ch_result;

/* The first variant whose sanitizer run did not finish (one run covers every variant), or -1. */
int gr_ch_san_unfinished(const gr_ch_result *ch);

/* A submission's state (grading.json "status"). One that is not GR_SUB_GRADED was not graded: no score
 * for it anywhere (results.json, grades.csv), the reason in its `error`, and the next class run grades
 * it again (roster.c). A chapter the student failed (missing, not gradable, build failed) is graded: 0.
 * Not graded: the reference failed, the grader broke, the submission could not be read; no GPU: none usable
 * for what needs one; grader crashed: the grader's process for it died (grade --class records it). */
typedef enum { GR_SUB_GRADED, GR_SUB_NOT_GRADED, GR_SUB_NO_GPU, GR_SUB_GRADER_CRASHED, GR_SUB_STATUS_N } gr_sub_status;
const char *gr_sub_status_name(gr_sub_status s);
int gr_sub_status_parse(const char *s);

/* The grader's exit codes: the one list (grade --help prints it; README.md and handouts/instructor/guide.md
 * show it row for row, tests/test_not_graded.c checks that they say the same). make's grading targets end
 * with "Error N", N this code (make itself then exits 2; mk/grader.mk). What each means: gr_exit_meaning. */
typedef enum { GR_EXIT_OK = 0, GR_EXIT_NOT_GRADED = 1, GR_EXIT_USAGE = 2, GR_EXIT_REFUSED = 3, GR_EXIT_CLUSTER = 4,
               GR_EXIT_IO = 5, GR_EXIT_NO_GPU = 6, GR_EXIT_CHECK_FINDINGS = 7, GR_EXIT_CHECK_CLEAN = 8,
               GR_EXIT_N } gr_exit;
/* One line: what the code means (grade --help); "?" for none. */
const char *gr_exit_meaning(gr_exit e);
/* The code of one submission's state. */
gr_exit gr_exit_of(gr_sub_status s);
/* The code of a class: entries not graded (of which for want of a GPU), and whether a report or
 * grades.csv could not be written. No GPU only when every entry not graded lacked one. */
gr_exit gr_exit_class(int not_graded, int no_gpu, int io_failed);

typedef struct {
    char student[128];
    gr_mode mode;
    unsigned long long seeds[8];
    int n_seeds;
    gr_ch_result ch[GR_MAX_CH];
    int n_ch;
    double score, max, wall_s;
    double prepare_s;               /* the builds, and the sanitizer probe beside them, before the chapters' steps */
    char isolation[800];            /* how student code was isolated, the sanitizer's way on this host included */
    double budget_s;                /* GPU-holding seconds this submission's runs used (budget.h) */
    char error[400];                /* set when the submission could not be graded at all */
    gr_sub_status status;           /* GR_SUB_GRADER_CRASHED where class.c records a crash; else see gr_sub_judge */
} gr_sub_result;

void gr_sub_totals(gr_sub_result *s);

/* Whether the submission was graded, from what grading recorded (s->error, each chapter's status; a
 * status already GR_SUB_GRADER_CRASHED is kept), and why not in why: s->error, else the first chapter
 * that could not be graded; never empty when not graded. Every report writer asks this. */
gr_sub_status gr_sub_judge(const gr_sub_result *s, char *why, size_t len);

#endif /* GR_RESULTS_H */
