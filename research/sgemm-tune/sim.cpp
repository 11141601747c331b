/*
 * sim.cpp: runs sgemm_kernel (sgemm_kernel.cuh) on the CPU for every configuration of configs.inc, to
 * check its index math, edge handling and barrier / cp.async pipeline without a GPU.
 *
 * A block's threads are real threads, but only one runs at a time: each runs until its next
 * __syncthreads (or the end of the kernel), then hands over to the next one in an order chosen per
 * barrier interval (forward, reverse or shuffled). A kernel without races gives bit-identical results
 * in every order; a read of shared memory that another thread writes in the same interval sees a
 * different value in a different order. cp.async copies land either at once ("early": a write into a
 * buffer that others still read shows up) or only at the cp.async.wait_group that covers them
 * ("late": a read before the data has landed sees the poison). Shared memory starts as NaN; A, B and
 * C sit against inaccessible guard pages (an access outside them is a SIGSEGV), C starts as NaN, and
 * every 16-byte access is checked for alignment.
 *
 * Build and run (run.sh does): g++ -O1 -std=c++20 -pthread -o build/sim sim.cpp && build/sim
 * Prints one line per config and "N passed, M failed"; exits 1 if any failed.
 */
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <random>
#include <semaphore>
#include <string>
#include <thread>
#include <vector>

/* ---------------------------------------------------------------- CUDA, as far as the kernel needs it */
#define SGEMM_SIM 1
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __restrict__ __restrict
struct alignas(16) float4 {
    float x, y, z, w;
};
static inline float4 make_float4(float x, float y, float z, float w) { return float4{x, y, z, w}; }
struct Dim3 {
    unsigned x = 0, y = 0, z = 0;
};
thread_local Dim3 threadIdx, blockIdx;
using std::min;

static const char *g_current = "?"; /* the config under test */
static void sim_fail(const char *what, const void *p)
{
    printf("%-44s FAILED (stopped): %s (%p)\n", g_current, what, p);
    printf("0 passed, 1 failed\n");
    fflush(stdout);
    fprintf(stderr, "SIM FAILURE in %s: %s (%p)\n", g_current, what, p);
    fflush(stderr);
    _exit(2);
}
#define SGEMM_CHECK_ALIGN16(p) (((uintptr_t)(p) & 15) ? sim_fail("misaligned 16-byte access", (p)) : (void)0)

/* ---------------------------------------------------------------- the scheduler */
struct Sched {
    int nt = 0;
    std::vector<std::binary_semaphore *> sem; /* one per thread: its turn */
    std::vector<int> order;                   /* this interval's order */
    int pos = 0;                              /* whose turn: order[pos] */
    int at_sync = 0, at_end = 0;              /* arrivals in this interval */
    int policy = 0;                           /* 0 forward, 1 reverse, 2 shuffled */
    std::mt19937 rng{12345};
    float *smem = nullptr;
    size_t smem_floats = 0;
    long intervals = 0;
    std::function<void()> on_block_end; /* run by the last thread to finish a block */

    void new_order()
    {
        for (int i = 0; i < nt; i++) order[i] = i;
        if (policy == 1) std::reverse(order.begin(), order.end());
        if (policy == 2) std::shuffle(order.begin(), order.end(), rng);
        pos = 0;
        intervals++;
    }
    /* The running thread arrived at a barrier (end = the end of the kernel for this block): hand the
     * turn to the next thread; after the last one, a new interval begins. Then wait for the turn. */
    void arrive(int tid, bool end)
    {
        (end ? at_end : at_sync)++;
        if (++pos == nt) {
            if (at_sync && at_end) sim_fail("some threads at __syncthreads, others at the end: divergent barrier", nullptr);
            if (at_end && on_block_end) on_block_end();
            at_sync = at_end = 0;
            new_order();
        }
        sem[order[pos]]->release();
        sem[tid]->acquire();
    }
};
static Sched g_sched;
thread_local int sim_tid;

/* ---------------------------------------------------------------- shared memory, barrier, cp.async */
#define SGEMM_SHARED(name) float *name = g_sched.smem
#define SGEMM_SYNC() g_sched.arrive(sim_tid, false)

struct Copy {
    float *dst;
    float v[4];
    int n;
};
static bool g_late = false; /* cp.async lands at the wait (late) or at once (early) */
thread_local std::vector<Copy> t_uncommitted;
thread_local std::deque<std::vector<Copy>> t_groups;
static void land(const Copy &c)
{
    for (int i = 0; i < c.n; i++) c.dst[i] = c.v[i];
}
static void cp_async(float *dst, const float *src, int n, int src_bytes)
{
    if (src_bytes < 0 || src_bytes > 4 * n || src_bytes % 4) sim_fail("cp.async: bad src-size", src);
    if ((uintptr_t)dst % (4 * n) || (src_bytes && (uintptr_t)src % (4 * n))) sim_fail("cp.async: misaligned", dst);
    if (dst < g_sched.smem || dst + n > g_sched.smem + g_sched.smem_floats) sim_fail("cp.async: not shared memory", dst);
    Copy c{dst, {0, 0, 0, 0}, n};
    for (int i = 0; i < src_bytes / 4; i++) c.v[i] = src[i]; /* the source is read at issue */
    if (g_late) t_uncommitted.push_back(c);
    else land(c);
}
static inline void cp_async16(float *dst, const float *src, int src_bytes) { cp_async(dst, src, 4, src_bytes); }
static inline void cp_async4(float *dst, const float *src, int src_bytes) { cp_async(dst, src, 1, src_bytes); }
static inline void cp_async_commit()
{
    t_groups.push_back(std::move(t_uncommitted));
    t_uncommitted.clear();
}
template <int N> static inline void cp_async_wait()
{
    while ((int)t_groups.size() > N) {
        for (auto &c : t_groups.front()) land(c);
        t_groups.pop_front();
    }
}

#include "sgemm_kernel.cuh"

/* ---------------------------------------------------------------- guarded buffers */
struct Guarded {
    void *base = nullptr;
    size_t len = 0;
    float *p = nullptr;
    Guarded(size_t n, bool at_end)
    {
        const size_t pg = (size_t)sysconf(_SC_PAGESIZE), bytes = n * sizeof(float);
        const size_t data_pages = (bytes + pg - 1) / pg;
        len = (data_pages + 2) * pg;
        base = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (base == MAP_FAILED) sim_fail("mmap", nullptr);
        char *b = (char *)base;
        mprotect(b, pg, PROT_NONE);
        mprotect(b + (data_pages + 1) * pg, pg, PROT_NONE);
        p = (float *)(at_end ? b + (data_pages + 1) * pg - bytes : b + pg);
    }
    ~Guarded() { munmap(base, len); }
};
static void on_segv(int) { sim_fail("SIGSEGV: access outside A, B, C or shared memory", nullptr); }

/* ---------------------------------------------------------------- running one kernel on the CPU */
template <class KernelFn>
static void run_grid(KernelFn kernel, int nt, size_t smem_bytes, int blocks, int policy, bool late)
{
    Guarded smem(smem_bytes / sizeof(float), true);
    g_sched.nt = nt;
    g_sched.policy = policy;
    g_sched.smem = smem.p;
    g_sched.smem_floats = smem_bytes / sizeof(float);
    g_late = late;
    std::vector<std::binary_semaphore *> sems;
    for (int i = 0; i < nt; i++) sems.push_back(new std::binary_semaphore(0));
    g_sched.sem = sems;
    g_sched.order.assign(nt, 0);
    std::atomic<int> block{0};
    auto poison = [&] {
        for (size_t i = 0; i < g_sched.smem_floats; i++) g_sched.smem[i] = NAN;
    };
    g_sched.on_block_end = [&] {
        block++;
        poison();
    };
    poison();
    g_sched.new_order();
    std::vector<std::thread> th;
    for (int t = 0; t < nt; t++)
        th.emplace_back([&, t] {
            sim_tid = t;
            threadIdx.x = t;
            g_sched.sem[t]->acquire();
            for (int b = 0; b < blocks; b++) {
                blockIdx.x = b;
                t_uncommitted.clear();
                t_groups.clear();
                kernel();
                /* Copies still in flight at the end would be lost work (and a sign of a wrong wait). */
                for (auto &g : t_groups)
                    if (!g.empty()) sim_fail("cp.async copies never waited for", nullptr);
                if (!t_uncommitted.empty()) sim_fail("cp.async copies never committed", nullptr);
                g_sched.arrive(t, true);
            }
            /* After the last block every thread arrives once more: release the next one. */
        });
    /* Start: the first thread of the first order. The last arrival of the last block wakes one thread
     * of a new order that has nothing left to do; wake them all so that they can be joined. */
    g_sched.sem[g_sched.order[0]]->release();
    while (block.load() < blocks) std::this_thread::sleep_for(std::chrono::microseconds(200));
    for (int i = 0; i < nt; i++) sems[i]->release();
    for (auto &x : th) x.join();
    for (auto *s : sems) delete s;
    g_sched.on_block_end = nullptr;
}

/* ---------------------------------------------------------------- data and reference */
static float uniform_pm1(uint64_t seed, uint64_t i)
{
    uint64_t z = seed * 0x9E3779B97F4A7C15ull + i + 1;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (float)((double)(z >> 40) * 0x1p-23 - 1.0);
}
static double gamma_n(double n, double u) { return n * u / (1.0 - n * u); }

struct Problem {
    int M, N, K;
    std::vector<float> A, B;
    std::vector<double> ref, sabs;
};
static Problem make_problem(int M, int N, int K)
{
    Problem p{M, N, K, std::vector<float>((size_t)M * K), std::vector<float>((size_t)K * N), {}, {}};
    for (size_t i = 0; i < p.A.size(); i++) p.A[i] = uniform_pm1(11 + M, i);
    for (size_t i = 0; i < p.B.size(); i++) p.B[i] = uniform_pm1(23 + N, i);
    p.ref.assign((size_t)M * N, 0.0);
    p.sabs.assign((size_t)M * N, 0.0);
    for (int i = 0; i < M; i++)
        for (int k = 0; k < K; k++) {
            const double a = p.A[(size_t)i * K + k];
            for (int j = 0; j < N; j++) {
                p.ref[(size_t)i * N + j] += a * p.B[(size_t)k * N + j];
                p.sabs[(size_t)i * N + j] += fabs(a) * fabs((double)p.B[(size_t)k * N + j]);
            }
        }
    return p;
}

/* One run: returns C (NaN where never written). */
template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, int NT, int MODE, int STAGES, int MINB>
static std::vector<float> run_one(const Problem &p, bool edge, int group, int policy, bool late, bool at_end)
{
    using G = Geo<BM, BN, BK, WM, WN, WNITER, TM, TN, NT, MODE, STAGES, MINB>;
    Guarded A(p.A.size(), at_end), B(p.B.size(), !at_end), C((size_t)p.M * p.N, at_end);
    memcpy(A.p, p.A.data(), p.A.size() * 4);
    memcpy(B.p, p.B.data(), p.B.size() * 4);
    for (size_t i = 0; i < (size_t)p.M * p.N; i++) C.p[i] = NAN;
    const int blocks = ((p.M + BM - 1) / BM) * ((p.N + BN - 1) / BN);
    const int M = p.M, N = p.N, K = p.K;
    const float *a = A.p, *b = B.p;
    float *c = C.p;
    if (edge)
        run_grid([&] { sgemm_kernel<BM, BN, BK, WM, WN, WNITER, TM, TN, NT, MODE, STAGES, MINB, true>(a, b, c, M, N, K, group); },
                 NT, G::SMEM, blocks, policy, late);
    else
        run_grid([&] { sgemm_kernel<BM, BN, BK, WM, WN, WNITER, TM, TN, NT, MODE, STAGES, MINB, false>(a, b, c, M, N, K, group); },
                 NT, G::SMEM, blocks, policy, late);
    return std::vector<float>(C.p, C.p + (size_t)M * N);
}

static int g_pass = 0, g_fail = 0;

template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, int NT, int MODE, int STAGES, int MINB>
static void check_config(const char *name, const std::vector<Problem> &probs, bool quick)
{
    bool ok = true;
    std::string why;
    g_current = name;
    for (const Problem &p : probs) {
        const bool fast_ok = p.M % BM == 0 && p.N % BN == 0 && p.K % BK == 0;
        const double tol = 2.0 * (gamma_n(p.K, 0x1p-24) + 2.0 * gamma_n(p.K, 0x1p-53));
        /* (edge, group, order, late, guard at end) per run; all must agree bit for bit. */
        struct Run {
            bool edge;
            int group, policy;
            bool late, at_end;
        };
        std::vector<Run> runs = {{true, 1, 0, true, true}, {true, 3, 1, false, false}, {true, 1, 2, true, false}};
        if (!quick) runs.push_back({true, 2, 2, false, true});
        if (fast_ok) {
            runs.push_back({false, 1, 2, true, true});
            runs.push_back({false, 4, 1, false, false});
        }
        std::vector<float> first;
        for (const Run &r : runs) {
            std::vector<float> c =
                run_one<BM, BN, BK, WM, WN, WNITER, TM, TN, NT, MODE, STAGES, MINB>(p, r.edge, r.group, r.policy, r.late, r.at_end);
            char buf[256];
            if (first.empty()) {
                first = c;
                size_t bad = 0, firstbad = 0;
                for (size_t i = 0; i < c.size(); i++)
                    if (!(fabs((double)c[i] - p.ref[i]) <= tol * p.sabs[i])) {
                        if (!bad) firstbad = i;
                        bad++;
                    }
                if (bad) {
                    snprintf(buf, sizeof buf, " %dx%dx%d: %zu wrong, first (%zu,%zu) %g vs %g;", p.M, p.N, p.K, bad,
                             firstbad / p.N, firstbad % p.N, c[firstbad], p.ref[firstbad]);
                    why += buf;
                    ok = false;
                }
            } else if (memcmp(first.data(), c.data(), c.size() * 4) != 0) {
                size_t i = 0;
                while (i < c.size() && memcmp(&first[i], &c[i], 4) == 0) i++;
                snprintf(buf, sizeof buf, " %dx%dx%d: run (edge %d group %d order %d late %d) differs at (%zu,%zu): %g vs %g;", p.M,
                         p.N, p.K, r.edge, r.group, r.policy, r.late, i / p.N, i % p.N, c[i], first[i]);
                why += buf;
                ok = false;
            }
        }
    }
    printf("%-44s %s%s\n", name, ok ? "ok" : "FAILED", why.c_str());
    fflush(stdout);
    (ok ? g_pass : g_fail)++;
}

int main(int argc, char **argv)
{
    signal(SIGSEGV, on_segv);
    signal(SIGBUS, on_segv);
    const bool quick = argc > 1 && !strcmp(argv[1], "--quick");
    const std::string only = argc > 2 ? argv[2] : "";
    /* Shapes: tiny, odd everything, float4 paths with ragged M, K%4=0 with N%4≠0, K%4≠0 with N%4=0,
     * and one that every config's tiles divide (the guard-free kernel runs too). */
    const int shapes[][3] = {{1, 1, 1}, {17, 33, 5}, {129, 130, 131}, {260, 132, 36}, {64, 70, 40}, {200, 264, 37}, {256, 256, 64}};
    std::vector<Problem> probs;
    for (auto &s : shapes) probs.push_back(make_problem(s[0], s[1], s[2]));
    auto name_of = [](int BM, int BN, int BK, int WM, int WN, int WNI, int TM, int TN, int NT, int MODE, int ST) {
        char b[160];
        const char *mode = MODE == CPA ? "cpa" : MODE == MIX ? "mix" : "reg";
        if (MODE == CPA) snprintf(b, sizeof b, "%dx%dx%d_w%dx%d_i%d_t%dx%d_%dt_%s%d", BM, BN, BK, WM, WN, WNI, TM, TN, NT, mode, ST);
        else snprintf(b, sizeof b, "%dx%dx%d_w%dx%d_i%d_t%dx%d_%dt_%s", BM, BN, BK, WM, WN, WNI, TM, TN, NT, mode);
        return std::string(b);
    };
#define CFG(BM, BN, BK, WM, WN, WNI, TM, TN, NT, MODE, ST, MINB)                                                      \
    {                                                                                                              \
        const std::string n = name_of(BM, BN, BK, WM, WN, WNI, TM, TN, NT, MODE, ST);                               \
        if (only.empty() || only == n) check_config<BM, BN, BK, WM, WN, WNI, TM, TN, NT, MODE, ST, MINB>(n.c_str(), probs, quick); \
    }
#include "configs.inc"
#undef CFG
    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
