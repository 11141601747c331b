/*
 * fakedrv.h — a host-only stand-in for wb_main, so that the grader can be tested end to end without a
 * GPU (tests/test_grading_e2e.c): the same command line (wb_parse_args), --list --json, --dump files,
 * JSON lines, poisoned outputs, exit codes. "Kernels" are plain C loops timed with the wall clock.
 * --grading as CONTRACT.md says: every timed repetition poisoned and the last one checked (timed_check),
 * one run on inputs from seed ^ WB_ROTATED_SEED (rotated_check), the CPU time inside the "launcher"
 * (cpu_ms), and a CEILING line. Inputs are read-only in every run (fake_guard). The fake's ceiling is
 * eight times the rate of a memcpy of the same bytes: the "kernels" are scalar loops timed on a shared,
 * busy CPU, and an honest loop must never be near it. Built with -DFAKE_UNAVAILABLE=K, variant K is one this
 * "GPU" cannot run (CONTRACT.md, "Variants a GPU cannot run"): not run, an UNAVAILABLE line with its reason;
 * with -DFAKE_DODGE_SANITIZER=K it says so only under the fake compute-sanitizer (a student's dodge).
 */
#ifndef FAKEDRV_H
#define FAKEDRV_H

#include <time.h>

#include "wb.h"

typedef void (*fake_fn)(const int32_t *in, int32_t *out, int n);
typedef struct {
    const char *name, *kernels;
    fake_fn fn;
} fake_variant;

static double fake_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static double fake_cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/* Bytes a run moves (read the input, write the output): the fake's unit of work, in GB/s. */
static void fake_json_rate(FILE *json, int n, double ms)
{
    if (ms > 0) fprintf(json, ",\"throughput\":%.6g,\"unit\":\"GB/s\"", 8.0 * n / (ms * 1e6));
    else fputs(",\"throughput\":null,\"unit\":\"GB/s\"", json);
}

static int fake_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The reference of each variant, by name: "plus" adds one, "reverse" reverses. */
static void fake_expected(const char *name, const int32_t *in, int32_t *out, int n)
{
    for (int i = 0; i < n; i++) {
        if (!strcmp(name, "plus")) out[i] = in[i] + 1;
        else out[n - 1 - i] = in[i];
    }
}

/* Inputs are read-only (CONTRACT.md), as wb.h's wb_guard_inputs does it, the host array standing for the
 * device input: a variant that changed it is told where (*written: the first changed element, kept from
 * its first run that changed it), and the input is put back for the next variant. */
static void fake_guard(int32_t *in, const int32_t *pristine, int n, uint64_t sum, long long *written)
{
    if (wb_checksum64(in, 4 * (size_t)n) == sum) return;
    if (*written < 0) *written = wb_first_diff(pristine, in, 4 * (size_t)n) / 4;
    memcpy(in, pristine, 4 * (size_t)n);
}

/* Runs a variant once on fresh inputs from `seed`, from a poisoned output; 1 if right. */
static int fake_rotated(const fake_variant *var, int n, uint64_t seed)
{
    int32_t *in = malloc(4 * (size_t)n), *out = malloc(4 * (size_t)n), *exp = malloc(4 * (size_t)n);
    wb_fill_i32(in, (size_t)n, seed, 0, 0, (1 << 30) - 1);
    memset(out, WB_POISON_BYTE, 4 * (size_t)n);
    fake_expected(var->name, in, exp, n); /* from the inputs as set up, as wb.h's checks are */
    var->fn(in, out, n);
    int ok = memcmp(out, exp, 4 * (size_t)n) == 0;
    free(in);
    free(out);
    free(exp);
    return ok;
}

static int fake_main(int argc, char **argv, const fake_variant *vars, int nv)
{
    wb_variant info[8];
    for (int v = 0; v < nv; v++) info[v] = (wb_variant){vars[v].name, "a loop", vars[v].kernels, NULL, NULL, NULL, NULL};
    wb_cli cli = {.id = "9-fake", .title = "fake chapter", .variants = info, .n_variants = nv, .dims = 1,
                  .max_dim = 1 << 26, .size_help = "N", .default_sizes = "1000"};
    wb_options o;
    char err[256];
    if (wb_parse_args(argc, argv, &cli, &o, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", argv[0], err);
        return WB_EXIT_USAGE;
    }
    static const char unavailable[] = "needs sm_90a code for wgmma; this GPU is the fake's";
#if defined FAKE_UNAVAILABLE
    const int na = FAKE_UNAVAILABLE;
#elif defined FAKE_DODGE_SANITIZER
    const int na = getenv("FAKE_UNDER_SANITIZER") ? FAKE_DODGE_SANITIZER : -1;
#else
    const int na = -1;
#endif
    if (o.list) {
        for (int v = 0; v < nv; v++) {
            printf("{\"variant\":\"%s\",\"idea\":\"a loop\",\"kernels\":\"%s\"", vars[v].name, vars[v].kernels);
            if (v == na) printf(",\"available\":false,\"unavailable_reason\":\"%s\"", unavailable);
            printf("}\n");
        }
        return 0;
    }
#ifdef FAKE_NO_GPU
    /* tests/test_not_graded.c: a machine without a GPU as every real program meets it (CONTRACT.md: one
     * line, exit 3); --list still answers, as it needs no device */
    fprintf(stderr, "no CUDA device found: no NVIDIA driver is loaded (the fake chapter, built with -DFAKE_NO_GPU)\n");
    return WB_EXIT_NO_DEVICE;
#endif
#if defined FAKE_OOM_ONCE || defined FAKE_OOM_ALWAYS
    /* tests/test_gpulock.c: GPU memory held by another run. ONCE: the first run in each folder finds none
     * free (the grader runs it again alone in the same folder); ALWAYS: the program's own demand. */
    FILE *tried = fopen("fake-oom-tried", "r");
    int oom = !tried;
    if (tried || (tried = fopen("fake-oom-tried", "w"))) fclose(tried);
#ifdef FAKE_OOM_ALWAYS
    oom = 1;
#endif
    if (oom) {
        fprintf(stderr, "fake.cu:1: CUDA error cudaErrorMemoryAllocation (out of memory) in cudaMalloc\n");
        return WB_EXIT_NO_MEMORY;
    }
#endif
    FILE *json = o.json_path ? (strcmp(o.json_path, "-") ? fopen(o.json_path, "w") : stdout) : NULL;
    int status = 0;
    for (int s = 0; s < o.n_sizes; s++) {
        int n = (int)o.sizes[s].d[0];
        int32_t *in = malloc(4 * (size_t)n), *out = malloc(4 * (size_t)n), *exp = malloc(4 * (size_t)n);
        wb_fill_i32(in, (size_t)n, o.seed, 0, 0, (1 << 30) - 1);
        int32_t *pristine = malloc(4 * (size_t)n);
        memcpy(pristine, in, 4 * (size_t)n);
        uint64_t in_sum = wb_checksum64(in, 4 * (size_t)n);
        double t[1000];
        int sol_reps = o.reps < WB_SOL_REPS ? o.reps : WB_SOL_REPS;
        for (int r = 0; r < sol_reps; r++) {
            double t0 = fake_now_ms();
            memcpy(out, in, 4 * (size_t)n);
            t[r] = fake_now_ms() - t0;
        }
        qsort(t, (size_t)sol_reps, sizeof t[0], fake_cmp);
        double copy_ms = t[sol_reps / 2];
        if (json) {
            fprintf(json, "{\"chapter\":\"9-fake\",\"variant\":\"memcpy\",\"size\":\"%d\",\"median_ms\":%.6g", n, copy_ms);
            fake_json_rate(json, n, copy_ms);
            fputs(",\"prep_ms\":null,\"verdict\":\"REFERENCE\"}\n", json);
        }
        if (json && o.grading) {
            fprintf(json, "{\"chapter\":\"9-fake\",\"variant\":\"memcpy\",\"size\":\"%d\",\"median_ms\":%.6g", n, copy_ms / 8);
            fake_json_rate(json, n, copy_ms / 8);
            fputs(",\"prep_ms\":null,\"verdict\":\"CEILING\"}\n", json);
        }
        for (int v = 0; v < nv; v++) {
            if (!(o.variant_mask & (1u << v))) continue;
            if (v == na) { /* not run: no dump, no time, the exit code unchanged */
                printf("  %-10s %-10d %10s  N/A: not available on this GPU: %s\n", vars[v].name, n, "-", unavailable);
                if (json)
                    fprintf(json, "{\"chapter\":\"9-fake\",\"variant\":\"%s\",\"size\":\"%d\",\"median_ms\":null,"
                                  "\"throughput\":null,\"unit\":\"GB/s\",\"prep_ms\":null,\"reps\":0,"
                                  "\"unavailable_reason\":\"%s\",\"verdict\":\"UNAVAILABLE\"}\n", vars[v].name, n, unavailable);
                continue;
            }
            memset(out, WB_POISON_BYTE, 4 * (size_t)n);
            fake_expected(vars[v].name, in, exp, n);
            vars[v].fn(in, out, n);
            long long written = -1;
            fake_guard(in, pristine, n, in_sum, &written);
            wb_check chk;
            wb_check_init(&chk, 0);
            wb_check_i32(&chk, 0, exp, out, (size_t)n);
            wb_verdict verdict = wb_check_verdict(&chk);
            if (o.dump_dir) {
                char path[1024];
                snprintf(path, sizeof path, "%s/%s_%d.bin", o.dump_dir, vars[v].name, n);
                FILE *f = fopen(path, "wb");
                if (!f || fwrite(out, 4, (size_t)n, f) != (size_t)n || fclose(f)) return WB_EXIT_IO;
            }
            double ms = -1, cpu = 0;
            int timed_ok = 1, rotated_ok = 1;
            if (verdict != WB_TODO) {
                for (int r = 0; r < o.warmup; r++) vars[v].fn(in, out, n);
                for (int r = 0; r < o.reps; r++) {
                    if (o.grading) memset(out, WB_POISON_BYTE, 4 * (size_t)n);
                    double t0 = fake_now_ms(), c0 = fake_cpu_ms();
                    vars[v].fn(in, out, n);
                    t[r] = fake_now_ms() - t0;
                    cpu += fake_cpu_ms() - c0;
                }
                qsort(t, (size_t)o.reps, sizeof t[0], fake_cmp);
                ms = t[o.reps / 2];
                fake_guard(in, pristine, n, in_sum, &written);
                if (o.grading) {
                    timed_ok = memcmp(out, exp, 4 * (size_t)n) == 0;
                    rotated_ok = fake_rotated(&vars[v], n, o.seed ^ WB_ROTATED_SEED);
                    if (!timed_ok || !rotated_ok) verdict = WB_FAIL;
                }
            }
            if (written >= 0) verdict = WB_FAIL;
            if (verdict != WB_PASS) status = WB_EXIT_WRONG;
            printf("  %-10s %-10d %10.4f  %s\n", vars[v].name, n, ms, wb_verdict_name(verdict));
            if (json) {
                fprintf(json, "{\"chapter\":\"9-fake\",\"variant\":\"%s\",\"size\":\"%d\",\"median_ms\":", vars[v].name, n);
                if (ms >= 0) fprintf(json, "%.6g", ms);
                else fputs("null", json);
                fake_json_rate(json, n, ms);
                if (ms > 0) fprintf(json, ",\"sol_pct\":%.6g", 100 * copy_ms / ms); /* the copy is its speed of light */
                if (o.grading && ms >= 0)
                    fprintf(json, ",\"timed_check\":\"%s\",\"rotated_check\":\"%s\",\"cpu_ms\":%.6g",
                            timed_ok ? "PASS" : "FAIL", rotated_ok ? "PASS" : "FAIL", cpu / o.reps);
                if (written >= 0)
                    fprintf(json, ",\"" WB_JSON_INPUT_WRITTEN "\":%lld,\"" WB_JSON_INPUT_WRITTEN_NAME "\":\"input 0\"", written);
                fprintf(json, ",\"prep_ms\":null,\"verdict\":\"%s\"}\n", wb_verdict_name(verdict));
            }
        }
        free(in);
        free(pristine);
        free(out);
        free(exp);
    }
    printf("%s\n", status ? "FAIL" : "PASS");
    if (json && json != stdout) fclose(json);
    return status;
}

#endif /* FAKEDRV_H */
