/* Chapter 1, array reversal: every solution variant (chapters/01-reversal/chapter.json's) at awkward
 * sizes, checked here independently of the program's own check. The checks every chapter has (starter,
 * JSON table, bad command lines, --help, compute-sanitizer) are tests/test_chapters.c's. */
#include "wbtest.h"

static const long long sizes[] = {1, 2, 3, 31, 32, 33, 255, 256, 257, 1000003, (1 << 24) + 5};

ParameterizedTestParameters(ch1, WBT_WHOSE(variant_is_exact))
{
    static wbt_case runs[WBT_MAX_CASES];
    return cr_make_param_array(wbt_case, runs, wbt_variant_cases(1, sizeof sizes / sizeof sizes[0], runs, WBT_MAX_CASES));
}
ParameterizedTest(wbt_case *r, ch1, WBT_WHOSE(variant_is_exact), .timeout = 120)
{
    long long len = sizes[r->size];
    static char out[WBT_OUT_MAX];
    char dir[64];
    wbt_tmpdir(dir, sizeof dir);
    unsigned long long seed = 1000 + (unsigned long long)len;
    int rc = wbt_run(out, WBT_SOLUTION "1 --variant %s --size %lld --seed %llu --reps 1 --warmup 0 --dump %s",
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
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(got[n - 1 - i], in[i], "%s n=%lld: out[%zu] = %d, expected in[%zu] = %d", r->variant, len,
                     n - 1 - i, got[n - 1 - i], i, in[i]);
    free(in);
    free(got);
    remove(path);
    rmdir(dir);
}

