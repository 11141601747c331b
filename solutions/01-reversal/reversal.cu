/*
 * Chapter 1 — array reversal: out[n-1-i] = in[i] for 0 ≤ i < n, any n ≥ 1, int32, out of place.
 *
 * Variants, each adding one idea (build/chapter1 --list):
 *   global          one element per thread, read from and written to global memory directly
 *   shared-static   each block reverses its tile in a fixed-size __shared__ array, then writes the
 *                   tile to the mirrored place so that both reads and writes are contiguous
 *   shared-dynamic  the same with `extern __shared__`, its size given at launch (third <<<>>> argument)
 *   vector          16-byte loads and stores, several per thread, all loads in flight before the
 *                   first store: what a memory-bound kernel needs to approach the copy bandwidth
 *
 * Speed of light: a device-to-device cudaMemcpy of the same n ints, measured in the same run; every
 * variant moves the same 8n bytes (n read, n written).
 *
 * Run:  make chapter1                 your version (this file, chapters/01-reversal/)
 *       make solution1                the reference
 *       build/chapter1 --size 1000003 --variant global,vector
 *       build/chapter1 --help
 * Sources: Dr. Dobb's "CUDA, Supercomputing for the Masses" part 5 (reverseArray);
 *        NVIDIA's "Using Shared Memory in CUDA C/C++" (staticReverse, dynamicReverse).
 */
#include "wb.h"

#define BLOCK 256         /* threads per block, and the tile size of the shared variants */
#define VEC_PER_THREAD 4  /* int4 chunks each thread of the vector variant moves */

/* What every variant works on: the sizes and the buffers (set up by the harness at the end). */
struct State {
    int n;
    int *h_in;           /* host input */
    int *d_in, *d_out;
};

/* ------------------------------------------------------------------ CPU reference */
/* The reference is a formula, so the check builds the expected output in slices rather than keep a
 * second n-element array: expected[j] = in[n-1-j]. */
static void reverse_cpu(const int *in, int n, int first, int count, int *expected)
{
    for (int j = 0; j < count; j++) expected[j] = in[n - 1 - (first + j)];
}

/* ------------------------------------------------------------------ kernels and their launchers */
/* Thread i moves in[i] to out[n-1-i]. Consecutive threads read consecutive addresses and write
 * consecutive (descending) addresses, so a warp's accesses still fall in a few 32-byte sectors. */
__global__ void reverse_global(const int *in, int *out, int n)
{
    // BEGIN TODO(global)
    //| /* One thread per element: i = the global index; where i < n, write in[i] to out[n-1-i]. */
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[n - 1 - i] = in[i];
    // END TODO(global)
}

static void launch_global(State *s)
{
    reverse_global<<<wb_ceil_div(s->n, BLOCK), BLOCK>>>(s->d_in, s->d_out, s->n);
    LAUNCH_CHECK();
}

/* Block b owns in[b*BLOCK .. b*BLOCK+BLOCK). It stores its tile reversed in shared memory, then thread
 * t writes tile[t] to the mirrored range, so the writes ascend with t. In the last block, part of the
 * tile lies beyond n: those threads load nothing and write nothing. */
__global__ void reverse_shared_static(const int *in, int *out, int n)
{
    // BEGIN TODO(shared-static)
    //| /* Reverse the block's tile in a __shared__ int tile[BLOCK], __syncthreads(), then write the tile to the
    //|  * mirrored place so that reads and writes are both contiguous; the last tile may be partial. */
    __shared__ int tile[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    if (i < n) tile[BLOCK - 1 - t] = in[i];
    /* Thread t is about to read what thread BLOCK-1-t wrote: wait until every thread has written. */
    __syncthreads();
    int src = blockIdx.x * BLOCK + (BLOCK - 1 - t); /* the input index tile[t] came from */
    if (src < n) out[n - 1 - src] = tile[t];
    // END TODO(shared-static)
}

static void launch_shared_static(State *s)
{
    reverse_shared_static<<<wb_ceil_div(s->n, BLOCK), BLOCK>>>(s->d_in, s->d_out, s->n);
    LAUNCH_CHECK();
}

/* The same with the tile sized at launch: one kernel serves any block size. */
__global__ void reverse_shared_dynamic(const int *in, int *out, int n)
{
    // BEGIN TODO(shared-dynamic)
    //| /* shared-static with `extern __shared__ int tile[]` and blockDim.x as the tile width. */
    extern __shared__ int tile[];
    int t = threadIdx.x, width = blockDim.x;
    int i = blockIdx.x * width + t;
    if (i < n) tile[width - 1 - t] = in[i];
    __syncthreads();
    int src = blockIdx.x * width + (width - 1 - t);
    if (src < n) out[n - 1 - src] = tile[t];
    // END TODO(shared-dynamic)
}

static void launch_shared_dynamic(State *s)
{
    // BEGIN TODO(shared-dynamic-launch)
    //| /* Launch reverse_shared_dynamic with the tile's bytes as the third <<< >>> argument; LAUNCH_CHECK() after it. */
    size_t shared_bytes = BLOCK * sizeof(int);
    reverse_shared_dynamic<<<wb_ceil_div(s->n, BLOCK), BLOCK, shared_bytes>>>(s->d_in, s->d_out, s->n);
    LAUNCH_CHECK();
    // END TODO(shared-dynamic-launch)
}

/* Output chunk q is out[4q .. 4q+3]; it needs in[n-4-4q .. n-1-4q], reversed. With n = 4p + r those
 * inputs start r elements into the aligned input chunk p-q-1, so unless r = 0 they straddle two
 * aligned chunks: load both (aligned 16-byte loads) and pick the four elements. r is the same for every
 * thread, so the switch below never diverges. When r != 0, two chunks would read or write outside the
 * arrays and take the scalar path: q = 0 (its second input chunk, p, runs past in[n-1]) and q = p (the
 * partial last output chunk). */
__device__ __forceinline__ int4 reverse_pick(int4 lo, int4 hi, int r)
{
    switch (r) {
    case 0: return make_int4(lo.w, lo.z, lo.y, lo.x);
    case 1: return make_int4(hi.x, lo.w, lo.z, lo.y);
    case 2: return make_int4(hi.y, hi.x, lo.w, lo.z);
    default: return make_int4(hi.z, hi.y, hi.x, lo.w);
    }
}

__global__ void reverse_vector(const int *in, int *out, int n)
{
    // BEGIN TODO(vector)
    //| /* int4 loads and stores, VEC_PER_THREAD per thread, every load before the first store; when 4 does not
    //|  * divide n the input chunks straddle two aligned int4s (see reverse_pick); the chunks at the ends go scalar. */
    const int4 *in4 = (const int4 *)in;
    int4 *out4 = (int4 *)out;
    int p = n / 4, r = n % 4;
    int chunks = (n + 3) / 4;
    int first = (blockIdx.x * blockDim.x) * VEC_PER_THREAD + threadIdx.x;
    int4 lo[VEC_PER_THREAD], hi[VEC_PER_THREAD];
    /* All loads first, so VEC_PER_THREAD independent requests are in flight per thread. */
#pragma unroll
    for (int k = 0; k < VEC_PER_THREAD; k++) {
        int q = first + k * blockDim.x;
        if (q < p && (r == 0 || q >= 1)) {
            lo[k] = __ldcs(&in4[p - q - 1]);
            hi[k] = r ? __ldcs(&in4[p - q]) : lo[k];
        }
    }
#pragma unroll
    for (int k = 0; k < VEC_PER_THREAD; k++) {
        int q = first + k * blockDim.x;
        if (q < p && (r == 0 || q >= 1)) {
            __stcs(&out4[q], reverse_pick(lo[k], hi[k], r));
        } else if (q < chunks) {
            for (int j = 4 * q; j < 4 * q + 4 && j < n; j++) out[j] = in[n - 1 - j];
        }
    }
    // END TODO(vector)
}

static void launch_vector(State *s)
{
    int chunks = wb_ceil_div(s->n, 4);
    reverse_vector<<<wb_ceil_div(chunks, BLOCK * VEC_PER_THREAD), BLOCK>>>(s->d_in, s->d_out, s->n);
    LAUNCH_CHECK();
}

/* ================================================================== the harness: you need not read below.
 * It runs the variants above, checks and times them; common/wb.h does the work. */
static const wb_variant variants[] = {
    {"global", "one element per thread, straight from global memory", "reverse_global", launch_global, NULL, NULL, NULL,
     {{BLOCK}}},
    {"shared-static", "reverse a tile in a fixed-size __shared__ array; coalesced reads and writes",
     "reverse_shared_static", launch_shared_static, NULL, NULL,
     "faster than global: shared memory keeps reads and writes coalesced (Dr. Dobb's part 5, on a 2008 GPU "
     "that punished uncoalesced writes; NVIDIA's shared-memory post gives no number)",
     {{BLOCK}}},
    {"shared-dynamic", "the same tile, sized at launch with extern __shared__", "reverse_shared_dynamic",
     launch_shared_dynamic, NULL, NULL,
     "as fast as the static version (NVIDIA's post: sizing at launch costs nothing)", {{BLOCK, BLOCK * sizeof(int)}}},
    {"vector", "16-byte loads/stores, 4 per thread, all loads in flight first", "reverse_vector", launch_vector, NULL,
     NULL, NULL, {{BLOCK}}},
};

#define INPUT_MAX ((1 << 30) - 1) /* the inputs lie in [0, INPUT_MAX] */

static double bytes_moved(const wb_size *size) { return 2.0 * sizeof(int) * (double)size->d[0]; }

static void setup(State *s, const wb_size *size, uint64_t seed, wb_output *out)
{
    s->n = (int)size->d[0];
    s->h_in = (int *)wb_host_alloc(sizeof(int) * (size_t)s->n, "the input");
    /* Non-negative inputs: the poison value is negative, so it can never be a right answer. */
    wb_fill_i32(s->h_in, (size_t)s->n, seed, 0, 0, INPUT_MAX);
    s->d_in = (int *)wb_device_copy(s->h_in, sizeof(int) * (size_t)s->n);
    s->d_out = (int *)wb_device_alloc(sizeof(int) * (size_t)s->n);
    *out = wb_output{s->d_out, WB_ELEM_I32, (size_t)s->n};
}

/* --grading's timed repetitions (common/wb_timing.h): each on inputs of its own, made on the GPU in the
 * setup's range, and each output checked exactly, element by element, against that recipe. */
/* What out[j] must be: the input's element n-1-j, from the recipe. */
struct fresh_expect {
    int n;
    uint64_t seed;
    __device__ int operator()(size_t j) const { return wb_random_i32(seed, 0, (size_t)n - 1 - j, 0, INPUT_MAX); }
};

static void fresh_renew(State *s, uint64_t seed) { wb_fill_i32_gpu(s->d_in, (size_t)s->n, seed, 0, 0, INPUT_MAX); }

static void fresh_verify(State *s, uint64_t seed, unsigned rep, unsigned long long *fault)
{
    wb_fresh_check_i32(s->d_out, (size_t)s->n, fresh_expect{s->n, seed}, rep, fault);
}

static double speed_of_light(State *s, int warmup, int reps, const char **name)
{
    return wb_sol_copy(s->d_out, s->d_in, sizeof(int) * (size_t)s->n, warmup, reps, name);
}

/* The expected output is built in slices (reverse_cpu) rather than kept whole. */
static void expected_slice(const void *state, size_t first, size_t count, int *expected)
{
    const State *s = (const State *)state;
    reverse_cpu(s->h_in, s->n, (int)first, (int)count, expected);
}

static void check(State *s, const void *result, wb_check *chk)
{
    wb_check_i32_slices(chk, (size_t)s->n, expected_slice, s, (const int *)result);
}

int main(int argc, char **argv)
{
    static const wb_chapter chapter = {
        .cli = {.id = "1-reversal", .title = "array reversal, out[n-1-i] = in[i]", WB_VARIANTS(variants), .dims = 1,
                .max_dim = 1 << 30, .size_help = "N: number of ints, 1 to 2^30 (the kernels index with int)",
                .default_sizes = "2^28"},
        .table = {.unit = "GB/s"}, .device_bytes = bytes_moved /* an input and an output of n ints */,
        .work = bytes_moved, .setup = setup, .speed_of_light = speed_of_light, .check = check,
        .fresh = {fresh_renew, fresh_verify},
    };
    State state = {};
    return wb_main(argc, argv, &chapter, &state);
}
