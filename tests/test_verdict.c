/* A variant's verdict (grading/results.h gr_verdict_decide) over every case, as a judge's verdict
 * function is tested on its own; and which variants the later steps run on (gr_var_sanitized,
 * gr_var_feedback_sanitized): pure decisions, no program run. */
#include "wbtest.h"

#include "results.h"

/* Against the reference: 2 seeds x 3 sizes = 6 comparisons. */
static gr_verdict judge(int bad, int todo, int failed, int timed_out, int crashed)
{
    const gr_verdict_facts f = {.runs_total = 6, .runs_bad = bad, .runs_todo = todo, .failed = failed,
                                .timed_out = timed_out, .crashed = crashed};
    return gr_verdict_decide(&f);
}

Test(verdict, nothing_wrong_passes)
{
    cr_expect_eq(judge(0, 0, 0, 0, 0), GR_V_PASS);
    /* a run that ended badly but left every result, all matching: what counts is the results */
    cr_expect_eq(judge(0, 0, 1, 1, 0), GR_V_PASS);
}

Test(verdict, the_untouched_poison_everywhere_is_todo_and_anywhere_less_is_wrong)
{
    cr_expect_eq(judge(6, 6, 0, 0, 0), GR_V_TODO);
    cr_expect_eq(judge(6, 5, 0, 0, 0), GR_V_WRONG, "one size really computed something wrong");
    cr_expect_eq(judge(5, 5, 0, 0, 0), GR_V_WRONG, "one size right: it is not simply unimplemented");
}

Test(verdict, a_run_that_ended_badly_names_how_timeout_before_crash_before_error)
{
    cr_expect_eq(judge(2, 0, 1, 1, 1), GR_V_TIMEOUT);
    cr_expect_eq(judge(2, 0, 1, 0, 1), GR_V_CRASH);
    cr_expect_eq(judge(2, 0, 1, 0, 0), GR_V_ERROR);
    /* how it ended without a failed run on record is a mismatch, not a crash */
    cr_expect_eq(judge(2, 0, 0, 1, 1), GR_V_WRONG);
    /* a TODO that also crashed partway is still a TODO when every run is the poison */
    cr_expect_eq(judge(6, 6, 1, 0, 1), GR_V_TODO);
}

Test(verdict, the_practice_run_passes_only_on_every_row_passing)
{
    gr_verdict_facts f = {.self = 1, .runs_expected = 6, .runs_total = 6};
    cr_expect_eq(gr_verdict_decide(&f), GR_V_SELF_PASS);
    f.runs_total = 5; /* a row missing: the program died partway */
    cr_expect_eq(gr_verdict_decide(&f), GR_V_SELF_FAIL);
    f.runs_total = 6, f.runs_bad = 1;
    cr_expect_eq(gr_verdict_decide(&f), GR_V_SELF_FAIL);
    f.runs_bad = 6, f.runs_todo = 6;
    cr_expect_eq(gr_verdict_decide(&f), GR_V_TODO);
    f.runs_total = 0, f.runs_bad = 0, f.runs_todo = 0; /* no row at all: not a TODO, a failure */
    cr_expect_eq(gr_verdict_decide(&f), GR_V_SELF_FAIL);
}

Test(verdict, the_sanitizer_scores_correct_variants_and_the_feedback_run_skips_a_hung_one)
{
    gr_var_result r;
    memset(&r, 0, sizeof r);
    static const struct {
        gr_verdict v;
        int scored, feedback;
    } want[] = {{GR_V_NOT_RUN, 0, 0}, {GR_V_PASS, 1, 0},  {GR_V_WRONG, 0, 1},     {GR_V_TODO, 0, 0},      {GR_V_CRASH, 0, 1},
                {GR_V_TIMEOUT, 0, 0}, {GR_V_ERROR, 0, 1}, {GR_V_SELF_PASS, 1, 0}, {GR_V_SELF_FAIL, 0, 0}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        r.verdict = want[i].v;
        cr_expect_eq(gr_var_sanitized(&r), want[i].scored, "%s", gr_verdict_name(want[i].v));
        cr_expect_eq(gr_var_feedback_sanitized(&r), want[i].feedback, "%s", gr_verdict_name(want[i].v));
    }
    r.verdict = GR_V_WRONG, r.san_state = GR_SANV_FEEDBACK_FINDING; /* its finding is known: not run again */
    cr_expect_eq(gr_var_feedback_sanitized(&r), 0);
}

Test(verdict, a_finding_outranks_no_verdict_in_what_the_reports_read)
{
    cr_expect(!gr_sanv_ran(GR_SANV_NOT_RUN) && !gr_sanv_ran(GR_SANV_FEEDBACK_FINDING));
    cr_expect(gr_sanv_ran(GR_SANV_CLEAN) && gr_sanv_ran(GR_SANV_UNFINISHED) && gr_sanv_ran(GR_SANV_FINDING));
    cr_expect(gr_sanv_found(GR_SANV_FINDING) && gr_sanv_found(GR_SANV_FEEDBACK_FINDING));
    cr_expect(!gr_sanv_found(GR_SANV_UNFINISHED) && !gr_sanv_found(GR_SANV_CLEAN));
}
