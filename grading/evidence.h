/*
 * evidence.h — after correctness, the sanitizer and perf: what a diagnosis needs beyond correctness.c's
 * per-size outcomes, then the diagnosis (diagnose.h) of every variant; awards nothing. A failing variant
 * (only those cost runs): three runs of one failing size on one seed (differing results: a race or lost
 * updates), memcheck at the chapter's sanitizer size, racecheck too if memcheck is clean (the first finding
 * goes into the feedback). A correct one: the scored sanitizer runs' finding, perf's ratio (a slow
 * variant), honesty.c's host-compute finding (the work on the host).
 */
#ifndef GR_EVIDENCE_H
#define GR_EVIDENCE_H

#include "job.h"

/* A correct variant beyond the rubric's first perf band (full points) is "slow" for the diagnosis; this
 * ratio where the rubric has no bands. */
#define GR_SLOW_RATIO 2.0

/* pv: the reference's variants and their kernels (what a slow variant's counters measure). */
void gr_evidence(const gr_chjob *j, const gr_prog_variant *pv, int npv);

#endif /* GR_EVIDENCE_H */
