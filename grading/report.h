/*
 * report.h — what grading produces: the per-submission results model, the terminal table,
 * feedback.md (what the student reads), results.json in the Gradescope autograder schema, grading.json
 * (the details: seeds to replay, per-chapter scores), and for a class grades.csv (RFC 4180) and a
 * summary. JSON is written with jansson.
 */
#ifndef GR_REPORT_H
#define GR_REPORT_H

#include "compare.h"
#include "rubric.h"

typedef struct {
    char name[64];
    gr_variant_rubric rub;          /* its points (zero if the rubric does not list it) */
    char verdict[16];               /* PASS WRONG TODO CRASH TIMEOUT ERROR NOT-RUN SELF-PASS SELF-FAIL */
    double correct_pts, perf_pts, san_pts;
    char detail[1400];              /* correctness feedback: first mismatch, count, pattern, hint */
    char san[700];                  /* sanitizer: "clean", the first finding, or why not run */
    int san_ran, san_finding;
    int san_unfinished;             /* a tool gave no verdict: no points, and never shown as clean */
    int perf_ran;
    double stu_ms, ref_ms, ratio;
    char perf_note[300];
} gr_var_result;

typedef struct {
    int number;
    char dir[128];
    char status[32];                /* graded, missing, not gradable, build failed, not in workbook */
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
