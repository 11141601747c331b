/* classpage.h — class.html, written beside grades.csv: one self-contained static page of the class (no
 * server, no network, no script; plots as inline SVG from gnuplot): the score distribution; per chapter and
 * variant the share correct, the share with full performance points and the speed relative to the
 * reference; the bug classes named across the class with example students; sanitizer findings and what the
 * grader caught; the similarity pairs (similarity.json); the entries not graded, with the reason; a table
 * of students linking to each student's feedback.html. Everything is read back from the output folder
 * (roster.json, lms.json, each grading.json, similarity.json), so the page can be made again at any time. */
#ifndef GR_CLASSPAGE_H
#define GR_CLASSPAGE_H
#include "rubric.h"

/* Writes <out_dir>/class.html. Returns the number of students on it, or -1 (reason on stderr). */
int gr_class_page(const char *out_dir, const gr_rubric *rub);
#endif
