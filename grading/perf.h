/* perf.h — alternating benchmark runs, medians, the wall-clock cross-check and the performance points. */
#ifndef GR_PERF_H
#define GR_PERF_H

#include "job.h"

void gr_perf(const gr_chjob *j);

/* The student's high repetition count: the reference's (hi), unless the student's low run shows by the
 * wall clock, which it cannot forge, that so many would not end within half the benchmark's limit (a
 * variant computing on the host): then as many as fit, at least one more than the low count, so the
 * cross-check still has extra repetitions. ref_per_ms: the reference's milliseconds per repetition. */
int gr_perf_student_hi(const gr_rubric *rub, double ref_per_ms, double ref_wall_lo_s, double stu_wall_lo_s, int hi);

/* The reference's wall clock per reported millisecond, allowed to the student's cross-check (1 to 5): its high
 * run's wall clock less its low one's (d_r s) over what its times predict (p_r), never below its lines' own wall
 * clock per repetition over their kernel times (per_wall_ms, per_ms: all variants; alone if high_ran 0). Pure. */
double gr_perf_calibration(int high_ran, double d_r, double p_r, double per_ms, double per_wall_ms);

/* A timed variant's points: r->stu_ms over ref_ms by the rubric's bands, and the sentence (ref_what: whose
 * time, e.g. "the reference's"). */
void gr_perf_points(const gr_rubric *rub, gr_var_result *r, double ref_ms, const char *ref_what);

/* Check mode: the student's own times, no reference. */
void gr_perf_self(const gr_chjob *j);

#endif /* GR_PERF_H */
