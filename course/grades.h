/* grades.h — the class's gradebooks, from every <out>/<student>/grading.json the judge wrote: grades.csv (an
 * empty cell and the reason for a student not graded) and summary.md; canvas-grades.csv, Canvas's gradebook
 * import, from lms.json (lms.h). Every cell of both CSVs (RFC 4180) is written one way: text that a spreadsheet
 * would take for a formula (OWASP's CSV injection) gets a leading apostrophe, so that a folder named
 * =HYPERLINK(…) shows as text; a number (a score) is never neutralised: "-3.00" is the number -3 in every
 * spreadsheet and LMS import, and no formula is spelled with digits alone. */
#ifndef GR_GRADES_H
#define GR_GRADES_H
#include "report.h"

/* Chapters are the rubric's; term (or NULL) gets the table and a summary line. Returns the number graded. */
int gr_write_class(const char *out_dir, const gr_rubric *rub, FILE *term);

/* <out_dir>/canvas-grades.csv from lms.json and each entry's grading.json: Student, ID, SIS User ID, SIS
 * Login ID, Section, then the assignment's column; a "Points Possible" row first. An entry whose grading
 * could not run, and a roster student without a submission, get an empty cell (Canvas keeps what it has).
 * Returns the number of students written, or -1. */
int gr_write_canvas(const char *out_dir, const char *assignment, char *why, size_t wlen);

/* 1 when a spreadsheet would read text s as a formula (its first byte is = + - @ TAB CR). */
int gr_csv_is_formula(const char *s);

/* Appends text s to b as one cell. */
void gr_csv_text(gr_str *b, const char *s);

/* Appends x to b as a number cell ("%.2f"); a value that is not finite is an empty cell. */
void gr_csv_number(gr_str *b, double x);
#endif
