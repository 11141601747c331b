/* Chapter 7, prefix sum: every solution variant (chapters/07-scan/chapter.json's) at awkward sizes, its
 * dumped result checked here against a scan of the test's own, from the seed; 2^28 + 3 by the program's own
 * check; the look-back 1,000 times in a row on inputs of its own (--grading) at 16384 blocks; and CUB's
 * anchor line. The checks every chapter has are tests/test_chapters.c's. */
#include "wbtest.h"

static const long long sizes[] = {1, 2, 3, 31, 32, 33, 1023, 1024, 1025, 2047, 2049, 4095, 4096, 4097, 20483,
                                  1000003, (1 << 24) + 5};

/* The chapter's input, written again from its description: full-range 32-bit values from stream 0, but in
 * every fourth run of 3001 elements the run's one value from stream 1. */
static int32_t input_at(uint64_t seed, uint32_t i)
{
    uint32_t run = i / 3001u;
    uint64_t r = run % 4 == 3 ? wb_random_at(seed, 1, run) : wb_random_at(seed, 0, i);
    return (int32_t)(uint32_t)(r >> 32);
}

ParameterizedTestParameters(ch7, WBT_WHOSE(variant_is_exact))
{
    static wbt_case runs[WBT_MAX_CASES];
    return cr_make_param_array(wbt_case, runs, wbt_variant_cases(7, sizeof sizes / sizeof sizes[0], runs, WBT_MAX_CASES));
}
ParameterizedTest(wbt_case *r, ch7, WBT_WHOSE(variant_is_exact), .timeout = 120)
{
    long long len = sizes[r->size];
    static char out[WBT_OUT_MAX];
    char dir[64];
    wbt_tmpdir(dir, sizeof dir);
    unsigned long long seed = 7000 + (unsigned long long)len;
    int rc = wbt_run(out, WBT_SOLUTION "7 --variant %s --size %lld --seed %llu --reps 2 --warmup 1 --dump %s",
                     r->variant, len, seed, dir);
    WBT_SKIP_IF_NO_GPU(rc, out);
    cr_assert_eq(rc, WB_EXIT_PASS, "%s n=%lld: exit %d\n%s", r->variant, len, rc, out);

    /* The program's own check said PASS; check its raw output here too, from the same seed. */
    char path[256];
    snprintf(path, sizeof path, "%s/%s_%lld.bin", dir, r->variant, len);
    size_t n = (size_t)len;
    int32_t *got = wbt_read_exact(path, n * sizeof(int32_t));
    uint32_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        sum += (uint32_t)input_at(seed, (uint32_t)i);
        cr_assert_eq((uint32_t)got[i], sum, "%s n=%lld: out[%zu] = %d, expected %d", r->variant, len, i, got[i],
                     (int32_t)sum);
    }
    free(got);
    remove(path);
    rmdir(dir);
}

/* 2^28 + 3: no multiple of any tile, and a sum that wraps many times; the program's own exact check (a
 * dump of it would be 1 GiB). */
Test(ch7, WBT_WHOSE(every_variant_at_2_28_plus_3), .timeout = 600)
{
    static char out[WBT_OUT_MAX];
    int rc = wbt_run(out, WBT_SOLUTION "7 --size 268435459 --reps 1 --warmup 0");
    WBT_SKIP_IF_NO_GPU(rc, out);
    cr_assert_eq(rc, WB_EXIT_PASS, "exit %d\n%s", rc, out);
    cr_assert_eq(wbt_count(out, "  PASS\n"), 5, "not five variants PASS:\n%s", out);
}

/* The look-back race, if there is one, shows as a result that is sometimes wrong (CONTRACT's rule): 1,000
 * consecutive runs at 2^26 (16384 blocks), each on inputs of its own and each output checked on the GPU. */
Test(ch7, WBT_WHOSE(lookback_1000_runs_exact), .timeout = 300)
{
    static char out[WBT_OUT_MAX];
    int rc = wbt_run(out, WBT_SOLUTION "7 --grading --variant decoupled-lookback --size 2^26 --reps 1000 --json - "
                                       "2>/dev/null");
    WBT_SKIP_IF_NO_GPU(rc, out);
    cr_assert_eq(rc, WB_EXIT_PASS, "exit %d\n%s", rc, out);
    cr_assert(strstr(out, "\"variant\":\"decoupled-lookback\""), "no line of the look-back:\n%s", out);
    cr_assert(strstr(out, "\"reps\":1000"), "not 1000 repetitions:\n%s", out);
    cr_assert(strstr(out, "\"timed_check\":\"PASS\""), "a repetition was wrong:\n%s", out);
}

/* The reference's build times CUB's scan as its anchor and checks CUB's result like a variant's. */
Test(ch7, cub_anchor_line, .timeout = 120)
{
#ifdef WBT_STUDENT_RELEASE
    cr_skip_test("student release: the chapters are built without CUB");
#endif
    static char out[WBT_OUT_MAX];
    int rc = wbt_run(out, "./build/solution7 --size 1000003 --variant decoupled-lookback --reps 2 --warmup 1");
    WBT_SKIP_IF_NO_GPU(rc, out);
    cr_assert_eq(rc, WB_EXIT_PASS, "exit %d\n%s", rc, out);
    cr_assert(strstr(out, "anchor: cub::DeviceScan::InclusiveSum"), "no anchor line:\n%s", out);
    cr_assert(!strstr(out, "differs from the CPU's"), "CUB's scan is wrong:\n%s", out);
}
