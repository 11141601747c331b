/* Unit tests of common/wb.h: command line, random inputs, verification. No GPU needed. */
#include <time.h>

#include "wbtest.h"

static const wb_variant variants[] = {{"naive", "a", "k_naive", NULL, NULL, NULL, NULL, {{0}}, NULL},
                                     {"shared", "b", "k_shared", NULL, NULL, NULL, NULL, {{0}}, NULL},
                                     {"fast-one", "c", "k_fast", NULL, NULL, NULL, NULL, {{0}}, NULL}};
static const wb_cli cli1 = {"9-test", "test", variants, 3, 1, 1 << 30, "N", "2^20 1000"};
static const wb_cli cli3 = {"9-mat", "test", variants, 3, 3, 1 << 20, "MxNxK", "64x32x16"};

static int parse(const wb_cli *cli, wb_options *o, char *err, const char *a1, const char *a2, const char *a3)
{
    char *argv[5] = {(char *)"prog", (char *)a1, (char *)a2, (char *)a3, NULL};
    int argc = 1 + (a1 != NULL) + (a2 != NULL) + (a3 != NULL);
    return wb_parse_args(argc, argv, cli, o, err, 256);
}

Test(cli, defaults)
{
    wb_options o;
    char err[256];
    cr_assert_eq(parse(&cli1, &o, err, NULL, NULL, NULL), 0, "%s", err);
    cr_assert_eq(o.variant_mask, 7u);
    cr_assert_eq(o.n_sizes, 2);
    cr_assert_eq(o.sizes[0].d[0], 1 << 20);
    cr_assert_eq(o.sizes[1].d[0], 1000);
    cr_assert_eq(o.seed, 42u);
    cr_assert(o.reps >= 5 && o.warmup >= 1);
}

Test(cli, variants_sizes_seed)
{
    wb_options o;
    char err[256];
    cr_assert_eq(parse(&cli1, &o, err, "--variant=fast-one,naive", "-n2^28", "--seed=0x10"), 0, "%s", err);
    cr_assert_eq(o.variant_mask, 5u);
    cr_assert_eq(o.n_sizes, 1);
    cr_assert_eq(o.sizes[0].d[0], 1 << 28);
    cr_assert_eq(o.seed, 16u);
}

Test(cli, matrix_size)
{
    wb_options o;
    char err[256];
    cr_assert_eq(parse(&cli3, &o, err, "--size", "4096x1000x333", NULL), 0, "%s", err);
    cr_assert_eq(o.sizes[0].dims, 3);
    cr_assert_eq(o.sizes[0].d[0], 4096);
    cr_assert_eq(o.sizes[0].d[1], 1000);
    cr_assert_eq(o.sizes[0].d[2], 333);
    char s[48];
    wb_size_str(&o.sizes[0], s, sizeof s);
    cr_assert_str_eq(s, "4096x1000x333");
}

Test(cli, repeated_sizes)
{
    wb_options o;
    char err[256];
    cr_assert_eq(parse(&cli1, &o, err, "-n1", "-n31", "-n1000003"), 0, "%s", err);
    cr_assert_eq(o.n_sizes, 3);
    cr_assert_eq(o.sizes[2].d[0], 1000003);
}

/* Every bad input: usage status, a non-empty one-line reason, and nothing else. */
struct bad {
    int dims;
    const char *a1, *a2;
};
ParameterizedTestParameters(cli, rejects)
{
    static struct bad cases[] = {
        {1, "--size", "0"},          {1, "--size", "-5"},        {1, "--size", "abc"},
        {1, "--size", "12abc"},      {1, "--size", ""},          {1, "--size", "2^31"},
        {1, "--size", "1073741825"}, {1, "--size", "99999999999999999999999"},
        {1, "--size", "4x4x4"},      {1, "--size", "+7"},        {1, "--size", "2^-1"},
        {1, "--variant", "nope"},    {1, "--variant", ","},      {1, "--bogus", NULL},
        {1, "--reps", "0"},          {1, "--reps", "x"},         {1, "--warmup", "-1"},
        {1, "--seed", "-3"},         {1, "--seed", "12z"},       {1, "stray", NULL},
        {1, "--size", NULL},         {3, "--size", "4x4"},       {3, "--size", "0x4x4"},
        {3, "--size", "4x4x4x4"},    {3, "--size", "4xx4"},      {3, "--size", "4x4x4x"},    {3, "--size", "x4x4x4"},      {3, "--size", "2000000x1x1"},
    };
    return cr_make_param_array(struct bad, cases, sizeof cases / sizeof cases[0]);
}
ParameterizedTest(struct bad *b, cli, rejects)
{
    wb_options o;
    char err[256];
    int rc = parse(b->dims == 1 ? &cli1 : &cli3, &o, err, b->a1, b->a2, NULL);
    cr_assert_eq(rc, WB_EXIT_USAGE, "accepted %s %s", b->a1, b->a2 ? b->a2 : "");
    cr_assert_gt(strlen(err), 5);
    cr_assert_null(strchr(err, '\n'), "reason is not one line: %s", err);
}

Test(cli, unknown_variant_lists_valid_ones)
{
    wb_options o;
    char err[256];
    cr_assert_eq(parse(&cli1, &o, err, "-v", "shard", NULL), WB_EXIT_USAGE);
    cr_assert(strstr(err, "shared") && strstr(err, "fast-one"), "%s", err);
}

Test(rng, reproducible_and_seed_dependent)
{
    enum { N = 4096 };
    static int32_t a[N], b[N], c[N];
    wb_fill_i32(a, N, 7, 0, -1000, 1000);
    wb_fill_i32(b, N, 7, 0, -1000, 1000);
    wb_fill_i32(c, N, 8, 0, -1000, 1000);
    cr_assert_arr_eq(a, b, sizeof a);
    int differ = 0, lo = 0, hi = 0;
    for (int i = 0; i < N; i++) {
        differ += a[i] != c[i];
        cr_assert(a[i] >= -1000 && a[i] <= 1000);
        lo += a[i] == -1000;
        hi += a[i] == 1000;
    }
    cr_assert_gt(differ, N * 9 / 10, "another seed must give other data");
    cr_assert(lo > 0 || hi > 0 || N < 2001, "the ends of the range are reachable");
}

Test(rng, streams_differ_and_prefix_stable)
{
    enum { N = 1000 };
    static float x[N], y[N], z[2 * N];
    wb_fill_f32(x, N, 1, 0, 0.0f, 1.0f);
    wb_fill_f32(y, N, 1, 1, 0.0f, 1.0f);
    wb_fill_f32(z, 2 * N, 1, 0, 0.0f, 1.0f);
    cr_assert_arr_eq(x, z, sizeof x, "element i depends on (seed, i) only, not on n");
    int same = 0;
    double mean = 0;
    for (int i = 0; i < N; i++) {
        same += x[i] == y[i];
        cr_assert(x[i] >= 0.0f && x[i] < 1.0f);
        mean += x[i] / N;
    }
    cr_assert_lt(same, 5);
    cr_assert(mean > 0.45 && mean < 0.55, "mean %f", mean);
}

Test(check, counts_and_reports_first_few)
{
    int32_t want[100], got[100];
    for (int i = 0; i < 100; i++) want[i] = got[i] = i;
    for (int i = 10; i < 30; i++) got[i] = -i;
    memset(&got[50], WB_POISON_BYTE, 4 * 10);
    wb_check c;
    wb_check_init(&c, 0);
    wb_check_i32(&c, 1000, want, got, 100);
    cr_assert_eq(c.checked, 100u);
    cr_assert_eq(c.wrong, 30u);
    cr_assert_eq(c.unwritten, 10u);
    cr_assert_eq(c.n_reports, WB_CHECK_REPORT);
    cr_assert(strstr(c.reports[0], "[1010]: expected 10, got -10"), "%s", c.reports[0]);
    cr_assert_eq(wb_check_verdict(&c), WB_FAIL);
}

/* expected[j] = 2 * (first + j): a chapter's slice builder. */
static void twice_slice(const void *ctx, size_t first, size_t count, int32_t *expected)
{
    (void)ctx;
    for (size_t j = 0; j < count; j++) expected[j] = 2 * (int32_t)(first + j);
}

/* Sliced checks report like the whole-array check: the mismatches in order, across slices, with their
 * global indices, and every element counted (n not a multiple of the slice). */
Test(check, slices_report_in_order_with_global_indices)
{
    size_t n = (1u << 18) + 123;
    int32_t *got = malloc(4 * n);
    cr_assert_not_null(got);
    for (size_t i = 0; i < n; i++) got[i] = 2 * (int32_t)i;
    wb_check c;
    wb_check_init(&c, 0);
    wb_check_i32_slices(&c, n, twice_slice, NULL, got);
    cr_assert_eq(c.checked, n);
    cr_assert_eq(wb_check_verdict(&c), WB_PASS);
    got[70000] = 5;
    memset(&got[n - 1], WB_POISON_BYTE, 4);
    wb_check_init(&c, 0);
    wb_check_i32_slices(&c, n, twice_slice, NULL, got);
    cr_assert_eq(c.checked, n);
    cr_assert_eq(c.wrong, 2u);
    cr_assert_eq(c.unwritten, 1u);
    cr_assert(strstr(c.reports[0], "[70000]: expected 140000, got 5"), "%s", c.reports[0]);
    cr_assert(strstr(c.reports[1], "(never written)"), "%s", c.reports[1]);
    free(got);
}

Test(check, verdicts)
{
    int32_t want[8] = {1, 2, 3, 4, 5, 6, 7, 8}, got[8];
    wb_check c;
    wb_check_init(&c, 0);
    wb_check_i32(&c, 0, want, want, 8);
    cr_assert_eq(wb_check_verdict(&c), WB_PASS);
    memset(got, WB_POISON_BYTE, sizeof got);
    wb_check_init(&c, 0);
    wb_check_i32(&c, 0, want, got, 8);
    cr_assert_eq(wb_check_verdict(&c), WB_TODO, "nothing written: not implemented");
    wb_check_init(&c, 0);
    cr_assert_eq(wb_check_verdict(&c), WB_FAIL, "nothing checked must not pass");
}

Test(check, matrix_positions)
{
    int32_t want[12] = {0}, got[12] = {0};
    got[7] = 3;
    wb_check c;
    wb_check_init(&c, 4);
    wb_check_i32(&c, 0, want, got, 12);
    cr_assert(strstr(c.reports[0], "[1][3]"), "%s", c.reports[0]);
}

Test(check, float_exact_inf_and_nan)
{
    float want[3] = {INFINITY, 1.5f, NAN}, got[3] = {INFINITY, 1.5f, NAN};
    wb_check c;
    wb_check_init(&c, 0);
    wb_check_f32_exact(&c, 0, want, got, 3);
    cr_assert_eq(c.wrong, 1u, "+inf equals +inf; NaN never passes");
    got[1] = nextafterf(1.5f, 2.0f);
    wb_check_init(&c, 0);
    wb_check_f32_exact(&c, 0, want, got, 2);
    cr_assert_eq(c.wrong, 1u, "one ulp off is wrong");
}

Test(check, float_tolerance)
{
    double ref[3] = {1.0, 2.0, 3.0}, bound[3] = {1e-3, 1e-3, 1e-3};
    float got[3] = {1.0005f, 2.002f, NAN};
    wb_check c;
    wb_check_init(&c, 0);
    wb_check_f32_tol(&c, 0, ref, bound, got, 3);
    cr_assert_eq(c.wrong, 2u);
    cr_assert_eq(c.worst_at, 1u);
    cr_assert_gt(c.worst_err, 1.0);
}

Test(json, escapes_and_nulls)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    wb_json_string(f, "a\"b\\c\n");
    fputc(' ', f);
    wb_json_number(f, NAN);
    fclose(f);
    cr_assert_str_eq(buf, "\"a\\\"b\\\\c\\u000a\" null");
    free(buf);
}

Test(json, result_line_parses)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    wb_size size = {3, {4, 5, 6}};
    wb_table t = {"GB/s", "loads", 1};
    wb_result r = {"naive", "4x5x6", WB_FAIL, 0, 1.5, -1, 10.0, 50.0, -1, "2.00", WB_NOT_CHECKED, WB_NOT_CHECKED, -1, 0, 0, "", "", 0, ""};
    wb_json_result(f, "9-test", "GPU \"X\"", &size, 42, 20, &t, &r);
    fclose(f);
    json_error_t e;
    json_t *o = json_loads(buf, 0, &e);
    cr_assert_not_null(o, "%s: %s", e.text, buf);
    cr_assert_str_eq(json_string_value(json_object_get(o, "verdict")), "FAIL");
    cr_assert_str_eq(json_string_value(json_object_get(o, "gpu")), "GPU \"X\"");
    cr_assert(json_is_null(json_object_get(o, "prep_ms")));
    cr_assert_float_eq(json_real_value(json_object_get(o, "median_ms")), 1.5, 1e-9);
    cr_assert_eq(json_array_size(json_object_get(o, "dims")), 3u);
    json_decref(o);
    free(buf);
}

/* The GPU tests' JSON runner, checked here with a stand-in program that writes one JSON line to the
 * file named after --json. */
Test(wbtest, run_json_collects_the_lines_and_the_status)
{
    static char out[WBT_OUT_MAX];
    int rc;
    json_t *lines = wbt_run_json(out, &rc, "sh -c 'echo \"{\\\"variant\\\":\\\"v\\\",\\\"verdict\\\":\\\"TODO\\\"}\" > \"$2\"; exit 1' sh");
    cr_assert_eq(rc, 1, "%s", out);
    cr_assert_eq(json_array_size(lines), 1u);
    cr_assert_str_eq(wbt_verdict_of(lines, "v"), "TODO");
    json_decref(lines);
    lines = wbt_run_json(out, &rc, "true");
    cr_assert_eq(rc, 0);
    cr_assert_eq(json_array_size(lines), 0u, "no file written: no lines");
    json_decref(lines);
}

/* --variant: any length works, and a list that would be cut, has an empty name or repeats one is an error. */
Test(cli, variant_lists_are_never_cut_or_guessed)
{
    wb_options o;
    char err[256];
    char longlist[4096] = "";
    for (int k = 0; k < 300; k++) strcat(longlist, k % 3 == 0 ? "naive," : k % 3 == 1 ? "shared," : "fast-one,");
    longlist[strlen(longlist) - 1] = 0;
    cr_assert_eq(parse(&cli1, &o, err, "--variant", longlist, NULL), WB_EXIT_USAGE, "repeats are refused");
    cr_assert(strstr(err, "twice"), "%s", err);
    char many[600] = "naive,shared,";
    for (int k = 0; k < 60; k++) strcat(many, "xxxxxxxx");
    strcat(many, ",fast-one");
    cr_assert_eq(parse(&cli1, &o, err, "--variant", many, NULL), WB_EXIT_USAGE, "a name past 255 characters is read");
    cr_assert(strstr(err, "unknown variant 'xxxx"), "%s", err);
    cr_assert_eq(parse(&cli1, &o, err, "--variant", "naive,", NULL), WB_EXIT_USAGE);
    cr_assert(strstr(err, "empty name"), "%s", err);
    cr_assert_eq(parse(&cli1, &o, err, "--variant", "naive,,shared", NULL), WB_EXIT_USAGE);
    cr_assert_eq(parse(&cli1, &o, err, "--variant", "all,naive", NULL), WB_EXIT_USAGE, "all already names naive");
    cr_assert_eq(parse(&cli1, &o, err, "--variant", "fast-one,naive", NULL), 0, "%s", err);
    cr_assert_eq(o.variant_mask, 5u);
    cr_assert_eq(o.default_sizes, 1, "no --size: the defaults");
    cr_assert_eq(parse(&cli1, &o, err, "--size", "5", NULL), 0, "%s", err);
    cr_assert_eq(o.default_sizes, 0);
}

/* Mismatches are counted without formatting each: an untouched starter at 2^28 elements must check in
 * about the time of a comparison, yet report the first few in full. */
Test(check, counts_every_mismatch_but_formats_only_the_first_few, .timeout = 20)
{
    size_t n = (size_t)1 << 26;
    int32_t *want = malloc(4 * n), *got = malloc(4 * n);
    cr_assert(want && got);
    for (size_t i = 0; i < n; i++) want[i] = (int32_t)i;
    memset(got, WB_POISON_BYTE, 4 * n);
    got[3] = 3;
    wb_check c;
    wb_check_init(&c, 0);
    double t = (double)clock() / CLOCKS_PER_SEC;
    wb_check_i32(&c, 0, want, got, n);
    t = (double)clock() / CLOCKS_PER_SEC - t;
    cr_assert_eq(c.checked, n);
    cr_assert_eq(c.wrong, n - 1);
    cr_assert_eq(c.unwritten, n - 1);
    cr_assert_eq(c.n_reports, WB_CHECK_REPORT);
    cr_assert(strstr(c.reports[0], "[0]: expected 0, got -1515870811 (never written)"), "%s", c.reports[0]);
    cr_assert(strstr(c.reports[3], "[4]: expected 4"), "index 3 was right, so the fourth report is [4]: %s", c.reports[3]);
    cr_assert_lt(t, 5.0, "checking 2^26 elements took %.1f s of CPU", t);
    free(want);
    free(got);
}

/* ---------------------------------------------------------------- read-only inputs (wb_inputs.h) */
/* The checksum sees every byte, where it is, and the length: a changed input is never taken for clean. */
Test(inputs, checksum_sees_every_byte_its_place_and_the_length)
{
    enum { N = 4099 }; /* not a multiple of 8: the tail counts too */
    unsigned char a[N], b[N];
    for (int i = 0; i < N; i++) a[i] = (unsigned char)wb_hash64((uint64_t)i);
    uint64_t sum = wb_checksum64(a, N);
    cr_assert_eq(wb_checksum64(a, N), sum, "deterministic");
    for (int i = 0; i < N; i += 97) { /* one flipped bit anywhere, the last bytes included */
        memcpy(b, a, N);
        b[i] ^= 1;
        cr_assert_neq(wb_checksum64(b, N), sum, "byte %d changed", i);
    }
    memcpy(b, a, N);
    b[N - 1] ^= 0x80;
    cr_assert_neq(wb_checksum64(b, N), sum, "the tail's last byte");
    memcpy(b, a, N); /* two 8-byte words swapped: same words, other places */
    memcpy(b, a + 8, 8);
    memcpy(b + 8, a, 8);
    cr_assert_neq(wb_checksum64(b, N), sum, "swapped words");
    cr_assert_neq(wb_checksum64(a, N - 1), sum, "a shorter input");
    static unsigned char z1[64], z2[72];
    cr_assert_neq(wb_checksum64(z1, 64), wb_checksum64(z2, 72), "zeros of two lengths");
    int32_t *big = malloc(sizeof(int32_t) << 21); /* above the OpenMP threshold: the same sum in parallel */
    wb_fill_i32(big, (size_t)1 << 21, 42, 0, 0, 1000);
    uint64_t s1 = wb_checksum64(big, sizeof(int32_t) << 21);
    big[(1 << 21) - 1] = -1;
    cr_assert_neq(wb_checksum64(big, sizeof(int32_t) << 21), s1);
    free(big);
}

Test(inputs, first_difference_is_the_first_changed_byte)
{
    enum { N = 3 * 4096 + 5 };
    static unsigned char a[N], b[N];
    for (int i = 0; i < N; i++) a[i] = b[i] = (unsigned char)(i * 7);
    cr_assert_eq(wb_first_diff(a, b, N), -1, "equal");
    cr_assert_eq(wb_first_diff(a, b, 0), -1, "empty");
    const long long at[] = {0, 1, 4095, 4096, 8191, N - 1};
    for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
        memcpy(b, a, N);
        b[at[k]] ^= 0xFF;
        if (at[k] + 1 < N) b[N - 1] ^= 1; /* a later change does not hide the first */
        cr_assert_eq(wb_first_diff(a, b, N), at[k], "changed at %lld", at[k]);
    }
    int32_t x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {1, 2, 3, 4, 0, 0};
    cr_assert_eq(wb_first_diff(x, y, sizeof x) / (long long)sizeof(int32_t), 4, "element 4 of int32s");
}

Test(inputs, decide_restores_from_the_host_only_while_it_is_unchanged)
{
    cr_assert_eq(wb_input_decide(5, 5, 5), WB_INPUT_CLEAN);
    cr_assert_eq(wb_input_decide(5, 5, 9), WB_INPUT_CLEAN, "the host array changed, the device input did not");
    cr_assert_eq(wb_input_decide(5, 7, 5), WB_INPUT_RESTORE);
    cr_assert_eq(wb_input_decide(5, 7, 9), WB_INPUT_SET_UP_AGAIN, "no trustworthy copy left to restore from");
    cr_assert_eq(wb_input_decide(5, 7, 7), WB_INPUT_SET_UP_AGAIN, "the host changed the same way as the device");
    char l[32];
    wb_input_label(l, sizeof l, NULL, 1);
    cr_assert_str_eq(l, "input 1");
    wb_input_label(l, sizeof l, "", 0);
    cr_assert_str_eq(l, "input 0");
    wb_input_label(l, sizeof l, "matrix A", 0);
    cr_assert_str_eq(l, "matrix A");
}

/* The JSON line carries the write (and only then), and common/jsonl.c reads it back. */
Test(inputs, json_line_says_which_input_and_where)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    wb_size size = {1, {1000}};
    wb_table t = {"GB/s", NULL, 0};
    wb_result r = {"naive", "1000", WB_PASS, 0, 1.5, -1, 10.0, 50.0, -1, "", WB_NOT_CHECKED, WB_NOT_CHECKED, -1, 0, 0, "", "", 0, ""};
    wb_json_result(f, "9-test", "GPU", &size, 42, 20, &t, &r); /* a zeroed result: clean */
    r.verdict = WB_FAIL, r.wrote_input = 1, r.input_element = 7;
    strcpy(r.input_name, "input 0");
    wb_json_result(f, "9-test", "GPU", &size, 42, 20, &t, &r);
    fclose(f);
    char err[200];
    json_t *lines = wb_jsonl_parse(buf, len, err, sizeof err);
    cr_assert_not_null(lines, "%s", err);
    wb_row row;
    cr_assert_null(json_object_get(json_array_get(lines, 0), WB_JSON_INPUT_WRITTEN), "%s", buf);
    cr_assert_eq(wb_row_get(json_array_get(lines, 0), &row, err, sizeof err), 0, "%s", err);
    cr_assert_eq(row.input_written, -1);
    cr_assert_eq(wb_row_get(json_array_get(lines, 1), &row, err, sizeof err), 0, "%s", err);
    cr_assert_eq(row.input_written, 7, "%s", buf);
    cr_assert_str_eq(row.input_written_name, "input 0");
    cr_assert_eq(row.verdict, WB_FAIL);
    json_decref(lines);
    free(buf);
    const char *bad[] = {"{\"variant\":\"v\",\"size\":\"1\",\"verdict\":\"FAIL\",\"input_written\":-2}",
                         "{\"variant\":\"v\",\"size\":\"1\",\"verdict\":\"FAIL\",\"input_written\":\"7\"}",
                         "{\"variant\":\"v\",\"size\":\"1\",\"verdict\":\"FAIL\",\"input_written\":1.5}"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        lines = wb_jsonl_parse(bad[k], strlen(bad[k]), err, sizeof err);
        cr_assert_eq(wb_row_get(json_array_get(lines, 0), &row, err, sizeof err), -1, "%s", bad[k]);
        cr_assert(strstr(err, WB_JSON_INPUT_WRITTEN), "%s", err);
        json_decref(lines);
    }
}

/* wbtest.h's temporary folders, for the release unpacked at any path (issue 28): TMPDIR is the unpacked
 * folder + "/build/tmp" and the tests' buffers are 64 to 1024 bytes. At a 39-character path TMPDIR is 49
 * characters, exactly what a 64-byte buffer holds with "/wbtest.XXXXXX": the old fallback missed that. */
Test(tmpdir, fits_wherever_the_release_is_unpacked)
{
    static const size_t paths[] = {20, 38, 39, 40, 41, 49, 50, 63, 64, 113, 200, 400};
    static const size_t lens[] = {64, 96, 128, 160, 200, 256, 320, 512, 600, 1024};
    for (size_t p = 0; p < sizeof paths / sizeof *paths; p++) {
        char cwd[512], tmp[600];
        memset(cwd, 'a', paths[p]);
        cwd[0] = '/';
        cwd[paths[p]] = 0;
        snprintf(tmp, sizeof tmp, "%s/build/tmp", cwd);
        for (size_t l = 0; l < sizeof lens / sizeof *lens; l++) {
            size_t n;
            const char *base = wbt_tmp_base(tmp, cwd, lens[l], &n);
            cr_assert_not_null(base, "unpacked at a %zu-character path, a %zu-byte buffer gets no folder", paths[p], lens[l]);
            cr_assert_leq(n + sizeof WBT_TMP_LEAF, lens[l], "path %zu, buffer %zu: %zu bytes", paths[p], lens[l], n);
            /* the absolute TMPDIR whenever it fits, else the relative build/tmp */
            int abs_fits = strlen(tmp) + sizeof WBT_TMP_LEAF <= lens[l];
            cr_assert_str_eq(base, abs_fits ? tmp : "build/tmp", "path %zu, buffer %zu", paths[p], lens[l]);
        }
    }
    size_t n;
    /* outside the current folder and too long: no folder (wbt_tmpdir then fails with the reason) */
    cr_assert_null(wbt_tmp_base("/elsewhere/a-rather-long-temporary-folder-name-here", "/x", 64, &n));
    cr_assert_not_null(wbt_tmp_base(NULL, NULL, 64, &n), "no TMPDIR: /tmp");
}

/* A size too large for 64 bits is a number too large, not a malformed one; output paths are checked by
 * wb_check_output_paths before any GPU work (issue 28). */
Test(cli, too_large_sizes_and_bad_output_paths)
{
    wb_options o;
    char err[256];
    cr_assert_eq(parse(&cli1, &o, err, "--size", "99999999999999999999", NULL), WB_EXIT_USAGE);
    cr_assert(strstr(err, "too large") && strstr(err, "between 1 and"), "%s", err);
    cr_assert_eq(parse(&cli1, &o, err, "--size", "2^99", NULL), WB_EXIT_USAGE);
    cr_assert(strstr(err, "too large"), "%s", err);
    cr_assert_eq(parse(&cli3, &o, err, "--size", "4x99999999999999999999x4", NULL), WB_EXIT_USAGE);
    cr_assert(strstr(err, "too large"), "%s", err);
    cr_assert_eq(parse(&cli1, &o, err, "--size", "12ab", NULL), WB_EXIT_USAGE);
    cr_assert(strstr(err, "is not a positive integer"), "%s", err);
    cr_assert_eq(parse(&cli1, &o, err, "--size", "0", NULL), WB_EXIT_USAGE);
    cr_assert(strstr(err, "too small"), "%s", err);

    static const struct { const char *json, *dump, *says; } bad[] = {
        {"/nonexistent/r.json", NULL, "does not exist"}, {"/etc/passwd/r.json", NULL, "is not a folder"},
        {"/", NULL, "names a folder"},                   {"/tmp/", NULL, "names a folder"},
        {NULL, "/nonexistent", "not a directory"},       {NULL, "/etc/passwd", "not a directory"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_assert_eq(parse(&cli1, &o, err, NULL, NULL, NULL), 0);
        o.json_path = bad[i].json;
        o.dump_dir = bad[i].dump;
        cr_expect_eq(wb_check_output_paths(&o, err, sizeof err), -1, "%s %s passed", bad[i].json, bad[i].dump);
        cr_expect(strstr(err, bad[i].says), "%s: %s", bad[i].says, err);
    }
    o.json_path = "-";
    o.dump_dir = NULL;
    cr_expect_eq(wb_check_output_paths(&o, err, sizeof err), 0, "stdout: %s", err);
    o.json_path = "r.json";
    o.dump_dir = ".";
    cr_expect_eq(wb_check_output_paths(&o, err, sizeof err), 0, "the current folder: %s", err);
}
