/* grading/honesty.c and the --grading fields of common/jsonl.c: synthetic benchmark lines of a
 * reference and a student, every rule, its margin on both sides, and a student's forged CEILING. */
#include <criterion/criterion.h>
#include <math.h>

#include "wbrubric.h"

#include "honesty.h"
#include "perf.h"

static gr_rubric rub;

static void load_rubric(const char *perf)
{
    char text[1024], err[400];
    snprintf(text, sizeof text, "{%s%s%s " WBR_ENTRY "}", perf ? "\"perf\": " : "", perf ? perf : "", perf ? "," : "");
    cr_assert_eq(wbr_load(NULL, text, &rub, err, sizeof err), 0, "%s", err);
}

static json_t *lines(const char *text)
{
    char err[200];
    json_t *l = wb_jsonl_parse(text, strlen(text), err, sizeof err);
    cr_assert_not_null(l, "%s", err);
    return l;
}

/* The reference: 1000 bytes of work per run moved at 100 GB/s (0.01 ms); the copy ceiling 200 GB/s. */
#define REF_SOL "{\"variant\":\"memcpy\",\"size\":\"1000\",\"median_ms\":0.01,\"throughput\":100,\"verdict\":\"REFERENCE\"}\n"
#define REF_CEIL "{\"variant\":\"memcpy\",\"size\":\"1000\",\"median_ms\":0.005,\"throughput\":200,\"unit\":\"GB/s\",\"verdict\":\"CEILING\"}\n"
#define REF_V "{\"variant\":\"v\",\"size\":\"1000\",\"median_ms\":0.01,\"throughput\":100,\"unit\":\"GB/s\",\"verdict\":\"PASS\"," \
              "\"timed_check\":\"PASS\",\"rotated_check\":\"PASS\",\"cpu_ms\":0.004}\n"

/* Judges `variant` of a student whose run printed `stu` (the reference's run first, as perf.c does). */
static unsigned judge_variant(const char *ref, const char *stu, const char *variant, double stu_ms, char *note,
                              size_t len)
{
    gr_honesty h;
    gr_honesty_init(&h, "1000");
    json_t *r = lines(ref), *s = lines(stu);
    gr_honesty_add(&h, r, 1);
    gr_honesty_add(&h, s, 0);
    json_decref(r);
    json_decref(s);
    return gr_honesty_judge(&h, &rub, variant, stu_ms, note, len);
}

static unsigned judge(const char *ref, const char *stu, double stu_ms, char *note, size_t len)
{
    return judge_variant(ref, stu, "v", stu_ms, note, len);
}

static char *stu_line(const char *timed, const char *rotated, const char *cpu)
{
    static char buf[600];
    snprintf(buf, sizeof buf,
             "{\"variant\":\"v\",\"size\":\"1000\",\"median_ms\":0.01,\"throughput\":100,\"verdict\":\"PASS\"%s%s%s%s%s%s%s}\n",
             timed ? ",\"timed_check\":\"" : "", timed ? timed : "", timed ? "\"" : "", rotated ? ",\"rotated_check\":\"" : "",
             rotated ? rotated : "", rotated ? "\"" : "", cpu ? cpu : "");
    return buf;
}

Test(jsonl, grading_fields_are_read_and_absent_ones_say_so)
{
    json_t *l = lines(REF_V "{\"variant\":\"v\",\"size\":\"1\",\"verdict\":\"PASS\"}\n");
    wb_row row;
    char err[200];
    cr_assert_eq(wb_row_get(json_array_get(l, 0), &row, err, sizeof err), 0, "%s", err);
    cr_assert_eq(row.timed_check, WB_CHECKED_PASS);
    cr_assert_eq(row.rotated_check, WB_CHECKED_PASS);
    cr_assert_float_eq(row.cpu_ms, 0.004, 1e-12);
    cr_assert_eq(wb_row_get(json_array_get(l, 1), &row, err, sizeof err), 0, "%s", err);
    cr_assert_eq(row.timed_check, WB_NOT_CHECKED);
    cr_assert_eq(row.rotated_check, WB_NOT_CHECKED);
    cr_assert(isnan(row.cpu_ms));
    json_decref(l);
    l = lines("{\"variant\":\"v\",\"size\":\"1\",\"verdict\":\"PASS\",\"timed_check\":\"FAIL\",\"rotated_check\":\"FAIL\"}\n"
              "{\"variant\":\"v\",\"size\":\"1\",\"verdict\":\"PASS\",\"timed_check\":\"MAYBE\"}\n"
              "{\"variant\":\"v\",\"size\":\"1\",\"verdict\":\"PASS\",\"cpu_ms\":\"3\"}\n");
    cr_assert_eq(wb_row_get(json_array_get(l, 0), &row, err, sizeof err), 0, "%s", err);
    cr_assert_eq(row.timed_check, WB_CHECKED_FAIL);
    cr_assert_eq(row.rotated_check, WB_CHECKED_FAIL);
    cr_assert_eq(wb_row_get(json_array_get(l, 1), &row, err, sizeof err), -1);
    cr_assert(strstr(err, "timed_check"), "%s", err);
    cr_assert_eq(wb_row_get(json_array_get(l, 2), &row, err, sizeof err), -1);
    cr_assert(strstr(err, "cpu_ms"), "%s", err);
    json_decref(l);
}

Test(honesty, names_are_the_ones_grading_json_lists)
{
    const char *want[] = {"above-ceiling", "timed-check", "rotated-check", "host-compute", "screen-perf", "screen-correct"};
    for (int c = 0; c < GR_CAUGHT_N; c++) cr_assert_str_eq(gr_caught_name((gr_caught)c), want[c]);
    cr_assert(gr_caught_costs_correct(1u << GR_CAUGHT_TIMED_CHECK));
    cr_assert(gr_caught_costs_correct(1u << GR_CAUGHT_ROTATED_CHECK));
    cr_assert(gr_caught_costs_correct(1u << GR_CAUGHT_SCREEN_CORRECT));
    cr_assert_not(gr_caught_costs_correct(1u << GR_CAUGHT_ABOVE_CEILING | 1u << GR_CAUGHT_HOST_COMPUTE |
                                          1u << GR_CAUGHT_SCREEN_PERF));
}

Test(honesty, an_honest_student_is_not_caught)
{
    load_rubric(NULL);
    char note[600];
    cr_assert_eq(judge(REF_SOL REF_CEIL REF_V, REF_SOL REF_CEIL REF_V, 0.01, note, sizeof note), 0u, "%s", note);
    cr_assert_str_eq(note, "");
    /* at the ceiling itself (0.005 ms = 200 GB/s) and within the margin (220 GB/s) */
    cr_assert_eq(judge(REF_SOL REF_CEIL REF_V, REF_V, 0.005, note, sizeof note), 0u, "%s", note);
    cr_assert_eq(judge(REF_SOL REF_CEIL REF_V, REF_V, 1000.0 / 220 / 1e3 * 1.0001, note, sizeof note), 0u, "%s", note);
}

Test(honesty, faster_than_the_ceiling_is_caught_beyond_the_margin)
{
    load_rubric(NULL);
    char note[600];
    /* 0.004 ms is 250 GB/s, above 200 × 1.10 */
    unsigned m = judge(REF_SOL REF_CEIL REF_V, REF_V, 0.004, note, sizeof note);
    cr_assert_eq(m, 1u << GR_CAUGHT_ABOVE_CEILING, "%s", note);
    cr_assert(strstr(note, "Reported 250 GB/s; this GPU's own rate for this work (memcpy), measured in the same run, "
                           "is 200 GB/s: the timed runs cannot have done the work."),
              "%s", note);
    /* a far forged time: thousands are grouped */
    m = judge(REF_SOL REF_CEIL REF_V, REF_V, 0.0000025, note, sizeof note);
    cr_assert(strstr(note, "Reported 400,000 GB/s"), "%s", note);
    /* the margin is the rubric's: with 0.3, 250 GB/s is within 200 × 1.3 */
    load_rubric("{\"floor_margin\": 0.3}");
    cr_assert_eq(judge(REF_SOL REF_CEIL REF_V, REF_V, 0.004, note, sizeof note), 0u, "%s", note);
    cr_assert_eq(judge(REF_SOL REF_CEIL REF_V, REF_V, 0.0038, note, sizeof note), 1u << GR_CAUGHT_ABOVE_CEILING);
}

/* A reference that beats the ceiling measured beside it (a kernel copy faster than cudaMemcpy): what the
 * reference does is possible, so a student as fast is not caught, and one beyond it by the margin is. */
Test(honesty, the_references_own_rate_is_never_impossible)
{
    load_rubric(NULL);
    char note[600];
    const char *fast = "{\"variant\":\"v\",\"size\":\"1000\",\"median_ms\":0.004,\"throughput\":250,\"unit\":\"GB/s\","
                       "\"verdict\":\"PASS\",\"timed_check\":\"PASS\",\"rotated_check\":\"PASS\"}\n";
    char ref[1200];
    snprintf(ref, sizeof ref, "%s%s%s", REF_SOL, REF_CEIL, fast);
    cr_assert_eq(judge(ref, fast, 0.004, note, sizeof note), 0u, "%s", note);
    cr_assert_eq(judge(ref, fast, 0.0037, note, sizeof note), 0u, "270 GB/s is within 250 x 1.10: %s", note);
    cr_assert_eq(judge(ref, fast, 0.0035, note, sizeof note), 1u << GR_CAUGHT_ABOVE_CEILING);
    cr_assert(strstr(note, "the reference solution reaches 250 GB/s on this GPU"), "%s", note);
}

Test(honesty, a_students_own_ceiling_is_never_believed)
{
    load_rubric(NULL);
    char note[600];
    const char *forged = "{\"variant\":\"memcpy\",\"size\":\"1000\",\"throughput\":1e9,\"unit\":\"GB/s\",\"verdict\":\"CEILING\"}\n" REF_V;
    unsigned m = judge(REF_SOL REF_CEIL REF_V, forged, 0.004, note, sizeof note);
    cr_assert_eq(m, 1u << GR_CAUGHT_ABOVE_CEILING, "a forged high ceiling let a too-fast time through: %s", note);
    /* nor lowered: a student's low ceiling does not catch an honest time */
    const char *low = "{\"variant\":\"memcpy\",\"size\":\"1000\",\"throughput\":1,\"unit\":\"GB/s\",\"verdict\":\"CEILING\"}\n" REF_V;
    cr_assert_eq(judge(REF_SOL REF_CEIL REF_V, low, 0.01, note, sizeof note), 0u, "%s", note);
    /* no ceiling from the reference (a chapter without one): the rule cannot apply */
    cr_assert_eq(judge(REF_SOL REF_V, forged, 0.0001, note, sizeof note), 0u, "%s", note);
    /* made-up variant names from the student fill no table: the real variant is still judged */
    char crowd[8000] = "";
    for (int k = 0; k < 40; k++) {
        char l[160];
        snprintf(l, sizeof l, "{\"variant\":\"x%d\",\"size\":\"1000\",\"median_ms\":1,\"verdict\":\"PASS\"}\n", k);
        strcat(crowd, l);
    }
    strcat(crowd, stu_line("FAIL", "PASS", ""));
    cr_assert_eq(judge(REF_SOL REF_CEIL REF_V, crowd, 0.01, note, sizeof note), 1u << GR_CAUGHT_TIMED_CHECK, "%s", note);
    /* lines of another size do not count */
    cr_assert_eq(judge(REF_SOL REF_CEIL REF_V, "{\"variant\":\"v\",\"size\":\"7\",\"verdict\":\"PASS\",\"timed_check\":\"FAIL\"}\n",
                       0.01, note, sizeof note), 0u);
}

/* Two variants: each student line counts for its own variant's entry, found again by name (the writer's and
 * the judge's finder are one). */
Test(honesty, each_variant_is_judged_by_its_own_lines)
{
    load_rubric(NULL);
    char note[600];
    const char *ref_a = "{\"variant\":\"a\",\"size\":\"1000\",\"median_ms\":0.01,\"throughput\":100,\"unit\":\"GB/s\","
                        "\"verdict\":\"PASS\",\"timed_check\":\"PASS\",\"rotated_check\":\"PASS\"}\n";
    char ref[1200], stu[1200];
    snprintf(ref, sizeof ref, "%s%s%s%s", REF_SOL, REF_CEIL, ref_a, REF_V);
    snprintf(stu, sizeof stu, "%s%s", ref_a, stu_line("FAIL", "PASS", ""));
    cr_expect_eq(judge_variant(ref, stu, "a", 0.01, note, sizeof note), 0u, "a: %s", note);
    cr_expect_eq(judge_variant(ref, stu, "v", 0.01, note, sizeof note), 1u << GR_CAUGHT_TIMED_CHECK, "v: %s", note);
}

Test(honesty, a_wrong_timed_output_or_a_stale_rotated_one_is_caught)
{
    load_rubric(NULL);
    char note[600];
    unsigned m = judge(REF_SOL REF_CEIL REF_V, stu_line("FAIL", "PASS", ""), 0.01, note, sizeof note);
    cr_assert_eq(m, 1u << GR_CAUGHT_TIMED_CHECK, "%s", note);
    cr_assert(strstr(note, "The output of the timed runs was wrong although the first run was right: every timed launch "
                           "must compute the result."),
              "%s", note);
    m = judge(REF_SOL REF_CEIL REF_V, stu_line("PASS", "FAIL", ""), 0.01, note, sizeof note);
    cr_assert_eq(m, 1u << GR_CAUGHT_ROTATED_CHECK, "%s", note);
    cr_assert(strstr(note, "on a second set of inputs the variant returned a stale result") ||
                  strstr(note, "On a second set of inputs the variant returned a stale result"),
              "%s", note);
    /* one bad run among honest ones is enough */
    char two[1200];
    snprintf(two, sizeof two, "%s", REF_V);
    strcat(two, stu_line("FAIL", "FAIL", ""));
    m = judge(REF_SOL REF_CEIL REF_V, two, 0.01, note, sizeof note);
    cr_assert_eq(m, 1u << GR_CAUGHT_TIMED_CHECK | 1u << GR_CAUGHT_ROTATED_CHECK);
    cr_assert(gr_caught_costs_correct(m));
}

Test(honesty, a_line_without_the_checks_is_forged_when_the_reference_has_them)
{
    load_rubric(NULL);
    char note[600];
    unsigned m = judge(REF_SOL REF_CEIL REF_V, stu_line(NULL, NULL, ""), 0.01, note, sizeof note);
    cr_assert_eq(m, 1u << GR_CAUGHT_TIMED_CHECK | 1u << GR_CAUGHT_ROTATED_CHECK, "%s", note);
    /* a reference without --grading fields (an older build): nothing to hold the student to */
#define OLD "{\"variant\":\"v\",\"size\":\"1000\",\"median_ms\":0.01,\"throughput\":100,\"verdict\":\"PASS\"}\n"
    cr_assert_eq(judge(REF_SOL OLD, stu_line(NULL, NULL, ""), 0.01, note, sizeof note), 0u, "%s", note);
}

Test(honesty, cpu_time_beyond_the_factor_and_one_ms_is_host_work)
{
    load_rubric(NULL);
    char note[600];
    /* 265 ms of CPU against 1.2 ms on the GPU */
    unsigned m = judge(REF_SOL REF_V, stu_line("PASS", "PASS", ",\"cpu_ms\":265"), 1.2, note, sizeof note);
    cr_assert_eq(m, 1u << GR_CAUGHT_HOST_COMPUTE, "%s", note);
    cr_assert(strstr(note, "The process spent 265 ms of CPU per run against 1.2 ms on the GPU: the work is done on the host."),
              "%s", note);
    cr_assert_not(gr_caught_costs_correct(m));
    /* the factor: 2.3 ms against 1.2 ms is within 2x; 2.5 is not */
    cr_assert_eq(judge(REF_SOL REF_V, stu_line("PASS", "PASS", ",\"cpu_ms\":2.3"), 1.2, note, sizeof note), 0u, "%s", note);
    cr_assert_eq(judge(REF_SOL REF_V, stu_line("PASS", "PASS", ",\"cpu_ms\":2.5"), 1.2, note, sizeof note),
                 1u << GR_CAUGHT_HOST_COMPUTE);
    /* below 1 ms of CPU nothing is flagged, however short the kernel */
    cr_assert_eq(judge(REF_SOL REF_V, stu_line("PASS", "PASS", ",\"cpu_ms\":0.9"), 0.01, note, sizeof note), 0u, "%s", note);
    /* the factor is the rubric's */
    load_rubric("{\"cpu_factor\": 3}");
    cr_assert_eq(judge(REF_SOL REF_V, stu_line("PASS", "PASS", ",\"cpu_ms\":2.5"), 1.2, note, sizeof note), 0u, "%s", note);
}

Test(honesty, the_margins_are_validated_rubric_keys)
{
    char err[400];
    cr_assert_eq(wbr_load(NULL, "{\"perf\": {\"floor_margin\": -0.1}, " WBR_ENTRY "}", &rub, err, sizeof err), -1);
    cr_assert(strstr(err, "perf.floor_margin"), "%s", err);
    cr_assert_eq(wbr_load(NULL, "{\"perf\": {\"cpu_factor\": 0.5}, " WBR_ENTRY "}", &rub, err, sizeof err), -1);
    cr_assert(strstr(err, "perf.cpu_factor"), "%s", err);
    cr_assert_eq(wbr_load(NULL, "{" WBR_ENTRY "}", &rub, err, sizeof err), 0, "%s", err);
    cr_assert_float_eq(rub.floor_margin, 0.10, 1e-12);
    cr_assert_float_eq(rub.cpu_factor, 2.0, 1e-12);
}

/* The region screen as the pipeline runs it: which variants a hit costs, and what. */
static gr_rubric real;
static gr_ch_result scr;

static void screen_variants(const char *const *names, int n)
{
    char err[400];
    if (!real.n_ch) cr_assert_eq(gr_rubric_load_at(".", "grading/rubric.json", &real, err, sizeof err), 0, "%s", err);
    memset(&scr, 0, sizeof scr);
    for (int v = 0; v < n; v++) snprintf(scr.v[v].name, sizeof scr.v[v].name, "%s", names[v]);
    scr.n_v = n;
}

Test(honesty, screen_hits_cost_the_variant_whose_region_they_are_in)
{
    const char *names[] = {"v4", "v4x", "plain", "other"};
    screen_variants(names, 4);
    const char *text = "int a;\n"
                       "static void launch_v4(void)\n{\n"
                       "// BEGIN TODO(v4-launch)\n"
                       "    cublasSgemm(h, 0);\n"
                       "    cublasSgemm(h, 1);\n"
                       "// END TODO(v4-launch)\n"
                       "}\n"
                       "static void plain(void)\n{\n"
                       "// BEGIN TODO(plain)\n"
                       "    int fd = open(\"x\", 0);\n"
                       "// END TODO(plain)\n"
                       "}\n";
    /* lines: 1 int a; 2-3 launch_v4 {, 4 BEGIN v4-launch, 5-6 cublasSgemm */
    int hits = gr_honesty_screen(&real.ch[0], text, strlen(text), &scr);
    cr_assert_eq(hits, 3);
    cr_assert_eq(scr.v[0].caught, 1u << GR_CAUGHT_SCREEN_PERF, "v4-launch is v4's region");
    cr_assert(strstr(scr.v[0].caught_note, "region `v4-launch`, line 5: `cublasSgemm`"), "%s", scr.v[0].caught_note);
    cr_assert_null(strstr(scr.v[0].caught_note, "line 6"), "one sentence per rule and region: %s", scr.v[0].caught_note);
    cr_assert_eq(scr.v[1].caught, 0u, "v4x does not own v4-launch");
    cr_assert_eq(scr.v[2].caught, 1u << GR_CAUGHT_SCREEN_CORRECT);
    cr_assert_eq(scr.v[3].caught, 0u);
    /* a region named after no variant, inside a function (chapter 3's zero-result): every variant */
    screen_variants(names, 4);
    const char *shared = "static void helper(void)\n{\n// BEGIN TODO(helper)\n    usleep(5);\n// END TODO(helper)\n}\n";
    cr_assert_eq(gr_honesty_screen(&real.ch[0], shared, strlen(shared), &scr), 1);
    for (int v = 0; v < 4; v++) cr_assert_eq(scr.v[v].caught, 1u << GR_CAUGHT_SCREEN_PERF, "%s", names[v]);
    /* honest regions: nothing */
    screen_variants(names, 4);
    const char *clean = "void f(void) {\n// BEGIN TODO(plain)\n    out[i] = in[i] + 1; // cublas would be cheating\n"
                        "// END TODO(plain)\n}\n";
    cr_assert_eq(gr_honesty_screen(&real.ch[0], clean, strlen(clean), &scr), 0);
    cr_assert_eq(scr.v[2].caught, 0u);
}

/* Chapter 3's shape: a file-level helper region shared by two of four variants. */
#define CH3_SHAPE(HELPER, SHUFFLE) \
    "__global__ void k_global(void)\n{\n// BEGIN TODO(global-atomic)\n    atomicAdd(r, 1);\n// END TODO(global-atomic)\n}\n" \
    "// BEGIN TODO(block-sum)\n" HELPER "// END TODO(block-sum)\n" \
    "__global__ void k_shuffle(void)\n{\n// BEGIN TODO(warp-shuffle)\n" SHUFFLE "// END TODO(warp-shuffle)\n}\n" \
    "__global__ void k_grid(void)\n{\n// BEGIN TODO(grid-stride)\n    block_sum(3);\n// END TODO(grid-stride)\n}\n" \
    "static void launch_block(void)\n{\n// BEGIN TODO(block-atomic)\n    k<<<1, 1>>>();\n// END TODO(block-atomic)\n}\n"

static const char *const ch3_names[] = {"global-atomic", "block-atomic", "warp-shuffle", "grid-stride"};

Test(honesty, a_toolkit_header_in_a_shared_region_costs_no_one)
{
    screen_variants(ch3_names, 4);
    const char *text = CH3_SHAPE("#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\n"
                                 "__device__ void block_sum(long long v) { }\n",
                                 "    block_sum(1);\n");
    cr_assert_eq(gr_honesty_screen(&real.ch[2], text, strlen(text), &scr), 0);
    for (int v = 0; v < 4; v++) cr_assert_eq(scr.v[v].caught, 0u, "%s: %s", ch3_names[v], scr.v[v].caught_note);
}

Test(honesty, a_file_level_region_costs_the_variants_that_use_what_it_declares)
{
    screen_variants(ch3_names, 4);
    const char *text = CH3_SHAPE("#include \"answers.h\"\n__device__ void block_sum(long long v) { }\n",
                                 "    block_sum(1);\n");
    cr_assert_eq(gr_honesty_screen(&real.ch[2], text, strlen(text), &scr), 1);
    cr_assert_eq(scr.v[0].caught, 0u, "global-atomic does not use block-sum: %s", scr.v[0].caught_note);
    cr_assert_eq(scr.v[1].caught, 0u, "block-atomic does not use block-sum: %s", scr.v[1].caught_note);
    for (int v = 2; v < 4; v++) {
        cr_assert_eq(scr.v[v].caught, 1u << GR_CAUGHT_SCREEN_CORRECT, "%s", ch3_names[v]);
        cr_assert(strstr(scr.v[v].caught_note, "`#include \"answers.h\"`"), "%s", scr.v[v].caught_note);
    }
    /* through a helper of a helper, with a qualified name: only warp-shuffle names `ns` */
    screen_variants(ch3_names, 4);
    const char *chain = CH3_SHAPE("namespace ns { __device__ void inner(void) { cub::BlockReduce<int, 256> r; } }\n",
                                  "    ns::inner();\n");
    cr_assert_eq(gr_honesty_screen(&real.ch[2], chain, strlen(chain), &scr), 1);
    for (int v = 0; v < 4; v++)
        cr_assert_eq(scr.v[v].caught, v == 2 ? 1u << GR_CAUGHT_SCREEN_PERF : 0u, "%s: %s", ch3_names[v],
                     scr.v[v].caught_note);
}

Test(honesty, a_macro_costs_every_variant)
{
    screen_variants(ch3_names, 4);
    const char *macro = CH3_SHAPE("#define wb_time_median_ms fake\n__device__ void block_sum(long long v) { }\n",
                                  "    block_sum(1);\n");
    cr_assert_eq(gr_honesty_screen(&real.ch[2], macro, strlen(macro), &scr), 1);
    for (int v = 0; v < 4; v++) cr_assert_eq(scr.v[v].caught, 1u << GR_CAUGHT_SCREEN_CORRECT, "%s", ch3_names[v]);
}

Test(honesty, a_region_that_leaves_its_function_costs_its_variant_and_the_users_of_what_it_declares)
{
    /* warp-shuffle's region closes its kernel and defines a function of its own at file level */
#define ESCAPE "    helper2();\n}\n__device__ void helper2(void)\n{\n    usleep(1);\n"
    screen_variants(ch3_names, 4);
    const char *alone = CH3_SHAPE("__device__ void block_sum(long long v) { }\n", ESCAPE);
    cr_assert_eq(gr_honesty_screen(&real.ch[2], alone, strlen(alone), &scr), 2);
    unsigned both = 1u << GR_CAUGHT_SCREEN_CORRECT | 1u << GR_CAUGHT_SCREEN_PERF;
    for (int v = 0; v < 4; v++)
        cr_assert_eq(scr.v[v].caught, v == 2 ? both : 0u, "%s: %s", ch3_names[v], scr.v[v].caught_note);
    cr_assert(strstr(scr.v[2].caught_note, "braces do not balance"), "%s", scr.v[2].caught_note);
    /* the shared helper calls it: grid-stride, which calls the helper, pays too */
    screen_variants(ch3_names, 4);
    const char *called = CH3_SHAPE("__device__ void block_sum(long long v) { helper2(); }\n", ESCAPE);
    cr_assert_eq(gr_honesty_screen(&real.ch[2], called, strlen(called), &scr), 2);
    for (int v = 0; v < 4; v++)
        cr_assert_eq(scr.v[v].caught, v >= 2 ? both : 0u, "%s: %s", ch3_names[v], scr.v[v].caught_note);
#undef ESCAPE
}

Test(honesty, a_file_edited_outside_its_regions_is_not_trusted_for_where_they_sit)
{
    /* Chapter 5's shape: v4-stage, at file level, is named after v4 and v5 uses it too. */
    const char *names[] = {"v4", "v5"};
#define CH5_SHAPE(OPEN, CLOSE) \
    OPEN "// BEGIN TODO(v4-stage)\n__device__ void v4_stage(void) { usleep(1); }\n// END TODO(v4-stage)\n" CLOSE \
    "__global__ void k4(void)\n{\n// BEGIN TODO(v4)\n    v4_stage();\n// END TODO(v4)\n}\n" \
    "__global__ void k5(void)\n{\n// BEGIN TODO(v5)\n    v4_stage();\n// END TODO(v5)\n}\n"
    screen_variants(names, 2);
    const char *honest = CH5_SHAPE("", "");
    cr_assert_eq(gr_honesty_screen(&real.ch[0], honest, strlen(honest), &scr), 1);
    cr_assert_eq(scr.v[0].caught, 1u << GR_CAUGHT_SCREEN_PERF);
    cr_assert_eq(scr.v[1].caught, 1u << GR_CAUGHT_SCREEN_PERF, "v5 calls v4's helper: %s", scr.v[1].caught_note);
    /* the student's own file wraps v4-stage in a function the build never sees (it splices the regions into
     * the starter): the region would look like v4's alone, so a file edited outside is not trusted */
    const char *wrapped = CH5_SHAPE("void wrap(void) {\n", "}\n");
    screen_variants(names, 2);
    snprintf(scr.outside, sizeof scr.outside, "your file differs from the starter outside the TODO regions");
    cr_assert_eq(gr_honesty_screen(&real.ch[0], wrapped, strlen(wrapped), &scr), 1);
    cr_assert_eq(scr.v[1].caught, 1u << GR_CAUGHT_SCREEN_PERF, "%s", scr.v[1].caught_note);
    screen_variants(names, 2); /* what the untrusted depth would have said */
    cr_assert_eq(gr_honesty_screen(&real.ch[0], wrapped, strlen(wrapped), &scr), 1);
    cr_assert_eq(scr.v[1].caught, 0u);
#undef CH5_SHAPE
}

Test(honesty, caught_costs_are_taken_after_every_step)
{
    gr_var_result r;
    memset(&r, 0, sizeof r);
    r.correct_pts = 2, r.perf_pts = 1, r.san_pts = 1;
    gr_caught_apply(&r);
    cr_assert_float_eq(r.correct_pts + r.perf_pts + r.san_pts, 4, 1e-12, "nothing caught, nothing taken");
    gr_caught_add(&r, 1u << GR_CAUGHT_HOST_COMPUTE, "One.");
    gr_caught_apply(&r);
    cr_assert_float_eq(r.perf_pts, 0, 1e-12);
    cr_assert_float_eq(r.correct_pts, 2, 1e-12, "host compute keeps the correctness points");
    gr_caught_add(&r, 1u << GR_CAUGHT_TIMED_CHECK, "Two.");
    gr_caught_apply(&r);
    cr_assert_float_eq(r.correct_pts, 0, 1e-12);
    cr_assert_float_eq(r.san_pts, 1, 1e-12, "the sanitizer's points are not the finding's to take");
    cr_assert_str_eq(r.caught_note, "One. Two.");
}

/* The benchmark's high repetition count for a student whose repetitions are far slower than the
 * reference's (host compute: the whole run would pass the time limit and lose every variant's points). */
Test(honesty, a_slow_student_gets_as_many_high_repetitions_as_fit_in_half_the_time_limit)
{
    gr_rubric rub;
    memset(&rub, 0, sizeof rub);
    rub.reps_lo = 5, rub.t_perf = 120;
    /* as fast as the reference: the reference's count */
    cr_expect_eq(gr_perf_student_hi(&rub, 0.25, 3.0, 3.1, 919), 919);
    /* 130 ms more per repetition (0.65 s more over 5): 919 would take 119 s; 60 s - 3.6 s fit ~433 */
    int hi = gr_perf_student_hi(&rub, 0.25, 3.0, 3.65, 919);
    cr_expect(hi > rub.reps_lo && hi < 919, "hi %d", hi);
    cr_expect_leq((hi - rub.reps_lo) * 130.25e-3, 0.5 * rub.t_perf - 3.65 + 1e-9);
    cr_expect_geq((hi - rub.reps_lo + 1) * 130.25e-3, 0.5 * rub.t_perf - 3.65);
    /* so slow that not one more fits: still one more than the low count */
    cr_expect_eq(gr_perf_student_hi(&rub, 0.25, 3.0, 3.0 + 5 * 100.0, 919), 6);
}

/* The cross-check's calibration: the reference's high run against its low one, never below (and where it ran
 * the low count alone, reference_high 0, simply) the wall clock per repetition its lines report over their
 * kernel times; clamped to 1..5 either way, so a forgery by 2x is still beyond wall_factor 1.5 x the calibration. The floor:
 * with two H100s busy a process's start can lag by half a second, and a low run slow to start shrank the
 * difference to a calibration of 1.0-1.3 instead of 2.3, the references' own times then "not credible"
 * (18 of 96 copies in two classes of 48). */
Test(honesty, the_cross_check_is_calibrated_by_the_references_runs_or_its_own_report)
{
    cr_expect_float_eq(gr_perf_calibration(1, 3.0, 1.0, 0.5, 0.5), 3.0, 1e-12, "two runs: their difference");
    cr_expect_float_eq(gr_perf_calibration(1, 1.1, 1.0, 0.5, 1.15), 2.3, 1e-12,
                       "a low run slow to start: never below the repetitions' own wall clock");
    cr_expect_float_eq(gr_perf_calibration(0, 0, 0, 0.5, 1.5), 3.0, 1e-12, "one run: its reported wall clock");
    cr_expect_float_eq(gr_perf_calibration(0, 0, 0, 0.5, 0.5), 1.0, 1e-12, "no wall clock reported: the times");
    cr_expect_float_eq(gr_perf_calibration(1, -0.1, 1.0, 0.5, 1.5), 3.0, 1e-12,
                       "a shorter high run says nothing: the repetitions' wall clock does");
    cr_expect_float_eq(gr_perf_calibration(0, 0, 0, 0.1, 10.0), 5.0, 1e-12, "at most 5");
    cr_expect_float_eq(gr_perf_calibration(0, 0, 0, 1.0, 0.2), 1.0, 1e-12, "at least 1");
    cr_expect_float_eq(gr_perf_calibration(0, 0, 0, 0, 1.0), 1.0, 1e-12, "no time reported");
}
