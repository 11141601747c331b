/*
 * wb_check.h — verification: compare a result with the reference, count mismatches, report the first few.
 * Part of the chapters' harness: plain C (C99), static inline, included through wb.h.
 */
#ifndef WB_WB_CHECK_H
#define WB_WB_CHECK_H

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contract.h"

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
    if (memcmp(got, expected, 4 * n) == 0) { /* the common case at a fraction of the per-element loop's cost */
        c->checked += n;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        c->checked++;
        if (got[i] == expected[i] || !wb_check_miss(c, wb_is_poison(&got[i], 4))) continue;
        char e[24], g[24];
        snprintf(e, sizeof e, "%d", expected[i]);
        snprintf(g, sizeof g, "%d", got[i]);
        wb_check_note(c, offset + i, e, g, wb_is_poison(&got[i], 4));
    }
}

/* The check of an int32 result whose expected values a chapter builds slice by slice, expect(ctx, first,
 * count, expected), so that it keeps no second n-element array. The slices are compared in parallel
 * (OpenMP, in the chapters' builds); only a slice that differs is then gone through element by element,
 * in order, for the report. */
typedef void (*wb_expect_i32)(const void *ctx, size_t first, size_t count, int32_t *expected);

static inline void wb_check_i32_slices(wb_check *c, size_t n, wb_expect_i32 expect, const void *ctx, const int32_t *got)
{
    const size_t SLICE = (size_t)1 << 16;
    size_t n_slices = (n + SLICE - 1) / SLICE;
    unsigned char *same = (unsigned char *)calloc(n_slices ? n_slices : 1, 1);
    int32_t *buf = (int32_t *)malloc(sizeof(int32_t) * SLICE);
    if (!same || !buf) {
        fprintf(stderr, "out of host memory for the check\n");
        exit(WB_EXIT_CUDA);
    }
#ifdef _OPENMP
#pragma omp parallel if (n_slices > 4)
#endif
    {
        int32_t *mine = (int32_t *)malloc(sizeof(int32_t) * SLICE); /* NULL: the slices stay unequal */
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
        for (long long q = 0; q < (long long)n_slices; q++) {
            size_t first = (size_t)q * SLICE, count = n - first < SLICE ? n - first : SLICE;
            if (!mine) continue;
            expect(ctx, first, count, mine);
            same[q] = memcmp(mine, got + first, sizeof(int32_t) * count) == 0;
        }
        free(mine);
    }
    for (size_t q = 0; q < n_slices; q++) {
        size_t first = q * SLICE, count = n - first < SLICE ? n - first : SLICE;
        if (same[q]) {
            c->checked += count;
            continue;
        }
        expect(ctx, first, count, buf);
        wb_check_i32(c, first, buf, got + first, count);
    }
    free(same);
    free(buf);
}

static inline void wb_check_i64(wb_check *c, unsigned long long offset, const int64_t *expected,
                                const int64_t *got, size_t n)
{
    if (memcmp(got, expected, 8 * n) == 0) {
        c->checked += n;
        return;
    }
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

/* One float element within its bound: |got - ref| ≤ bound (from the chapter's error analysis); NaN never
 * passes, and neither does the poison: where |ref| is below its bound, -2.9e-16 would be "within
 * tolerance", and an untouched output must read as never written (TODO), not as partly right. The host's
 * check (wb_check_f32_tol) and the GPU's per-repetition checks (wb_fresh.h) decide with these. */
WB_HD static inline int wb_f32_within(float got, double ref, double bound)
{
    uint32_t u;
    memcpy(&u, &got, 4);
    return got == got && u != WB_POISON_U32 && fabs((double)got - ref) <= bound;
}

WB_HD static inline int wb_f64_within(double got, double ref, double bound)
{
    uint64_t u;
    memcpy(&u, &got, 8);
    return got == got && u != WB_POISON_U64 && fabs(got - ref) <= bound;
}

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
        if (wb_f32_within(got[i], ref[i], bound[i]) || !wb_check_miss(c, poisoned)) continue;
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

/* ---------------------------------------------------------------- --grading: a wrong timed repetition */
/* Where a timed repetition's output (checked on the GPU, wb_fresh.h) was first wrong, as one 64-bit key
 * that atomicMin keeps: repetition (bits 52-63) | kind (50-51) | place (0-49), so the smallest key is
 * the earliest repetition's first fault. */
#define WB_FAULT_NONE 0xFFFFFFFFFFFFFFFFull
typedef enum { WB_FAULT_AT, WB_FAULT_AT2, WB_FAULT_ROW, WB_FAULT_VALUE } wb_fault_kind;

WB_HD static inline unsigned long long wb_fault_key(unsigned rep, wb_fault_kind kind, unsigned long long place)
{
    return (unsigned long long)rep << 52 | (unsigned long long)kind << 50 | (place & ((1ull << 50) - 1));
}
/* 2-D places: row and column, 25 bits each (the chapters' extents are below 2^25). */
WB_HD static inline unsigned long long wb_fault_ij(unsigned long long i, unsigned long long j) { return i << 25 | j; }

/* "repetition 37 of 1000 wrong at [12][40]" (repetitions counted from 1). */
static inline void wb_fault_str(unsigned long long key, int reps, char *out, size_t len)
{
    unsigned rep = (unsigned)(key >> 52) + 1;
    unsigned long long place = key & ((1ull << 50) - 1);
    int n = snprintf(out, len, "repetition %u of %d wrong ", rep, reps);
    if (n < 0 || (size_t)n >= len) return;
    switch ((wb_fault_kind)(key >> 50 & 3)) {
    case WB_FAULT_AT: snprintf(out + n, len - n, "at [%llu]", place); break;
    case WB_FAULT_AT2: snprintf(out + n, len - n, "at [%llu][%llu]", place >> 25, place & ((1ull << 25) - 1)); break;
    case WB_FAULT_ROW: snprintf(out + n, len - n, "in row %llu (its random projection)", place); break;
    default: snprintf(out + n, len - n, "(the value)"); break;
    }
}

#endif /* WB_WB_CHECK_H */
