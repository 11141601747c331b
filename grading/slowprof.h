/* slowprof.h — evidence.c's hook for a correct but slow variant: ncu on the reference and then the student's build, the
 * variant's own kernels at the perf size, each a sandboxed run (gr_cmd / gr_exec) within the pair's 2 x GR_CTR_RUN_S,
 * only while the GPU budget has room; the reference's output kept per GPU model and build in build/counters/, so a
 * class profiles it once. */
#ifndef GR_SLOWPROF_H
#define GR_SLOWPROF_H

#include "diagnose.h"
#include "job.h"

/* Seconds one profiled run may take: two per slow variant stay within the 15 s. */
#define GR_CTR_RUN_S 7.5

/* 1 when the budget has room for two profiled runs (pure; b NULL: no budget, room). */
int gr_ctr_room(const gr_budget *b);

/* Profiles `variant` of the student's build and of the reference into e (sets e->ctr whatever happens):
 * its `kernels` alone (comma-separated, from the reference's --list), none named: nothing measured. */
void gr_slow_counters(const gr_chjob *j, const char *variant, const char *kernels, gr_diag_ev *e);

/* The file name (into out) of the reference's counters kept for a GPU model, a build (a checksum of the reference's
 * bytes), a chapter, a variant and a size: every entry of a class on that kind of GPU reads them instead of profiling
 * the reference again. Pure; characters outside [A-Za-z0-9.-] become '_'. 0, or -1 when it does not fit. */
int gr_ctr_cache_name(const char *gpu, unsigned long long build, int chapter, const char *variant, const char *size,
                      char *out, size_t len);

/* ncu's raw page holds every metric of its sections, about 20 KB a launch: more than a run's usual output cap. */
#define GR_CTR_OUT_CAP (4u << 20)

#endif /* GR_SLOWPROF_H */
