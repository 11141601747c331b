/* Chapter 7's single-pass scan and its reduce-then-scan beside candidates meant to bring them closer to
 * the copy on an H200, in one program on the same buffers and the chapter's own seeded input:
 *   chapter decoupled-lookback, chapter reduce-then-scan   the chapter's kernels, by including its file
 *   lookback one-pass    one block a tile as the chapter, with T threads, V uint4 a thread, relaxed or
 *                        acquire/release status words, the aggregate published after a block reduction
 *                        (early) or after the whole in-tile scan (late, as the chapter), __nanosleep
 *                        before and between polls, and the statuses reset by a memset or an epoch tag
 *   lookback persistent  one wave of blocks, tile ids still drawn from the counter; each block loads its
 *                        next tile (and draws the id after it) while warp 0 looks back for the current
 *   reduce-then-scan K   the chapter's three kernels with K tiles a block in both passes
 * beside memcpy D2D (the chapter's speed of light) and cub::DeviceScan::InclusiveSum.
 * Every kernel's output is compared exactly (on the GPU) with the CPU's scan (the chapter's scan_cpu) at
 * n, n - 1, 2^22 + 3, 4097, 33 and 1, 20 times over at 2^24, and after its timed runs; each is timed
 * as the median of `reps` launches (CUDA events) after 3 warm-ups, in two interleaved rounds. CSV on
 * stdout. Build (repository root):
 *   nvcc -O3 -std=c++20 -arch=sm_90 -Icommon -Xcompiler -fopenmp -o build/scan-lookback research/scan-lookback/bench.cu -lgomp
 * Run: build/scan-lookback [log2 n (12-29, default 28)] [reps (1-1000, default 20)] */

/* First, before the chapter's WARP macro: CUB's block-scan headers name a template parameter WARP. */
#include <cub/device/device_scan.cuh>

/* The chapter's kernels, launchers, input recipe and CPU scan, from the chapter itself (identical by
 * construction). WB_CUB stays undefined: this file times CUB on its own. */
#define main chapter7_main
#include "../../solutions/07-scan/scan.cu"
#undef main

#include <functional>
#include <string>
#include <vector>

namespace cand {

enum Order { ACQREL, RELAXED };
enum Kind { K_INVALID = 0, K_AGGREGATE = 1, K_PREFIX = 2 };

/* What a launch tells its blocks beyond the buffers. */
struct Knobs {
    unsigned epoch;      /* this launch's tag in every status word it writes (never 0) */
    unsigned last_draw;  /* the counter's value at the launch's last draw: that block resets it to 0 */
    unsigned first_ns;   /* __nanosleep before the first poll, once the aggregate is out (0: none) */
    unsigned sleep_ns;   /* __nanosleep between polls of a status not yet published (0: spin) */
};

/* ------------------------------------------------------------------ a tile of T threads, V uint4 each */
/* The chapter's layout, generalised: warp w owns the span of 128·V elements from w·128·V; lane l holds
 * chunk r·32 + l of that span in v[r], so each load and store of a warp is 512 contiguous bytes. */
template <int T, int V> struct Shape {
    static constexpr int span = WARP * V * 4;   /* elements a warp owns */
    static constexpr int elems = T * V * 4;     /* elements a tile */
};

template <int T, int V> __device__ __forceinline__ long long chunk_start(int tile, int r)
{
    int lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
    return (long long)tile * Shape<T, V>::elems + warp * Shape<T, V>::span + 4 * (r * WARP + lane);
}

template <int T, int V> __device__ __forceinline__ void ld_tile(const int *in, int n, int tile, uint4 (&v)[V])
{
    bool whole = (long long)(tile + 1) * Shape<T, V>::elems <= n;
#pragma unroll
    for (int r = 0; r < V; r++) {
        long long e = chunk_start<T, V>(tile, r);
        if (whole) {
            v[r] = *(const uint4 *)(in + e);
        } else {
            v[r].x = e < n ? (unsigned)in[e] : 0;
            v[r].y = e + 1 < n ? (unsigned)in[e + 1] : 0;
            v[r].z = e + 2 < n ? (unsigned)in[e + 2] : 0;
            v[r].w = e + 3 < n ? (unsigned)in[e + 3] : 0;
        }
    }
}

template <int T, int V> __device__ __forceinline__ void st_tile(int *out, int n, int tile, const uint4 (&v)[V])
{
    bool whole = (long long)(tile + 1) * Shape<T, V>::elems <= n;
#pragma unroll
    for (int r = 0; r < V; r++) {
        long long e = chunk_start<T, V>(tile, r);
        if (whole) {
            *(uint4 *)(out + e) = v[r];
        } else {
            if (e < n) out[e] = (int)v[r].x;
            if (e + 1 < n) out[e + 1] = (int)v[r].y;
            if (e + 2 < n) out[e + 2] = (int)v[r].z;
            if (e + 3 < n) out[e + 3] = (int)v[r].w;
        }
    }
}

template <int V> __device__ __forceinline__ unsigned thread_sum(const uint4 (&v)[V])
{
    unsigned s = 0;
#pragma unroll
    for (int r = 0; r < V; r++) s += v[r].x + v[r].y + v[r].z + v[r].w;
    return s;
}

template <int V> __device__ __forceinline__ void add_all(uint4 (&v)[V], unsigned a)
{
#pragma unroll
    for (int r = 0; r < V; r++) v[r].x += a, v[r].y += a, v[r].z += a, v[r].w += a;
}

template <int V> __device__ __forceinline__ void copy_regs(uint4 (&dst)[V], const uint4 (&src)[V])
{
#pragma unroll
    for (int r = 0; r < V; r++) dst[r] = src[r];
}

/* The inclusive scan of the warp's span in place, starting from `carry` (what comes before the span);
 * returns the span's total. The V rows' warp scans are independent: unrolled, their shuffles overlap. */
template <int V> __device__ __forceinline__ unsigned rows_scan(uint4 (&v)[V], unsigned carry)
{
    unsigned start = carry;
#pragma unroll
    for (int r = 0; r < V; r++) {
        v[r].y += v[r].x;
        v[r].z += v[r].y;
        v[r].w += v[r].z;
        unsigned own = v[r].w, scanned = warp_scan(own);
        unsigned add = carry + scanned - own;
        v[r].x += add, v[r].y += add, v[r].z += add, v[r].w += add;
        carry += __shfl_sync(FULL_MASK, scanned, WARP - 1);
    }
    return carry - start;
}

__device__ __forceinline__ unsigned warp_sum(unsigned s)
{
#pragma unroll
    for (int d = WARP / 2; d > 0; d /= 2) s += __shfl_xor_sync(FULL_MASK, s, d);
    return s;
}

/* After a barrier that follows every warp's tot[warp] store: the sum of the warps before this one and
 * of all of them. */
template <int T> __device__ __forceinline__ void warps_prefix(const unsigned *tot, unsigned *before, unsigned *all)
{
    int warp = threadIdx.x / WARP;
    unsigned b = 0, s = 0;
#pragma unroll
    for (int w = 0; w < T / WARP; w++) {
        unsigned x = tot[w];
        b += w < warp ? x : 0;
        s += x;
    }
    *before = b;
    *all = s;
}

/* ------------------------------------------------------------------ status words, epoch-tagged */
/* The chapter's 64-bit word (a flag in the high half, a 32-bit sum in the low half, one store), with the
 * flag widened to epoch·4 + kind: a word written by an earlier launch carries an older epoch and reads
 * as invalid, so a launch needs no memset of the statuses (reset=epoch) as long as epochs never repeat
 * (2^30 launches on one buffer). reset=memset zeroes them anyway, as the chapter does.
 *
 * Memory ordering. RELAXED: a status word is the only thing one block learns from another, and it
 * arrives whole (one aligned 64-bit atomic store, one 64-bit atomic load: single-copy atomic), so the
 * reader needs nothing else to be visible: no release, no acquire. The sum it carries reaches the
 * reader's own prefix by a data dependency, not through any other memory. The outputs are written by
 * their own tile's block alone and read by no block. What relaxed atomics at device scope do guarantee
 * is enough: coherence (a word goes invalid -> aggregate -> prefix, and a reader sees one of those, each
 * true) and that a store becomes visible to the polling loads. ACQREL: the chapter's release stores and
 * acquire loads, for the comparison (a release store waits for the thread's earlier memory operations,
 * loads in flight included). */
__device__ __forceinline__ unsigned long long tagged(unsigned epoch, unsigned kind, unsigned sum)
{
    return (unsigned long long)(epoch << 2 | kind) << 32 | sum;
}
__device__ __forceinline__ unsigned kind_of(unsigned long long st, unsigned epoch)
{
    unsigned flag = (unsigned)(st >> 32);
    return flag >> 2 == epoch ? flag & 3 : K_INVALID;
}
template <int O> __device__ __forceinline__ unsigned long long ld_status(unsigned long long *p)
{
    status_ref r(*p);
    return r.load(O == RELAXED ? cuda::memory_order_relaxed : cuda::memory_order_acquire);
}
template <int O> __device__ __forceinline__ void st_status(unsigned long long *p, unsigned long long w)
{
    status_ref r(*p);
    r.store(w, O == RELAXED ? cuda::memory_order_relaxed : cuda::memory_order_release);
}

/* A tile id, in the order blocks ask. The draw that returns k.last_draw is the launch's last (the
 * launcher knows how many draws a launch makes), so its block resets the counter for the next launch,
 * which the stream starts only after this one ends. */
__device__ __forceinline__ int draw_tile(unsigned *counter, unsigned last_draw)
{
    unsigned t = atomicAdd(counter, 1u);
    if (t == last_draw) atomicExch(counter, 0u);
    return (int)t;
}

/* Warp 0 (all lanes): publish the tile's aggregate, look back to the nearest prefix (the chapter's
 * 32-wide window, polling in a warp-uniform loop so that a sleep can sit in it), publish the prefix;
 * returns the exclusive prefix. Forward progress as the chapter's: it waits only on tiles numbered
 * below its own, whose ids were drawn by blocks already running, and every kernel here publishes a
 * tile's aggregate after waiting on lower-numbered tiles alone (each kernel says why). */
template <int O> __device__ unsigned publish_and_look_back(unsigned long long *status, int tile, unsigned aggregate, Knobs k)
{
    int lane = threadIdx.x % WARP;
    if (lane == 0) st_status<O>(&status[tile], tagged(k.epoch, tile ? K_AGGREGATE : K_PREFIX, aggregate));
    if (tile == 0) return 0;
    if (k.first_ns) __nanosleep(k.first_ns);
    unsigned exclusive = 0;
    for (int last = tile - 1;; last -= WARP) {
        int j = last - lane;
        unsigned long long st = j >= 0 ? ld_status<O>(&status[j]) : tagged(k.epoch, K_PREFIX, 0);
        while (__any_sync(FULL_MASK, kind_of(st, k.epoch) == K_INVALID)) {
            if (k.sleep_ns) __nanosleep(k.sleep_ns);
            if (kind_of(st, k.epoch) == K_INVALID) st = ld_status<O>(&status[j]);
        }
        unsigned prefixes = __ballot_sync(FULL_MASK, kind_of(st, k.epoch) == K_PREFIX);
        int stop = prefixes ? __ffs(prefixes) - 1 : WARP - 1;
        exclusive += warp_sum(lane <= stop ? (unsigned)st : 0);
        if (prefixes) break;
    }
    if (lane == 0) st_status<O>(&status[tile], tagged(k.epoch, K_PREFIX, exclusive + aggregate));
    return exclusive;
}

/* ------------------------------------------------------------------ lookback one-pass */
/* One block a tile, its id drawn when it starts, as the chapter. EARLY: the block reduces its tile
 * first (thread sums, warp sums, one barrier), warp 0 publishes the aggregate and looks back while the
 * other warps scan their spans, so successors see the aggregate a whole in-tile scan sooner; warp 0 scans
 * its own span after its lookback. Late (!EARLY): the chapter's order, scan then publish.
 * Forward progress: the aggregate is published after the block's own loads and barriers only, and the
 * lookback waits on lower ids only, drawn by blocks that started earlier (the chapter's argument). */
template <int T, int V, int O, bool EARLY>
__global__ void __launch_bounds__(T) lb_onepass(const int *in, int *out, unsigned long long *status, unsigned *counter, int n, Knobs k)
{
    __shared__ int tile_s;
    __shared__ unsigned tot[T / WARP];
    __shared__ unsigned exclusive_s;
    int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
    if (threadIdx.x == 0) tile_s = draw_tile(counter, k.last_draw);
    /* Every thread is about to read the tile id. */
    __syncthreads();
    int tile = tile_s;
    uint4 v[V];
    ld_tile<T, V>(in, n, tile, v);
    unsigned before, aggregate;
    if (EARLY) {
        unsigned s = warp_sum(thread_sum(v));
        if (lane == 0) tot[warp] = s;
        /* Every warp is about to read the other warps' sums. */
        __syncthreads();
        warps_prefix<T>(tot, &before, &aggregate);
        if (warp == 0) {
            unsigned e = publish_and_look_back<O>(status, tile, aggregate, k);
            if (lane == 0) exclusive_s = e;
        }
        rows_scan(v, before);
    } else {
        unsigned s = rows_scan(v, 0);
        if (lane == 0) tot[warp] = s;
        /* Every warp is about to read the other warps' totals. */
        __syncthreads();
        warps_prefix<T>(tot, &before, &aggregate);
        add_all(v, before);
        if (warp == 0) {
            unsigned e = publish_and_look_back<O>(status, tile, aggregate, k);
            if (lane == 0) exclusive_s = e;
        }
    }
    /* Every thread is about to read the exclusive prefix. */
    __syncthreads();
    add_all(v, exclusive_s);
    st_tile<T, V>(out, n, tile, v);
}

/* ------------------------------------------------------------------ lookback persistent, pipelined */
/* One wave of blocks (the launcher sizes the grid by the occupancy calculator). A block keeps two tile
 * ids: the current one, in registers a[], and the next, drawn a tile ahead and loaded into b[] before
 * warp 0 starts the current tile's lookback, so the block has bytes in flight while it waits. The id
 * after next is drawn by thread 0 (RELAXED: before its lookback, so the round trip overlaps it; ACQREL:
 * after its stores, since a release store would wait for the atomic) and written to next_s[it & 1] after
 * the barrier that follows that slot's last read.
 * Forward progress, by induction on the tile id: a block publishes its current tile's aggregate after
 * its own loads and a barrier; its next tile's aggregate waits for the current tile's lookback, and the
 * current id is lower (a block's draws increase); a lookback waits on lower ids only. So tile t waits, at
 * the end of every chain, on tiles below t alone, and tile 0 on none; and every id was drawn by a block
 * that is running (ids exist only once drawn): no wait on a block that may not have started. This holds
 * for any grid size; one wave is for speed. Ordering: as the status words' comment; with ACQREL, warp
 * 0 loads its share of the next tile after its last release store, which would otherwise wait for
 * those loads. Each block draws until it gets an id >= tiles, once: tiles + gridDim.x draws. */
template <int T, int V, int O>
__global__ void __launch_bounds__(T) lb_persist(const int *in, int *out, unsigned long long *status, unsigned *counter, int n, int tiles, Knobs k)
{
    __shared__ int next_s[2];
    __shared__ unsigned tot[T / WARP];
    __shared__ unsigned exclusive_s;
    int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
    if (threadIdx.x == 0) next_s[0] = draw_tile(counter, k.last_draw);
    /* Every thread is about to read the first id. */
    __syncthreads();
    int cur = next_s[0];
    if (cur >= tiles) return;
    if (threadIdx.x == 0) next_s[1] = draw_tile(counter, k.last_draw);
    uint4 a[V], b[V];
    ld_tile<T, V>(in, n, cur, a);
    for (int it = 0;; it++) {
        unsigned s = warp_sum(thread_sum(a));
        if (lane == 0) tot[warp] = s;
        /* The warps' sums and the next id are about to be read. */
        __syncthreads();
        int nxt = next_s[(it + 1) & 1];
        unsigned before, aggregate, drawn = 0;
        warps_prefix<T>(tot, &before, &aggregate);
        bool more = nxt < tiles;
        if (more && (O == RELAXED || warp != 0)) ld_tile<T, V>(in, n, nxt, b);
        /* The atomic's round trip overlaps the lookback: its result is first used after the barrier. */
        if (threadIdx.x == 0 && more && O == RELAXED) drawn = atomicAdd(counter, 1u);
        if (warp == 0) {
            unsigned e = publish_and_look_back<O>(status, cur, aggregate, k);
            if (lane == 0) exclusive_s = e;
            if (more && O == ACQREL) ld_tile<T, V>(in, n, nxt, b);
        }
        rows_scan(a, before);
        /* Every thread is about to read the exclusive prefix, and has read tot[] and next_s[]. */
        __syncthreads();
        add_all(a, exclusive_s);
        st_tile<T, V>(out, n, cur, a);
        if (threadIdx.x == 0 && more) {
            if (O == ACQREL) drawn = atomicAdd(counter, 1u);
            if (drawn == k.last_draw) atomicExch(counter, 0u); /* draw_tile's reset, split from its draw */
            next_s[it & 1] = (int)drawn;
        }
        if (!more) break;
        cur = nxt;
        copy_regs(a, b);
    }
}

/* ------------------------------------------------------------------ reduce-then-scan, K tiles a block */
/* Pass 1: block b sums the K·T·V·4 elements from b·K tiles (a sum needs no layout: any tile's). No
 * block waits on another: three kernels, stream-ordered, as the chapter. */
template <int T, int V, int K> __global__ void __launch_bounds__(T) rts_reduce(const int *in, unsigned *sums, int n)
{
    __shared__ unsigned tot[T / WARP];
    unsigned s = 0;
    for (int k = 0; k < K; k++) {
        int tile = blockIdx.x * K + k;
        if ((long long)tile * Shape<T, V>::elems >= n) break;
        uint4 v[V];
        ld_tile<T, V>(in, n, tile, v);
        s += thread_sum(v);
    }
    s = warp_sum(s);
    if (threadIdx.x % WARP == 0) tot[threadIdx.x / WARP] = s;
    /* Thread 0 is about to read every warp's sum. */
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned all = 0;
        for (int w = 0; w < T / WARP; w++) all += tot[w];
        sums[blockIdx.x] = all;
    }
}

/* Pass 2: block gridDim.x − 1 − b (last first: pass 1 read those last, still in L2) scans its K tiles in
 * order from the scanned sum of the blocks before it, loading tile k + 1 while it scans tile k. The warps'
 * totals alternate between two arrays, so one barrier a tile suffices: tot[k & 1] is rewritten two
 * tiles later, after the next tile's barrier, which every reader of it has passed. */
template <int T, int V, int K> __global__ void __launch_bounds__(T) rts_scan(const int *in, int *out, const unsigned *sums, int n)
{
    __shared__ unsigned tot[2][T / WARP];
    int blk = gridDim.x - 1 - blockIdx.x, warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
    int first = blk * K, tiles = (int)((n + (long long)Shape<T, V>::elems - 1) / Shape<T, V>::elems);
    int last = first + K < tiles ? first + K : tiles;
    unsigned carry = blk ? sums[blk - 1] : 0;
    uint4 a[V], b[V];
    ld_tile<T, V>(in, n, first, a);
    for (int tile = first; tile < last; tile++) {
        if (tile + 1 < last) ld_tile<T, V>(in, n, tile + 1, b);
        unsigned s = warp_sum(thread_sum(a));
        if (lane == 0) tot[tile & 1][warp] = s;
        /* Every warp is about to read the other warps' sums. */
        __syncthreads();
        unsigned before, all;
        warps_prefix<T>(tot[tile & 1], &before, &all);
        rows_scan(a, carry + before);
        st_tile<T, V>(out, n, tile, a);
        carry += all;
        copy_regs(a, b);
    }
}

} // namespace cand

/* ================================================================== the driver */
struct Bufs {
    int *in, *out, *expect;            /* the input, the output, the CPU's scan (on the GPU) */
    unsigned long long *status;        /* the candidates' status words (the chapter has its own) */
    unsigned *counter, *sums;          /* the candidates' tile counter; reduce-then-scan's block sums */
    unsigned long long *bad;           /* mismatches counted by count_wrong */
    void *cub_temp;
    size_t cub_bytes;
    int sms;
    unsigned epoch;                    /* the last epoch a candidate launch used */
    State chapter;                     /* the chapter's own buffers, for its launchers */
};

struct Cfg {
    std::string kernel, knobs;
    std::function<void(Bufs &, int)> run;
    bool scans = true;                 /* false for the copy: its output is its input */
    int checks = 0, passed = 0;
};

__global__ void count_wrong(const int *a, const int *b, size_t n, unsigned long long *bad)
{
    unsigned long long c = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        c += a[i] != b[i];
    if (c) atomicAdd(bad, c);
}

static unsigned long long count_output(Bufs &B, int n)
{
    CUDA_CHECK(cudaMemset(B.bad, 0, sizeof *B.bad));
    count_wrong<<<B.sms * 8, 256>>>(B.out, B.expect, (size_t)n, B.bad);
    LAUNCH_CHECK();
    unsigned long long bad = 0;
    CUDA_CHECK(cudaMemcpy(&bad, B.bad, sizeof bad, cudaMemcpyDeviceToHost));
    return bad;
}
/* One check of c's output (already written) against the CPU's scan of the current input. */
static void record(Cfg &c, Bufs &B, int n, const char *what)
{
    if (!c.scans) return;
    unsigned long long bad = count_output(B, n);
    c.checks++;
    if (bad == 0) c.passed++;
    else fprintf(stderr, "WRONG %s: %s %s at n = %d: %llu elements differ\n", what, c.kernel.c_str(), c.knobs.c_str(), n, bad);
}

/* Poisons the output, runs c, checks it. */
static void check_one(Cfg &c, Bufs &B, int n, const char *what)
{
    CUDA_CHECK(cudaMemset(B.out, WB_POISON_BYTE, sizeof(int) * (size_t)n));
    c.run(B, n);
    record(c, B, n, what);
}

/* The chapter's seeded input (full-range values, negative about half the time, and long runs) and the
 * chapter's CPU scan of it, both on the GPU. */
static void prepare(Bufs &B, int n, uint64_t seed, int *h_in, int *h_exp)
{
    fill_input(h_in, n, seed);
    scan_cpu(h_in, n, h_exp);
    CUDA_CHECK(cudaMemcpy(B.in, h_in, sizeof(int) * (size_t)n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(B.expect, h_exp, sizeof(int) * (size_t)n, cudaMemcpyHostToDevice));
}

enum Reset { R_MEMSET, R_EPOCH };
static const char *order_name(int o) { return o == cand::RELAXED ? "relaxed" : "acqrel"; }

/* The statuses and the counter as a launch needs them, and its knobs. */
static cand::Knobs launch_knobs(Bufs &B, int tiles, unsigned draws, int reset, unsigned first_ns, unsigned sleep_ns)
{
    if (reset == R_MEMSET) {
        CUDA_CHECK(cudaMemsetAsync(B.status, 0, sizeof *B.status * (size_t)tiles, 0));
        CUDA_CHECK(cudaMemsetAsync(B.counter, 0, sizeof *B.counter, 0));
    }
    B.epoch++;
    return cand::Knobs{B.epoch, draws - 1, first_ns, sleep_ns};
}

/* first_ns, sleep_ns: CUB 3.0's sm_90 tuning for 4-byte sums (cub/device/dispatch/tuning/tuning_scan.cuh,
 * fixed_delay_constructor_t<648, 1245>) sleeps 1245 ns before its first poll and 648 ns between polls
 * (when the grid has 500 blocks or more): the configurations below try about that, 1250 and 650. */
template <int T, int V, int O, bool EARLY>
static void add_onepass(std::vector<Cfg> &cs, int reset, unsigned sleep_ns, unsigned first_ns = 0)
{
    char k[128];
    snprintf(k, sizeof k, "T=%d V=%d %s %s reset=%s sleep=%u/%u", T, V, order_name(O), EARLY ? "early" : "late",
             reset == R_EPOCH ? "epoch" : "memset", first_ns, sleep_ns);
    cs.push_back({"lookback one-pass", k, [=](Bufs &B, int n) {
                      int tiles = wb_ceil_div(n, cand::Shape<T, V>::elems);
                      cand::Knobs kn = launch_knobs(B, tiles, (unsigned)tiles, reset, first_ns, sleep_ns);
                      cand::lb_onepass<T, V, O, EARLY><<<tiles, T>>>(B.in, B.out, B.status, B.counter, n, kn);
                      LAUNCH_CHECK();
                  }});
}

template <int T, int V, int O>
static void add_persist(std::vector<Cfg> &cs, int sms, int reset, unsigned sleep_ns, unsigned first_ns = 0)
{
    int occ = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, cand::lb_persist<T, V, O>, T, 0));
    if (occ == 0) return;
    char k[128];
    snprintf(k, sizeof k, "T=%d V=%d %s occ=%d reset=%s sleep=%u/%u", T, V, order_name(O), occ,
             reset == R_EPOCH ? "epoch" : "memset", first_ns, sleep_ns);
    cs.push_back({"lookback persistent", k, [=](Bufs &B, int n) {
                      int tiles = wb_ceil_div(n, cand::Shape<T, V>::elems);
                      int grid = sms * occ < tiles ? sms * occ : tiles;
                      cand::Knobs kn = launch_knobs(B, tiles, (unsigned)(tiles + grid), reset, first_ns, sleep_ns);
                      cand::lb_persist<T, V, O><<<grid, T>>>(B.in, B.out, B.status, B.counter, n, tiles, kn);
                      LAUNCH_CHECK();
                  }});
}

template <int T, int V, int K> static void add_rts(std::vector<Cfg> &cs)
{
    char k[128];
    snprintf(k, sizeof k, "T=%d V=%d K=%d", T, V, K);
    cs.push_back({"reduce-then-scan K", k, [=](Bufs &B, int n) {
                      int blocks = wb_ceil_div(n, cand::Shape<T, V>::elems * K);
                      cand::rts_reduce<T, V, K><<<blocks, T>>>(B.in, B.sums, n);
                      LAUNCH_CHECK();
                      scan_block_sums<<<1, SUMS_BLOCK>>>(B.sums, blocks); /* the chapter's */
                      LAUNCH_CHECK();
                      cand::rts_scan<T, V, K><<<blocks, T>>>(B.in, B.out, B.sums, n);
                      LAUNCH_CHECK();
                  }});
}

/* The copy and CUB first (each round's ratios use them), then the chapter's two kernels. */
static std::vector<Cfg> baseline_configs()
{
    std::vector<Cfg> cs;
    auto chapter = [](void (*launch)(State *)) {
        return [launch](Bufs &B, int n) {
            B.chapter.n = n;
            B.chapter.d_in = B.in;
            B.chapter.d_out = B.out;
            launch(&B.chapter);
        };
    };
    cs.push_back({"memcpy D2D", "-", [](Bufs &B, int n) {
                      CUDA_CHECK(cudaMemcpyAsync(B.out, B.in, sizeof(int) * (size_t)n, cudaMemcpyDeviceToDevice, 0));
                  }, false});
    cs.push_back({"cub InclusiveSum", "-", [](Bufs &B, int n) {
                      CUDA_CHECK(cub::DeviceScan::InclusiveSum(B.cub_temp, B.cub_bytes, (const unsigned *)B.in,
                                                               (unsigned *)B.out, n));
                  }});
    cs.push_back({"chapter decoupled-lookback", "T=256 V=4 acqrel late reset=memset", chapter(launch_decoupled_lookback)});
    cs.push_back({"chapter reduce-then-scan", "T=256 V=4 K=1", chapter(launch_reduce_then_scan)});
    return cs;
}

static void onepass_configs(std::vector<Cfg> &cs)
{
    using namespace cand;
    /* (a) one idea at a time from the chapter's kernel: ordering, then the early aggregate, then the reset */
    add_onepass<256, 4, ACQREL, false>(cs, R_MEMSET, 0);
    add_onepass<256, 4, RELAXED, false>(cs, R_MEMSET, 0);
    add_onepass<256, 4, ACQREL, true>(cs, R_MEMSET, 0);
    add_onepass<256, 4, RELAXED, true>(cs, R_MEMSET, 0);
    add_onepass<256, 4, RELAXED, true>(cs, R_EPOCH, 0);
    for (unsigned ns : {100u, 350u, 650u}) add_onepass<256, 4, RELAXED, true>(cs, R_EPOCH, ns);
    add_onepass<256, 4, RELAXED, true>(cs, R_EPOCH, 650, 1250);
    /* (b) tile shapes, relaxed, early, no memset */
    add_onepass<128, 4, RELAXED, true>(cs, R_EPOCH, 0);
    add_onepass<512, 4, RELAXED, true>(cs, R_EPOCH, 0);
    add_onepass<128, 6, RELAXED, true>(cs, R_EPOCH, 0); /* CUB's sm_90 tile for 4-byte sums: 128 x 24 */
    add_onepass<128, 6, RELAXED, true>(cs, R_EPOCH, 650, 1250);
    add_onepass<128, 8, RELAXED, true>(cs, R_EPOCH, 0);
    add_onepass<256, 8, RELAXED, true>(cs, R_EPOCH, 0);
    add_onepass<512, 8, RELAXED, true>(cs, R_EPOCH, 0);
    add_onepass<128, 16, RELAXED, true>(cs, R_EPOCH, 0);
    add_onepass<256, 16, RELAXED, true>(cs, R_EPOCH, 0);
    add_onepass<512, 16, RELAXED, true>(cs, R_EPOCH, 0);
    add_onepass<256, 8, ACQREL, true>(cs, R_EPOCH, 0);
    add_onepass<256, 16, RELAXED, false>(cs, R_EPOCH, 0);
}

static void persistent_configs(std::vector<Cfg> &cs, int sms)
{
    using namespace cand;
    /* (c) persistent and pipelined */
    add_persist<128, 4, RELAXED>(cs, sms, R_EPOCH, 0);
    add_persist<256, 4, RELAXED>(cs, sms, R_EPOCH, 0);
    add_persist<512, 4, RELAXED>(cs, sms, R_EPOCH, 0);
    add_persist<128, 8, RELAXED>(cs, sms, R_EPOCH, 0);
    add_persist<256, 8, RELAXED>(cs, sms, R_EPOCH, 0);
    add_persist<512, 8, RELAXED>(cs, sms, R_EPOCH, 0);
    add_persist<128, 6, RELAXED>(cs, sms, R_EPOCH, 0);
    for (unsigned ns : {100u, 350u, 650u}) add_persist<256, 8, RELAXED>(cs, sms, R_EPOCH, ns);
    add_persist<256, 8, RELAXED>(cs, sms, R_EPOCH, 650, 1250);
    add_persist<256, 8, RELAXED>(cs, sms, R_MEMSET, 0);
    add_persist<256, 8, ACQREL>(cs, sms, R_EPOCH, 0);
}

static void rts_configs(std::vector<Cfg> &cs)
{
    /* (d) reduce-then-scan, tiles a block */
    add_rts<256, 4, 1>(cs);
    add_rts<256, 4, 2>(cs);
    add_rts<256, 4, 4>(cs);
    add_rts<256, 4, 8>(cs);
    add_rts<256, 4, 16>(cs);
    add_rts<256, 8, 1>(cs);
    add_rts<256, 8, 2>(cs);
    add_rts<256, 8, 4>(cs);
    add_rts<256, 8, 8>(cs);
    add_rts<512, 4, 4>(cs);
    add_rts<512, 8, 2>(cs);
}

/* A whole number in [lo, hi] from argv, or a one-line error and exit 2. */
static int parse_arg(const char *s, int lo, int hi, const char *what)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "scan-lookback: %s must be a whole number from %d to %d, not '%s'\n", what, lo, hi, s);
        exit(2);
    }
    return (int)v;
}

static void alloc_buffers(Bufs &B, int n_max)
{
    size_t bytes = sizeof(int) * (size_t)n_max;
    B.in = (int *)wb_device_alloc(bytes);
    B.out = (int *)wb_device_alloc(bytes);
    B.expect = (int *)wb_device_alloc(bytes);
    /* the smallest tile is 128·4·4 = 2048 elements */
    size_t tiles = (size_t)wb_ceil_div(n_max, 2048) + 1;
    B.status = (unsigned long long *)wb_device_alloc(sizeof *B.status * tiles);
    CUDA_CHECK(cudaMemset(B.status, 0, sizeof *B.status * tiles)); /* epoch 0: invalid to every launch */
    B.counter = (unsigned *)wb_device_alloc(sizeof *B.counter);
    CUDA_CHECK(cudaMemset(B.counter, 0, sizeof *B.counter));
    B.sums = (unsigned *)wb_device_alloc(sizeof *B.sums * tiles);
    B.bad = (unsigned long long *)wb_device_alloc(sizeof *B.bad);
    CUDA_CHECK(cub::DeviceScan::InclusiveSum(NULL, B.cub_bytes, (const unsigned *)B.in, (unsigned *)B.out, n_max));
    B.cub_temp = wb_device_alloc(B.cub_bytes);
    B.chapter.d_sums = (unsigned *)wb_device_alloc(sizeof(unsigned) * (size_t)wb_ceil_div(n_max, KS_BLOCK));
    B.chapter.d_status = (unsigned long long *)wb_device_alloc(sizeof(unsigned long long) * (size_t)status_words(n_max));
    B.epoch = 0;
}

/* Correctness: 20 runs at 2^24 (or n), each checked; then every size, ending with n, the timed input. */
static void check_all(std::vector<Cfg> &cs, Bufs &B, int n, int *h_in, int *h_exp)
{
    int n_rep = n < (1 << 24) ? n : 1 << 24;
    prepare(B, n_rep, 7001, h_in, h_exp);
    for (Cfg &c : cs) {
        /* never run before: should one hang, the last line on stderr names it */
        fprintf(stderr, "checking %s %s\n", c.kernel.c_str(), c.knobs.c_str());
        for (int r = 0; r < 20; r++) check_one(c, B, n_rep, "repeated");
    }
    std::vector<int> sizes = {1, 33, 4097, (1 << 22) + 3, n - 1, n};
    for (size_t i = 0; i < sizes.size(); i++) {
        int m = sizes[i];
        if (m > n || (i && m <= sizes[i - 1])) continue;
        prepare(B, m, 7000 + (uint64_t)m, h_in, h_exp);
        fprintf(stderr, "checking every kernel at n = %d\n", m);
        for (Cfg &c : cs) check_one(c, B, m, "size");
    }
}

/* One round at n: every configuration timed (the copy and CUB first), its last timed output checked,
 * then its CSV row with this round's ratios. */
static void time_round(std::vector<Cfg> &cs, Bufs &B, int n, int reps, int round)
{
    std::vector<double> ms(cs.size());
    for (size_t i = 0; i < cs.size(); i++) {
        ms[i] = wb_time_ms([&] { cs[i].run(B, n); }, 3, reps, NULL);
        record(cs[i], B, n, "after timing");
    }
    double copy_ms = ms[0], cub_ms = ms[1];
    for (size_t i = 0; i < cs.size(); i++) {
        const Cfg &c = cs[i];
        char checks[32];
        snprintf(checks, sizeof checks, "%d/%d", c.passed, c.checks);
        printf("%d,%s,%s,%d,%.4f,%.1f,%.4f,%.4f,%s,%s\n", round, c.kernel.c_str(), c.knobs.c_str(), n, ms[i],
               8.0 * n / (ms[i] * 1e-3) / 1e9, copy_ms / ms[i], cub_ms / ms[i], c.scans ? checks : "-",
               !c.scans ? "-" : c.passed == c.checks ? "PASS" : "WRONG");
    }
    fflush(stdout);
}

int main(int argc, char **argv)
{
    if (argc > 3) {
        fprintf(stderr, "usage: %s [log2 n (12-29)] [reps (1-1000)]\n", argv[0]);
        return 2;
    }
    int lg = argc > 1 ? parse_arg(argv[1], 12, 29, "log2 n") : 28;
    int reps = argc > 2 ? parse_arg(argv[2], 1, 1000, "reps") : 20;
    int n = 1 << lg;
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    Bufs B = {};
    B.sms = prop.multiProcessorCount;
    fprintf(stderr, "%s, %d SMs, L2 %d MB, n = 2^%d, reps %d\n", prop.name, B.sms, prop.l2CacheSize >> 20, lg, reps);
    alloc_buffers(B, n);
    std::vector<Cfg> cs = baseline_configs();
    onepass_configs(cs);
    persistent_configs(cs, B.sms);
    rts_configs(cs);
    int *h_in = (int *)wb_host_alloc(sizeof(int) * (size_t)n, "the input");
    int *h_exp = (int *)wb_host_alloc(sizeof(int) * (size_t)n, "the CPU's scan");
    check_all(cs, B, n, h_in, h_exp);
    printf("round,kernel,config,n,ms,GBps,of_copy,of_cub,checks,check\n");
    for (int round = 0; round < 2; round++) {
        fprintf(stderr, "timing round %d\n", round);
        time_round(cs, B, n, reps, round);
    }
    return 0;
}
