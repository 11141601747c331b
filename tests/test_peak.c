/* The ceilings of common/wb_peak.h are the GPU's: each chapter's printed ceiling (the CEILING line of
 * --grading, which the grader's above-ceiling check uses) is at least the best of a wider sweep of
 * chains and launch shapes that this test runs itself (build/planted/peak_sweep, written apart from
 * wb_peak.h), within PEAK_SLACK. A ceiling that became slow — chains that wait on each other, a hoisted
 * sum, a launch shape that leaves issue slots idle — fails here before a student's kernel passes it. */
#include "wbtest.h"

/* One run's ceiling is a sample: on an H100 (2026-11-27) chapter 3's read ceiling came out 3083.6 to
 * 3144.6 GB/s and chapter 5's min-plus 19659.7 to 20059.5 G steps/s in four runs each, against sweeps of
 * 3157.8 to 3160.4 and 20064.8 to 20071.7: once each 2.4 and 2.0 % below. So the test takes the best of up
 * to PEAK_RUNS runs; a ceiling that became slow (9 % for chains that wait on each other) fails them all. */
#define PEAK_SLACK 0.02
#define PEAK_RUNS 3

struct peak_case {
    const char *sweep;   /* peak_sweep's arguments */
    const char *program; /* the chapter program and a quick run of it */
};

/* The rate a JSON-lines array calls `key` in the first object that has it (0 if none). */
static double number_in(json_t *lines, const char *key, const char *verdict)
{
    size_t i;
    json_t *o;
    json_array_foreach(lines, i, o)
    {
        const char *v = json_string_value(json_object_get(o, "verdict"));
        if (verdict && (!v || strcmp(v, verdict))) continue;
        if (json_is_number(json_object_get(o, key))) return json_number_value(json_object_get(o, key));
    }
    return 0;
}

/* The CEILING line's rate of one `program --grading` run; out keeps its output. */
static double chapter_ceiling(const char *program, char *out)
{
    char cmd[512];
    int rc;
    snprintf(cmd, sizeof cmd, "%s --grading", program);
    json_t *lines = wbt_run_json(out, &rc, cmd);
    cr_assert_eq(rc, 0, "%s: exit %d\n%s", cmd, rc, out);
    double ceiling = number_in(lines, "throughput", "CEILING");
    cr_assert_gt(ceiling, 0, "%s printed no CEILING line\n%s", cmd, out);
    json_decref(lines);
    return ceiling;
}

ParameterizedTestParameters(peak, ceiling_is_at_least_the_wider_sweep)
{
    /* Chapter 3 reads 2^28 ints: the sweep reads as many bytes. Chapter 4's and 5's ceilings do not
     * depend on the size. */
    static struct peak_case cases[] = {
        {"minplus", WBT_SOLUTION "5 --size 256 --variant v0"},
        {"fma", WBT_SOLUTION "4 --size 256x256x256 --variant naive"},
        {"read 1073741824", WBT_SOLUTION "3 --size 2^28 --variant grid-stride"},
    };
    return cr_make_param_array(struct peak_case, cases, sizeof cases / sizeof cases[0]);
}
ParameterizedTest(struct peak_case *c, peak, ceiling_is_at_least_the_wider_sweep, .timeout = 300)
{
#ifdef WBT_STUDENT_RELEASE
    cr_skip_test("student release: the tests' ceiling sweep (tests/planted/) is not shipped");
#endif
    static char out[WBT_OUT_MAX];
    char dir[256], path[300];
    wbt_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/sweep.json", dir);
    int rc = wbt_run(out, "./build/planted/peak_sweep %s > %s", c->sweep, path);
    WBT_SKIP_IF_NO_GPU(rc, out);
    cr_assert_eq(rc, 0, "peak_sweep %s: exit %d\n%s", c->sweep, rc, out);
    json_t *sweep = wbt_json_lines(path);
    remove(path);
    rmdir(dir);
    double best = number_in(sweep, "best", NULL);
    size_t i;
    json_t *o;
    const char *config = "?";
    json_array_foreach(sweep, i, o) if (json_is_string(json_object_get(o, "config")) && json_object_get(o, "best"))
        config = json_string_value(json_object_get(o, "config"));
    cr_assert_gt(best, 0, "peak_sweep %s found no rate", c->sweep);

    double ceiling = 0;
    int run;
    for (run = 1; run <= PEAK_RUNS && ceiling < (1 - PEAK_SLACK) * best; run++) {
        double one = chapter_ceiling(c->program, out);
        /* Every run's numbers, for the record (make test's log keeps a test's stderr). */
        fprintf(stderr, "peak %s: the chapter's ceiling %.1f (run %d), the sweep's best %.1f (%s): %.1f %%\n", c->sweep,
                one, run, best, config, 100.0 * one / best);
        if (one > ceiling) ceiling = one;
    }
    cr_assert_geq(ceiling, (1 - PEAK_SLACK) * best,
                  "%s: its best ceiling of %d runs, %.1f, is %.1f %% below what peak_sweep %s reached (%.1f, %s): a "
                  "ceiling must be the GPU's best (common/wb_peak.h)",
                  c->program, run - 1, ceiling, 100.0 * (1 - ceiling / best), c->sweep, best, config);
    json_decref(sweep);
}
