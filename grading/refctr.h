/* refctr.h — the references' counters, a product of the reference build (issue 64): ncu on a reference's variant at
 * the chapter's perf size, kept in build/counters/ per GPU model, build, chapter, variant and size with what the
 * profile cost; made before a class's first entry (gr_refctr_make: the class's preparation, the Slurm engine's
 * counters job, `grade --reference-counters`), else the first time a slow variant needs them; never charged to a
 * student's budget nor bounded by it. One profiled run (gr_ctr_exec) is the student's too (evidence.c). */
#ifndef GR_REFCTR_H
#define GR_REFCTR_H

#include "counters.h"
#include "job.h"

/* ncu's raw page holds every metric it collected, a few KB a launch: more than a run's usual output cap. */
#define GR_CTR_OUT_CAP (4u << 20)

/* The file name (into out) of the reference's counters kept for a GPU model, a build (a checksum of the reference's
 * bytes), a chapter, a variant and a size: every entry of a class on that kind of GPU reads them instead of profiling
 * the reference again. Pure; characters outside [A-Za-z0-9.-] become '_'. 0, or -1 when it does not fit. */
int gr_ctr_cache_name(const char *gpu, unsigned long long build, int chapter, const char *variant, const char *size,
                      char *out, size_t len);

/* One profiled run of q in the sandbox of every run, within limit seconds, in a folder of its own under work: its
 * counters into c, its wall time into *wall (NULL: not wanted); keep: where ncu's output is kept when it gave
 * counters, its wall time on the first line (NULL: nowhere). who: "ref" or "stu", for the log. */
gr_ctr_status gr_ctr_exec(const gr_config *x, const gr_sub_state *s, int chapter, const char *work, const gr_ctr_req *q,
                          const char *who, double limit, gr_ctr *c, double *wall, const char *keep);

/* The reference ref's counters of one variant into c, the seconds its profile took into *ref_s: kept, or made now
 * alone on the GPU under the kept file's lock (taken before the GPU's, so a class profiles it once), within the
 * reference's own limit (rubric timeouts_s.perf: trusted code, one benchmark run's bound), charged to no budget.
 * *made: 1 when this call profiled. */
gr_ctr_status gr_refctr_get(const gr_config *x, const gr_sub_state *s, const gr_chapter_rubric *ch, const char *ref,
                            const char *work, const char *ncu, const char *variant, const char *kernels, gr_ctr *c,
                            double *ref_s, int *made);

/* Before any entry: every graded chapter's reference, each variant the rubric grades, made where not kept, each
 * chapter's cost said in the log. Returns how many are kept now, or -1 where none can be made here (the practice
 * run, no GPU, no ncu, no scratch folder): then each slow variant's grading makes its reference's, as above. */
int gr_refctr_make(const gr_config *x);

#endif /* GR_REFCTR_H */
