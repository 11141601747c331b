/*
 * peak_sweep — the tests' own, wider measurement of what the hardware can do, for tests/test_peak.c:
 * not a planted fault but a second opinion on common/wb_peak.h. Its kernels are written apart from
 * wb_peak.h's (another formulation of each loop), and it sweeps more chains and launch shapes than a
 * chapter can afford in every run, so that a ceiling that became slow (chains that depend on each
 * other, a hoisted sum, an unlucky launch shape) shows as a chapter printing less than this finds.
 * Each rate is the median of 5 runs after 1 warm-up; the chains' values never change the speed.
 *
 *   peak_sweep minplus          G steps/s of v = min(v, x + y): 2 adds + one 3-way integer min (DPX)
 *                               and fminf(v, x + y), independent chains
 *   peak_sweep fma              GFLOP/s of fp32 FMA, independent chains
 *   peak_sweep read BYTES       GB/s of reading a BYTES buffer once (int4 loads)
 *
 * Prints one JSON line per configuration, then {"kind": ..., "best": rate, "config": ...}.
 * Exit 0, 2 on bad usage, 3 without a GPU, 4 on a CUDA error (wb.h).
 */
#include "wb.h"

#define SWEEP_WORK 32768 /* chain iterations per thread × chains: about 1 ms per wave on an H100 */

/* Chains in pairs. PAIRS 1: each chain's sums read its own value and its partner's from the previous
 * iteration (a and b are copies taken before either is written), so no step waits on a step of the
 * same iteration; PAIRS 0: each chain reads only itself. MIX 1: two sums into one __vimin3_s32 of the
 * bit patterns (2 steps); MIX 0: fminf(v, x + y) (1 step). On an H100 the pairs were 12 % slower. */
template <int MIX, int C, int PAIRS>
__global__ void sweep_minplus(const float *in, float *sink, int iters)
{
    float x0 = in[threadIdx.x % 32], x1 = in[32 + threadIdx.x % 32], v[C];
#pragma unroll
    for (int c = 0; c < C; ++c) v[c] = in[64 + (c + threadIdx.x) % 64];
#pragma unroll 4
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int c = 0; c < C; c += 2) {
            float a = v[c], b = v[c + 1], pa = PAIRS ? b : a, pb = PAIRS ? a : b;
            if (MIX == 0) {
                v[c] = fminf(a, pa + x0);
                v[c + 1] = fminf(b, pb + x1);
            } else {
                v[c] = __int_as_float(__vimin3_s32(__float_as_int(a), __float_as_int(a + x0), __float_as_int(pa + x1)));
                v[c + 1] = __int_as_float(__vimin3_s32(__float_as_int(b), __float_as_int(b + x0), __float_as_int(pb + x1)));
            }
        }
    }
    float m = v[0];
#pragma unroll
    for (int c = 1; c < C; ++c) m = fminf(m, v[c]);
    if (m == -1.0f) sink[blockIdx.x] = m; /* never: the inputs are >= 0; keeps every chain alive */
}

template <int C> __global__ void sweep_fma(const float *in, float *sink, int iters)
{
    float x = in[0], y = in[1], a[C];
#pragma unroll
    for (int c = 0; c < C; ++c) a[c] = in[2 + (c + threadIdx.x) % 60];
#pragma unroll 4
    for (int it = 0; it < iters; ++it)
#pragma unroll
        for (int c = 0; c < C; ++c) a[c] = fmaf(a[c], x, y);
    float m = 0;
#pragma unroll
    for (int c = 0; c < C; ++c) m += a[c];
    if (m == -1.0f) sink[blockIdx.x] = m;
}

/* Reading: grid-stride with U loads in flight per thread (GRID 1), or one pass where each thread reads
 * U int4 a block apart and the grid covers the buffer (GRID 0; the last block's tail is bounds-checked). */
template <int U, int GRID> __global__ void sweep_read(const int4 *p, size_t n4, int *sink)
{
    int acc = 0;
    if (GRID) {
        size_t stride = (size_t)gridDim.x * blockDim.x;
        size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
        for (; i + (U - 1) * stride < n4; i += U * stride) {
            int4 r[U];
#pragma unroll
            for (int u = 0; u < U; ++u) r[u] = p[i + u * stride];
#pragma unroll
            for (int u = 0; u < U; ++u) acc += r[u].x + r[u].y + r[u].z + r[u].w;
        }
        for (; i < n4; i += stride) acc += p[i].x + p[i].y + p[i].z + p[i].w;
    } else {
        size_t base = (size_t)blockIdx.x * blockDim.x * U + threadIdx.x;
        int4 r[U];
#pragma unroll
        for (int u = 0; u < U; ++u) r[u] = base + u * blockDim.x < n4 ? p[base + u * blockDim.x] : make_int4(0, 0, 0, 0);
#pragma unroll
        for (int u = 0; u < U; ++u) acc += r[u].x + r[u].y + r[u].z + r[u].w;
    }
    if (acc == 0x5EED5EED) *sink = acc;
}

typedef struct {
    const char *kind, *unit;
    double best;
    char config[96];
} sweep_best;

static void report(sweep_best *b, const char *config, double rate)
{
    printf("{\"kind\": \"%s\", \"config\": \"%s\", \"rate\": %.1f, \"unit\": \"%s\"}\n", b->kind, config, rate, b->unit);
    if (rate > b->best) b->best = rate, snprintf(b->config, sizeof b->config, "%s", config);
}

static int sms(void)
{
    int n = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, 0));
    return n;
}

/* Times kernel<<<waves × (resident blocks per SM) × SMs, threads>>> and reports work units / s. */
template <class K, class... Args>
static void sweep_shape(sweep_best *b, const char *name, K kernel, double work_per_thread, Args... args)
{
    static const int threads[] = {128, 256, 512, 1024}, waves[] = {1, 2, 4};
    for (int t : threads)
        for (int w : waves) {
            int per_sm = 0;
            CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, t, 0));
            if (per_sm == 0) continue; /* too many registers for this block size */
            int blocks = per_sm * sms() * w;
            double ms = wb_time_ms([&] { kernel<<<blocks, t>>>(args...); LAUNCH_CHECK(); }, 1, 5, NULL);
            char config[96];
            snprintf(config, sizeof config, "%s threads=%d blocks/SM=%d", name, t, per_sm * w);
            report(b, config, work_per_thread * blocks * t / (ms * 1e-3) / 1e9);
        }
}

static float *operands(void)
{
    float h[128];
    for (int e = 0; e < 128; e++) h[e] = 0.25f + 0.001f * (float)e;
    h[0] = 0.999f, h[1] = 0.001f; /* FMA: a = a * 0.999 + 0.001 stays finite */
    return (float *)wb_device_copy(h, sizeof h);
}

template <int MIX, int C, int PAIRS> static void minplus_chains(sweep_best *b, const float *in, float *sink)
{
    int iters = SWEEP_WORK / C;
    char name[48];
    snprintf(name, sizeof name, "%s chains=%d%s", MIX ? "2 adds + min3" : "fminf", C, PAIRS ? " pairs" : "");
    sweep_shape(b, name, sweep_minplus<MIX, C, PAIRS>, (double)iters * C * (MIX ? 2 : 1), in, sink, iters);
}

template <int C> static void fma_chains(sweep_best *b, const float *in, float *sink)
{
    int iters = SWEEP_WORK / C;
    char name[48];
    snprintf(name, sizeof name, "chains=%d", C);
    sweep_shape(b, name, sweep_fma<C>, 2.0 * iters * C, in, sink, iters);
}

template <int U> static void read_depth(sweep_best *b, const int4 *p, size_t n4, int *sink)
{
    static const int threads[] = {128, 256, 512, 1024}, per_sm[] = {1, 2, 4, 8, 16, 32};
    char config[96];
    for (int t : threads) {
        for (int k : per_sm) {
            int blocks = k * sms();
            double ms = wb_time_ms([&] { sweep_read<U, 1><<<blocks, t>>>(p, n4, sink); LAUNCH_CHECK(); }, 1, 5, NULL);
            snprintf(config, sizeof config, "grid-stride loads=%d threads=%d blocks/SM=%d", U, t, k);
            report(b, config, 16.0 * n4 / (ms * 1e-3) / 1e9);
        }
        size_t blocks = (n4 + (size_t)t * U - 1) / ((size_t)t * U);
        double ms = wb_time_ms([&] { sweep_read<U, 0><<<blocks, t>>>(p, n4, sink); LAUNCH_CHECK(); }, 1, 5, NULL);
        snprintf(config, sizeof config, "one pass loads=%d threads=%d", U, t);
        report(b, config, 16.0 * n4 / (ms * 1e-3) / 1e9);
    }
}

int main(int argc, char **argv)
{
    const char *kind = argc >= 2 ? argv[1] : "";
    char *end = NULL;
    double bytes = argc == 3 ? strtod(argv[2], &end) : 0;
    int ok = (argc == 2 && (!strcmp(kind, "minplus") || !strcmp(kind, "fma"))) ||
             (argc == 3 && !strcmp(kind, "read") && end && !*end && bytes >= 16 && bytes <= 64e9);
    if (!ok) {
        fprintf(stderr, "usage: %s minplus | fma | read BYTES (16 to 64e9)\n", argv[0]);
        return WB_EXIT_USAGE;
    }
    wb_device dev;
    wb_device_init(&dev);
    float *in = operands(), *sink = (float *)wb_device_alloc(sizeof(float) * 1 << 20);
    sweep_best b = {kind, "G steps/s", 0, ""};
    if (!strcmp(kind, "minplus")) {
        minplus_chains<1, 8, 0>(&b, in, sink), minplus_chains<1, 16, 0>(&b, in, sink);
        minplus_chains<1, 32, 0>(&b, in, sink), minplus_chains<1, 64, 0>(&b, in, sink);
        minplus_chains<1, 8, 1>(&b, in, sink), minplus_chains<1, 32, 1>(&b, in, sink);
        minplus_chains<0, 16, 0>(&b, in, sink), minplus_chains<0, 32, 0>(&b, in, sink), minplus_chains<0, 64, 0>(&b, in, sink);
    } else if (!strcmp(kind, "fma")) {
        b.unit = "GFLOP/s";
        fma_chains<8>(&b, in, sink), fma_chains<16>(&b, in, sink), fma_chains<32>(&b, in, sink), fma_chains<64>(&b, in, sink);
    } else {
        b.unit = "GB/s";
        size_t n4 = (size_t)(bytes / 16);
        int4 *p = (int4 *)wb_device_alloc(16 * n4), *isink = (int4 *)sink;
        CUDA_CHECK(cudaMemset(p, 1, 16 * n4));
        read_depth<1>(&b, p, n4, (int *)isink), read_depth<2>(&b, p, n4, (int *)isink);
        read_depth<4>(&b, p, n4, (int *)isink), read_depth<8>(&b, p, n4, (int *)isink);
        read_depth<16>(&b, p, n4, (int *)isink);
    }
    printf("{\"kind\": \"%s\", \"best\": %.1f, \"unit\": \"%s\", \"config\": \"%s\"}\n", kind, b.best, b.unit, b.config);
    wb_free_all();
    return 0;
}
