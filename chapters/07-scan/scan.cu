/*
 * Chapter 7 — prefix sum (scan): out[i] = in[0] + in[1] + … + in[i], any n ≥ 1, any grid.
 *
 * Variants, each adding one idea (build/chapter7 --list):
 *   kogge-stone        each block scans its 1024 elements in shared memory by Kogge–Stone (Hillis–Steele:
 *                      log2(1024) steps, every element added to in each), writes its total; one block
 *                      scans the totals; a third kernel adds each block's prefix to its elements
 *   brent-kung         the same three kernels, the in-block scan work-efficient: an up-sweep tree and a
 *                      down-sweep tree (2n adds, not n log n), 2048 elements a block, the shared array
 *                      padded one word in 32 so that the trees' strided accesses hit distinct banks
 *   warp-shuffle       the in-block scan in registers: each warp scans its 32 values with __shfl_up_sync,
 *                      then the block scans the 32 warps' totals; still three kernels
 *   reduce-then-scan   16 elements a thread, 16-byte loads: pass 1 only sums each 4096-element tile, one
 *                      block scans the tile sums, pass 2 scans each tile again from its input with its
 *                      prefix added, in reverse order, so the last tiles pass 1 read are still in L2:
 *                      the input read twice, the output written once (12 bytes an element, not 16)
 *   decoupled-lookback one pass (Merrill & Garland, 2016; what CUB's DeviceScan does): tiles numbered in
 *                      the order blocks start, each publishes its total, looks back over its
 *                      predecessors' published totals and prefixes, and publishes its own prefix: the
 *                      input read once, the output written once, like a copy
 *
 * Arithmetic: the sums wrap around modulo 2^32 (unsigned int arithmetic; the output holds the same bits
 * as int). Addition modulo 2^32 is associative and exact, so every algorithm's order of additions gives
 * the same bits and the check compares exactly; a 64-bit sum would double the bytes written for no
 * gain in what the chapter teaches. Signed int overflow is undefined in C++: the kernels add unsigned.
 *
 * Speed of light: a device-to-device copy of the same bytes (n ints read, n written), the least any
 * scan moves. The reference's build (make solution7, which defines WB_CUB) also times CUB's
 * cub::DeviceScan::InclusiveSum, prints it as the anchor line above the table, and takes the faster
 * of the two as the speed of light (as chapter 3 does). Your build leaves CUB out: its headers alone
 * take seconds to compile. Throughput counts the 8n bytes a scan must move.
 *
 * Run:  make chapter7                 your version (this file, chapters/07-scan/)
 *       make solution7                the reference
 *       build/chapter7 --size 1000003 --variant warp-shuffle,decoupled-lookback
 *       build/chapter7 --help
 * Sources: Hillis & Steele (1986), Brent & Kung (1982), Harris, Sengupta & Owens, "Parallel Prefix Sum
 * (Scan) with CUDA" (GPU Gems 3, ch. 39), Kirk & Hwu, "Programming Massively Parallel Processors"
 * (ch. 11), Merrill & Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back" (2016).
 */
#ifdef WB_CUB /* the reference's build only: see the header */
#include <cub/device/device_scan.cuh>
#endif
#include <cuda/atomic>

#include "wb.h"

#define WARP 32
#define FULL_MASK 0xffffffffu
#define KS_BLOCK 1024                 /* kogge-stone, warp-shuffle: threads a block, one element each */
#define BK_BLOCK 1024                 /* brent-kung: threads a block, two elements each */
#define BK_TILE (2 * BK_BLOCK)
#define SUMS_BLOCK 1024               /* the one block that scans the block sums */
#define SUMS_ITEMS 8                  /* block sums each of its threads adds in a row */
#define ADD_BLOCK 256                 /* the add-back kernel's threads a block */
#define TILE_THREADS 256              /* reduce-then-scan and decoupled-lookback: threads a block */
#define TILE_VECS 4                   /* 16-byte chunks a thread: the coarsening factor */
#define WARP_SPAN (WARP * TILE_VECS * 4)          /* elements of a tile one warp owns */
#define TILE (TILE_THREADS * TILE_VECS * 4)       /* elements a tile: 4096 */

/* What every variant works on: the sizes and the buffers (set up by the harness at the end). */
struct State {
    int n;
    int *h_in;
    int *expected;                  /* the CPU's inclusive scan */
    int *d_in, *d_out;
    unsigned *d_sums;               /* a total per block (or tile) for the multi-kernel variants */
    unsigned long long *d_status;   /* decoupled-lookback: a status word per tile, then the tile counter */
#ifdef WB_CUB /* the reference's anchor (see the header) */
    void *d_cub_temp;
    size_t cub_temp_bytes;
    int *h_cub;                     /* CUB's result, checked like a variant's */
#endif
};

/* ------------------------------------------------------------------ CPU reference */
static void scan_cpu(const int *in, int n, int *out)
{
    unsigned sum = 0; /* wraps modulo 2^32, as the kernels do */
    for (int i = 0; i < n; i++) {
        sum += (unsigned)in[i];
        out[i] = (int)sum;
    }
}

/* ------------------------------------------------------------------ kogge-stone: three kernels */
/* The inclusive scan of one value per thread over the block (blockDim.x threads): after step d every
 * buf[t] holds the sum of the 2^d values ending at t. Each step reads what the step before wrote, so
 * a barrier separates the reads from the writes and the writes from the next reads. Every thread of
 * the block must call it; *total gets the block's sum. */
// BEGIN TODO(block-scan)
/* buf[t] = v; then for d = 1, 2, 4, … < blockDim.x: barrier, read buf[t - d] (t ≥ d), barrier, add it,
 * write buf[t]; a last barrier, then *total = buf[blockDim.x - 1]. Begin with a barrier too: a call
 * in a loop must not overwrite buf while threads still read the previous call's total. */
// END TODO(block-scan)

/* Block b scans in[b·1024 …] on its own and writes the block's total to block_sums[b]. */
__global__ void scan_kogge_stone(const int *in, int *out, unsigned *block_sums, int n)
{
    // BEGIN TODO(kogge-stone)
    /* i = the global index; v = in[i] (0 beyond n); scan v over the block (block_scan_kogge_stone);
     * write out[i] where i < n; thread 0 writes the block's total to block_sums[blockIdx.x]. */
    // END TODO(kogge-stone)
}

/* One block scans all m block sums in place (inclusive), SUMS_BLOCK · SUMS_ITEMS of them a round:
 * each thread adds its SUMS_ITEMS neighbours in a row, the block scans the threads' totals, and a
 * carry takes the round's total to the next. */
__global__ void scan_block_sums(unsigned *sums, int m)
{
    // BEGIN TODO(scan-sums)
    /* carry = 0; for each round of SUMS_BLOCK·SUMS_ITEMS sums: thread t's first = round + t·SUMS_ITEMS;
     * x[k] = its inclusive running sum of sums[first + k] (0 beyond m); scan its total over the block;
     * write sums[first + k] = carry + (its scan − its total) + x[k]; carry += the round's total. */
    // END TODO(scan-sums)
}

/* Every element of block b ≥ 1 (blocks of `tile` elements) gets the scanned sum of the blocks before
 * it: sums[b - 1]. Block 0's elements are already final. */
__global__ void add_block_offsets(int *out, const unsigned *sums, int n, int tile)
{
    // BEGIN TODO(add-back)
    /* i = the global index; where tile ≤ i < n, out[i] += sums[i / tile - 1]. */
    // END TODO(add-back)
}

/* The three kernels, for any in-block scan of `tile` elements a block of `threads`. */
static void three_kernels(State *s, void (*block_kernel)(const int *, int *, unsigned *, int), int tile, int threads)
{
    int blocks = wb_ceil_div(s->n, tile);
    block_kernel<<<blocks, threads>>>(s->d_in, s->d_out, s->d_sums, s->n);
    LAUNCH_CHECK();
    scan_block_sums<<<1, SUMS_BLOCK>>>(s->d_sums, blocks);
    LAUNCH_CHECK();
    add_block_offsets<<<wb_ceil_div(s->n, ADD_BLOCK), ADD_BLOCK>>>(s->d_out, s->d_sums, s->n, tile);
    LAUNCH_CHECK();
}

static void launch_kogge_stone(State *s) { three_kernels(s, scan_kogge_stone, KS_BLOCK, KS_BLOCK); }

/* ------------------------------------------------------------------ brent-kung */
/* Block b scans in[b·2048 …], two elements a thread: an up-sweep leaves at every index k = 2^j·m − 1 the
 * sum of the 2^j elements ending at k; a down-sweep then adds each such partial sum to the element
 * half a stride after it, down the strides. Work 2·2048, span 2·log2(2048) steps. Shared word i sits
 * at PAD(i) = i + i/32: one word of padding every 32, so the trees' accesses at strides of 2, 4, …
 * 1024 words, which would fall into ever fewer of the 32 banks, spread over all of them. */
#define PAD(i) ((i) + ((i) >> 5))

__global__ void scan_brent_kung(const int *in, int *out, unsigned *block_sums, int n)
{
    // BEGIN TODO(brent-kung)
    /* Load in[base + t] and in[base + t + BK_BLOCK] (0 beyond n) into xy[PAD(…)]. Up-sweep: for stride
     * 1, 2, … < BK_TILE: barrier; k = (t + 1)·2·stride − 1; if k < BK_TILE, xy[k] += xy[k − stride].
     * Down-sweep: for stride BK_TILE/4 … 1: barrier; same k; if k + stride < BK_TILE, xy[k + stride] +=
     * xy[k]. Barrier, write both elements back, thread 0 writes xy[BK_TILE − 1] to block_sums. */
    // END TODO(brent-kung)
}

static void launch_brent_kung(State *s) { three_kernels(s, scan_brent_kung, BK_TILE, BK_BLOCK); }

/* ------------------------------------------------------------------ warp-shuffle */
/* The inclusive scan of a warp's 32 values in registers: at step d each lane adds the value of the lane
 * d below it (__shfl_up_sync), lanes below d keep theirs; five steps, no memory, no barrier. Then the
 * block: lane 31 of each warp stores the warp's total, warp 0 scans those totals the same way, and each
 * warp adds the totals of the warps before it. Every thread of the block must call block_scan_warps
 * (blockDim.x a multiple of 32), once per launch. */
// BEGIN TODO(warp-scan)
/* warp_scan(v): for d = 1, 2, 4, 8, 16: up = __shfl_up_sync(FULL_MASK, v, d); lanes ≥ d add it.
 * block_scan_warps(v, total): scan v in its warp; lane 31 stores the warp's total in a __shared__
 * array; barrier; warp 0 scans the totals in place; barrier; add the total of the warps before;
 * *total = the last warp's scanned total. */
// END TODO(warp-scan)

__global__ void scan_warp_shuffle(const int *in, int *out, unsigned *block_sums, int n)
{
    // BEGIN TODO(warp-shuffle)
    /* As kogge-stone, with block_scan_warps for the block's scan. */
    // END TODO(warp-shuffle)
}

static void launch_warp_shuffle(State *s) { three_kernels(s, scan_warp_shuffle, KS_BLOCK, KS_BLOCK); }

/* ------------------------------------------------------------------ a tile of 4096: reduce-then-scan */
/* A tile is TILE = 4096 consecutive elements; warp w of the block owns the WARP_SPAN = 512 of them from
 * w·512, as TILE_VECS rows of 32 16-byte chunks: lane l holds chunk r·32 + l of the warp's span in
 * v[r], so each of a warp's loads and stores is 512 contiguous bytes. A tile that reaches past n is
 * read element by element (0 beyond n) and written likewise. */
// BEGIN TODO(tile)
/* tile_load(in, n, tile, v): element e = tile·TILE + warp·WARP_SPAN + 4·(r·32 + lane) starts chunk r;
 * a whole tile (its end ≤ n) loads each chunk as one uint4, the last tile element by element.
 * tile_store(out, n, tile, v): the same places, written. tile_sum(v): the sum of a thread's 16.
 * tile_scan(v, total): scan each chunk in the thread (x, x+y, …), scan the chunks' totals across the
 * warp row by row (warp_scan) with a carry from row to row, then add the totals of the warps before
 * (a __shared__ total per warp, one barrier); *total = the tile's sum. */
// END TODO(tile)

/* Pass 1: block b sums tile b (no scan yet) into tile_sums[b]. */
__global__ void reduce_tiles(const int *in, unsigned *tile_sums, int n)
{
    // BEGIN TODO(reduce-tiles)
    /* Load tile blockIdx.x, sum the thread's 16, add across the warp (__shfl_xor_sync), one total per
     * warp in __shared__; after a barrier thread 0 adds the warps' totals into tile_sums[blockIdx.x]. */
    // END TODO(reduce-tiles)
}

/* Pass 2: block b scans tile nb − 1 − b again from the input and adds the scanned sum of the tiles
 * before it. Last tiles first: pass 1 read them last, so they are still in the L2 cache. */
__global__ void scan_tiles(const int *in, int *out, const unsigned *tile_sums, int n)
{
    // BEGIN TODO(scan-tiles)
    /* tile = gridDim.x − 1 − blockIdx.x; load it, tile_scan, add tile_sums[tile − 1] (tile ≥ 1), store. */
    // END TODO(scan-tiles)
}

static void launch_reduce_then_scan(State *s)
{
    int tiles = wb_ceil_div(s->n, TILE);
    reduce_tiles<<<tiles, TILE_THREADS>>>(s->d_in, s->d_sums, s->n);
    LAUNCH_CHECK();
    scan_block_sums<<<1, SUMS_BLOCK>>>(s->d_sums, tiles);
    LAUNCH_CHECK();
    scan_tiles<<<tiles, TILE_THREADS>>>(s->d_in, s->d_out, s->d_sums, s->n);
    LAUNCH_CHECK();
}

/* ------------------------------------------------------------------ decoupled-lookback: one pass */
/* A tile's status is one 64-bit word, its flag in the high half and a 32-bit sum in the low half, so a
 * reader sees a flag and its sum from the same store, never a new flag with an old sum:
 *   STATUS_INVALID    nothing published yet (every word is reset to 0 before the launch)
 *   STATUS_AGGREGATE  the low half is the tile's own total
 *   STATUS_PREFIX     the low half is the sum of every element up to the tile's end */
enum { STATUS_INVALID = 0, STATUS_AGGREGATE = 1, STATUS_PREFIX = 2 };
typedef cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> status_ref;

__device__ unsigned long long status_word(unsigned flag, unsigned sum) { return (unsigned long long)flag << 32 | sum; }

/* Every launch starts with every status invalid and the tile counter at 0. */
static void reset_status(State *s, int tiles)
{
    // BEGIN TODO(reset-status)
    /* Zero the tiles' status words and the counter after them (one cudaMemsetAsync, default stream). */
    // END TODO(reset-status)
}

/* Warp 0 of the block of tile `tile` (all 32 lanes): publish the tile's aggregate, sum its predecessors'
 * statuses back to the nearest inclusive prefix, publish its own prefix; returns the exclusive prefix.
 * Lane l reads the status of tile last − l, a window of 32 at once. It waits only for tiles numbered
 * before its own, which started before it (the numbers come from a counter, in the order blocks start),
 * and which publish their aggregate without waiting for anyone: so it never waits on a block that may
 * not have been scheduled. Release stores and acquire loads: what a block read of a status was
 * published whole and after the sum it carries was computed. */
// BEGIN TODO(lookback)
/* Lane 0 stores status_word(tile ? AGGREGATE : PREFIX, aggregate) with memory_order_release; tile 0
 * is done. Otherwise, window by window from last = tile − 1: lane l spins on an acquire load of
 * status[last − l] (a tile before 0 counts as PREFIX 0) while it is INVALID; ballot the PREFIX lanes;
 * sum the lanes up to the nearest one (all 32 if none), add to the exclusive prefix; stop at a
 * prefix, else last −= 32. Lane 0 then publishes PREFIX, exclusive + aggregate. */
// END TODO(lookback)

/* One block a tile, its tile number taken from a counter when it starts (not blockIdx.x: the hardware
 * may start blocks in any order). The status words and the counter live in `status`: tiles, then 1. */
__global__ void scan_decoupled_lookback(const int *in, int *out, unsigned long long *status, int n)
{
    // BEGIN TODO(decoupled-lookback)
    /* Thread 0 takes tile = atomicAdd(counter, 1) (the counter is the word after the tiles' statuses)
     * into __shared__; barrier; load and tile_scan the tile; warp 0 runs lookback and lane 0 shares the
     * exclusive prefix through __shared__; barrier; add it to every element and store the tile. */
    // END TODO(decoupled-lookback)
}

static void launch_decoupled_lookback(State *s)
{
    int tiles = wb_ceil_div(s->n, TILE);
    reset_status(s, tiles);
    scan_decoupled_lookback<<<tiles, TILE_THREADS>>>(s->d_in, s->d_out, s->d_status, s->n);
    LAUNCH_CHECK();
}

/* ================================================================== the harness: you need not read below.
 * It runs the variants above, checks and times them; common/wb.h does the work. */
/* The extra column: bytes of DRAM traffic an element (4 read + 4 written a pass over it). */
static const wb_variant variants[] = {
    {"kogge-stone", "in-block Kogge-Stone scan in shared memory; block sums scanned; added back (3 kernels)",
     "scan_kogge_stone,scan_block_sums,add_block_offsets", launch_kogge_stone, NULL, "16", NULL,
     {{KS_BLOCK}, {SUMS_BLOCK}, {ADD_BLOCK}}},
    {"brent-kung", "work-efficient up-sweep/down-sweep, 2 elements a thread, padded against bank conflicts",
     "scan_brent_kung,scan_block_sums,add_block_offsets", launch_brent_kung, NULL, "16", NULL,
     {{BK_BLOCK}, {SUMS_BLOCK}, {ADD_BLOCK}}},
    {"warp-shuffle", "warp scans in registers by __shfl_up_sync, then a scan of the warps' totals",
     "scan_warp_shuffle,scan_block_sums,add_block_offsets", launch_warp_shuffle, NULL, "16", NULL,
     {{KS_BLOCK}, {SUMS_BLOCK}, {ADD_BLOCK}}},
    {"reduce-then-scan", "16 ints a thread by 16-byte loads; reduce tiles, scan the sums, rescan the tiles",
     "reduce_tiles,scan_block_sums,scan_tiles", launch_reduce_then_scan, NULL, "12", NULL,
     {{TILE_THREADS}, {SUMS_BLOCK}, {TILE_THREADS}}},
    {"decoupled-lookback", "one pass: tiles in start order publish totals and prefixes, look back for theirs",
     "scan_decoupled_lookback", launch_decoupled_lookback, NULL, "8", NULL,
     {{TILE_THREADS}}},
};

/* The input: full-range 32-bit values (negative about half the time, every partial sum wrapping), and in
 * every fourth run of RUN elements one value repeated: long runs, which change no sum's sign. Element i
 * is a function of (seed, i) only, on the host and on the GPU alike. */
#define RUN 3001u

WB_HD static inline int32_t scan_input_at(uint64_t seed, uint32_t i)
{
    uint32_t run = i / RUN;
    uint64_t r = run % 4 == 3 ? wb_random_at(seed, 1, run) : wb_random_at(seed, 0, i);
    return (int32_t)(uint32_t)(r >> 32);
}

static void fill_input(int *in, int n, uint64_t seed)
{
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (n >= (1 << 20))
#endif
    for (int i = 0; i < n; i++) in[i] = scan_input_at(seed, (uint32_t)i);
}

static int status_words(int n) { return wb_ceil_div(n, TILE) + 1; }

static double bytes_moved(const wb_size *size) { return 2.0 * sizeof(int) * (double)size->d[0]; }

/* The input and the output, the block sums, the status words, and CUB's scratch (a few MB). */
static double device_bytes(const wb_size *size)
{
    double n = (double)size->d[0];
    return 8 * n + 4 * (n / KS_BLOCK + 1) + 8 * (n / TILE + 2) + (1 << 22);
}

static void setup(State *s, const wb_size *size, uint64_t seed, wb_output *out)
{
    s->n = (int)size->d[0];
    size_t bytes = sizeof(int) * (size_t)s->n;
    s->h_in = (int *)wb_host_alloc(bytes, "the input");
    fill_input(s->h_in, s->n, seed);
    s->expected = (int *)wb_host_alloc(bytes, "the expected scan");
    scan_cpu(s->h_in, s->n, s->expected);
    s->d_in = (int *)wb_device_copy(s->h_in, bytes);
    s->d_out = (int *)wb_device_alloc(bytes);
    /* Written by the variants, so not inputs: allocated, never checked for changes. */
    s->d_sums = (unsigned *)wb_device_alloc(sizeof(unsigned) * (size_t)wb_ceil_div(s->n, KS_BLOCK));
    s->d_status = (unsigned long long *)wb_device_alloc(sizeof(unsigned long long) * (size_t)status_words(s->n));
#ifdef WB_CUB
    /* With no scratch memory, CUB's call only reports how much it needs. */
    CUDA_CHECK(cub::DeviceScan::InclusiveSum(NULL, s->cub_temp_bytes, (const unsigned *)s->d_in,
                                             (unsigned *)s->d_out, s->n));
    s->d_cub_temp = wb_device_alloc(s->cub_temp_bytes);
    s->h_cub = (int *)wb_host_alloc(bytes, "CUB's result");
#endif
    *out = wb_output{s->d_out, WB_ELEM_I32, (size_t)s->n, s->expected};
}

/* --grading's timed repetitions (common/wb_timing.h): each on inputs of its own, made on the GPU by the
 * setup's recipe, and each output checked element by element from the output alone: out is the
 * inclusive scan of the recipe's x exactly when out[0] = x[0] and out[j] − out[j−1] = x[j] (mod 2^32)
 * for every j ≥ 1, so the check needs no scan of its own. */
struct fresh_expect {
    const int *out;
    uint64_t seed;
    __device__ int operator()(size_t j) const
    {
        unsigned before = j ? (unsigned)out[j - 1] : 0;
        return (int)(before + (unsigned)scan_input_at(seed, (uint32_t)j));
    }
};

__global__ void fill_input_kernel(int *in, int n, uint64_t seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < (size_t)n; i += (size_t)gridDim.x * blockDim.x)
        in[i] = scan_input_at(seed, (uint32_t)i);
}

static void fresh_renew(State *s, uint64_t seed)
{
    fill_input_kernel<<<wb_fresh_grid((size_t)s->n), WB_FRESH_BLOCK>>>(s->d_in, s->n, seed);
    LAUNCH_CHECK();
}

static void fresh_verify(State *s, uint64_t seed, unsigned rep, unsigned long long *fault)
{
    wb_fresh_check_i32(s->d_out, (size_t)s->n, fresh_expect{s->d_out, seed}, rep, fault);
}

static double ceiling(State *s, int warmup, int reps, const char **name) /* the hardware's: the copy */
{
    return wb_sol_copy(s->d_out, s->d_in, sizeof(int) * (size_t)s->n, warmup, reps, name);
}

/* The copy of the same bytes bounds every scan. With WB_CUB, CUB's scan is timed too and printed as the
 * anchor line (its result checked like a variant's), and the faster of the two is the speed of light. */
static double speed_of_light(State *s, int warmup, int reps, const char **name)
{
    double copy = ceiling(s, warmup, reps, name);
#ifdef WB_CUB
    size_t bytes = sizeof(int) * (size_t)s->n;
    double ms = wb_time_ms([&] { CUDA_CHECK(cub::DeviceScan::InclusiveSum(s->d_cub_temp, s->cub_temp_bytes,
                                                                          (const unsigned *)s->d_in,
                                                                          (unsigned *)s->d_out, s->n)); },
                           warmup, reps, NULL);
    CUDA_CHECK(cudaMemcpy(s->h_cub, s->d_out, bytes, cudaMemcpyDeviceToHost));
    int right = memcmp(s->h_cub, s->expected, bytes) == 0;
    double cub = 2.0 * (double)bytes / (ms * 1e-3) / 1e9;
    fflush(stdout); /* the table may be on stdout: keep the lines in order */
    fprintf(stderr, "  anchor: cub::DeviceScan::InclusiveSum %.4f ms, %.1f GB/s, %.1f%% of the copy, %s\n", ms, cub,
            100.0 * cub / copy, right ? "PASS" : "its result differs from the CPU's");
    if (cub >= copy) *name = "cub::DeviceScan::InclusiveSum";
    return cub >= copy ? cub : copy;
#else
    return copy;
#endif
}

int main(int argc, char **argv)
{
    static const wb_chapter chapter = {
        .cli = {.id = "7-scan", .title = "inclusive prefix sum of n ints, wrapping modulo 2^32",
                WB_VARIANTS(variants), .dims = 1, .max_dim = 1 << 30,
                .size_help = "N: number of ints, 1 to 2^30 (the kernels index with int)", .default_sizes = "2^28"},
        .table = {.unit = "GB/s", .extra_name = "B/elem"}, .device_bytes = device_bytes, .work = bytes_moved,
        .setup = setup, .speed_of_light = speed_of_light, .ceiling = ceiling, .fresh = {fresh_renew, fresh_verify},
    };
    State state = {};
    return wb_main(argc, argv, &chapter, &state);
}
