/*
 * wb_table.h — output: the table row and the JSON line of one (variant, size).
 * Part of the chapters' harness: plain C (C99), static inline, included through wb.h.
 */
#ifndef WB_WB_TABLE_H
#define WB_WB_TABLE_H

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contract.h"

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
    /* --grading only; cpu_ms < 0 when not measured. */
    wb_grading_check timed_check, rotated_check;
    double cpu_ms;
    /* A run of the variant changed one of its inputs (wb_inputs.h): which (its label) and the first
     * element that changed. Zero (as in a zeroed struct) when its inputs stayed as generated. */
    int wrote_input;
    long long input_element;
    char input_name[32];
    /* --grading, timed_check FAIL on fresh inputs (wb_time_fresh): "repetition R of N wrong at …". */
    char timed_fault[96];
    /* --grading on fresh inputs: wall-clock ms per timed repetition, generation and check included (the
     * grader sizes its wall-clock cross-check by the reference's); 0: not measured. */
    double rep_wall_ms;
    /* verdict WB_UNAVAILABLE: why this GPU, or this build on it, cannot run the variant (wb_avail.h). */
    char unavailable_reason[WB_REASON_LEN];
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
    if (r->verdict == WB_UNAVAILABLE && !r->is_reference)
        fprintf(f, "  N/A: not available on this GPU: %s\n", r->unavailable_reason);
    else fprintf(f, "  %s\n", r->is_reference ? "(speed of light)" : wb_verdict_name(r->verdict));
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
    if (r->timed_check)
        fprintf(f, ",\"" WB_JSON_TIMED_CHECK "\":\"%s\"", r->timed_check == WB_CHECKED_PASS ? "PASS" : "FAIL");
    if (r->rep_wall_ms > 0) {
        fputs(",\"" WB_JSON_REP_WALL_MS "\":", f);
        wb_json_number(f, r->rep_wall_ms);
    }
    if (r->timed_fault[0]) {
        fputs(",\"" WB_JSON_TIMED_FAULT "\":", f);
        wb_json_string(f, r->timed_fault);
    }
    if (r->rotated_check)
        fprintf(f, ",\"" WB_JSON_ROTATED_CHECK "\":\"%s\"", r->rotated_check == WB_CHECKED_PASS ? "PASS" : "FAIL");
    if (r->cpu_ms >= 0) {
        fputs(",\"" WB_JSON_CPU_MS "\":", f);
        wb_json_number(f, r->cpu_ms);
    }
    if (r->wrote_input) {
        fprintf(f, ",\"" WB_JSON_INPUT_WRITTEN "\":%lld,\"" WB_JSON_INPUT_WRITTEN_NAME "\":", r->input_element);
        wb_json_string(f, r->input_name);
    }
    if (r->verdict == WB_UNAVAILABLE && !r->is_reference) {
        fputs(",\"" WB_JSON_UNAVAILABLE_REASON "\":", f);
        wb_json_string(f, r->unavailable_reason);
    }
    fputs(",\"verdict\":", f);
    wb_json_string(f, r->is_reference ? "REFERENCE" : wb_verdict_name(r->verdict));
    fputs("}\n", f);
    fflush(f);
}

#endif /* WB_WB_TABLE_H */
