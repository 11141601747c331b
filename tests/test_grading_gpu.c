/* The grader end to end on the GPU: the hostile and buggy submissions of tests/grading/subs/ get the
 * verdicts tests/grading/expected.json gives them (graded as a class, as an instructor would); the
 * reference graded as a student gets full marks; the untouched starters get no points. Skips cleanly
 * without a GPU. Reports stay in build/test-grading/ for reading. */
#define _GNU_SOURCE 1
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "wbtest.h"

#include "report.h"

#define TG "build/test-grading"

static json_t *load(const char *fmt, const char *a)
{
    char p[512];
    snprintf(p, sizeof p, fmt, a);
    json_error_t e;
    json_t *j = json_load_file(p, 0, &e);
    cr_assert_not_null(j, "%s: %s", p, e.text);
    return j;
}

static char *feedback_of(const char *dir)
{
    char p[512];
    snprintf(p, sizeof p, "%s/feedback.md", dir);
    char *t = gr_read_capped(p, 1 << 22, NULL);
    cr_assert_not_null(t, "no %s", p);
    return t;
}

static json_t *variant_of(json_t *g, const char *name)
{
    json_t *ch = json_array_get(json_object_get(g, "chapters"), 0), *v;
    size_t i;
    json_array_foreach(json_object_get(ch, "variants"), i, v) if (!strcmp(json_string_value(json_object_get(v, "variant")), name)) return v;
    return NULL;
}

static int verdict_ok(const char *got, const char *want)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", want);
    for (char *t = strtok(buf, "|"); t; t = strtok(NULL, "|"))
        if (!strcmp(t, got)) return 1;
    return 0;
}

/* Checks one graded submission (grading.json + feedback.md in dir) against its expectations. */
static void check_case(const char *name, json_t *want, const char *dir, int with_sanitizer, int with_perf)
{
    char p[512];
    snprintf(p, sizeof p, "%s/grading.json", dir);
    json_error_t e;
    json_t *g = json_load_file(p, 0, &e);
    cr_assert_not_null(g, "%s: not graded (%s)", name, e.text);
    json_t *ch = json_array_get(json_object_get(g, "chapters"), 0);
    const char *status = json_string_value(json_object_get(ch, "status"));
    const char *wstatus = json_string_value(json_object_get(want, "status"));
    cr_expect_str_eq(status, wstatus, "%s: status", name);
    const char *iso = json_string_value(json_object_get(g, "isolation"));
    const char *k;
    json_t *v;
    json_object_foreach(json_object_get(want, "verdicts"), k, v)
    {
        json_t *got = variant_of(g, k);
        cr_expect_not_null(got, "%s: no variant %s", name, k);
        if (!got) continue;
        const char *gv = json_string_value(json_object_get(got, "verdict"));
        cr_expect(verdict_ok(gv, json_string_value(v)), "%s: %s is %s, expected %s", name, k, gv, json_string_value(v));
    }
    if (iso && strstr(iso, "bubblewrap")) json_object_foreach(json_object_get(want, "if_bubblewrap"), k, v)
        {
            json_t *got = variant_of(g, k);
            const char *gv = got ? json_string_value(json_object_get(got, "verdict")) : "?";
            cr_expect(verdict_ok(gv, json_string_value(v)), "%s (bubblewrap): %s is %s, expected %s", name, k, gv,
                      json_string_value(v));
        }
    json_t *score = json_object_get(want, "score");
    if (score) cr_expect_float_eq(json_number_value(json_object_get(g, "score")), json_number_value(score), 1e-9, "%s: score", name);
    if (json_is_true(json_object_get(want, "full")) && with_sanitizer && with_perf)
        cr_expect_float_eq(json_number_value(json_object_get(g, "score")), json_number_value(json_object_get(g, "max_score")),
                           1e-9, "%s: full marks", name);
    size_t i;
    json_t *x;
    if (with_sanitizer) {
        json_array_foreach(json_object_get(want, "findings"), i, x)
        {
            json_t *got = variant_of(g, json_string_value(x));
            cr_expect(got && json_is_true(json_object_get(got, "sanitizer_finding")), "%s: %s should have a sanitizer finding",
                      name, json_string_value(x));
        }
        json_array_foreach(json_object_get(want, "not_full"), i, x)
        {
            json_t *got = variant_of(g, json_string_value(x));
            cr_expect(got && json_number_value(json_object_get(got, "score")) < json_number_value(json_object_get(got, "max_score")),
                      "%s: %s must not get full points", name, json_string_value(x));
        }
    }
    char *md = feedback_of(dir);
    json_array_foreach(json_object_get(want, "feedback"), i, x)
    {
        const char *s = json_string_value(x);
        if (!strcmp(s, "memcheck") && !with_sanitizer) continue;
        cr_expect(strstr(md, s), "%s: feedback.md lacks '%s'", name, s);
    }
    const char *pn = json_string_value(json_object_get(want, "perf_note"));
    if (pn && with_perf) cr_expect(strstr(md, pn), "%s: feedback.md lacks '%s'", name, pn);
    free(md);
    json_decref(g);
}

/* Every case, graded as one class without the sanitizer and benchmarks (those are graded below for the
 * cases that need them): verdicts, statuses, scores, feedback. */
Test(grading_gpu, hostile_and_buggy_submissions_as_a_class, .timeout = 900)
{
    static char out[WBT_OUT_MAX];
    wbt_require_gpu();
    int rc = wbt_run(out, "rm -rf " TG "/class && mkdir -p " TG " && ./build/grade --class tests/grading/subs --out " TG
                          "/class --rubric tests/grading/rubric-ch1.json --no-perf --no-sanitizer --seeds 7,8 --jobs 8 "
                          "> " TG "/class.log 2>&1");
    cr_assert_eq(rc, 0, "see " TG "/class.log");
    json_t *want = load("%s", "tests/grading/expected.json");
    const char *name;
    json_t *w;
    int n = 0;
    json_object_foreach(want, name, w)
    {
        if (!json_is_object(w)) continue;
        char dir[512];
        snprintf(dir, sizeof dir, TG "/class/%s", name);
        check_case(name, w, dir, 0, 0);
        n++;
    }
    cr_assert_geq(n, 15);
    char p[256];
    snprintf(p, sizeof p, TG "/class/grades.csv");
    char *csv = gr_read_capped(p, 1 << 20, NULL);
    cr_assert_not_null(csv);
    int rows = 0;
    for (char *c = csv; *c; c++) rows += *c == '\n';
    cr_assert_eq(rows, n + 1, "one row per submission plus the header:\n%s", csv);
    free(csv);
    json_decref(want);
}

/* The cases whose verdict needs the sanitizer or the benchmark, graded alone with them. */
ParameterizedTestParameters(grading_gpu, with_sanitizer_and_benchmark)
{
    static const char *cases[] = {"oob-read", "no-barrier", "forged-time", "ok-solution"};
    return cr_make_param_array(const char *, cases, sizeof cases / sizeof cases[0]);
}
ParameterizedTest(const char **name, grading_gpu, with_sanitizer_and_benchmark, .timeout = 600)
{
    static char out[WBT_OUT_MAX];
    wbt_require_gpu();
    int perf = !strcmp(*name, "forged-time") || !strcmp(*name, "ok-solution");
    int rc = wbt_run(out, "rm -rf " TG "/single/%s && mkdir -p " TG "/single && ./build/grade --rubric "
                          "tests/grading/rubric-ch1.json %s --seeds 9 --out " TG "/single/%s tests/grading/subs/%s > " TG
                          "/single/%s.log 2>&1",
                     *name, perf ? "" : "--no-perf", *name, *name, *name);
    cr_assert_eq(rc, 0, "%s", out);
    json_t *want = load("%s", "tests/grading/expected.json");
    char dir[512];
    snprintf(dir, sizeof dir, TG "/single/%s", *name);
    check_case(*name, json_object_get(want, *name), dir, 1, perf);
    if (!strcmp(*name, "forged-time")) {
        json_t *g = load("%s/grading.json", dir);
        json_t *v;
        size_t i;
        json_array_foreach(json_object_get(json_array_get(json_object_get(g, "chapters"), 0), "variants"), i, v)
            cr_expect(json_is_null(json_object_get(v, "time_ratio")), "a forged time must earn no ratio");
        json_decref(g);
    }
    json_decref(want);
}

/* The reference graded as a submission gets every point; the starters get none. */
Test(grading_gpu, solutions_get_full_marks_and_starters_none, .timeout = 900)
{
    static char out[WBT_OUT_MAX];
    wbt_require_gpu();
    int rc = wbt_run(out, "rm -rf " TG "/solutions && mkdir -p " TG " && ./build/grade --seeds 7,8 --out " TG
                          "/solutions solutions > " TG "/solutions.log 2>&1");
    cr_assert_eq(rc, 0, "%s", out);
    json_t *g = load("%s", TG "/solutions/grading.json");
    cr_expect_gt(json_number_value(json_object_get(g, "max_score")), 0);
    cr_expect_float_eq(json_number_value(json_object_get(g, "score")), json_number_value(json_object_get(g, "max_score")),
                       1e-9, "the solutions must get full marks:\n%s", out);
    json_decref(g);
    rc = wbt_run(out, "rm -rf " TG "/starters && ./build/grade --no-perf --seeds 7 --out " TG "/starters chapters > " TG
                      "/starters.log 2>&1");
    cr_assert_eq(rc, 0, "%s", out);
    g = load("%s", TG "/starters/grading.json");
    cr_expect_float_eq(json_number_value(json_object_get(g, "score")), 0.0, 0, "the starters must get nothing:\n%s", out);
    json_decref(g);
}
