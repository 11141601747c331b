/* Variants a GPU cannot run (common/wb_avail.h, CONTRACT.md "Variants a GPU cannot run"): the decision
 * (pure), the hooks asked once, the N/A row and the UNAVAILABLE line read back; then, on a GPU, the
 * harness's whole behaviour on tests/planted/availability.cu (N/A rows, exit code, --grading, --list). */
#pragma GCC diagnostic ignored "-Wunused-function" /* grading/check.h's checks of a whole corpus */
#include "wbtest.h"

#include "grading/check.h"

#define PLANTED "./build/planted/availability"

static const wb_need need_sm90a = {9, 0, 1, "wgmma"}, need_sm90 = {9, 0, 0, "cp.async.bulk"};

struct decide_case {
    const wb_need *need;
    int major, minor;
    wb_code_path code;
    const char *why; /* NULL: available */
};

Test(avail, the_decision)
{
    static const struct decide_case cases[] = {
        /* sm_90a code runs on a 9.0 GPU only, and only from an sm_90a build */
        {&need_sm90a, 9, 0, {900, 900}, NULL},
        {&need_sm90a, 8, 0, {800, 0}, "needs sm_90a code for wgmma; this GPU is sm_80"},
        {&need_sm90a, 8, 9, {890, 0}, "needs sm_90a code for wgmma; this GPU is sm_89"},
        {&need_sm90a, 9, 0, {800, 0},
         "needs sm_90a code for wgmma; this build has none for this sm_90 GPU, which runs its sm_80 code: rebuild with "
         "make ARCH=sm_90a"},
        {&need_sm90a, 9, 0, {900, 0},
         "needs sm_90a code for wgmma; this build has none for this sm_90 GPU, which runs its sm_90 code: rebuild with "
         "make ARCH=sm_90a"},
        {&need_sm90a, 10, 0, {1000, 1000}, "needs sm_90a code for wgmma, which only sm_90 GPUs run; this GPU is sm_100"},
        {&need_sm90a, 12, 0, {900, 0}, "needs sm_90a code for wgmma, which only sm_90 GPUs run; this GPU is sm_120"},
        /* sm_90 code runs on 9.0 and later, from any build of sm_90 or later */
        {&need_sm90, 9, 0, {900, 0}, NULL},
        {&need_sm90, 9, 0, {900, 900}, NULL},
        {&need_sm90, 10, 0, {1000, 0}, NULL},
        {&need_sm90, 12, 0, {900, 0}, NULL},
        {&need_sm90, 8, 6, {860, 0}, "needs sm_90 code for cp.async.bulk; this GPU is sm_86"},
        {&need_sm90, 9, 0, {750, 0},
         "needs sm_90 code for cp.async.bulk; this build has none for this sm_90 GPU, which runs its sm_75 code: rebuild "
         "with make ARCH=sm_90"},
        /* a probe that could not run decides nothing in the variant's favour */
        {&need_sm90, 9, 0, {0, 0}, "needs sm_90 code for cp.async.bulk; could not tell which code this build runs on this "
                                   "sm_90 GPU"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const struct decide_case *c = &cases[k];
        char why[WB_REASON_LEN] = "untouched";
        int no = wb_avail_decide(c->need, c->major, c->minor, c->code, why, sizeof why);
        cr_expect_eq(no, c->why != NULL, "case %zu: sm_%d%d running %d/%d: %d (%s)", k, c->major, c->minor,
                     c->code.arch, c->code.specific, no, why);
        if (c->why) cr_expect_str_eq(why, c->why, "case %zu", k);
        else cr_expect_str_eq(why, "untouched", "case %zu: an available variant's reason is left as it was", k);
    }
}

Test(avail, a_reason_without_what_and_a_short_buffer)
{
    wb_need bare = {8, 0, 0, NULL};
    char why[WB_REASON_LEN];
    cr_assert_eq(wb_avail_decide(&bare, 7, 5, (wb_code_path){750, 0}, why, sizeof why), 1);
    cr_expect_str_eq(why, "needs sm_80 code; this GPU is sm_75");
    char tiny[12];
    memset(tiny, 'x', sizeof tiny);
    cr_assert_eq(wb_avail_decide(&need_sm90a, 8, 0, (wb_code_path){800, 0}, tiny, sizeof tiny), 1);
    cr_expect_eq(strlen(tiny), sizeof tiny - 1, "cut, and terminated");
}

/* Hooks for wb_avail_find: the device pointer is only handed on, never read, by the plain half. */
static int hook_yes(const wb_device *dev, char *why, size_t n)
{
    (void)why, (void)n;
    cr_assert_not_null(dev, "a hook is asked only about a GPU");
    return 0;
}
static int hook_two_lines(const wb_device *dev, char *why, size_t n)
{
    cr_assert_not_null(dev);
    snprintf(why, n, "needs\nsm_90a\tcode");
    return 1;
}
static int hook_mute(const wb_device *dev, char *why, size_t n)
{
    (void)why, (void)n;
    cr_assert_not_null(dev);
    return 7;
}

static const wb_variant hooked[] = {
    {"plain", "a", "k", NULL, NULL, NULL, NULL, {{0}}, NULL},
    {"fine", "b", "k", NULL, NULL, NULL, NULL, {{0}}, hook_yes},
    {"two-lines", "c", "k", NULL, NULL, NULL, NULL, {{0}}, hook_two_lines},
    {"mute", "d", "k", NULL, NULL, NULL, NULL, {{0}}, hook_mute},
};
static const wb_cli hooked_cli = {"9-avail", "test", hooked, 4, 1, 1 << 30, "N", "1000"};

Test(avail, every_hook_asked_once_about_the_gpu)
{
    int gpu_stand_in = 0;
    wb_avail a;
    wb_avail_find(&hooked_cli, (const wb_device *)&gpu_stand_in, &a);
    cr_assert_eq(a.asked, 1);
    cr_assert_eq(a.mask, (1u << 2) | (1u << 3), "mask %#x", a.mask);
    cr_expect_str_eq(a.why[2], "needs sm_90a code", "one line");
    cr_expect_str_eq(a.why[3], "this GPU cannot run it; the chapter gives no reason");
    cr_expect_str_eq(a.why[0], "");
    cr_assert(wb_avail_hooks(&hooked_cli));
    static const wb_cli bare = {"9-bare", "test", hooked, 1, 1, 1 << 30, "N", "1000"};
    cr_assert_not(wb_avail_hooks(&bare), "a chapter without hooks never asks the GPU for --list");
}

Test(avail, no_gpu_asks_nothing)
{
    wb_avail a;
    memset(&a, 0xff, sizeof a);
    wb_avail_find(&hooked_cli, NULL, &a);
    cr_assert_eq(a.asked, 0);
    cr_assert_eq(a.mask, 0u);
}

static wb_result unavailable_result(void)
{
    wb_result r;
    memset(&r, 0, sizeof r);
    r.variant = "wgmma";
    snprintf(r.size, sizeof r.size, "4096x4096x4096");
    r.verdict = WB_UNAVAILABLE;
    r.ms = r.pre_ms = r.speedup = r.cpu_ms = -1;
    snprintf(r.unavailable_reason, sizeof r.unavailable_reason, "needs sm_90a code for wgmma; this GPU is sm_80");
    return r;
}

Test(avail, the_row_says_na_and_why)
{
    wb_table t = {"GFLOP/s", NULL, 0};
    wb_result r = unavailable_result();
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    wb_table_row(f, &t, &r);
    fclose(f);
    cr_expect(strstr(text, "  N/A: not available on this GPU: needs sm_90a code for wgmma; this GPU is sm_80\n"), "%s", text);
    cr_expect_null(strstr(text, "FAIL"), "%s", text);
    cr_expect_null(strstr(text, "UNAVAILABLE"), "the table says N/A: %s", text);
    free(text);
}

Test(avail, the_line_reads_back)
{
    wb_table t = {"GFLOP/s", NULL, 0};
    wb_result r = unavailable_result();
    wb_size size = {3, {4096, 4096, 4096}};
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    wb_json_result(f, "6-tensor", "NVIDIA A100", &size, 42, 0, &t, &r);
    fclose(f);
    char err[200];
    json_t *lines = wb_jsonl_parse(text, len, err, sizeof err);
    cr_assert_not_null(lines, "%s: %s", err, text);
    wb_row row;
    cr_assert_eq(wb_row_get(json_array_get(lines, 0), &row, err, sizeof err), 0, "%s", err);
    cr_expect_eq(row.verdict, WB_UNAVAILABLE);
    cr_expect_str_eq(row.unavailable_reason, "needs sm_90a code for wgmma; this GPU is sm_80");
    cr_expect(isnan(row.median_ms) && isnan(row.throughput), "not timed: null");
    cr_expect_eq(row.timed_check, WB_NOT_CHECKED);
    json_decref(lines);
    free(text);
    /* a line of any other verdict has no reason */
    r.verdict = WB_PASS;
    text = NULL;
    f = open_memstream(&text, &len);
    wb_json_result(f, "6-tensor", "NVIDIA A100", &size, 42, 0, &t, &r);
    fclose(f);
    cr_expect_null(strstr(text, WB_JSON_UNAVAILABLE_REASON), "%s", text);
    free(text);
}

Test(avail, the_verdict_name)
{
    wb_verdict v = WB_PASS;
    cr_assert_str_eq(wb_verdict_name(WB_UNAVAILABLE), "UNAVAILABLE");
    cr_assert_eq(wb_verdict_parse("UNAVAILABLE", &v), 0);
    cr_assert_eq(v, WB_UNAVAILABLE);
    cr_assert_eq(WB_CEILING, 4, "older verdicts keep their numbers");
}

/* ---------------------------------------------------------------- on a GPU: the harness end to end */
#define RUN PLANTED " --size 1000 --reps 1 --warmup 0"

/* Every line is PASS, UNAVAILABLE (with its reason, untimed), the speed of light or --grading's CEILING; returns the verdict
 * of `variant`. */
static const char *verdict_of(json_t *lines, const char *variant, const char *out)
{
    size_t i;
    json_t *o;
    json_array_foreach(lines, i, o)
    {
        const char *v = json_string_value(json_object_get(o, WB_JSON_VERDICT));
        cr_assert(v && (!strcmp(v, "PASS") || !strcmp(v, "UNAVAILABLE") || !strcmp(v, "REFERENCE") || !strcmp(v, "CEILING")),
                  "%s", out);
        if (!strcmp(v, "UNAVAILABLE")) {
            const char *why = json_string_value(json_object_get(o, WB_JSON_UNAVAILABLE_REASON));
            cr_assert(why && why[0], "an UNAVAILABLE line says why: %s", out);
            cr_assert(json_is_null(json_object_get(o, WB_JSON_MEDIAN_MS)), "not timed: %s", out);
            cr_assert_null(json_object_get(o, WB_JSON_TIMED_CHECK), "not run: %s", out);
        }
    }
    return json_string_value(json_object_get(wb_jsonl_find(lines, variant, NULL), WB_JSON_VERDICT));
}

Test(avail_gpu, unavailable_variants_are_na_and_never_fail, .timeout = 120)
{
    static char out[WBT_OUT_MAX];
    int rc;
    json_t *lines = wbt_run_json(out, &rc, RUN);
    cr_assert_eq(rc, WB_EXIT_PASS, "N/A changes no exit code\n%s", out);
    cr_expect_str_eq(verdict_of(lines, "plain", out), "PASS");
    cr_expect_str_eq(verdict_of(lines, "nowhere", out), "UNAVAILABLE");
    cr_expect_str_eq(verdict_of(lines, "mute", out), "UNAVAILABLE");
    const char *why = json_string_value(json_object_get(wb_jsonl_find(lines, "nowhere", NULL), WB_JSON_UNAVAILABLE_REASON));
    const char *want = "needs sm_990 code for a GPU that does not exist; this GPU is sm_";
    cr_expect(why && !strncmp(why, want, strlen(want)), "%s", why);
    cr_expect(strstr(out, "N/A: not available on this GPU: needs sm_990 code for a GPU that does not exist"), "%s", out);
    cr_expect_str_eq(json_string_value(json_object_get(wb_jsonl_find(lines, "mute", NULL), WB_JSON_UNAVAILABLE_REASON)),
                     "this GPU cannot run it; the chapter gives no reason");
    json_decref(lines);
}

Test(avail_gpu, naming_only_unavailable_variants_is_no_usage_error, .timeout = 120)
{
    static char out[WBT_OUT_MAX];
    int rc;
    json_t *lines = wbt_run_json(out, &rc, RUN " --variant nowhere,mute");
    cr_assert_eq(rc, WB_EXIT_PASS, "%s", out);
    cr_expect_str_eq(verdict_of(lines, "nowhere", out), "UNAVAILABLE");
    cr_expect_null(wb_jsonl_find(lines, "plain", NULL), "only what was named: %s", out);
    json_decref(lines);
}

Test(avail_gpu, grading_runs_skip_them_and_say_so, .timeout = 120)
{
    static char out[WBT_OUT_MAX];
    int rc;
    json_t *lines = wbt_run_json(out, &rc, RUN " --grading");
    cr_assert_eq(rc, WB_EXIT_PASS, "%s", out);
    cr_expect_str_eq(verdict_of(lines, "nowhere", out), "UNAVAILABLE");
    cr_expect_str_eq(json_string_value(json_object_get(wb_jsonl_find(lines, "plain", NULL), WB_JSON_TIMED_CHECK)), "PASS");
    json_decref(lines);
}

/* The probe and the code agree: the sm90a and sm90 variants compute only in the code their hooks
 * require, so a hook that said "available" where the code is missing would be TODO, and one that said
 * "unavailable" where it is there is caught by --list's answer beside the run's. */
Test(avail_gpu, the_probe_agrees_with_the_code_that_runs, .timeout = 120)
{
    static char out[WBT_OUT_MAX], list[WBT_OUT_MAX];
    int rc;
    json_t *lines = wbt_run_json(out, &rc, RUN);
    cr_assert_eq(rc, WB_EXIT_PASS, "%s", out);
    rc = wbt_run(list, PLANTED " --list --json -");
    cr_assert_eq(rc, 0, "%s", list);
    char err[200];
    json_t *listed = wb_jsonl_parse(list, strlen(list), err, sizeof err);
    cr_assert_not_null(listed, "%s", err);
    cr_expect_null(json_object_get(wb_jsonl_find(listed, "plain", NULL), WB_JSON_AVAILABLE), "no hook, no field");
    cr_expect(json_is_false(json_object_get(wb_jsonl_find(listed, "nowhere", NULL), WB_JSON_AVAILABLE)), "%s", list);
    for (const char *const *v = (const char *const[]){"sm90a", "sm90", NULL}; *v; v++) {
        int available = json_is_true(json_object_get(wb_jsonl_find(listed, *v, NULL), WB_JSON_AVAILABLE));
        cr_expect_str_eq(verdict_of(lines, *v, out), available ? "PASS" : "UNAVAILABLE", "%s\n%s", list, out);
    }
    json_decref(listed);
    json_decref(lines);
}

/* ---------------------------------------------------------------- the grader: only the reference decides */
Test(avail_grade, only_the_references_unavailable_counts)
{
    /* ref, stu -> decision; a run that passed, failed or was TODO all ran */
    cr_expect_eq(gr_avail_decide(1, WB_UNAVAILABLE, WB_UNAVAILABLE), GR_AVAIL_NOT_HERE);
    cr_expect_eq(gr_avail_decide(1, WB_UNAVAILABLE, WB_PASS), GR_AVAIL_NOT_HERE, "the GPU's, whatever the student's said");
    cr_expect_eq(gr_avail_decide(1, WB_UNAVAILABLE, WB_FAIL), GR_AVAIL_NOT_HERE);
    cr_expect_eq(gr_avail_decide(1, WB_PASS, WB_UNAVAILABLE), GR_AVAIL_DODGED, "a student's claim where the reference ran");
    cr_expect_eq(gr_avail_decide(1, WB_PASS, WB_PASS), GR_AVAIL_RUNS);
    cr_expect_eq(gr_avail_decide(1, WB_PASS, WB_FAIL), GR_AVAIL_RUNS);
    cr_expect_eq(gr_avail_decide(1, WB_PASS, WB_TODO), GR_AVAIL_RUNS);
    /* the practice run without a reference: the student's own GPU, its own word */
    cr_expect_eq(gr_avail_decide(0, WB_PASS, WB_UNAVAILABLE), GR_AVAIL_NOT_HERE);
    cr_expect_eq(gr_avail_decide(0, WB_PASS, WB_PASS), GR_AVAIL_RUNS);
}

Test(avail_grade, the_verdict_of_a_variant_not_run_here_and_of_a_dodge)
{
    gr_verdict_facts f = {.runs_total = 4, .runs_bad = 0, .avail = GR_AVAIL_NOT_HERE};
    cr_expect_eq(gr_verdict_decide(&f), GR_V_UNAVAILABLE);
    f.self = 1;
    cr_expect_eq(gr_verdict_decide(&f), GR_V_UNAVAILABLE, "the practice run too");
    f = (gr_verdict_facts){.runs_total = 0, .runs_bad = 0, .avail = GR_AVAIL_DODGED};
    cr_expect_eq(gr_verdict_decide(&f), GR_V_WRONG, "a dodge is never a PASS, even with nothing compared");
    f = (gr_verdict_facts){.runs_total = 4, .runs_bad = 4, .runs_todo = 4, .avail = GR_AVAIL_DODGED};
    cr_expect_eq(gr_verdict_decide(&f), GR_V_WRONG, "nor a TODO");
    f.avail = GR_AVAIL_RUNS;
    cr_expect_eq(gr_verdict_decide(&f), GR_V_TODO, "what it was before");
    cr_expect_str_eq(gr_verdict_name(GR_V_UNAVAILABLE), "UNAVAILABLE");
}

/* A chapter of three variants of 2 + 1 + 1 points each; the second not available on this GPU. */
static gr_sub_result one_chapter_one_unavailable(void)
{
    static gr_sub_result s;
    memset(&s, 0, sizeof s);
    s.n_ch = 1;
    gr_ch_result *ch = &s.ch[0];
    ch->n_v = 3;
    for (int v = 0; v < 3; v++) {
        gr_var_result *r = &ch->v[v];
        snprintf(r->name, sizeof r->name, "v%d", v);
        r->rub = (gr_variant_rubric){.correct = 2, .perf = 1, .sanitizer = 1};
        r->verdict = GR_V_PASS;
        r->correct_pts = 2, r->perf_pts = 1, r->san_pts = 1;
    }
    gr_var_result *u = &ch->v[1];
    u->verdict = GR_V_UNAVAILABLE;
    u->correct_pts = u->perf_pts = u->san_pts = 0;
    u->seen.avail = GR_AVAIL_NOT_HERE;
    snprintf(u->seen.unavailable, sizeof u->seen.unavailable, "needs sm_90a code for wgmma; this GPU is sm_80");
    return s;
}

Test(avail_grade, its_points_leave_the_maximum)
{
    gr_sub_result s = one_chapter_one_unavailable();
    gr_sub_totals(&s);
    cr_expect_float_eq(s.ch[0].max, 8.0, 1e-9, "two graded variants of 4 points: %g", s.ch[0].max);
    cr_expect_float_eq(s.ch[0].score, 8.0, 1e-9, "full marks: nothing lost for what this GPU cannot run");
    cr_expect_float_eq(gr_var_max(&s.ch[0].v[1]), 0.0, 1e-9);
    /* a dodge keeps its points in the maximum and earns none */
    gr_var_result *u = &s.ch[0].v[1];
    u->verdict = GR_V_WRONG;
    u->seen.avail = GR_AVAIL_DODGED;
    gr_sub_totals(&s);
    cr_expect_float_eq(s.ch[0].max, 12.0, 1e-9);
    cr_expect_float_eq(s.ch[0].score, 8.0, 1e-9);
}

Test(avail_grade, the_reports_say_not_available_not_graded)
{
    gr_sub_result s = one_chapter_one_unavailable();
    gr_sub_totals(&s);
    char detail[GR_DETAIL_MAX];
    gr_var_detail(&s.ch[0].v[1], detail, sizeof detail);
    cr_expect_str_eq(detail, "not available on this GPU (needs sm_90a code for wgmma; this GPU is sm_80): not graded; "
                             "its points are left out of the maximum.");
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    gr_write_feedback(f, &s, "sub", 0);
    gr_print_table(f, &s);
    fclose(f);
    cr_expect(strstr(text, "**Score: 8.0 / 8.0**"), "%s", text);
    cr_expect(strstr(text, "| v1 | N/A: not available on this GPU | - | - | - | not graded |"), "%s", text);
    cr_expect(strstr(text, "not available on this GPU (needs sm_90a code for wgmma; this GPU is sm_80): not graded"), "%s", text);
    cr_expect(strstr(text, "N/A        not available on this GPU (needs sm_90a code for wgmma"), "the terminal's table: %s", text);
    free(text);
}

Test(avail_grade, a_dodge_is_told_why_it_failed)
{
    gr_sub_result s = one_chapter_one_unavailable();
    gr_var_result *u = &s.ch[0].v[1];
    u->verdict = GR_V_WRONG;
    u->seen.avail = GR_AVAIL_DODGED;
    u->seen.runs_bad = u->seen.runs_total = 5;
    snprintf(u->seen.sizes_bad, sizeof u->seen.sizes_bad, "1, 257");
    char detail[GR_DETAIL_MAX];
    gr_var_detail(u, detail, sizeof detail);
    cr_expect(strstr(detail, "your program said it is not available on this GPU (needs sm_90a code for wgmma; this GPU "
                             "is sm_80), but the reference runs it on this GPU"), "%s", detail);
    cr_expect(strstr(detail, "Wrong at 5 of 5 runs (sizes: 1, 257)."), "%s", detail);
}

/* The fake workbook of tests/test_grading_e2e.c (host C, no GPU) graded with its variant "plus" one the
 * "GPU" cannot run (tests/grading/fake/common/fakedrv.h, -DFAKE_UNAVAILABLE=0): in the reference's build and
 * the student's (the grader builds both for the same GPU), or in the student's build alone, which is a
 * student's program saying it where the reference runs it. Returns grade's exit status; grading.json in g. */
static int grade_fake_avail(const char *dir, const char *ref_flag, const char *stu_flag, char *log, json_t **g)
{
    int rc = wbt_grade_fake(dir, ref_flag, stu_flag, log);
    *g = load("%s/out/grading.json", dir);
    return rc;
}

Test(avail_grade, end_to_end_not_graded_on_this_gpu_and_a_dodge_fails, .timeout = 300)
{
    wbt_skip_if_no_isolation();
    static char log[WBT_OUT_MAX];
    char dir[512], out[600];
    wbt_tmpdir(dir, sizeof dir);
    chmod(dir, 0755); /* the programs run as other users when the tests run as root */
    json_t *g;
    int rc = grade_fake_avail(dir, "-DFAKE_UNAVAILABLE=0", "-DFAKE_UNAVAILABLE=0", log, &g);
    cr_expect_eq(rc, 0, "%s", log);
    cr_expect_str_eq(json_string_value(json_object_get(g, "status")), "graded", "%s", log);
    json_t *plus = variant_of(g, "plus"), *ch = json_array_get(json_object_get(g, "chapters"), 0);
    cr_assert_not_null(plus, "%s", log);
    cr_expect_str_eq(json_string_value(json_object_get(plus, "verdict")), "UNAVAILABLE", "%s", log);
    cr_expect_float_eq(json_number_value(json_object_get(plus, "max_score")), 0.0, 1e-9);
    cr_expect_str_eq(json_string_value(json_object_get(plus, WB_JSON_UNAVAILABLE_REASON)),
                     "needs sm_90a code for wgmma; this GPU is the fake's");
    cr_expect_str_eq(json_string_value(json_object_get(variant_of(g, "reverse"), "verdict")), "PASS", "%s", log);
    /* plus's points left the chapter's maximum: the chapter's is reverse's alone (whose performance points
     * depend on the fake's timing beside other tests, so only the maxima are compared) */
    double max = json_number_value(json_object_get(ch, "max_score"));
    cr_expect_float_eq(max, json_number_value(json_object_get(variant_of(g, "reverse"), "max_score")), 1e-9,
                       "plus's points leave the maximum:\n%s", log);
    cr_expect_float_eq(json_number_value(json_object_get(plus, "score")), 0.0, 1e-9, "%s", log);
    cr_expect_gt(max, 0.0);
    json_decref(g);
    snprintf(out, sizeof out, "%s/out", dir);
    char *fb = feedback_of(out);
    cr_expect(strstr(fb, "not available on this GPU (needs sm_90a code for wgmma; this GPU is the fake's): not graded"),
              "%s", fb);

    /* the student's build alone says so: the reference runs it, so it is the student's failure */
    rc = grade_fake_avail(dir, "", "-DFAKE_UNAVAILABLE=0", log, &g);
    cr_expect_eq(rc, 0, "%s", log);
    plus = variant_of(g, "plus");
    cr_assert_not_null(plus, "%s", log);
    cr_expect_str_eq(json_string_value(json_object_get(plus, "verdict")), "WRONG", "%s", log);
    cr_expect_float_eq(json_number_value(json_object_get(plus, "score")), 0.0, 1e-9, "%s", log);
    cr_expect_gt(json_number_value(json_object_get(plus, "max_score")), 0.0, "its points stay in the maximum");
    cr_expect_str_eq(json_string_value(json_object_get(variant_of(g, "reverse"), "verdict")), "PASS", "%s", log);
    json_decref(g);
    free(fb);
    fb = feedback_of(out);
    cr_expect(strstr(fb, "your program said it is not available on this GPU (needs sm_90a code for wgmma; this GPU is "
                         "the fake's), but the reference runs it on this GPU"), "%s", fb);
    free(fb);
    wbt_run(log, "chmod -R u+w %s; rm -rf %s", dir, dir);
}

/* A student's program that says it only under compute-sanitizer (it can tell: the tool injects its library)
 * ran nothing there: no sanitizer points, never "clean"; the variant's other points stand. */
Test(avail_grade, saying_it_under_the_sanitizer_earns_no_sanitizer_points, .timeout = 300)
{
    wbt_skip_if_no_isolation();
    static char log[WBT_OUT_MAX];
    char dir[512];
    wbt_tmpdir(dir, sizeof dir);
    chmod(dir, 0755);
    json_t *g;
    int rc = grade_fake_avail(dir, "", "-DFAKE_DODGE_SANITIZER=0", log, &g);
    cr_expect_eq(rc, 0, "%s", log);
    json_t *plus = variant_of(g, "plus"), *rev = variant_of(g, "reverse");
    cr_assert_not_null(plus, "%s", log);
    cr_expect_str_eq(json_string_value(json_object_get(plus, "verdict")), "PASS", "%s", log);
    cr_expect_float_eq(json_number_value(json_object_get(plus, "sanitizer_points")), 0.0, 1e-9, "%s", log);
    cr_expect_neq(strcmp(json_string_value(json_object_get(plus, "sanitizer")), "clean"), 0, "%s", log);
    cr_expect_gt(json_number_value(json_object_get(rev, "sanitizer_points")), 0.0, "the other variant keeps its: %s", log);
    json_decref(g);
    wbt_run(log, "chmod -R u+w %s; rm -rf %s", dir, dir);
}

/* The probe asks the build itself: a build of PTX for an older GPU runs JIT-compiled on this one, without
 * the newer instructions, whatever this GPU has; on a 9.0 GPU an sm_90a build runs them. Builds the planted
 * program twice with nvcc (tests/planted/availability.cu is otherwise built for the GPU found). */
Test(avail_gpu, the_probe_tells_an_old_build_on_a_new_gpu, .timeout = 300)
{
    static char out[WBT_OUT_MAX];
    char dir[256];
    wbt_tmpdir(dir, sizeof dir);
    const char *nvcc = "nvcc -O3 -std=c++20 -Icommon -Xcompiler -fopenmp tests/planted/availability.cu -lgomp";
    int rc = wbt_run(out, "%1$s -gencode=arch=compute_75,code=compute_75 -o %2$s/ptx75 & a=$!; "
                          "%1$s -gencode=arch=compute_90a,code=sm_90a -o %2$s/sm90a & b=$!; wait $a && wait $b",
                     nvcc, dir);
    cr_assert_eq(rc, 0, "%s", out);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "%s/ptx75 --size 1000 --reps 1 --warmup 0", dir);
    json_t *lines = wbt_run_json(out, &rc, cmd); /* skips without a GPU */
    cr_assert_eq(rc, WB_EXIT_PASS, "%s", out);
    cr_expect_str_eq(verdict_of(lines, "sm90a", out), "UNAVAILABLE");
    cr_expect_str_eq(verdict_of(lines, "sm90", out), "UNAVAILABLE");
    const char *why = json_string_value(json_object_get(wb_jsonl_find(lines, "sm90a", NULL), WB_JSON_UNAVAILABLE_REASON));
    cr_expect(why && (strstr(why, "which runs its sm_75 code") || strstr(why, "this GPU is sm_")), "%s", why);
    json_decref(lines);
    if (strstr(out, "(sm_90,")) { /* the GPU line: an sm_90a build has code for a 9.0 GPU only */
        snprintf(cmd, sizeof cmd, "%s/sm90a --size 1000 --reps 1 --warmup 0", dir);
        lines = wbt_run_json(out, &rc, cmd);
        cr_assert_eq(rc, WB_EXIT_PASS, "%s", out);
        cr_expect_str_eq(verdict_of(lines, "sm90a", out), "PASS", "%s", out);
        cr_expect_str_eq(verdict_of(lines, "sm90", out), "PASS", "%s", out);
        json_decref(lines);
    }
    wbt_run(out, "rm -rf %s", dir);
}
