/*
 * jsonl.h — the one reader of the chapter programs' JSON lines (`--json`, `--list --json`), for the
 * C tools: the grader, the look-inside and handouts tools, the tests. Links with jansson.
 *
 *   wb_jsonl_parse / wb_jsonl_load   text or file → a jansson array of objects, one per line
 *   wb_jsonl_find                    the line of a variant (and size)
 *   wb_row_get                       one result line, checked and typed (fields: contract.h)
 */
#ifndef WB_JSONL_H
#define WB_JSONL_H

#include <jansson.h>
#include <stddef.h>

#include "contract.h"

/* Parses `len` bytes of JSON lines (blank lines skipped; every other line must be one JSON object).
 * Returns a new array (json_decref it), or NULL with "line N: reason" in err. */
json_t *wb_jsonl_parse(const char *text, size_t len, char *err, size_t errlen);

/* The same for a file. */
json_t *wb_jsonl_load(const char *path, char *err, size_t errlen);

/* The first line whose "variant" is `variant` and, unless size is NULL, whose "size" is `size`. */
json_t *wb_jsonl_find(const json_t *lines, const char *variant, const char *size);

/* Does a line of the JSON-lines file at path say `variant` (NULL: any) is UNAVAILABLE? 1 with its reason in
 * why (len 0: not wanted), 0 when none does or the file cannot be read. */
int wb_jsonl_unavailable(const char *path, const char *variant, char *why, size_t len);

/* One result line, typed. Numbers that were null (or absent) read as NAN; strings not given read "". */
typedef struct {
    char chapter[32], variant[64], size[48], gpu[128], unit[24], extra_name[32], extra[32];
    long long dims[WB_MAX_DIMS];
    int n_dims;
    unsigned long long seed;
    int reps;
    double median_ms, prep_ms, throughput, sol_pct, speedup;
    wb_verdict verdict;
    /* --grading only: WB_NOT_CHECKED / NAN when the line does not have them (a run without --grading,
     * or a forged line: the grader tells the two apart by the reference's line). */
    wb_grading_check timed_check, rotated_check;
    double cpu_ms;
    /* The variant changed an input (any run, wb_inputs.h): the first changed element, -1 when the line
     * does not say so; and which input ("" when none). */
    long long input_written;
    char input_written_name[32];
    /* --grading, a timed repetition wrong (fresh inputs): which and where ("" when the line does not say). */
    char timed_fault[96];
    double rep_wall_ms;  /* fresh inputs: wall clock per timed repetition; NAN when the line does not say */
    /* verdict UNAVAILABLE: why the program says this GPU cannot run the variant ("" when not said). The
     * grader believes it of the reference's run only (grading/results.h, gr_avail_decide). */
    char unavailable_reason[WB_REASON_LEN];
} wb_row;

/* Fills *row from one result line; returns 0, or -1 with the first missing or mistyped field named
 * in err (variant, size and verdict are required; timed_check and rotated_check, when present, must be
 * "PASS" or "FAIL"; input_written, when present, a non-negative integer). */
int wb_row_get(const json_t *line, wb_row *row, char *err, size_t errlen);

#endif /* WB_JSONL_H */
