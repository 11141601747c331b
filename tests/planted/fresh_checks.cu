/*
 * The per-repetition checks of --grading (common/wb_fresh.h) on outputs of each type, for tests/test_fresh.c:
 * an int32, int64, float and double output (and an int64 one against an expected array on the GPU) written
 * right, then with one element planted wrong. Each case prints one line, "ok NAME" when the check found what
 * it must (no fault on the right output, the planted place on the wrong one), else "WRONG NAME: …"; exit 0
 * when every case is ok, 1 otherwise, 3 without a GPU (wb_device_init).
 *
 * The int64 values pass 2^32 (a check that compared 32 bits would miss the planted fault), the float cases
 * plant an element just outside its bound, a NaN, and the poison where the reference is 0 (within any
 * absolute bound of 0, yet never written). n is odd and spans many blocks.
 */
#include "wb.h"

#define N 100003
#define REP 2

struct i32_expect {
    __device__ int32_t operator()(size_t j) const { return (int32_t)(7 * (int64_t)j) - 1000; }
};
struct i64_expect {
    __device__ int64_t operator()(size_t j) const { return (int64_t)j * 3000000000LL + 1; }
};
struct f32_expect {
    __device__ wb_near operator()(size_t j) const { return {0.5 * (double)j, 1e-3}; }
};
struct f64_expect {
    __device__ wb_near operator()(size_t j) const { return {0.25 * (double)j + 1e10, 1e-6}; }
};

/* The key the check left (WB_FAULT_NONE: none), after running it on the host values h. */
template <class T, class E>
static unsigned long long run_check(const T *h, E expect)
{
    T *d = (T *)wb_device_alloc(sizeof(T) * N);
    unsigned long long *fault = (unsigned long long *)wb_device_alloc(sizeof *fault), key;
    CUDA_CHECK(cudaMemcpy(d, h, sizeof(T) * N, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(fault, 0xFF, sizeof *fault));
    wb_fresh_check(d, N, expect, REP, fault);
    CUDA_CHECK(cudaMemcpy(&key, fault, sizeof key, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d));
    CUDA_CHECK(cudaFree(fault));
    return key;
}

static int report(const char *name, unsigned long long got, long long at)
{
    unsigned long long want = at < 0 ? WB_FAULT_NONE : wb_fault_key(REP, WB_FAULT_AT, (unsigned long long)at);
    char s[96] = "no fault";
    if (got != WB_FAULT_NONE) wb_fault_str(got, REP + 1, s, sizeof s);
    if (got == want) printf("ok %s\n", name);
    else printf("WRONG %s: %s, expected %s\n", name, s, at < 0 ? "no fault" : "the planted place");
    return got != want;
}

/* Right, then wrong at `at` by `bad`: two cases of one output type. */
template <class T, class E>
static int right_then_wrong(const char *type, T *h, E expect, size_t at, T bad, const char *how)
{
    char name[64];
    snprintf(name, sizeof name, "%s-right", type);
    int fails = report(name, run_check(h, expect), -1);
    T keep = h[at];
    h[at] = bad;
    snprintf(name, sizeof name, "%s-%s", type, how);
    fails += report(name, run_check(h, expect), (long long)at);
    h[at] = keep;
    return fails;
}

__global__ void expected_i64(int64_t *want)
{
    for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < N; j += (size_t)gridDim.x * blockDim.x)
        want[j] = (int64_t)j * 3000000000LL + 1;
}

int main(void)
{
    wb_device dev;
    wb_device_init(&dev);
    int fails = 0;
    int32_t *a = (int32_t *)malloc(sizeof *a * N);
    int64_t *b = (int64_t *)malloc(sizeof *b * N);
    float *c = (float *)malloc(sizeof *c * N);
    double *d = (double *)malloc(sizeof *d * N);
    for (size_t j = 0; j < N; j++) {
        a[j] = (int32_t)(7 * (int64_t)j) - 1000;
        b[j] = (int64_t)j * 3000000000LL + 1;
        c[j] = (float)(0.5 * (double)j + 0.9e-3); /* within the bound */
        d[j] = 0.25 * (double)j + 1e10;
    }
    fails += right_then_wrong("i32", a, i32_expect{}, 777, a[777] + 1, "off-by-one");
    /* wrong only above bit 32: its low 32 bits are right */
    fails += right_then_wrong("i64", b, i64_expect{}, 90001, (int64_t)(b[90001] + (1LL << 32)), "high-bits");
    fails += right_then_wrong("f32", c, f32_expect{}, 5000, (float)(2500.0 + 1.1e-3), "outside-bound");
    fails += right_then_wrong("f32", c, f32_expect{}, 12, nanf(""), "nan");
    float poison;
    memset(&poison, WB_POISON_BYTE, sizeof poison);
    c[0] = 0.0f;
    fails += right_then_wrong("f32", c, f32_expect{}, 0, poison, "poison-at-zero");
    fails += right_then_wrong("f64", d, f64_expect{}, N - 1, d[N - 1] + 2e-6, "outside-bound");
    int64_t *want = (int64_t *)wb_device_alloc(sizeof *want * N);
    expected_i64<<<wb_fresh_grid(N), WB_FRESH_BLOCK>>>(want);
    LAUNCH_CHECK();
    fails += right_then_wrong("i64-from", b, wb_fresh_from<int64_t>{want}, 31, b[31] - 1, "off-by-one");
    free(a), free(b), free(c), free(d);
    return fails ? WB_EXIT_WRONG : WB_EXIT_PASS;
}
