/* sim.cpp: runs ac_tile.cuh's kernel and chapter.patch's (patch_kernel.inc) on the CPU, since this bench was written without a GPU. Each block
 * is 256 std::threads meeting at a std::barrier for __syncthreads(); blocks run one after another, so
 * the block's shared memory can be one buffer. cp.async is emulated either landing at issue or only
 * when a wait lets it (the two orders a pipeline race can show up in); shared memory starts as NaN
 * and so does C. Every element is checked against a double-precision reference within the chapter's
 * bound (γ_K(2^-24)·Σ|a||b|, the CPU reference being exact enough), and every tile must give the same
 * bits (the same order of sums). Catches index, coverage and pipeline errors; says nothing of speed.
 *   g++ -O1 -std=c++20 -pthread -o build/sgemm-shape-sim research/sgemm-shape/sim.cpp && build/sgemm-shape-sim
 * Exit 0 when every case passes, 1 otherwise. */
#include <barrier>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#define __shared__ /* extern float smem[] names the simulated block's buffer below */
struct float4 { float x, y, z, w; };
static float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
struct dim3 { unsigned x = 0, y = 0, z = 0; };
static thread_local dim3 threadIdx;
static dim3 blockIdx;            /* set before a block's threads start, read-only while they run */
static std::barrier<> *block_barrier;
static bool land_at_issue;       /* the emulation's mode for this run */
static void __syncthreads() { block_barrier->arrive_and_wait(); }
static int wb_ceil_div(long long n, long long d) { return (int)((n + d - 1) / d); }

/* The simulated block's dynamic shared memory (the largest tile's 74 496 bytes fit), under the names
 * the two kernels give it; both names are one buffer. */
alignas(16) float smem[80 * 1024 / 4];
extern float ac_smem[] __attribute__((alias("smem")));

/* cp.async: each thread's groups of pending copies, landed by the waits. */
struct Copy { float *dst; float v; };
static thread_local std::vector<std::vector<Copy>> groups; /* the last one is still open */
static void issue(float *dst, float v)
{
    if (land_at_issue) { *dst = v; return; }
    if (groups.empty()) groups.emplace_back();
    groups.back().push_back({dst, v});
}
static void cp_async4(float *dst, const float *src, int src_bytes) { issue(dst, src_bytes ? *src : 0.0f); }
static void cp_async16(float *dst, const float *src)
{
    for (int j = 0; j < 4; j++) issue(dst + j, src[j]);
}
static void cp_async_commit() { groups.emplace_back(); }
template <int N>
static void cp_async_wait_group()
{
    /* groups.back() is the open group (not committed); the committed ones before it land, all but N. */
    int committed = groups.empty() ? 0 : (int)groups.size() - 1;
    for (int g = 0; g < committed - N; g++)
        for (const Copy &c : groups[g]) *c.dst = c.v;
    if (committed > N) groups.erase(groups.begin(), groups.begin() + (committed - N));
}
static void cp_async_wait_all() { cp_async_wait_group<0>(); }

/* The chapter's guarded helpers (solutions/04-matmul/matmul.cu), as they are. */
static void copy4_async(float *dst, const float *X, int rows, int cols, int r, int c)
{
    if (cols % 4 == 0 && r < rows && c + 3 < cols) {
        cp_async16(dst, X + r * cols + c);
        return;
    }
    for (int j = 0; j < 4; j++) {
        bool in = r < rows && c + j < cols;
        cp_async4(dst + j, in ? X + r * cols + c + j : X, in ? 4 : 0);
    }
}
static void store4_guarded(float *X, int rows, int cols, int r, int c, float4 v)
{
    if (r >= rows) return;
    float *p = X + r * cols;
    if (c < cols) p[c] = v.x;
    if (c + 1 < cols) p[c + 1] = v.y;
    if (c + 2 < cols) p[c + 2] = v.z;
    if (c + 3 < cols) p[c + 3] = v.w;
}
static void store4_vector(float *X, int rows, int cols, int r, int c, float4 v)
{
    if (cols % 4 == 0 && r < rows && c + 3 < cols) {
        *(float4 *)(X + r * cols + c) = v;
        return;
    }
    store4_guarded(X, rows, cols, r, c, v);
}

#define BK 16
#define TM 8
#define TN 8
#define A_PAD 4
#define AC_BN 256
#define AC_BM 64
#define AC_BM_TALL 128
#define AC_THREADS 256
#define AC_A_COPIES (AC_BM * BK / AC_THREADS)
#include "ac_tile.cuh"
#include "patch_kernel.inc"

using KernelFn = void (*)(const float *, const float *, float *, int, int, int);

/* A grid of ROWS x 256 blocks of THREADS threads, EDGE chosen as the launchers do. */
static void run_blocks(KernelFn whole_tiles, KernelFn edge, int ROWS, unsigned THREADS, const float *A, const float *B,
                       float *C, int M, int N, int K)
{
    KernelFn k = M % ROWS == 0 && N % AC_BN == 0 && K % BK == 0 ? whole_tiles : edge;
    for (unsigned by = 0; by < (unsigned)wb_ceil_div(M, ROWS); by++)
        for (unsigned bx = 0; bx < (unsigned)wb_ceil_div(N, AC_BN); bx++) {
            std::fill(std::begin(smem), std::end(smem), NAN);
            blockIdx = {bx, by, 0};
            std::barrier<> bar(THREADS);
            block_barrier = &bar;
            std::vector<std::thread> threads;
            for (unsigned t = 0; t < THREADS; t++)
                threads.emplace_back([=] {
                    threadIdx = {t, 0, 0};
                    groups.clear();
                    k(A, B, C, M, N, K);
                    groups.clear(); /* copies never waited for are dropped, as a block's exit would */
                });
            for (auto &th : threads) th.join();
        }
}

template <int ROWS, int THREADS, int STAGES>
static void run_grid(const float *A, const float *B, float *C, int M, int N, int K)
{
    run_blocks(ac_tile<ROWS, THREADS, STAGES, false>, ac_tile<ROWS, THREADS, STAGES, true>, ROWS, THREADS, A, B, C, M, N, K);
}

template <int ROWS>
static void run_patch(const float *A, const float *B, float *C, int M, int N, int K)
{
    run_blocks(matmul_async_copy<ROWS, false>, matmul_async_copy<ROWS, true>, ROWS, ROWS / AC_BM * AC_THREADS, A, B, C, M, N, K);
}

struct Tile { const char *name; void (*run)(const float *, const float *, float *, int, int, int); };
static const Tile tiles[] = {{"64x256x16-2buf-256t", run_grid<64, 256, 2>},  {"64x256x16-3buf-256t", run_grid<64, 256, 3>},
                             {"128x256x16-2buf-512t", run_grid<128, 512, 2>}, {"128x256x16-3buf-512t", run_grid<128, 512, 3>},
                             {"128x256x16-2buf-256t", run_grid<128, 256, 2>}, {"128x256x16-3buf-256t", run_grid<128, 256, 3>},
                             {"patch-64rows", run_patch<AC_BM>},                {"patch-128rows", run_patch<AC_BM_TALL>}};

static unsigned long long lcg(unsigned long long &s) { return s = s * 6364136223846793005ull + 1442695040888963407ull; }

/* One shape in one mode: every tile checked against the reference and against the first tile's bits. */
static bool sim_case(int M, int N, int K)
{
    std::vector<float> A((size_t)M * K), B((size_t)K * N), first;
    unsigned long long seed = 1234 + M * 31 + N * 7 + K;
    for (float &x : A) x = (float)((lcg(seed) >> 40) / 16777216.0 * 2 - 1);
    for (float &x : B) x = (float)((lcg(seed) >> 40) / 16777216.0 * 2 - 1);
    double u = 0x1p-24, rtol = K * u / (1 - K * u);
    bool ok = true;
    for (const Tile &t : tiles) {
        std::vector<float> C((size_t)M * N, NAN);
        t.run(A.data(), B.data(), C.data(), M, N, K);
        long bad = 0;
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                double ref = 0, abs = 0;
                for (int k = 0; k < K; k++) ref += (double)A[(size_t)i * K + k] * B[(size_t)k * N + j], abs += std::fabs((double)A[(size_t)i * K + k] * B[(size_t)k * N + j]);
                if (!(std::fabs(C[(size_t)i * N + j] - ref) <= rtol * abs)) bad++;
            }
        bool same = first.empty() || !memcmp(first.data(), C.data(), sizeof(float) * C.size());
        if (first.empty()) first = C;
        printf("%s %dx%dx%d %s: %s%s\n", land_at_issue ? "at-issue" : "at-wait ", M, N, K, t.name,
               bad ? "WRONG" : "PASS", same ? "" : " (bits differ from 64x256x16-2buf-256t)");
        ok = ok && !bad && same;
    }
    return ok;
}

int main()
{
    /* whole tiles for both heights (EDGE off), ragged in every extent, K shorter than a slice, one
     * element, and the short K of the chapter's rectangular size */
    const int shapes[][3] = {{256, 512, 48}, {1, 1, 1}, {129, 257, 33}, {200, 300, 5}, {130, 260, 70}, {128, 1000, 333}};
    bool ok = true;
    for (int mode = 0; mode < 2; mode++) {
        land_at_issue = mode == 1;
        for (const auto &s : shapes) ok = sim_case(s[0], s[1], s[2]) && ok;
    }
    printf("%s\n", ok ? "all PASS" : "FAILED");
    return ok ? 0 : 1;
}
