/*
 * wb_cuda.h — CUDA's errors and the memory a chapter's setup allocates. CUDA only (included by wb.h
 * under nvcc; plain C includes see nothing of it).
 *
 *   CUDA_CHECK, LAUNCH_CHECK ..... name the failing call and where it is, then exit
 *   wb_host_alloc, wb_device_alloc  tracked: wb_main frees them after each size (wb_free_all)
 *   wb_device_copy ............... a read-only input: recorded with its checksum (wb_guard.h checks it)
 */
#ifndef WB_CUDA_H
#define WB_CUDA_H
#ifdef __CUDACC__

#include <cuda_runtime.h>

#include "contract.h"
#include "wb_inputs.h"

/* Names the failing call and where it is, then exits: a CUDA error leaves the context unusable. */
static inline void wb_cuda_check(cudaError_t e, const char *call, const char *file, int line)
{
    if (e == cudaSuccess) return;
    fprintf(stderr, "%s:%d: CUDA error %s (%s) in %s\n", file, line, cudaGetErrorName(e), cudaGetErrorString(e),
            call);
    exit(e == cudaErrorMemoryAllocation ? WB_EXIT_NO_MEMORY : WB_EXIT_CUDA);
}
#define CUDA_CHECK(call) wb_cuda_check((call), #call, __FILE__, __LINE__)
/* After every <<<...>>>: catches bad launch configurations at once (kernel faults surface at the next
 * synchronising call, which CUDA_CHECK also catches). */
#define LAUNCH_CHECK() wb_cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)

/* ---------------------------------------------------------------- memory */
/* What a chapter's setup allocates with these is freed by wb_main after the size (no teardown). */
enum { WB_MAX_ALLOCS = 64 };
static struct {
    void *p;
    int on_device;
} wb_allocs[WB_MAX_ALLOCS];
static int wb_n_allocs;

static inline void *wb_track(void *p, int on_device)
{
    if (wb_n_allocs == WB_MAX_ALLOCS) {
        fprintf(stderr, "wb.h: more than %d allocations for one size (raise WB_MAX_ALLOCS)\n", WB_MAX_ALLOCS);
        exit(WB_EXIT_CUDA);
    }
    wb_allocs[wb_n_allocs].p = p;
    wb_allocs[wb_n_allocs++].on_device = on_device;
    return p;
}

/* A large host array's pages, made at once by every core: on 2 MiB pages where the kernel gives them, and
 * each touched. Why: the first cudaMemcpy into untouched pageable memory faults it in page by page on one
 * thread. On the H100's host that was 170 ms for a 256 MiB result buffer, twice per --grading run (the
 * check's size, the rotated run's), more than the timed repetitions of all four variants of chapter 1. */
static inline void wb_host_populate(char *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    (void)madvise(p, bytes, MADV_HUGEPAGE); /* advice: without it the pages are 4 KiB, as before */
#endif
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
    for (size_t i = 0; i < bytes; i += 4096) p[i] = 0;
}

/* Host memory for `what`, or exit with a plain message: running out of host memory is not a CUDA error
 * (exit code WB_EXIT_CUDA all the same: the run could not go on). From 2 MiB on, populated at once. */
static inline void *wb_host_alloc(size_t bytes, const char *what)
{
    const size_t huge = (size_t)2 << 20;
    size_t whole = (bytes + huge - 1) / huge * huge;
    void *p = bytes >= huge ? aligned_alloc(huge, whole) : malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of host memory: %.2f GB for %s could not be allocated\n", bytes / 1e9, what);
        exit(WB_EXIT_CUDA);
    }
    if (bytes >= huge) wb_host_populate((char *)p, whole);
    return wb_track(p, 0);
}

static inline void *wb_device_alloc(size_t bytes)
{
    void *p = NULL;
    CUDA_CHECK(cudaMalloc(&p, bytes ? bytes : 1));
    return wb_track(p, 1);
}

/* The chapter's inputs: what wb_device_copy made, in setup order. wb_main checks them after every run
 * of a variant (wb_guard_inputs) and restores a changed one; wb_free_all forgets them. */
enum { WB_MAX_INPUTS = 16 };
typedef struct {
    void *device;
    const void *host;   /* the host original (setup's array): the copy is restored from it */
    size_t bytes, elem_size;
    uint64_t sum;       /* wb_checksum64 of the host bytes at copy time: the host array may change later */
    const char *name;   /* optional (a string literal); NULL: "input K" */
} wb_input;
static wb_input wb_inputs[WB_MAX_INPUTS];
static int wb_n_inputs;

/* A device copy of `bytes` of host memory: a read-only input of the variants. The host array must stay
 * allocated until wb_free_all (wb_host_alloc's arrays do). name (optional) labels it in the "writes its
 * input" line; elem_size: the element the first changed index counts in (the chapters' inputs are int32
 * or float32). A buffer that a variant may write is not an input: wb_device_alloc and cudaMemcpy it. */
static inline void *wb_device_copy(const void *host, size_t bytes, const char *name = NULL, size_t elem_size = 4)
{
    if (wb_n_inputs == WB_MAX_INPUTS) {
        fprintf(stderr, "wb.h: more than %d inputs for one size (raise WB_MAX_INPUTS)\n", WB_MAX_INPUTS);
        exit(WB_EXIT_CUDA);
    }
    void *p = wb_device_alloc(bytes);
    CUDA_CHECK(cudaMemcpy(p, host, bytes, cudaMemcpyHostToDevice));
    wb_inputs[wb_n_inputs++] = wb_input{p, host, bytes, elem_size ? elem_size : 1, wb_checksum64(host, bytes), name};
    return p;
}

static inline void wb_free_all(void)
{
    wb_n_inputs = 0;
    while (wb_n_allocs > 0) {
        --wb_n_allocs;
        if (wb_allocs[wb_n_allocs].on_device) CUDA_CHECK(cudaFree(wb_allocs[wb_n_allocs].p));
        else free(wb_allocs[wb_n_allocs].p);
    }
}

#endif /* __CUDACC__ */
#endif /* WB_CUDA_H */
