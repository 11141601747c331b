/* evidence.h — after perf, what a diagnosis needs beyond correctness.c's per-size outcomes, then every variant's
 * diagnosis; awards nothing. A failing variant: three runs of one wrong size (a race or lost updates), memcheck, then
 * racecheck if memcheck is clean. A correct one: the scored sanitizer runs' finding, perf's ratio and counters (slow),
 * honesty.c's host-compute finding. */
#ifndef GR_EVIDENCE_H
#define GR_EVIDENCE_H

#include "job.h"

/* A correct variant beyond the rubric's first perf band (full points) is "slow" for the diagnosis; this
 * ratio where the rubric has no bands. */
#define GR_SLOW_RATIO 2.0

/* pv: the reference's variants and their kernels (what a slow variant's counters measure). */
void gr_evidence(const gr_chjob *j, const gr_prog_variant *pv, int npv);

#endif /* GR_EVIDENCE_H */
