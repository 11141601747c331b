/*
 * Variants that write their own input, for tests/test_grading_mode.c: a chapter-shaped program (array
 * reversal, as in chapter 1) on which the harness's read-only input check (common/wb_inputs.h, wb.h's
 * wb_guard_inputs) is tested. Each of the first two leaves a right result and a changed input; the
 * honest variant after them must still get its inputs as generated.
 *
 *   zeroes-input  reverses, then zeroes its device input from element ZERO_FROM on (as a sum that
 *                 clears what it has summed): restored from the host original
 *   host-too      the same from element HOST_FROM on, and zeroes the host array it was copied from as
 *                 well: only setting the size up again restores it
 *   honest        the plain reversal
 */
#include "wb.h"

#define BLOCK 256
#define ZERO_FROM 7
#define HOST_FROM 11

struct State {
    int n;
    int *h_in, *d_in, *d_out;
};

__global__ void reverse(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[n - 1 - i] = in[i];
}

__global__ void zero_from(int *in, int from, int n)
{
    int i = from + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) in[i] = 0;
}

static void launch_honest(State *s)
{
    reverse<<<wb_ceil_div(s->n, BLOCK), BLOCK>>>(s->d_in, s->d_out, s->n);
    LAUNCH_CHECK();
}

static void reverse_then_zero(State *s, int from)
{
    launch_honest(s);
    if (from >= s->n) return;
    zero_from<<<wb_ceil_div(s->n - from, BLOCK), BLOCK>>>(s->d_in, from, s->n);
    LAUNCH_CHECK();
}

static void launch_zeroes_input(State *s) { reverse_then_zero(s, ZERO_FROM); }

static void launch_host_too(State *s)
{
    reverse_then_zero(s, HOST_FROM);
    if (HOST_FROM < s->n) memset(s->h_in + HOST_FROM, 0, sizeof(int) * (size_t)(s->n - HOST_FROM));
}

static const wb_variant variants[] = {
    {"zeroes-input", "reverses, then zeroes its device input", "reverse", launch_zeroes_input},
    {"host-too", "reverses, then zeroes its input on the device and the host", "reverse", launch_host_too},
    {"honest", "the plain reversal", "reverse", launch_honest},
};

static double bytes_moved(const wb_size *size) { return 2.0 * sizeof(int) * (double)size->d[0]; }

static void setup(State *s, const wb_size *size, uint64_t seed, wb_output *out)
{
    s->n = (int)size->d[0];
    s->h_in = (int *)wb_host_alloc(sizeof(int) * (size_t)s->n, "the input");
    /* Positive inputs: a zeroed element always differs from what was generated. */
    wb_fill_i32(s->h_in, (size_t)s->n, seed, 0, 1, (1 << 30) - 1);
    s->d_in = (int *)wb_device_copy(s->h_in, sizeof(int) * (size_t)s->n);
    s->d_out = (int *)wb_device_alloc(sizeof(int) * (size_t)s->n);
    *out = wb_output{s->d_out, WB_ELEM_I32, (size_t)s->n};
}

static double speed_of_light(State *s, int warmup, int reps, const char **name)
{
    return wb_sol_copy(s->d_out, s->d_in, sizeof(int) * (size_t)s->n, warmup, reps, name);
}

/* Against the host array: after host-too, only an input set up again makes this right for the next. */
static void check(State *s, const void *result, wb_check *chk)
{
    for (int j = 0; j < s->n; j++) wb_check_i32(chk, (unsigned long long)j, &s->h_in[s->n - 1 - j], (const int *)result + j, 1);
}

int main(int argc, char **argv)
{
    static const wb_chapter chapter = {
        .cli = {.id = "planted-input-writes", .title = "variants that write their input, for the read-only input check",
                WB_VARIANTS(variants), .dims = 1, .max_dim = 1 << 28, .size_help = "N: number of ints",
                .default_sizes = "1000003"},
        .table = {.unit = "GB/s"}, .device_bytes = bytes_moved, .work = bytes_moved,
        .setup = setup, .speed_of_light = speed_of_light, .check = check,
    };
    State state = {};
    return wb_main(argc, argv, &chapter, &state);
}
