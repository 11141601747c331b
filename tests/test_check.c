/* make check without a GPU (issue 39, grading/check.h): the checks that need none run, each finding is the
 * grader's own sentence on a line of its own, one line says what was not checked and how to get it, and
 * the exit code tells findings (7) from nothing found (8). The decisions on hand-made results; then the
 * grader on the fake workbook of tests/test_grading_e2e.c (its reference built with -DFAKE_NO_GPU exits 3
 * as every program does on a machine without a GPU). The real chapter 1 through `make check` in the
 * student release: tests/test_release.c. Runs anywhere. */
#define _GNU_SOURCE 1
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "wbtest.h"

#include "check.h"
#include "gr_util.h"

/* ---------------------------------------------------------------- the decisions */
Test(check, outcome_and_exit_code_of_every_state)
{
    cr_assert_eq(gr_check_decide(GR_SUB_NO_GPU, 0), GR_CHECK_CLEAN);
    cr_assert_eq(gr_check_decide(GR_SUB_NO_GPU, 2), GR_CHECK_FINDINGS);
    cr_assert_eq(gr_check_decide(GR_SUB_GRADED, 0), GR_CHECK_RAN);
    cr_assert_eq(gr_check_decide(GR_SUB_GRADED, 3), GR_CHECK_RAN, "with a GPU the table tells the findings");
    cr_assert_eq(gr_check_decide(GR_SUB_NOT_GRADED, 1), GR_CHECK_NOT_RUN, "the grader's error is not the student's finding");
    cr_assert_eq(gr_check_decide(GR_SUB_GRADER_CRASHED, 0), GR_CHECK_NOT_RUN);
    cr_assert_eq(gr_check_exit(GR_CHECK_FINDINGS, GR_SUB_NO_GPU), GR_EXIT_CHECK_FINDINGS);
    cr_assert_eq(gr_check_exit(GR_CHECK_CLEAN, GR_SUB_NO_GPU), GR_EXIT_CHECK_CLEAN);
    cr_assert_eq(gr_check_exit(GR_CHECK_RAN, GR_SUB_GRADED), GR_EXIT_OK);
    cr_assert_eq(gr_check_exit(GR_CHECK_NOT_RUN, GR_SUB_NOT_GRADED), GR_EXIT_NOT_GRADED);
    cr_assert_neq(GR_EXIT_CHECK_FINDINGS, GR_EXIT_CHECK_CLEAN);
    gr_sub_result *s = calloc(1, sizeof *s);
    s->n_ch = 1, s->ch[0].status = GR_CH_NO_GPU, s->mode = GR_MODE_GRADE;
    cr_assert_eq(gr_check_outcome_of(s, GR_MODE_GRADE), GR_CHECK_RAN, "make grade never takes the practice run's way");
    cr_assert_eq(gr_check_outcome_of(s, GR_MODE_CHECK), GR_CHECK_CLEAN);
    free(s);
}

/* A chapter of n variants named a, b, c, … whose checks without a GPU all passed. */
static gr_ch_result *chapter(gr_sub_result *s, int number, int n)
{
    gr_ch_result *c = &s->ch[s->n_ch++];
    c->number = number, c->status = GR_CH_NO_GPU, c->n_v = n;
    for (int v = 0; v < n; v++) snprintf(c->v[v].name, sizeof c->v[v].name, "%c", 'a' + v);
    return c;
}

static void caught(gr_var_result *v, gr_caught what, const char *sentence)
{
    v->caught |= 1u << what;
    size_t at = strlen(v->caught_note); /* honesty.c joins a variant's sentences with a space */
    snprintf(v->caught_note + at, sizeof v->caught_note - at, "%s%s", at ? " " : "", sentence);
}

#define INC "region `a`, line 50: `#include <stdio.h>` — a region may include only the toolkit's headers."
#define DEF "region `a`, line 51: `#define` — a macro reaches every later line."
#define ASM "region `shared`, line 9: `asm` — inline PTX."

Test(check, each_finding_once_on_its_own_line_with_whom_it_costs)
{
    gr_sub_result *s = calloc(1, sizeof *s);
    gr_check_finding f[16];
    chapter(s, 1, 3);
    cr_assert_eq(gr_check_findings(s, f, 16), 0, "clean regions, nothing found");
    gr_ch_result *c = &s->ch[0];
    snprintf(c->outside, sizeof c->outside, "your file differs from the starter outside the TODO regions");
    caught(&c->v[0], GR_CAUGHT_SCREEN_CORRECT, INC);
    caught(&c->v[0], GR_CAUGHT_SCREEN_CORRECT, DEF);
    caught(&c->v[1], GR_CAUGHT_SCREEN_CORRECT, DEF); /* a #define costs every variant: one finding */
    caught(&c->v[2], GR_CAUGHT_SCREEN_CORRECT, DEF);
    caught(&c->v[2], GR_CAUGHT_SCREEN_PERF, ASM);
    c = chapter(s, 4, 2);
    c->status = GR_CH_BUILD_FAILED;
    snprintf(c->reason, sizeof c->reason, "nvcc exited with code 1");
    int n = gr_check_findings(s, f, 16);
    cr_assert_eq(n, 5, "outside, include, define, asm, the build: %d", n);
    cr_assert_eq(gr_check_findings(s, NULL, 0), n, "counting without storing");
    cr_assert_eq(gr_check_findings(s, f, 2), n, "the count goes on past what is stored");
    n = gr_check_findings(s, f, 16);
    cr_assert_eq(f[0].ch, 1);
    cr_assert_str_empty(f[0].who);
    cr_assert(strstr(f[0].text, "outside the TODO regions"), "%s", f[0].text);
    cr_assert_str_eq(f[1].who, "a");
    cr_assert_str_eq(f[1].text, INC);
    cr_assert_str_eq(f[2].who, "a, b, c", "the define's variants: %s", f[2].who);
    cr_assert_str_eq(f[2].text, DEF);
    cr_assert_str_eq(f[3].who, "c");
    cr_assert_str_eq(f[3].text, ASM);
    cr_assert_eq(f[4].ch, 4);
    cr_assert_str_eq(f[4].text, "build failed: nvcc exited with code 1");
    /* what honesty caught with a GPU is not the screen's: not a finding of the checks that need none */
    gr_sub_result *t = calloc(1, sizeof *t);
    caught(&chapter(t, 2, 1)->v[0], GR_CAUGHT_TIMED_CHECK, "The output of the timed runs was wrong.");
    cr_assert_eq(gr_check_findings(t, f, 16), 0);
    free(s);
    free(t);
}

Test(check, the_line_on_what_was_not_checked_names_the_cause_and_the_ways)
{
    char line[900];
    gr_check_not_checked("chapter 1 no GPU: the reference /x/build/solution1 exited with code 3: no CUDA device found: "
                         "no NVIDIA driver is loaded. This program needs an NVIDIA GPU (see `make doctor`).",
                         line, sizeof line);
    cr_assert(strstr(line, "correctness, compute-sanitizer and speed"), "%s", line);
    cr_assert(strstr(line, "no CUDA device found: no NVIDIA driver is loaded)"), "the cause, to its period: %s", line);
    cr_assert_null(strstr(line, "/x/build"), "a path of this host: %s", line);
    cr_assert(strstr(line, "a machine with an NVIDIA GPU") && strstr(line, "make check ENGINE=slurm"), "%s", line);
    cr_assert_null(strchr(line, '\n'), "one line: %s", line);
}

/* The regions not done yet, and the last line: what it all means, in plain words, and what make's `Error N` is. */
Test(check, the_regions_not_done_and_the_last_line_in_plain_words)
{
    gr_sub_result *s = calloc(1, sizeof *s);
    gr_ch_result *c = chapter(s, 1, 4);
    char line[900];
    gr_check_untouched(c, line, sizeof line);
    cr_assert_str_empty(line, "no region untouched: no line");
    c->n_regions = 4, c->n_untouched = 4;
    snprintf(c->untouched, sizeof c->untouched, "global, shared-static, shared-dynamic, vector");
    gr_check_untouched(c, line, sizeof line);
    cr_assert_str_eq(line, "4 of 4 regions untouched (global, shared-static, shared-dynamic, vector): each still holds "
                           "the starter's text");
    c->n_untouched = 1;
    snprintf(c->untouched, sizeof c->untouched, "vector");
    gr_check_untouched(c, line, sizeof line);
    cr_assert_str_eq(line, "1 of 4 regions untouched (vector): it still holds the starter's text");
    free(s);
    gr_check_summary(0, 0, 19, line, sizeof line);
    cr_assert(strstr(line, "in short: nothing wrong found in what this machine can check; correctness and speed need a GPU"),
              "%s", line);
    cr_assert(strstr(line, "`Error 8`, which means nothing found, not that make check broke"), "%s", line);
    cr_assert_null(strstr(line, "not done"), "%s", line);
    gr_check_summary(0, 4, 19, line, sizeof line);
    cr_assert(strstr(line, "nothing wrong found in what this machine can check; 4 of the 19 regions still hold the starter's "
                           "text, so those are not done yet;"), "%s", line);
    gr_check_summary(2, 1, 19, line, sizeof line);
    cr_assert(strstr(line, "in short: 2 findings above to fix; 1 of the 19 regions still hold the starter's text, so that one "
                           "is not done yet;"), "%s", line);
    cr_assert(strstr(line, "`Error 7`, which means findings"), "%s", line);
    gr_check_summary(1, 0, 19, line, sizeof line);
    cr_assert(strstr(line, "1 finding above to fix;"), "%s", line);
    cr_assert_null(strchr(line, '\n'), "one line: %s", line);
}

/* ---------------------------------------------------------------- the grader on the fake workbook */
static char dir[64];
static char grade[PATH_MAX];
static void setup(void)
{
    wbt_tmpdir(dir, sizeof dir);
    chmod(dir, 0755); /* the programs run as other users when the tests run as root */
}
static void teardown(void)
{
    char out[256];
    if (dir[0]) wbt_run(out, "chmod -R u+w %s 2>/dev/null; rm -rf %s", dir, dir);
}

/* The fake workbook in dir, its reference finding no GPU; `make check` in it. */
static int fake_check(char *out)
{
    cr_assert_not_null(realpath("build/grade", grade), "build/grade is not built");
    int rc = wbt_run(out, "cp -r tests/grading/fake/. %1$s/ && cp common/*.h %1$s/common/ && make -s -C %1$s build/grading-flags.json && "
                          "make -s -B -C %1$s build/solution9 NVCCFLAGS='-O1 -std=gnu11 -x c -Icommon -DFAKE_NO_GPU' && "
                          "cp %1$s/solutions/09-fake/fake.cu %1$s/chapters/09-fake/fake.cu && chmod -R a+rX %1$s",
                     dir);
    cr_assert_eq(rc, 0, "%s", out);
    return rc;
}

static int run_check(char *out)
{
    return wbt_run(out, "cd %s && export WB_GRADE_LOCK_DIR=$PWD && PATH=%s/bin:$PATH %s --rubric rubric.json --seeds 5 --quiet "
                        "--check --out out 2>&1",
                   dir, dir, grade);
}

Test(check, without_a_gpu_findings_one_line_each_then_what_was_not_checked, .init = setup, .fini = teardown, .timeout = 300)
{
    static char out[WBT_OUT_MAX];
    fake_check(out);
    int rc = run_check(out);
    cr_assert_eq(rc, GR_EXIT_CHECK_CLEAN, "solved regions, no GPU: exit %d, want %d\n%s", rc, GR_EXIT_CHECK_CLEAN, out);
    cr_assert(strstr(out, "0 findings") && wbt_count(out, "not checked here: correctness, compute-sanitizer and speed") == 1, "%s", out);
    cr_assert_null(strstr(out, "total"), "a total of what was not graded:\n%s", out);
    cr_assert_null(strstr(out, "untouched"), "both regions solved:\n%s", out);
    cr_assert(strstr(out, "\nin short: nothing wrong found in what this machine can check; correctness and speed need a GPU"),
              "%s", out);
    /* the region `reverse` as the starter gives it (empty: the fake reference has no hint lines), white space aside */
    rc = wbt_run(out, "cd %s && sed -i '/BEGIN TODO(reverse)/,/END TODO(reverse)/{/TODO/!s/.*/   /}' chapters/09-fake/fake.cu",
                 dir);
    cr_assert_eq(rc, 0, "%s", out);
    rc = run_check(out);
    cr_assert_eq(rc, GR_EXIT_CHECK_CLEAN, "an untouched region is no finding: exit %d\n%s", rc, out);
    cr_assert_eq(wbt_count(out, "\n  chapter 9: 1 of 2 regions untouched (reverse): it still holds the starter's text\n"), 1,
                 "%s", out);
    cr_assert(strstr(out, "so that one is not done yet"), "%s", out);
    char fb[128], *md;
    snprintf(fb, sizeof fb, "%s/out/feedback.md", dir);
    size_t mdl;
    cr_assert_not_null(md = wb_read_file(fb, &mdl), "%s", fb);
    cr_assert(strstr(md, "\n  chapter 9: 1 of 2 regions untouched (reverse)") && strstr(md, "\nin short: nothing wrong found") &&
                  strstr(md, "\n0 findings") == NULL && strstr(md, "check without a GPU: 0 findings"),
              "feedback.md carries make check's lines:\n%s", md);
    free(md);
    rc = wbt_run(out, "cp %1$s/solutions/09-fake/fake.cu %1$s/chapters/09-fake/fake.cu", dir);
    cr_assert_eq(rc, 0, "%s", out);
    /* an edit outside the regions (line 2) and an include in region `plus` */
    rc = wbt_run(out, "cd %s && sed -i '2a int student_edit;' chapters/09-fake/fake.cu && "
                      "sed -i '/BEGIN TODO(plus)/a #include \"wb.h\"' chapters/09-fake/fake.cu",
                 dir);
    cr_assert_eq(rc, 0, "%s", out);
    rc = run_check(out);
    cr_assert_eq(rc, GR_EXIT_CHECK_FINDINGS, "planted findings, no GPU: exit %d, want %d\n%s", rc, GR_EXIT_CHECK_FINDINGS, out);
    cr_assert(strstr(out, "2 findings"), "%s", out);
    cr_assert_eq(wbt_count(out, "\n  ch9: your file differs from the starter outside the TODO regions"), 1, "%s", out);
    /* the file's outside is not the starter's, so the include costs every variant (honesty.c) */
    cr_assert_eq(wbt_count(out, "\n  ch9 plus, reverse: region `plus`, line "), 1, "%s", out);
    cr_assert(strstr(out, "#include \"wb.h\"` — a region must not include files"), "%s", out);
    cr_assert_eq(wbt_count(out, "not checked here:"), 1, "%s", out);
    /* the reports say it was not graded, and hold no score */
    char p[128];
    snprintf(p, sizeof p, "%s/out/grading.json", dir);
    json_error_t e;
    json_t *g = json_load_file(p, 0, &e);
    cr_assert_not_null(g, "%s: %s", p, e.text);
    cr_expect_str_eq(json_string_value(json_object_get(g, "status")), "no GPU");
    cr_expect(json_is_null(json_object_get(g, "score")), "a score that was not earned");
    json_decref(g);
    /* a marker removed: the chapter cannot be spliced, which is its grade (0) whether or not there is a GPU,
     * so the grade's table says it (a chapter beside it that needs a GPU makes it a finding: the test above) */
    rc = wbt_run(out, "cd %s && sed -i '/END TODO(reverse)/d' chapters/09-fake/fake.cu", dir);
    cr_assert_eq(rc, 0, "%s", out);
    rc = run_check(out);
    cr_assert_eq(rc, GR_EXIT_OK, "exit %d\n%s", rc, out);
    cr_assert(strstr(out, "not gradable fake.cu: TODO region 'reverse' (line 17) is never closed") &&
                  strstr(out, "total 0.0 / 8.0"), "%s", out);
}

/* ---------------------------------------------------------------- the practice run's performance points */
Test(check, performance_is_timed_beside_the_reference_recorded_on_this_gpu_or_not_scored)
{
    gr_check_perf_in in = {.have_ref = 1};
    cr_assert_eq(gr_check_perf_decide(&in), GR_PERF_TIMED);
    in = (gr_check_perf_in){.gpu_here = "NVIDIA H100 80GB HBM3", .gpu_recorded = "NVIDIA H100 80GB HBM3",
                            .size_perf = "67108864", .size_recorded = "67108864"};
    cr_assert_eq(gr_check_perf_decide(&in), GR_PERF_RECORDED);
    in.have_ref = 1;
    cr_assert_eq(gr_check_perf_decide(&in), GR_PERF_TIMED, "the reference beside beats any record");
    in.have_ref = 0;
    snprintf(in.size_recorded, sizeof in.size_recorded, "268435456");
    cr_assert_eq(gr_check_perf_decide(&in), GR_PERF_NOT_SCORED, "recorded at another size");
    snprintf(in.size_recorded, sizeof in.size_recorded, "67108864");
    snprintf(in.gpu_here, sizeof in.gpu_here, "NVIDIA H200");
    cr_assert_eq(gr_check_perf_decide(&in), GR_PERF_NOT_SCORED, "recorded on another GPU");
    in.gpu_here[0] = in.gpu_recorded[0] = 0;
    cr_assert_eq(gr_check_perf_decide(&in), GR_PERF_NOT_SCORED, "no GPU name on either side is no match");
    snprintf(in.gpu_here, sizeof in.gpu_here, "NVIDIA H100 80GB HBM3");
    snprintf(in.gpu_recorded, sizeof in.gpu_recorded, "NVIDIA H100 80GB HBM3");
    in.size_perf[0] = in.size_recorded[0] = 0;
    cr_assert_eq(gr_check_perf_decide(&in), GR_PERF_NOT_SCORED, "no size on either side is no match");
}

/* Without a reference (the student release has none) and without a record for this GPU, the practice run
 * gives no performance points and leaves them out of the total: never "6.0 / 8.0" for a full solution (the fake chapter: 2 variants, 1 performance point each).
 * The fake chapter needs no GPU, so its student build runs here and checks itself. */
Test(check, without_a_reference_the_total_leaves_out_what_was_not_scored, .init = setup, .fini = teardown, .timeout = 300)
{
    static char out[WBT_OUT_MAX];
    fake_check(out);
    int rc = wbt_run(out, "rm %s/build/solution9", dir);
    cr_assert_eq(rc, 0, "%s", out);
    rc = run_check(out);
    cr_assert_eq(rc, GR_EXIT_OK, "exit %d\n%s", rc, out);
    cr_assert(strstr(out, "SELF-PASS"), "%s", out);
    cr_assert(strstr(out, "performance: not scored here (2.0 points, not in the total)"), "%s", out);
    cr_assert(strstr(out, "total 6.0 / 6.0"), "want the total without the performance points:\n%s", out);
    /* a table recorded on another GPU: an estimate from the speed of light, labelled, never in the total (the
     * recorded share is tiny, so the estimate is every point) */
    rc = wbt_run(out, "mkdir -p %1$s/handouts/results && for v in plus reverse; do printf '{\"chapter\":\"9-fake\","
                      "\"variant\":\"%%s\",\"size\":\"1048576\",\"gpu\":\"Another GPU\",\"median_ms\":1,\"sol_pct\":0.0001,"
                      "\"verdict\":\"PASS\"}\\n' $v; done > %1$s/handouts/results/ch9.json",
                 dir);
    cr_assert_eq(rc, 0, "%s", out);
    rc = run_check(out);
    cr_assert_eq(rc, GR_EXIT_OK, "exit %d\n%s", rc, out);
    cr_assert(strstr(out, "performance ESTIMATE, not in the total: plus 0.00x, reverse 0.00x of the reference's time, about "
                          "2.0 of 2.0 points;") && strstr(out, "recorded % (Another GPU)"), "%s", out);
    cr_assert(strstr(out, "total 6.0 / 6.0"), "an estimate is never in the total:\n%s", out);
    char fb[128], *md;
    size_t mdl;
    snprintf(fb, sizeof fb, "%s/out/feedback.md", dir);
    cr_assert_not_null(md = wb_read_file(fb, &mdl), "%s", fb);
    cr_assert(strstr(md, "Estimate, not scored: ") && strstr(md, "% of this GPU's speed of light; the reference's recorded 0.0% "
                                                               "(Another GPU) predicts 0.00x its time, 1.0 of 1.0 points."),
              "%s", md);
    free(md);
}

/* A GPU without a recorded table (a T4, a laptop's, the H200 today): an estimate from the speeds of light, the
 * reference's recorded % over the student's % of this run, by the rubric's bands; unknown on either side: none. */
Test(check, the_estimate_without_a_record_for_this_gpu_is_from_the_speed_of_light)
{
    gr_rubric *rub = calloc(1, sizeof *rub);
    rub->n_bands = 3;
    rub->band[0].within = 1.05, rub->band[0].fraction = 1.0;
    rub->band[1].within = 1.5, rub->band[1].fraction = 0.5;
    rub->band[2].within = 3.0, rub->band[2].fraction = 0.25;
    gr_check_estimate e = gr_check_estimate_of(rub, 80.0, 99.5, 4.0);
    cr_assert(e.ok);
    cr_assert_float_eq(e.ratio, 99.5 / 80.0, 1e-12, "%g", e.ratio);
    cr_assert_float_eq(e.pts, 2.0, 1e-12, "1.24x: the second band, half of 4: %g", e.pts);
    e = gr_check_estimate_of(rub, 99.0, 99.5, 4.0);
    cr_assert_float_eq(e.pts, 4.0, 1e-12, "within 5 %%: all of it (%g)", e.pts);
    e = gr_check_estimate_of(rub, 110.0, 99.5, 4.0);
    cr_assert(e.ok && e.ratio < 1 && e.pts == 4.0, "faster than the reference's record: %g, %g", e.ratio, e.pts);
    e = gr_check_estimate_of(rub, 20.0, 99.5, 4.0);
    cr_assert(e.ok && e.pts == 0, "4.98x: beyond the last band: %g", e.pts);
    cr_assert_not(gr_check_estimate_of(rub, 0, 99.5, 4.0).ok, "no % of this run");
    cr_assert_not(gr_check_estimate_of(rub, 80.0, 0, 4.0).ok, "no recorded %");
    cr_assert_not(gr_check_estimate_of(rub, NAN, 99.5, 4.0).ok);
    cr_assert_not(gr_check_estimate_of(rub, 80.0, INFINITY, 4.0).ok);
    free(rub);
}
