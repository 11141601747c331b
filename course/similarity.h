/* similarity.h — which students handed in the same code, by similarity-tester's sim_c, on what students
 * wrote only (TODO regions that differ from the starter's): per chapter every pair (sim_c -p -e) and each
 * student against the reference's regions (-S), with the matching passages of each pair at or above the
 * threshold. <out>/similarity.json, for the class page: it never changes a grade. */
#ifndef GR_SIMILARITY_H
#define GR_SIMILARITY_H
#include "job.h"

/* The text sim_c sees for one student's file: each region whose content differs from the same region of
 * the starter, after a comment naming it. NULL when the file's regions cannot be parsed; "" when none
 * differs. */
char *gr_sim_regions(const char *student, size_t slen, const char *pristine, size_t plen);

/* One line of `sim_c -p`: "A consists for N % of B material". 0 and the parts, else -1. */
int gr_sim_parse_line(const char *line, char *a, size_t alen, char *b, size_t blen, int *pct);

/* The students that pairs ([{a, b, percent}], at or above the threshold) link, a group each: pairs by percent,
 * highest first, and each that joins two groups is "shown" (the class page shows its passages: n - 1 for a group
 * of n, where all its pairs are n (n - 1) / 2, 4,950 for 100 copies). Each pair gets its group's index ("group");
 * returns the groups ([{students, pairs}]) in the order of their first pair. Pure: changes only pairs. */
json_t *gr_sim_groups(json_t *pairs);

/* Compares the class in subs (entries as roster.h lists them) chapter by chapter and writes
 * <out>/similarity.json; threshold in percent (1-100). Without sim_c the file says so and why. 0 on
 * success (a missing tool included), -1 when the file could not be written. */
int gr_similarity(const gr_config *x, const char *subs, int threshold);
#endif
