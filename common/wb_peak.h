/*
 * wb_peak.h — what the hardware can do, measured in the same run: the ceilings nothing may pass.
 * CUDA only (included by wb.h under nvcc).
 *
 * A ceiling is a rate of the GPU itself, never a library's time: a student may fairly beat cuBLAS at
 * an odd shape, but not the FMA peak. Each peak is a register-only (or streaming) loop that keeps every
 * SM busy, timed like any variant.
 *
 *   wb_read_rate ....... GB/s of reading a buffer once (int4 loads; the best of 6 shapes: grid-stride, one pass)
 *   wb_fma_peak ........ GFLOP/s of fp32 FMA (2 flops each; the best of 4 launch shapes)
 *   wb_minplus_peak .... G steps/s of v = min(v, x + y), the fastest exact instruction mix of the two
 *   wb_tc_peak ......... GFLOP/s of the tensor cores, fp16 products summed in fp32 (wmma 16×16×16 on registers)
 *
 * Each is the best of a small sweep of independent chains and launch shapes, measured in the same run;
 * tests/test_peak.c checks on the GPU that a wider sweep (tests/planted/peak_sweep.cu) finds at most
 * 2 % more, so no change can make a ceiling slow again.
 */
#ifndef WB_PEAK_H
#define WB_PEAK_H

#include <mma.h> /* wb_tc_peak's fragments */

/* The largest of n rates. */
static inline double wb_max_of(const double *x, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++) m = x[i] > m ? x[i] : m;
    return m;
}

/* Every thread XORs what it reads, and writes only if that equals a value no input makes likely:
 * the compiler must keep every load. U loads are issued before any is used (U 16-byte requests in
 * flight per thread); the grid-stride tail reads the rest one at a time. */
template <int U> __global__ void wb_read_kernel(const int4 *p, size_t n4, int *sink)
{
    int acc = 0;
    size_t stride = (size_t)gridDim.x * blockDim.x, i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + (U - 1) * stride < n4; i += U * stride) {
        int4 v[U];
#pragma unroll
        for (int u = 0; u < U; ++u) v[u] = p[i + u * stride];
#pragma unroll
        for (int u = 0; u < U; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
    }
    for (; i < n4; i += stride) {
        int4 v = p[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x5EED5EED) *sink = acc;
}

/* The same read in one pass: each thread reads U int4 a block apart and the grid covers the buffer
 * (no loop; the last block's tail is bounds-checked). On an H100 this shape read 3.15 TB/s where the
 * grid-stride loop's best was 3.05 (tests/planted/peak_sweep.cu). */
template <int U> __global__ void wb_read_pass_kernel(const int4 *p, size_t n4, int *sink)
{
    int acc = 0;
    size_t base = (size_t)blockIdx.x * blockDim.x * U + threadIdx.x;
#pragma unroll
    for (int u = 0; u < U; ++u) {
        int4 v = base + u * blockDim.x < n4 ? p[base + u * blockDim.x] : make_int4(0, 0, 0, 0);
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x5EED5EED) *sink = acc;
}

template <int U> static inline double wb_read_config(const int4 *d, size_t n4, int blocks, int *sink, int warmup, int reps)
{
    double ms = wb_time_ms(
        [&] {
            wb_read_kernel<U><<<blocks, 256>>>(d, n4, sink);
            LAUNCH_CHECK();
        },
        warmup, reps, NULL);
    return 16.0 * (double)n4 / (ms * 1e-3) / 1e9;
}

template <int U> static inline double wb_read_pass(const int4 *d, size_t n4, int threads, int *sink, int warmup, int reps)
{
    size_t blocks = (n4 + (size_t)threads * U - 1) / ((size_t)threads * U);
    if (blocks == 0 || blocks > 0x7fffffff) return 0;
    double ms = wb_time_ms(
        [&] {
            wb_read_pass_kernel<U><<<(unsigned)blocks, threads>>>(d, n4, sink);
            LAUNCH_CHECK();
        },
        warmup, reps, NULL);
    return 16.0 * (double)n4 / (ms * 1e-3) / 1e9;
}

/* GB/s of reading `bytes` (a multiple of 16 is read; the rest is not counted) at d: the best of a few
 * depths of loads in flight, block sizes and grids, so that it bounds any kernel that reads the buffer
 * once (a variant that also adds what it reads must not beat its own ceiling by a lucky configuration).
 * On an H100, 2^28 ints: 3.15 TB/s (one pass, 2 loads, 512 threads). */
static inline double wb_read_rate(const void *d, size_t bytes, int warmup, int reps, const char **name)
{
    *name = "read bandwidth";
    int *sink = (int *)wb_device_alloc(sizeof(int));
    int sms = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int4 *p = (const int4 *)d;
    size_t n4 = bytes / 16;
    double r[] = {wb_read_config<4>(p, n4, sms * 4, sink, warmup, reps),
                  wb_read_config<8>(p, n4, sms * 8, sink, warmup, reps),
                  wb_read_pass<1>(p, n4, 128, sink, warmup, reps),
                  wb_read_pass<2>(p, n4, 256, sink, warmup, reps),
                  wb_read_pass<2>(p, n4, 512, sink, warmup, reps),
                  wb_read_pass<4>(p, n4, 512, sink, warmup, reps)};
    return wb_max_of(r, WB_COUNT(r));
}

/* The operands of the peak kernels: 128 of the caller's `count` floats (repeated if fewer), or a fixed
 * positive set. The loops' speed does not depend on the values. */
static inline float *wb_peak_operands(const float *vals, size_t count)
{
    float h[128];
    for (int e = 0; e < 128; e++) h[e] = vals ? vals[(size_t)e % count] : 0.5f + 0.001f * (float)e;
    if (!vals) h[0] = 0.999f, h[1] = 0.001f; /* FMA: a = a * 0.999 + 0.001 stays finite */
    /* Not wb_device_copy: these are the harness's own operands, not a chapter input that wb_main checks
     * after each variant (and h is gone when this returns). */
    float *d = (float *)wb_device_alloc(sizeof h);
    CUDA_CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    return d;
}


/* One launch shape of a register-only peak loop: `threads` per block, `waves` times the blocks that fit
 * on an SM at once, on every SM; returns the median ms and the blocks launched. */
template <class K>
static inline double wb_peak_shape_ms(K kernel, int threads, int waves, int warmup, int reps, int *blocks_out,
                                      const float *in, float *sink, int iters)
{
    int per_sm = 0, sms = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    int blocks = *blocks_out = per_sm * sms * waves;
    return wb_time_ms(
        [&] {
            kernel<<<blocks, threads>>>(in, sink, iters);
            LAUNCH_CHECK();
        },
        warmup, reps, NULL);
}

/* C independent FMA chains per thread on registers; x, y from memory so nothing folds. SASS (sm_90,
 * C = 32): 128 FFMA and 3 instructions of loop control per 4 unrolled iterations. */
template <int C, int THREADS>
__global__ void __launch_bounds__(THREADS) wb_fma_kernel(const float *in, float *sink, int iters)
{
    float a[C], x = in[0], y = in[1];
#pragma unroll
    for (int u = 0; u < C; ++u) a[u] = in[2 + (threadIdx.x + u) % 62];
#pragma unroll 4
    for (int it = 0; it < iters; ++it)
#pragma unroll
        for (int u = 0; u < C; ++u) a[u] = fmaf(a[u], x, y);
    float m = 0;
#pragma unroll
    for (int u = 0; u < C; ++u) m += a[u];
    sink[blockIdx.x * THREADS + threadIdx.x] = m;
}

/* C independent chains of min-plus steps per thread, on registers only: chain c reads nothing but its
 * own value, so no step waits for a step of another chain (when each chain read a value another had
 * just written, the loop was latency bound: 17.5 instead of 19.2 T steps/s on an H100). The sums' first
 * operand is the chain itself, so no sum is loop-invariant (the compiler would hoist it, leaving the
 * mins alone). MIX 0: v = fminf(v, v + x), one step per FADD + FMNMX. MIX 1: two sums feeding one 3-way
 * integer min of the bit patterns (__vimin3_s32, one DPX instruction, VIMNMX3, on sm_90): two steps per
 * three instructions, exact because for floats >= +0 (the chapter's inputs, +inf included) the order of
 * the bit patterns as ints is the order of the values. SASS (sm_90, nvcc 13.0, C = 32): the loop, unrolled
 * 4 times, is 256 FADD + 128 VIMNMX3 (MIX 1; 128 FADD + 128 FMNMX for MIX 0), each min writing the
 * register it reads first, and 3 instructions of loop control; nothing is hoisted. */
template <int MIX, int C, int THREADS>
__global__ void __launch_bounds__(THREADS) wb_minplus_kernel(const float *in, float *sink, int iters)
{
    float v[C], x0 = in[threadIdx.x % 64], x1 = in[64 + threadIdx.x % 64];
#pragma unroll
    for (int c = 0; c < C; ++c) v[c] = in[(threadIdx.x + 7 * c) % 128];
#pragma unroll 4
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int c = 0; c < C; ++c) {
            if (MIX == 0)
                v[c] = fminf(v[c], v[c] + x0);
            else
                v[c] = __int_as_float(__vimin3_s32(__float_as_int(v[c]), __float_as_int(v[c] + x0),
                                                   __float_as_int(v[c] + x1)));
        }
    }
    float m = INFINITY;
#pragma unroll
    for (int c = 0; c < C; ++c) m = fminf(m, v[c]);
    sink[blockIdx.x * THREADS + threadIdx.x] = m;
}

/* Chain iterations × chains per thread and launch: about 1 ms per wave on an H100. */
#define WB_PEAK_WORK 32768

template <int C, int THREADS>
static inline double wb_fma_shape(const float *in, float *sink, int waves, int warmup, int reps)
{
    int blocks, iters = WB_PEAK_WORK / C;
    double ms = wb_peak_shape_ms(wb_fma_kernel<C, THREADS>, THREADS, waves, warmup, reps, &blocks, in, sink, iters);
    return 2.0 * C * iters * (double)blocks * THREADS / (ms * 1e-3) / 1e9;
}

template <int MIX, int C, int THREADS>
static inline double wb_minplus_shape(const float *in, float *sink, int waves, int warmup, int reps)
{
    int blocks, iters = WB_PEAK_WORK / C;
    double ms = wb_peak_shape_ms(wb_minplus_kernel<MIX, C, THREADS>, THREADS, waves, warmup, reps, &blocks, in,
                                 sink, iters);
    return (MIX ? 2.0 : 1.0) * C * iters * (double)blocks * THREADS / (ms * 1e-3) / 1e9;
}

/* The sink of the peak loops: a float per thread of the largest launch they make (4 waves of 2048
 * threads per SM). */
static inline float *wb_peak_sink(void)
{
    int sms = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    return (float *)wb_device_alloc(sizeof(float) * (size_t)sms * 2048 * 4);
}

/* GFLOP/s of fp32 FMA (2 flops each): the best of a few launch shapes of 32 chains per thread. On an
 * H100 (sm_90, 132 SMs) this reached 63.7 TFLOP/s, 95 % of 128 FMA lanes × 2 flops × 1980 MHz × 132
 * SMs; 16 chains reached 60.8 (tests/planted/peak_sweep.cu sweeps 8 to 32 chains, 128 to 1024 threads
 * and 1 to 4 waves; tests/test_peak.c checks that this stays within 2 % of its best). */
static inline double wb_fma_peak(int warmup, int reps)
{
    float *in = wb_peak_operands(NULL, 0), *sink = wb_peak_sink();
    double r[] = {wb_fma_shape<32, 256>(in, sink, 4, warmup, reps), wb_fma_shape<32, 256>(in, sink, 2, warmup, reps),
                  wb_fma_shape<32, 1024>(in, sink, 4, warmup, reps), wb_fma_shape<32, 128>(in, sink, 4, warmup, reps)};
    return wb_max_of(r, WB_COUNT(r));
}

/* G steps/s of the fastest exact mix on the chapter's (non-negative) inputs vals[0..count), each the
 * best of a few launch shapes of 32 chains per thread. On an H100 the 3-way-min mix reached 20.0
 * T steps/s (512 threads, 12 blocks per SM), 0.90 of its issue rate (1.5 instructions per step, 128
 * per clock per SM, 1980 MHz, 132 SMs: 22.3); 16 chains reached 18.0, and chains that each read a
 * partner's value 17.6 (tests/planted/peak_sweep.cu). On a GPU without DPX the 3-way min is several
 * instructions, and the measurement simply picks the other mix. */
static inline double wb_minplus_peak(const float *vals, size_t count, int warmup, int reps, const char **name)
{
    float *in = wb_peak_operands(vals, count), *sink = wb_peak_sink();
    double plain[] = {wb_minplus_shape<0, 32, 512>(in, sink, 4, warmup, reps),
                      wb_minplus_shape<0, 32, 256>(in, sink, 4, warmup, reps)};
    double dpx[] = {wb_minplus_shape<1, 32, 512>(in, sink, 4, warmup, reps),
                    wb_minplus_shape<1, 32, 512>(in, sink, 2, warmup, reps),
                    wb_minplus_shape<1, 32, 1024>(in, sink, 4, warmup, reps),
                    wb_minplus_shape<1, 32, 256>(in, sink, 4, warmup, reps)};
    double p = wb_max_of(plain, WB_COUNT(plain)), q = wb_max_of(dpx, WB_COUNT(dpx));
    *name = q > p ? "peak 2 adds + min3" : "peak fminf(v, x+y)";
    return q > p ? q : p;
}

/* C independent accumulator fragments per warp, each C += A·B with fp16 A, B (16×16 each) and fp32 C,
 * all on registers: nothing but tensor-core instructions in the loop (on sm_80 and later each mma_sync
 * is two HMMA.16816.F32). A and B come from memory so nothing folds. */
template <int C, int THREADS>
__global__ void __launch_bounds__(THREADS) wb_tc_kernel(const float *in, float *sink, int iters)
{
    using namespace nvcuda;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> x;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> y;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[C];
    wmma::fill_fragment(x, __float2half(in[threadIdx.x % 64]));
    wmma::fill_fragment(y, __float2half(in[64 + threadIdx.x % 64]));
#pragma unroll
    for (int u = 0; u < C; ++u) wmma::fill_fragment(acc[u], 0.0f);
    for (int it = 0; it < iters; ++it)
#pragma unroll
        for (int u = 0; u < C; ++u) wmma::mma_sync(acc[u], x, y, acc[u]);
    /* Every element: on sm_80 and later an mma_sync is two HMMAs, each writing half of the fragment, and
     * one element kept would let the compiler drop the other (the loop then "ran" at twice the peak). */
    float m = 0;
#pragma unroll
    for (int u = 0; u < C; ++u)
#pragma unroll
        for (int e = 0; e < acc[u].num_elements; ++e) m += acc[u].x[e];
    sink[blockIdx.x * THREADS + threadIdx.x] = m;
}

template <int C, int THREADS>
static inline double wb_tc_shape(const float *in, float *sink, int waves, int warmup, int reps)
{
    int blocks, iters = WB_PEAK_WORK / 8 / C;
    double ms = wb_peak_shape_ms(wb_tc_kernel<C, THREADS>, THREADS, waves, warmup, reps, &blocks, in, sink, iters);
    return 2.0 * 16 * 16 * 16 * C * iters * (double)blocks * (THREADS / 32) / (ms * 1e-3) / 1e9;
}

/* GFLOP/s of the tensor cores with fp16 inputs and fp32 sums (2·16·16·16 flops per mma_sync): the best
 * of a few numbers of chains and launch shapes. This is the rate of the warp-level MMA every GPU from
 * sm_70 has; Hopper's warpgroup MMA (wgmma) goes faster, and chapter 6 measures it beside this one. */
static inline double wb_tc_peak(int warmup, int reps)
{
    float *in = wb_peak_operands(NULL, 0), *sink = wb_peak_sink();
    double r[] = {wb_tc_shape<4, 256>(in, sink, 4, warmup, reps), wb_tc_shape<8, 256>(in, sink, 4, warmup, reps),
                  wb_tc_shape<8, 128>(in, sink, 4, warmup, reps), wb_tc_shape<4, 512>(in, sink, 2, warmup, reps)};
    return wb_max_of(r, WB_COUNT(r));
}
#endif /* WB_PEAK_H */
