/*
 * budget.h — what one submission may cost the GPU, whatever its code does. Every run that holds the GPU charges
 * its wall time to its chapter's share and the submission's (rubric "bounds"); once a share is spent, a step is
 * skipped and the feedback says so. The limits of runs after a failure derive from the reference's own times: a
 * variant that hung costs one run at the limit and one short confirmation. Pure: the caller measures.
 */
#ifndef GR_BUDGET_H
#define GR_BUDGET_H

#include "rubric.h"

typedef struct {
    double cap_chapter, cap_submission;  /* seconds (rubric) */
    double chapter, submission;          /* used */
} gr_budget;

void gr_budget_init(gr_budget *b, const gr_rubric *r);

/* A new chapter: its share starts from zero (the submission's goes on). */
void gr_budget_chapter(gr_budget *b);

/* b may be NULL (no submission's budget: the call does nothing, and nothing is spent). */
void gr_budget_charge(gr_budget *b, double seconds);

/* Runs that overlapped (a submission's chapters graded at once) charge the submission their span once, not
 * their sum; the chapters' own shares are charged by their runs as usual. */
void gr_budget_charge_span(gr_budget *b, double seconds);

/* 0 while both shares have time left (or b is NULL); else 1 with a sentence for the feedback in why (or NULL). */
int gr_budget_spent(const gr_budget *b, char *why, size_t len);

/* Seconds left of the tighter share (INFINITY where b is NULL or neither has a cap), never below 0. */
double gr_budget_left(const gr_budget *b);

/* A run that confirms a timeout or a crash alone: max(confirm_s, confirm_factor x the reference's run of the
 * same sizes), never above the run limit. */
double gr_confirm_limit(const gr_rubric *r, double ref_wall_s);

/* A student's compute-sanitizer run: sanitizer_factor x the reference's run of the tool plus
 * sanitizer_slack_s, never above timeouts_s.sanitizer; that limit where the reference's time is unknown. */
double gr_sanitizer_limit(const gr_rubric *r, double ref_s);

/* A student's low-repetition benchmark run: 2 x the last performance band's `within` x the reference's run
 * of the same repetitions, at least confirm_s, never above timeouts_s.perf (a hang costs this, not more). */
double gr_perf_limit(const gr_rubric *r, double ref_wall_s);

#endif /* GR_BUDGET_H */
