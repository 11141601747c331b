/*
 * report.h — what grading produces: the per-submission results model, the terminal table,
 * feedback.md (what the student reads), results.json in the Gradescope autograder schema, grading.json
 * (the details: seeds to replay, per-chapter scores), and for a class grades.csv (RFC 4180) and a
 * summary. JSON is written with jansson.
 */
#ifndef GR_REPORT_H
#define GR_REPORT_H

#include "compare.h"
#include "diagnose.h"
#include "rubric.h"

/* A variant's verdict; gr_verdict_name() gives the word reports and JSON use. */
typedef enum { GR_V_NOT_RUN, GR_V_PASS, GR_V_WRONG, GR_V_TODO, GR_V_CRASH, GR_V_TIMEOUT, GR_V_ERROR, GR_V_SELF_PASS, GR_V_SELF_FAIL } gr_verdict;
const char *gr_verdict_name(gr_verdict v);

/* A chapter's state in a grading; gr_ch_status_name() gives the words reports and JSON use. */
typedef enum { GR_CH_GRADED, GR_CH_MISSING, GR_CH_NOT_GRADABLE, GR_CH_BUILD_FAILED, GR_CH_GRADER_ERROR, GR_CH_NO_GPU } gr_ch_status;
const char *gr_ch_status_name(gr_ch_status s);
/* The state named by its word, or -1. */
int gr_ch_status_parse(const char *s);

typedef struct {
    char name[64];
    gr_variant_rubric rub;          /* its points (zero if the rubric does not list it) */
    gr_verdict verdict;
    double correct_pts, perf_pts, san_pts;
    char detail[1400];              /* correctness feedback: first mismatch, count, pattern, hint */
    char san[700];                  /* sanitizer: "clean", the first finding, or why not run */
    int san_ran, san_finding;
    int san_unfinished;             /* a tool gave no verdict: no points, and never shown as clean */
    int perf_ran;
    double stu_ms, ref_ms, ratio;
    double ref_sol_pct;             /* the reference's % of the speed of light at the benchmark size; 0: unknown */
    char perf_note[300];
    unsigned caught;                /* what the grader caught: bits 1u << gr_caught (grading/honesty.h) */
    char caught_note[600];          /* one sentence per finding, for the student */
    gr_diag_ev ev;                  /* what correctness, the sanitizer and perf saw (diagnose.h) */
    gr_diag diag;                   /* the named bug, or GR_BUG_NONE */
} gr_var_result;

typedef struct {
    int number;
    char dir[128];
    gr_ch_status status;
    char reason[600];
    char outside[300];              /* edits outside the TODO regions (ignored) */
    char *compile_log;              /* head + tail */
    int self_check;                 /* check mode without a reference: verdicts are the program's own */
    gr_var_result v[GR_MAX_VAR];
    int n_v;
    double score, max;
    char perf_note[400];
    double wall_s;
} gr_ch_result;

typedef struct {
    char student[128];
    char mode[16];                  /* grade, check */
    unsigned long long seeds[8];
    int n_seeds;
    gr_ch_result ch[GR_MAX_CH];
    int n_ch;
    double score, max, wall_s;
    char isolation[256];
    char error[400];                /* set when the submission could not be graded at all */
} gr_sub_result;

void gr_sub_totals(gr_sub_result *s);

/* A JSON string of arbitrary bytes (invalid UTF-8 replaced). */
json_t *gr_jstr(const char *s);

/* ---------------------------------------------------------------- terminal table */
void gr_print_table(FILE *f, const gr_sub_result *s);

void gr_write_feedback(FILE *f, const gr_sub_result *s, const char *replay);

int gr_write_results_json(const char *path, const gr_sub_result *s);

/* grading.json: what a class report and a replay need. */
int gr_write_grading_json(const char *path, const gr_sub_result *s);

/* grades.csv and summary.md from every <out>/<student>/grading.json; chapters are the rubric's. Returns
 * the number of students. */
int gr_write_class(const char *out_dir, const gr_rubric *rub, FILE *term);

#endif /* GR_REPORT_H */
