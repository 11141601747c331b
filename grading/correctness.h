/* correctness.h — running the student's build and the reference on fresh seeds and comparing the raw results. */
#ifndef GR_CORRECTNESS_H
#define GR_CORRECTNESS_H

#include "job.h"

/* Returns 0, or -1 when the reference itself could not run (then the chapter is not graded). */
int gr_correctness(const gr_chjob *j, char *why, size_t wlen);

/* check mode without a reference: the program's own verdicts (clearly labelled). */
int gr_self_check(const gr_chjob *j, char *why, size_t wlen);

#endif /* GR_CORRECTNESS_H */
