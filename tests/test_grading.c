/* The grader's parts that need no GPU: the rubric (the real one and bad ones), scoring bands, and the
 * comparison of result files and its feedback patterns. The report writers and compute-sanitizer's output:
 * tests/test_grading_report.c. */
#define _GNU_SOURCE 1
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "wbrubric.h"

#include "validate.h"

#include <sys/stat.h>
#include <sys/time.h>

#include "compare.h"
#include "report.h"

/* ---------------------------------------------------------------- rubric */
Test(grading_rubric, the_real_rubric_is_valid_and_matches_the_programs, .timeout = 60)
{
    static gr_rubric r;
    wbr_load_real(&r);
    cr_assert_geq(r.n_ch, 1);
    int checked = 0;
    for (int c = 0; c < r.n_ch; c++) {
        const gr_chapter_rubric *ch = &r.ch[c];
        char path[512];
        snprintf(path, sizeof path, "chapters/%s/%s", ch->dir, ch->file);
        if (access(path, R_OK) != 0) continue; /* a chapter not written yet is skipped by the grader too */
        snprintf(path, sizeof path, "build/chapter%d", ch->number);
        if (access(path, X_OK) != 0) { /* a subset build (make test CHAPTERS=…) */
            cr_log_warn("%s is not built: its rubric entry is not checked against it", path);
            continue;
        }
        checked++;
        static char out[WBT_OUT_MAX];
        cr_assert_eq(wbt_run(out, "./build/chapter%d --list --json -", ch->number), 0, "%s", out);
        char why[300];
        json_t *lines = wb_jsonl_parse(out, strlen(out), why, sizeof why), *o;
        cr_assert_not_null(lines, "chapter %d --list --json: %s", ch->number, why);
        const char *listed[GR_MAX_VAR];
        size_t n;
        json_array_foreach(lines, n, o)
        {
            cr_assert_lt(n, GR_MAX_VAR, "chapter %d lists more than %d variants", ch->number, GR_MAX_VAR);
            listed[n] = json_string_value(json_object_get(o, "variant"));
            cr_assert_not_null(listed[n], "chapter %d --list --json: no \"variant\" in line %zu", ch->number, n + 1);
        }
        cr_expect_eq(gr_variants_match(ch, listed, (int)json_array_size(lines), why, sizeof why), 0, "%s", why);
        json_decref(lines);
        for (int e = 0; e < ch->n_edge; e++) cr_expect(ch->edge[e].n_dims > 0 && ch->edge[e].canon[0]);
    }
    cr_assert_geq(checked, 1, "no chapter program was built to check the rubric against");
}

struct bad_rubric {
    const char *rubric, *facts, *why; /* facts NULL: WBR_FACTS */
};

#define FACTS(dump, edge, more) "{\"dump\": \"" dump "\", \"edge_sizes\": [" edge "], \"sanitizer_size\": \"31\", " \
                                "\"perf_size\": \"2^20\", \"variants\": [{\"name\": \"v\"}]" more "}"
#define ENTRY(vars) "{\"chapters\": [{\"number\": 1, \"variants\": [" vars "]}]}"

ParameterizedTestParameters(grading_rubric, bad_inputs_are_refused_with_the_place)
{
    static struct bad_rubric cases[] = {
        {"{", NULL, "line 1"},
        {"[]", NULL, "must be a JSON object"},
        {"{\"chapterz\": []}", NULL, "unknown key 'chapterz'"},
        {"{}", FACTS("int32", "\"1\"", ", \"tile\": \"16\""), "chapters/01-d/chapter.json.tile: must be a number"},
        {ENTRY("{\"name\": \"v\"}"), NULL, "missing 'correct'"},
        {"{}", "{\"dump\": \"int32\", \"edge_sizes\": [\"1\"], \"sanitizer_size\": \"1\", \"perf_size\": \"1\", "
               "\"variants\": [{\"name\": \"g\", \"tiles\": 0}]}",
         "variants[0].tiles: must be true or false"},
        {ENTRY("{\"name\": \"v\", \"correct\": -1}"), NULL, "outside [0, 1000]"},
        {"{}", "{\"dump\": \"int32\", \"edge_sizes\": [\"1\"], \"sanitizer_size\": \"1\", \"perf_size\": \"1\", "
               "\"variants\": [{\"name\": \"g\"}, {\"name\": \"g\"}]}",
         "appears twice"},
        {"{}", FACTS("int32", "\"1\"", ", \"compare\": \"tolerance\""), "a tolerance needs dump float32"},
        {"{}", FACTS("int32", "\"1\"", ", \"compare\": \"fuzzy\""), "not exact or tolerance"},
        {"{}", FACTS("int16", "\"1\"", ""), "not int32, int64 or float32"},
        {"{}", FACTS("int32", "\"0\"", ""), "edge_sizes[0]"},
        {"{}", FACTS("int32", "\"1\", \"2x3x4\"", ""), "mixes 1-D and MxNxK"},
        {"{}", "{\"dump\": \"int32\", \"edge_sizes\": [\"1\"], \"sanitizer_size\": \"1\", \"perf_size\": \"2^x\", "
               "\"variants\": [{\"name\": \"v\"}]}",
         "chapters/01-d/chapter.json.perf_size: not a size"},
        {"{}", "{\"dump\": \"int32\", \"edge_sizes\": [\"1\"], \"sanitizer_size\": \"3x3x3\", \"perf_size\": \"1\", "
               "\"variants\": [{\"name\": \"v\"}]}",
         "perf_size and sanitizer_size must have the edge sizes' form"},
        {"{\"perf\": {\"bands\": [{\"within\": 2, \"fraction\": 0.5}, {\"within\": 1.5, \"fraction\": 0.2}]}}", NULL,
         "bands must grow"},
        {"{\"perf\": {\"bands\": [{\"within\": 1.2, \"fraction\": 0.5}, {\"within\": 2, \"fraction\": 0.8}]}}", NULL,
         "cannot earn more"},
        {"{\"perf\": {\"reps\": [50, 5]}}", NULL, "perf.reps"},
        {"{\"perf\": {\"rounds\": 2, \"low_rounds\": 3}}", NULL, "low_rounds"},
        {"{\"perf\": {\"low_rounds\": 0}}", NULL, "low_rounds"},
        {"{\"perf\": {\"reference_reuse_s\": -1}}", NULL, "reference_reuse_s"},
        {"{\"perf\": {\"reference_reuse_s\": \"60\"}}", NULL, "reference_reuse_s"},
        {"{\"limits\": {\"nproc\": 8}}", NULL, "limits.nproc"},
        {"{\"sanitizer_tools\": [\"leakcheck\"]}", NULL, "sanitizer_tools[0]"},
        {"{\"seeds\": 1, \"seeds\": 2}", NULL, "duplicate"},
        {ENTRY("{\"name\": \"v\", \"correct\": 1, \"bonus\": 1}"), NULL, "variants[0]: unknown key 'bonus'"},
        {"{\"perf\": {\"bands\": [3]}}", NULL, "perf.bands[0]: must be an object"},
    };
    return cr_make_param_array(struct bad_rubric, cases, sizeof cases / sizeof cases[0]);
}
ParameterizedTest(struct bad_rubric *b, grading_rubric, bad_inputs_are_refused_with_the_place)
{
    static gr_rubric r;
    char err[600] = "";
    cr_assert_eq(wbr_load(b->facts, b->rubric, &r, err, sizeof err), -1, "accepted: %s with %s", b->rubric,
                 b->facts ? b->facts : WBR_FACTS);
    cr_assert(strstr(err, b->why), "error '%s' should mention '%s'", err, b->why);
}

Test(grading_rubric, a_minimal_rubric_gets_defaults)
{
    static gr_rubric r;
    char err[600];
    cr_assert_eq(wbr_load(NULL, "{}", &r, err, sizeof err), 0, "%s", err);
    cr_assert_eq(r.n_ch, 1);
    cr_assert_eq(r.seeds, 2);
    cr_assert_eq(r.low_rounds, r.rounds, "every round runs the low count unless the rubric says fewer");
    cr_assert_eq(r.n_tools, 3);
    cr_assert_eq(r.ch[0].n_tools, 3);
    cr_assert_eq(r.ch[0].cols_dim, -1);
    cr_assert_eq(r.nproc >= 64, 1);
    cr_assert_str_eq(r.ch[0].perf_size.text, "1000");
    cr_assert_str_eq(r.ch[0].edge[0].canon, "1");
}

/* A size is parsed once, by the programs' own parser: its text as written, its extents, its canonical
 * spelling (what dump file names and JSON lines use); what a program would refuse is refused. */
Test(grading_rubric, a_size_is_parsed_once_into_its_parts)
{
    gr_size z;
    cr_assert_eq(gr_size_parse("2^26", &z), 0);
    cr_expect(z.n_dims == 1 && z.d[0] == 67108864, "%d %lld", z.n_dims, z.d[0]);
    cr_expect_str_eq(z.text, "2^26");
    cr_expect_str_eq(z.canon, "67108864");
    cr_assert_eq(gr_size_parse("17x2^5x5", &z), 0);
    cr_expect(z.n_dims == 3 && z.d[0] == 17 && z.d[1] == 32 && z.d[2] == 5);
    cr_expect_str_eq(z.canon, "17x32x5");
    const char *bad[] = {"", "0", "-1", "abc", "2^", "1x2", "1x2x0", "0000000000000000000000000000000000000000000000001"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_expect_eq(gr_size_parse(bad[i], &z), -1, "'%s' accepted", bad[i]);
}

/* Where the program's list is read: a variant chapter.json names that the program lacks is the one line
 * naming the chapter and the variant; one only the program has is no error. */
Test(grading_rubric, the_programs_list_is_checked_against_the_chapters_variants)
{
    static gr_rubric r;
    char err[600], why[300] = "";
    const char *facts = "{\"dump\": \"int32\", \"edge_sizes\": [\"1\"], \"sanitizer_size\": \"1\", "
                        "\"perf_size\": \"1\", \"variants\": [{\"name\": \"a\"}, {\"name\": \"b\"}]}";
    cr_assert_eq(wbr_load(facts, "{}", &r, err, sizeof err), 0, "%s", err);
    const char *both[] = {"b", "a"}, *more[] = {"a", "x", "b"}, *less[] = {"a", "x"};
    cr_expect_eq(gr_variants_check(&r.ch[0], both, 2, why, sizeof why), 0, "%s", why);
    cr_expect_eq(gr_variants_check(&r.ch[0], more, 3, why, sizeof why), 0, "%s", why);
    cr_assert_eq(gr_variants_check(&r.ch[0], less, 2, why, sizeof why), -1);
    cr_expect_str_eq(why, "chapter 1: chapters/01-d/chapter.json names variant 'b', which the program does not list");
    /* grade --validate asks for both ways: a variant only the program has would go ungraded */
    cr_expect_eq(gr_variants_match(&r.ch[0], both, 2, why, sizeof why), 0, "%s", why);
    cr_assert_eq(gr_variants_match(&r.ch[0], more, 3, why, sizeof why), -1);
    cr_expect_str_eq(why, "chapter 1: the program lists variant 'x', which chapters/01-d/chapter.json does not name "
                          "(add it to \"variants\")");
    cr_assert_eq(gr_variants_match(&r.ch[0], less, 2, why, sizeof why), -1);
}

/* grade --validate holds each built chapter program's --list against its chapter.json, both ways (issue 60: a
 * misspelt "vectr" was accepted and nothing said): a workbook of one chapter whose program is a stub listing
 * "global" and "vector". A program older than its chapter.json is named, not checked (make rebuilds it). */
static void vt_facts(const char *root, const char *second, gr_rubric *r, time_t program_at)
{
    char facts[400], err[600], p[600];
    snprintf(facts, sizeof facts, "{\"dump\": \"int32\", \"edge_sizes\": [\"1\"], \"sanitizer_size\": \"1\", "
             "\"perf_size\": \"1\", \"variants\": [{\"name\": \"global\"}, {\"name\": \"%s\"}]}", second);
    wbr_write(root, "chapters/01-d/chapter.json", facts);
    cr_assert_eq(wbr_load_at(root, "{}", r, err, sizeof err), 0, "%s", err);
    snprintf(p, sizeof p, "%s/build/solution1", root);
    struct timeval at[2] = {{program_at, 0}, {program_at, 0}};
    cr_assert_eq(utimes(p, at), 0, "%s", p);
}

Test(grading_rubric, validate_holds_each_built_program_against_its_facts, .timeout = 30)
{
    static gr_rubric r;
    char root[256], why[600] = "", line[400];
    wbt_tmpdir(root, sizeof root);
    wbr_write(root, "chapters/01-d/d.cu", "int x;\n");
    wbr_write(root, "solutions/01-d/d.cu", "int x;\n");
    wbr_write(root, "build/solution1", "#!/bin/sh\necho '{\"variant\": \"global\"}'\necho '{\"variant\": \"vector\"}'\n");
    char p[600];
    snprintf(p, sizeof p, "%s/build/solution1", root);
    cr_assert_eq(chmod(p, 0755), 0);
    gr_validate_summary sum;
    vt_facts(root, "vectr", &r, time(NULL) + 60);
    cr_assert_eq(gr_validate_programs(&r, root, &sum, why, sizeof why), -1);
    cr_expect_str_eq(why, "chapter 1: chapters/01-d/chapter.json names variant 'vectr', which the program does not list");
    vt_facts(root, "vector", &r, time(NULL) + 60);
    cr_assert_eq(gr_validate_programs(&r, root, &sum, why, sizeof why), 0, "%s", why);
    gr_validate_say(&sum, line, sizeof line);
    cr_expect_str_eq(line, "ok: 1 chapters, each one's variants as its program lists them");
    vt_facts(root, "vector", &r, time(NULL) - 60); /* built before its facts changed */
    cr_assert_eq(gr_validate_programs(&r, root, &sum, why, sizeof why), 0, "%s", why);
    gr_validate_say(&sum, line, sizeof line);
    cr_expect_str_eq(line, "ok: 1 chapters; variants checked against 0 built programs (not built or older than their "
                           "source, so not checked: solution1)");
}

/* ---------------------------------------------------------------- bands */
Test(grading_bands, step_function_of_the_time_ratio)
{
    static gr_rubric r;
    wbr_load_real(&r);
    cr_assert_float_eq(gr_band_fraction(&r, 0.5), 1.0, 1e-12, "faster than the reference: full points");
    cr_assert_float_eq(gr_band_fraction(&r, 1.2), 1.0, 1e-12, "the bound is inclusive");
    cr_assert_float_eq(gr_band_fraction(&r, 1.2001), r.band[1].fraction, 1e-12);
    cr_assert_float_eq(gr_band_fraction(&r, 9.99), r.band[r.n_bands - 1].fraction, 1e-12);
    cr_assert_float_eq(gr_band_fraction(&r, 10.01), 0.0, 1e-12, "beyond the last band: nothing");
    cr_assert_float_eq(gr_band_fraction(&r, 0.0), 0.0, 1e-12, "a zero time is not credible");
    cr_assert_float_eq(gr_band_fraction(&r, NAN), 0.0, 1e-12);
    cr_assert_float_eq(gr_band_fraction(&r, INFINITY), 0.0, 1e-12);
    for (double x = 1.0; x < 12; x += 0.01) /* never rewards being slower */
        cr_assert_geq(gr_band_fraction(&r, x), gr_band_fraction(&r, x + 0.01));
}

/* ---------------------------------------------------------------- comparison and patterns */
static gr_chapter_rubric chapter(gr_elem e, int tile, int cols_dim)
{
    gr_chapter_rubric ch;
    memset(&ch, 0, sizeof ch);
    ch.elem = e;
    ch.tile = tile;
    ch.cols_dim = cols_dim;
    return ch;
}

static int32_t *ramp(size_t n)
{
    int32_t *a = malloc(n * 4);
    for (size_t i = 0; i < n; i++) a[i] = (int32_t)(i * 7 + 3);
    return a;
}

static void compare_i32(const gr_chapter_rubric *ch, long long n, const int32_t *ref, const int32_t *got, gr_cmp *c)
{
    long long dims[3] = {n, 0, 0};
    gr_compare(ch, dims, 1, ref, n * 4, got, n * 4, c);
}

Test(grading_compare, identical_is_correct)
{
    gr_chapter_rubric ch = chapter(GR_I32, 256, -1);
    int32_t *a = ramp(1000);
    gr_cmp c;
    compare_i32(&ch, 1000, a, a, &c);
    cr_assert_eq(c.pattern, GR_PAT_NONE);
    cr_assert_eq(c.wrong, 0u);
    free(a);
}

Test(grading_compare, all_poison_is_unwritten)
{
    gr_chapter_rubric ch = chapter(GR_I32, 256, -1);
    int32_t *a = ramp(1000), *b = malloc(4000);
    memset(b, 0xA5, 4000);
    gr_cmp c;
    compare_i32(&ch, 1000, a, b, &c);
    cr_assert_eq(c.pattern, GR_PAT_UNWRITTEN);
    cr_assert_eq(c.wrong, 1000u);
    cr_assert_eq(c.first, 0);
    cr_assert_str_eq(c.expected, "3");
    cr_assert_str_eq(c.got, "-1515870811");
    free(a);
    free(b);
}

Test(grading_compare, wrong_only_in_the_last_partial_tile)
{
    gr_chapter_rubric ch = chapter(GR_I32, 256, -1);
    int32_t *a = ramp(1000), *b = ramp(1000);
    b[900] = 0;
    b[999] = 5;
    gr_cmp c;
    compare_i32(&ch, 1000, a, b, &c);
    cr_assert_eq(c.pattern, GR_PAT_TAIL);
    cr_assert_eq(c.first, 900);
    cr_assert_eq(c.wrong, 2u);
    free(a);
    free(b);
}

Test(grading_compare, wrong_only_at_tile_boundaries)
{
    gr_chapter_rubric ch = chapter(GR_I32, 256, -1);
    int32_t *a = ramp(1024), *b = ramp(1024);
    b[255] = 1;
    b[256] = 2;
    b[512] = 3;
    gr_cmp c;
    compare_i32(&ch, 1024, a, b, &c);
    cr_assert_eq(c.pattern, GR_PAT_BOUNDARY);
    free(a);
    free(b);
}

Test(grading_compare, a_shifted_result_is_recognised_even_with_a_hole)
{
    gr_chapter_rubric ch = chapter(GR_I32, 256, -1);
    int32_t *a = ramp(1000), *b = malloc(4000);
    b[0] = (int32_t)0xA5A5A5A5; /* the element the off-by-one never writes */
    for (int i = 1; i < 1000; i++) b[i] = a[i - 1];
    gr_cmp c;
    compare_i32(&ch, 1000, a, b, &c);
    cr_assert_eq(c.pattern, GR_PAT_SHIFT, "pattern %d", c.pattern);
    cr_assert_eq(c.shift, -1);
    cr_assert_eq(c.poison, 1u);
    char pat[300], hint[300];
    gr_pattern_text(ch.tile, &c, pat, sizeof pat, hint, sizeof hint);
    cr_assert(strstr(pat, "shifted by -1"), "%s", pat);
    cr_assert(strstr(hint, "off-by-one"), "%s", hint);
    free(a);
    free(b);
}

Test(grading_compare, off_by_a_constant)
{
    gr_chapter_rubric ch = chapter(GR_I32, 256, -1);
    int32_t *a = ramp(1000), *b = ramp(1000);
    for (int i = 0; i < 1000; i += 3) b[i] += 1;
    gr_cmp c;
    compare_i32(&ch, 1000, a, b, &c);
    cr_assert_eq(c.pattern, GR_PAT_CONSTANT);
    cr_assert_float_eq(c.constant, 1.0, 0);
    free(a);
    free(b);
}

Test(grading_compare, some_never_written)
{
    gr_chapter_rubric ch = chapter(GR_I32, 256, -1);
    int32_t *a = ramp(1000), *b = ramp(1000);
    for (int i = 0; i < 100; i++) b[i * 3] = (int32_t)0xA5A5A5A5;
    gr_cmp c;
    compare_i32(&ch, 1000, a, b, &c);
    cr_assert_eq(c.pattern, GR_PAT_POISON);
    cr_assert_eq(c.poison, 100u);
    free(a);
    free(b);
}

Test(grading_compare, scattered_errors)
{
    gr_chapter_rubric ch = chapter(GR_I32, 256, -1);
    int32_t *a = ramp(1000), *b = ramp(1000);
    b[10] = 77;
    b[300] = -5;
    b[611] = 1234567;
    gr_cmp c;
    compare_i32(&ch, 1000, a, b, &c);
    cr_assert_eq(c.pattern, GR_PAT_SCATTERED);
    cr_assert_eq(c.wrong, 3u);
    free(a);
    free(b);
}

Test(grading_compare, wrong_length_or_missing_file)
{
    gr_chapter_rubric ch = chapter(GR_I32, 256, -1);
    int32_t *a = ramp(100);
    long long dims[3] = {100, 0, 0};
    gr_cmp c;
    gr_compare(&ch, dims, 1, a, 400, a, 396, &c);
    cr_assert_eq(c.pattern, GR_PAT_LENGTH);
    gr_compare(&ch, dims, 1, a, 400, NULL, -1, &c);
    cr_assert_eq(c.pattern, GR_PAT_LENGTH);
    free(a);
}

Test(grading_compare, int64_exact_and_its_poison)
{
    gr_chapter_rubric ch = chapter(GR_I64, 1, -1);
    int64_t ref = 4503599627370496ll, got = ref + 1, poison;
    memset(&poison, 0xA5, 8);
    long long dims[3] = {1, 0, 0};
    gr_cmp c;
    gr_compare(&ch, dims, 1, &ref, 8, &ref, 8, &c);
    cr_assert_eq(c.pattern, GR_PAT_NONE);
    gr_compare(&ch, dims, 1, &ref, 8, &got, 8, &c);
    cr_assert_eq(c.wrong, 1u, "2^52 + 1 differs from 2^52 in int64 (not in double)");
    gr_compare(&ch, dims, 1, &ref, 8, &poison, 8, &c);
    cr_assert_eq(c.pattern, GR_PAT_UNWRITTEN);
}

Test(grading_compare, float_exact_is_bitwise_with_inf_and_never_nan)
{
    gr_chapter_rubric ch = chapter(GR_F32, 64, 0);
    float ref[4] = {0.0f, INFINITY, 1.5f, 2.0f}, got[4] = {0.0f, INFINITY, 1.5f, 2.0f};
    long long dims[3] = {2, 0, 0};
    gr_cmp c;
    gr_compare(&ch, dims, 1, ref, 16, got, 16, &c);
    cr_assert_eq(c.pattern, GR_PAT_NONE, "+inf equals +inf");
    got[2] = nextafterf(1.5f, 2.0f);
    gr_compare(&ch, dims, 1, ref, 16, got, 16, &c);
    cr_assert_eq(c.wrong, 1u, "one ulp off is wrong in an exact chapter");
    cr_assert_str_eq(c.where, "[1][0]", "2x2 output, row length n");
    got[2] = NAN;
    gr_compare(&ch, dims, 1, ref, 16, got, 16, &c);
    cr_assert_eq(c.pattern, GR_PAT_NAN);
    float nanref[1] = {NAN};
    gr_compare(&ch, dims, 1, nanref, 4, nanref, 4, &c);
    cr_assert_eq(c.wrong, 1u, "NaN never matches, not even NaN");
}

Test(grading_compare, float_tolerance_scales_with_sqrt_k)
{
    gr_chapter_rubric ch = chapter(GR_F32, 16, 1);
    ch.tolerance = 1;
    ch.rtol = 1e-5;
    ch.atol = 1e-4;
    ch.sqrt_k = 1;
    float ref[2] = {10.0f, -3.0f}, got[2];
    long long dims[3] = {1, 2, 100}; /* M=1, N=2, K=100: bound (1e-4 + 1e-5|r|) * 10 */
    gr_cmp c;
    got[0] = 10.0f + 1.9e-3f;
    got[1] = -3.0f - 1.2e-3f;
    gr_compare(&ch, dims, 3, ref, 8, got, 8, &c);
    cr_assert_eq(c.wrong, 0u, "within the bound");
    got[1] = -3.0f - 2e-3f;
    gr_compare(&ch, dims, 3, ref, 8, got, 8, &c);
    cr_assert_eq(c.wrong, 1u, "beyond the bound");
    cr_assert_str_eq(c.where, "[0][1]");
    got[1] = INFINITY;
    gr_compare(&ch, dims, 3, ref, 8, got, 8, &c);
    cr_assert_eq(c.wrong, 1u, "inf is never within a tolerance of a finite value");
}
