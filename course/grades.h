/* grades.h — the class's gradebook: grades.csv (RFC 4180, cells by csvcell.h; an empty cell and the reason
 * for a student not graded) and summary.md, from every <out>/<student>/grading.json the judge wrote. */
#ifndef GR_GRADES_H
#define GR_GRADES_H
#include "report.h"

/* Chapters are the rubric's; term (or NULL) gets the table and a summary line. Returns the number graded. */
int gr_write_class(const char *out_dir, const gr_rubric *rub, FILE *term);
#endif
