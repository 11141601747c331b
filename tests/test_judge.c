/* The results model's judgments (grading/results.h: scores, which chapters were not graded, the words of
 * each state) and the feedback's sentences composed from what correctness saw (grading/report.h): the
 * texts below are those correctness.c wrote before its facts and its prose were apart, byte for byte.
 * Pure: no program run. */
#include "wbtest.h"

#include "report.h"

static gr_var_result wrong_variant(gr_verdict v)
{
    gr_var_result r = {.verdict = v};
    gr_diag_ev_init(&r.ev, NULL, -1);
    r.ev.tile = 256;
    r.ev.n_sizes = 2;
    snprintf(r.ev.size_name[0], sizeof r.ev.size_name[0], "1");
    snprintf(r.ev.size_name[1], sizeof r.ev.size_name[1], "257");
    r.ev.size[0].out = GR_SZ_PASS;
    r.ev.size[1].out = v == GR_V_CRASH ? GR_SZ_CRASH : GR_SZ_WRONG;
    r.seen.runs_bad = 2;
    r.seen.runs_total = 4;
    snprintf(r.seen.sizes_bad, sizeof r.seen.sizes_bad, "257");
    return r;
}

/* A tail mismatch at size 257 of seed 11. */
static void tail_mismatch(gr_var_facts *f)
{
    f->mismatch = 1;
    f->seed = 11;
    snprintf(f->size, sizeof f->size, "257");
    f->cmp = (gr_cmp){.n = 257, .wrong = 1, .first = 256, .pattern = GR_PAT_TAIL, .exp_bytes = 1028, .got_bytes = 1028};
    snprintf(f->cmp.where, sizeof f->cmp.where, "[256]");
    snprintf(f->cmp.expected, sizeof f->cmp.expected, "0");
    snprintf(f->cmp.got, sizeof f->cmp.got, "-1515870811");
}

#define TAIL_TEXT                                                                                                    \
    "seed 11, size 257: first mismatch at [256]: expected 0, got -1515870811; 1 of 257 elements wrong\n"            \
    "Pattern: wrong only in the last, partial tile of 256\n"                                                        \
    "Hint: The last partial block/tile is mishandled: check the bounds test (i < n) and the rounding up of the "    \
    "grid; test a size that is not a multiple of the block."
#define RUNS_TEXT "\nWrong at 2 of 4 runs (sizes: 257).\nBy size: 1 ok, 257 wrong"

Test(judge, a_variant_that_passed_or_was_not_run_is_told_nothing)
{
    char out[GR_DETAIL_MAX] = "x";
    gr_var_result r = wrong_variant(GR_V_PASS);
    tail_mismatch(&r.seen);
    gr_var_detail(&r, out, sizeof out);
    cr_expect_str_eq(out, "");
    r.verdict = GR_V_NOT_RUN;
    gr_var_detail(&r, out, sizeof out);
    cr_expect_str_eq(out, "");
}

Test(judge, a_wrong_variant_reads_its_most_telling_mismatch_then_its_runs_and_sizes)
{
    char out[GR_DETAIL_MAX];
    gr_var_result r = wrong_variant(GR_V_WRONG);
    tail_mismatch(&r.seen);
    gr_var_detail(&r, out, sizeof out);
    cr_expect_str_eq(out, TAIL_TEXT RUNS_TEXT);
}

Test(judge, a_todo_is_one_sentence)
{
    char out[GR_DETAIL_MAX];
    gr_var_result r = wrong_variant(GR_V_TODO);
    gr_var_detail(&r, out, sizeof out);
    cr_expect_str_eq(out, "not implemented: the output was never written (still the poison 0xA5A5A5A5) at any size.");
}

Test(judge, how_a_run_ended_comes_first_with_the_programs_last_lines)
{
    char out[GR_DETAIL_MAX];
    gr_var_result r = wrong_variant(GR_V_CRASH);
    r.seen.lost = GR_LOST_RAN;
    snprintf(r.seen.lost_how, sizeof r.seen.lost_how, "was killed by signal 11 (SIGSEGV)");
    snprintf(r.seen.lost_tail, sizeof r.seen.lost_tail, "boom");
    r.seen.mismatch = 1;
    r.seen.seed = 11;
    snprintf(r.seen.size, sizeof r.seen.size, "257");
    r.seen.cmp = (gr_cmp){.n = 257, .wrong = 257, .first = -1, .pattern = GR_PAT_LENGTH, .exp_bytes = 1028, .got_bytes = -1};
    gr_var_detail(&r, out, sizeof out);
    cr_expect_str_eq(out, "the program was killed by signal 11 (SIGSEGV):\nboom\n"
                          "seed 11, size 257: no result file was written\n"
                          "Hint: The program did not finish this run: see how it ended (crash, time limit, CUDA error)."
                          "\nWrong at 2 of 4 runs (sizes: 257).\nBy size: 1 ok, 257 crash");
    r.seen.lost_tail[0] = 0;
    r.seen.mismatch = 0;
    gr_var_detail(&r, out, sizeof out);
    cr_expect_str_eq(out, "the program was killed by signal 11 (SIGSEGV)\n\nWrong at 2 of 4 runs (sizes: 257).\n"
                          "By size: 1 ok, 257 crash");
    r.seen.lost = GR_LOST_NO_BUDGET;
    snprintf(r.seen.lost_how, sizeof r.seen.lost_how, "not run: the chapter's GPU budget is spent");
    gr_var_detail(&r, out, sizeof out);
    cr_expect_str_eq(out, "its run next to the other variants left results missing; the run alone was not run: the "
                          "chapter's GPU budget is spent\n\nWrong at 2 of 4 runs (sizes: 257).\nBy size: 1 ok, 257 crash");
}

Test(judge, a_written_input_is_named_first_and_the_mismatch_before_it_follows)
{
    char out[GR_DETAIL_MAX];
    gr_var_result r = wrong_variant(GR_V_WRONG);
    r.seen.wrote_input = 1;
    snprintf(r.seen.input_name, sizeof r.seen.input_name, "input 0");
    r.seen.input_at = 3;
    r.seen.input_seed = 12;
    snprintf(r.seen.input_size, sizeof r.seen.input_size, "1");
    gr_var_detail(&r, out, sizeof out);
    cr_expect_str_eq(out, "writes its input: input 0 changed at element 3 (inputs are read-only), seed 12, size 1" RUNS_TEXT);
    tail_mismatch(&r.seen);
    r.seen.input_name[0] = 0; /* a line that does not say which */
    gr_var_detail(&r, out, sizeof out);
    cr_expect_str_eq(out, "writes its input: an input changed at element 3 (inputs are read-only), seed 12, size 1\n"
                          TAIL_TEXT RUNS_TEXT);
}

Test(judge, the_practice_run_says_its_own_first_failing_row_or_how_it_ended)
{
    char out[GR_DETAIL_MAX];
    gr_var_result r = wrong_variant(GR_V_SELF_FAIL);
    r.seen.self = 1;
    gr_var_detail(&r, out, sizeof out);
    cr_expect_str_eq(out, "no verdict reported");
    r.seen.lost = GR_LOST_RAN;
    snprintf(r.seen.lost_how, sizeof r.seen.lost_how, "exited with code 3");
    gr_var_detail(&r, out, sizeof out);
    cr_expect_str_eq(out, "the program exited with code 3");
    snprintf(r.seen.self_row, sizeof r.seen.self_row, "FAIL");
    snprintf(r.seen.size, sizeof r.seen.size, "257");
    r.seen.seed = 11;
    gr_var_detail(&r, out, sizeof out);
    cr_expect_str_eq(out, "self-check: FAIL at size 257, seed 11");
    r.verdict = GR_V_TODO; /* the practice run's TODO is its own row, not the poison sentence */
    gr_var_detail(&r, out, sizeof out);
    cr_expect_str_eq(out, "self-check: FAIL at size 257, seed 11");
    r.verdict = GR_V_SELF_PASS;
    gr_var_detail(&r, out, sizeof out);
    cr_expect_str_eq(out, "");
}

Test(judge, scores_add_up_per_variant_chapter_and_submission)
{
    static gr_sub_result s;
    s.n_ch = 2;
    s.ch[0].n_v = 2;
    s.ch[0].v[0] = (gr_var_result){.rub = {.correct = 2, .perf = 2, .sanitizer = 1}, .correct_pts = 2, .perf_pts = 0.5, .san_pts = 1};
    s.ch[0].v[1] = (gr_var_result){.rub = {.correct = 3, .perf = 0, .sanitizer = 0}};
    s.ch[1].n_v = 1;
    s.ch[1].v[0] = (gr_var_result){.rub = {.correct = 1, .perf = 1, .sanitizer = 1}, .correct_pts = 1};
    cr_expect_float_eq(gr_var_score(&s.ch[0].v[0]), 3.5, 1e-12);
    cr_expect_float_eq(gr_var_max(&s.ch[0].v[0]), 5, 1e-12);
    gr_sub_totals(&s);
    cr_expect_float_eq(s.ch[0].score, 3.5, 1e-12);
    cr_expect_float_eq(s.ch[0].max, 8, 1e-12);
    cr_expect_float_eq(s.ch[1].score, 1, 1e-12);
    cr_expect_float_eq(s.score, 4.5, 1e-12);
    cr_expect_float_eq(s.max, 11, 1e-12);
}

Test(judge, only_the_graders_failures_leave_a_chapter_not_graded)
{
    for (int st = GR_CH_GRADED; st <= GR_CH_NO_GPU; st++)
        cr_expect_eq(gr_ch_not_graded((gr_ch_status)st), st == GR_CH_GRADER_ERROR || st == GR_CH_NO_GPU, "%s",
                     gr_ch_status_name((gr_ch_status)st));
}

Test(judge, every_states_word_reads_back_as_that_state)
{
    for (int st = GR_CH_GRADED; st <= GR_CH_NO_GPU; st++)
        cr_expect_eq(gr_ch_status_parse(gr_ch_status_name((gr_ch_status)st)), st);
    for (int st = 0; st < GR_SUB_STATUS_N; st++) cr_expect_eq(gr_sub_status_parse(gr_sub_status_name((gr_sub_status)st)), st);
    cr_expect_eq(gr_ch_status_parse("passed"), -1);
    cr_expect_eq(gr_sub_status_parse(NULL), -1);
    cr_expect_str_eq(gr_sub_status_name(GR_SUB_STATUS_N), "?");
    for (int e = 0; e < GR_EXIT_N; e++) cr_expect_neq(gr_exit_meaning((gr_exit)e)[0], '?', "code %d has a meaning", e);
    cr_expect_str_eq(gr_mode_name(GR_MODE_CHECK), "check");
}

Test(judge, a_time_ratio_and_the_speed_of_light_only_where_measured)
{
    gr_var_result r = {.perf_ran = 1, .ratio = 2, .ref_sol_pct = 80};
    cr_expect_float_eq(gr_var_ratio(&r), 2, 1e-12);
    cr_expect_float_eq(gr_var_sol_pct(&r), 40, 1e-12, "the same work in twice the time");
    r.perf_ran = 0;
    cr_expect_float_eq(gr_var_ratio(&r), 0, 1e-12, "a benchmark that did not run has no ratio");
    r = (gr_var_result){.perf_ran = 1, .ratio = 0, .ref_sol_pct = 80};
    cr_expect_float_eq(gr_var_sol_pct(&r), 0, 1e-12);
    r = (gr_var_result){.perf_ran = 1, .ratio = 2};
    cr_expect_float_eq(gr_var_sol_pct(&r), 0, 1e-12, "the reference's share unknown");
}

Test(judge, a_diagnosis_claims_only_what_its_evidence_carries)
{
    cr_expect_eq(gr_diag_claim_of(GR_BUG_NONE), GR_DIAG_SAYS_NOTHING);
    cr_expect_eq(gr_diag_claim_of(GR_BUG_UNCLEAR), GR_DIAG_SEEN);
    cr_expect_eq(gr_diag_claim_of(GR_BUG_SLOW), GR_DIAG_SEEN, "slow with no measured cause names none");
    cr_expect_eq(gr_diag_claim_of(GR_BUG_SPILLS), GR_DIAG_MEASURED);
    cr_expect_eq(gr_diag_claim_of(GR_BUG_PADDING), GR_DIAG_MEASURED);
    cr_expect_eq(gr_diag_claim_of(GR_BUG_HOST_WORK), GR_DIAG_LIKELY, "the host's CPU time is not a counter");
    cr_expect_eq(gr_diag_claim_of(GR_BUG_TAIL), GR_DIAG_LIKELY);
}

Test(judge, each_part_of_the_points_is_explained_by_its_own_fact)
{
    gr_var_result r = {.verdict = GR_V_WRONG};
    snprintf(r.san, sizeof r.san, "clean");
    snprintf(r.perf_note, sizeof r.perf_note, "Speed: 2.00x");
    cr_expect_str_eq(gr_var_part_why(&r, GR_PART_CORRECT, "Wrong at 2 of 4 runs"), "Wrong at 2 of 4 runs");
    cr_expect_str_eq(gr_var_part_why(&r, GR_PART_CORRECT, ""), "WRONG", "nothing seen: the verdict's word");
    cr_expect_str_eq(gr_var_part_why(&r, GR_PART_SANITIZER, ""), "clean");
    cr_expect_str_eq(gr_var_part_why(&r, GR_PART_PERF, ""), "Speed: 2.00x");
    snprintf(r.caught_note, sizeof r.caught_note, "too fast to be real");
    r.caught = 1u << GR_CAUGHT_ABOVE_CEILING; /* costs the performance points only */
    cr_expect_str_eq(gr_var_part_why(&r, GR_PART_CORRECT, "seen"), "seen");
    cr_expect_str_eq(gr_var_part_why(&r, GR_PART_PERF, ""), "too fast to be real");
    r.caught = 1u << GR_CAUGHT_TIMED_CHECK; /* a wrong timed result costs the correctness points too */
    cr_expect_str_eq(gr_var_part_why(&r, GR_PART_CORRECT, "seen"), "too fast to be real");
}

Test(judge, a_variant_has_notes_only_where_there_is_more_than_its_row)
{
    gr_var_result r = {.verdict = GR_V_PASS, .san_state = GR_SANV_CLEAN};
    cr_expect_not(gr_var_has_notes(&r, ""));
    cr_expect(gr_var_has_notes(&r, "Wrong at 1 of 2 runs"));
    r.san_state = GR_SANV_FEEDBACK_FINDING;
    cr_expect(gr_var_has_notes(&r, ""), "a finding of the feedback's run is told");
    r = (gr_var_result){.diag = {.bug = GR_BUG_SPILLS}};
    cr_expect(gr_var_has_notes(&r, ""));
}

Test(judge, an_unfinished_sanitizer_run_is_told_once_at_its_first_variant)
{
    static gr_ch_result ch;
    ch.n_v = 3;
    cr_expect_eq(gr_ch_san_unfinished(&ch), -1);
    ch.v[1].san_state = GR_SANV_UNFINISHED;
    ch.v[2].san_state = GR_SANV_UNFINISHED;
    cr_expect_eq(gr_ch_san_unfinished(&ch), 1);
}
