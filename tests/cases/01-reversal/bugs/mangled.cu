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
 * Seeds: Dr. Dobb's "CUDA, Supercomputing for the Masses" part 5 (reverseArray);
 *        NVIDIA's "Using Shared Memory in CUDA C/C++" (staticReverse, dynamicReverse).
 */
#include "wb.h"

#define BLOCK 256         /* threads per block, and the tile size of the shared variants */
#define VEC_PER_THREAD 4  /* int4 chunks each thread of the vector variant moves */

/* ------------------------------------------------------------------ CPU reference */
/* The reference is a formula, so the check builds the expected output in slices rather than keep a
 * second n-element array: expected[j] = in[n-1-j]. */
static void reverse_cpu(const int *in, int n, int first, int count, int *expected)
{
    for (int j = 0; j < count; j++) expected[j] = in[n - 1 - (first + j)];
}

/* ------------------------------------------------------------------ kernels */
/* Thread i moves in[i] to out[n-1-i]. Consecutive threads read consecutive addresses and write
 * consecutive (descending) addresses, so a warp's accesses still fall in a few 32-byte sectors. */
__global__ void reverse_global(const int *in, int *out, int n)
{
    // BEGIN TODO(global)
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[n - 1 - i] = in[i];
    // END TODO(global)
}

/* Block b owns in[b*BLOCK .. b*BLOCK+BLOCK). It stores its tile reversed in shared memory, then thread
 * t writes tile[t] to the mirrored range, so the writes ascend with t. In the last block, part of the
 * tile lies beyond n: those threads load nothing and write nothing. */
__global__ void reverse_shared_static(const int *in, int *out, int n)
{
    // BEGIN TODO(shared-static)
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

/* The same with the tile sized at launch: one kernel serves any block size. */
__global__ void reverse_shared_dynamic(const int *in, int *out, int n)
{
    // BEGIN TODO(shared-dynamic)
    extern __shared__ int tile[];
    int t = threadIdx.x, width = blockDim.x;
    int i = blockIdx.x * width + t;
    if (i < n) tile[width - 1 - t] = in[i];
    __syncthreads();
    int src = blockIdx.x * width + (width - 1 - t);
    if (src < n) out[n - 1 - src] = tile[t];
    // END TODO(shared-dynamic)
}

/* Output chunk q is out[4q .. 4q+3]; it needs in[n-4-4q .. n-1-4q], reversed. With n = 4p + r those
 * inputs start r elements into the aligned input chunk p-q-1, so unless r = 0 they straddle two
 * aligned chunks: load both (aligned 16-byte loads) and pick the four elements. r is the same for every
 * thread, so the switch below never diverges. The two chunks at the ends that would read or write
 * outside the arrays take the scalar path. */
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
}

/* ------------------------------------------------------------------ launchers */
typedef struct {
    int n;
    int *h_in, *h_out;   /* host input; host copy of the last result */
    int *d_in, *d_out;
} State;

static int wb_ceil_div(int n, int per_block) { return (int)(((long long)n + per_block - 1) / per_block); }

static void launch_global(void *p)
{
    reverse_global<<<wb_ceil_div(s->n, BLOCK), BLOCK>>>(s->d_in, s->d_out, s->n);
    LAUNCH_CHECK();
}

static void launch_shared_static(void *p)
{
    reverse_shared_static<<<wb_ceil_div(s->n, BLOCK), BLOCK>>>(s->d_in, s->d_out, s->n);
    LAUNCH_CHECK();
}

static void launch_shared_dynamic(void *p)
{
    // BEGIN TODO(shared-dynamic-launch)
    size_t shared_bytes = BLOCK * sizeof(int);
    reverse_shared_dynamic<<<wb_ceil_div(s->n, BLOCK), BLOCK, shared_bytes>>>(s->d_in, s->d_out, s->n);
    LAUNCH_CHECK();
    // END TODO(shared-dynamic-launch)
}

static void launch_vector(void *p)
{
    int chunks = wb_ceil_div(s->n, 4);
    reverse_vector<<<wb_ceil_div(chunks, BLOCK * VEC_PER_THREAD), BLOCK>>>(s->d_in, s->d_out, s->n);
    LAUNCH_CHECK();
}

/* ------------------------------------------------------------------ the chapter for wb_main */
static double device_bytes(const wb_size *size) { return 2.0 * sizeof(int) * (double)size->d[0]; }
static double bytes_moved(const wb_size *size) { return 2.0 * sizeof(int) * (double)size->d[0]; }

static void setup(void *p, const wb_size *size, uint64_t seed)
{
    s->n = (int)size->d[0];
    size_t bytes = sizeof(int) * (size_t)s->n;
    s->h_in = (int *)malloc(bytes);
    s->h_out = (int *)malloc(bytes);
    if (!s->h_in || !s->h_out) {
        fprintf(stderr, "out of host memory for n = %d\n", s->n);
        exit(WB_EXIT_CUDA);
    }
    /* Non-negative inputs: the poison value is negative, so it can never be a right answer. */
    wb_fill_i32(s->h_in, (size_t)s->n, seed, 0, 0, (1 << 30) - 1);
    CUDA_CHECK(cudaMalloc(&s->d_in, bytes));
    CUDA_CHECK(cudaMalloc(&s->d_out, bytes));
    CUDA_CHECK(cudaMemcpy(s->d_in, s->h_in, bytes, cudaMemcpyHostToDevice));
}

static void copy_d2d(void *p)
{
    CUDA_CHECK(cudaMemcpyAsync(s->d_out, s->d_in, sizeof(int) * (size_t)s->n, cudaMemcpyDeviceToDevice, 0));
}

static double speed_of_light(void *p, int warmup, int reps, const char **name)
{
    *name = "memcpy D2D";
    double ms = wb_time_median_ms(copy_d2d, s, warmup, reps);
    return 2.0 * sizeof(int) * s->n / (ms * 1e-3) / 1e9;
}

static void poison(void *p)
{
    wb_poison(s->d_out, sizeof(int) * (size_t)s->n);
}

static void check(void *p, wb_check *chk)
{
    CUDA_CHECK(cudaMemcpy(s->h_out, s->d_out, sizeof(int) * (size_t)s->n, cudaMemcpyDeviceToHost));
    wb_check_init(chk, 0);
    enum { SLICE = 1 << 16 };
    static int expected[SLICE];
    for (int first = 0; first < s->n; first += SLICE) {
        int count = s->n - first < SLICE ? s->n - first : SLICE;
        reverse_cpu(s->h_in, s->n, first, count, expected);
        wb_check_i32(chk, (unsigned long long)first, expected, s->h_out + first, (size_t)count);
    }
}

static int dump(void *p, FILE *f)
{
    return fwrite(s->h_out, sizeof(int), (size_t)s->n, f) == (size_t)s->n ? 0 : -1;
}

static void teardown(void *p)
{
    CUDA_CHECK(cudaFree(s->d_in));
    CUDA_CHECK(cudaFree(s->d_out));
    free(s->h_in);
    free(s->h_out);
}

static const wb_variant_info variants[] = {
    {"global", "one element per thread, straight from global memory", "reverse_global", NULL},
    {"shared-static", "reverse a tile in a fixed-size __shared__ array; coalesced reads and writes",
     "reverse_shared_static",
     "faster than global: shared memory keeps reads and writes coalesced (Dr. Dobb's part 5, on a 2008 GPU "
     "that punished uncoalesced writes; NVIDIA's shared-memory post gives no number)"},
    {"shared-dynamic", "the same tile, sized at launch with extern __shared__", "reverse_shared_dynamic",
     "as fast as the static version (NVIDIA's post: sizing at launch costs nothing)"},
    {"vector", "16-byte loads/stores, 4 per thread, all loads in flight first", "reverse_vector", NULL},
};
static const wb_variant_run runs[] = {
    {launch_global, NULL, NULL},
    {launch_shared_static, NULL, NULL},
    {launch_shared_dynamic, NULL, NULL},
    {launch_vector, NULL, NULL},
};

int main(int argc, char **argv)
{
    const wb_chapter chapter = {
        .cli = {.id = "1-reversal",
                .title = "array reversal, out[n-1-i] = in[i]",
                .variants = variants,
                .n_variants = 4,
                .dims = 1,
                .max_dim = 1 << 30,
                .size_help = "N: number of ints, 1 to 2^30 (the kernels index with int)",
                .default_sizes = "2^28"},
        .table = {.unit = "GB/s", .extra_name = NULL, .has_pre = 0},
        .runs = runs,
        .work_scale = 1e9,
        .device_bytes = device_bytes,
        .work = bytes_moved,
        .setup = setup,
        .speed_of_light = speed_of_light,
        .poison = poison,
        .check = check,
        .dump = dump,
        .teardown = teardown,
    };
    State state;
    memset(&state, 0, sizeof state);
    return wb_main(argc, argv, &chapter, &state);
}
