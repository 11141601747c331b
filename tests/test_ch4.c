/* Chapter 4, matrix multiplication: every solution variant (chapters/04-matmul/chapter.json's) on awkward
 * rectangular shapes, checked here independently of the program's own check (a double-precision
 * reference rebuilt from the seed, within the chapter's oracle_tolerance); the cuBLAS-referenced path of
 * large shapes; its own table columns and --help text. The checks every chapter has are
 * tests/test_chapters.c's. */
#include <math.h>

#include "wbtest.h"

struct shape {
    int M, N, K;
};
/* Vectors and scalars, tiny K, long K, rows/columns of 1, nothing a multiple of 16 or 128, the float4
 * path with ragged edges (130x132x36: N and K multiples of 4), exact multiples of every tile, one larger. */
static const struct shape shapes[] = {{1, 1, 1},     {17, 33, 5},    {33, 17, 65},     {1000, 1, 1000},
                                      {1, 1000, 1},  {127, 129, 131}, {130, 132, 36},  {256, 256, 256},
                                      {1000, 777, 513}};

/* The chapter's oracle tolerance (chapter.json's oracle_tolerance, the program's own check's):
 * |c - ref| <= (gamma_K(u) + ref_terms gamma_K(u_ref)) * sum |a||b|, gamma_K(u) = K u / (1 - K u). */
static double gamma_n(int n, double u) { return n * u / (1.0 - n * u); }
static double rtol_for(int K)
{
    json_t *facts = wbt_chapter_json(".", 4, NULL, 0), *t = json_object_get(facts, "oracle_tolerance");
    json_t *u = json_object_get(t, "u"), *u_ref = json_object_get(t, "u_ref"), *terms = json_object_get(t, "ref_terms");
    cr_assert(json_is_number(u) && json_is_number(u_ref) && json_is_number(terms),
              "chapters/04-matmul/chapter.json: oracle_tolerance needs the numbers u, u_ref and ref_terms");
    double r = gamma_n(K, json_number_value(u)) + json_number_value(terms) * gamma_n(K, json_number_value(u_ref));
    json_decref(facts);
    return r;
}

/* Checks rows[0..n_rows) of got (M×N, from --dump) against A·B in double, A and B rebuilt from seed. */
static void check_rows(const char *what, const float *got, int M, int N, int K, unsigned long long seed,
                       const int *rows, int n_rows)
{
    float *A = malloc(sizeof(float) * (size_t)M * K), *B = malloc(sizeof(float) * (size_t)K * N);
    double *ref = malloc(sizeof(double) * N), *abs_sum = malloc(sizeof(double) * N);
    wb_fill_f32(A, (size_t)M * K, seed, 0, -1.0f, 1.0f);
    wb_fill_f32(B, (size_t)K * N, seed, 1, -1.0f, 1.0f);
    double rtol = rtol_for(K);
    for (int r = 0; r < n_rows; r++) {
        int i = rows[r];
        for (int j = 0; j < N; j++) ref[j] = abs_sum[j] = 0.0;
        for (int k = 0; k < K; k++) {
            double a = A[(size_t)i * K + k];
            const float *b = B + (size_t)k * N;
            for (int j = 0; j < N; j++) {
                ref[j] += a * b[j];
                abs_sum[j] += fabs(a) * fabs((double)b[j]);
            }
        }
        for (int j = 0; j < N; j++) {
            float c = got[(size_t)i * N + j];
            double err = fabs((double)c - ref[j]);
            cr_assert(!isnan(c) && err <= rtol * abs_sum[j],
                      "%s: C[%d][%d] = %.9g, expected %.9g (|err| %.3g > bound %.3g)", what, i, j, c, ref[j], err,
                      rtol * abs_sum[j]);
        }
    }
    free(A);
    free(B);
    free(ref);
    free(abs_sum);
}

ParameterizedTestParameters(ch4, WBT_WHOSE(variant_is_within_tolerance))
{
    static wbt_case runs[WBT_MAX_CASES];
    return cr_make_param_array(wbt_case, runs, wbt_variant_cases(4, sizeof shapes / sizeof shapes[0], runs, WBT_MAX_CASES));
}
ParameterizedTest(wbt_case *r, ch4, WBT_WHOSE(variant_is_within_tolerance), .timeout = 180)
{
    const struct shape *sh = &shapes[r->size];
    static char out[WBT_OUT_MAX];
    char dir[64], size[64], what[128];
    wbt_tmpdir(dir, sizeof dir);
    int M = sh->M, N = sh->N, K = sh->K;
    snprintf(size, sizeof size, "%dx%dx%d", M, N, K);
    snprintf(what, sizeof what, "%s %s", r->variant, size);
    unsigned long long seed = 4000 + (unsigned long long)M * 7 + (unsigned long long)N * 5 + (unsigned long long)K;
    int rc = wbt_run(out, WBT_SOLUTION "4 --variant %s --size %s --seed %llu --reps 1 --warmup 0 --dump %s",
                     r->variant, size, seed, dir);
    WBT_SKIP_IF_NO_GPU(rc, out);
    cr_assert_eq(rc, WB_EXIT_PASS, "%s: exit %d\n%s", what, rc, out);
    cr_assert(strstr(out, "worst error") && strstr(out, "reference: CPU fp64"),
              "%s: no worst-error line against the CPU reference\n%s", what, out);

    /* The program's own check said PASS; check its raw output here too, every row, from the same seed. */
    char path[256];
    snprintf(path, sizeof path, "%s/%s_%s.bin", dir, r->variant, size);
    float *got = wbt_read_exact(path, sizeof(float) * (size_t)M * N);
    int *rows = malloc(sizeof(int) * M);
    for (int i = 0; i < M; i++) rows[i] = i;
    check_rows(what, got, M, N, K, seed, rows, M);
    free(rows);
    free(got);
    remove(path);
    rmdir(dir);
}

/* Beyond M·N·K = 2^31 the program compares most rows with cuBLAS's C (swapped operands: a transposed
 * or mis-ordered call would fail here on this rectangular shape). Check rows it did not compute on the
 * CPU, and the last one, here in double. */
Test(ch4, WBT_WHOSE(large_shape_checked_against_cublas), .timeout = 300)
{
    static char out[WBT_OUT_MAX];
    char dir[64];
    wbt_tmpdir(dir, sizeof dir);
    const int M = 1100, N = 1300, K = 1600;
    unsigned long long seed = 77;
    int rc = wbt_run(out, WBT_SOLUTION "4 --size %dx%dx%d --seed %llu --reps 1 --warmup 0 --dump %s", M, N, K,
                     seed, dir);
    WBT_SKIP_IF_NO_GPU(rc, out);
    cr_assert_eq(rc, WB_EXIT_PASS, "exit %d\n%s", rc, out);
    cr_assert(strstr(out, "reference: cuBLAS"), "large shapes should be checked against cuBLAS\n%s", out);
    const int rows[] = {1, 64, 127, 128, 129, 700, M - 2, M - 1};
    char variants[WBT_MAX_VARIANTS][64];
    int nv = wbt_variants(4, variants, WBT_MAX_VARIANTS);
    cr_assert_geq(nv, 1, "chapters/04-matmul/chapter.json names no variant");
    for (int v = 0; v < nv; v++) {
        char path[256], what[128];
        snprintf(path, sizeof path, "%s/%s_%dx%dx%d.bin", dir, variants[v], M, N, K);
        snprintf(what, sizeof what, "%s %dx%dx%d", variants[v], M, N, K);
        float *got = wbt_read_exact(path, sizeof(float) * (size_t)M * N);
        check_rows(what, got, M, N, K, seed, rows, sizeof rows / sizeof rows[0]);
        free(got);
        remove(path);
    }
    rmdir(dir);
}

/* Chapter 4's own columns: loads per FMA (and the tile it names), the three extents (the reference row and
 * the numbers every chapter has are tests/test_chapters.c's). */
Test(ch4, WBT_WHOSE(json_has_loads_per_fma_and_dims), .timeout = 120)
{
    static char out[WBT_OUT_MAX];
    int rc;
    json_t *lines = wbt_table_json(".", 4, out, &rc);
    cr_assert_eq(rc, 0, "%s", out);
    size_t i;
    json_t *o;
    json_array_foreach(lines, i, o)
    {
        cr_assert_str_eq(json_string_value(json_object_get(o, "extra_name")), "loads/FMA");
        long long d[3];
        cr_assert_eq(sscanf(json_string_value(json_object_get(o, "size")), "%lldx%lldx%lld", &d[0], &d[1], &d[2]), 3);
        json_t *dims = json_object_get(o, "dims");
        cr_assert_eq(json_array_size(dims), 3u);
        for (int k = 0; k < 3; k++) cr_assert_eq(json_integer_value(json_array_get(dims, (size_t)k)), d[k]);
    }
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(lines, 2), "extra")), "2/16 T=16");
    json_decref(lines);
}

/* --help names the MxNxK form and its limit (every chapter's --help and --list: tests/test_chapters.c). */
Test(ch4, help_names_the_shape_form)
{
    static char out[WBT_OUT_MAX];
    cr_assert_eq(wbt_run(out, "./build/chapter4 --help"), 0);
    cr_assert(strstr(out, "MxNxK") && strstr(out, "32768"), "%s", out);
}
