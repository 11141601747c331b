/* budget.c — see budget.h. */
#include "budget.h"

#include <math.h>

void gr_budget_init(gr_budget *b, const gr_rubric *r)
{
    memset(b, 0, sizeof *b);
    b->cap_chapter = r->gpu_chapter_s;
    b->cap_submission = r->gpu_submission_s;
}

void gr_budget_chapter(gr_budget *b) { b->chapter = 0; }

void gr_budget_charge(gr_budget *b, double seconds)
{
    if (!b || !(seconds > 0)) return;
    b->chapter += seconds;
    b->submission += seconds;
}

void gr_budget_charge_span(gr_budget *b, double seconds) { if (b && seconds > 0) b->submission += seconds; }

int gr_budget_spent(const gr_budget *b, char *why, size_t len)
{
    if (!b) return 0; /* no budget: a run outside a submission's grading (the sanitizer probe, say) */
    int sub = b->cap_submission > 0 && b->submission >= b->cap_submission;
    int ch = b->cap_chapter > 0 && b->chapter >= b->cap_chapter;
    if (!sub && !ch) return 0;
    if (why && len)
        snprintf(why, len, "skipped: the %s's GPU time (%.0f s, rubric bounds.gpu_%s_s) was spent on earlier runs (%.0f s)",
                 sub ? "submission" : "chapter", sub ? b->cap_submission : b->cap_chapter, sub ? "submission" : "chapter",
                 sub ? b->submission : b->chapter);
    return 1;
}

double gr_budget_left(const gr_budget *b)
{
    double left = INFINITY;
    if (b && b->cap_chapter > 0) left = fmin(left, b->cap_chapter - b->chapter);
    if (b && b->cap_submission > 0) left = fmin(left, b->cap_submission - b->submission);
    return left > 0 ? left : 0;
}

double gr_confirm_limit(const gr_rubric *r, double ref_wall_s)
{
    double t = r->confirm_factor * (ref_wall_s > 0 ? ref_wall_s : 0);
    if (t < r->confirm_s) t = r->confirm_s;
    return t < r->t_run ? t : r->t_run;
}

double gr_sanitizer_limit(const gr_rubric *r, double ref_s)
{
    if (!(ref_s > 0)) return r->t_sanitizer;
    double t = r->sanitizer_factor * ref_s + r->sanitizer_slack_s;
    return t < r->t_sanitizer ? t : r->t_sanitizer;
}

double gr_perf_limit(const gr_rubric *r, double ref_wall_s)
{
    double slowest = r->n_bands ? r->band[r->n_bands - 1].within : 10;
    double t = 2 * slowest * (ref_wall_s > 0 ? ref_wall_s : 0);
    if (t < r->confirm_s) t = r->confirm_s;
    return t < r->t_perf ? t : r->t_perf;
}
