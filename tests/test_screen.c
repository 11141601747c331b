/* The region screen (grading/screen.c): what a student's regions may not contain. */
#include <criterion/criterion.h>
#include <glob.h>

#include "regions.h"
#include "screen.h"

static gr_screen_rules rules;

/* The rules are the rubric's, so these tests also check that the shipped list parses. */
static void load_rules(void)
{
    json_error_t je;
    json_t *rubric = json_load_file("grading/rubric.json", 0, &je);
    cr_assert_not_null(rubric, "grading/rubric.json: %s", je.text);
    char err[200];
    memset(&rules, 0, sizeof rules);
    cr_assert_eq(gr_screen_rules_add(&rules, json_object_get(rubric, "screen"), err, sizeof err), 0, "%s", err);
    cr_assert_gt(rules.n, 20);
    json_decref(rubric);
}

static int screen(const char *text, gr_screen_hit *hits, int max)
{
    int n = 0;
    gr_screen_region(&rules, "vector", text, strlen(text), 10, hits, max, &n);
    return n;
}

TestSuite(screen, .init = load_rules);

Test(screen, the_reference_solutions_and_starters_have_no_hit)
{
    glob_t g;
    cr_assert_eq(glob("chapters/*/*.cu", 0, NULL, &g), 0, "no chapters here");
    glob("solutions/*/*.cu", GLOB_APPEND, NULL, &g); /* none in the student release */
    int files = 0;
    for (size_t f = 0; f < g.gl_pathc; f++) {
        size_t len;
        char *text = wb_read_file(g.gl_pathv[f], &len);
        cr_assert_not_null(text, "%s", g.gl_pathv[f]);
        wb_region reg[64];
        char err[200];
        int nr = wb_regions_parse(text, len, reg, 64, err, sizeof err);
        cr_assert_geq(nr, 1, "%s: %s", g.gl_pathv[f], err);
        for (int r = 0; r < nr; r++) {
            gr_screen_hit hits[4];
            int n = 0;
            int count = gr_screen_region(&rules, reg[r].name, text + reg[r].begin, reg[r].end - reg[r].begin,
                                         reg[r].line + 1, hits, 4, &n);
            char why[400] = "";
            if (n) gr_screen_hit_str(&hits[0], why, sizeof why);
            cr_expect_eq(count, 0, "%s: %s", g.gl_pathv[f], why);
        }
        free(text);
        files++;
    }
    cr_assert_geq(files, 5);
    globfree(&g);
}

Test(screen, a_library_doing_the_work_is_named)
{
    gr_screen_hit h[4];
    cr_assert_eq(screen("  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, m, b, k, &zero, c, m);\n", h, 4), 1);
    cr_assert_str_eq(h[0].token, "cublasSgemm");
    cr_assert_eq(h[0].line, 10);
    cr_assert_eq(h[0].rule->cost, GR_COST_PERF);
    char s[400];
    gr_screen_hit_str(&h[0], s, sizeof s);
    cr_assert(strstr(s, "region `vector`, line 10: `cublasSgemm` — cuBLAS does the work"), "%s", s);
    cr_assert_eq(screen("cub::DeviceReduce::Sum(tmp, bytes, in, out, n);\n", h, 4), 1);
    cr_assert_str_eq(h[0].token, "cub::DeviceReduce::Sum");
    cr_assert_eq(screen("thrust::reduce(thrust::device, a, a + n);\n", h, 4), 2);
    cr_assert_eq(screen("::cublasCreate(&h);\n", h, 4), 1);
}

Test(screen, streams_timers_sleeps_and_threads)
{
    gr_screen_hit h[8];
    cr_assert_eq(screen("cudaStream_t s;\ncudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);\n", h, 8), 2);
    cr_assert_eq(h[0].line, 11);
    cr_assert_eq(screen("usleep(1000);\nstd::this_thread::sleep_for(x);\n", h, 8), 2);
    cr_assert_eq(screen("cudaEventRecord(e, 0);\n", h, 8), 1);
    cr_assert_eq(screen("pthread_create(&t, 0, f, 0);\n", h, 8), 1);
    cr_assert_eq(screen("#pragma omp parallel for\nfor (;;) {}\n", h, 8), 1);
    cr_assert_eq(screen("  #pragma unroll\n  for (int k = 0; k < 4; k++) {}\n", h, 8), 0);
    cr_assert_eq(screen("cudaMemsetAsync(p, 0, 8, 0);\n", h, 8), 0, "the default stream is fine");
}

Test(screen, files_the_environment_and_the_preprocessor_cost_correctness)
{
    gr_screen_hit h[8];
    cr_assert_eq(screen("FILE *f = fopen(\"/tmp/answer\", \"rb\");\n", h, 8), 1);
    cr_assert_eq(h[0].rule->cost, GR_COST_CORRECT);
    cr_assert_eq(screen("#include \"../../solutions/01-reversal/reversal.cu\"\n", h, 8), 1);
    cr_assert_eq(h[0].rule->cost, GR_COST_CORRECT);
    cr_assert_eq(screen("# define wb_time_median_ms fake\n", h, 8), 1);
    cr_assert_eq(screen("const char *e = getenv(\"WB_SEED\");\n", h, 8), 1);
}

Test(screen, the_poison_pattern_in_any_spelling)
{
    gr_screen_hit h[4];
    cr_assert_eq(screen("if (out[0] == 0xa5a5a5a5u) return;\n", h, 4), 1);
    cr_assert_eq(screen("if (out[0] == -1515870811) return;\n", h, 4), 1);
    cr_assert_eq(screen("if (x == 2779096485u) return;\n", h, 4), 1, "0xA5A5A5A5 in decimal");
    cr_assert_eq(screen("float y = 165.5f; int z = 0xA5;\n", h, 4), 0, "other numbers are fine");
}

Test(screen, comments_and_strings_are_not_code)
{
    gr_screen_hit h[4];
    cr_assert_eq(screen("// cublasSgemm would be faster\n/* fopen( */ int x = 1; printf(\"usleep(1)\");\n", h, 4), 0);
    cr_assert_eq(screen("char c = '{';\n", h, 4), 0, "a brace in a character literal is not a brace");
}

Test(screen, a_region_that_leaves_its_function)
{
    gr_screen_hit h[4];
    cr_assert_eq(screen("    }\n    double wb_time_fake(void) { return 0; }\n    void pad(void) {\n", h, 4), 1);
    cr_assert_null(h[0].rule);
    char s[400];
    gr_screen_hit_str(&h[0], s, sizeof s);
    cr_assert(strstr(s, "braces do not balance"), "%s", s);
    cr_assert_eq(screen("if (i < n) { out[i] = in[i]; }\n", h, 4), 0);
}

Test(screen, chapters_allow_and_add_rules)
{
    json_t *allow = json_pack("[s]", "asm");
    gr_screen_hit h[4];
    cr_assert_eq(screen("asm volatile(\"mov.u32 %0, 1;\" : \"=r\"(x));\n", h, 4), 1);
    gr_screen_rules_allow(&rules, allow);
    cr_assert_eq(screen("asm volatile(\"mov.u32 %0, 1;\" : \"=r\"(x));\n", h, 4), 0);
    json_decref(allow);
    char err[200];
    json_t *bad = json_pack("[{s:s, s:s, s:s}]", "pattern", "x", "match", "fuzzy", "why", "no");
    cr_assert_eq(gr_screen_rules_add(&rules, bad, err, sizeof err), -1);
    cr_assert(strstr(err, "match must be"), "%s", err);
    json_decref(bad);
}
