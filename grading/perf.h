/* perf.h — alternating benchmark runs, medians, the wall-clock cross-check and the performance points. */
#ifndef GR_PERF_H
#define GR_PERF_H

#include "job.h"

void gr_perf(const gr_chjob *j);

/* Check mode: the student's own table (throughput, % of the speed of light), no reference. */
void gr_perf_self(const gr_chjob *j);

#endif /* GR_PERF_H */
