/* classpage.h — class.html, beside grades.csv: one static page of the class (html.h): scores, per chapter and
 * variant, bug classes, sanitizer and honesty findings, similarity, what was not graded, and the students
 * linked to their feedback.html. Read back from the output folder alone (roster.json, lms.json, each
 * grading.json, similarity.json), so it can be made again at any time. */
#ifndef GR_CLASSPAGE_H
#define GR_CLASSPAGE_H
#include "rubric.h"

/* Writes <out_dir>/class.html. Returns the number of students on it, or -1 (reason on stderr). */
int gr_class_page(const char *out_dir, const gr_rubric *rub);
#endif
