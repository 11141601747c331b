/*
 * slowprof.h — hardware counters of a correct but slow variant beside the reference's (evidence.c's hook):
 * ncu on the student's build and on the reference, the same variant's own kernels at the chapter's perf
 * size, in the sandbox of every run of student code (gr_cmd / gr_exec, whose clock starts once the GPU is
 * held): the reference first within GR_CTR_RUN_S seconds, the student's within what the pair's
 * 2 x GR_CTR_RUN_S leaves, and only while the chapter's GPU budget has room for both. The reference's ncu
 * output is kept in build/counters/ (gr_ctr_cache_name) under a lock of its own taken before the GPU's, so
 * that concurrent graders profile it once per class. gr_diagnose draws the cause (diagnose_perf.c).
 */
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

/* The file name (into out) of the reference's counters kept for a GPU model, a build (a checksum of the
 * reference's bytes), a chapter, a variant and a size: every entry of a class on that kind of GPU reads
 * them instead of profiling the reference again. Pure; characters outside [A-Za-z0-9.-] become '_'.
 * 0, or -1 when it does not fit. */
int gr_ctr_cache_name(const char *gpu, unsigned long long build, int chapter, const char *variant, const char *size,
                      char *out, size_t len);

/* ncu's raw page holds every metric of its sections, about 20 KB a launch: more than a run's usual output cap. */
#define GR_CTR_OUT_CAP (4u << 20)

#endif /* GR_SLOWPROF_H */
