/* Chapter 3, hierarchical atomic sum: every solution variant at awkward sizes, its dumped 64-bit
 * result checked here against a sum computed from the seed; the starter; bad command lines;
 * compute-sanitizer on every variant; and a planted missing barrier that racecheck must catch. */
#include "wbtest.h"

static const char *const variants[] = {"global-atomic", "block-atomic", "warp-shuffle", "grid-stride"};
static const long long sizes[] = {1, 2, 3, 4, 5, 31, 32, 33, 255, 256, 257, 1000003, (1 << 24) + 5};

struct run {
    const char *variant;
    long long n;
};

ParameterizedTestParameters(ch3, solution_variant_is_exact)
{
    enum { V = sizeof variants / sizeof variants[0], S = sizeof sizes / sizeof sizes[0] };
    static struct run runs[V * S];
    for (int v = 0; v < V; v++)
        for (int s = 0; s < S; s++) runs[v * S + s] = (struct run){variants[v], sizes[s]};
    return cr_make_param_array(struct run, runs, V * S);
}
ParameterizedTest(struct run *r, ch3, solution_variant_is_exact, .timeout = 120)
{
    static char out[WBT_OUT_MAX];
    char dir[64];
    wbt_tmpdir(dir, sizeof dir);
    unsigned long long seed = 3000 + (unsigned long long)r->n;
    int rc = wbt_run(out, WBT_SOLUTION "3 --variant %s --size %lld --seed %llu --reps 2 --warmup 1 --dump %s",
                     r->variant, r->n, seed, dir);
    WBT_SKIP_IF_NO_GPU(rc, out);
    cr_assert_eq(rc, WB_EXIT_PASS, "%s n=%lld: exit %d\n%s", r->variant, r->n, rc, out);
    cr_assert(!strstr(out, "differs"), "CUB's reference sum is wrong:\n%s", out);

    /* The program's own check said PASS; check its dumped result here too, from the same seed. */
    char path[128];
    snprintf(path, sizeof path, "%s/%s_%lld.bin", dir, r->variant, r->n);
    size_t n = (size_t)r->n;
    int64_t *got = wbt_read_exact(path, sizeof(int64_t));
    int32_t *in = malloc(n * sizeof(int32_t));
    wb_fill_i32(in, n, seed, 0, -(1 << 22), 1 << 22);
    int64_t expected = 0;
    for (size_t i = 0; i < n; i++) expected += in[i];
    cr_assert_eq(*got, expected, "%s n=%lld: sum %lld, expected %lld", r->variant, r->n, (long long)*got,
                 (long long)expected);
    free(in);
    free(got);
    remove(path);
    rmdir(dir);
}

Test(ch3, starter_reports_todo_and_fails, .timeout = 120)
{
    WBT_SKIP_IN_STUDENT_RELEASE();
    static char out[WBT_OUT_MAX];
    int rc;
    json_t *lines = wbt_run_json(out, &rc, "./build/chapter3 --size 1000 --reps 1 --warmup 0");
    cr_assert_eq(rc, WB_EXIT_WRONG, "the untouched starter must exit %d, got %d\n%s", WB_EXIT_WRONG, rc, out);
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        const char *verdict = wbt_verdict_of(lines, variants[v]);
        cr_assert_not_null(verdict, "no JSON line for %s", variants[v]);
        cr_assert_str_eq(verdict, "TODO", "%s", variants[v]);
    }
    cr_assert(strstr(out, "TODO") && strstr(out, "FAIL"), "%s", out);
    json_decref(lines);
}

Test(ch3, json_has_cub_reference_row, .timeout = 120)
{
    static char out[WBT_OUT_MAX];
    int rc;
    json_t *lines = wbt_run_json(out, &rc, WBT_SOLUTION "3 --size 4000037 --reps 3 --warmup 1");
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(!strstr(out, "differs"), "CUB's reference sum is wrong:\n%s", out);
    cr_assert_eq(json_array_size(lines), 5u, "CUB row + 4 variants");
    size_t i;
    json_t *o;
    json_array_foreach(lines, i, o)
    {
        cr_assert_gt(json_number_value(json_object_get(o, "median_ms")), 0.0);
        cr_assert_gt(json_number_value(json_object_get(o, "throughput")), 0.0);
        cr_assert_str_eq(json_string_value(json_object_get(o, "unit")), "GB/s");
        cr_assert_str_eq(json_string_value(json_object_get(o, "size")), "4000037");
    }
    json_t *ref = json_array_get(lines, 0);
    cr_assert_str_eq(json_string_value(json_object_get(ref, "verdict")), "REFERENCE");
    const char *sol = json_string_value(json_object_get(ref, "variant")); /* the faster of the two wins */
    cr_assert(!strcmp(sol, "cub::DeviceReduce::Sum") || !strcmp(sol, "read bandwidth"), "speed of light: %s", sol);
    json_decref(lines);
}

/* Bad command lines are refused before any GPU work, so these run without a GPU too. */
ParameterizedTestParameters(ch3, bad_usage)
{
    static const char *args[] = {"--size 0",          "--size -1",      "--size abc",   "--size 2^31",
                                 "--size 1073741825", "--variant nope", "--frobnicate", "--reps 0",
                                 "--size",            "1000",           "--dump /nonexistent/dir"};
    return cr_make_param_array(const char *, args, sizeof args / sizeof args[0]);
}
ParameterizedTest(const char **args, ch3, bad_usage)
{
    wbt_assert_bad_usage(WBT_SOLUTION "3", *args);
}

Test(ch3, help_and_list_work_without_gpu)
{
    wbt_assert_help_and_list("./build/chapter3", variants, sizeof variants / sizeof variants[0]);
}

struct san {
    const char *tool, *variant;
};
ParameterizedTestParameters(ch3, sanitizer_clean)
{
    static const char *const tools[] = {"memcheck", "racecheck", "synccheck"};
    enum { T = 3, V = sizeof variants / sizeof variants[0] };
    static struct san cases[T * V];
    for (int t = 0; t < T; t++)
        for (int v = 0; v < V; v++) cases[t * V + v] = (struct san){tools[t], variants[v]};
    return cr_make_param_array(struct san, cases, T * V);
}
ParameterizedTest(struct san *s, ch3, sanitizer_clean, .timeout = 300)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, WBT_SOLUTION "3 --size 1031 --variant %s --reps 1 --warmup 0", s->variant);
    wbt_sanitize(s->tool, cmd);
}

/* The block sum's barrier: without it, warp 0 may read a warp total before that warp has stored it.
 * racecheck must say so. */
Test(ch3, racecheck_catches_missing_barrier, .timeout = 300)
{
    static char out[WBT_OUT_MAX];
    wbt_require_gpu();
    if (wbt_run(out, "command -v compute-sanitizer") != 0) cr_skip_test("compute-sanitizer is not on PATH");
    int rc =
        wbt_run(out, "compute-sanitizer --tool racecheck --error-exitcode 86 ./build/planted/atomicsum_no_barrier");
    cr_assert(strstr(out, "RACECHECK SUMMARY"), "racecheck printed no summary (exit %d)\n%s", rc, out);
    cr_assert(!strstr(out, "(0 errors"), "racecheck found no error in the planted race\n%s", out);
    cr_assert_eq(rc, 86, "racecheck should exit with --error-exitcode 86, got %d\n%s", rc, out);
}
