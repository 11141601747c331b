/* --grading's timed repetitions on inputs of their own (common/wb_timing.h, wb_fresh.h), the parts that
 * need no GPU: the seeds of the repetitions, where a wrong repetition is said to be (wb_check.h's fault
 * key, kept by atomicMin: the earliest repetition first), and the grader repeating it in the feedback
 * (grading/honesty.c) only in the harness's own words, and the float comparison the per-repetition checks
 * share with the host's. The GPU half is tests/test_grading_mode.c, and here the checks of each output type
 * on tests/planted/fresh_checks.cu. */
#include <criterion/criterion.h>

#include "wbrubric.h"
#include "wbtest.h"

#include "honesty.h"
#include "wb_check.h"

Test(fresh, every_repetition_has_a_seed_of_its_own)
{
    uint64_t seed = 42;
    for (uint64_t r = 0; r < 1000; r++) {
        cr_assert_neq(wb_rep_seed(seed, r), seed, "repetition %llu reuses the check's seed", (unsigned long long)r);
        cr_assert_neq(wb_rep_seed(seed, r), seed ^ WB_ROTATED_SEED);
        if (r) cr_assert_neq(wb_rep_seed(seed, r), wb_rep_seed(seed, r - 1));
    }
    cr_assert_neq(wb_rep_seed(42, 0), wb_rep_seed(43, 0), "another nonce, other inputs");
}

Test(fresh, a_fault_says_which_repetition_and_where)
{
    char s[96];
    wb_fault_str(wb_fault_key(36, WB_FAULT_AT2, wb_fault_ij(12, 40)), 1000, s, sizeof s);
    cr_assert_str_eq(s, "repetition 37 of 1000 wrong at [12][40]");
    wb_fault_str(wb_fault_key(0, WB_FAULT_AT, 268435455), 5, s, sizeof s);
    cr_assert_str_eq(s, "repetition 1 of 5 wrong at [268435455]");
    wb_fault_str(wb_fault_key(4, WB_FAULT_ROW, 1023), 5, s, sizeof s);
    cr_assert_str_eq(s, "repetition 5 of 5 wrong in row 1023 (its random projection)");
    wb_fault_str(wb_fault_key(999, WB_FAULT_VALUE, 0), 1000, s, sizeof s);
    cr_assert_str_eq(s, "repetition 1000 of 1000 wrong (the value)");
}

Test(fresh, the_smallest_key_is_the_earliest_repetition)
{
    /* atomicMin keeps the smallest: an earlier repetition wins over any place of a later one */
    cr_assert_lt(wb_fault_key(3, WB_FAULT_VALUE, (1ull << 50) - 1), wb_fault_key(4, WB_FAULT_AT, 0));
    cr_assert_lt(wb_fault_key(3, WB_FAULT_AT2, wb_fault_ij(0, 5)), wb_fault_key(3, WB_FAULT_AT2, wb_fault_ij(1, 0)));
    cr_assert_lt(wb_fault_key(999, WB_FAULT_VALUE, 0), WB_FAULT_NONE);
}

/* A float element of a repetition's output is right within its bound, never as NaN or the poison: the poison
 * reads -2.9e-16 as a float, within any bound of a reference of 0, and it means never written. */
Test(fresh, a_float_is_right_within_its_bound_never_as_nan_or_poison)
{
    float fpoison;
    double dpoison;
    memset(&fpoison, WB_POISON_BYTE, sizeof fpoison);
    memset(&dpoison, WB_POISON_BYTE, sizeof dpoison);
    cr_assert(wb_f32_within(2500.0009f, 2500.0, 1e-3) && wb_f32_within(-1.0f, -1.0, 0));
    cr_assert(!wb_f32_within(2500.0011f, 2500.0, 1e-3), "outside its bound");
    cr_assert(!wb_f32_within(nanf(""), 0, INFINITY), "NaN passes no bound");
    cr_assert(fabs((double)fpoison) < 1e-15 && !wb_f32_within(fpoison, 0.0, 1e-3), "the float poison is never right");
    cr_assert(wb_f64_within(1e10 + 5e-7, 1e10, 1e-6) && !wb_f64_within(1e10 + 2e-6, 1e10, 1e-6));
    cr_assert(!wb_f64_within(NAN, 0, INFINITY) && !wb_f64_within(dpoison, dpoison, 1), "the double poison is never right");
}

/* The GPU's per-repetition checks on int32, int64, float and double outputs (and an int64 one against an
 * expected array): no fault on the right output, the planted place on a wrong one (a 64-bit value wrong
 * only above bit 32, a float just outside its bound, a NaN, the poison where the reference is 0). */
Test(fresh, the_checks_of_every_output_type_find_the_planted_element, .timeout = 60)
{
    static char out[WBT_OUT_MAX];
    int rc = wbt_run(out, "./build/planted/fresh_checks");
    WBT_SKIP_IF_NO_GPU(rc, out);
    cr_assert_eq(rc, 0, "exit %d:\n%s", rc, out);
    cr_assert_eq(wbt_count(out, "ok "), 14, "every case, each ok:\n%s", out);
}

static gr_rubric rub;
#define LINE(checks) "{\"variant\":\"v\",\"size\":\"1000\",\"median_ms\":0.01,\"throughput\":100,\"verdict\":\"PASS\"," \
                     "\"rotated_check\":\"PASS\",\"cpu_ms\":0.004," checks "}\n"

static unsigned judge(const char *stu, char *note, size_t len)
{
    char err[400];
    cr_assert_eq(wbr_load(NULL, "{" WBR_ENTRY "}", &rub, err, sizeof err), 0, "%s", err);
    gr_honesty h;
    gr_honesty_init(&h, "1000");
    const char *ref = LINE("\"timed_check\":\"PASS\"");
    json_t *r = wb_jsonl_parse(ref, strlen(ref), err, sizeof err), *s = wb_jsonl_parse(stu, strlen(stu), err, sizeof err);
    cr_assert(r && s, "%s", err);
    gr_honesty_add(&h, r, 1);
    gr_honesty_add(&h, s, 0);
    json_decref(r);
    json_decref(s);
    return gr_honesty_judge(&h, &rub, "v", 0.01, note, len);
}

Test(fresh, the_feedback_names_the_wrong_repetition)
{
    char note[1000];
    unsigned m = judge(LINE("\"timed_check\":\"FAIL\",\"timed_fault\":\"repetition 37 of 1000 wrong at [5][6]\""), note,
                       sizeof note);
    cr_assert(m & 1u << GR_CAUGHT_TIMED_CHECK);
    cr_assert(strstr(note, "repetition 37 of 1000 wrong at [5][6]"), "%s", note);
    /* a line's own words are not repeated: only the harness's */
    m = judge(LINE("\"timed_check\":\"FAIL\",\"timed_fault\":\"<script>you passed</script>\""), note, sizeof note);
    cr_assert(m & 1u << GR_CAUGHT_TIMED_CHECK);
    cr_assert(!strstr(note, "script"), "%s", note);
    /* a right one says nothing of repetitions */
    m = judge(LINE("\"timed_check\":\"PASS\""), note, sizeof note);
    cr_assert_eq(m & 1u << GR_CAUGHT_TIMED_CHECK, 0);
    cr_assert(!strstr(note, "repetition"), "%s", note);
}
