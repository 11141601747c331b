/*
 * contract.h — what every program of the workbook agrees on (CONTRACT.md is its prose).
 *
 * Plain C99, no CUDA, no library: the chapters (through wb.h), the grader, the look-inside and
 * handouts tools and the tests include this one header instead of keeping copies.
 *
 *   exit codes ........ WB_EXIT_*
 *   poison ............ WB_POISON_*, wb_is_poison    (unwritten outputs are recognisable)
 *   random inputs ..... wb_hash64, wb_random_at, wb_fill_i32, wb_fill_f32
 *   sizes ............. wb_size, wb_size_parse, wb_size_str, wb_size_elems
 *   dump files ........ wb_dump_path                 (DIR/VARIANT_SIZE.bin)
 *   verdicts .......... wb_verdict, wb_verdict_name, wb_verdict_parse, WB_REASON_LEN
 *   JSON lines ........ WB_JSON_* field names        (common/jsonl.h reads them back)
 */
#ifndef WB_CONTRACT_H
#define WB_CONTRACT_H

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- exit codes */
enum {
    WB_EXIT_PASS = 0,      /* every selected variant produced the right result */
    WB_EXIT_WRONG = 1,     /* at least one variant is wrong or not implemented */
    WB_EXIT_USAGE = 2,     /* bad command line: nothing ran on the GPU */
    WB_EXIT_NO_DEVICE = 3, /* no usable CUDA device (no GPU, no driver, busy…) */
    WB_EXIT_CUDA = 4,      /* a CUDA call or kernel failed while running */
    WB_EXIT_IO = 5,        /* a file given on the command line could not be written */
    WB_EXIT_NO_MEMORY = 6  /* GPU memory could not be allocated: the GPU's state (another process may hold it) */
};

/* ---------------------------------------------------------------- poison */
/* Outputs are filled with this byte before every run. As int32 it reads -1515870811 and as float
 * -2.9e-16: no chapter can produce either from its inputs, so an element still holding it was never
 * written by the kernel. */
#define WB_POISON_BYTE 0xA5
#define WB_POISON_U32 0xA5A5A5A5u
#define WB_POISON_U64 0xA5A5A5A5A5A5A5A5ull

/* Does the element of elem_size bytes (4 or 8) at p still hold the poison? */
static inline int wb_is_poison(const void *p, size_t elem_size)
{
    if (elem_size == 8) {
        uint64_t u;
        memcpy(&u, p, 8);
        return u == WB_POISON_U64;
    }
    uint32_t u;
    memcpy(&u, p, 4);
    return u == WB_POISON_U32;
}

/* ---------------------------------------------------------------- random inputs */
/* Under nvcc the generators are device functions too: --grading's timed repetitions make their inputs on
 * the GPU (wb_timing.h) from the same recipe as the host's. */
#ifdef __CUDACC__
#define WB_HD __host__ __device__
#else
#define WB_HD
#endif

/* splitmix64's finaliser: a good 64-bit mix. Element i of an input is a function of (seed, i) only,
 * so any program (the chapter, a test, the grader) regenerates the same input from the seed. */
WB_HD static inline uint64_t wb_hash64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* The value for element i of the input named by `stream` (0, 1, … for a chapter's several inputs). */
WB_HD static inline uint64_t wb_random_at(uint64_t seed, uint64_t stream, uint64_t i)
{
    return wb_hash64(wb_hash64(seed ^ (stream * 0xD1B54A32D192ED03ull)) + i);
}

/* Uniform integers in [lo, hi]; the modulo bias is below 2^-32 for the ranges chapters use. */
/* Each element depends on its index only, so a build with OpenMP (the chapters') fills in parallel: a
 * graded run fills its inputs twice at sizes of 2^26, and that was a second of its time. */
static inline void wb_fill_i32(int32_t *a, size_t n, uint64_t seed, uint64_t stream, int32_t lo, int32_t hi)
{
    uint64_t span = (uint64_t)((int64_t)hi - (int64_t)lo) + 1;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (n >= (1u << 20))
#endif
    for (size_t i = 0; i < n; i++)
        a[i] = (int32_t)((int64_t)lo + (int64_t)(wb_random_at(seed, stream, i) % span));
}

/* Uniform floats in [lo, hi) with 24 random bits each. */
static inline void wb_fill_f32(float *a, size_t n, uint64_t seed, uint64_t stream, float lo, float hi)
{
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (n >= (1u << 20))
#endif
    for (size_t i = 0; i < n; i++) {
        float u = (float)(wb_random_at(seed, stream, i) >> 40) * (1.0f / 16777216.0f);
        a[i] = lo + (hi - lo) * u;
    }
}

/* ---------------------------------------------------------------- sizes */
#define WB_MAX_DIMS 3

typedef struct {
    int dims;                   /* 1 (n) or 3 (M x N x K) */
    long long d[WB_MAX_DIMS];   /* each ≥ 1 */
} wb_size;

/* A non-negative integer, optionally written 2^k, at most max; rejects signs, junk and overflow. */
static inline int wb_parse_count(const char *s, long long max, long long *out)
{
    if (!s || !*s || *s == '-' || *s == '+' || *s == ' ') return -1;
    char *end;
    errno = 0;
    if (s[0] == '2' && s[1] == '^') {
        long long k = strtoll(s + 2, &end, 10);
        if (errno || *end || end == s + 2 || s[2] == '-' || s[2] == '+' || k < 0 || k > 62) return -1;
        long long v = 1ll << k;
        if (v > max) return -1;
        *out = v;
        return 0;
    }
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || end == s || v > (unsigned long long)max) return -1;
    *out = (long long)v;
    return 0;
}

/* "1000003", "2^28" (dims 1) or "4096x1000x333" (dims 3), each extent in [1, max_dim]. Returns 0, or
 * -1 with a one-line reason in err. */
static inline int wb_size_parse(const char *s, int dims, long long max_dim, wb_size *out, char *err, size_t errlen)
{
    const char *form = dims == 1 ? "a positive integer (e.g. 1000003 or 2^28)" : "of the form MxNxK (e.g. 4096x1000x333)";
    char buf[128];
    if (strlen(s) >= sizeof buf) {
        snprintf(err, errlen, "size '%.40s…' is too long", s);
        return -1;
    }
    strcpy(buf, s);
    out->dims = dims;
    size_t len = strlen(buf);
    if (len == 0 || buf[0] == 'x' || buf[len - 1] == 'x' || strstr(buf, "xx")) { /* strtok would skip empties */
        snprintf(err, errlen, "size '%s' is not %s", s, form);
        return -1;
    }
    char *save = NULL, *tok = strtok_r(buf, "x", &save);
    int k = 0;
    for (; tok; tok = strtok_r(NULL, "x", &save), k++) {
        long long v;
        /* digits only (or 2^k) that do not fit in 64 bits: a number, too large, not a malformed one */
        int digits = tok[strspn(tok, "0123456789")] == 0 || (tok[0] == '2' && tok[1] == '^' && tok[2] &&
                                                             tok[2 + strspn(tok + 2, "0123456789")] == 0);
        if (k < dims && digits && wb_parse_count(tok, LLONG_MAX, &v) != 0) v = LLONG_MAX;
        else if (k >= dims || wb_parse_count(tok, LLONG_MAX, &v) != 0) {
            k = -1;
            break;
        }
        if (v < 1 || v > max_dim) {
            snprintf(err, errlen, "size '%s' is %s: each extent must be between 1 and %lld", s,
                     v < 1 ? "too small" : "too large", max_dim);
            return -1;
        }
        out->d[k] = v;
    }
    if (k != dims) {
        snprintf(err, errlen, "size '%s' is not %s", s, form);
        return -1;
    }
    return 0;
}

/* The canonical spelling, used in tables, JSON and dump file names: every extent in decimal, joined
 * by 'x' ("268435456", "4096x1000x333"); "2^28" is accepted on input only. */
static inline void wb_size_str(const wb_size *s, char *buf, size_t len)
{
    int at = snprintf(buf, len, "%lld", s->d[0]);
    for (int k = 1; k < s->dims && at > 0 && (size_t)at < len; k++)
        at += snprintf(buf + at, len - (size_t)at, "x%lld", s->d[k]);
}

static inline unsigned long long wb_size_elems(const wb_size *s)
{
    unsigned long long e = 1;
    for (int k = 0; k < s->dims; k++) e *= (unsigned long long)s->d[k];
    return e;
}

/* ---------------------------------------------------------------- dump files */
/* `--dump DIR` writes variant V's result at size S (canonical spelling) to DIR/V_S.bin: raw elements,
 * native little-endian, row-major, no header. Returns 0, or -1 if the path does not fit in buf. */
static inline int wb_dump_path(char *buf, size_t len, const char *dir, const char *variant, const char *size)
{
    int n = snprintf(buf, len, "%s/%s_%s.bin", dir, variant, size);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* --grading: after timing, every variant runs once more on inputs drawn from seed ^ WB_ROTATED_SEED, so
 * a result kept from an earlier run is wrong there. */
#define WB_ROTATED_SEED 0x5EED5EED5EED5EEDull

/* --grading: timed repetition r runs on inputs of its own, made from wb_random_at(seed, WB_REP_STREAM, r)
 * (wb_rep_seed): different from the check's (seed) and the rotated run's, and from each other. */
#define WB_REP_STREAM 0x7E9Eull
WB_HD static inline uint64_t wb_rep_seed(uint64_t seed, uint64_t rep) { return wb_random_at(seed, WB_REP_STREAM, rep); }

/* --grading's extra checks (timed_check, rotated_check): here, not in wb_table.h, because the grader
 * reads them back (common/jsonl.h) as well as the harness writing them. */
typedef enum { WB_NOT_CHECKED, WB_CHECKED_PASS, WB_CHECKED_FAIL } wb_grading_check;

/* The speed-of-light row (REFERENCE) and the CEILING line are timed min(--reps, WB_SOL_REPS) times: they
 * measure the GPU, not a variant, so the grader's high --reps repeat only the variants. */
#define WB_SOL_REPS 20

/* ---------------------------------------------------------------- verdicts */
/* WB_CEILING: the --grading line that states what the hardware can do (see wb_peak.h).
 * WB_UNAVAILABLE: a variant this GPU, or this build on it, cannot run (wb_avail.h): not run, not wrong,
 * with its reason (WB_JSON_UNAVAILABLE_REASON). Last, so that the older values keep their numbers. */
typedef enum { WB_PASS, WB_FAIL, WB_TODO, WB_REFERENCE, WB_CEILING, WB_UNAVAILABLE } wb_verdict;

/* The longest reason a variant is unavailable, its terminating NUL included (longer ones are cut). */
#define WB_REASON_LEN 160

static inline const char *wb_verdict_name(wb_verdict v)
{
    switch (v) {
    case WB_PASS: return "PASS";
    case WB_TODO: return "TODO";
    case WB_REFERENCE: return "REFERENCE";
    case WB_CEILING: return "CEILING";
    case WB_UNAVAILABLE: return "UNAVAILABLE";
    default: return "FAIL";
    }
}

/* Returns 0 and sets *v for "PASS", "FAIL", "TODO", "REFERENCE", "CEILING", "UNAVAILABLE"; -1 otherwise. */
static inline int wb_verdict_parse(const char *s, wb_verdict *v)
{
    static const wb_verdict all[] = {WB_PASS, WB_FAIL, WB_TODO, WB_REFERENCE, WB_CEILING, WB_UNAVAILABLE};
    for (size_t k = 0; s && k < sizeof all / sizeof all[0]; k++)
        if (strcmp(s, wb_verdict_name(all[k])) == 0) {
            *v = all[k];
            return 0;
        }
    return -1;
}

/* ---------------------------------------------------------------- JSON lines */
/* The fields of one result line (`--json`); numbers that do not apply are null. */
#define WB_JSON_CHAPTER "chapter"
#define WB_JSON_VARIANT "variant"
#define WB_JSON_SIZE "size"             /* canonical spelling, a string */
#define WB_JSON_DIMS "dims"             /* array of extents */
#define WB_JSON_SEED "seed"
#define WB_JSON_REPS "reps"
#define WB_JSON_GPU "gpu"
#define WB_JSON_MEDIAN_MS "median_ms"
#define WB_JSON_PREP_MS "prep_ms"
#define WB_JSON_THROUGHPUT "throughput"
#define WB_JSON_UNIT "unit"
#define WB_JSON_SOL_PCT "sol_pct"
#define WB_JSON_SPEEDUP "speedup"
#define WB_JSON_EXTRA_NAME "extra_name"  /* optional */
#define WB_JSON_EXTRA "extra"            /* optional */
#define WB_JSON_VERDICT "verdict"        /* wb_verdict_name() */
/* --grading only (absent otherwise): */
#define WB_JSON_TIMED_CHECK "timed_check"     /* "PASS"/"FAIL": the output of every timed repetition */
#define WB_JSON_ROTATED_CHECK "rotated_check" /* "PASS"/"FAIL": one run on inputs from WB_ROTATED_SEED */
#define WB_JSON_CPU_MS "cpu_ms"               /* host CPU time (user + system) per timed repetition */
#define WB_JSON_TIMED_FAULT "timed_fault"     /* with timed_check FAIL: which repetition was wrong, and where */
#define WB_JSON_REP_WALL_MS "rep_wall_ms"     /* fresh inputs: wall-clock ms per timed repetition, its untimed part included */
/* Verdict UNAVAILABLE only: why this GPU, or this build on it, cannot run the variant (one line). */
#define WB_JSON_UNAVAILABLE_REASON "unavailable_reason"
/* Any run (absent when the variant left its inputs as generated; wb_inputs.h): */
#define WB_JSON_INPUT_WRITTEN "input_written"           /* the first changed element of the input (an index) */
#define WB_JSON_INPUT_WRITTEN_NAME "input_written_name" /* which input: its name, or "input K" in setup order */
/* The fields of one `--list --json` line. */
#define WB_JSON_IDEA "idea"
#define WB_JSON_KERNELS "kernels"
#define WB_JSON_THREADS "threads" /* per kernel, in the order of "kernels": threads per block (0: not said) */
#define WB_JSON_DSMEM "dsmem"     /* per kernel: dynamic shared memory per block, bytes */
/* A variant with an `unavailable` hook (wb_cli.h): true or false on this GPU (false: with
 * WB_JSON_UNAVAILABLE_REASON), null when no GPU could be asked. Absent: the variant runs everywhere. */
#define WB_JSON_AVAILABLE "available"

#endif /* WB_CONTRACT_H */
