/* Variants a GPU cannot run (common/wb_avail.h, CONTRACT.md "Variants a GPU cannot run"): the decision
 * (pure), the hooks asked once, the N/A row and the UNAVAILABLE line read back; then, on a GPU, the
 * harness's whole behaviour on tests/planted/availability.cu (N/A rows, exit code, --grading, --list). */
#include "wbtest.h"

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
        {&need_sm90a, 8, 0, {800, 0}, "needs sm_90a code (wgmma); this GPU is sm_80"},
        {&need_sm90a, 8, 9, {890, 0}, "needs sm_90a code (wgmma); this GPU is sm_89"},
        {&need_sm90a, 9, 0, {800, 0},
         "needs sm_90a code (wgmma); this build has none for this sm_90 GPU, which runs its sm_80 code: rebuild with "
         "make ARCH=sm_90a"},
        {&need_sm90a, 9, 0, {900, 0},
         "needs sm_90a code (wgmma); this build has none for this sm_90 GPU, which runs its sm_90 code: rebuild with "
         "make ARCH=sm_90a"},
        {&need_sm90a, 10, 0, {1000, 1000}, "needs sm_90a code (wgmma), which only sm_90 GPUs run; this GPU is sm_100"},
        {&need_sm90a, 12, 0, {900, 0}, "needs sm_90a code (wgmma), which only sm_90 GPUs run; this GPU is sm_120"},
        /* sm_90 code runs on 9.0 and later, from any build of sm_90 or later */
        {&need_sm90, 9, 0, {900, 0}, NULL},
        {&need_sm90, 9, 0, {900, 900}, NULL},
        {&need_sm90, 10, 0, {1000, 0}, NULL},
        {&need_sm90, 12, 0, {900, 0}, NULL},
        {&need_sm90, 8, 6, {860, 0}, "needs sm_90 code (cp.async.bulk); this GPU is sm_86"},
        {&need_sm90, 9, 0, {750, 0},
         "needs sm_90 code (cp.async.bulk); this build has none for this sm_90 GPU, which runs its sm_75 code: rebuild "
         "with make ARCH=sm_90"},
        /* a probe that could not run decides nothing in the variant's favour */
        {&need_sm90, 9, 0, {0, 0}, "needs sm_90 code (cp.async.bulk); could not tell which code this build runs on this "
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
    cr_expect_str_eq(a.why[3], "this GPU cannot run it (the chapter says no more)");
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
    snprintf(r.unavailable_reason, sizeof r.unavailable_reason, "needs sm_90a code (wgmma); this GPU is sm_80");
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
    cr_expect(strstr(text, "  N/A: not available on this GPU: needs sm_90a code (wgmma); this GPU is sm_80\n"), "%s", text);
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
    cr_expect_str_eq(row.unavailable_reason, "needs sm_90a code (wgmma); this GPU is sm_80");
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

/* Every line is PASS, UNAVAILABLE (with its reason, untimed) or the speed of light; returns the verdict
 * of `variant`. */
static const char *verdict_of(json_t *lines, const char *variant, const char *out)
{
    size_t i;
    json_t *o;
    json_array_foreach(lines, i, o)
    {
        const char *v = json_string_value(json_object_get(o, WB_JSON_VERDICT));
        cr_assert(v && (!strcmp(v, "PASS") || !strcmp(v, "UNAVAILABLE") || !strcmp(v, "REFERENCE")), "%s", out);
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
    cr_expect(why && !strncmp(why, "needs sm_990 code (no such GPU); this GPU is sm_", 48), "%s", why);
    cr_expect(strstr(out, "N/A: not available on this GPU: needs sm_990 code (no such GPU)"), "%s", out);
    cr_expect_str_eq(json_string_value(json_object_get(wb_jsonl_find(lines, "mute", NULL), WB_JSON_UNAVAILABLE_REASON)),
                     "this GPU cannot run it (the chapter says no more)");
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
