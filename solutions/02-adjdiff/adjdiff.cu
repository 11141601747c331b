/*
 * Chapter 2 — adjacent difference: result[i] = input[i] - input[i-1] for 1 ≤ i < n, and
 * result[0] = input[0] (as if input[-1] were 0), any n ≥ 1, int32, out of place.
 *
 * Variants, each adding one idea (build/chapter2 --list):
 *   naive           one element per thread; it reads input[i] and input[i-1] from global memory, so
 *                   every int is fetched twice (2 loads per element)
 *   shared          each block stages its BLOCK elements in a fixed-size __shared__ array and takes
 *                   the left neighbour from there; only the block's first thread reads its neighbour
 *                   across the block boundary from global memory (1 + 1/BLOCK loads per element)
 *   shared-dynamic  the same with `extern __shared__`, its size given at launch (third <<<>>> argument)
 *   vector          16-byte streaming loads and stores, several per thread, all loads in flight before
 *                   the first store; the left neighbour of a chunk comes from the lane to the left
 *                   through a warp shuffle, and only lane 0 loads one more int (1 + 1/128 loads)
 *
 * The "loads/elem" column is the seed's measure: ints read from global memory per element computed
 * (for n large). Caches now absorb most of the naive variant's second read, so it costs far less
 * than twice the time; the table shows how much.
 *
 * Inputs are uniform in [0, 2^30 - 1], so every difference lies in [-(2^30 - 1), 2^30 - 1]: no int
 * overflow, and the poison value (-1515870811 < -2^30) can never be a right answer.
 *
 * Speed of light: a device-to-device cudaMemcpy of the same n ints, measured in the same run; every
 * variant must at least read the n inputs and write the n results, 8n bytes, and that is what its
 * GB/s counts.
 *
 * Run:  make chapter2                 your version (this file, chapters/02-adjdiff/)
 *       make solution2                the reference
 *       build/chapter2 --size 1000003 --variant naive,vector
 *       build/chapter2 --help
 * Source: NVIDIA, "CUDA Memories" (2008 slides), adj_diff_naive and adj_diff with __shared__.
 */
#include "wb.h"

#define BLOCK 256         /* threads per block, and the tile size of the shared variants */
#define VEC_PER_THREAD 4  /* int4 chunks each thread of the vector variant handles */
#define WARP 32

/* What every variant works on: the sizes and the buffers (set up by the harness at the end). */
struct State {
    int n;
    int *h_in;           /* host input */
    int *d_in, *d_out;
};

/* ------------------------------------------------------------------ CPU reference */
/* expected[j] for j = first .. first+count-1, built in slices so the check keeps no second n-element
 * array. */
static void adjdiff_cpu(const int *input, int first, int count, int *expected)
{
    for (int j = 0; j < count; j++) {
        int i = first + j;
        expected[j] = input[i] - (i > 0 ? input[i - 1] : 0);
    }
}

/* ------------------------------------------------------------------ kernels and their launchers */
/* Thread i computes result[i]. input[i-1] is the element thread i-1 also loads: every int is read
 * twice from global memory (the second time usually from cache). */
__global__ void adjdiff_naive(const int *input, int *result, int n)
{
    // BEGIN TODO(naive)
    //| /* One thread per element: result[i] = input[i] - input[i-1] (result[0] = input[0]), only where i < n. */
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) result[i] = input[i] - (i > 0 ? input[i - 1] : 0);
    // END TODO(naive)
}

static void launch_naive(State *s)
{
    adjdiff_naive<<<wb_ceil_div(s->n, BLOCK), BLOCK>>>(s->d_in, s->d_out, s->n);
    LAUNCH_CHECK();
}

/* Block b owns input[b*BLOCK .. b*BLOCK+BLOCK). Each thread loads its own element once into the
 * tile; thread tx > 0 finds its left neighbour in tile[tx-1]. Thread 0's neighbour belongs to the
 * previous block, which has its own tile, so thread 0 reads it from global memory. In the last block
 * the threads beyond n load nothing and write nothing, but still reach the barrier. */
__global__ void adjdiff_shared(const int *input, int *result, int n)
{
    // BEGIN TODO(shared)
    //| /* Each thread loads its element into a __shared__ int tile[BLOCK]; after __syncthreads() its left neighbour is
    //|  * tile[tx-1], except for thread 0, whose neighbour is in the previous block (read it from global memory). */
    __shared__ int tile[BLOCK];
    int tx = threadIdx.x;
    int i = blockIdx.x * BLOCK + tx;
    if (i < n) tile[tx] = input[i];
    /* Thread tx is about to read tile[tx-1], which thread tx-1 wrote, possibly in another warp that
     * has not run yet: wait until every thread of the block has stored its element. The barrier is
     * outside the `if` because every thread of the block must reach it. */
    __syncthreads();
    if (i < n) {
        if (tx > 0)
            result[i] = tile[tx] - tile[tx - 1];
        else
            result[i] = tile[0] - (i > 0 ? input[i - 1] : 0);
    }
    // END TODO(shared)
}

static void launch_shared(State *s)
{
    adjdiff_shared<<<wb_ceil_div(s->n, BLOCK), BLOCK>>>(s->d_in, s->d_out, s->n);
    LAUNCH_CHECK();
}

/* The same with the tile sized at launch: one kernel serves any block size. */
__global__ void adjdiff_shared_dynamic(const int *input, int *result, int n)
{
    // BEGIN TODO(shared-dynamic)
    //| /* shared with `extern __shared__ int tile[]` and blockDim.x as the tile width. */
    extern __shared__ int tile[];
    int tx = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tx;
    if (i < n) tile[tx] = input[i];
    __syncthreads();
    if (i < n) {
        if (tx > 0)
            result[i] = tile[tx] - tile[tx - 1];
        else
            result[i] = tile[0] - (i > 0 ? input[i - 1] : 0);
    }
    // END TODO(shared-dynamic)
}

static void launch_shared_dynamic(State *s)
{
    // BEGIN TODO(shared-dynamic-launch)
    //| /* Launch adjdiff_shared_dynamic with the tile's bytes as the third <<< >>> argument; LAUNCH_CHECK() after it. */
    size_t shared_bytes = BLOCK * sizeof(int);
    adjdiff_shared_dynamic<<<wb_ceil_div(s->n, BLOCK), BLOCK, shared_bytes>>>(s->d_in, s->d_out, s->n);
    LAUNCH_CHECK();
    // END TODO(shared-dynamic-launch)
}

/* Chunk q is input[4q .. 4q+3], one aligned 16-byte load. Within a warp the 32 lanes hold 32
 * consecutive chunks, so the element left of a lane's chunk is the last element (.w) of the previous
 * lane's chunk: a register-to-register shuffle, no memory access. Lane 0's neighbour sits in the
 * chunk another warp loaded, so lane 0 reads that one int (from L2, usually). Every lane of the warp
 * must execute the shuffle, so it stands outside the bounds test. The last n % 4 elements are not a
 * whole chunk: the thread owning chunk n/4 does them one by one.
 * __ldcs/__stcs mark the data as streaming (read once, written once): caches evict it first. */
__global__ void adjdiff_vector(const int *input, int *result, int n)
{
    // BEGIN TODO(vector)
    //| /* int4 streaming loads and stores, VEC_PER_THREAD per thread; a chunk's left neighbour is the last element of
    //|  * the previous chunk: take it from the lane before with __shfl_up_sync (lane 0 reads it from memory). */
    const int4 *in4 = (const int4 *)input;
    int4 *out4 = (int4 *)result;
    int p = n / 4;              /* whole chunks */
    int chunks = (n + 3) / 4;   /* with the partial one */
    int lane = threadIdx.x % WARP;
    int first = blockIdx.x * blockDim.x * VEC_PER_THREAD + threadIdx.x;
    int4 cur[VEC_PER_THREAD];
    int left[VEC_PER_THREAD];
    /* All loads first, so that VEC_PER_THREAD independent requests per thread are in flight. */
#pragma unroll
    for (int k = 0; k < VEC_PER_THREAD; k++) {
        int q = first + k * blockDim.x;
        cur[k] = q < p ? __ldcs(&in4[q]) : make_int4(0, 0, 0, 0);
        left[k] = lane == 0 && q > 0 && q < p ? input[4 * q - 1] : 0;
    }
#pragma unroll
    for (int k = 0; k < VEC_PER_THREAD; k++) {
        int q = first + k * blockDim.x;
        int prev = __shfl_up_sync(0xffffffffu, cur[k].w, 1);
        if (lane == 0) prev = left[k];
        if (q < p) {
            __stcs(&out4[q], make_int4(cur[k].x - prev, cur[k].y - cur[k].x, cur[k].z - cur[k].y,
                                       cur[k].w - cur[k].z));
        } else if (q < chunks) {
            for (int j = 4 * q; j < n; j++) result[j] = input[j] - (j > 0 ? input[j - 1] : 0);
        }
    }
    // END TODO(vector)
}

static void launch_vector(State *s)
{
    int chunks = wb_ceil_div(s->n, 4);
    adjdiff_vector<<<wb_ceil_div(chunks, BLOCK * VEC_PER_THREAD), BLOCK>>>(s->d_in, s->d_out, s->n);
    LAUNCH_CHECK();
}

/* ================================================================== the harness: you need not read below.
 * It runs the variants above, checks and times them; common/wb.h does the work. */
/* Global loads per element for large n: 2; 1 + 1/BLOCK; 1 + 1/BLOCK; 1 + 1/(4 * 32). */
static const wb_variant variants[] = {
    {"naive", "one element per thread; input[i] and input[i-1] both from global memory", "adjdiff_naive",
     launch_naive, NULL, "2", NULL, {{BLOCK}}},
    {"shared", "stage the block's elements in a fixed-size __shared__ tile; one global halo load per block",
     "adjdiff_shared", launch_shared, NULL, "1.0039",
     "1.57x faster than naive: shared memory halves the global loads (the 2008 \"CUDA Memories\" slides, "
     "on a GT200)",
     {{BLOCK}}},
    {"shared-dynamic", "the same tile, sized at launch with extern __shared__", "adjdiff_shared_dynamic",
     launch_shared_dynamic, NULL, "1.0039", NULL, {{BLOCK, BLOCK * sizeof(int)}}},
    {"vector", "16-byte streaming loads/stores, 4 per thread; left neighbour by warp shuffle", "adjdiff_vector",
     launch_vector, NULL, "1.0078", NULL, {{BLOCK}}},
};

#define INPUT_MAX ((1 << 30) - 1) /* the inputs lie in [0, INPUT_MAX] */

static double bytes_moved(const wb_size *size) { return 2.0 * sizeof(int) * (double)size->d[0]; }

static void setup(State *s, const wb_size *size, uint64_t seed, wb_output *out)
{
    s->n = (int)size->d[0];
    s->h_in = (int *)wb_host_alloc(sizeof(int) * (size_t)s->n, "the input");
    /* [0, 2^30 - 1]: differences fit in an int and can never equal the (negative) poison value. */
    wb_fill_i32(s->h_in, (size_t)s->n, seed, 0, 0, INPUT_MAX);
    s->d_in = (int *)wb_device_copy(s->h_in, sizeof(int) * (size_t)s->n);
    s->d_out = (int *)wb_device_alloc(sizeof(int) * (size_t)s->n);
    *out = wb_output{s->d_out, WB_ELEM_I32, (size_t)s->n};
}

/* --grading's timed repetitions (common/wb_timing.h): each on inputs of its own, made on the GPU in the
 * setup's range, and each output checked exactly, element by element, against that recipe. */
/* What out[j] must be: the input's element j minus element j-1, from the recipe. */
struct fresh_expect {
    uint64_t seed;
    __device__ int operator()(size_t j) const
    {
        return wb_random_i32(seed, 0, j, 0, INPUT_MAX) - (j > 0 ? wb_random_i32(seed, 0, j - 1, 0, INPUT_MAX) : 0);
    }
};

static void fresh_renew(State *s, uint64_t seed) { wb_fill_i32_gpu(s->d_in, (size_t)s->n, seed, 0, 0, INPUT_MAX); }

static void fresh_verify(State *s, uint64_t seed, unsigned rep, unsigned long long *fault)
{
    wb_fresh_check_i32(s->d_out, (size_t)s->n, fresh_expect{seed}, rep, fault);
}

static double speed_of_light(State *s, int warmup, int reps, const char **name)
{
    return wb_sol_copy(s->d_out, s->d_in, sizeof(int) * (size_t)s->n, warmup, reps, name);
}

/* The expected output is built in slices (adjdiff_cpu) rather than kept whole. */
static void expected_slice(const void *state, size_t first, size_t count, int *expected)
{
    adjdiff_cpu(((const State *)state)->h_in, (int)first, (int)count, expected);
}

static void check(State *s, const void *result, wb_check *chk)
{
    wb_check_i32_slices(chk, (size_t)s->n, expected_slice, s, (const int *)result);
}

int main(int argc, char **argv)
{
    static const wb_chapter chapter = {
        .cli = {.id = "2-adjdiff",
                .title = "adjacent difference, result[i] = input[i] - input[i-1], result[0] = input[0]",
                WB_VARIANTS(variants), .dims = 1, .max_dim = 1 << 30,
                .size_help = "N: number of ints, 1 to 2^30 (the kernels index with int)", .default_sizes = "2^28"},
        .table = {.unit = "GB/s", .extra_name = "loads/elem"}, .device_bytes = bytes_moved /* in and out: n ints */,
        .work = bytes_moved, .setup = setup, .speed_of_light = speed_of_light, .check = check,
        .fresh = {fresh_renew, fresh_verify},
    };
    State state = {};
    return wb_main(argc, argv, &chapter, &state);
}
