/* ncu.h — Nsight Compute CSV (`ncu --csv --page raw`, live or `--import R`): fields, units, metrics (ncu.c).
 * Read by the grader's counters (counters.h) and by tools/inspect's `make profile` (whose stalls.h ranks the
 * stall reasons). Plain C, no CUDA; parsers never print and never exit. */
#ifndef WB_TP_NCU_H
#define WB_TP_NCU_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

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

/* ncu --csv --page raw: lines before the header ("==PROF==", warnings) are skipped; the header starts with "ID"; the
 * line after it holds the units when its first field is empty. Returns 0, or -1 when there is no header. */
int tp_parse_csv(const char *text, tp_csv *c);

int tp_csv_col(const tp_csv *c, const char *name);

/* A numeric cell: "2,972.51" -> 2972.51 (ncu groups thousands with commas); NAN when empty or "n/a". */
double tp_number(const char *cell);

/* The value of the first metric in `names` (NULL-terminated) present in row r; NAN if none. */
double tp_csv_metric(const tp_csv *c, int r, const char *const *names, const char **unit);

#ifdef __cplusplus
}
#endif
#endif /* WB_TP_NCU_H */
