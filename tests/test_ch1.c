/* Chapter 1, array reversal: every solution variant at awkward sizes, checked here independently of the
 * program's own check; the starter; bad command lines; compute-sanitizer. */
#include "wbtest.h"

static const char *const variants[] = {"global", "shared-static", "shared-dynamic", "vector"};
static const long long sizes[] = {1, 2, 3, 31, 32, 33, 255, 256, 257, 1000003, (1 << 24) + 5};

struct run {
    const char *variant;
    long long n;
};

ParameterizedTestParameters(ch1, solution_variant_is_exact)
{
    enum { V = sizeof variants / sizeof variants[0], S = sizeof sizes / sizeof sizes[0] };
    static struct run runs[V * S];
    for (int v = 0; v < V; v++)
        for (int s = 0; s < S; s++) runs[v * S + s] = (struct run){variants[v], sizes[s]};
    return cr_make_param_array(struct run, runs, V * S);
}
ParameterizedTest(struct run *r, ch1, solution_variant_is_exact, .timeout = 120)
{
    static char out[WBT_OUT_MAX];
    char dir[64];
    wbt_tmpdir(dir, sizeof dir);
    unsigned long long seed = 1000 + (unsigned long long)r->n;
    int rc = wbt_run(out, WBT_SOLUTION "1 --variant %s --size %lld --seed %llu --reps 1 --warmup 0 --dump %s",
                     r->variant, r->n, seed, dir);
    WBT_SKIP_IF_NO_GPU(rc, out);
    cr_assert_eq(rc, WB_EXIT_PASS, "%s n=%lld: exit %d\n%s", r->variant, r->n, rc, out);

    /* The program's own check said PASS; check its raw output here too, from the same seed. */
    char path[128];
    snprintf(path, sizeof path, "%s/%s_%lld.bin", dir, r->variant, r->n);
    size_t n = (size_t)r->n;
    int32_t *got = wbt_read_exact(path, n * sizeof(int32_t));
    int32_t *in = malloc(n * sizeof(int32_t));
    wb_fill_i32(in, n, seed, 0, 0, (1 << 30) - 1);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(got[n - 1 - i], in[i], "%s n=%lld: out[%zu] = %d, expected in[%zu] = %d", r->variant, r->n,
                     n - 1 - i, got[n - 1 - i], i, in[i]);
    free(in);
    free(got);
    remove(path);
    rmdir(dir);
}

Test(ch1, starter_reports_todo_and_fails, .timeout = 120)
{
    WBT_SKIP_IN_STUDENT_RELEASE();
    static char out[WBT_OUT_MAX];
    int rc;
    json_t *lines = wbt_run_json(out, &rc, "./build/chapter1 --size 1000 --reps 1 --warmup 0");
    cr_assert_eq(rc, WB_EXIT_WRONG, "the untouched starter must exit %d, got %d\n%s", WB_EXIT_WRONG, rc, out);
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        const char *verdict = wbt_verdict_of(lines, variants[v]);
        cr_assert_not_null(verdict, "no JSON line for %s", variants[v]);
        cr_assert_str_eq(verdict, "TODO", "%s", variants[v]);
    }
    cr_assert(strstr(out, "TODO") && strstr(out, "FAIL"), "%s", out);
    json_decref(lines);
}

Test(ch1, json_has_reference_row_and_sane_numbers, .timeout = 120)
{
    static char out[WBT_OUT_MAX];
    int rc;
    json_t *lines = wbt_run_json(out, &rc, WBT_SOLUTION "1 --size 4000037 --reps 3 --warmup 1");
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert_eq(json_array_size(lines), 5u, "memcpy row + 4 variants");
    size_t i;
    json_t *o;
    json_array_foreach(lines, i, o)
    {
        double ms = json_number_value(json_object_get(o, "median_ms"));
        double tp = json_number_value(json_object_get(o, "throughput"));
        cr_assert_gt(ms, 0.0);
        cr_assert_gt(tp, 0.0);
        cr_assert_str_eq(json_string_value(json_object_get(o, "unit")), "GB/s");
        cr_assert_str_eq(json_string_value(json_object_get(o, "size")), "4000037");
    }
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(lines, 0), "verdict")), "REFERENCE");
    json_decref(lines);
}

/* Bad command lines are refused before any GPU work, so these run without a GPU too. */
ParameterizedTestParameters(ch1, bad_usage)
{
    static const char *args[] = {"--size 0",       "--size -1",     "--size abc",   "--size 2^31",
                                 "--size 1073741825", "--variant nope", "--frobnicate", "--reps 0",
                                 "--size",         "1000",          "--dump /nonexistent/dir",
                                 /* issue 28: paths are checked before the GPU probe (no GPU: exit 2, not 3) */
                                 "--json /nonexistent/r.json", "--json /", "--dump /etc/passwd",
                                 "--size 99999999999999999999"};
    return cr_make_param_array(const char *, args, sizeof args / sizeof args[0]);
}
ParameterizedTest(const char **args, ch1, bad_usage)
{
    wbt_assert_bad_usage(WBT_SOLUTION "1", *args);
}

Test(ch1, help_and_list_work_without_gpu)
{
    wbt_assert_help_and_list("./build/chapter1", variants, sizeof variants / sizeof variants[0]);
}

struct san {
    const char *tool, *variant;
};
ParameterizedTestParameters(ch1, sanitizer_clean)
{
    static struct san cases[] = {
        {"memcheck", "global"},  {"memcheck", "shared-static"},  {"memcheck", "shared-dynamic"},
        {"memcheck", "vector"},  {"racecheck", "shared-static"}, {"racecheck", "shared-dynamic"},
        {"synccheck", "shared-static"}, {"synccheck", "shared-dynamic"}, {"racecheck", "vector"},
    };
    return cr_make_param_array(struct san, cases, sizeof cases / sizeof cases[0]);
}
ParameterizedTest(struct san *s, ch1, sanitizer_clean, .timeout = 300)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, WBT_SOLUTION "1 --size 1031 --variant %s --reps 1 --warmup 0", s->variant);
    wbt_sanitize(s->tool, cmd);
}
