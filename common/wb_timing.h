/*
 * wb_timing.h — the output the variants write, its poison, and timing them. CUDA only (included by
 * wb.h under nvcc).
 *
 *   wb_output, wb_poison ......... the result buffer a chapter describes, poisoned before each run
 *   wb_time_ms, wb_time_median_ms  the median of timed repetitions (with --grading: the whole GPU, CPU time)
 *   wb_sol_copy, wb_budget_reps .. the copy speed of light; fewer repetitions for a slow variant
 */
#ifndef WB_TIMING_H
#define WB_TIMING_H
#ifdef __CUDACC__

#include "wb_cuda.h"

/* ---------------------------------------------------------------- timing */
/* The result a chapter's variants write: wb_main poisons it before each run, copies it back, hands it
 * to the chapter's check and writes it for --dump. The chapter describes it in its setup. */
typedef enum { WB_ELEM_I32, WB_ELEM_I64, WB_ELEM_F32 } wb_elem;

typedef struct {
    void *device;          /* where the variants write */
    wb_elem type;
    size_t count;          /* elements */
    const void *expected;  /* optional: the exact expected output on the host (the chapter needs no check) */
} wb_output;

static inline size_t wb_elem_size(wb_elem t) { return t == WB_ELEM_I64 ? 8 : 4; }
static inline size_t wb_output_bytes(const wb_output *o) { return o->count * wb_elem_size(o->type); }

/* Poisons n_bytes of device memory (see WB_POISON_BYTE). */
static inline void wb_poison(void *d_ptr, size_t n_bytes)
{
    CUDA_CHECK(cudaMemset(d_ptr, WB_POISON_BYTE, n_bytes));
}

/* --grading (set by wb_main): a timed interval ends only after all work on the GPU, on any stream. */
static int wb_grading;

static inline int wb_cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static inline double wb_clock_ms(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

/* What a cudaDeviceSynchronize() costs the host when the GPU is idle (median of 5), in ms. */
static inline double wb_idle_sync_ms(void)
{
    double t[5];
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < 5; i++) {
        double t0 = wb_clock_ms(CLOCK_MONOTONIC);
        CUDA_CHECK(cudaDeviceSynchronize());
        t[i] = wb_clock_ms(CLOCK_MONOTONIC) - t0;
    }
    for (int i = 1; i < 5; i++) /* insertion sort of five */
        for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
            double x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
        }
    return t[2];
}

/* Median of `reps` timed runs of fn() after `warmup` untimed ones, each run between two events on the
 * default stream. With --grading, work that is still running when the stop event completes (launched
 * on another stream, say) is waited for, and the wait beyond an idle synchronisation is added to the
 * run's time: all streams count, and honest runs pay nothing for it. With `poison`, the output is
 * poisoned before every run (outside the interval), so each run must write it. cpu_ms (may be NULL):
 * the host CPU time spent inside fn() per timed run, i.e. the launcher's own work on the host. */
template <class F>
static inline double wb_time_ms(F fn, int warmup, int reps, const wb_output *poison, double *cpu_ms = NULL)
{
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < warmup; i++) fn();
    CUDA_CHECK(cudaDeviceSynchronize());
    double idle = wb_grading ? wb_idle_sync_ms() : 0, cpu = 0;
    float *t = (float *)malloc(sizeof(float) * (size_t)reps);
    for (int i = 0; i < reps; i++) {
        if (poison) wb_poison(poison->device, wb_output_bytes(poison));
        CUDA_CHECK(cudaEventRecord(start, 0));
        double c0 = wb_clock_ms(CLOCK_PROCESS_CPUTIME_ID);
        fn();
        cpu += wb_clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
        CUDA_CHECK(cudaEventRecord(stop, 0));
        CUDA_CHECK(cudaEventSynchronize(stop));
        CUDA_CHECK(cudaEventElapsedTime(&t[i], start, stop));
        if (wb_grading) {
            double h0 = wb_clock_ms(CLOCK_MONOTONIC);
            CUDA_CHECK(cudaDeviceSynchronize());
            double hidden = wb_clock_ms(CLOCK_MONOTONIC) - h0 - idle;
            if (hidden > 0.005) t[i] += (float)hidden;
        }
    }
    if (cpu_ms) *cpu_ms = cpu / reps;
    qsort(t, (size_t)reps, sizeof(float), wb_cmp_float);
    double median = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
    free(t);
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    return median;
}

static inline double wb_time_median_ms(void (*fn)(State *), State *s, int warmup, int reps)
{
    return wb_time_ms([&] { fn(s); }, warmup, reps, NULL);
}

/* The speed of light of a chapter that moves bytes: GB/s of a device-to-device copy of `bytes` (read
 * once, written once) on the chapter's own buffers. */
static inline double wb_sol_copy(void *dst, const void *src, size_t bytes, int warmup, int reps, const char **name)
{
    *name = "memcpy D2D";
    double ms = wb_time_ms([&] { CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, 0)); },
                           warmup, reps, NULL);
    return 2.0 * (double)bytes / (ms * 1e-3) / 1e9;
}

/* Without --reps, a variant whose one run takes over 100 ms (a slow first variant at a large default
 * size) is timed about one second's worth, at least 3 runs after one warm-up: a student's first run of
 * a chapter answers in seconds. With --reps (the grader always gives it) the count is exact. */
static inline void wb_budget_reps(void (*fn)(State *), State *s, int *warmup, int *reps)
{
    double once = wb_time_median_ms(fn, s, 0, 1);
    if (once <= 100) return;
    int budget = (int)(1000 / once);
    *reps = budget < 3 ? 3 : budget < *reps ? budget : *reps;
    *warmup = *warmup < 1 ? *warmup : 1;
}

#endif /* __CUDACC__ */
#endif /* WB_TIMING_H */
