/* The grader end to end on the GPU: the hostile and buggy submissions of tests/cases/01-reversal/bugs/
 * (written by make as build/cases/bugs/ch1/) get the verdicts its expected.json gives them (graded as a class, as an instructor would); the
 * reference graded as a student gets full marks; the untouched starters get no points. Skips cleanly
 * without a GPU. Reports stay in build/test-grading/ for reading. */
#define _GNU_SOURCE 1
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "wbtest.h"

#include "report.h"
#include "grading/check.h"

#define TG "build/test-grading"
#define SUBS "build/cases/bugs/ch1"
#define EXPECTED "tests/cases/01-reversal/bugs/expected.json"

/* Every case, graded as one class without the sanitizer and benchmarks (those are graded below for the
 * cases that need them): verdicts, statuses, scores, feedback. */
Test(grading_gpu, hostile_and_buggy_submissions_as_a_class, .timeout = 900)
{
    static char out[WBT_OUT_MAX];
    wbt_require_gpu();
    int rc = wbt_run(out, "rm -rf " TG "/class && mkdir -p " TG " && ./build/course --class " SUBS " --out " TG
                          "/class --rubric tests/grading/rubric-ch1.json --no-perf --no-sanitizer --seeds 7 --jobs 8 "
                          "> " TG "/class.log 2>&1; rc=$?; [ $rc = 0 ] || tail -n 12 " TG "/class.log; exit $rc");
    cr_assert_eq(rc, 0, "exit %d; the end of " TG "/class.log:\n%s", rc, out);
    json_t *doc = load("%s", EXPECTED), *want = json_object_get(doc, "cases");
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
    json_decref(doc);
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
                          "tests/grading/rubric-ch1.json %s --seeds 9 --out " TG "/single/%s " SUBS "/%s > " TG
                          "/single/%s.log 2>&1; rc=$?; [ $rc = 0 ] || tail -n 12 " TG "/single/%s.log; exit $rc",
                     *name, perf ? "" : "--no-perf", *name, *name, *name, *name);
    cr_assert_eq(rc, 0, "%s: exit %d; the end of its log:\n%s", *name, rc, out);
    json_t *doc = load("%s", EXPECTED), *want = json_object_get(doc, "cases");
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
    json_decref(doc);
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
