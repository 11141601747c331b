/*
 * wb_timing.h — the output the variants write, its poison, and timing them. CUDA only (included by
 * wb.h under nvcc).
 *
 *   wb_output, wb_poison ......... the result buffer a chapter describes, poisoned before each run
 *   wb_time_ms, wb_time_median_ms  the median of timed repetitions (with --grading: the whole GPU, CPU time)
 *   wb_time_fresh ................ --grading: each timed repetition on inputs of its own, its output checked
 *   wb_sol_copy, wb_budget_reps .. the copy speed of light; fewer repetitions for a slow variant
 */
#ifndef WB_TIMING_H
#define WB_TIMING_H
#ifdef __CUDACC__

#include "wb_cuda.h"
#include "wb_fresh.h"

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

/* One timed run of fn() between two events on the default stream. With --grading, work that is still
 * running when the stop event completes (launched on another stream, say) is waited for, and the wait
 * beyond an idle synchronisation (`idle`) is added to the run's time: all streams count, and honest runs
 * pay nothing for it. *cpu grows by the host CPU time spent inside fn(). */
template <class F>
static inline float wb_timed_once(F fn, cudaEvent_t start, cudaEvent_t stop, double idle, double *cpu)
{
    float t;
    CUDA_CHECK(cudaEventRecord(start, 0));
    double c0 = wb_clock_ms(CLOCK_PROCESS_CPUTIME_ID);
    fn();
    *cpu += wb_clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
    CUDA_CHECK(cudaEventRecord(stop, 0));
    CUDA_CHECK(cudaEventSynchronize(stop));
    CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
    if (wb_grading) {
        double h0 = wb_clock_ms(CLOCK_MONOTONIC);
        CUDA_CHECK(cudaDeviceSynchronize());
        double hidden = wb_clock_ms(CLOCK_MONOTONIC) - h0 - idle;
        if (hidden > 0.005) t += (float)hidden;
    }
    return t;
}

/* The median of t[0..n) (sorts it). */
static inline double wb_median_f(float *t, int n)
{
    qsort(t, (size_t)n, sizeof(float), wb_cmp_float);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* Median of `reps` timed runs of fn() (wb_timed_once) after `warmup` untimed ones. With `poison`, the
 * output is poisoned before every run (outside the interval), so each run must write it. cpu_ms (may be
 * NULL): the host CPU time spent inside fn() per timed run, i.e. the launcher's own work on the host. */
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
        t[i] = wb_timed_once(fn, start, stop, idle, &cpu);
    }
    if (cpu_ms) *cpu_ms = cpu / reps;
    double median = wb_median_f(t, reps);
    free(t);
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    return median;
}

/* ---------------------------------------------------------------- --grading: fresh inputs */
/* A chapter's two halves of a timed repetition on inputs of its own (both optional; without them the
 * repetitions share the check's inputs and only the last output is checked). Both only enqueue work on
 * the default stream: they run on the GPU between the timed intervals, never inside one.
 *   renew:  make every input anew from `seed` (wb_rep_seed) on the GPU, by the setup's recipe.
 *   verify: check the output of a run on renew(seed)'s inputs, recomputing what it must be from the
 *           recipe (never reading the inputs), and record the first wrong place with wb_fault(fault,
 *           wb_fault_key(rep, …)). Cheap: exact for integer chapters, a random projection or a sample
 *           where an exact check would cost as much as the work (the chapter says which, and why). */
typedef struct {
    void (*renew)(State *s, uint64_t seed);
    void (*verify)(State *s, uint64_t seed, unsigned rep, unsigned long long *fault);
} wb_fresh;

/* What wb_time_fresh measured: medians, CPU time per repetition, and the first fault (WB_FAULT_NONE: every
 * repetition right). */
typedef struct {
    double ms, pre_ms, cpu_ms;
    double rep_wall_ms;  /* wall clock per repetition, its untimed generation and check included */
    unsigned long long fault;
} wb_fresh_times;

/* One repetition's untimed part before its interval: inputs from its own seed, the output poisoned, the
 * L2's persisting lines made normal again (an access policy window set by a variant must not carry over;
 * the L2 is otherwise left as the generator and the check leave it, the same for every program), and
 * the variant's preprocessing (timed apart, in *pre) on the new inputs. */
static inline void wb_fresh_before(const wb_fresh *f, State *st, uint64_t seed, const wb_output *out,
                                   void (*prepare)(State *), cudaEvent_t p0, cudaEvent_t p1, float *pre)
{
    f->renew(st, seed);
    CUDA_CHECK(cudaMemsetAsync(out->device, WB_POISON_BYTE, wb_output_bytes(out), 0));
    if (cudaCtxResetPersistingL2Cache() != cudaSuccess) (void)cudaGetLastError(); /* none on this GPU */
    if (!prepare) return;
    CUDA_CHECK(cudaEventRecord(p0, 0));
    prepare(st);
    CUDA_CHECK(cudaEventRecord(p1, 0));
    CUDA_CHECK(cudaEventSynchronize(p1));
    CUDA_CHECK(cudaEventElapsedTime(pre, p0, p1));
}

/* --grading's timing of a chapter with wb_fresh: `warmup` untimed runs on the check's inputs, then `reps`
 * repetitions, repetition r on the inputs of wb_rep_seed(seed, r), each output checked on the GPU after
 * its interval. The inputs are left as the last repetition made them: the caller puts the check's back. */
static inline void wb_time_fresh(const wb_fresh *f, State *st, uint64_t seed, void (*launch)(State *),
                                 void (*prepare)(State *), int warmup, int reps, const wb_output *out,
                                 wb_fresh_times *res)
{
    cudaEvent_t ev[4];
    for (int k = 0; k < 4; k++) CUDA_CHECK(cudaEventCreate(&ev[k]));
    for (int i = 0; i < warmup; i++) launch(st);
    unsigned long long *fault;
    CUDA_CHECK(cudaMalloc(&fault, sizeof *fault));
    CUDA_CHECK(cudaMemset(fault, 0xFF, sizeof *fault)); /* WB_FAULT_NONE */
    CUDA_CHECK(cudaDeviceSynchronize());
    double idle = wb_idle_sync_ms(), cpu = 0;
    float *t = (float *)malloc(sizeof(float) * 2 * (size_t)reps), *pre = t + reps;
    double wall0 = wb_clock_ms(CLOCK_MONOTONIC);
    for (int r = 0; r < reps; r++) {
        uint64_t seed_r = wb_rep_seed(seed, (uint64_t)r);
        pre[r] = 0;
        wb_fresh_before(f, st, seed_r, out, prepare, ev[2], ev[3], &pre[r]);
        t[r] = wb_timed_once([&] { launch(st); }, ev[0], ev[1], idle, &cpu);
        f->verify(st, seed_r, (unsigned)r, fault);
    }
    CUDA_CHECK(cudaMemcpy(&res->fault, fault, sizeof *fault, cudaMemcpyDeviceToHost)); /* waits for the last check */
    res->rep_wall_ms = (wb_clock_ms(CLOCK_MONOTONIC) - wall0) / reps;
    res->cpu_ms = cpu / reps;
    res->ms = wb_median_f(t, reps);
    res->pre_ms = prepare ? wb_median_f(pre, reps) : -1;
    free(t);
    CUDA_CHECK(cudaFree(fault));
    for (int k = 0; k < 4; k++) CUDA_CHECK(cudaEventDestroy(ev[k]));
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
