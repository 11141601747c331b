/*
 * wb_fresh.h — --grading's timed repetitions on inputs of their own: what the chapters' generators and
 * on-GPU checks share. CUDA only (included by wb_timing.h under nvcc).
 *
 *   wb_fill_i32_gpu, wb_fill_f32_gpu ... wb_fill_i32 / wb_fill_f32 (contract.h) on the GPU: the same values
 *   wb_fault_* ......................... where a repetition's output was first wrong, as one 64-bit key that
 *                                        atomicMin keeps (the earliest repetition, then the lowest place)
 *   wb_fault_str ....................... the key in words: "repetition 37 of 1000 wrong at [12][40]"
 *   wb_sum_i32_gpu ..................... the harness's own reduction (chapter 3's check)
 *
 * Why: a variant that keeps results keyed by its inputs' content (or pointers), skips repetitions or
 * finishes its output lazily gains nothing when every timed repetition gets new inputs from a seed it
 * cannot know in advance and every repetition's output is checked. The checks read the output only and
 * recompute what it must be from the generator (never from the input buffers, which a variant could
 * have changed), on the GPU, enqueued after the stop event: outside the timed interval.
 */
#ifndef WB_FRESH_H
#define WB_FRESH_H
#ifdef __CUDACC__

#include "wb_cuda.h"

#define WB_FRESH_BLOCK 256

/* Blocks for a grid-stride loop over n elements: enough to fill any GPU, no more. */
static inline int wb_fresh_grid(size_t n)
{
    size_t b = (n + WB_FRESH_BLOCK - 1) / WB_FRESH_BLOCK;
    return b < 1 ? 1 : b > 8192 ? 8192 : (int)b;
}

__device__ __forceinline__ int32_t wb_random_i32(uint64_t seed, uint64_t stream, uint64_t i, int32_t lo, int32_t hi)
{
    uint64_t span = (uint64_t)((int64_t)hi - (int64_t)lo) + 1;
    return (int32_t)((int64_t)lo + (int64_t)(wb_random_at(seed, stream, i) % span));
}

/* The host's lo + (hi - lo)·u, rounded the same way (no fused multiply-add). */
__device__ __forceinline__ float wb_random_f32(uint64_t seed, uint64_t stream, uint64_t i, float lo, float hi)
{
    float u = (float)(wb_random_at(seed, stream, i) >> 40) * (1.0f / 16777216.0f);
    return __fadd_rn(lo, __fmul_rn(hi - lo, u));
}

__global__ void wb_fill_i32_kernel(int32_t *a, size_t n, uint64_t seed, uint64_t stream, int32_t lo, int32_t hi)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        a[i] = wb_random_i32(seed, stream, i, lo, hi);
}

__global__ void wb_fill_f32_kernel(float *a, size_t n, uint64_t seed, uint64_t stream, float lo, float hi)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        a[i] = wb_random_f32(seed, stream, i, lo, hi);
}

static inline void wb_fill_i32_gpu(int32_t *d, size_t n, uint64_t seed, uint64_t stream, int32_t lo, int32_t hi)
{
    wb_fill_i32_kernel<<<wb_fresh_grid(n), WB_FRESH_BLOCK>>>(d, n, seed, stream, lo, hi);
    LAUNCH_CHECK();
}

static inline void wb_fill_f32_gpu(float *d, size_t n, uint64_t seed, uint64_t stream, float lo, float hi)
{
    wb_fill_f32_kernel<<<wb_fresh_grid(n), WB_FRESH_BLOCK>>>(d, n, seed, stream, lo, hi);
    LAUNCH_CHECK();
}

/* ---------------------------------------------------------------- where a repetition went wrong */
/* key = repetition (bits 52-63) | kind (50-51) | place (0-49): the smallest key is the earliest
 * repetition's fault, so atomicMin keeps the one worth reporting. */
#define WB_FAULT_NONE 0xFFFFFFFFFFFFFFFFull
typedef enum { WB_FAULT_AT, WB_FAULT_AT2, WB_FAULT_ROW, WB_FAULT_VALUE } wb_fault_kind;

WB_HD static inline unsigned long long wb_fault_key(unsigned rep, wb_fault_kind kind, unsigned long long place)
{
    return (unsigned long long)rep << 52 | (unsigned long long)kind << 50 | (place & ((1ull << 50) - 1));
}
/* 2-D places: row and column, 25 bits each (the chapters' extents are below 2^25). */
WB_HD static inline unsigned long long wb_fault_ij(unsigned long long i, unsigned long long j) { return i << 25 | j; }

__device__ __forceinline__ void wb_fault(unsigned long long *fault, unsigned long long key) { atomicMin(fault, key); }

/* Every lane of a warp calls this once with its smallest key (WB_FAULT_NONE: none): one atomic per warp
 * that found something, so a wholly wrong output costs no storm of atomics on one address. */
__device__ __forceinline__ void wb_fault_warp(unsigned long long *fault, unsigned long long key)
{
    for (int d = 16; d > 0; d /= 2) {
        unsigned long long other = __shfl_down_sync(0xFFFFFFFFu, key, d);
        key = other < key ? other : key;
    }
    if ((threadIdx.x & 31) == 0 && key != WB_FAULT_NONE) wb_fault(fault, key);
}

/* "repetition 37 of 1000 wrong at [12][40]" (repetitions counted from 1). */
static inline void wb_fault_str(unsigned long long key, int reps, char *out, size_t len)
{
    unsigned rep = (unsigned)(key >> 52) + 1;
    unsigned long long place = key & ((1ull << 50) - 1);
    int n = snprintf(out, len, "repetition %u of %d wrong ", rep, reps);
    if (n < 0 || (size_t)n >= len) return;
    switch ((wb_fault_kind)(key >> 50 & 3)) {
    case WB_FAULT_AT: snprintf(out + n, len - n, "at [%llu]", place); break;
    case WB_FAULT_AT2: snprintf(out + n, len - n, "at [%llu][%llu]", place >> 25, place & ((1ull << 25) - 1)); break;
    case WB_FAULT_ROW: snprintf(out + n, len - n, "in row %llu (its random projection)", place); break;
    default: snprintf(out + n, len - n, "(the value)"); break;
    }
}

/* ---------------------------------------------------------------- the harness's own reduction */
/* Σ of the generator's ints, into *sum (zeroed by the caller): chapter 3's expected result for a
 * repetition, computed from the recipe rather than read from the input a variant could have changed. */
__global__ void wb_sum_i32_kernel(unsigned long long *sum, size_t n, uint64_t seed, uint64_t stream, int32_t lo,
                                  int32_t hi)
{
    long long own = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        own += wb_random_i32(seed, stream, i, lo, hi);
    for (int d = 16; d > 0; d /= 2) own += __shfl_down_sync(0xFFFFFFFFu, own, d);
    if ((threadIdx.x & 31) == 0) atomicAdd(sum, (unsigned long long)own);
}

#endif /* __CUDACC__ */
#endif /* WB_FRESH_H */
