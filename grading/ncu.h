/* ncu.h — Nsight Compute CSV (`ncu --csv --page raw`, live or `--import R`): metrics and the top stall reasons
 * (ncu.c). Read by the grader's counters (counters.h) and by tools/inspect's `make profile`. Plain C, no CUDA;
 * parsers never print and never exit. */
#ifndef WB_TP_NCU_H
#define WB_TP_NCU_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* n bytes of s into buf (len > 0), cut to fit and terminated (also tools/inspect's). */
void tp_copy(char *buf, size_t len, const char *s, size_t n);

/* ================================================================ CSV (ncu --csv) */
typedef struct {
    int n_cols, n_rows;
    char **header;           /* n_cols */
    char **units;            /* n_cols, or NULL */
    char ***rows;            /* n_rows × n_cols */
} tp_csv;

/* Splits one CSV record (RFC 4180 quoting: "a ""b""" -> a "b"). Returns the number of fields. */
int tp_csv_split(const char *line, char ***fields_out);

void tp_csv_free(tp_csv *c);

/* ncu --csv --page raw: lines before the header ("==PROF==", warnings) are skipped; the header starts
 * with "ID"; the line after it holds the units when its first field is empty. Returns 0, or -1 when
 * there is no header. */
int tp_parse_csv(const char *text, tp_csv *c);

int tp_csv_col(const tp_csv *c, const char *name);

/* A numeric cell: "2,972.51" -> 2972.51 (ncu groups thousands with commas); NAN when empty or "n/a". */
double tp_number(const char *cell);

/* The value of the first metric in `names` (NULL-terminated) present in row r; NAN if none. */
double tp_csv_metric(const tp_csv *c, int r, const char *const *names, const char **unit);

/* Multiplier from an ncu unit to the base unit: "Gbyte/second" -> 1e9, "KiB" -> 1024, "ns"/"nsecond" ->
 * 1e-9 (time in seconds), "%" -> 1. */
double tp_unit_scale(const char *unit);

/* Warp stall reasons: ncu's WarpStateStats metrics smsp__average_warps_issue_stalled_<reason>_per_issue_active
 * .ratio, the average number of warps waiting for that reason per issued instruction (their sum is the
 * "warp cycles per issued instruction" of the Nsight Compute GUI). The three largest, "selected" (not a
 * stall) excluded. Returns how many were found (≤ 3). */
typedef struct {
    char reason[48];
    double value;
} tp_stall;

int tp_ncu_top_stalls(const tp_csv *c, int r, tp_stall top[3]);

/* What a stall reason means, for students. */
const char *tp_stall_meaning(const char *reason);

#ifdef __cplusplus
}
#endif
#endif /* WB_TP_NCU_H */
