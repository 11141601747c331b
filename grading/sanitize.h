/* sanitize.h — compute-sanitizer runs of the correct variants (the output is read by sanitizer.c). */
#ifndef GR_SANITIZE_H
#define GR_SANITIZE_H

#include "job.h"

void gr_sanitize(const gr_ctx *x, const gr_chapter_rubric *ch, const char *stu, const char *work,
                        gr_ch_result *cr, const gr_prog_variant *pv, int npv);

#endif /* GR_SANITIZE_H */
