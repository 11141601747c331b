/* sanitize.h — compute-sanitizer runs of the correct variants (the output is read by sanitizer.c). */
#ifndef GR_SANITIZE_H
#define GR_SANITIZE_H

#include "job.h"

void gr_sanitize(const gr_chjob *j, const gr_prog_variant *pv, int npv);

#endif /* GR_SANITIZE_H */
