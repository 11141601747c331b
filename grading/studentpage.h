/* studentpage.h — feedback.html beside feedback.md: the same text (by cmark-gfm, with tables) and per chapter a
 * plot of each variant's % of the speed of light beside the reference's; the same Markdown also goes into
 * Gradescope's results.json ("output_format": "md"). */
#ifndef GR_STUDENTPAGE_H
#define GR_STUDENTPAGE_H
#include <jansson.h>
#include <stddef.h>

/* Markdown to HTML (tables on; raw HTML in the Markdown left out). malloc'ed, NULL on failure. */
char *gr_md_to_html(const char *md, size_t len);

/* The gnuplot data of one chapter of a grading.json: "variant" student% reference% per line ("NaN" where
 * unknown); "" when no variant has a measured % of the speed of light. malloc'ed. Which columns hold a
 * number into *cols (may be NULL): 1 the student's, 2 the reference's. */
char *gr_sol_plot_data(const json_t *chapter, int *cols);

/* Writes <dir>/feedback.html from <dir>/feedback.md and <dir>/grading.json, and sets <dir>/results.json's
 * output to the Markdown. 0 on success, -1 with the reason on stderr. */
int gr_student_page(const char *dir);
#endif
