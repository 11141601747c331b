/* correctness.h — running the student's build and the reference on fresh seeds and comparing the raw results. */
#ifndef GR_CORRECTNESS_H
#define GR_CORRECTNESS_H

#include "job.h"

/* Every variant's verdict; without a reference (j->ref NULL) the practice run's: the program's own (clearly
 * labelled). Returns 0, or -1 (-3: no GPU) with why when the reference or the program could not run. */
int gr_correctness(const gr_chjob *j, char *why, size_t wlen);

typedef struct { /* one run of a program for its --dump files: edge sizes first .. first + count - 1 */
    unsigned long long seed;
    int first, count;
    double limit;               /* the run's time limit; 0: the rubric's timeouts_s.run */
} gr_dump_chunk;

/* Runs prog's variants (comma-separated) over a chunk of sizes with --dump into dir (emptied first);
 * variants NULL: the program's own verdicts into dir/self.json, no dumps (the practice run). */
void gr_dump_run(const gr_chjob *j, const gr_dump_chunk *k, const char *prog, const char *variants, const char *dir,
                 const char *what, gr_cmd *c, gr_run_result *r);

/* 1 when the line of (variant, size) says the variant wrote its input (row: which and where), else 0. */
int gr_rows_input_written(const json_t *lines, const char *variant, const char *size, wb_row *row);

#endif /* GR_CORRECTNESS_H */
