/*
 * wb_fresh.h — --grading's timed repetitions on inputs of their own: what the chapters' generators and
 * on-GPU checks share. CUDA only (included by wb_timing.h under nvcc).
 *
 *   wb_fill_i32_gpu, wb_fill_f32_gpu ... the ranges of wb_fill_i32 / wb_fill_f32 (contract.h), on the GPU
 *   wb_fault, wb_fault_warp ............ record a wrong place's key (wb_check.h: wb_fault_key, wb_fault_str)
 *   wb_fresh_check ..................... an output checked element by element against expect(j): exact
 *                                        for integers (int32, int64), within a bound for floats (wb_near)
 *   wb_sum_i32_kernel .................. the harness's own reduction (chapter 3's check)
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

#include "wb_check.h"
#include "wb_cuda.h"

#define WB_FRESH_BLOCK 256

/* Blocks for a grid-stride loop over n elements: enough to fill any GPU, no more. */
static inline int wb_fresh_grid(size_t n)
{
    size_t b = (n + WB_FRESH_BLOCK - 1) / WB_FRESH_BLOCK;
    return b < 1 ? 1 : b > 8192 ? 8192 : (int)b;
}

/* An int in [lo, hi] for element i: the range of the host's wb_fill_i32, but by multiply-shift instead of
 * its 64-bit modulo, which costs the GPU more than the kernels it checks (on the H100 at 2^26 ints the
 * modulo made generation and check 0.5 ms a repetition). Each value's share is within span/2^32 of
 * uniform (exact for the power-of-two spans of chapters 1 and 2). So these are not the host's values for
 * the same seed; the repetitions never need those, only inputs of their own. */
__device__ __forceinline__ int32_t wb_random_i32(uint64_t seed, uint64_t stream, uint64_t i, int32_t lo, int32_t hi)
{
    uint64_t span = (uint64_t)((int64_t)hi - (int64_t)lo) + 1; /* ≤ 2^32 */
    return (int32_t)((int64_t)lo + (int64_t)(((wb_random_at(seed, stream, i) >> 32) * span) >> 32));
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

/* ---------------------------------------------------------------- checks */
/* A repetition's output checked element by element against expect(j), a functor computing from the
 * recipe what element j must be (`__device__ T operator()(size_t j) const`; for floats it returns a
 * wb_near, the value and its bound); the first wrong j goes to *fault. The output's type picks the
 * comparison (wb_fresh_eq): integers of any width (int32_t, int64_t, uint64_t) exactly, float and double
 * within expect(j).bound of expect(j).ref (wb_check.h's wb_f32_within, wb_f64_within: never NaN, never
 * the poison); a functor of the other kind does not compile. So a chapter's verify is its expect functor
 * and one call of wb_fresh_check, whatever its output's type.
 * Where an element's value is not a closed form of the recipe (a prefix sum), the chapter computes the
 * expected output on the GPU with a kernel of its own and passes wb_fresh_from<T>{that buffer}. */
typedef struct {
    double ref, bound;
} wb_near;

/* Is an element of type T what it must be? Integers (any width): equal. Floats: within the bound. */
template <class T>
struct wb_fresh_eq {
    __device__ static bool ok(T got, T want) { return got == want; }
};
template <>
struct wb_fresh_eq<float> {
    __device__ static bool ok(float got, wb_near want) { return wb_f32_within(got, want.ref, want.bound); }
};
template <>
struct wb_fresh_eq<double> {
    __device__ static bool ok(double got, wb_near want) { return wb_f64_within(got, want.ref, want.bound); }
};

template <class T, class E>
__global__ void wb_fresh_check_kernel(const T *out, size_t n, E expect, unsigned rep, unsigned long long *fault)
{
    unsigned long long first = WB_FAULT_NONE;
    for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < n; j += (size_t)gridDim.x * blockDim.x)
        if (first == WB_FAULT_NONE && !wb_fresh_eq<T>::ok(out[j], expect(j))) first = wb_fault_key(rep, WB_FAULT_AT, j);
    wb_fault_warp(fault, first);
}

template <class T, class E>
static inline void wb_fresh_check(const T *out, size_t n, E expect, unsigned rep, unsigned long long *fault)
{
    wb_fresh_check_kernel<<<wb_fresh_grid(n), WB_FRESH_BLOCK>>>(out, n, expect, rep, fault);
    LAUNCH_CHECK();
}

/* Chapters 1 and 2's name for it (an int32 output). */
template <class E>
static inline void wb_fresh_check_i32(const int32_t *out, size_t n, E expect, unsigned rep, unsigned long long *fault)
{
    wb_fresh_check(out, n, expect, rep, fault);
}

/* expect(j) read from a device array the chapter computed from the recipe (integers). */
template <class T>
struct wb_fresh_from {
    const T *want;
    __device__ T operator()(size_t j) const { return want[j]; }
};

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
