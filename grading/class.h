/* class.h — grading a class: one entry per student, in parallel on the GPUs, resumable. */
#ifndef GR_CLASS_H
#define GR_CLASS_H

#include "job.h"

/* ---------------------------------------------------------------- a class */
int gr_class(gr_config *x, const char *subs);

#endif /* GR_CLASS_H */
