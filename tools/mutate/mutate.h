/*
 * mutate.h — the mutants of the reference solutions (mutants.c, operators in ops.h) and the confusion
 * table of what the grader named for them (report.c). build/mutate (mutate.c) is the CLI; the modules
 * are in build/lib/libmutate.a so that tests/test_mutate.c checks them without a GPU.
 */
#ifndef WB_MUTATE_H
#define WB_MUTATE_H

#include <jansson.h>
#include <stdio.h>

#include "ops.h"
#include "rubric.h"

/* Does a class need the performance run to be seen (a cause of slowness: gr_bug_is_perf)? */
int mu_needs_perf(const char *label);

/* The mutants of one chapter's solution text, by the operators of every chapter and the chapter's own
 * (own: NULL for none): each appended to list as {id, chapter, region, label, what, perf}; written as
 * submissions under out (subs/ or subs-perf/) unless out is NULL. Every mutant's text outside the
 * regions is checked to be the solution's. Returns how many, or -1 (err). */
int mu_chapter(const gr_chapter_rubric *ch, const mu_own_ops *own, const char *text, size_t len, const char *out,
               json_t *list, char *err, size_t elen);

/* Every chapter's mutants (or only chapter only_ch) of root's solutions into out, with out/mutants.json:
 * the chapters are root's chapters/NN-name/ folders with a chapter.json (the facts), their own operators
 * solutions/NN-name/mutants.json (the rubric is not read);
 * how many per chapter goes to log (NULL: nowhere, as in the tests). Returns 0, or 1 with the reason on
 * stderr. */
int mu_write_all(const char *root, const char *out, int only_ch, FILE *log);

/* The confusion table intended × named from dir/mutants.json and dir/out/<id>/grading.json (or
 * dir/out-perf/<id>/): accuracy, caught %, named % of caught, survivors. Returns 0, 1 if nothing graded. */
int mu_report(const char *dir, FILE *f);

#endif /* WB_MUTATE_H */
