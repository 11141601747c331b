/* bench.cu: chapter 4's async-copy with its block tile chosen by the shape (README.md).
 *
 * Kernels, on the same data at each size:
 *   cublas            cublasSgemm fp32, CUBLAS_PEDANTIC_MATH (no TF32): the chapter's speed of light
 *   async-copy        the chapter's kernel and launcher as they are (chapter_async_copy.inc)
 *   async-copy-edge   the same kernel with EDGE forced on: what the guarded path costs (diagnosis)
 *   tile              ac_tile.cuh's kernel, the chapter's templated by tile: 64x256 and 128x256, 16
 *                     deep, 2 or 3 buffers (the sweep's good tiles, research/sgemm-tune/README.md),
 *                     256 or 512 threads (8x8 per thread, or 16x8 for 128 rows in 256 threads)
 *   async-copy-patch  the chapter with chapter.patch applied (patch_kernel.inc, patch_launch.inc): its
 *                     launcher as it is (config rule=<the tile its rule picked>), each of its two tiles forced
 *                     (64rows: 256 threads, 128rows: 512 threads): the rule is right at a size when
 *                     the tile it picked is the faster of the two there
 * Check (the chapter's tolerance, its matmul_rtol and wb_gemm_ref's rule for rows compared with a
 * library): |c - c_cuBLAS| <= 2·rtol·Σ_k|a_ik||b_kj| for every element, rtol = γ_K(2^-24) +
 * 2·γ_K(2^-53), the factor 2 for the error of both sides; Σ|a||b| by cublasDgemm on |A|, |B| in
 * double. C is NaN-poisoned before the checked run. All these kernels add the K products of an
 * element in the same order, so each must also give the chapter's kernel's bits (same_bits).
 * Timing: the chapter's own (wb_time_ms: CUDA events around each launch), 3 warm-ups, median of
 * `reps` (20); two rounds, every kernel once per round, cuBLAS first in each.
 * CSV on stdout: kernel,config,size,round,ms,gflops,ratio_to_cublas,check,same_bits,worst
 * (worst: the largest |c - c_cuBLAS| as a fraction of its bound). Progress on stderr.
 * Build: nvcc -O3 -std=c++20 -arch=sm_90 -Icommon -o build/sgemm-shape research/sgemm-shape/bench.cu -lcublas
 * Usage: build/sgemm-shape [--reps N] [--size MxNxK]...   (default: the six sizes below)
 * Exit: 0 all PASS, 1 a WRONG row, 2 bad command line. */
#include "wb.h"
#include "wb_cublas.h"
#include "wb_gemm_ref.h" /* wb_gamma_n, as the chapter uses it */
#include <array>
#include <vector>

/* The chapter's macros for async-copy (solutions/04-matmul/matmul.cu at 84e9b3b). */
#define BK 16
#define TM 8
#define TN 8
#define A_PAD 4
#define AC_BM 64
#define AC_BM_TALL 128
#define AC_BN 256
#define AC_THREADS 256
#define AC_A_COPIES (AC_BM * BK / AC_THREADS)
#define AC_B_COPIES (BK * AC_BN / 4 / AC_THREADS)

struct State {
    int M, N, K;
    float *d_A, *d_B, *d_C;
};

#include "chapter_async_copy.inc"
namespace patch {
#include "patch_kernel.inc"
#include "patch_launch.inc"
}
/* Waits until at most N of this thread's committed groups are still in flight. */
template <int N>
__device__ __forceinline__ void cp_async_wait_group()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

#include "ac_tile.cuh"

/* Lets both instantiations of a tile take its dynamic shared memory; once per tile, as the patch does
 * (a call per launch would put its host time inside each timed launch). */
template <int ROWS, int THREADS, int STAGES>
static bool ac_tile_allow()
{
    constexpr int smem = ac_smem_bytes<ROWS, STAGES>();
    CUDA_CHECK(cudaFuncSetAttribute(ac_tile<ROWS, THREADS, STAGES, false>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    CUDA_CHECK(cudaFuncSetAttribute(ac_tile<ROWS, THREADS, STAGES, true>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    return true;
}

/* The chapter's launcher for one tile: EDGE where the tiles do not divide the shape. */
template <int ROWS, int THREADS, int STAGES>
static void ac_tile_launch(const float *A, const float *B, float *C, int M, int N, int K)
{
    constexpr int smem = ac_smem_bytes<ROWS, STAGES>();
    static const bool allowed = ac_tile_allow<ROWS, THREADS, STAGES>();
    (void)allowed;
    dim3 grid(wb_ceil_div(N, AC_BN), wb_ceil_div(M, ROWS));
    bool whole = M % ROWS == 0 && N % AC_BN == 0 && K % BK == 0;
    auto kernel = whole ? ac_tile<ROWS, THREADS, STAGES, false> : ac_tile<ROWS, THREADS, STAGES, true>;
    kernel<<<grid, THREADS, smem>>>(A, B, C, M, N, K);
    LAUNCH_CHECK();
}


static double matmul_rtol(int K) { return wb_gamma_n(K, 0x1p-24) + 2.0 * wb_gamma_n(K, 0x1p-53); }

struct Kernel {
    const char *kernel, *config;
    void (*launch)(State *);
};

static int sm_count()
{
    int sms = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    return sms;
}

static void run_cublas(State *s) { wb_cublas_sgemm(s->d_A, s->d_B, s->d_C, s->M, s->N, s->K); }
static void run_chapter(State *s) { launch_async_copy(s); }
static void run_chapter_edge(State *s)
{
    dim3 grid(wb_ceil_div(s->N, AC_BN), wb_ceil_div(s->M, AC_BM));
    matmul_async_copy<true><<<grid, AC_THREADS>>>(s->d_A, s->d_B, s->d_C, s->M, s->N, s->K);
    LAUNCH_CHECK();
}
template <int ROWS, int THREADS, int STAGES>
static void run_tile(State *s) { ac_tile_launch<ROWS, THREADS, STAGES>(s->d_A, s->d_B, s->d_C, s->M, s->N, s->K); }
static void run_patch(State *s) { patch::launch_async_copy(s); }
static void run_patch64(State *s) { patch::launch_async_copy_rows<AC_BM>(s); }
static void run_patch128(State *s) { patch::launch_async_copy_rows<AC_BM_TALL>(s); }

static const Kernel kernels[] = {
    {"async-copy", "64x256x16-2buf-chapter", run_chapter},
    {"async-copy-edge", "64x256x16-2buf-chapter-EDGE", run_chapter_edge},
    {"tile", "64x256x16-2buf-256t", run_tile<64, 256, 2>},
    {"tile", "64x256x16-3buf-256t", run_tile<64, 256, 3>},
    {"tile", "128x256x16-2buf-512t", run_tile<128, 512, 2>}, /* chapter.patch's taller tile */
    {"tile", "128x256x16-3buf-512t", run_tile<128, 512, 3>},
    {"tile", "128x256x16-2buf-256t", run_tile<128, 256, 2>}, /* 16x8 per thread, 8 warps per SM */
    {"tile", "128x256x16-3buf-256t", run_tile<128, 256, 3>}, /* the closest to the sweep's 1.010 */
    {"async-copy-patch", "rule", run_patch},
    {"async-copy-patch", "64rows-256t", run_patch64},
    {"async-copy-patch", "128rows-512t", run_patch128},
};
#define NKERNELS (int)(sizeof kernels / sizeof kernels[0])

__global__ void abs_to_double(const float *x, double *y, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        y[i] = fabs((double)x[i]);
}

/* Counts the elements off by more than tol·S (NaN included) and keeps the worst |c - r| / (tol·S)
 * (a non-negative float's bits order as an unsigned int's), and counts the bits that differ from ch. */
__global__ void compare(const float *c, const float *r, const float *ch, const double *S, size_t n, double tol,
                        unsigned long long *bad, unsigned long long *diff_bits, unsigned *worst)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        double d = fabs((double)c[i] - (double)r[i]), bound = tol * S[i];
        if (!(d <= bound)) atomicAdd(bad, 1ull);
        else if (bound > 0) atomicMax(worst, __float_as_uint((float)(d / bound)));
        if (__float_as_uint(c[i]) != __float_as_uint(ch[i])) atomicAdd(diff_bits, 1ull);
    }
}

/* Everything one size needs on the GPU: inputs, cuBLAS's C, the chapter kernel's C, Σ|a||b|. */
struct Case {
    State st;
    float *ref, *chapter;
    double *S;
    unsigned long long *counts; /* bad, differing bits */
    unsigned *worst;
    size_t n;
};

static Case case_make(int M, int N, int K)
{
    Case c = {};
    c.st.M = M, c.st.N = N, c.st.K = K;
    size_t mk = (size_t)M * K, kn = (size_t)K * N;
    c.n = (size_t)M * N;
    c.st.d_A = (float *)wb_device_alloc(sizeof(float) * mk);
    c.st.d_B = (float *)wb_device_alloc(sizeof(float) * kn);
    c.st.d_C = (float *)wb_device_alloc(sizeof(float) * c.n);
    c.ref = (float *)wb_device_alloc(sizeof(float) * c.n);
    c.chapter = (float *)wb_device_alloc(sizeof(float) * c.n);
    c.S = (double *)wb_device_alloc(sizeof(double) * c.n);
    c.counts = (unsigned long long *)wb_device_alloc(2 * sizeof(unsigned long long));
    c.worst = (unsigned *)wb_device_alloc(sizeof(unsigned));
    wb_fill_f32_gpu(c.st.d_A, mk, 42, 0, -1.0f, 1.0f); /* the chapter's recipe: U(-1, 1), streams 0 and 1 */
    wb_fill_f32_gpu(c.st.d_B, kn, 42, 1, -1.0f, 1.0f);
    double *absA = (double *)wb_device_alloc(sizeof(double) * mk), *absB = (double *)wb_device_alloc(sizeof(double) * kn);
    abs_to_double<<<1024, 256>>>(c.st.d_A, absA, mk);
    abs_to_double<<<1024, 256>>>(c.st.d_B, absB, kn);
    LAUNCH_CHECK();
    const double one = 1.0, zero = 0.0; /* row-major S = |A|·|B|, as wb_cublas_sgemm does it */
    WB_CUBLAS_CHECK(cublasDgemm(wb_blas, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, absB, N, absA, K, &zero, c.S, N));
    wb_cublas_sgemm(c.st.d_A, c.st.d_B, c.ref, M, N, K);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(absA));
    CUDA_CHECK(cudaFree(absB));
    return c;
}

static void case_free(Case *c)
{
    void *p[] = {c->st.d_A, c->st.d_B, c->st.d_C, c->ref, c->chapter, c->S, c->counts, c->worst};
    for (void *q : p) CUDA_CHECK(cudaFree(q));
}

struct Verdict {
    bool pass, same_bits;
    double worst;
};

/* One run on a NaN-poisoned C, compared with cuBLAS (and with the chapter's C, once that is kept). */
static Verdict case_check(Case *c, const Kernel &k)
{
    CUDA_CHECK(cudaMemset(c->st.d_C, 0xFF, sizeof(float) * c->n)); /* NaN */
    k.launch(&c->st);
    CUDA_CHECK(cudaMemset(c->counts, 0, 2 * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(c->worst, 0, sizeof(unsigned)));
    compare<<<1024, 256>>>(c->st.d_C, c->ref, c->chapter, c->S, c->n, 2.0 * matmul_rtol(c->st.K), c->counts,
                           c->counts + 1, c->worst);
    LAUNCH_CHECK();
    unsigned long long counts[2];
    unsigned worst;
    CUDA_CHECK(cudaMemcpy(counts, c->counts, sizeof counts, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&worst, c->worst, sizeof worst, cudaMemcpyDeviceToHost));
    float w;
    memcpy(&w, &worst, sizeof w);
    return Verdict{counts[0] == 0, counts[1] == 0, w};
}

static bool parse_size(const char *s, int d[3])
{
    char tail;
    if (sscanf(s, "%dx%dx%d%c", &d[0], &d[1], &d[2], &tail) != 3) return false;
    for (int i = 0; i < 3; i++)
        if (d[i] < 1 || d[i] > 16384) return false;
    return true;
}

static void print_row(const Kernel &k, const char *config, const Case &c, int round, double ms, double sol_ms,
                      const Verdict &v)
{
    double gflops = 2.0 * c.st.M * (double)c.st.N * c.st.K / (ms * 1e-3) / 1e9;
    printf("%s,%s,%dx%dx%d,%d,%.4f,%.1f,%.4f,%s,%s,%.3f\n", k.kernel, config, c.st.M, c.st.N, c.st.K, round, ms, gflops,
           sol_ms / ms, v.pass ? "PASS" : "WRONG", v.same_bits ? "yes" : "NO", v.worst);
}

/* One size: every kernel checked, then two rounds of timings. Returns whether all passed. */
static bool bench_size(const int d[3], int reps, int sms)
{
    Case c = case_make(d[0], d[1], d[2]);
    fprintf(stderr, "size %dx%dx%d: the patch's rule picks %s\n", d[0], d[1], d[2],
            patch::ac_tall_tile(d[0], d[1], sms) ? "128 rows, 512 threads" : "64 rows, 256 threads");
    Verdict v[NKERNELS];
    bool all = true;
    for (int i = 0; i < NKERNELS; i++) {
        v[i] = case_check(&c, kernels[i]);
        if (i == 0) { /* the chapter's kernel: its C is the bits the others must give */
            CUDA_CHECK(cudaMemcpy(c.chapter, c.st.d_C, sizeof(float) * c.n, cudaMemcpyDeviceToDevice));
            v[0].same_bits = true;
        }
        all = all && v[i].pass && v[i].same_bits;
    }
    const Kernel blas = {"cublas", "sgemm-fp32-pedantic", run_cublas};
    const Verdict ref = {true, false, 0};
    for (int round = 1; round <= 2; round++) {
        double sol = wb_time_ms([&] { run_cublas(&c.st); }, 3, reps, NULL);
        print_row(blas, blas.config, c, round, sol, sol, ref);
        for (int i = 0; i < NKERNELS; i++) {
            double ms = wb_time_ms([&] { kernels[i].launch(&c.st); }, 3, reps, NULL);
            const char *config = kernels[i].config;
            if (kernels[i].launch == run_patch) config = patch::ac_tall_tile(d[0], d[1], sms) ? "rule=128rows-512t" : "rule=64rows-256t";
            print_row(kernels[i], config, c, round, ms, sol, v[i]);
        }
        fflush(stdout);
    }
    case_free(&c);
    return all;
}

int main(int argc, char **argv)
{
    int reps = 20;
    std::vector<std::array<int, 3>> sizes;
    for (int i = 1; i < argc; i++) {
        std::array<int, 3> d;
        if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            char *end;
            long r = strtol(argv[++i], &end, 10);
            if (*end || r < 1 || r > 10000) return fprintf(stderr, "bench: --reps wants 1..10000, not '%s'\n", argv[i]), 2;
            reps = (int)r;
        } else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            if (!parse_size(argv[++i], d.data()))
                return fprintf(stderr, "bench: --size wants MxNxK, each 1..16384, not '%s'\n", argv[i]), 2;
            sizes.push_back(d);
        } else {
            return fprintf(stderr, "bench: unknown or incomplete argument '%s' (--reps N, --size MxNxK)\n", argv[i]), 2;
        }
    }
    if (sizes.empty()) /* the chapter's two sizes, the transposed shape, a square short-K one, a ragged one,
                        * and the rectangular size rounded up to whole tiles (EDGE off: the guards' cost) */
        sizes = {{4096, 4096, 4096}, {4096, 1000, 333}, {1000, 4096, 333}, {2048, 2048, 333}, {4095, 999, 331}, {4096, 1024, 336}};
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    int sms = sm_count();
    fprintf(stderr, "%s, %d SMs, reps %d\n", prop.name, sms, reps);
    wb_cublas_begin();
    printf("kernel,config,size,round,ms,gflops,ratio_to_cublas,check,same_bits,worst\n");
    bool all = true;
    for (const auto &d : sizes) all = bench_size(d.data(), reps, sms) && all;
    wb_cublas_end();
    return all ? 0 : 1;
}
