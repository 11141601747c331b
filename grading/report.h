/*
 * report.h — the writers: each renders a gr_sub_result (results.h) and decides nothing. The terminal table,
 * feedback.md (what the student reads; its sentences of correctness from prose.h), results.json in the
 * Gradescope autograder schema, grading.json (the details: seeds to replay, per-chapter scores; course/ reads
 * it for the class's grades.csv and pages). JSON is written with jansson.
 */
#ifndef GR_REPORT_H
#define GR_REPORT_H

#include <jansson.h>

#include "jsonfield.h"
#include "results.h"

/* ---------------------------------------------------------------- terminal table */
void gr_print_table(FILE *f, const gr_sub_result *s);

void gr_write_feedback(FILE *f, const gr_sub_result *s, const char *replay);

/* Before anything is built: can reports be written in dir? Creates it (and its parents), then creates
 * and removes a probe file there. 0, or -1 with "DIR: the error" in why. */
int gr_report_dir_ready(const char *dir, char *why, size_t len);

/* results.json for Gradescope. A submission not graded gets no score at all (see report.c). */
int gr_write_results_json(const char *path, const gr_sub_result *s);

/* grading.json: what a class report and a replay need. */
int gr_write_grading_json(const char *path, const gr_sub_result *s);

/* A grading.json (jansson object) whose grading could not run or was refused: its "status" is not
 * "graded" (gr_sub_status); in a file without one, an error and no chapter graded, or a chapter that is
 * "grader error" or "no GPU". Such a student gets an empty grade with the reason in grades.csv (never
 * 0.00) and is graded again on the next run, without --force (course/roster.h gr_roster_pending). */
int gr_grading_not_run(const json_t *g);

#endif /* GR_REPORT_H */
