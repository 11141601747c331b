/*
 * prose.h — the sentences a student reads of what correctness saw: compare.c's pattern with its hint, a
 * variant's wrong runs (the most telling mismatch, how a run ended, each size's outcome), a written input,
 * the practice run's own verdicts. Composed from a gr_var_result's facts (results.h) when a writer renders
 * it (report.h); the steps that run programs write facts only. Pure; tests/test_judge.c.
 */
#ifndef GR_PROSE_H
#define GR_PROSE_H

#include "results.h"

/* One line naming the pattern of the errors, and one line of hint (tile: the chapter's block/tile width). */
void gr_pattern_text(int tile, const gr_cmp *c, char *pat, size_t plen, char *hint, size_t hlen);

/* What a variant is told of its correctness runs (at most GR_DETAIL_MAX - 1 bytes): "" for one that passed
 * or was not run. */
#define GR_DETAIL_MAX 1400
void gr_var_detail(const gr_var_result *r, char *out, size_t len);

#endif /* GR_PROSE_H */
