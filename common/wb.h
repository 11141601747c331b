/*
 * wb.h — what every chapter of the workbook shares.
 *
 * Plain C (C99) plus, when compiled by nvcc, the CUDA parts. Everything is `static inline`, so a
 * chapter is one .cu file that includes this header and nothing else of ours.
 *
 *   the contract ........ contract.h: exit codes, poison, random inputs, sizes, dump names, verdicts
 *   command line ........ wb_cli.h: wb_parse_args   (pure: no printing, no exit; unit-tested)
 *   verification ........ wb_check.h: wb_check_*    (first few mismatches, then a count)
 *   output .............. wb_table.h: wb_table_*, wb_json_result
 *   CUDA (nvcc only) .... CUDA_CHECK, LAUNCH_CHECK, wb_time_median_ms, wb_device_init, wb_main
 */
#ifndef WB_H
#define WB_H

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "contract.h"
#include "wb_check.h"
#include "wb_cli.h"
#include "wb_table.h"

/* ================================================================ CUDA parts (nvcc only) */
#ifdef __CUDACC__
#include <cuda_runtime.h>

/* Names the failing call and where it is, then exits: a CUDA error leaves the context unusable. */
static inline void wb_cuda_check(cudaError_t e, const char *call, const char *file, int line)
{
    if (e == cudaSuccess) return;
    fprintf(stderr, "%s:%d: CUDA error %s (%s) in %s\n", file, line, cudaGetErrorName(e), cudaGetErrorString(e),
            call);
    exit(WB_EXIT_CUDA);
}
#define CUDA_CHECK(call) wb_cuda_check((call), #call, __FILE__, __LINE__)
/* After every <<<...>>>: catches bad launch configurations at once (kernel faults surface at the next
 * synchronising call, which CUDA_CHECK also catches). */
#define LAUNCH_CHECK() wb_cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)

static inline int wb_cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Median of `reps` timed runs of fn(s) after `warmup` untimed ones, each run between two events. */
static inline double wb_time_median_ms(void (*fn)(State *), State *s, int warmup, int reps)
{
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < warmup; i++) fn(s);
    CUDA_CHECK(cudaDeviceSynchronize());
    float *t = (float *)malloc(sizeof(float) * (size_t)reps);
    for (int i = 0; i < reps; i++) {
        CUDA_CHECK(cudaEventRecord(start, 0));
        fn(s);
        CUDA_CHECK(cudaEventRecord(stop, 0));
        CUDA_CHECK(cudaEventSynchronize(stop));
        CUDA_CHECK(cudaEventElapsedTime(&t[i], start, stop));
    }
    qsort(t, (size_t)reps, sizeof(float), wb_cmp_float);
    double median = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
    free(t);
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    return median;
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

/* Blocks (or chunks) needed to cover n items, per_block at a time. */
static inline int wb_ceil_div(long long n, long long per_block) { return (int)((n + per_block - 1) / per_block); }

/* Host memory for `what`, or exit with a plain message: running out of host memory is not a CUDA error
 * (exit code WB_EXIT_CUDA all the same: the run could not go on). */
static inline void *wb_host_alloc(size_t bytes, const char *what)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of host memory: %.2f GB for %s could not be allocated\n", bytes / 1e9, what);
        exit(WB_EXIT_CUDA);
    }
    return p;
}

typedef struct {
    cudaDeviceProp prop;
    size_t free_bytes, total_bytes;
} wb_device;

/* The one probe for a usable GPU (chapters, doctor, look-inside tool): 0 with *dev filled in, or
 * WB_EXIT_NO_DEVICE with the one plain reason in why (the same wording everywhere). Never exits. */
static inline int wb_device_probe(wb_device *dev, char *why, size_t len)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        int driver = 0;
        cudaDriverGetVersion(&driver);
        snprintf(why, len, "no CUDA device found: %s",
                 driver == 0 ? "no NVIDIA driver is loaded (is there a GPU in this machine?)"
                 : e != cudaSuccess ? cudaGetErrorString(e)
                                    : "the driver reports 0 devices");
        return WB_EXIT_NO_DEVICE;
    }
    e = cudaSetDevice(0);
    if (e == cudaSuccess) e = cudaMemGetInfo(&dev->free_bytes, &dev->total_bytes);
    if (e == cudaSuccess) e = cudaGetDeviceProperties(&dev->prop, 0);
    if (e != cudaSuccess) {
        snprintf(why, len, "no usable CUDA device: %s", cudaGetErrorString(e));
        return WB_EXIT_NO_DEVICE;
    }
    return 0;
}

/* Exits with WB_EXIT_NO_DEVICE and one plain line when there is no usable GPU. */
static inline void wb_device_init(wb_device *dev)
{
    char why[256];
    if (wb_device_probe(dev, why, sizeof why)) {
        fprintf(stderr, "%s. This program needs an NVIDIA GPU (see `make doctor`).\n", why);
        exit(WB_EXIT_NO_DEVICE);
    }
}

/* Poisons n_bytes of device memory (see WB_POISON_BYTE). */
static inline void wb_poison(void *d_ptr, size_t n_bytes)
{
    CUDA_CHECK(cudaMemset(d_ptr, WB_POISON_BYTE, n_bytes));
}

/* ---------------------------------------------------------------- the chapter driver */
/* The result a chapter's variants write: wb_main poisons it before each run, copies it back, hands it
 * to the chapter's check and writes it for --dump. The chapter fills this in its setup. */
typedef enum { WB_ELEM_I32, WB_ELEM_I64, WB_ELEM_F32 } wb_elem;

typedef struct {
    void *device;       /* where the variants write (cudaMalloc'd by the chapter) */
    void *host;         /* where wb_main copies it back (allocated by the chapter) */
    wb_elem type;
    size_t count;       /* elements */
} wb_output;

static inline size_t wb_elem_size(wb_elem t) { return t == WB_ELEM_I64 ? 8 : 4; }

/* A chapter is its variant table plus a few functions on its own State; wb_main does the rest the same
 * way in every chapter: parse, find the GPU, check the memory fits, and for each size set up inputs
 * and the CPU reference, measure the speed of light, then for each variant poison, run once, copy
 * back, check, dump, time. */
typedef struct {
    wb_cli cli;
    wb_table table;
    double work_scale;               /* throughput = work / seconds / work_scale */
    /* Bytes of GPU memory a size needs, so too-large sizes are refused (or defaults scaled down). */
    double (*device_bytes)(const wb_size *size);
    /* Units of work one run does (bytes moved, flops, min-plus steps). */
    double (*work)(const wb_size *size);
    /* Allocate, fill inputs from seed, compute what the check needs, and describe the output. */
    void (*setup)(State *s, const wb_size *size, uint64_t seed, wb_output *out);
    /* Measure the speed of light on the same data; returns it in the chapter's unit, names it. */
    double (*speed_of_light)(State *s, int warmup, int reps, const char **name);
    /* Compare the result (out.host, copied back) with the reference. */
    void (*check)(State *s, const void *result, wb_check *check);
    void (*teardown)(State *s);
} wb_chapter;

/* --json FILE is written to FILE.partial and renamed when the run completes (exit 0 or 1), so a run
 * that finds no GPU, fails or is stopped never empties or damages an earlier FILE. */
static char wb_json_partial[4096];
static void wb_json_discard(void)
{
    if (wb_json_partial[0]) unlink(wb_json_partial);
}

/* A default size that does not fit this GPU is halved (every extent for MxNxK) until it does, with a
 * note; an explicit --size that does not fit is a usage error. Returns 0, or the exit code. */
static inline int wb_fit_sizes(const char *prog, const wb_chapter *ch, wb_options *o, const wb_device *dev)
{
    for (int s = 0; s < o->n_sizes; s++) {
        wb_size *size = &o->sizes[s];
        char before[48], after[48];
        wb_size_str(size, before, sizeof before);
        double need = ch->device_bytes(size);
        while (o->default_sizes && need > 0.95 * (double)dev->free_bytes && size->d[0] > 1) {
            for (int k = 0; k < size->dims; k++) size->d[k] = size->d[k] > 1 ? size->d[k] / 2 : 1;
            need = ch->device_bytes(size);
        }
        if (need > 0.95 * (double)dev->free_bytes) {
            fprintf(stderr, "%s: size %s needs %.2f GB of GPU memory, but only %.2f GB is free\n", prog, before,
                    need / 1e9, dev->free_bytes / 1e9);
            return WB_EXIT_USAGE;
        }
        wb_size_str(size, after, sizeof after);
        if (strcmp(before, after))
            fprintf(stderr, "note: the default size %s does not fit in this GPU's %.2f GB of free memory: running %s\n",
                    before, dev->free_bytes / 1e9, after);
    }
    return 0;
}

static inline void wb_print_claims(FILE *out, const wb_chapter *ch, const wb_options *o, const wb_device *dev,
                                   const char *size, const double *speedups)
{
    int any = 0;
    for (int v = 0; v < ch->cli.n_variants; v++) {
        const char *claim = ch->cli.variants[v].claim;
        if (!claim || !(o->variant_mask & (1u << v))) continue;
        if (!any++) fprintf(out, "  the sources' claims beside this GPU (%s), size %s:\n", dev->prop.name, size);
        fprintf(out, "    %-16s claimed: %s\n    %-16s measured here: ", ch->cli.variants[v].name, claim, "");
        if (speedups[v] >= 0) fprintf(out, "%.2fx the speed of %s\n", speedups[v], ch->cli.variants[0].name);
        else fprintf(out, "not timed (needs %s and this variant, both correct)\n", ch->cli.variants[0].name);
    }
}

static inline int wb_main(int argc, char **argv, const wb_chapter *ch, State *state)
{
    wb_options o;
    char err[256];
    if (wb_parse_args(argc, argv, &ch->cli, &o, err, sizeof err)) {
        fprintf(stderr, "%s: %s (try --help)\n", argv[0], err);
        return WB_EXIT_USAGE;
    }
    if (o.help) {
        wb_usage(stdout, argv[0], &ch->cli);
        return WB_EXIT_PASS;
    }
    if (o.list) {
        for (int v = 0; v < ch->cli.n_variants; v++) {
            const wb_variant *vi = &ch->cli.variants[v];
            if (o.json_path) { /* machine-readable: one object per variant on stdout */
                fputs("{\"" WB_JSON_VARIANT "\":", stdout);
                wb_json_string(stdout, vi->name);
                fputs(",\"" WB_JSON_IDEA "\":", stdout);
                wb_json_string(stdout, vi->idea);
                fputs(",\"" WB_JSON_KERNELS "\":", stdout);
                wb_json_string(stdout, vi->kernels ? vi->kernels : "");
                fputs("}\n", stdout);
            } else {
                printf("%-16s %s\n", vi->name, vi->idea);
            }
        }
        return WB_EXIT_PASS;
    }
    if (o.dump_dir) {
        struct stat st;
        if (stat(o.dump_dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
            fprintf(stderr, "%s: --dump '%s' is not a directory\n", argv[0], o.dump_dir);
            return WB_EXIT_USAGE;
        }
    }
    wb_device dev;
    wb_device_init(&dev);
    int fit = wb_fit_sizes(argv[0], ch, &o, &dev);
    if (fit) return fit;
    FILE *json = NULL;
    if (o.json_path && strcmp(o.json_path, "-") == 0) json = stdout;
    else if (o.json_path) {
        if (snprintf(wb_json_partial, sizeof wb_json_partial, "%s.partial", o.json_path) >= (int)sizeof wb_json_partial ||
            !(json = fopen(wb_json_partial, "w"))) {
            fprintf(stderr, "%s: cannot write '%s': %s\n", argv[0], o.json_path, strerror(errno));
            return WB_EXIT_IO;
        }
        atexit(wb_json_discard);
    }
    FILE *out = json == stdout ? stderr : stdout; /* keep stdout pure JSON when asked for it there */
    fprintf(out, "%s — %s\nGPU: %s (sm_%d%d, %d SMs, %.1f GB), seed %llu, median of %d runs after %d warm-up\n",
            ch->cli.id, ch->cli.title, dev.prop.name, dev.prop.major, dev.prop.minor,
            dev.prop.multiProcessorCount, dev.total_bytes / 1e9, (unsigned long long)o.seed, o.reps, o.warmup);
    wb_table_header(out, &ch->table);

    int status = WB_EXIT_PASS;
    for (int s = 0; s < o.n_sizes; s++) {
        const wb_size *size = &o.sizes[s];
        wb_output res;
        memset(&res, 0, sizeof res);
        ch->setup(state, size, o.seed, &res);
        size_t res_bytes = res.count * wb_elem_size(res.type);
        double work = ch->work(size);

        wb_result ref;
        memset(&ref, 0, sizeof ref);
        const char *sol_name = "speed of light";
        ref.ms = ref.pre_ms = ref.speedup = -1;
        ref.throughput = ch->speed_of_light(state, o.warmup, o.reps, &sol_name);
        ref.variant = sol_name;
        ref.is_reference = 1;
        ref.sol_pct = 100.0;
        ref.ms = work / (ref.throughput * ch->work_scale) * 1e3;
        wb_size_str(size, ref.size, sizeof ref.size);
        wb_table_row(out, &ch->table, &ref);
        if (json) wb_json_result(json, ch->cli.id, dev.prop.name, size, o.seed, o.reps, &ch->table, &ref);

        double first_ms = -1, speedups[WB_MAX_VARIANTS];
        for (int v = 0; v < ch->cli.n_variants; v++) {
            speedups[v] = -1;
            if (!(o.variant_mask & (1u << v))) continue;
            const wb_variant *var = &ch->cli.variants[v];
            wb_result r;
            memset(&r, 0, sizeof r);
            r.variant = var->name;
            strcpy(r.size, ref.size);
            r.ms = r.pre_ms = r.speedup = -1;
            if (var->extra) snprintf(r.extra, sizeof r.extra, "%s", var->extra);

            int r_reps = o.reps;
            wb_poison(res.device, res_bytes);
            if (var->prepare) var->prepare(state);
            var->launch(state);
            CUDA_CHECK(cudaDeviceSynchronize());
            CUDA_CHECK(cudaMemcpy(res.host, res.device, res_bytes, cudaMemcpyDeviceToHost));
            wb_check chk;
            wb_check_init(&chk, 0);
            ch->check(state, res.host, &chk);
            r.verdict = wb_check_verdict(&chk);
            if (o.dump_dir) {
                char path[1024];
                FILE *f = wb_dump_path(path, sizeof path, o.dump_dir, r.variant, r.size) ? NULL : fopen(path, "wb");
                if (!f || fwrite(res.host, 1, res_bytes, f) != res_bytes || fclose(f) != 0) {
                    fprintf(stderr, "%s: cannot write '%s'\n", argv[0], path);
                    return WB_EXIT_IO;
                }
            }
            if (r.verdict != WB_TODO) {
                int reps = o.reps, warmup = o.warmup;
                if (!o.reps_given) wb_budget_reps(var->launch, state, &warmup, &reps);
                if (var->prepare) r.pre_ms = wb_time_median_ms(var->prepare, state, warmup, reps);
                r.ms = wb_time_median_ms(var->launch, state, warmup, reps);
                r_reps = reps;
                r.throughput = work / (r.ms * 1e-3) / ch->work_scale;
                r.sol_pct = 100.0 * r.throughput / ref.throughput;
                if (v == 0) first_ms = r.ms;
                if (first_ms > 0) r.speedup = first_ms / r.ms;
            }
            if (r.verdict != WB_PASS) status = WB_EXIT_WRONG;
            wb_table_row(out, &ch->table, &r);
            wb_check_print(out, &chk);
            if (json) wb_json_result(json, ch->cli.id, dev.prop.name, size, o.seed, r_reps, &ch->table, &r);
            speedups[v] = r.speedup;
        }
        if (o.claims) wb_print_claims(out, ch, &o, &dev, ref.size, speedups);
        ch->teardown(state);
    }
    fprintf(out, "%s\n", status == WB_EXIT_PASS ? "PASS" : "FAIL");
    if (json && json != stdout) {
        if (fclose(json) != 0 || rename(wb_json_partial, o.json_path) != 0) {
            fprintf(stderr, "%s: cannot write '%s': %s\n", argv[0], o.json_path, strerror(errno));
            return WB_EXIT_IO;
        }
        wb_json_partial[0] = 0;
    }
    return status;
}
#endif /* __CUDACC__ */
#endif /* WB_H */
