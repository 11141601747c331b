/* What one submission may cost (grading/budget.h) and how compute-sanitizer runs on a host
 * (grading/sanhost.h): pure decisions, every case. */
#include "wbrubric.h"

#include "budget.h"
#include "sanhost.h"

static gr_rubric rubric(void)
{
    static gr_rubric r;
    char err[300];
    cr_assert_eq(gr_rubric_load_at(".", "grading/rubric.json", &r, err, sizeof err), 0, "%s", err);
    return r;
}

Test(budget, a_chapter_share_and_the_submission_share_run_out_separately)
{
    gr_rubric r = rubric();
    r.gpu_chapter_s = 60;
    r.gpu_submission_s = 150;
    gr_budget b;
    gr_budget_init(&b, &r);
    char why[300];
    gr_budget_charge(&b, 59.9);
    cr_expect_eq(gr_budget_spent(&b, why, sizeof why), 0);
    gr_budget_charge(&b, 0.2);
    cr_expect_eq(gr_budget_spent(&b, why, sizeof why), 1);
    cr_expect(strstr(why, "chapter") && strstr(why, "60 s"), "%s", why);
    gr_budget_chapter(&b); /* the next chapter starts afresh, the submission does not */
    cr_expect_eq(gr_budget_spent(&b, NULL, 0), 0);
    gr_budget_charge(&b, 50);
    gr_budget_chapter(&b);
    gr_budget_charge(&b, 40.1);
    cr_expect_eq(gr_budget_spent(&b, why, sizeof why), 1, "60.1 + 50 + 40.1 > 150");
    cr_expect(strstr(why, "submission") && strstr(why, "150 s"), "%s", why);
    gr_budget_charge(&b, -5); /* a run that never started charges nothing */
    gr_budget_charge(NULL, 5); /* outside a submission's grading: no budget, nothing spent */
    cr_expect_eq(gr_budget_spent(NULL, why, sizeof why), 0);
    cr_expect_float_eq(b.submission, 150.2, 1e-9);
}

/* Chapters graded at once (pipeline.c): each charges its own share as it runs; the submission is charged
 * their span once. Seen on the H100 when each charged the submission its own sum: the references' five
 * chapters side by side, 41 s each under a loaded GPU, spent the submission's 240 s before any benchmark. */
Test(budget, chapters_at_once_charge_the_submission_their_span_once)
{
    gr_rubric r = rubric();
    r.gpu_chapter_s = 90;
    r.gpu_submission_s = 240;
    gr_budget sub;
    gr_budget_init(&sub, &r);
    gr_budget ch[5];
    for (int c = 0; c < 5; c++) { /* what each chapter's process does with its copy */
        ch[c] = sub;
        gr_budget_chapter(&ch[c]);
        gr_budget_charge(&ch[c], 50);
        cr_expect_eq(gr_budget_spent(&ch[c], NULL, 0), 0, "50 s of a chapter's 90 s");
    }
    gr_budget_charge_span(&sub, 52); /* the parent, once they are all back */
    cr_expect_float_eq(sub.submission, 52, 1e-9, "the span, not 5 x 50 = 250");
    cr_expect_eq(gr_budget_spent(&sub, NULL, 0), 0);
    cr_expect_float_eq(sub.chapter, 0, 1e-9, "the span is no chapter's share");
    gr_budget_chapter(&sub);
    gr_budget_charge(&sub, 189); /* a benchmark after them still meets the submission's cap */
    char why[300];
    cr_expect_eq(gr_budget_spent(&sub, why, sizeof why), 1, "52 + 189 > 240");
    cr_expect(strstr(why, "submission") && strstr(why, "(240 s,"), "%s", why);
    gr_budget_charge_span(NULL, 5); /* no budget: nothing */
    gr_budget_charge_span(&sub, -1);
    cr_expect_float_eq(sub.submission, 241, 1e-9);
}

Test(budget, a_confirmation_is_short_and_derived_from_the_reference)
{
    gr_rubric r = rubric();
    r.confirm_s = 10;
    r.confirm_factor = 5;
    r.t_run = 30;
    cr_expect_float_eq(gr_confirm_limit(&r, 0.4), 10, 1e-9, "at least confirm_s");
    cr_expect_float_eq(gr_confirm_limit(&r, 3), 15, 1e-9, "5 x the reference's 3 s");
    cr_expect_float_eq(gr_confirm_limit(&r, 100), 30, 1e-9, "never above the run limit");
}

Test(budget, the_sanitizer_limit_follows_the_reference_run_of_the_tool)
{
    gr_rubric r = rubric();
    r.sanitizer_factor = 4;
    r.sanitizer_slack_s = 20;
    r.t_sanitizer = 240;
    cr_expect_float_eq(gr_sanitizer_limit(&r, 5), 40, 1e-9);
    cr_expect_float_eq(gr_sanitizer_limit(&r, 0), 240, 1e-9, "unknown: the full limit, never a guess");
    cr_expect_float_eq(gr_sanitizer_limit(&r, 100), 240, 1e-9);
}

Test(budget, a_benchmark_hang_costs_what_the_last_band_allows)
{
    gr_rubric r = rubric();
    r.confirm_s = 10;
    r.t_perf = 120;
    double last = r.band[r.n_bands - 1].within;
    cr_expect_float_eq(gr_perf_limit(&r, 1.5), 2 * last * 1.5 > 10 ? (2 * last * 1.5 < 120 ? 2 * last * 1.5 : 120) : 10, 1e-9);
    cr_expect_float_eq(gr_perf_limit(&r, 0.01), 10, 1e-9);
    cr_expect_float_eq(gr_perf_limit(&r, 50), 120, 1e-9);
}

Test(budget, the_rubric_refuses_a_bad_bound_or_rule)
{
    gr_rubric r;
    char err[300];
    cr_expect_neq(wbr_load(NULL, "{\"bounds\": {\"gpu_chapter_s\": 0}}", &r, err, sizeof err), 0);
    cr_expect_neq(wbr_load(NULL, "{\"bounds\": {\"gpu_chapters\": 60}}", &r, err, sizeof err), 0);
    cr_expect_neq(wbr_load(NULL, "{\"sanitizer_without_bubblewrap\": \"plain\"}", &r, err, sizeof err), 0);
    cr_expect(strstr(err, "isolated"), "%s", err);
}

/* Every case of the host's decision: a submission takes no part in it. */
Test(sanhost, the_decision_is_the_hosts)
{
    gr_san_facts f = {.installed = 0};
    cr_expect_eq(gr_san_decide(&f), GR_SAN_ABSENT);
    f = (gr_san_facts){.installed = 1, .probed = 0};
    cr_expect_eq(gr_san_decide(&f), GR_SAN_UNPROBED);
    f = (gr_san_facts){.installed = 1, .probed = 1, .finished = 1, .bwrap = 1};
    cr_expect_eq(gr_san_decide(&f), GR_SAN_SANDBOX);
    f = (gr_san_facts){.installed = 1, .probed = 1, .finished = 1, .bwrap = 0};
    cr_expect_eq(gr_san_decide(&f), GR_SAN_SANDBOX, "no bubblewrap at all: the same sandbox as every run");
    f = (gr_san_facts){.installed = 1, .probed = 1, .finished = 0, .bwrap = 1, .root = 1, .finished_uid = 1};
    cr_expect_eq(gr_san_decide(&f), GR_SAN_UID, "as root, the uid isolation the other runs would get without it");
    f.fallback_skip = 1;
    cr_expect_eq(gr_san_decide(&f), GR_SAN_SKIP, "the rubric said skip");
    f = (gr_san_facts){.installed = 1, .probed = 1, .finished = 0, .bwrap = 1, .root = 0, .finished_uid = 1};
    cr_expect_eq(gr_san_decide(&f), GR_SAN_SKIP, "not root: outside bubblewrap nothing keeps the course closed");
    f = (gr_san_facts){.installed = 1, .probed = 1, .finished = 0, .bwrap = 1, .root = 1, .finished_uid = 0};
    cr_expect_eq(gr_san_decide(&f), GR_SAN_SKIP, "it does not finish there either");
    f = (gr_san_facts){.installed = 1, .probed = 1, .finished = 0, .bwrap = 0, .root = 1, .finished_uid = 1};
    cr_expect_eq(gr_san_decide(&f), GR_SAN_SKIP, "no bubblewrap to step down from");
}
