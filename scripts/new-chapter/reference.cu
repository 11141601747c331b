/*
 * Chapter @N@ — @NAME@: a new chapter's scaffold (make new-chapter). Until it is replaced it computes
 * out[i] = 3·in[i] + 1 for 0 ≤ i < n, int32, with one variant, so that every part a chapter needs is here
 * and works: the variant table, the setup, the CPU check, the speed of light and --grading's recipe.
 * Replace the example, part by part, with the chapter's own (the README's "A new chapter" checklist).
 *
 * Variants, each adding one idea (build/chapter@N@ --list):
 *   global    one element per thread, read from and written to global memory directly
 *
 * Speed of light: a device-to-device cudaMemcpy of the same n ints, measured in the same run; the
 * variant moves the same 8n bytes (n read, n written).
 *
 * Run:  make chapter@N@                your version (this file, chapters/@NN@-@NAME@/)
 *       make solution@N@               the reference
 *       build/chapter@N@ --size 1000003 --variant global
 *       build/chapter@N@ --help
 */
#include "wb.h"

#define BLOCK 256 /* threads per block */

/* What every variant works on: the sizes and the buffers (set up by the harness at the end). */
struct State {
    int n;
    int *h_in; /* host input */
    int *d_in, *d_out;
};

/* ------------------------------------------------------------------ CPU reference */
/* The reference is a formula, so the check builds the expected output in slices rather than keep a
 * second n-element array. */
static void affine_cpu(const int *in, int first, int count, int *expected)
{
    for (int j = 0; j < count; j++) expected[j] = 3 * in[first + j] + 1;
}

/* ------------------------------------------------------------------ kernels and their launchers */
/* Thread i reads in[i] and writes out[i]: a warp reads and writes 32 consecutive ints. */
__global__ void affine_global(const int *in, int *out, int n)
{
    // BEGIN TODO(global)
    //| /* One thread per element: i = the global index; where i < n, write 3·in[i] + 1 to out[i]. */
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 3 * in[i] + 1;
    // END TODO(global)
}

static void launch_global(State *s)
{
    affine_global<<<wb_ceil_div(s->n, BLOCK), BLOCK>>>(s->d_in, s->d_out, s->n);
    LAUNCH_CHECK();
}

/* ================================================================== the harness: you need not read below.
 * It runs the variants above, checks and times them; common/wb.h does the work. */
static const wb_variant variants[] = {
    {"global", "one element per thread, straight from global memory", "affine_global", launch_global, NULL, NULL, NULL,
     {{BLOCK}}},
};

#define INPUT_MAX ((1 << 28) - 1) /* the inputs lie in [0, INPUT_MAX]: 3·INPUT_MAX + 1 fits an int */

static double bytes_moved(const wb_size *size) { return 2.0 * sizeof(int) * (double)size->d[0]; }

static void setup(State *s, const wb_size *size, uint64_t seed, wb_output *out)
{
    s->n = (int)size->d[0];
    s->h_in = (int *)wb_host_alloc(sizeof(int) * (size_t)s->n, "the input");
    /* Non-negative inputs: every result is positive and the poison is negative, so it is never right. */
    wb_fill_i32(s->h_in, (size_t)s->n, seed, 0, 0, INPUT_MAX);
    s->d_in = (int *)wb_device_copy(s->h_in, sizeof(int) * (size_t)s->n);
    s->d_out = (int *)wb_device_alloc(sizeof(int) * (size_t)s->n);
    *out = wb_output{s->d_out, WB_ELEM_I32, (size_t)s->n};
}

/* --grading's timed repetitions (common/wb_timing.h): each on inputs of its own, made on the GPU in the
 * setup's range, and each output checked exactly, element by element, against that recipe
 * (common/wb_fresh.h's wb_fresh_check takes int64, float and double outputs too). */
struct fresh_expect {
    uint64_t seed;
    __device__ int operator()(size_t j) const { return 3 * wb_random_i32(seed, 0, j, 0, INPUT_MAX) + 1; }
};

static void fresh_renew(State *s, uint64_t seed) { wb_fill_i32_gpu(s->d_in, (size_t)s->n, seed, 0, 0, INPUT_MAX); }

static void fresh_verify(State *s, uint64_t seed, unsigned rep, unsigned long long *fault)
{
    wb_fresh_check(s->d_out, (size_t)s->n, fresh_expect{seed}, rep, fault);
}

static double speed_of_light(State *s, int warmup, int reps, const char **name)
{
    return wb_sol_copy(s->d_out, s->d_in, sizeof(int) * (size_t)s->n, warmup, reps, name);
}

static void expected_slice(const void *state, size_t first, size_t count, int *expected)
{
    const State *s = (const State *)state;
    affine_cpu(s->h_in, (int)first, (int)count, expected);
}

static void check(State *s, const void *result, wb_check *chk)
{
    wb_check_i32_slices(chk, (size_t)s->n, expected_slice, s, (const int *)result);
}

int main(int argc, char **argv)
{
    static const wb_chapter chapter = {
        .cli = {.id = "@N@-@NAME@", .title = "@NAME@ (the scaffold's example: out[i] = 3*in[i] + 1)",
                WB_VARIANTS(variants), .dims = 1, .max_dim = 1 << 30,
                .size_help = "N: number of ints, 1 to 2^30 (the kernels index with int)", .default_sizes = "2^26"},
        .table = {.unit = "GB/s"}, .device_bytes = bytes_moved /* an input and an output of n ints */,
        .work = bytes_moved, .setup = setup, .speed_of_light = speed_of_light, .check = check,
        .fresh = {fresh_renew, fresh_verify},
    };
    State state = {};
    return wb_main(argc, argv, &chapter, &state);
}
