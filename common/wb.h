/*
 * wb.h — what every chapter of the workbook shares.
 *
 * Plain C (C99) plus, when compiled by nvcc, the CUDA parts. Everything is `static inline`, so a
 * chapter is one .cu file that includes this header and nothing else of ours.
 *
 *   the contract ........ contract.h: exit codes, poison, random inputs, sizes, dump names, verdicts
 *   command line ........ wb_parse_args        (pure: no printing, no exit; unit-tested)
 *   verification ........ wb_check_*           (first few mismatches, then a count)
 *   output .............. wb_table_*, wb_json_result
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

/* ---------------------------------------------------------------- sizes and options */
#define WB_MAX_SIZES 8
#define WB_MAX_VARIANTS 16

#define WB_COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Each chapter defines `struct State`: its sizes and buffers. The harness only passes it around. */
typedef struct State State;

/* One row of a chapter's variant table: everything about a variant in one place. */
typedef struct {
    const char *name;             /* the CLI name, e.g. "shared-static" */
    const char *idea;             /* the one idea it adds, for --list */
    const char *kernels;          /* its __global__ functions, comma-separated (for `make sass`/`profile`) */
    void (*launch)(State *s);     /* enqueue its kernel(s); timed */
    void (*prepare)(State *s);    /* preprocessing it needs, timed apart; or NULL */
    const char *extra;            /* the chapter's own column for it (e.g. loads per element), or NULL */
    const char *claim;            /* what the course's source material claimed for it, or NULL (--claims) */
} wb_variant;

/* What the command line needs to know about a chapter. */
typedef struct {
    const char *id;                     /* "1-reversal": the `chapter` field of the JSON */
    const char *title;                  /* one line for --help and the table's header */
    const wb_variant *variants;
    int n_variants;                     /* WB_COUNT(variants) */
    int dims;                           /* 1: "N"; 3: "MxNxK" */
    long long max_dim;                  /* largest accepted extent (the kernels' index type) */
    const char *size_help;              /* what a size means, for --help */
    const char *default_sizes;          /* comma-free list of defaults, e.g. "2^28" */
} wb_cli;

typedef struct {
    unsigned variant_mask;              /* bit v set: run variant v */
    wb_size sizes[WB_MAX_SIZES];
    int n_sizes;
    uint64_t seed;
    int reps, warmup;
    const char *json_path;              /* NULL, a file name, or "-" for stdout */
    const char *dump_dir;               /* NULL or a directory for raw result arrays */
    int help, list, claims;
    int default_sizes;                  /* no --size given: the chapter's defaults (scaled down to fit) */
} wb_options;

static inline int wb_parse_size(const char *s, const wb_cli *cli, wb_size *out, char *err, size_t errlen)
{
    return wb_size_parse(s, cli->dims, cli->max_dim, out, err, errlen);
}

static inline int wb_parse_int_opt(const char *name, const char *s, long long lo, long long hi, long long *out,
                                   char *err, size_t errlen)
{
    if (wb_parse_count(s, LLONG_MAX, out) != 0 || *out < lo || *out > hi) {
        snprintf(err, errlen, "%s '%s' must be an integer from %lld to %lld", name, s, lo, hi);
        return -1;
    }
    return 0;
}

static inline int wb_variant_index(const wb_cli *cli, const char *name)
{
    for (int v = 0; v < cli->n_variants; v++)
        if (strcmp(cli->variants[v].name, name) == 0) return v;
    return -1;
}

/* "a,b" or "all": a bit per variant. Any length; an empty name (",a", "a,", "a,,b"), an unknown name
 * or a name given twice is an error, never silently dropped. */
static inline int wb_parse_variant_list(const char *list, const wb_cli *cli, unsigned *mask, char *err, size_t errlen)
{
    *mask = 0;
    const char *p = list;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0) {
            snprintf(err, errlen, "--variant '%.60s%s' has an empty name (a stray comma?)", list, strlen(list) > 60 ? "…" : "");
            return -1;
        }
        unsigned bits = 0;
        if (len == 3 && !strncmp(p, "all", 3)) bits = (1u << cli->n_variants) - 1;
        for (int v = 0; !bits && v < cli->n_variants; v++)
            if (strlen(cli->variants[v].name) == len && !strncmp(cli->variants[v].name, p, len)) bits = 1u << v;
        if (!bits) {
            int at = snprintf(err, errlen, "unknown variant '%.*s' (valid:", (int)(len < 60 ? len : 60), p);
            for (int k = 0; k < cli->n_variants && at > 0 && (size_t)at < errlen; k++)
                at += snprintf(err + at, errlen - (size_t)at, " %s", cli->variants[k].name);
            if (at > 0 && (size_t)at < errlen) snprintf(err + at, errlen - (size_t)at, ", all)");
            return -1;
        }
        if (*mask & bits) {
            snprintf(err, errlen, "--variant names '%.*s' twice", (int)(len < 60 ? len : 60), p);
            return -1;
        }
        *mask |= bits;
        if (!comma) return 0;
        p = comma + 1;
    }
}

/* Parses argv into *o. Returns 0, or WB_EXIT_USAGE with a one-line reason in err. Prints nothing. */
static inline int wb_parse_args(int argc, char **argv, const wb_cli *cli, wb_options *o, char *err, size_t errlen)
{
    static const struct option longopts[] = {
        {"variant", required_argument, 0, 'v'}, {"size", required_argument, 0, 'n'},
        {"seed", required_argument, 0, 's'},    {"reps", required_argument, 0, 'r'},
        {"warmup", required_argument, 0, 'w'},  {"json", required_argument, 0, 'j'},
        {"dump", required_argument, 0, 'd'},    {"list", no_argument, 0, 'l'},
        {"claims", no_argument, 0, 'c'},        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    o->seed = 42;
    o->reps = 20;
    o->warmup = 3;
    err[0] = 0;
    optind = 0; /* glibc: 0 re-initialises getopt, so the parser can run more than once (tests) */
    opterr = 0;
    int c;
    long long v;
    while ((c = getopt_long(argc, argv, ":v:n:s:r:w:j:d:lh", longopts, NULL)) != -1) {
        switch (c) {
        case 'v':
            if (wb_parse_variant_list(optarg, cli, &o->variant_mask, err, errlen)) return WB_EXIT_USAGE;
            break;
        case 'n':
            if (o->n_sizes == WB_MAX_SIZES) {
                snprintf(err, errlen, "at most %d --size options", WB_MAX_SIZES);
                return WB_EXIT_USAGE;
            }
            if (wb_parse_size(optarg, cli, &o->sizes[o->n_sizes], err, errlen)) return WB_EXIT_USAGE;
            o->n_sizes++;
            break;
        case 's': {
            char *end;
            errno = 0;
            unsigned long long s = strtoull(optarg, &end, 0);
            if (errno || *end || end == optarg || optarg[0] == '-') {
                snprintf(err, errlen, "seed '%s' must be a non-negative 64-bit integer", optarg);
                return WB_EXIT_USAGE;
            }
            o->seed = s;
            break;
        }
        case 'r':
            if (wb_parse_int_opt("reps", optarg, 1, 1000, &v, err, errlen)) return WB_EXIT_USAGE;
            o->reps = (int)v;
            break;
        case 'w':
            if (wb_parse_int_opt("warmup", optarg, 0, 100, &v, err, errlen)) return WB_EXIT_USAGE;
            o->warmup = (int)v;
            break;
        case 'j': o->json_path = optarg; break;
        case 'd': o->dump_dir = optarg; break;
        case 'l': o->list = 1; break;
        case 'c': o->claims = 1; break;
        case 'h': o->help = 1; break;
        case ':':
            snprintf(err, errlen, "option '%s' needs a value", argv[optind - 1]);
            return WB_EXIT_USAGE;
        default:
            snprintf(err, errlen, "unknown option '%s'", argv[optind - 1]);
            return WB_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        snprintf(err, errlen, "unexpected argument '%s' (sizes go after --size)", argv[optind]);
        return WB_EXIT_USAGE;
    }
    if (!o->variant_mask) o->variant_mask = (1u << cli->n_variants) - 1;
    if (!o->n_sizes) {
        o->default_sizes = 1;
        char buf[128];
        snprintf(buf, sizeof buf, "%s", cli->default_sizes);
        char *save = NULL;
        for (char *t = strtok_r(buf, " ", &save); t && o->n_sizes < WB_MAX_SIZES; t = strtok_r(NULL, " ", &save))
            if (wb_parse_size(t, cli, &o->sizes[o->n_sizes++], err, errlen)) return WB_EXIT_USAGE;
    }
    return 0;
}

static inline void wb_usage(FILE *f, const char *prog, const wb_cli *cli)
{
    fprintf(f,
            "%s — %s\n"
            "usage: %s [options]\n"
            "  -v, --variant LIST  comma-separated variants to run (default: all):",
            cli->id, cli->title, prog);
    for (int v = 0; v < cli->n_variants; v++) fprintf(f, " %s", cli->variants[v].name);
    fprintf(f,
            "\n"
            "  -n, --size S        %s; repeatable (default: %s)\n"
            "  -s, --seed N        seed of the random inputs (default: 42)\n"
            "  -r, --reps N        timed repetitions, the median is reported (default: 20)\n"
            "  -w, --warmup N      untimed runs before timing (default: 3)\n"
            "      --json FILE     also write one JSON object per variant and size ('-': stdout);\n"
            "                      with --list: the variants as JSON lines on stdout\n"
            "      --dump DIR      write each variant's raw result array to DIR/VARIANT_SIZE.bin\n"
            "  -l, --list          list the variants and the idea each adds\n"
            "      --claims        after the table, set what the source material claimed beside what this GPU measured\n"
            "  -h, --help          this text\n"
            "exit codes: 0 all correct, 1 wrong or not implemented, 2 bad usage, 3 no CUDA device,\n"
            "            4 CUDA error, 5 cannot write an output file\n",
            cli->size_help, cli->default_sizes);
}

/* ---------------------------------------------------------------- verification */
#define WB_CHECK_REPORT 5

typedef struct {
    unsigned long long checked, wrong, unwritten;
    size_t cols;           /* > 0: report indices as [row][col] */
    int n_reports;
    char reports[WB_CHECK_REPORT][192]; /* room for "[i][j]: expected …, got …" at its longest */
    double worst_err;      /* tolerance checks: the largest |got - ref| / bound seen */
    unsigned long long worst_at;
    const char *worst_of;  /* tolerance checks: what the reference was; non-NULL prints the worst error */
} wb_check;

static inline void wb_check_init(wb_check *c, size_t cols)
{
    memset(c, 0, sizeof *c);
    c->cols = cols;
}

/* Counts a wrong element; returns 1 when it is one of the first few whose values should be formatted
 * and reported (wb_check_note). Only those are formatted: an untouched starter has hundreds of
 * millions of wrong elements, and formatting each of them took minutes. */
static inline int wb_check_miss(wb_check *c, int unwritten)
{
    c->wrong++;
    c->unwritten += unwritten != 0;
    return c->n_reports < WB_CHECK_REPORT;
}

static inline void wb_check_note(wb_check *c, unsigned long long idx, const char *expected, const char *got,
                                 int unwritten)
{
    if (c->n_reports >= WB_CHECK_REPORT) return;
    char where[48];
    if (c->cols)
        snprintf(where, sizeof where, "[%llu][%llu]", idx / c->cols, idx % c->cols);
    else
        snprintf(where, sizeof where, "[%llu]", idx);
    snprintf(c->reports[c->n_reports++], sizeof c->reports[0], "%s: expected %s, got %s%s", where, expected, got,
             unwritten ? " (never written)" : "");
}

/* Exact comparison of got[0..n) with expected[0..n); `offset` is the index of element 0 in the whole
 * output, so a sampled check reports true positions. */
static inline void wb_check_i32(wb_check *c, unsigned long long offset, const int32_t *expected,
                                const int32_t *got, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        c->checked++;
        if (got[i] == expected[i] || !wb_check_miss(c, wb_is_poison(&got[i], 4))) continue;
        char e[24], g[24];
        snprintf(e, sizeof e, "%d", expected[i]);
        snprintf(g, sizeof g, "%d", got[i]);
        wb_check_note(c, offset + i, e, g, wb_is_poison(&got[i], 4));
    }
}

static inline void wb_check_i64(wb_check *c, unsigned long long offset, const int64_t *expected,
                                const int64_t *got, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        c->checked++;
        if (got[i] == expected[i] || !wb_check_miss(c, wb_is_poison(&got[i], 8))) continue;
        char e[24], g[24];
        snprintf(e, sizeof e, "%lld", (long long)expected[i]);
        snprintf(g, sizeof g, "%lld", (long long)got[i]);
        wb_check_note(c, offset + i, e, g, wb_is_poison(&got[i], 8));
    }
}

/* Bit-for-bit float comparison (+inf equals +inf; any NaN is wrong). */
static inline void wb_check_f32_exact(wb_check *c, unsigned long long offset, const float *expected,
                                      const float *got, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        c->checked++;
        if ((memcmp(&got[i], &expected[i], 4) == 0 && !isnan(got[i])) || !wb_check_miss(c, wb_is_poison(&got[i], 4))) continue;
        char e[32], g[32];
        snprintf(e, sizeof e, "%.9g", expected[i]);
        snprintf(g, sizeof g, "%.9g", got[i]);
        wb_check_note(c, offset + i, e, g, wb_is_poison(&got[i], 4));
    }
}

/* |got - ref| ≤ bound per element (bound from the chapter's error analysis); NaN never passes, and
 * neither does the poison: where |ref| is below its bound, -2.9e-16 would be "within tolerance", and
 * an untouched output must read as never written (TODO), not as partly right. */
static inline void wb_check_f32_tol(wb_check *c, unsigned long long offset, const double *ref,
                                    const double *bound, const float *got, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        c->checked++;
        int poisoned = wb_is_poison(&got[i], 4);
        double err = fabs((double)got[i] - ref[i]);
        double rel = bound[i] > 0 ? err / bound[i] : (err > 0 ? INFINITY : 0);
        if (!isnan(got[i]) && !poisoned && rel > c->worst_err) {
            c->worst_err = rel;
            c->worst_at = offset + i;
        }
        if ((!isnan(got[i]) && !poisoned && err <= bound[i]) || !wb_check_miss(c, poisoned)) continue;
        char e[32], g[64];
        snprintf(e, sizeof e, "%.7g", ref[i]);
        if (poisoned) snprintf(g, sizeof g, "%.7g", got[i]);
        else snprintf(g, sizeof g, "%.7g (|err| %.2g > %.2g)", got[i], err, bound[i]);
        wb_check_note(c, offset + i, e, g, poisoned);
    }
}

/* Nothing written at all means the variant was not implemented yet: say so rather than "wrong". */
static inline wb_verdict wb_check_verdict(const wb_check *c)
{
    if (c->wrong == 0 && c->checked > 0) return WB_PASS;
    if (c->checked > 0 && c->unwritten == c->checked) return WB_TODO;
    return WB_FAIL;
}

static inline void wb_check_print(FILE *f, const wb_check *c)
{
    if (c->worst_of && c->checked && wb_check_verdict(c) != WB_TODO) {
        char where[48];
        if (c->cols)
            snprintf(where, sizeof where, "[%llu][%llu]", c->worst_at / c->cols, c->worst_at % c->cols);
        else
            snprintf(where, sizeof where, "[%llu]", c->worst_at);
        fprintf(f, "      worst error %.3g of its bound, at %s (reference: %s)\n", c->worst_err, where, c->worst_of);
    }
    if (!c->wrong) return;
    if (wb_check_verdict(c) == WB_TODO) {
        fprintf(f, "      not implemented yet: none of the %llu checked outputs was written\n", c->checked);
        return;
    }
    for (int k = 0; k < c->n_reports; k++) fprintf(f, "      mismatch %s\n", c->reports[k]);
    fprintf(f, "      %llu of %llu checked elements wrong (%llu never written)\n", c->wrong, c->checked,
            c->unwritten);
}

/* ---------------------------------------------------------------- results: table and JSON */
typedef struct {
    const char *variant;
    char size[48];
    wb_verdict verdict;
    int is_reference;          /* the speed-of-light row: not a variant, never judged */
    double ms;                 /* median kernel time; < 0 when not timed */
    double pre_ms;             /* median preprocessing time (outside `ms`); < 0 when none */
    double throughput;         /* in the chapter's unit */
    double sol_pct;            /* % of the speed of light measured in the same run */
    double speedup;            /* over the chapter's first variant at this size; < 0 when unknown */
    char extra[24];            /* the chapter's own column (e.g. loads per element) */
} wb_result;

typedef struct {
    const char *unit;          /* "GB/s", "GFLOP/s", "G steps/s" */
    const char *extra_name;    /* NULL: no extra column */
    int has_pre;               /* show the preprocessing column */
} wb_table;

static inline void wb_table_header(FILE *f, const wb_table *t)
{
    fprintf(f, "  %-24s %-14s %10s", "variant", "size", "time ms");
    if (t->has_pre) fprintf(f, " %9s", "prep ms");
    fprintf(f, " %12s %8s %7s", t->unit, "% SoL", "speedup");
    if (t->extra_name) fprintf(f, " %10s", t->extra_name);
    fprintf(f, "  check\n");
}

static inline void wb_table_row(FILE *f, const wb_table *t, const wb_result *r)
{
    char ms[16] = "-", pre[16] = "-", tp[16] = "-", pct[16] = "-", sp[16] = "-";
    if (r->ms >= 0) {
        snprintf(ms, sizeof ms, "%.4f", r->ms);
        snprintf(tp, sizeof tp, "%.1f", r->throughput);
        snprintf(pct, sizeof pct, "%.1f%%", r->sol_pct);
    }
    if (r->pre_ms >= 0) snprintf(pre, sizeof pre, "%.4f", r->pre_ms);
    if (r->speedup >= 0) snprintf(sp, sizeof sp, "%.2fx", r->speedup);
    fprintf(f, "  %-24s %-14s %10s", r->variant, r->size, ms);
    if (t->has_pre) fprintf(f, " %9s", pre);
    fprintf(f, " %12s %8s %7s", tp, pct, sp);
    if (t->extra_name) fprintf(f, " %10s", r->extra);
    fprintf(f, "  %s\n", r->is_reference ? "(speed of light)" : wb_verdict_name(r->verdict));
}

static inline void wb_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
        else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
        else fputc(ch, f);
    }
    fputc('"', f);
}

static inline void wb_json_number(FILE *f, double x)
{
    if (isfinite(x)) fprintf(f, "%.6g", x);
    else fputs("null", f);
}

/* One JSON object on one line; the field list is the contract in CONTRACT.md. */
static inline void wb_json_result(FILE *f, const char *chapter, const char *gpu, const wb_size *size,
                                  uint64_t seed, int reps, const wb_table *t, const wb_result *r)
{
    fputs("{\"chapter\":", f);
    wb_json_string(f, chapter);
    fputs(",\"variant\":", f);
    wb_json_string(f, r->variant);
    fputs(",\"size\":", f);
    wb_json_string(f, r->size);
    fputs(",\"dims\":[", f);
    for (int k = 0; k < size->dims; k++) fprintf(f, "%s%lld", k ? "," : "", size->d[k]);
    fprintf(f, "],\"seed\":%llu,\"reps\":%d,\"gpu\":", (unsigned long long)seed, reps);
    wb_json_string(f, gpu);
    fputs(",\"median_ms\":", f);
    wb_json_number(f, r->ms >= 0 ? r->ms : NAN);
    fputs(",\"prep_ms\":", f);
    wb_json_number(f, r->pre_ms >= 0 ? r->pre_ms : NAN);
    fputs(",\"throughput\":", f);
    wb_json_number(f, r->ms >= 0 ? r->throughput : NAN);
    fputs(",\"unit\":", f);
    wb_json_string(f, t->unit);
    fputs(",\"sol_pct\":", f);
    wb_json_number(f, r->ms >= 0 ? r->sol_pct : NAN);
    fputs(",\"speedup\":", f);
    wb_json_number(f, r->speedup >= 0 ? r->speedup : NAN);
    if (t->extra_name) {
        fputs(",\"extra_name\":", f);
        wb_json_string(f, t->extra_name);
        fputs(",\"extra\":", f);
        wb_json_string(f, r->extra);
    }
    fputs(",\"verdict\":", f);
    wb_json_string(f, r->is_reference ? "REFERENCE" : wb_verdict_name(r->verdict));
    fputs("}\n", f);
    fflush(f);
}

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
                if (var->prepare) r.pre_ms = wb_time_median_ms(var->prepare, state, o.warmup, o.reps);
                r.ms = wb_time_median_ms(var->launch, state, o.warmup, o.reps);
                r.throughput = work / (r.ms * 1e-3) / ch->work_scale;
                r.sol_pct = 100.0 * r.throughput / ref.throughput;
                if (v == 0) first_ms = r.ms;
                if (first_ms > 0) r.speedup = first_ms / r.ms;
            }
            if (r.verdict != WB_PASS) status = WB_EXIT_WRONG;
            wb_table_row(out, &ch->table, &r);
            wb_check_print(out, &chk);
            if (json) wb_json_result(json, ch->cli.id, dev.prop.name, size, o.seed, o.reps, &ch->table, &r);
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
