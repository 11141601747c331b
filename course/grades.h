/* grades.h — the class's gradebook: grades.csv (RFC 4180, cells by csvcell.h; an empty cell and the reason
 * for a student not graded) and summary.md, from every <out>/<student>/grading.json the judge wrote. */
#ifndef GR_GRADES_H
#define GR_GRADES_H
#include "report.h"

/* grades.csv and summary.md from every <out>/<student>/grading.json; chapters are the rubric's. Returns
 * the number of students. */
int gr_write_class(const char *out_dir, const gr_rubric *rub, FILE *term);
#endif
