/*
 * Chapter 3 — hierarchical atomic sum: result = input[0] + … + input[n-1], any n ≥ 1, any grid.
 *
 * Variants, each adding one idea (build/chapter3 --list):
 *   global-atomic   every thread atomicAdd's its element into the one global result: n atomics on a
 *                   single address, which the memory system must serialise
 *   block-atomic    each thread atomicAdd's into a __shared__ partial sum of its block, and one thread
 *                   per block adds that partial to the global result (n/BLOCK global atomics): the
 *                   slides' hierarchy, fixed to work for any n and any grid
 *   warp-shuffle    the same hierarchy without shared atomics: each warp sums its 32 values with
 *                   register shuffles, the block sums its warps' totals, one global atomic per block
 *   grid-stride     a grid just large enough to fill the GPU; each thread first sums many elements
 *                   with 16-byte loads in a grid-stride loop, then the warp-shuffle block sum: a few
 *                   thousand global atomics for any n
 *
 * Value ranges, and why nothing overflows: inputs are uniform in [-2^22, 2^22] and n ≤ 2^30 (the
 * kernels index with int), so |result| ≤ 2^52: the result is a 64-bit integer (int32 would overflow
 * beyond n = 512 at worst, and in practice from about n = 2^18). A block's shared partial sum in
 * block-atomic covers BLOCK = 256 elements, |partial| ≤ 2^30, so it may stay an int; so may the sum
 * of the four ints of one 16-byte chunk (≤ 2^24). Anything that sums more is 64-bit.
 * CUDA's 64-bit atomicAdd takes unsigned long long; adding a negative value as its two's complement
 * modulo 2^64 gives the same bits as a signed addition, so the signed total is exact.
 *
 * The result must be zero before the atomics accumulate into it. Zeroing it (cudaMemsetAsync) is part
 * of every variant's launch, so it is timed, and every timed repetition starts from zero.
 *
 * Speed of light: reading the input once (wb_read_rate), on the same data in the same run: a sum must
 * read every byte. The reference's build (make solution3, which defines WB_CUB) also times CUB's
 * cub::DeviceReduce::Sum (CUDA's own library, into a 64-bit result) and takes the faster of the two,
 * naming it in the row. Your build leaves CUB out: its headers alone take about 10 s to compile, and
 * a starter should answer in seconds. Throughput counts the 4n bytes of input read.
 *
 * Run:  make chapter3                 your version (this file, chapters/03-atomicsum/)
 *       make solution3                the reference
 *       build/chapter3 --size 1000003 --variant block-atomic,grid-stride
 *       build/chapter3 --help
 * Source: NVIDIA, "CUDA Memories" (2008 slides), "Hierarchical Atomics" (sum with a __shared__ partial).
 */
#ifdef WB_CUB /* the reference's build only: see the header */
#include <cub/device/device_reduce.cuh>
#endif

#include "wb.h"

#define BLOCK 256           /* threads per block in every variant */
#define WARP 32
#define CHUNKS_PER_LOOP 4   /* int4 loads each thread of grid-stride issues before adding */
#define BLOCKS_PER_SM 8     /* grid-stride's grid: 8 blocks of 256 threads fill an SM (2048 threads) */

/* What every variant works on: the sizes and the buffers (set up by the harness at the end). */
struct State {
    int n;
    int sm_count;
    int *h_in;
    int64_t expected;               /* the CPU's sum */
    int *d_in;
    unsigned long long *d_result;
    unsigned long long *d_fresh_sum;  /* --grading: a timed repetition's expected sum (the harness's) */
#ifdef WB_CUB /* the reference's speed-of-light row (see the header) */
    int64_t *d_cub_result;          /* CUB writes here, so it never touches the variants' result */
    void *d_cub_temp;
    size_t cub_temp_bytes;
#endif
};

/* ------------------------------------------------------------------ CPU reference */
static int64_t sum_cpu(const int *input, int n)
{
    int64_t total = 0;
    for (int i = 0; i < n; i++) total += input[i];
    return total;
}

/* ------------------------------------------------------------------ kernels and their launchers */
/* Every variant's launch starts here, in the same stream as its kernel. */
static void zero_result(State *s)
{
    // BEGIN TODO(zero-result)
    //| /* *result must be 0 before each run: set it on the same stream as the kernel (cudaMemsetAsync). */
    CUDA_CHECK(cudaMemsetAsync(s->d_result, 0, sizeof *s->d_result, 0));
    // END TODO(zero-result)
}

/* n atomics on one address: correct, but each one waits for the previous at the L2 slice that owns
 * the address. */
__global__ void sum_global_atomic(const int *input, unsigned long long *result, int n)
{
    // BEGIN TODO(global-atomic)
    //| /* One thread per element: atomicAdd it (as unsigned long long) into *result, only where i < n. */
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(result, (unsigned long long)(long long)input[i]);
    // END TODO(global-atomic)
}

static void launch_global_atomic(State *s)
{
    zero_result(s);
    sum_global_atomic<<<wb_ceil_div(s->n, BLOCK), BLOCK>>>(s->d_in, s->d_result, s->n);
    LAUNCH_CHECK();
}

/* The slides' kernel summed input[threadIdx.x] and so only worked for one block; here thread i of the
 * grid owns input[i] and threads beyond n add nothing (but still reach both barriers). */
__global__ void sum_block_atomic(const int *input, unsigned long long *result, int n)
{
    // BEGIN TODO(block-atomic)
    //| /* atomicAdd into a __shared__ partial sum per block (zero it first, __syncthreads() around it), then thread 0
    //|  * adds the block's partial to *result with one global atomicAdd. */
    __shared__ int partial;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) partial = 0;
    /* Every thread is about to add to `partial`: it must be zero first. */
    __syncthreads();
    if (i < n) atomicAdd(&partial, input[i]);
    /* Thread 0 is about to read the block's total: every thread's add must have landed. */
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(result, (unsigned long long)(long long)partial);
    // END TODO(block-atomic)
}

static void launch_block_atomic(State *s)
{
    zero_result(s);
    sum_block_atomic<<<wb_ceil_div(s->n, BLOCK), BLOCK>>>(s->d_in, s->d_result, s->n);
    LAUNCH_CHECK();
}

/* The block-level sum that warp-shuffle and grid-stride share: each warp adds its 32 values through
 * register shuffles (5 steps, no memory), lane 0 of each warp puts the warp's total in shared memory,
 * and warp 0 adds those BLOCK/32 totals the same way; one global atomic per block. Every thread of
 * the block must call it (the shuffles name all 32 lanes, and there is a barrier). */
// BEGIN TODO(block-sum)
//| /* A helper your warp-shuffle and grid-stride kernels share, e.g. __device__ void block_sum_atomic(long long v,
//|  * unsigned long long *result): each warp sums with __shfl_down_sync, the warps' sums go through shared memory,
//|  * and one thread adds the block's total to *result. */
__device__ long long warp_sum(long long v)
{
    for (int offset = WARP / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__device__ void block_sum_atomic(long long v, unsigned long long *result)
{
    __shared__ long long warp_totals[BLOCK / WARP];
    int lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
    v = warp_sum(v);
    if (lane == 0) warp_totals[warp] = v;
    /* Warp 0 is about to read the other warps' totals. */
    __syncthreads();
    if (warp == 0) {
        v = warp_sum(lane < BLOCK / WARP ? warp_totals[lane] : 0);
        if (lane == 0) atomicAdd(result, (unsigned long long)v);
    }
}
// END TODO(block-sum)

__global__ void sum_warp_shuffle(const int *input, unsigned long long *result, int n)
{
    // BEGIN TODO(warp-shuffle)
    //| /* Each thread takes its element (0 beyond n) and hands it to your block-sum helper. */
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    block_sum_atomic(i < n ? input[i] : 0, result);
    // END TODO(warp-shuffle)
}

static void launch_warp_shuffle(State *s)
{
    zero_result(s);
    sum_warp_shuffle<<<wb_ceil_div(s->n, BLOCK), BLOCK>>>(s->d_in, s->d_result, s->n);
    LAUNCH_CHECK();
}

/* Chunk q is input[4q .. 4q+3], one aligned 16-byte load. Thread t of the grid handles chunks t,
 * t + stride, t + 2·stride, … (stride = all threads of the grid), so the grid may have any size; a
 * warp's loads stay contiguous. CHUNKS_PER_LOOP loads are issued before any is added, to keep enough
 * bytes in flight. The last n % 4 elements are not a whole chunk: thread 0 adds them. */
__global__ void sum_grid_stride(const int *input, unsigned long long *result, int n)
{
    // BEGIN TODO(grid-stride)
    //| /* Loop over the array with a stride of the whole grid, int4 chunks at a time, summing in a 64-bit register;
    //|  * then block-sum the threads' partials. The tail (n not a multiple of 4) needs scalar loads. */
    const int4 *in4 = (const int4 *)input;
    int p = n / 4;
    int stride = gridDim.x * blockDim.x;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    long long acc = 0;
    for (int q = t; q < p; q += CHUNKS_PER_LOOP * stride) {
        int4 v[CHUNKS_PER_LOOP];
#pragma unroll
        for (int k = 0; k < CHUNKS_PER_LOOP; k++) {
            int qk = q + k * stride;
            v[k] = qk < p ? __ldcs(&in4[qk]) : make_int4(0, 0, 0, 0);
        }
#pragma unroll
        for (int k = 0; k < CHUNKS_PER_LOOP; k++) acc += v[k].x + v[k].y + v[k].z + v[k].w;
    }
    if (t == 0)
        for (int j = 4 * p; j < n; j++) acc += input[j];
    block_sum_atomic(acc, result);
    // END TODO(grid-stride)
}

/* Enough blocks to fill every SM once, fewer when n is small. */
static void launch_grid_stride(State *s)
{
    int blocks = wb_ceil_div(wb_ceil_div(s->n, 4), BLOCK);
    if (blocks > s->sm_count * BLOCKS_PER_SM) blocks = s->sm_count * BLOCKS_PER_SM;
    zero_result(s);
    sum_grid_stride<<<blocks, BLOCK>>>(s->d_in, s->d_result, s->n);
    LAUNCH_CHECK();
}

/* ================================================================== the harness: you need not read below.
 * It runs the variants above, checks and times them; common/wb.h does the work. */
/* Global atomics per run: n; n/BLOCK; n/BLOCK; BLOCKS_PER_SM per SM (at most). */
static const wb_variant variants[] = {
    {"global-atomic", "every thread atomicAdd's its element into the one global result", "sum_global_atomic", launch_global_atomic, NULL, "n",
     NULL, {{BLOCK}}},
    {"block-atomic", "atomicAdd into a __shared__ partial per block; one global atomicAdd per block",
     "sum_block_atomic", launch_block_atomic, NULL, "n/256",
     "faster than one global atomic per element: far fewer atomics on the contended global address (the "
     "2008 \"CUDA Memories\" slides give no number)",
     {{BLOCK}}},
    {"warp-shuffle", "warp sums in registers by __shfl_down_sync, then the block; one global atomic per block",
     "sum_warp_shuffle", launch_warp_shuffle, NULL, "n/256", NULL, {{BLOCK}}},
    {"grid-stride", "a GPU-filling grid; each thread sums many int4 chunks first; one global atomic per block",
     "sum_grid_stride", launch_grid_stride, NULL, "8 per SM", NULL, {{BLOCK}}},
};

#define INPUT_MAX (1 << 22) /* the inputs lie in [-INPUT_MAX, INPUT_MAX] */

static double bytes_read(const wb_size *size) { return sizeof(int) * (double)size->d[0]; }

static void setup(State *s, const wb_size *size, uint64_t seed, wb_output *out)
{
    s->n = (int)size->d[0];
    s->h_in = (int *)wb_host_alloc(sizeof(int) * (size_t)s->n, "the input");
    /* [-2^22, 2^22]: see the header for why no partial sum overflows. */
    wb_fill_i32(s->h_in, (size_t)s->n, seed, 0, -INPUT_MAX, INPUT_MAX);
    s->expected = sum_cpu(s->h_in, s->n);
    CUDA_CHECK(cudaDeviceGetAttribute(&s->sm_count, cudaDevAttrMultiProcessorCount, 0));
    s->d_in = (int *)wb_device_copy(s->h_in, sizeof(int) * (size_t)s->n);
    s->d_result = (unsigned long long *)wb_device_alloc(sizeof *s->d_result);
    s->d_fresh_sum = (unsigned long long *)wb_device_alloc(sizeof *s->d_fresh_sum);
#ifdef WB_CUB
    s->d_cub_result = (int64_t *)wb_device_alloc(sizeof *s->d_cub_result);
    /* With no scratch memory, CUB's call only reports how much it needs. */
    CUDA_CHECK(cub::DeviceReduce::Sum(NULL, s->cub_temp_bytes, s->d_in, s->d_cub_result, s->n));
    s->d_cub_temp = wb_device_alloc(s->cub_temp_bytes);
#endif
    *out = wb_output{s->d_result, WB_ELEM_I64, 1, &s->expected};
}

/* --grading's timed repetitions (common/wb_timing.h): each on inputs of its own, made on the GPU in the
 * setup's range; its sum is checked exactly against the harness's own reduction of that recipe. */
__global__ void fresh_compare(const unsigned long long *got, const unsigned long long *want, unsigned rep,
                              unsigned long long *fault)
{
    if (*got != *want) wb_fault(fault, wb_fault_key(rep, WB_FAULT_VALUE, 0));
}

static void fresh_renew(State *s, uint64_t seed) { wb_fill_i32_gpu(s->d_in, (size_t)s->n, seed, 0, -INPUT_MAX, INPUT_MAX); }

static void fresh_verify(State *s, uint64_t seed, unsigned rep, unsigned long long *fault)
{
    CUDA_CHECK(cudaMemsetAsync(s->d_fresh_sum, 0, sizeof *s->d_fresh_sum, 0));
    wb_sum_i32_kernel<<<wb_fresh_grid((size_t)s->n), WB_FRESH_BLOCK>>>(s->d_fresh_sum, (size_t)s->n, seed, 0,
                                                                        -INPUT_MAX, INPUT_MAX);
    LAUNCH_CHECK();
    fresh_compare<<<1, 1>>>(s->d_result, s->d_fresh_sum, rep, fault);
    LAUNCH_CHECK();
}

static double ceiling(State *s, int warmup, int reps, const char **name) /* the hardware's: reading the input */
{
    return wb_read_rate(s->d_in, sizeof(int) * (size_t)s->n, warmup, reps, name);
}

/* Reading the input once: a sum reads every byte, so the read rate bounds every variant. With WB_CUB,
 * the faster of CUB and the read; CUB alone would not bound them (grid-stride beats it by a fraction
 * of a percent on the H100). */
static double speed_of_light(State *s, int warmup, int reps, const char **name)
{
    double read = ceiling(s, warmup, reps, name);
#ifdef WB_CUB
    double ms = wb_time_ms([&] { CUDA_CHECK(cub::DeviceReduce::Sum(s->d_cub_temp, s->cub_temp_bytes, s->d_in,
                                                                   s->d_cub_result, s->n)); }, warmup, reps, NULL);
    int64_t got; /* a reference that sums wrong would make the comparison meaningless: say so */
    CUDA_CHECK(cudaMemcpy(&got, s->d_cub_result, sizeof got, cudaMemcpyDeviceToHost));
    if (got != s->expected)
        fprintf(stderr, "warning: CUB's sum %lld, the CPU's %lld\n", (long long)got, (long long)s->expected);
    double cub = sizeof(int) * (double)s->n / (ms * 1e-3) / 1e9;
    if (cub >= read) *name = "cub::DeviceReduce::Sum";
    return cub >= read ? cub : read;
#else
    return read;
#endif
}

int main(int argc, char **argv)
{
    static const wb_chapter chapter = {
        .cli = {.id = "3-atomicsum", .title = "hierarchical atomic sum of n ints into a 64-bit result",
                WB_VARIANTS(variants), .dims = 1, .max_dim = 1 << 30,
                .size_help = "N: number of ints, 1 to 2^30 (inputs in [-2^22, 2^22]: the 64-bit sum cannot overflow)",
                .default_sizes = "2^28"},
        .table = {.unit = "GB/s", .extra_name = "g.atomics"}, .device_bytes = bytes_read /* + CUB's few KB */,
        .work = bytes_read, .setup = setup, .speed_of_light = speed_of_light, .ceiling = ceiling,
        .fresh = {fresh_renew, fresh_verify},
    };
    State state = {};
    return wb_main(argc, argv, &chapter, &state);
}
