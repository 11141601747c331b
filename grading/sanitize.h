/* sanitize.h — compute-sanitizer runs of the correct variants (the output is read by sanitizer.c). */
#ifndef GR_SANITIZE_H
#define GR_SANITIZE_H

#include "job.h"

void gr_sanitize(const gr_chjob *j, const gr_prog_variant *pv, int npv);

/* One tool on one variant at the chapter's sanitizer size: 1 with the first finding (as printed, with
 * the lines after it) in first, 0 clean, -1 no verdict. Awards and takes away nothing. */
int gr_sanitize_one(const gr_chjob *j, const char *tool, const char *variant, char *first, size_t len);

/* Decides how compute-sanitizer runs on this host (sanhost.h): each tool on each graded chapter's reference, in the
 * sandbox a student's run gets. Its runs go as runs of `within` (NULL: none, as for a class or make doctor). */
void gr_san_probe(const gr_config *x, const gr_sub_state *within, gr_san_host *out);

#endif /* GR_SANITIZE_H */
