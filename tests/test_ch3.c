/* Chapter 3, hierarchical atomic sum: every solution variant (chapters/03-atomicsum/chapter.json's) at
 * awkward sizes, its dumped 64-bit result checked here against a sum computed from the seed; CUB's
 * reference row; and a planted missing barrier that racecheck must catch. The checks every chapter has
 * are tests/test_chapters.c's. */
#include "wbtest.h"

static const long long sizes[] = {1, 2, 3, 4, 5, 31, 32, 33, 255, 256, 257, 1000003, (1 << 24) + 5};

ParameterizedTestParameters(ch3, WBT_WHOSE(variant_is_exact))
{
    static wbt_case runs[WBT_MAX_CASES];
    return cr_make_param_array(wbt_case, runs, wbt_variant_cases(3, sizeof sizes / sizeof sizes[0], runs, WBT_MAX_CASES));
}
ParameterizedTest(wbt_case *r, ch3, WBT_WHOSE(variant_is_exact), .timeout = 120)
{
    long long len = sizes[r->size];
    static char out[WBT_OUT_MAX];
    char dir[64];
    wbt_tmpdir(dir, sizeof dir);
    unsigned long long seed = 3000 + (unsigned long long)len;
    int rc = wbt_run(out, WBT_SOLUTION "3 --variant %s --size %lld --seed %llu --reps 2 --warmup 1 --dump %s",
                     r->variant, len, seed, dir);
    WBT_SKIP_IF_NO_GPU(rc, out);
    cr_assert_eq(rc, WB_EXIT_PASS, "%s n=%lld: exit %d\n%s", r->variant, len, rc, out);
    cr_assert(!strstr(out, "differs"), "CUB's reference sum is wrong:\n%s", out);

    /* The program's own check said PASS; check its dumped result here too, from the same seed. */
    char path[256];
    snprintf(path, sizeof path, "%s/%s_%lld.bin", dir, r->variant, len);
    size_t n = (size_t)len;
    int64_t *got = wbt_read_exact(path, sizeof(int64_t));
    int32_t *in = malloc(n * sizeof(int32_t));
    wb_fill_i32(in, n, seed, 0, -(1 << 22), 1 << 22);
    int64_t expected = 0;
    for (size_t i = 0; i < n; i++) expected += in[i];
    cr_assert_eq(*got, expected, "%s n=%lld: sum %lld, expected %lld", r->variant, len, (long long)*got,
                 (long long)expected);
    free(in);
    free(got);
    remove(path);
    rmdir(dir);
}

/* Chapter 3's own reference row: CUB's sum agrees, and the faster of CUB and the read rate is the speed
 * of light (the row itself and the numbers every chapter has are tests/test_chapters.c's). */
Test(ch3, WBT_WHOSE(json_has_cub_reference_row), .timeout = 120)
{
    static char out[WBT_OUT_MAX];
    int rc;
    json_t *lines = wbt_table_json(".", 3, out, &rc);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(!strstr(out, "differs"), "CUB's reference sum is wrong:\n%s", out);
    json_t *ref = json_array_get(lines, 0);
    cr_assert_str_eq(json_string_value(json_object_get(ref, "verdict")), "REFERENCE");
    const char *sol = json_string_value(json_object_get(ref, "variant")); /* the faster of the two wins */
    cr_assert(!strcmp(sol, "cub::DeviceReduce::Sum") || !strcmp(sol, "read bandwidth"), "speed of light: %s", sol);
    json_decref(lines);
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
