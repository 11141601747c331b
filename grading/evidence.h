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

/* Seconds one profiled run may take: two per slow variant stay within the 15 s. */
#define GR_CTR_RUN_S 7.5

/* ncu's raw page holds every metric of its sections, about 20 KB a launch: more than a run's usual output cap. */
#define GR_CTR_OUT_CAP (4u << 20)

/* 1 when the budget has room for two profiled runs (pure; b NULL: no budget, room). */
int gr_ctr_room(const gr_budget *b);

/* The file name (into out) of the reference's counters kept for a GPU model, a build (a checksum of the reference's
 * bytes), a chapter, a variant and a size: every entry of a class on that kind of GPU reads them instead of profiling
 * the reference again. Pure; characters outside [A-Za-z0-9.-] become '_'. 0, or -1 when it does not fit. */
int gr_ctr_cache_name(const char *gpu, unsigned long long build, int chapter, const char *variant, const char *size,
                      char *out, size_t len);

#endif /* GR_EVIDENCE_H */
