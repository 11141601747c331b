/*
 * Planted bugs for tests/test_inspect.c: a chapter-shaped program (wb_main, `--list --json -`) whose
 * variants each carry one bug that one compute-sanitizer tool must report, so `inspect sanitize`
 * (make sanitize) is tested on findings, not only on clean code. Array reversal, as in chapter 1.
 *
 *   clean              the shared-memory reversal, correct: every tool must stay silent
 *   race               the same without __syncthreads(): racecheck reports a shared-memory hazard
 *   out-of-bounds      thread n also writes, to out[-1]: memcheck reports an invalid global write
 *   uninitialized      also reads a buffer nothing ever wrote: initcheck reports it
 *   divergent-barrier  __syncthreads() reached by whole warps of only half the block: on sm_90 synccheck
 *                      stays silent (exited warps do not hang the barrier), but racecheck reports the
 *                      race it leaves behind
 *   bad-syncwarp       __syncwarp(mask) called by lanes that are not in the mask: synccheck reports it
 */
#include "wb.h"

#define BLOCK 256

__global__ void planted_clean(const int *in, int *out, int n)
{
    __shared__ int tile[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    if (i < n) tile[BLOCK - 1 - t] = in[i];
    __syncthreads();
    int src = blockIdx.x * BLOCK + (BLOCK - 1 - t);
    if (src < n) out[n - 1 - src] = tile[t];
}

__global__ void planted_race(const int *in, int *out, int n)
{
    __shared__ int tile[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    if (i < n) tile[BLOCK - 1 - t] = in[i];
    /* the barrier is missing: thread t reads what thread BLOCK-1-t, in another warp, may not have written */
    int src = blockIdx.x * BLOCK + (BLOCK - 1 - t);
    if (src < n) out[n - 1 - src] = tile[t];
}

__global__ void planted_out_of_bounds(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) out[n - 1 - i] = i < n ? in[i] : 0; /* `<=`: i == n writes out[-1] */
}

__global__ void planted_uninitialized(const int *in, const int *never_written, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[n - 1 - i] = in[i] + (never_written[i] == 0x7fffffff);
}

__global__ void planted_divergent_barrier(const int *in, int *out, int n)
{
    __shared__ int tile[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    if (i < n) tile[BLOCK - 1 - t] = in[i];
    if (t < BLOCK / 2) __syncthreads(); /* half of the block never arrives */
    int src = blockIdx.x * BLOCK + (BLOCK - 1 - t);
    if (src < n) out[n - 1 - src] = tile[t];
}

__global__ void planted_bad_syncwarp(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    __syncwarp(0x0000ffffu); /* lanes 16..31 call it too, but the mask names only lanes 0..15 */
    if (i < n) out[n - 1 - i] = v;
}

struct State {
    int n;
    int *h_in, *h_out;
    int *d_in, *d_out, *d_scratch;
};

static int blocks_for(int n) { return (n + BLOCK - 1) / BLOCK; }

static void launch_clean(State *s)
{
    planted_clean<<<blocks_for(s->n), BLOCK>>>(s->d_in, s->d_out, s->n);
    LAUNCH_CHECK();
}
static void launch_race(State *s)
{
    planted_race<<<blocks_for(s->n), BLOCK>>>(s->d_in, s->d_out, s->n);
    LAUNCH_CHECK();
}
static void launch_out_of_bounds(State *s)
{
    planted_out_of_bounds<<<blocks_for(s->n + 1), BLOCK>>>(s->d_in, s->d_out, s->n);
    LAUNCH_CHECK();
}
static void launch_uninitialized(State *s)
{
    planted_uninitialized<<<blocks_for(s->n), BLOCK>>>(s->d_in, s->d_scratch, s->d_out, s->n);
    LAUNCH_CHECK();
}
static void launch_divergent_barrier(State *s)
{
    planted_divergent_barrier<<<blocks_for(s->n), BLOCK>>>(s->d_in, s->d_out, s->n);
    LAUNCH_CHECK();
}

static void launch_bad_syncwarp(State *s)
{
    planted_bad_syncwarp<<<blocks_for(s->n), BLOCK>>>(s->d_in, s->d_out, s->n);
    LAUNCH_CHECK();
}

static double device_bytes(const wb_size *size) { return 3.0 * sizeof(int) * (double)size->d[0] + 1024; }
static double bytes_moved(const wb_size *size) { return 2.0 * sizeof(int) * (double)size->d[0]; }

static void setup(State *s, const wb_size *size, uint64_t seed, wb_output *out)
{
    s->n = (int)size->d[0];
    size_t bytes = sizeof(int) * (size_t)s->n;
    s->h_in = (int *)wb_host_alloc(bytes, "the input");
    wb_fill_i32(s->h_in, (size_t)s->n, seed, 0, 0, (1 << 30) - 1);
    s->d_in = (int *)wb_device_copy(s->h_in, bytes);
    s->d_out = (int *)wb_device_alloc(bytes);
    s->d_scratch = (int *)wb_device_alloc(bytes); /* deliberately never written */
    *out = wb_output{s->d_out, WB_ELEM_I32, (size_t)s->n};
}

static double speed_of_light(State *s, int warmup, int reps, const char **name)
{
    return wb_sol_copy(s->d_out, s->d_in, sizeof(int) * (size_t)s->n, warmup, reps, name);
}

static void check(State *s, const void *result, wb_check *chk)
{
    for (int j = 0; j < s->n; j++) {
        int expected = s->h_in[s->n - 1 - j];
        wb_check_i32(chk, (unsigned long long)j, &expected, (const int *)result + j, 1);
    }
}

static const wb_variant variants[] = {
    {"clean", "correct shared-memory reversal", "planted_clean", launch_clean},
    {"race", "no __syncthreads() between the tile's writes and reads", "planted_race", launch_race},
    {"out-of-bounds", "one thread too many writes out[-1]", "planted_out_of_bounds", launch_out_of_bounds},
    {"uninitialized", "reads memory nothing wrote", "planted_uninitialized", launch_uninitialized},
    {"divergent-barrier", "__syncthreads() in a branch", "planted_divergent_barrier", launch_divergent_barrier},
    {"bad-syncwarp", "__syncwarp(mask) from lanes outside the mask", "planted_bad_syncwarp", launch_bad_syncwarp},
};

int main(int argc, char **argv)
{
    const wb_chapter chapter = {
        .cli = {.id = "planted-bugs",
                .title = "planted bugs for the sanitizer tests",
                .variants = variants,
                .n_variants = WB_COUNT(variants),
                .dims = 1,
                .max_dim = 1 << 24,
                .size_help = "N: number of ints",
                .default_sizes = "1031"},
        .table = {.unit = "GB/s", .extra_name = NULL, .has_pre = 0},
        .device_bytes = device_bytes,
        .work = bytes_moved,
        .setup = setup,
        .speed_of_light = speed_of_light,
        .check = check,
    };
    State state = {};
    return wb_main(argc, argv, &chapter, &state);
}
