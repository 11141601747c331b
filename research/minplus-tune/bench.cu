/* Chapter 5's best variant against candidates with other tiles, block shapes, pipelines and a stream-K
 * split, in one program on the same data: each checked bit for bit against the chapter's v5 (itself checked
 * on 4 rows against the CPU), each timed as the median of `reps` launches (CUDA events), three interleaved
 * rounds, at n = 4000 and 6000, with the speed of light of common/wb_peak.h measured in the same run, and
 * that speed of light's own loop measured at fixed warps per SM. README.md has the H100's numbers.
 * Build (repository root): nvcc -O3 -std=c++20 -arch=sm_90 -Icommon -Xcompiler -fopenmp \
 *                          -o build/minplus-tune research/minplus-tune/bench.cu -lgomp
 * Run: build/minplus-tune [reps]                                           (GPU, about 20 s)   */
#define main chapter5_main
#include "../../solutions/05-minplus/minplus.cu"
#undef main

#include <vector>
#include <string>

/* ------------------------------------------------------------------ generic tiled kernel
 * TN: columns per thread (8 or 16); a thread owns 8 rows (two runs of 4) and TN columns (TN/4 runs of
 * 4), as in v5. A warp is 4 x 8 threads: 32 rows x 8*TN columns. A block is WM x WN warps.
 * KS: k per stage, ST: cp.async buffers, ORD: 0 ib outer (as v5), 1 jb outer. */
template <int TM, int TN, int WM, int WN, int KS, int ST, int ORD, int MINB> struct Cfg {
    static constexpr int BM = 4 * TM * WM, BN = 8 * TN * WN, NT = 32 * WM * WN;
    static constexpr int CX = KS * BM / 4 / NT, CY = KS * BN / 4 / NT;
    static constexpr int SMEM = ST * KS * (BM + BN) * 4, KS_ = KS;
    static_assert(NT % KS == 0 && (BM / 4) % (NT / KS) == 0 && (BN / 4) % (NT / KS) == 0, "rows");
    static_assert(KS * BM / 4 % NT == 0 && KS * BN / 4 % NT == 0, "copies");
    static_assert(NT % (BM / 4) == 0 && NT % (BN / 4) == 0, "copy rows");
};

/* A thread copies along one row f = tid / (NT/KS) of the stage: CX float4 of t's row and CY of d's,
 * NT/KS float4 apart, so one address per operand serves all its copies (immediate offsets). ox, oy:
 * that row's first float4 for this thread, in float4 units. */
template <class C>
__device__ __forceinline__ void g_stage(float *xb, float *yb, const float4 *t4, const float4 *d4, int ox, int oy, int nn4,
                                        int tid)
{
    constexpr int TPR = C::NT / C::KS_; /* threads per row */
    int f = tid / TPR, c = tid % TPR;
    const float4 *px = t4 + ox, *py = d4 + oy;
#pragma unroll
    for (int q = 0; q < C::CX; ++q) __pipeline_memcpy_async(&xb[f * C::BM + (c + q * TPR) * 4], px + q * TPR, 16);
#pragma unroll
    for (int q = 0; q < C::CY; ++q) __pipeline_memcpy_async(&yb[f * C::BN + (c + q * TPR) * 4], py + q * TPR, 16);
}

template <int TM, int TN, int ORD>
__device__ __forceinline__ void g_steps(float (&v)[TM][TN], const float *xr, const float *yr, const float *xr2,
                                        const float *yr2)
{
    float x[TM], y[TN], x2[TM], y2[TN];
#pragma unroll
    for (int h = 0; h < TM / 4; ++h) {
        float4 a = *(const float4 *)&xr[16 * h], b = *(const float4 *)&xr2[16 * h];
        x[4 * h] = a.x; x[4 * h + 1] = a.y; x[4 * h + 2] = a.z; x[4 * h + 3] = a.w;
        x2[4 * h] = b.x; x2[4 * h + 1] = b.y; x2[4 * h + 2] = b.z; x2[4 * h + 3] = b.w;
    }
#pragma unroll
    for (int h = 0; h < TN / 4; ++h) {
        float4 a = *(const float4 *)&yr[32 * h], b = *(const float4 *)&yr2[32 * h];
        y[4 * h] = a.x; y[4 * h + 1] = a.y; y[4 * h + 2] = a.z; y[4 * h + 3] = a.w;
        y2[4 * h] = b.x; y2[4 * h + 1] = b.y; y2[4 * h + 2] = b.z; y2[4 * h + 3] = b.w;
    }
    if (ORD == 0) {
#pragma unroll
        for (int ib = 0; ib < TM; ++ib)
#pragma unroll
            for (int jb = 0; jb < TN; ++jb)
                v[ib][jb] = __int_as_float(__vimin3_s32(__float_as_int(v[ib][jb]), __float_as_int(x[ib] + y[jb]),
                                                        __float_as_int(x2[ib] + y2[jb])));
    } else {
#pragma unroll
        for (int jb = 0; jb < TN; ++jb)
#pragma unroll
            for (int ib = 0; ib < TM; ++ib)
                v[ib][jb] = __int_as_float(__vimin3_s32(__float_as_int(v[ib][jb]), __float_as_int(x[ib] + y[jb]),
                                                        __float_as_int(x2[ib] + y2[jb])));
    }
}

/* Stages s0 .. s1-1 (KS k each) of tile (ic, jc) into v (which the caller set). */
template <class C, int TM, int TN, int ST, int KS, int ORD, bool FENCE = (TM * TN < 64)>
__device__ __forceinline__ void g_tile(float (&v)[TM][TN], float *smem, const float *t, const float *d, int nn, int ic,
                                       int jc, int s0, int s1)
{
    int tid = threadIdx.x, lane = tid % 32, w = tid / 32;
    int wm = w % (C::BM / (4 * TM)), wn = w / (C::BM / (4 * TM));
    int ja = lane % 8, ia = lane / 8;
    int nn4 = nn / 4;
    const float4 *t4 = (const float4 *)t, *d4 = (const float4 *)d;
    /* This thread's first copy of stage s0, in float4 units (32-bit: nn*nn < 2^31). */
    int ox = (s0 * KS + tid / (C::NT / KS)) * nn4 + ic * (C::BM / 4) + tid % (C::NT / KS);
    int oy = (s0 * KS + tid / (C::NT / KS)) * nn4 + jc * (C::BN / 4) + tid % (C::NT / KS);
    const int SX = KS * C::BM, SY = KS * C::BN, SB = SX + SY, step = KS * nn4;
    (void)SY;
#pragma unroll
    for (int p = 0; p < ST - 1; ++p) {
        if (s0 + p < s1) g_stage<C>(smem + p * SB, smem + p * SB + SX, t4, d4, ox, oy, nn4, tid);
        __pipeline_commit();
        ox += step;
        oy += step;
    }
    int rb = 0, wbuf = ST - 1;
    const float *xs0 = smem + wm * 4 * TM + ia * 4, *ys0 = smem + SX + wn * 8 * TN + ja * 4;
    for (int s = s0; s < s1; ++s) {
        __pipeline_wait_prior(ST - 2);
        __syncthreads();
        if (s + ST - 1 < s1) g_stage<C>(smem + wbuf * SB, smem + wbuf * SB + SX, t4, d4, ox, oy, nn4, tid);
        __pipeline_commit();
        ox += step;
        oy += step;
        const float *xs = xs0 + rb * SB, *ys = ys0 + rb * SB;
#pragma unroll
        for (int f = 0; f < KS; f += 2) {
            g_steps<TM, TN, ORD>(v, xs + f * C::BM, ys + f * C::BN, xs + (f + 1) * C::BM, ys + (f + 1) * C::BN);
            if (FENCE) asm volatile("" ::: "memory"); /* PTX-level only: ptxas used the same registers without it */
        }
        if (ST == 2) {
            rb ^= 1;
            wbuf ^= 1;
        } else {
            rb = rb + 1 == ST ? 0 : rb + 1;
            wbuf = wbuf + 1 == ST ? 0 : wbuf + 1;
        }
    }
    __pipeline_wait_prior(0);
    __syncthreads();
}

/* WHOLE: plain stores; else atomicMin on the bit patterns (r set to +inf before). */
template <class C, int TM, int TN>
__device__ __forceinline__ void g_write(const float (&v)[TM][TN], float *r, int n, int ic, int jc, bool whole)
{
    int tid = threadIdx.x, lane = tid % 32, w = tid / 32;
    int wm = w % (C::BM / (4 * TM)), wn = w / (C::BM / (4 * TM));
    int ja = lane % 8, ia = lane / 8;
#pragma unroll
    for (int ib = 0; ib < TM; ++ib) {
        int i = ic * C::BM + wm * 4 * TM + (ib / 4) * 16 + ia * 4 + ib % 4;
        if (i >= n) continue;
#pragma unroll
        for (int jh = 0; jh < TN / 4; ++jh) {
            int j = jc * C::BN + wn * 8 * TN + jh * 32 + ja * 4;
            float *out = r + (size_t)n * i + j;
            if (!whole) {
                for (int jb = 0; jb < 4; ++jb)
                    if (j + jb < n) atomicMin((int *)&out[jb], __float_as_int(v[ib][jh * 4 + jb]));
            } else if (n % 4 == 0 && j < n) {
                *(float4 *)out = make_float4(v[ib][jh * 4], v[ib][jh * 4 + 1], v[ib][jh * 4 + 2], v[ib][jh * 4 + 3]);
            } else {
                for (int jb = 0; jb < 4; ++jb)
                    if (j + jb < n) out[jb] = v[ib][jh * 4 + jb];
            }
        }
    }
}

template <int TM, int TN, int WM, int WN, int KS, int ST, int ORD, int MINB>
__global__ void __launch_bounds__(32 * WM * WN, MINB) g_kernel(float *r, const float *d, const float *t, int n, int nn)
{
    using C = Cfg<TM, TN, WM, WN, KS, ST, ORD, MINB>;
    extern __shared__ __align__(16) float smem[];
    float v[TM][TN];
#pragma unroll
    for (int ib = 0; ib < TM; ++ib)
#pragma unroll
        for (int jb = 0; jb < TN; ++jb) v[ib][jb] = INFINITY;
    int S = (n + KS - 1) / KS;
    g_tile<C, TM, TN, ST, KS, ORD>(v, smem, t, d, nn, blockIdx.y, blockIdx.x, 0, S);
    g_write<C, TM, TN>(v, r, n, blockIdx.y, blockIdx.x, true);
}

/* Stream-K: a persistent grid of P blocks; the units (tile, stage) in tile-major order are cut in P
 * equal ranges. A tile wholly in one range is stored, a split one merged by atomicMin. */
template <int TM, int TN, int WM, int WN, int KS, int ST, int ORD, int MINB>
__global__ void __launch_bounds__(32 * WM * WN, MINB) sk_kernel(float *r, const float *d, const float *t, int n, int nn,
                                                                int gx)
{
    using C = Cfg<TM, TN, WM, WN, KS, ST, ORD, MINB>;
    extern __shared__ __align__(16) float smem[];
    long long S = (n + KS - 1) / KS, T = (long long)gx * ((n + C::BM - 1) / C::BM), U = S * T, P = gridDim.x;
    long long u = U * blockIdx.x / P, u1 = U * (blockIdx.x + 1) / P;
    while (u < u1) {
        int tile = (int)(u / S), s0 = (int)(u % S);
        int s1 = (int)(S < s0 + (u1 - u) ? S : s0 + (u1 - u));
        int ic = tile / gx, jc = tile % gx;
        float v[TM][TN];
#pragma unroll
        for (int ib = 0; ib < TM; ++ib)
#pragma unroll
            for (int jb = 0; jb < TN; ++jb) v[ib][jb] = INFINITY;
        g_tile<C, TM, TN, ST, KS, ORD>(v, smem, t, d, nn, ic, jc, s0, s1);
        g_write<C, TM, TN>(v, r, n, ic, jc, s0 == 0 && s1 == S);
        u += s1 - s0;
    }
}

/* +inf into the tiles that stream-K splits: block b (1..P-1) fills the tile its range starts inside. */
__global__ void sk_fill(float *r, int n, int BM, int BN, int gx, long long S, long long U)
{
    long long P = gridDim.x, u = U * blockIdx.x / P;
    if (blockIdx.x == 0 || u % S == 0) return;
    int tile = (int)(u / S), ic = tile / gx, jc = tile % gx;
    for (int e = threadIdx.x; e < BM * BN; e += blockDim.x) {
        int i = ic * BM + e / BN, j = jc * BN + e % BN;
        if (i < n && j < n) r[(size_t)n * i + j] = INFINITY;
    }
}

struct Cand {
    std::string name;
    int regs, spill, per_sm, threads, smem;
    void (*launch)(float *r, const float *d, const float *t, int n, int nn, int per_sm);
};

static int g_sms;

template <int TM, int TN, int WM, int WN, int KS, int ST, int ORD, int MINB>
static void launch_g(float *r, const float *d, const float *t, int n, int nn, int)
{
    using C = Cfg<TM, TN, WM, WN, KS, ST, ORD, MINB>;
    dim3 grid(wb_ceil_div(n, C::BN), wb_ceil_div(n, C::BM));
    g_kernel<TM, TN, WM, WN, KS, ST, ORD, MINB><<<grid, C::NT, C::SMEM>>>(r, d, t, n, nn);
    LAUNCH_CHECK();
}

template <int TM, int TN, int WM, int WN, int KS, int ST, int ORD, int MINB>
static void launch_sk(float *r, const float *d, const float *t, int n, int nn, int per_sm)
{
    using C = Cfg<TM, TN, WM, WN, KS, ST, ORD, MINB>;
    int gx = wb_ceil_div(n, C::BN), P = per_sm * g_sms;
    long long S = (n + KS - 1) / KS, U = S * gx * (long long)wb_ceil_div(n, C::BM);
    sk_fill<<<P, 256>>>(r, n, C::BM, C::BN, gx, S, U);
    sk_kernel<TM, TN, WM, WN, KS, ST, ORD, MINB><<<P, C::NT, C::SMEM>>>(r, d, t, n, nn, gx);
    LAUNCH_CHECK();
}

template <class K> static Cand describe(const char *name, K kernel, int threads, int smem,
                                         void (*launch)(float *, const float *, const float *, int, int, int))
{
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    cudaFuncAttributes a;
    CUDA_CHECK(cudaFuncGetAttributes(&a, kernel));
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
    return Cand{name, a.numRegs, (int)a.localSizeBytes, per_sm, threads, smem, launch};
}

#define GCAND(name, TM, TN, WM, WN, KS, ST, ORD, MINB)                                                               \
    describe(name, g_kernel<TM, TN, WM, WN, KS, ST, ORD, MINB>, 32 * WM * WN, Cfg<TM, TN, WM, WN, KS, ST, ORD, MINB>::SMEM, \
             launch_g<TM, TN, WM, WN, KS, ST, ORD, MINB>)
#define SKCAND(name, TM, TN, WM, WN, KS, ST, ORD, MINB)                                                                \
    describe(name, sk_kernel<TM, TN, WM, WN, KS, ST, ORD, MINB>, 32 * WM * WN, Cfg<TM, TN, WM, WN, KS, ST, ORD, MINB>::SMEM, \
             launch_sk<TM, TN, WM, WN, KS, ST, ORD, MINB>)


/* v5's own code with switches: ORD 1 = jb outer; ALWAYS = stage without the `more` test (buffers padded
 * past n + 32); STAGE 0 = diagnostic without any copy in the loop (computes on the first tile: wrong). */
template <int ORD, int ALWAYS, int STAGE>
__global__ void __launch_bounds__(32, 16) v5x(float *r, const float *d, const float *t, int n, int nn)
{
    int ja = threadIdx.x;
    int ia = threadIdx.y;
    int ic = blockIdx.y;
    int jc = blockIdx.x;
    __shared__ __align__(16) float xx[2][V4_STEP][32];
    __shared__ __align__(16) float yy[2][V4_STEP][64];
    float v[8][8];
    for (int ib = 0; ib < 8; ++ib)
        for (int jb = 0; jb < 8; ++jb) v[ib][jb] = INFINITY;
    int ija = ia * 8 + ja;
    const float4 *t4 = (const float4 *)(t + ic * 32);
    const float4 *d4 = (const float4 *)(d + jc * 64);
    int nn4 = nn / 4;
    v4_stage(xx[0], yy[0], t4, d4, nn4, 0, ija);
    if (!STAGE) v4_stage(xx[1], yy[1], t4, d4, nn4, 16, ija);
    __pipeline_wait_prior(0);
    __syncthreads();
    int buf = 0;
    for (int ks = 0; ks < n; ks += V4_STEP) {
        int more = ALWAYS || ks + V4_STEP < n;
        if (STAGE && more) v4_stage(xx[buf ^ 1], yy[buf ^ 1], t4, d4, nn4, ks + V4_STEP, ija);
#pragma unroll
        for (int f = 0; f < V4_STEP; f += 2) {
            float x[8], y[8], x2[8], y2[8];
            v4_operands(xx[buf][f], yy[buf][f], ia, ja, x, y);
            v4_operands(xx[buf][f + 1], yy[buf][f + 1], ia, ja, x2, y2);
            if (ORD == 0) {
                for (int ib = 0; ib < 8; ++ib)
                    for (int jb = 0; jb < 8; ++jb)
                        v[ib][jb] = __int_as_float(__vimin3_s32(__float_as_int(v[ib][jb]), __float_as_int(x[ib] + y[jb]),
                                                                __float_as_int(x2[ib] + y2[jb])));
            } else {
                for (int jb = 0; jb < 8; ++jb)
                    for (int ib = 0; ib < 8; ++ib)
                        v[ib][jb] = __int_as_float(__vimin3_s32(__float_as_int(v[ib][jb]), __float_as_int(x[ib] + y[jb]),
                                                                __float_as_int(x2[ib] + y2[jb])));
            }
        }
        if (STAGE) {
            __pipeline_wait_prior(0);
            __syncthreads();
        }
        buf ^= 1;
    }
    for (int ib = 0; ib < 8; ++ib) {
        int i = ic * 32 + (ib / 4) * 16 + ia * 4 + ib % 4;
        if (i >= n) continue;
        for (int jh = 0; jh < 2; ++jh) {
            int j = jc * 64 + jh * 32 + ja * 4;
            float *out = r + (size_t)n * i + j;
            if (n % 4 == 0 && j < n) {
                *(float4 *)out = make_float4(v[ib][jh * 4], v[ib][jh * 4 + 1], v[ib][jh * 4 + 2], v[ib][jh * 4 + 3]);
            } else {
                for (int jb = 0; jb < 4; ++jb)
                    if (j + jb < n) out[jb] = v[ib][jh * 4 + jb];
            }
        }
    }
}

template <int ORD, int ALWAYS, int STAGE>
static void launch_v5x(float *r, const float *d, const float *t, int n, int nn, int)
{
    dim3 block(8, 4), grid(wb_ceil_div(n, 64), wb_ceil_div(n, 32));
    v5x<ORD, ALWAYS, STAGE><<<grid, block>>>(r, d, t, n, nn);
    LAUNCH_CHECK();
}
#define V5X(name, O, A, S) describe(name, v5x<O, A, S>, 32, 0, launch_v5x<O, A, S>)

static void launch_v5_chapter(float *r, const float *d, const float *t, int n, int nn, int)
{
    dim3 block(8, 4), grid(nn / 64, wb_ceil_div(n, 32));
    minplus_v5<<<grid, block>>>(r, d, t, n, nn);
    LAUNCH_CHECK();
}

/* Diagnostic: v5 on whole waves only (a grid cut to 3 waves at most): its rate without the last wave. */
static int g_v5_rows;
static void launch_v5_waves(float *r, const float *d, const float *t, int n, int nn, int)
{
    dim3 block(8, 4), grid(nn / 64, g_v5_rows);
    minplus_v5<<<grid, block>>>(r, d, t, n, nn);
    LAUNCH_CHECK();
}

/* The register loop (wb_peak.h, 32 chains, 128 threads) with the SM's blocks capped by dynamic shared
 * memory at warps/4 blocks: how the ceiling's mix runs with as few warps as the candidates have. */
template <int C>
static double peak_at_warps(int warps, const float *in, float *sink)
{
    auto k = wb_minplus_kernel<1, C, 128>;
    int want = warps / 4, per_sm = 0, smem = 0;
    CUDA_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
    for (smem = 227 * 1024; smem > 0; smem -= 256) {
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, 128, smem));
        if (per_sm >= want) break;
    }
    int blocks = per_sm * g_sms * 4, iters = WB_PEAK_WORK / C;
    double ms = wb_time_ms([&] { k<<<blocks, 128, smem>>>(in, sink, iters); LAUNCH_CHECK(); }, 2, 7, NULL);
    printf("peak mix, %d chains, at %d warps/SM (%d blocks of 128),,%.3f\n", C, per_sm * 4, per_sm,
           2.0 * C * iters * (double)blocks * 128 / (ms * 1e-3) / 1e12);
    return ms;
}

/* One size's input, its padded copies (nn: a multiple of 256 for the candidates, nn64 for the chapter's
 * v5, as the chapter pads) and the reference: v5's result, checked on 4 rows against the CPU. */
struct Size {
    int n, nn, nn64;
    size_t bytes;
    float *h, *ref, *got, *d_d, *d_r, *d_p, *d_t, *d_p64, *d_t64;
};

static Size size_setup(int n)
{
    Size z = {n, (n + 255) / 256 * 256, (n + 63) / 64 * 64, sizeof(float) * (size_t)n * n};
    size_t pbytes = sizeof(float) * (size_t)z.nn * z.nn, p64 = sizeof(float) * (size_t)z.nn64 * z.nn64;
    z.h = (float *)malloc(z.bytes), z.ref = (float *)malloc(z.bytes), z.got = (float *)malloc(z.bytes);
    make_input(z.h, n, 1);
    CUDA_CHECK(cudaMalloc(&z.d_d, z.bytes));
    CUDA_CHECK(cudaMalloc(&z.d_r, z.bytes));
    CUDA_CHECK(cudaMalloc(&z.d_p, pbytes));
    CUDA_CHECK(cudaMalloc(&z.d_t, pbytes));
    CUDA_CHECK(cudaMalloc(&z.d_p64, p64));
    CUDA_CHECK(cudaMalloc(&z.d_t64, p64));
    CUDA_CHECK(cudaMemcpy(z.d_d, z.h, z.bytes, cudaMemcpyHostToDevice));
    pad_transpose<<<dim3(1, z.nn), 64>>>(z.d_d, z.d_p, z.d_t, n, z.nn);
    pad_transpose<<<dim3(1, z.nn64), 64>>>(z.d_d, z.d_p64, z.d_t64, n, z.nn64);
    LAUNCH_CHECK();
    launch_v5_chapter(z.d_r, z.d_p64, z.d_t64, n, z.nn64, 0);
    CUDA_CHECK(cudaMemcpy(z.ref, z.d_r, z.bytes, cudaMemcpyDeviceToHost));
    int rows[4] = {0, 1, n / 2, n - 1}, bad = 0;
    std::vector<float> row(n);
    for (int q = 0; q < 4; q++) {
        minplus_cpu_row(z.h, n, rows[q], row.data());
        bad += memcmp(row.data(), z.ref + (size_t)rows[q] * n, sizeof(float) * n) != 0;
    }
    printf("%d,v5 vs CPU rows,,,,%s\n", n, bad ? "FAIL" : "ok");
    g_v5_rows = 3 * 16 * g_sms / (z.nn64 / 64);
    if (g_v5_rows > wb_ceil_div(n, 32)) g_v5_rows = wb_ceil_div(n, 32);
    return z;
}

static void size_free(Size *z)
{
    cudaFree(z->d_d); cudaFree(z->d_r); cudaFree(z->d_p); cudaFree(z->d_t); cudaFree(z->d_p64); cudaFree(z->d_t64);
    free(z->h); free(z->ref); free(z->got);
}

/* One candidate once: run on a NaN-filled result, compare with v5's bits, time, print a CSV row. */
static void time_candidate(Size *z, const Cand &c, int round, int reps, double ceiling)
{
    int n = z->n;
    bool chapter = c.launch == launch_v5_chapter || c.launch == launch_v5_waves;
    const float *dp = chapter ? z->d_p64 : z->d_p, *dt = chapter ? z->d_t64 : z->d_t;
    int pnn = chapter ? z->nn64 : z->nn;
    CUDA_CHECK(cudaMemset(z->d_r, 0xff, z->bytes)); // NaN: every element must be written
    c.launch(z->d_r, dp, dt, n, pnn, c.per_sm);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(z->got, z->d_r, z->bytes, cudaMemcpyDeviceToHost));
    bool waves = c.launch == launch_v5_waves;
    bool exact = waves || memcmp(z->got, z->ref, z->bytes) == 0;
    double ms = wb_time_ms([&] { c.launch(z->d_r, dp, dt, n, pnn, c.per_sm); }, 2, reps, NULL);
    double steps = waves ? (double)(z->nn64 / 64) * g_v5_rows * 32 * 64 * (double)n : (double)n * n * n;
    double rate = steps / (ms * 1e-3) / 1e12;
    printf("%d,%d,%s,%.3f,%.3f,%.3f,%s\n", n, round, c.name.c_str(), ms, rate, rate * 1000 / ceiling,
           waves ? "n/a" : exact ? "yes" : "NO");
    fflush(stdout);
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 7;
    CUDA_CHECK(cudaDeviceGetAttribute(&g_sms, cudaDevAttrMultiProcessorCount, 0));
    std::vector<Cand> cands;
    {
        cudaFuncAttributes a;
        CUDA_CHECK(cudaFuncGetAttributes(&a, minplus_v5));
        int per_sm;
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, minplus_v5, 32, 0));
        cands.push_back(Cand{"v5 (chapter)", a.numRegs, (int)a.localSizeBytes, per_sm, 32, 12288, launch_v5_chapter});
        cands.push_back(Cand{"v5 whole waves (diag)", a.numRegs, (int)a.localSizeBytes, per_sm, 32, 12288, launch_v5_waves});
    }
    cands.push_back(V5X("v5x ord0 (= v5)", 0, 0, 1));
    cands.push_back(V5X("v5x ord1", 1, 0, 1));
    cands.push_back(V5X("v5x ord0 always", 0, 1, 1));
    cands.push_back(V5X("v5x ord0 no staging (diag; wrong)", 0, 0, 0));
    cands.push_back(GCAND("g 8x8 w2x2 o0 b4", 8, 8, 2, 2, 16, 2, 0, 4));
    cands.push_back(GCAND("g 8x8 w2x1 o1 b8", 8, 8, 2, 1, 16, 2, 1, 8));
    cands.push_back(GCAND("g 8x8 w1x1 o1 b16", 8, 8, 1, 1, 16, 2, 1, 16));
    cands.push_back(GCAND("g 4x8 w4x1 o1 b6", 4, 8, 4, 1, 16, 2, 1, 6));
    cands.push_back(GCAND("g 4x8 w4x1 o1 b7", 4, 8, 4, 1, 16, 2, 1, 7));
    cands.push_back(GCAND("g 4x8 w4x1 o1 b8", 4, 8, 4, 1, 16, 2, 1, 8));
    cands.push_back(GCAND("g 4x8 w4x1 o0 b8", 4, 8, 4, 1, 16, 2, 0, 8));
    cands.push_back(GCAND("g 4x8 w4x2 o1 b3", 4, 8, 4, 2, 16, 2, 1, 3));
    cands.push_back(GCAND("g 4x8 w4x2 o1 b4", 4, 8, 4, 2, 16, 2, 1, 4));
    cands.push_back(GCAND("g 4x8 w2x1 o1 b12", 4, 8, 2, 1, 16, 2, 1, 12));
    cands.push_back(GCAND("g 8x4 w2x2 o1 b7", 8, 4, 2, 2, 16, 2, 1, 7));
    cands.push_back(SKCAND("sk 4x8 w4x1 o1 b6", 4, 8, 4, 1, 16, 2, 1, 6));
    cands.push_back(SKCAND("sk 8x8 w2x2 o0 b4", 8, 8, 2, 2, 16, 2, 0, 4));

    printf("candidate,regs,spill_bytes,blocks_per_sm,threads,smem\n");
    for (auto &c : cands) printf("%s,%d,%d,%d,%d,%d\n", c.name.c_str(), c.regs, c.spill, c.per_sm, c.threads, c.smem);
    fflush(stdout);

    {
        float *in = wb_peak_operands(NULL, 0), *sink = wb_peak_sink();
        for (int w : {8, 16, 20, 24, 32, 48, 64}) { peak_at_warps<32>(w, in, sink); peak_at_warps<48>(w, in, sink); peak_at_warps<64>(w, in, sink); }
    }
    printf("\nn,round,candidate,ms,T_steps_per_s,of_ceiling,exact\n");
    for (int n : {4000, 6000}) {
        Size z = size_setup(n);
        const char *pname;
        double ceiling = wb_minplus_peak(z.h, (size_t)n * n, 2, 5, &pname);
        printf("%d,ceiling (%s),,%.3f,1.000,\n", n, pname, ceiling / 1000);
        for (int round = 0; round < 3; round++)
            for (auto &c : cands) time_candidate(&z, c, round, reps, ceiling);
        double ceiling2 = wb_minplus_peak(z.h, (size_t)n * n, 2, 5, &pname);
        printf("%d,ceiling again (%s),,%.3f,%.3f,\n", n, pname, ceiling2 / 1000, ceiling2 / ceiling);
        size_free(&z);
    }
    return 0;
}
