/* correctness.h — running the student's build and the reference on fresh seeds and comparing the raw results. */
#ifndef GR_CORRECTNESS_H
#define GR_CORRECTNESS_H

#include "job.h"

/* ---------------------------------------------------------------- the verdict (pure) */
/* What a variant's runs came to, all a verdict depends on. */
typedef struct {
    int self;              /* the program's own verdicts (the practice run without a reference) */
    int runs_expected;     /* self: the (seed, size) rows a complete run reports */
    int runs_total;        /* comparisons made (self: rows seen) */
    int runs_bad;          /* of which wrong: a mismatch, missing, or a written input (self: not PASS) */
    int runs_todo;         /* of which the untouched poison of a TODO (self: rows that said TODO) */
    int failed;            /* a run that left results missing ended badly (then: how) */
    int timed_out, crashed;
} gr_verdict_facts;

/* The verdict: PASS when nothing was wrong; TODO when every run was the untouched poison; a run that
 * ended badly names how (TIMEOUT before CRASH before ERROR); else WRONG. Self: SELF_PASS only when every
 * row came and passed; TODO when every row seen said so; else SELF_FAIL. */
gr_verdict gr_verdict_decide(const gr_verdict_facts *f);

/* ---------------------------------------------------------------- what the next steps run on */
/* From the verdict correctness left: a scored sanitizer run is for a correct variant only. */
int gr_var_sanitized(const gr_var_result *r);
/* The feedback's sanitizer run (evidence.c): a failing variant, not one that hit its time limit (under
 * the tool it would only hang again, slower), not one whose finding is known already. */
int gr_var_feedback_sanitized(const gr_var_result *r);
/* The variant failed: wrong, crashed, timed out or errored. */
int gr_var_failed(const gr_var_result *r);

/* Returns 0, or -1 when the reference itself could not run (then the chapter is not graded). */
int gr_correctness(const gr_chjob *j, char *why, size_t wlen);

/* check mode without a reference: the program's own verdicts (clearly labelled). */
int gr_self_check(const gr_chjob *j, char *why, size_t wlen);

/* One run of a program for its --dump files: which seed, which of the chapter's edge sizes. */
typedef struct {
    unsigned long long seed;
    int first, count;           /* edge sizes first .. first + count - 1 */
    double limit;               /* the run's time limit; 0: the rubric's timeouts_s.run */
} gr_dump_chunk;

/* Runs prog's variants (comma-separated) over a chunk of sizes with --dump into dir (emptied first). */
void gr_dump_run(const gr_chjob *j, const gr_dump_chunk *k, const char *prog, const char *variants, const char *dir,
                 const char *what, gr_cmd *c, gr_run_result *r);

/* Are the dumps of variant at edge sizes first .. first + count - 1 all in dir? */
int gr_dump_complete(const char *dir, const gr_chapter_rubric *ch, const char *variant, int first, int count);

/* The --json lines of every dump run (in its directory): each variant's line says whether a run of it
 * changed one of its inputs (contract.h's WB_JSON_INPUT_WRITTEN). */
#define GR_DUMP_ROWS "rows.jsonl"

/* 1 when the line of (variant, size) in a dump run's JSON lines says that the variant wrote its input,
 * with the feedback's sentence in detail ("writes its input: input 0 changed at element 7 (inputs are
 * read-only)"); 0 when it does not, or there is no such line. */
int gr_rows_input_written(const json_t *lines, const char *variant, const char *size, char *detail, size_t len);

#endif /* GR_CORRECTNESS_H */
