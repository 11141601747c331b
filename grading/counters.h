/* counters.h — hardware counters of a correct but slow variant: the metric plan (checked against the H100's
 * `ncu --set full` capture in tests/captured/), ncu's argv as data (evidence.c runs it in the sandbox) and ncu's CSV
 * (read by ncu.c) into one struct per variant. Pure but gr_ctr_find_ncu; the cause drawn from two of these is
 * diagnose.h's gr_perf_cause. */
#ifndef GR_COUNTERS_H
#define GR_COUNTERS_H

#include <stddef.h>

#include "ncu.h"

/* Why there are counters or not: the feedback says which in one line, and names no cause without them. */
typedef enum {
    GR_CTR_NOT_TRIED,  /* the variant is not slow, or perf did not run (0: a zeroed evidence has no counters) */
    GR_CTR_OK,
    GR_CTR_NO_NCU,     /* no ncu beside compute-sanitizer nor on PATH */
    GR_CTR_NO_PERM,    /* ERR_NVGPUCTRPERM: the driver lets only admins read the counters */
    GR_CTR_BUDGET,     /* the chapter's GPU budget had no room for two profiled runs */
    GR_CTR_TIMEOUT,    /* ncu ran past its limit */
    GR_CTR_FAILED,     /* ncu ended without a kernel's metrics (its output's tail says why) */
    GR_CTR_STATUS_COUNT
} gr_ctr_status;

const char *gr_ctr_status_name(gr_ctr_status s);
/* Why a slow variant's diagnosis names no cause, as its evidence says it ("" for OK). */
const char *gr_ctr_status_line(gr_ctr_status s);

/* A variant's counters, each from the metrics counters.c's plan names for it: summed over its kernels,
 * but the occupancy, its limits, the launch and the barrier stalls are its longest kernel's. 0 where ncu
 * did not report a metric. */
typedef struct {
    int n_kernels;
    double time_ns, dram_bytes;
    double ld_sectors, ld_requests, st_sectors, st_requests; /* global loads and stores in L1TEX */
    double shared_requests, bank_conflicts;           /* shared load+store instructions; their extra wavefronts */
    double local_sectors, atomics, inst;              /* spills; global atomic and reduction requests; warp instr. */
    double occupancy, occupancy_max;                  /* achieved and theoretical, % of the SM's warps */
    double lim_regs, lim_smem, lim_warps, lim_blocks; /* blocks per SM each resource allows */
    double regs, block, smem;                         /* per thread; threads per block; shared bytes per block */
    double stall_barrier;                             /* warps waiting at a barrier per issued instruction */
} gr_ctr;

/* What the limiter of the occupancy is: the resource that allows the fewest blocks per SM. */
typedef enum { GR_LIM_NONE, GR_LIM_REGISTERS, GR_LIM_SHARED, GR_LIM_BLOCK_SIZE, GR_LIM_BLOCKS } gr_ctr_limiter;
gr_ctr_limiter gr_ctr_limiter_of(const gr_ctr *c);
const char *gr_ctr_limiter_name(gr_ctr_limiter l);

/* The metric plan: the i-th name read from ncu's output, NULL past the last. ncu collects these alone (one
 * --metrics list, gr_ctr_argv), not the sections that hold them: seven sections cost 15 s a run on the H200. */
const char *gr_ctr_metric(int i);

/* c as a JSON object of its numbers (grading.json keeps what the cause was drawn from, so a change to the
 * rules can be replayed on a class's measurements). */
struct json_t;
struct json_t *gr_ctr_json(const gr_ctr *c);

/* One profiled run: the program, the variant, the size, and ncu itself. */
typedef struct {
    const char *ncu;        /* ncu's path */
    const char *prog;       /* the chapter program (student's build or the reference) */
    const char *variant;
    const char *size;       /* the chapter's perf size (gr_ctr_size) */
    const char *kernels;    /* the variant's kernels, comma-separated, as the reference's --list names them */
} gr_ctr_req;

#define GR_CTR_ARGS 32
#define GR_CTR_ARG 160      /* gr_cmd's own bound on one argument (the metric list is kept by the caller) */
#define GR_CTR_METRICS 2048 /* the metric list, comma-separated */
/* One profiled run's argv: argv[i] points into this struct (the filter, the count and the list are its own). */
typedef struct {
    char filter[GR_CTR_ARG + 1], launches[16], metrics[GR_CTR_METRICS];
    const char *argv[GR_CTR_ARGS + 1];
    int argc;
} gr_ctr_cmd;
/* The argv of one profiled run into c; returns argc, or -1 (also when no kernel is named: the harness's own kernels,
 * the speed-of-light sweep that runs first, would be what ncu measured). Each argument but the metric list fits
 * GR_CTR_ARG bytes. */
int gr_ctr_argv(const gr_ctr_req *q, gr_ctr_cmd *c);

/* The launches one run profiles: one per kernel the variant names (a run checks the variant before it times it,
 * and the check's launches are each kernel's first: a prepare kernel, then the variant's own). 0 for none. Pure. */
int gr_ctr_launches(const char *kernels);

/* The student's profile limit (issue 64): the reference's measured profile time, ref_s, scaled by the student's
 * measured time ratio (at least 1: the profiler's own start does not shrink), times GR_CTR_MARGIN, plus
 * GR_CTR_SLACK_S; it must fit in left_s, the GPU time the submission's budget has left after timing and
 * correctness (INFINITY: no budget). 1 with the limit in *limit_s; 0 when it does not fit or cannot be derived,
 * with the reason in why. Pure. */
#define GR_CTR_MARGIN 1.5
#define GR_CTR_SLACK_S 2.0
int gr_ctr_limit(double ref_s, double ratio, double left_s, double *limit_s, char *why, size_t len);

/* ncu's --csv --page raw output (the program's own lines around it are skipped) -> c. Returns the status:
 * OK with at least one kernel, NO_PERM when ncu says ERR_NVGPUCTRPERM, FAILED otherwise. */
gr_ctr_status gr_ctr_parse(const char *text, gr_ctr *c);

/* ncu's path beside compute-sanitizer (the same toolkit), else on PATH; 0, or -1 when none. */
int gr_ctr_find_ncu(const char *sanitizer, char *out, size_t len);

#endif /* GR_COUNTERS_H */
