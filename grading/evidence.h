/*
 * evidence.h — after correctness, the sanitizer and perf: what a diagnosis needs beyond the per-size
 * outcomes that correctness.c records, then the diagnosis itself (diagnose.h) for every variant.
 *
 * For a variant that failed (wrong, crash, time limit, error), at a cost only for those: three runs of
 * one failing size on one seed (differing results: a race or lost updates) and one memcheck run at the
 * chapter's small sanitizer size, racecheck too if memcheck is clean (the first finding goes into the
 * feedback). For a correct variant:
 * a finding of the regular sanitizer runs, perf's ratio (a slow variant) and honesty.c's host-compute
 * finding (the work on the host). Awards nothing.
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
