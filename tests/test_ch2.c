/* Chapter 2, adjacent difference: every solution variant (chapters/02-adjdiff/chapter.json's) at awkward
 * sizes, checked here independently of the program's own check; its loads-per-element column; and a
 * planted missing barrier that racecheck must catch. The checks every chapter has are
 * tests/test_chapters.c's. */
#include "wbtest.h"

static const long long sizes[] = {1, 2, 3, 4, 5, 31, 32, 33, 255, 256, 257, 1000003, (1 << 24) + 5};

ParameterizedTestParameters(ch2, WBT_WHOSE(variant_is_exact))
{
    static wbt_case runs[WBT_MAX_CASES];
    return cr_make_param_array(wbt_case, runs, wbt_variant_cases(2, sizeof sizes / sizeof sizes[0], runs, WBT_MAX_CASES));
}
ParameterizedTest(wbt_case *r, ch2, WBT_WHOSE(variant_is_exact), .timeout = 120)
{
    long long len = sizes[r->size];
    static char out[WBT_OUT_MAX];
    char dir[64];
    wbt_tmpdir(dir, sizeof dir);
    unsigned long long seed = 2000 + (unsigned long long)len;
    int rc = wbt_run(out, WBT_SOLUTION "2 --variant %s --size %lld --seed %llu --reps 1 --warmup 0 --dump %s",
                     r->variant, len, seed, dir);
    WBT_SKIP_IF_NO_GPU(rc, out);
    cr_assert_eq(rc, WB_EXIT_PASS, "%s n=%lld: exit %d\n%s", r->variant, len, rc, out);

    /* The program's own check said PASS; check its raw output here too, from the same seed. */
    char path[256];
    snprintf(path, sizeof path, "%s/%s_%lld.bin", dir, r->variant, len);
    size_t n = (size_t)len;
    int32_t *got = wbt_read_exact(path, n * sizeof(int32_t));
    int32_t *in = malloc(n * sizeof(int32_t));
    wb_fill_i32(in, n, seed, 0, 0, (1 << 30) - 1);
    for (size_t i = 0; i < n; i++) {
        int32_t expected = in[i] - (i > 0 ? in[i - 1] : 0);
        cr_assert_eq(got[i], expected, "%s n=%lld: result[%zu] = %d, expected %d", r->variant, len, i, got[i],
                     expected);
    }
    free(in);
    free(got);
    remove(path);
    rmdir(dir);
}

/* Chapter 2's own column: loads per element (the reference row and the numbers every chapter has are
 * tests/test_chapters.c's). */
Test(ch2, WBT_WHOSE(json_has_loads_per_element), .timeout = 120)
{
    static char out[WBT_OUT_MAX];
    int rc;
    json_t *lines = wbt_table_json(".", 2, out, &rc);
    cr_assert_eq(rc, 0, "%s", out);
    size_t i;
    json_t *o;
    json_array_foreach(lines, i, o) cr_assert_str_eq(json_string_value(json_object_get(o, "extra_name")), "loads/elem");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(lines, 1), "extra")), "2");
    json_decref(lines);
}

/* The lesson of the shared variant: without its barrier, a thread may read its neighbour's tile slot
 * before the neighbour has written it. racecheck must say so. */
Test(ch2, racecheck_catches_missing_barrier, .timeout = 300)
{
    static char out[WBT_OUT_MAX];
    wbt_require_gpu();
    if (wbt_run(out, "command -v compute-sanitizer") != 0) cr_skip_test("compute-sanitizer is not on PATH");
    int rc = wbt_run(out, "compute-sanitizer --tool racecheck --error-exitcode 86 ./build/planted/adjdiff_no_barrier");
    cr_assert(strstr(out, "RACECHECK SUMMARY"), "racecheck printed no summary (exit %d)\n%s", rc, out);
    cr_assert(!strstr(out, "(0 errors"), "racecheck found no error in the planted race\n%s", out);
    cr_assert_eq(rc, 86, "racecheck should exit with --error-exitcode 86, got %d\n%s", rc, out);
}
