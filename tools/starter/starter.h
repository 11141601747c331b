/*
 * starter.h — the student's starter made from the reference solution (`make starters`): nbgrader's idea,
 * in C. A reference (solutions/NN-name/name.cu) carries, inside each TODO region, the text the starter's
 * region holds, as hint lines (`//| text`, a bare `//|` for an empty line: st_hint_line). The starter (chapters/NN-name/name.cu) is the reference with each region's other lines
 * dropped and `//| ` taken off its hint lines, the white space before `//|` kept; outside the regions it is
 * the reference byte for byte. The regions are found by grading/regions.c, the grader's own parser.
 * build/starter (main.c) is the CLI; these functions are in build/lib/libstarter.a for tests/test_starters.c
 * and the mutator.
 */
#ifndef WB_STARTER_H
#define WB_STARTER_H

#include <stddef.h>
#include <stdio.h>

/* A hint line: white space, then `//|` (`//| text`, or a bare `//|` for an empty line of the starter).
 * Returns the length of the white space, or -1 for any other line. Every reader of a reference's regions
 * asks this, here and nowhere else: a hint line is shipped in the starter and is no part of the answer. */
int st_hint_line(const char *line, size_t len);

/* The starter of a reference's text: a malloc'd string (its length in *out_len), or NULL with one line
 * in err, "line N: why": a marker the region parser refuses (unbalanced, malformed, a name twice), a
 * region without a hint line (every region carries its hint), a hint line whose `//|` is followed by
 * neither a space nor the end of the line, or one that ends in a backslash (in the reference it would
 * make the next line part of the comment). */
char *st_starter_of(const char *ref, size_t len, size_t *out_len, char *err, size_t errlen);

typedef enum {
    ST_WRITE, /* write each starter that differs from what its reference makes */
    ST_CHECK  /* write nothing: name each starter that differs */
} st_mode;

/* Every chapter of the workbook at root: each chapters/NN-name/ folder with a chapter.json has its
 * reference solutions/NN-name/name.cu, and each reference its chapter folder; the starter
 * chapters/NN-name/name.cu is made from the reference. Nothing is written unless every reference makes
 * its starter. One line on err per problem ("PATH:LINE: why", "PATH: why"), one on out per starter
 * written or differing and a last line of counts. Returns 0 when every starter is (now) what its
 * reference makes, 1 when --check found one that differs, 2 for bad input or a file not written. */
int st_starters(const char *root, st_mode mode, FILE *out, FILE *err);

#endif /* WB_STARTER_H */
