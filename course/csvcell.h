/* csvcell.h — the one writer of a CSV cell, for every CSV the grader writes (grades.csv, canvas-grades.csv).
 * Text that a spreadsheet would take for a formula (OWASP's CSV injection) gets a leading apostrophe, so that a
 * folder named =HYPERLINK(…) shows as text; then RFC 4180 quoting. A number (a score) is never neutralised:
 * "-3.00" is the number -3 in every spreadsheet and LMS import, and no formula is spelled with digits alone.
 * (Not csv.h: grading/ is on the include path and would hide libcsv's <csv.h>, which the roster's reader uses.) */
#ifndef GR_CSVCELL_H
#define GR_CSVCELL_H

#include <stdio.h>

#include "gr_util.h"

/* 1 when a spreadsheet would read text s as a formula (its first byte is = + - @ TAB CR). */
int gr_csv_is_formula(const char *s);

/* Appends text s to b as one cell. */
void gr_csv_text(gr_str *b, const char *s);

/* Appends x to b as a number cell ("%.2f"); a value that is not finite is an empty cell. */
void gr_csv_number(gr_str *b, double x);

/* The same cells written to f, each followed by `end` ("," or a row's "\r\n"). */
void gr_csv_put_text(FILE *f, const char *s, const char *end);
void gr_csv_put_number(FILE *f, double x, const char *end);

#endif /* GR_CSVCELL_H */
