/* csvcell.c — see csvcell.h. */
#include "csvcell.h"

#include <math.h>

int gr_csv_is_formula(const char *s) { return s && *s && strchr("=+-@\t\r", *s) != NULL; }

/* Quoted by hand rather than through libcsv's csv_write, which quotes every cell: the files keep the
 * plain form the LMS imports and the tests read ("Ann Lee,202,,,L2,0.00"). */
void gr_csv_text(gr_str *b, const char *s)
{
    if (!s) s = "";
    int quote = strpbrk(s, ",\"\r\n") != NULL;
    if (quote) gr_str_add(b, "\"");
    if (gr_csv_is_formula(s)) gr_str_add(b, "'");
    for (const char *q; (q = strchr(s, '"')); s = q + 1) {
        gr_str_addn(b, s, (size_t)(q - s) + 1);
        gr_str_add(b, "\""); /* a quote inside a quoted cell is doubled */
    }
    gr_str_add(b, s);
    if (quote) gr_str_add(b, "\"");
}

void gr_csv_number(gr_str *b, double x)
{
    if (isfinite(x)) gr_str_addf(b, "%.2f", x);
}

/* One cell, text s (unless NULL) or number x, written to f before end. */
static void put(FILE *f, const char *s, double x, const char *end)
{
    gr_str b = {0};
    if (s) gr_csv_text(&b, s);
    else gr_csv_number(&b, x);
    fprintf(f, "%s%s", gr_str_c(&b), end);
    gr_str_free(&b);
}

void gr_csv_put_text(FILE *f, const char *s, const char *end) { put(f, s ? s : "", 0, end); }

void gr_csv_put_number(FILE *f, double x, const char *end) { put(f, NULL, x, end); }
