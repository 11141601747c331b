/*
 * Exploits of the timing, for tests/test_grading_mode.c: a chapter-shaped program (array reversal, as
 * in chapter 1) whose variants try what a student might, so --grading's checks are tested on the
 * harness itself (the grader's own suite is tests/cases/NN-name/exploits/).
 *
 *   honest            the plain reversal: every check passes
 *   first-call-only   computes on the first call, returns at once on every later one: the timed runs
 *                     leave the poison (timed_check FAIL)
 *   cached-copy       keeps a copy of its first result and copies it out later: wrong on every timed
 *                     repetition (each has inputs of its own) and on the rotated input
 *   content-cache     keeps its results keyed by a sample of its input's content and copies one back on a
 *                     hit (issue 41: right and fast when the timed runs saw the check's inputs); with
 *                     inputs of their own the timed runs never hit: it computes, and passes
 *   stale-by-one      hands back the previous call's result and computes this call's for the next one:
 *                     every output is one repetition late
 *   other-stream      launches on a cudaStreamNonBlocking stream and does not wait: the timing events
 *                     on the default stream would not see it; with --grading the time still includes it
 *   slow-other-stream the same with ten launches: the median must grow with them
 */
#include "wb.h"

#define BLOCK 256

struct State {
    int n;
    int *h_in, *d_in, *d_out;
};

__global__ void reverse(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[n - 1 - i] = in[i];
}

static void launch_honest(State *s)
{
    reverse<<<wb_ceil_div(s->n, BLOCK), BLOCK>>>(s->d_in, s->d_out, s->n);
    LAUNCH_CHECK();
}

static void launch_first_call_only(State *s)
{
    static int calls;
    if (calls++ == 0) launch_honest(s);
}

static void launch_cached_copy(State *s)
{
    static int *cache;
    size_t bytes = sizeof(int) * (size_t)s->n;
    if (!cache) {
        launch_honest(s);
        CUDA_CHECK(cudaMalloc(&cache, bytes));
        CUDA_CHECK(cudaMemcpy(cache, s->d_out, bytes, cudaMemcpyDeviceToDevice));
    } else {
        CUDA_CHECK(cudaMemcpyAsync(s->d_out, cache, bytes, cudaMemcpyDeviceToDevice, 0));
    }
}

/* The key: 64 elements spread over the input, copied to the host. */
static uint64_t content_key(State *s)
{
    int sample[64];
    for (int k = 0; k < 64; k++)
        CUDA_CHECK(cudaMemcpy(&sample[k], s->d_in + (size_t)k * (s->n / 64), sizeof(int), cudaMemcpyDeviceToHost));
    return wb_checksum64(sample, sizeof sample);
}

static void launch_content_cache(State *s)
{
    enum { SLOTS = 4 };
    static uint64_t keys[SLOTS];
    static int *results[SLOTS], used;
    size_t bytes = sizeof(int) * (size_t)s->n;
    uint64_t key = content_key(s);
    for (int k = 0; k < used; k++)
        if (keys[k] == key) {
            CUDA_CHECK(cudaMemcpyAsync(s->d_out, results[k], bytes, cudaMemcpyDeviceToDevice, 0));
            return;
        }
    launch_honest(s);
    if (used == SLOTS) return;
    CUDA_CHECK(cudaMalloc(&results[used], bytes));
    CUDA_CHECK(cudaMemcpyAsync(results[used], s->d_out, bytes, cudaMemcpyDeviceToDevice, 0));
    keys[used++] = key;
}

static void launch_stale_by_one(State *s)
{
    static int *next;
    size_t bytes = sizeof(int) * (size_t)s->n;
    if (!next) {
        CUDA_CHECK(cudaMalloc(&next, bytes));
        reverse<<<wb_ceil_div(s->n, BLOCK), BLOCK>>>(s->d_in, next, s->n);
        LAUNCH_CHECK();
    }
    CUDA_CHECK(cudaMemcpyAsync(s->d_out, next, bytes, cudaMemcpyDeviceToDevice, 0));
    reverse<<<wb_ceil_div(s->n, BLOCK), BLOCK>>>(s->d_in, next, s->n);
    LAUNCH_CHECK();
}

static void on_other_stream(State *s, int launches)
{
    static cudaStream_t side;
    if (!side) CUDA_CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
    for (int k = 0; k < launches; k++) {
        reverse<<<wb_ceil_div(s->n, BLOCK), BLOCK, 0, side>>>(s->d_in, s->d_out, s->n);
        LAUNCH_CHECK();
    }
}

static void launch_other_stream(State *s) { on_other_stream(s, 1); }
static void launch_slow_other_stream(State *s) { on_other_stream(s, 10); }

static const wb_variant variants[] = {
    {"honest", "the plain reversal", "reverse", launch_honest},
    {"first-call-only", "works on the first call only", "reverse", launch_first_call_only},
    {"cached-copy", "copies out its first result later", "reverse", launch_cached_copy},
    {"content-cache", "results keyed by the input's content", "reverse", launch_content_cache},
    {"stale-by-one", "hands back the previous call's result", "reverse", launch_stale_by_one},
    {"other-stream", "launches on a non-blocking stream", "reverse", launch_other_stream},
    {"slow-other-stream", "ten launches on a non-blocking stream", "reverse", launch_slow_other_stream},
};

static double bytes_moved(const wb_size *size) { return 2.0 * sizeof(int) * (double)size->d[0]; }

static void setup(State *s, const wb_size *size, uint64_t seed, wb_output *out)
{
    s->n = (int)size->d[0];
    s->h_in = (int *)wb_host_alloc(sizeof(int) * (size_t)s->n, "the input");
    wb_fill_i32(s->h_in, (size_t)s->n, seed, 0, 0, (1 << 30) - 1);
    s->d_in = (int *)wb_device_copy(s->h_in, sizeof(int) * (size_t)s->n);
    s->d_out = (int *)wb_device_alloc(sizeof(int) * (size_t)s->n);
    *out = wb_output{s->d_out, WB_ELEM_I32, (size_t)s->n};
}

static double speed_of_light(State *s, int warmup, int reps, const char **name)
{
    return wb_sol_copy(s->d_out, s->d_in, sizeof(int) * (size_t)s->n, warmup, reps, name);
}

/* --grading's timed repetitions on inputs of their own, as chapter 1 makes and checks them. */
/* What out[j] must be: the input's element n-1-j, from the recipe. */
struct fresh_expect {
    int n;
    uint64_t seed;
    __device__ int operator()(size_t j) const { return wb_random_i32(seed, 0, (size_t)n - 1 - j, 0, (1 << 30) - 1); }
};

static void fresh_renew(State *s, uint64_t seed) { wb_fill_i32_gpu(s->d_in, (size_t)s->n, seed, 0, 0, (1 << 30) - 1); }

static void fresh_verify(State *s, uint64_t seed, unsigned rep, unsigned long long *fault)
{
    wb_fresh_check_i32(s->d_out, (size_t)s->n, fresh_expect{s->n, seed}, rep, fault);
}

static void check(State *s, const void *result, wb_check *chk)
{
    for (int j = 0; j < s->n; j++) wb_check_i32(chk, (unsigned long long)j, &s->h_in[s->n - 1 - j], (const int *)result + j, 1);
}

int main(int argc, char **argv)
{
    static const wb_chapter chapter = {
        .cli = {.id = "planted-grading", .title = "exploits of the timing, for the --grading tests",
                WB_VARIANTS(variants), .dims = 1, .max_dim = 1 << 28, .size_help = "N: number of ints",
                .default_sizes = "1000003"},
        .table = {.unit = "GB/s"}, .device_bytes = bytes_moved, .work = bytes_moved,
        .setup = setup, .speed_of_light = speed_of_light, .check = check, .fresh = {fresh_renew, fresh_verify},
    };
    State state = {};
    return wb_main(argc, argv, &chapter, &state);
}
