/* report.h — the writers: each renders a gr_sub_result (results.h) and decides nothing. The sentences a student
 * reads of what correctness saw are composed here from a variant's facts: the steps that run programs write facts.
 * feedback.html is feedback.md (by cmark-gfm, with tables) and per chapter a plot of each variant's % of the speed
 * of light beside the reference's; the same Markdown also goes into results.json ("output_format": "md"). */
#ifndef GR_REPORT_H
#define GR_REPORT_H

#include <jansson.h>

#include "results.h"

/* A JSON string of arbitrary bytes (invalid UTF-8 replaced): what jansson takes of student text. */
json_t *gr_jstr(const char *s);

/* One line naming the pattern of the errors, and one line of hint (tile: the chapter's block/tile width). */
void gr_pattern_text(int tile, const gr_cmp *c, char *pat, size_t plen, char *hint, size_t hlen);

/* What a variant is told of its correctness runs: the most telling mismatch with its pattern and hint, how a
 * run ended, a written input, each size's outcome, the practice run's own row (at most GR_DETAIL_MAX - 1
 * bytes); "" for one that passed or was not run. Pure; tests/test_judge.c. */
#define GR_DETAIL_MAX 1400
void gr_var_detail(const gr_var_result *r, char *out, size_t len);

void gr_print_table(FILE *f, const gr_sub_result *s);

/* feedback.md; its replay line: make grade with sub as SUB, or make check (only_ch: it named a CH), and the seeds. */
void gr_write_feedback(FILE *f, const gr_sub_result *s, const char *sub, int only_ch);

/* Before anything is built: can reports be written in dir? Creates it (and its parents), then creates
 * and removes a probe file there. 0, or -1 with "DIR: the error" in why. */
int gr_report_dir_ready(const char *dir, char *why, size_t len);

/* results.json for Gradescope; a submission not graded gets no score at all. md (may be NULL): the feedback,
 * its output in Markdown. */
int gr_write_results_json(const char *path, const gr_sub_result *s, const char *md);

/* grading.json: what a class report (course/: grades.csv, pages) and a replay (the seeds) need. */
int gr_write_grading_json(const char *path, const gr_sub_result *s);

/* A grading.json whose grading could not run or was refused: its "status" is not "graded"; in a file without
 * one, an error and no chapter, or a chapter "grader error" or "no GPU". Such a student gets an empty grade
 * with the reason (never 0.00) and is graded again on the next run (course/roster.h gr_roster_pending). */
int gr_grading_not_run(const json_t *g);

/* Markdown to HTML (tables on; raw HTML in the Markdown left out). malloc'ed, NULL on failure. */
char *gr_md_to_html(const char *md, size_t len);

/* The gnuplot data of one chapter of a grading.json: "variant" student% reference% per line ("NaN" where
 * unknown); "" when no variant has a measured % of the speed of light. malloc'ed. Which columns hold a
 * number into *cols (may be NULL): 1 the student's, 2 the reference's. */
char *gr_sol_plot_data(const json_t *chapter, int *cols);

/* A grading's reports in dir, the feedback rendered once: feedback.md, results.json (its output that Markdown),
 * feedback.html (not written: said on stderr), grading.json last. 0, or -1 when md, results or grading is not. */
int gr_write_report_files(const char *dir, const gr_sub_result *s, const char *sub, int only_ch);

#endif /* GR_REPORT_H */
