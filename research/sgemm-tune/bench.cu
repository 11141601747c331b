/*
 * bench.cu: autotuning bench for a hand-written fp32 SGEMM on the H100 (sm_90), against cuBLAS fp32
 * (CUBLAS_PEDANTIC_MATH: no TF32). Row-major C = A·B, A M×K, B K×N, any M, N, K ≥ 1.
 * The kernel and what its template parameters mean: sgemm_kernel.cuh. The configurations: configs.inc.
 * What it measures and prints: README.md.
 */
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "sgemm_kernel.cuh"

/* ============================================================================ error checks */
#define CK(call) ck_cuda((call), #call, __FILE__, __LINE__)
static void ck_cuda(cudaError_t e, const char *what, const char *file, int line)
{
    if (e == cudaSuccess) return;
    fprintf(stderr, "FATAL %s:%d: %s: %s (%s)\n", file, line, what, cudaGetErrorName(e), cudaGetErrorString(e));
    exit(3);
}
#define CKB(call) ck_blas((call), #call, __FILE__, __LINE__)
static void ck_blas(cublasStatus_t s, const char *what, const char *file, int line)
{
    if (s == CUBLAS_STATUS_SUCCESS) return;
    fprintf(stderr, "FATAL %s:%d: %s: cuBLAS %s\n", file, line, what, cublasGetStatusName(s));
    exit(3);
}

/* ============================================================================ host side: configs */
typedef cudaError_t (*LaunchFn)(const float *, const float *, float *, int, int, int, int, cudaStream_t);

struct Config {
    std::string name;
    int BM, BN, BK, NT;
    size_t smem;
    cudaError_t (*prepare)();
    LaunchFn launch;
    const void *k_fast, *k_edge;
    bool usable = true, ragged_ok = true;
};

template <KPARAMS> struct Inst {
    using G = Geo<KARGS>;
    static constexpr auto kf = sgemm_kernel<KARGS, false>;
    static constexpr auto ke = sgemm_kernel<KARGS, true>;
    static cudaError_t prepare()
    {
        cudaError_t e = cudaFuncSetAttribute(kf, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)G::SMEM);
        if (e != cudaSuccess) return e;
        return cudaFuncSetAttribute(ke, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)G::SMEM);
    }
    static cudaError_t launch(const float *A, const float *B, float *C, int M, int N, int K, int group, cudaStream_t s)
    {
        const bool fast = M % BM == 0 && N % BN == 0 && K % BK == 0;
        const unsigned blocks = (unsigned)(((M + BM - 1) / BM) * ((N + BN - 1) / BN));
        if (fast) kf<<<blocks, NT, G::SMEM, s>>>(A, B, C, M, N, K, group);
        else ke<<<blocks, NT, G::SMEM, s>>>(A, B, C, M, N, K, group);
        return cudaGetLastError();
    }
};

template <KPARAMS> static void add(std::vector<Config> &v)
{
    using I = Inst<KARGS>;
    char name[160];
    const char *mode = MODE == CPA ? "cpa" : MODE == MIX ? "mix" : "reg";
    if (MODE == CPA)
        snprintf(name, sizeof name, "%dx%dx%d_w%dx%d_i%d_t%dx%d_%dt_%s%d", BM, BN, BK, WM, WN, WNITER, TM, TN, NT, mode, STAGES);
    else
        snprintf(name, sizeof name, "%dx%dx%d_w%dx%d_i%d_t%dx%d_%dt_%s", BM, BN, BK, WM, WN, WNITER, TM, TN, NT, mode);
    Config c;
    c.name = name;
    c.BM = BM, c.BN = BN, c.BK = BK, c.NT = NT;
    c.smem = I::G::SMEM;
    c.prepare = I::prepare;
    c.launch = I::launch;
    c.k_fast = (const void *)I::kf;
    c.k_edge = (const void *)I::ke;
    v.push_back(c);
}

/* The configurations: configs.inc. */
static std::vector<Config> make_configs()
{
    std::vector<Config> v;
#ifdef BENCH_ONE /* compile-time experiments: -DBENCH_ONE with the template arguments in build/one_args.h */
    add<
#include "build/one_args.h"
        >(v);
#else
#define CFG(...) add<__VA_ARGS__>(v);
#include "configs.inc"
#undef CFG
#endif
    return v;
}

/* ============================================================================ host side: data, references */
static float uniform_pm1(uint64_t seed, uint64_t i) /* splitmix64 → 24 bits → [-1, 1), exact in fp32 */
{
    uint64_t z = seed * 0x9E3779B97F4A7C15ull + i + 1;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (float)((double)(z >> 40) * 0x1p-23 - 1.0);
}
static void fill(std::vector<float> &x, uint64_t seed)
{
    for (size_t i = 0; i < x.size(); i++) x[i] = uniform_pm1(seed, i);
}
static double gamma_n(double n, double u) { return n * u / (1.0 - n * u); }
/* Higham: a K-term dot product in fp32, any order, with or without FMA: |c − exact| ≤ γ_K·Σ|a||b|. */
static double rtol_fp32(int K) { return gamma_n(K, 0x1p-24) + 2.0 * gamma_n(K, 0x1p-53); }

/* CPU reference in double: exact products, sums at 2^-53. ref = A·B, sabs = |A|·|B|. */
static void cpu_ref(const std::vector<float> &A, const std::vector<float> &B, int M, int N, int K,
                    std::vector<double> &ref, std::vector<double> &sabs)
{
    ref.assign((size_t)M * N, 0.0);
    sabs.assign((size_t)M * N, 0.0);
#pragma omp parallel for schedule(dynamic, 4)
    for (int i = 0; i < M; i++) {
        double *c = &ref[(size_t)i * N], *s = &sabs[(size_t)i * N];
        for (int k = 0; k < K; k++) {
            const double a = A[(size_t)i * K + k], aa = fabs(a);
            const float *b = &B[(size_t)k * N];
            for (int j = 0; j < N; j++) {
                c[j] += a * b[j];
                s[j] += aa * fabs((double)b[j]);
            }
        }
    }
}

/* ============================================================================ host side: running */
static cudaStream_t g_stream;
static cudaEvent_t g_ev0, g_ev1;

/* A launch-time failure (bad configuration, too many resources) leaves the context usable: report
 * and go on. A failure seen at synchronisation (illegal address, …) is sticky: the process must end;
 * run.sh then reruns the configs one per process. */
static bool sync_or_die(const char *what)
{
    cudaError_t e = cudaStreamSynchronize(g_stream);
    if (e == cudaSuccess) e = cudaGetLastError();
    if (e == cudaSuccess) return true;
    fprintf(stderr, "FATAL: %s: %s (%s): the CUDA context is lost, stopping\n", what, cudaGetErrorName(e),
            cudaGetErrorString(e));
    fflush(stdout);
    exit(4);
}

/* Median over `reps` samples after `warm` launches; false on a launch error. A sample is the mean of
 * a batch of back-to-back launches, enough for ~1 ms (1 for the large size), so that the gap between
 * the first event and a launch the GPU waits for does not count (it would be a few % of a 60 µs run). */
static bool time_median(const std::function<cudaError_t()> &f, int warm, int reps, double *ms, const char *what)
{
    auto fail = [&](cudaError_t e) {
        fprintf(stderr, "  %s: launch error %s\n", what, cudaGetErrorString(e));
        sync_or_die(what);
        return false;
    };
    for (int i = 0; i < warm; i++) {
        cudaError_t e = f();
        if (e != cudaSuccess) return fail(e);
    }
    sync_or_die(what);
    float est = 0;
    CK(cudaEventRecord(g_ev0, g_stream));
    cudaError_t e0 = f();
    CK(cudaEventRecord(g_ev1, g_stream));
    if (e0 != cudaSuccess) return fail(e0);
    sync_or_die(what);
    CK(cudaEventElapsedTime(&est, g_ev0, g_ev1));
    const int batch = std::max(1, std::min(20, (int)(1.0f / std::max(est, 1e-3f))));
    std::vector<float> t(reps);
    for (int r = 0; r < reps; r++) {
        CK(cudaEventRecord(g_ev0, g_stream));
        cudaError_t e = cudaSuccess;
        for (int i = 0; i < batch && e == cudaSuccess; i++) e = f();
        CK(cudaEventRecord(g_ev1, g_stream));
        if (e != cudaSuccess) return fail(e);
        sync_or_die(what);
        CK(cudaEventElapsedTime(&t[r], g_ev0, g_ev1));
        t[r] /= batch;
    }
    std::sort(t.begin(), t.end());
    *ms = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
    return true;
}

static cublasHandle_t g_blas;
/* Row-major C = A·B through column-major cuBLAS: C^T (N×M) = B^T (N×K) · A^T (K×M), no transposes. */
static cudaError_t cublas_sgemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    const float one = 1.0f, zero = 0.0f;
    cublasStatus_t s = cublasSgemm(g_blas, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N);
    return s == CUBLAS_STATUS_SUCCESS ? cudaGetLastError() : cudaErrorUnknown;
}

struct Row {
    std::string config, size, check;
    double ms, tflops, ratio;
};

static void print_row(const Row &r)
{
    printf("%s,%s,%.4f,%.3f,%.4f,%s\n", r.config.c_str(), r.size.c_str(), r.ms, r.tflops, r.ratio, r.check.c_str());
    fflush(stdout);
}

static bool has_only(const std::vector<std::string> &only, const std::string &n)
{
    if (only.empty()) return true;
    for (auto &o : only)
        if (o == n) return true;
    return false;
}

int main(int argc, char **argv)
{
    std::vector<std::string> only;
    int reps = 20, warm = 3;
    bool list = false, no_ragged = false;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--list") list = true;
        else if (a == "--no-ragged") no_ragged = true;
        else if (a == "--reps" && i + 1 < argc) reps = std::max(1, atoi(argv[++i]));
        else if (a == "--only" && i + 1 < argc) {
            std::string s = argv[++i];
            size_t p = 0;
            while (p <= s.size()) {
                size_t q = s.find(',', p);
                if (q == std::string::npos) q = s.size();
                if (q > p) only.push_back(s.substr(p, q - p));
                p = q + 1;
            }
        } else {
            fprintf(stderr, "usage: %s [--list] [--only cfg1,cfg2] [--reps N] [--no-ragged]\n", argv[0]);
            return 2;
        }
    }
    std::vector<Config> all = make_configs(), cfgs;
    if (list) {
        for (auto &c : all) printf("%s\n", c.name.c_str());
        return 0;
    }
    for (auto &c : all)
        if (has_only(only, c.name)) cfgs.push_back(c);
    if (cfgs.empty()) {
        fprintf(stderr, "no config matches --only\n");
        return 2;
    }

    cudaDeviceProp prop;
    CK(cudaSetDevice(0));
    CK(cudaGetDeviceProperties(&prop, 0));
    int clock_khz = 0;
    CK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    fprintf(stderr, "device: %s, %d SMs, sm_%d%d, %zu KB smem/SM, %d MHz max\n", prop.name, prop.multiProcessorCount,
            prop.major, prop.minor, prop.sharedMemPerMultiprocessor / 1024, clock_khz / 1000);
    /* A blocking stream: it synchronises with the legacy default stream of cudaMemcpy (a pageable
     * host-to-device copy may return before its DMA ends). */
    CK(cudaStreamCreate(&g_stream));
    CK(cudaEventCreate(&g_ev0));
    CK(cudaEventCreate(&g_ev1));
    CKB(cublasCreate(&g_blas));
    CKB(cublasSetMathMode(g_blas, CUBLAS_PEDANTIC_MATH));
    CKB(cublasSetStream(g_blas, g_stream));

    /* Resources of each config: registers, local memory (spills), blocks per SM. */
    fprintf(stderr, "%-44s %6s %5s %5s %6s %6s %5s\n", "config", "smemKB", "regF", "regE", "localF", "localE", "occ");
    for (auto &c : cfgs) {
        cudaError_t e = c.prepare();
        if (e != cudaSuccess) {
            fprintf(stderr, "%-44s cannot be prepared: %s\n", c.name.c_str(), cudaGetErrorString(e));
            cudaGetLastError();
            c.usable = false;
            continue;
        }
        cudaFuncAttributes fa, ea;
        int occ = 0;
        CK(cudaFuncGetAttributes(&fa, c.k_fast));
        CK(cudaFuncGetAttributes(&ea, c.k_edge));
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, c.k_fast, c.NT, c.smem));
        fprintf(stderr, "%-44s %6.1f %5d %5d %6zu %6zu %5d\n", c.name.c_str(), c.smem / 1024.0, fa.numRegs,
                ea.numRegs, fa.localSizeBytes, ea.localSizeBytes, occ);
        if (occ < 1) c.usable = false;
    }

    /* ---- 1. correctness on ragged shapes against a CPU fp64 reference (Higham bound ×2). */
    const int ragged[][3] = {{1, 1, 1},     {17, 33, 5},     {129, 130, 131}, {260, 132, 36},
                             {256, 256, 64}, {200, 1000, 333}, {1000, 777, 513}};
    if (!no_ragged) {
        for (auto &sz : ragged) {
            const int M = sz[0], N = sz[1], K = sz[2];
            std::vector<float> hA((size_t)M * K), hB((size_t)K * N), hC((size_t)M * N);
            fill(hA, 11 + M), fill(hB, 23 + N);
            std::vector<double> ref, sabs;
            cpu_ref(hA, hB, M, N, K, ref, sabs);
            const double tol = 2.0 * rtol_fp32(K);
            float *dA, *dB, *dC;
            CK(cudaMalloc(&dA, hA.size() * 4));
            CK(cudaMalloc(&dB, hB.size() * 4));
            CK(cudaMalloc(&dC, hC.size() * 4));
            CK(cudaMemcpy(dA, hA.data(), hA.size() * 4, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(dB, hB.data(), hB.size() * 4, cudaMemcpyHostToDevice));
            CK(cudaDeviceSynchronize());
            int n_bad_cfg = 0;
            for (auto &c : cfgs) {
                if (!c.usable) continue;
                CK(cudaMemsetAsync(dC, 0xFF, hC.size() * 4, g_stream)); /* NaN: unwritten elements fail */
                cudaError_t e = c.launch(dA, dB, dC, M, N, K, 1, g_stream);
                if (e != cudaSuccess) {
                    fprintf(stderr, "  ragged %dx%dx%d %s: launch error %s\n", M, N, K, c.name.c_str(), cudaGetErrorString(e));
                    c.usable = false;
                    continue;
                }
                sync_or_die(c.name.c_str());
                CK(cudaMemcpy(hC.data(), dC, hC.size() * 4, cudaMemcpyDeviceToHost));
                size_t bad = 0, first = 0;
                double worst = 0;
                for (size_t i = 0; i < hC.size(); i++) {
                    const double err = fabs((double)hC[i] - ref[i]), bound = tol * sabs[i] + 1e-30;
                    if (!(err <= bound)) {
                        if (!bad) first = i;
                        bad++;
                    }
                    if (err / bound > worst || err != err) worst = err != err ? INFINITY : err / bound;
                }
                /* Also the group-swizzled raster (group 8) must cover every tile. */
                if (!bad) {
                    CK(cudaMemsetAsync(dC, 0xFF, hC.size() * 4, g_stream));
                    e = c.launch(dA, dB, dC, M, N, K, 8, g_stream);
                    if (e == cudaSuccess) {
                        sync_or_die(c.name.c_str());
                        std::vector<float> hC2(hC.size());
                        CK(cudaMemcpy(hC2.data(), dC, hC.size() * 4, cudaMemcpyDeviceToHost));
                        if (memcmp(hC2.data(), hC.data(), hC.size() * 4) != 0) bad = 1, first = 0, worst = INFINITY;
                    }
                }
                if (bad) {
                    c.ragged_ok = false;
                    n_bad_cfg++;
                    fprintf(stderr, "  WRONG ragged %dx%dx%d %s: %zu bad elements, first at (%zu,%zu): %g vs %g, worst err/bound %.3g\n",
                            M, N, K, c.name.c_str(), bad, first / N, first % N, hC[first], ref[first], worst);
                }
            }
            fprintf(stderr, "ragged %dx%dx%d: %d config(s) wrong\n", M, N, K, n_bad_cfg);
            CK(cudaFree(dA));
            CK(cudaFree(dB));
            CK(cudaFree(dC));
        }
    }

    /* ---- 2. timing at the two sizes, checked against cuBLAS. */
    const int sizes[][3] = {{4096, 4096, 4096}, {4096, 1000, 333}};
    printf("config,size,ms,tflops,ratio_to_cublas,check\n");
    std::vector<Row> best_rows;
    for (auto &sz : sizes) {
        const int M = sz[0], N = sz[1], K = sz[2];
        char size_s[64];
        snprintf(size_s, sizeof size_s, "%dx%dx%d", M, N, K);
        const double flop = 2.0 * M * (double)N * K;
        const size_t nA = (size_t)M * K, nB = (size_t)K * N, nC = (size_t)M * N;
        std::vector<float> hA(nA), hB(nB), hRef(nC), hS(nC), hC(nC), hC2(nC);
        fill(hA, 1), fill(hB, 2);
        float *dA, *dB, *dC, *dAbsA, *dAbsB, *dRef;
        CK(cudaMalloc(&dA, nA * 4));
        CK(cudaMalloc(&dB, nB * 4));
        CK(cudaMalloc(&dC, nC * 4));
        CK(cudaMalloc(&dAbsA, nA * 4));
        CK(cudaMalloc(&dAbsB, nB * 4));
        CK(cudaMalloc(&dRef, nC * 4));
        CK(cudaMemcpy(dA, hA.data(), nA * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dB, hB.data(), nB * 4, cudaMemcpyHostToDevice));
        /* Σ|a||b| per element (for the error bound) by cuBLAS on |A|, |B|: fp32 sums of positive terms,
         * within 1 + γ_K of the exact value. */
        {
            std::vector<float> t(hA);
            for (auto &x : t) x = fabsf(x);
            CK(cudaMemcpy(dAbsA, t.data(), nA * 4, cudaMemcpyHostToDevice));
            t = hB;
            for (auto &x : t) x = fabsf(x);
            CK(cudaMemcpy(dAbsB, t.data(), nB * 4, cudaMemcpyHostToDevice));
            CK(cudaDeviceSynchronize());
        }
        CK(cublas_sgemm(dAbsA, dAbsB, dRef, M, N, K));
        sync_or_die("cublas |A||B|");
        CK(cudaMemcpy(hS.data(), dRef, nC * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemsetAsync(dRef, 0xFF, nC * 4, g_stream));
        CK(cublas_sgemm(dA, dB, dRef, M, N, K));
        sync_or_die("cublas");
        CK(cudaMemcpy(hRef.data(), dRef, nC * 4, cudaMemcpyDeviceToHost));
        double ref_norm2 = 0;
        for (size_t i = 0; i < nC; i++) ref_norm2 += (double)hRef[i] * hRef[i];
        const double elem_tol = 2.0 * rtol_fp32(K) * (1.0 + rtol_fp32(K)) * 1.01; /* both sides' error */
        const double norm_tol = 16.0 * 0x1p-24 * sqrt((double)K);                 /* heuristic, ~20× typical */

        /* cuBLAS: a longer warm-up (clocks), timed before and after the configs; the faster counts. */
        double blas_ms0 = 0, blas_ms1 = 0;
        auto blas = [&]() { return cublas_sgemm(dA, dB, dC, M, N, K); };
        if (!time_median(blas, 10 + warm, reps, &blas_ms0, "cublas")) return 3;
        fprintf(stderr, "%s cublas %.4f ms %.2f TFLOP/s\n", size_s, blas_ms0, flop / blas_ms0 / 1e9);

        std::vector<Row> rows;
        /* Check C (in hC) against cuBLAS: every element within the rigorous bound, the normwise
         * relative difference within norm_tol. Returns "ok" or "WRONG". */
        auto check_c = [&](const std::string &name) -> std::string {
            double diff2 = 0, max_abs = 0, worst = 0;
            size_t bad = 0, first = 0;
            for (size_t i = 0; i < nC; i++) {
                const double d = fabs((double)hC[i] - (double)hRef[i]), bound = elem_tol * hS[i] + 1e-30;
                if (!(d <= bound)) {
                    if (!bad) first = i;
                    bad++;
                }
                if (d != d) max_abs = INFINITY, worst = INFINITY;
                else {
                    max_abs = std::max(max_abs, d);
                    worst = std::max(worst, d / bound);
                }
                diff2 += d * d;
            }
            const double rel = sqrt(diff2 / ref_norm2);
            const bool ok = bad == 0 && rel <= norm_tol;
            fprintf(stderr, "  %s %s: max|c-ref| %.3g, worst err/bound %.3g, normwise rel %.3g (tol %.3g)%s\n",
                    size_s, name.c_str(), max_abs, worst, rel, norm_tol, ok ? "" : "  <-- WRONG");
            if (bad)
                fprintf(stderr, "    %zu elements out of bound, first (%zu,%zu): %g vs cuBLAS %g\n", bad, first / N,
                        first % N, hC[first], hRef[first]);
            return ok ? "ok" : "WRONG";
        };
        /* One config (at one raster group): poison, run, check, time, rerun-compare. */
        auto run_config = [&](Config &c, int group, const std::string &name) {
            Row r{name, size_s, "", 0, 0, 0};
            if (!c.usable) {
                r.check = "LAUNCH_FAIL";
                rows.push_back(r);
                return;
            }
            CK(cudaMemsetAsync(dC, 0xFF, nC * 4, g_stream));
            cudaError_t e = c.launch(dA, dB, dC, M, N, K, group, g_stream);
            if (e != cudaSuccess) {
                fprintf(stderr, "  %s %s: launch error %s\n", size_s, name.c_str(), cudaGetErrorString(e));
                r.check = "LAUNCH_FAIL";
                rows.push_back(r);
                return;
            }
            sync_or_die(name.c_str());
            CK(cudaMemcpy(hC.data(), dC, nC * 4, cudaMemcpyDeviceToHost));
            r.check = check_c(name);
            if (!c.ragged_ok) r.check = "WRONG_RAGGED";
            auto f = [&]() { return c.launch(dA, dB, dC, M, N, K, group, g_stream); };
            if (!time_median(f, warm, reps, &r.ms, name.c_str())) {
                r.check = "LAUNCH_FAIL";
                rows.push_back(r);
                return;
            }
            /* The kernels are deterministic: the last timed run must equal the checked one bit for bit
             * (a race would show here). */
            CK(cudaMemcpy(hC2.data(), dC, nC * 4, cudaMemcpyDeviceToHost));
            if (memcmp(hC.data(), hC2.data(), nC * 4) != 0) {
                fprintf(stderr, "  %s %s: rerun differs from the checked run  <-- WRONG (race?)\n", size_s, name.c_str());
                r.check = "WRONG_NONDET";
            }
            r.tflops = flop / r.ms / 1e9;
            fprintf(stderr, "%s %-44s %.4f ms %.2f TFLOP/s %s\n", size_s, name.c_str(), r.ms, r.tflops, r.check.c_str());
            rows.push_back(r);
        };

        for (auto &c : cfgs) run_config(c, 1, c.name);
        /* The three fastest correct configs again with grouped rasters (L2 reuse). */
        {
            std::vector<std::pair<double, size_t>> ok;
            for (size_t i = 0; i < rows.size(); i++)
                if (rows[i].check == "ok") ok.push_back({rows[i].ms, i});
            std::sort(ok.begin(), ok.end());
            std::vector<std::string> top;
            for (size_t i = 0; i < ok.size() && i < 3; i++) top.push_back(rows[ok[i].second].config);
            for (auto &n : top)
                for (auto &c : cfgs)
                    if (c.name == n)
                        for (int g : {4, 8, 16}) run_config(c, g, n + "+g" + std::to_string(g));
        }
        if (!time_median(blas, warm, reps, &blas_ms1, "cublas")) return 3;
        const double blas_ms = std::min(blas_ms0, blas_ms1);
        fprintf(stderr, "%s cublas %.4f ms before, %.4f ms after the configs: using %.4f ms (%.2f TFLOP/s)\n", size_s,
                blas_ms0, blas_ms1, blas_ms, flop / blas_ms / 1e9);
        print_row(Row{"cublas", size_s, "ref", blas_ms, flop / blas_ms / 1e9, 1.0});
        Row best{"", size_s, "none", 0, 0, 0};
        for (auto &r : rows) {
            if (r.ms > 0) r.ratio = blas_ms / r.ms;
            print_row(r);
            if (r.check == "ok" && r.tflops > best.tflops) best = r;
        }
        best_rows.push_back(best);
        CK(cudaFree(dA));
        CK(cudaFree(dB));
        CK(cudaFree(dC));
        CK(cudaFree(dAbsA));
        CK(cudaFree(dAbsB));
        CK(cudaFree(dRef));
    }
    for (auto &b : best_rows) {
        Row r = b;
        r.config = "best:" + b.config;
        print_row(r);
        fprintf(stderr, "BEST %s: %s %.2f TFLOP/s = %.3f of cuBLAS\n", b.size.c_str(), b.config.c_str(), b.tflops, b.ratio);
    }
    CKB(cublasDestroy(g_blas));
    return 0;
}
