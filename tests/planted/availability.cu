/*
 * Variants a GPU cannot run, for tests/test_avail_gpu.c: a chapter-shaped program (array reversal, as in
 * chapter 1) whose variants carry `unavailable` hooks (common/wb_avail.h), so the harness's N/A rows,
 * UNAVAILABLE lines, exit code and --list are tested on every GPU, and the probe of the code this build
 * really runs is tested on the builds of several architectures (tests/gpu-check.sh's probe step).
 *
 *   plain     no hook: runs everywhere
 *   nowhere   needs compute capability 99.0: unavailable on every GPU, with the decision's reason
 *   mute      a hook that answers "unavailable" without a reason: the harness gives one
 *   sm90a     wb_needs_sm90a: its kernel reverses only where it is compiled as sm_90a code and writes
 *             nothing elsewhere, so run where the probe says no it would be TODO, never a silent PASS
 *   sm90      wb_needs_sm90: the same for sm_90 code or later
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

/* The body exists only in sm_90a code: the code path the hook's probe must agree with. */
__global__ void reverse_sm90a(const int *in, int *out, int n)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || (defined(__CUDA_ARCH_SPECIFIC__) && __CUDA_ARCH_SPECIFIC__ == 900)
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[n - 1 - i] = in[i];
#endif
}

__global__ void reverse_sm90(const int *in, int *out, int n)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[n - 1 - i] = in[i];
#endif
}

static void launch_plain(State *s)
{
    reverse<<<wb_ceil_div(s->n, BLOCK), BLOCK>>>(s->d_in, s->d_out, s->n);
    LAUNCH_CHECK();
}

static void launch_sm90a(State *s)
{
    reverse_sm90a<<<wb_ceil_div(s->n, BLOCK), BLOCK>>>(s->d_in, s->d_out, s->n);
    LAUNCH_CHECK();
}

static void launch_sm90(State *s)
{
    reverse_sm90<<<wb_ceil_div(s->n, BLOCK), BLOCK>>>(s->d_in, s->d_out, s->n);
    LAUNCH_CHECK();
}

static int needs_cc99(const wb_device *dev, char *why, size_t n) { return wb_needs_cc(dev, 99, 0, "a GPU that does not exist", why, n); }

static int mute(const wb_device *dev, char *why, size_t n) { return 1; }

static const wb_variant variants[] = {
    {.name = "plain", .idea = "the plain reversal", .kernels = "reverse", .launch = launch_plain},
    {.name = "nowhere", .idea = "needs a GPU that does not exist", .kernels = "reverse", .launch = launch_plain, .unavailable = needs_cc99},
    {.name = "mute", .idea = "unavailable without a reason", .kernels = "reverse", .launch = launch_plain, .unavailable = mute},
    {.name = "sm90a", .idea = "reverses in sm_90a code only", .kernels = "reverse_sm90a", .launch = launch_sm90a, .unavailable = wb_needs_sm90a},
    {.name = "sm90", .idea = "reverses in sm_90 code only", .kernels = "reverse_sm90", .launch = launch_sm90, .unavailable = wb_needs_sm90},
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

static void check(State *s, const void *result, wb_check *chk)
{
    for (int j = 0; j < s->n; j++) wb_check_i32(chk, (unsigned long long)j, &s->h_in[s->n - 1 - j], (const int *)result + j, 1);
}

int main(int argc, char **argv)
{
    static const wb_chapter chapter = {
        .cli = {.id = "planted-avail", .title = "variants a GPU cannot run, for the availability tests",
                WB_VARIANTS(variants), .dims = 1, .max_dim = 1 << 28, .size_help = "N: number of ints",
                .default_sizes = "1000003"},
        .table = {.unit = "GB/s"}, .device_bytes = bytes_moved, .work = bytes_moved,
        .setup = setup, .speed_of_light = speed_of_light, .check = check,
    };
    State state = {};
    return wb_main(argc, argv, &chapter, &state);
}
