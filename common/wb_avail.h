/*
 * wb_avail.h — whether this GPU, and this build on it, can run a variant. Some instructions exist only
 * on some GPUs (wgmma and TMA: sm_90a code; cp.async.bulk: sm_90), and a binary built for an older GPU
 * runs its PTX JIT-compiled, without them, even on a GPU that has them. Such a variant is reported
 * "not available on this GPU" with its reason, never FAIL (CONTRACT.md, "Variants a GPU cannot run").
 *
 *   the decision ........ wb_avail_decide: a need, the GPU's compute capability, the code that runs (pure)
 *   a run's answers ..... wb_avail_find: every variant's `unavailable` hook asked once (plain C)
 * and, under nvcc:
 *   the probe ........... wb_code_probe, wb_built_with_sm90a, wb_built_with_sm90: which code really runs
 *   ready-made hooks .... wb_needs_sm90a, wb_needs_sm90 (a variant table points at them), wb_needs_cc
 *
 * Part of the chapters' harness: plain C (C99), static inline, included through wb.h; the tests include
 * the plain half without a GPU.
 */
#ifndef WB_AVAIL_H
#define WB_AVAIL_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "contract.h"
#include "wb_cli.h"

/* ---------------------------------------------------------------- the decision (pure) */
/* The code the runtime picked from the binary for this GPU, as a kernel compiled with the program's
 * flags reports it: an sm_80 build on an H200 runs its compute_80 PTX, JIT-compiled (arch 800). */
typedef struct {
    int arch;     /* __CUDA_ARCH__ of the code that ran, e.g. 900; 0: the probe could not run */
    int specific; /* the arch-specific features it was compiled with (sm_90a: 900), 0: none */
} wb_code_path;

/* What a variant's code needs. */
typedef struct {
    int major, minor;  /* compute capability, at least this */
    int arch_specific; /* 1: sm_XYa code, the features of that one GPU (wgmma); the GPU must be exactly XY */
    const char *what;  /* the instructions that need it, for the reason ("wgmma"); NULL: not said */
} wb_need;

/* "sm_90", "sm_90a", "sm_100". */
static inline void wb_arch_name(int major, int minor, int specific, char *buf, size_t n)
{
    snprintf(buf, n, "sm_%d%d%s", major, minor, specific ? "a" : "");
}

/* A reason into why: cut to n bytes, as a reason may be (the one place it is formatted). */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static inline void wb_avail_say(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
}

/* 0 when a GPU of compute capability cc_major.cc_minor running `code` meets `need`; else 1 with a
 * one-line reason in why that names what is needed and what this GPU, or this build on it, is. */
static inline int wb_avail_decide(const wb_need *need, int cc_major, int cc_minor, wb_code_path code, char *why,
                                  size_t n)
{
    char want[40], gpu[40], ran[40], what[64] = "";
    wb_arch_name(need->major, need->minor, need->arch_specific, want, sizeof want);
    wb_arch_name(cc_major, cc_minor, 0, gpu, sizeof gpu);
    if (need->what && *need->what) snprintf(what, sizeof what, " for %.50s", need->what);
    int cc = cc_major * 10 + cc_minor, needed = need->major * 10 + need->minor;
    if (cc < needed) {
        wb_avail_say(why, n, "needs %s code%s; this GPU is %s", want, what, gpu);
        return 1;
    }
    if (need->arch_specific && cc != needed) {
        wb_avail_say(why, n, "needs %s code%s, which only sm_%d%d GPUs run; this GPU is %s", want, what, need->major,
                 need->minor, gpu);
        return 1;
    }
    if (code.arch <= 0) {
        wb_avail_say(why, n, "needs %s code%s; could not tell which code this build runs on this %s GPU", want, what, gpu);
        return 1;
    }
    snprintf(ran, sizeof ran, "sm_%d", code.arch / 10);
    if (code.arch < needed * 10 || (need->arch_specific && code.specific != needed * 10)) {
        wb_avail_say(why, n, "needs %s code%s; this build has none for this %s GPU, which runs its %s%s code: rebuild "
                 "with make ARCH=%s", want, what, gpu, ran, code.specific ? "a" : "", want);
        return 1;
    }
    return 0;
}

/* ---------------------------------------------------------------- a run's answers */
/* Which variants this run cannot run, and why: asked once, after the GPU is found. */
typedef struct {
    unsigned mask;                            /* bit v: variant v cannot run here */
    int asked;                                /* a GPU was there to ask about (else mask is 0) */
    char why[WB_MAX_VARIANTS][WB_REASON_LEN]; /* variant v's reason, one line */
} wb_avail;

/* Does any variant of the chapter have an `unavailable` hook? (Only then does --list ask the GPU.) */
static inline int wb_avail_hooks(const wb_cli *cli)
{
    for (int v = 0; v < cli->n_variants; v++)
        if (cli->variants[v].unavailable) return 1;
    return 0;
}

/* Asks every variant's hook about dev (NULL: no GPU, nothing asked). A hook that gives no reason gets
 * one; a reason's line breaks become spaces (a row and a JSON line are one line). */
static inline void wb_avail_find(const wb_cli *cli, const wb_device *dev, wb_avail *a)
{
    memset(a, 0, sizeof *a);
    a->asked = dev != NULL;
    for (int v = 0; dev && v < cli->n_variants && v < WB_MAX_VARIANTS; v++) {
        char why[WB_REASON_LEN] = "";
        if (!cli->variants[v].unavailable || !cli->variants[v].unavailable(dev, why, sizeof why)) continue;
        why[sizeof why - 1] = 0;
        for (char *c = why; *c; c++)
            if (*c == '\n' || *c == '\r' || *c == '\t') *c = ' ';
        a->mask |= 1u << v;
        snprintf(a->why[v], sizeof a->why[v], "%s", why[0] ? why : "this GPU cannot run it; the chapter gives no reason");
    }
}

/* ---------------------------------------------------------------- the probe and ready-made hooks (nvcc) */
#ifdef __CUDACC__
#include "wb_device.h"

/* Compiled with the program's own flags, so the code the runtime picks for it from the fatbinary is the
 * code every kernel of this one-file program runs. */
static __global__ void wb_code_probe_kernel(int *out)
{
#ifdef __CUDA_ARCH__
    out[0] = __CUDA_ARCH__;
#if defined(__CUDA_ARCH_SPECIFIC__)
    out[1] = __CUDA_ARCH_SPECIFIC__;
#elif defined(__CUDA_ARCH_FEAT_SM90_ALL)
    out[1] = 900; /* toolkits before 12.9 name sm_90a's features only */
#else
    out[1] = 0;
#endif
#endif
}

/* Runs the probe on the current GPU. Never exits: a probe that cannot run (no code for this GPU at
 * all, no memory) answers arch 0, and the error is cleared. */
static inline wb_code_path wb_code_probe(void)
{
    wb_code_path p = {0, 0};
    int *d = NULL, h[2] = {0, 0};
    if (cudaMalloc(&d, sizeof h) == cudaSuccess && cudaMemset(d, 0, sizeof h) == cudaSuccess) {
        wb_code_probe_kernel<<<1, 1>>>(d);
        if (cudaGetLastError() == cudaSuccess && cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess)
            p.arch = h[0], p.specific = h[1];
    }
    if (d) cudaFree(d);
    cudaGetLastError();
    return p;
}

/* Does this build run sm_90a code (wgmma, TMA, setmaxnreg) on dev? An sm_90 build does not. */
static inline int wb_built_with_sm90a(const wb_device *dev)
{
    (void)dev; /* the harness's GPU is the current device (wb_device_probe) */
    return wb_code_probe().specific == 900;
}

/* Does this build run sm_90 code or later (cp.async.bulk, clusters) on dev? */
static inline int wb_built_with_sm90(const wb_device *dev)
{
    (void)dev;
    return wb_code_probe().arch >= 900;
}

/* The decision for dev and the code this build runs there: an `unavailable` hook's whole body. */
static inline int wb_needs(const wb_device *dev, const wb_need *need, char *why, size_t n)
{
    return wb_avail_decide(need, dev->prop.major, dev->prop.minor, wb_code_probe(), why, n);
}

/* Compute capability major.minor or later, for `what` ("cp.async"): a chapter's own hook calls it. */
static inline int wb_needs_cc(const wb_device *dev, int major, int minor, const char *what, char *why, size_t n)
{
    wb_need need = {major, minor, 0, what};
    return wb_needs(dev, &need, why, n);
}

/* Ready-made hooks: `.unavailable = wb_needs_sm90a` in a variant table. */
static inline int wb_needs_sm90a(const wb_device *dev, char *why, size_t n)
{
    wb_need need = {9, 0, 1, "wgmma and TMA"};
    return wb_needs(dev, &need, why, n);
}

static inline int wb_needs_sm90(const wb_device *dev, char *why, size_t n)
{
    wb_need need = {9, 0, 0, "cp.async.bulk"};
    return wb_needs(dev, &need, why, n);
}
#endif /* __CUDACC__ */
#endif /* WB_AVAIL_H */
