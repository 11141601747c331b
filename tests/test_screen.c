/* The region screen (grading/screen.c): what a student's regions may not contain. */
#include <criterion/criterion.h>
#include <glob.h>
#include <unistd.h>

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
    /* chapter 7's scan, whole or a block of it, by CUB or Thrust */
    cr_assert_eq(screen("cub::DeviceScan::InclusiveSum(tmp, bytes, in, out, n);\n", h, 4), 1);
    cr_assert_str_eq(h[0].token, "cub::DeviceScan::InclusiveSum");
    cr_assert_eq(h[0].rule->cost, GR_COST_PERF);
    cr_assert_eq(screen("typedef cub::BlockScan<unsigned, 256> scan_t;\n", h, 4), 1);
    cr_assert_eq(screen("thrust::inclusive_scan(thrust::device, a, a + n, b);\n", h, 4), 2);
    cr_assert_str_eq(h[0].token, "thrust::inclusive_scan");
    /* Chapter 6's products: cuBLASLt, CUTLASS and CuTe by name, not only by their headers. */
    cr_assert_eq(screen("cublasLtMatmul(lt, op, &one, a, la, b, lb, &zero, c, lc, c, lc, NULL, ws, n, 0);\n", h, 4), 1);
    cr_assert_str_eq(h[0].token, "cublasLtMatmul");
    cr_assert_eq(screen("cutlass::gemm::device::Gemm<cutlass::half_t> gemm;\n", h, 4), 2);
    cr_assert_str_eq(h[0].token, "cutlass::gemm::device::Gemm");
    cr_assert_eq(h[0].rule->cost, GR_COST_PERF);
    cr_assert_eq(screen("auto t = cute::make_tensor(p, layout);\n", h, 4), 1);
    cr_assert_eq(screen("int cutoff = 3; float acute = 1;\n", h, 4), 0);
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

/* A reference's hint lines (`//| `, its starter's text: tools/starter) are comments: what they name is not code.
 * One that ends in a splice would hide the next line in the comment, which is why tools/starter refuses it. */
Test(screen, a_references_hint_lines_are_comments)
{
    gr_screen_hit h[4];
    cr_assert_eq(screen("//| /* cublasSgemm(h); #include <cub/cub.cuh> usleep(1); */\n//|\n    //| fopen(\"x\");\nint x = 1;\n", h, 4),
                 0);
    cr_assert_eq(screen("    //| /* hint */\n    usleep(1);\n", h, 4), 1, "the code after the hint lines is screened");
    cr_assert_eq(screen("//| a hint ending in a splice \\\nusleep(1);\n", h, 4), 0, "the next line joined to the comment");
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

/* Includes (issue 27): what a good student reaches for passes; what could hold the answer or do the work
 * does not. */
Test(screen, the_toolkits_kernel_headers_are_allowed)
{
    gr_screen_hit h[4];
    const char *ok[] = {"#include <cooperative_groups.h>", "#include <cooperative_groups/reduce.h>",
                        "#include <cooperative_groups/memcpy_async.h>", "#include <cuda/pipeline>",
                        "#include <cuda/barrier>", "#include <cuda/atomic>", "#include <cuda/std/cstdint>",
                        "#include <cuda/std/limits>", "#include <mma.h>", "#include <cuda_fp16.h>",
                        "#include <cuda_bf16.h>", "#include <cuda_pipeline.h>", "#include <cuda_awbarrier.h>",
                        "  #  include<cstdint>", "#include <math_constants.h> // CUDART_INF_F",
                        "#include <climits>", "#include <cfloat>"};
    for (size_t k = 0; k < sizeof ok / sizeof ok[0]; k++) {
        char text[200];
        snprintf(text, sizeof text, "%s\n", ok[k]);
        int n = screen(text, h, 4);
        char why[400] = "";
        if (n) gr_screen_hit_str(&h[0], why, sizeof why);
        cr_expect_eq(n, 0, "%s: %s", ok[k], why);
    }
}

/* The include directive as written, its cost, and the start of its sentence. */
static void refused(const char *line, gr_screen_cost cost, const char *token, const char *why)
{
    gr_screen_hit h[4];
    char text[300], s[400];
    snprintf(text, sizeof text, "int a;\n%s\n", line);
    cr_assert_eq(screen(text, h, 4), 1, "%s", line);
    gr_screen_hit_str(&h[0], s, sizeof s);
    cr_expect_eq(h[0].rule->cost, cost, "%s: %s", line, s);
    cr_expect_eq(h[0].line, 11, "%s", line);
    cr_expect_str_eq(h[0].token, token, "%s", line);
    cr_expect(strstr(s, why), "%s: %s", line, s);
}

Test(screen, includes_that_could_hold_the_answer_cost_correctness)
{
    const char *c = "only the CUDA toolkit's kernel headers";
    refused("#include \"../../solutions/01-reversal/reversal.cu\"", GR_COST_CORRECT,
            "#include \"../../solutions/01-reversal/reversal.cu\"", c);
    refused("#include \"helpers.h\"", GR_COST_CORRECT, "#include \"helpers.h\"", c);
    refused("#include </work/solutions/04-matmul/matmul.cu>", GR_COST_CORRECT,
            "#include </work/solutions/04-matmul/matmul.cu>", c);
    refused("#include <cuda/std/../../../../solutions/x.cu>", GR_COST_CORRECT,
            "#include <cuda/std/../../../../solutions/x.cu>", c);
    refused("#include <cooperative_groups/..\\..\\x.cu>", GR_COST_CORRECT, "#include <cooperative_groups/..\\..\\x.cu>", c);
    refused("#include SOLUTION_PATH", GR_COST_CORRECT, "#include SOLUTION_PATH", c);
    refused("#include <fstream>", GR_COST_CORRECT, "#include <fstream>", c);
    refused("#include <stdio.h>", GR_COST_CORRECT, "#include <stdio.h>", c);
    refused("#include_next <cuda_fp16.h>", GR_COST_CORRECT, "include_next", "by #include <name>");
    refused("#import \"answers.h\"", GR_COST_CORRECT, "import", "by #include <name>");
    refused("#embed \"answers.bin\"", GR_COST_CORRECT, "embed", "read files at build time");
}

Test(screen, the_libraries_that_do_the_work_cost_performance)
{
    refused("#include <cub/cub.cuh>", GR_COST_PERF, "#include <cub/cub.cuh>", "CUB does the work");
    refused("#include <cub/block/block_reduce.cuh>", GR_COST_PERF, "#include <cub/block/block_reduce.cuh>", "CUB");
    refused("#include <thrust/reduce.h>", GR_COST_PERF, "#include <thrust/reduce.h>", "Thrust does the work");
    refused("#include <cublas_v2.h>", GR_COST_PERF, "#include <cublas_v2.h>", "cuBLAS does the work");
    refused("#include <cublasLt.h>", GR_COST_PERF, "#include <cublasLt.h>", "cuBLAS");
    refused("#include <cutlass/gemm/device/gemm.h>", GR_COST_PERF, "#include <cutlass/gemm/device/gemm.h>", "CUTLASS");
    refused("#include <cccl/cub/cub.cuh>", GR_COST_PERF, "#include <cccl/cub/cub.cuh>", "CCCL");
    refused("#include <cuda/ptx>", GR_COST_PERF, "#include <cuda/ptx>", "inline PTX");
}

/* What the compiler reads as a directive or a word, whatever the spelling. */
Test(screen, spellings_the_compiler_joins_are_joined)
{
    gr_screen_hit h[4];
    cr_assert_eq(screen("#inc\\\nlude <cub/cub.cuh>\n", h, 4), 1, "a line splice inside the directive");
    cr_assert_str_eq(h[0].token, "#include <cub/cub.cuh>");
    cr_assert_eq(h[0].line, 10);
    cr_assert_eq(screen("int x;\ncub\\\r\nlasSgemm(h);\n", h, 4), 1, "a line splice inside a word");
    cr_assert_str_eq(h[0].token, "cublasSgemm");
    cr_assert_eq(h[0].line, 11);
    cr_assert_eq(screen("%:include \"x.h\"\n", h, 4), 1, "the digraph %%: is #");
    cr_assert_eq(screen("/* c */ #include \"x.h\"\n", h, 4), 1, "a comment before # leaves it first on the line");
    cr_assert_eq(screen("int y = 1; # define X\n", h, 4), 0, "not first on its line: not a directive");
    cr_assert_eq(screen("auto s = R\"x(\")x\"; usleep(1); const char *t = \"\";\n", h, 4), 1,
                 "a raw string ends at )x\", not at the first quote");
    cr_assert_str_eq(h[0].token, "usleep");
    cr_assert_eq(screen("auto s = R\"(usleep(1) \")\";\n", h, 4), 0, "what a raw string holds is not code");
    cr_assert_eq(screen("#pragma unrolled\n", h, 4), 1, "only the word unroll");
}

Test(screen, a_rule_file_says_what_it_means_or_is_refused)
{
    char err[200];
    gr_screen_rules r;
    memset(&r, 0, sizeof r);
    json_t *bad = json_pack("[{s:s, s:s, s:s, s:s}]", "pattern", "fopen", "match", "exact", "cost", "allow", "why", "x");
    cr_assert_eq(gr_screen_rules_add(&r, bad, err, sizeof err), -1);
    cr_assert(strstr(err, "only a header rule can allow"), "%s", err);
    json_decref(bad);
    bad = json_pack("[{s:s, s:s, s:s, s:s}]", "pattern", "define", "match", "directive", "reach", "all", "why", "x");
    cr_assert_eq(gr_screen_rules_add(&r, bad, err, sizeof err), -1);
    cr_assert(strstr(err, "reach must be region or file"), "%s", err);
    json_decref(bad);
    /* a chapter that allows CUB's headers: its rule, later and as long, wins */
    json_t *extra = json_pack("[{s:s, s:s, s:s, s:s}]", "pattern", "cub/", "match", "header", "cost", "allow", "why", "ok");
    cr_assert_eq(gr_screen_rules_add(&rules, extra, err, sizeof err), 0, "%s", err);
    gr_screen_hit h[4];
    cr_assert_eq(screen("#include <cub/cub.cuh>\n", h, 4), 0);
    cr_assert_eq(screen("#include <cublas_v2.h>\n", h, 4), 1);
    json_decref(extra);
}

/* Every header the rubric allows as the toolkit's is one this toolkit has (a typo allows nothing). */
Test(screen, the_allowed_toolkit_headers_exist)
{
    const char *home = getenv("CUDA_HOME") ? getenv("CUDA_HOME") : "/usr/local/cuda";
    char dir[300], path[400];
    snprintf(dir, sizeof dir, "%s/include", home);
    if (access(dir, R_OK)) cr_skip_test("no CUDA toolkit at %s", home);
    int n = 0;
    for (int k = 0; k < rules.n; k++) {
        const gr_screen_rule *r = &rules.rule[k];
        if (r->match != GR_MATCH_HEADER || r->cost != GR_COST_ALLOW || !strstr(r->why, "CUDA toolkit")) continue;
        char name[64];
        snprintf(name, sizeof name, "%s", r->pattern);
        name[strcspn(name, "*")] = 0;
        int found = 0;
        for (int sub = 0; sub < 2 && !found; sub++) {
            snprintf(path, sizeof path, "%s%s/%s", dir, sub ? "/cccl" : "", name);
            found = !access(path, R_OK);
        }
        cr_expect(found, "%s is in neither %s nor %s/cccl", r->pattern, dir, dir);
        n++;
    }
    cr_assert_geq(n, 10);
}

/* The pieces the grader uses to tell which variants use a region (grading/honesty.h). */
Test(screen, names_a_region_declares_and_who_mentions_them)
{
    const char *text = "#include <cuda/pipeline>\n"
                       "__device__ __forceinline__ float4 load4(const float *p, int n = 4) { int local = 1; return x; }\n"
                       "static __device__ int table[64];\n"
                       "struct Acc { int v; };\n"
                       "namespace leaked { void hidden(void) {} }\n"
                       "using leaked::load4_vector;\n"
                       "// decoy(\n";
    char names[16][64];
    int n = gr_screen_names(text, strlen(text), 0, names, 16);
    const char *want[] = {"load4", "table", "Acc", "leaked", "leaked", "load4_vector"};
    cr_assert_eq(n, 6);
    for (int k = 0; k < 6; k++) cr_expect_str_eq(names[k], want[k]);
    cr_assert(gr_screen_mentions("y = load4(a, 3);", 16, (const char(*)[64])names, n));
    cr_assert(gr_screen_mentions("leaked::hidden();", 17, (const char(*)[64])names, n));
    cr_assert_not(gr_screen_mentions("y = load4x(a); // load4(\n\"table\"", 33, (const char(*)[64])names, n));
    cr_assert_eq(gr_screen_brace_depth("void f() {\n  if (x) { /* } */ '}'; \"}\" }\n", 42), 1);
}
