/* Chapter 6, tensor-core matrix multiplication: every solution variant (chapters/06-tcmatmul/chapter.json's)
 * on edge shapes, checked here independently of the program's own check: an fp64 reference rebuilt from
 * the seed (the fp16 inputs rounded here by their own rule), within the chapter's oracle_tolerance; the
 * cuBLAS-referenced path of large shapes; its own table columns. A variant this GPU cannot run (the Hopper
 * ones elsewhere than on an H100/H200 with sm_90a code) says N/A and is skipped with that reason. The
 * checks every chapter has are tests/test_chapters.c's. */
#include <math.h>

#include "wbtest.h"

struct shape {
    int M, N, K;
};
/* 1×1×1, primes, K not a multiple of 16 (5, 9, 137: wmma's staged tiles) nor of 8 (the Hopper variants'
 * padded copies), N odd, a row or column of 1, exact multiples of every tile, one K of many slices. */
static const struct shape shapes[] = {{1, 1, 1},     {17, 33, 5},    {131, 127, 137}, {1000, 1, 1000},
                                      {1, 1000, 9},  {67, 61, 59},   {300, 201, 264}, {256, 512, 128},
                                      {257, 511, 1000}};

/* The chapter's oracle tolerance (chapter.json's oracle_tolerance, the program's own check's):
 * |c - ref| <= (gamma_K(u) + ref_terms gamma_K(u_ref)) * sum |a||b|, gamma_K(u) = K u / (1 - K u). */
static double gamma_n(int n, double u) { return n * u / (1.0 - n * u); }
static double rtol_for(int K)
{
    json_t *facts = wbt_chapter_json(".", 6, NULL, 0), *t = json_object_get(facts, "oracle_tolerance");
    json_t *u = json_object_get(t, "u"), *u_ref = json_object_get(t, "u_ref"), *terms = json_object_get(t, "ref_terms");
    cr_assert(json_is_number(u) && json_is_number(u_ref) && json_is_number(terms),
              "chapters/06-tcmatmul/chapter.json: oracle_tolerance needs the numbers u, u_ref and ref_terms");
    double r = gamma_n(K, json_number_value(u)) + json_number_value(terms) * gamma_n(K, json_number_value(u_ref));
    json_decref(facts);
    return r;
}

/* x rounded to the nearest fp16 value, ties to even (the program's __float2half_rn), for |x| < 65504:
 * 11 significant bits, or a multiple of 2^-24 below 2^-14 (subnormal). In double, exactly. */
static double to_half(float x)
{
    if (x == 0.0f) return 0.0;
    int e;
    frexp(x, &e); /* |x| = m 2^e, m in [0.5, 1): the leading bit is 2^(e-1) */
    double q = e - 1 >= -14 ? ldexp(1.0, e - 1 - 10) : ldexp(1.0, -24);
    return nearbyint((double)x / q) * q;
}

/* The program's inputs from seed: A (M×K) and Bt (N×K), uniform in [-1, 1) by the contract's recipe,
 * rounded to fp16. */
static double *inputs(size_t n, unsigned long long seed, int stream)
{
    float *f = malloc(sizeof(float) * n);
    double *d = malloc(sizeof(double) * n);
    wb_fill_f32(f, n, seed, (uint64_t)stream, -1.0f, 1.0f);
    for (size_t i = 0; i < n; i++) d[i] = to_half(f[i]);
    free(f);
    return d;
}

/* Checks rows[0..n_rows) of got (M×N, from --dump) against A·B in double, A and Bt rebuilt from seed. */
static void check_rows(const char *what, const float *got, int M, int N, int K, unsigned long long seed,
                       const int *rows, int n_rows)
{
    double *A = inputs((size_t)M * K, seed, 0), *Bt = inputs((size_t)N * K, seed, 1), rtol = rtol_for(K);
    for (int r = 0; r < n_rows; r++) {
        int i = rows[r];
        for (int j = 0; j < N; j++) {
            double ref = 0, abs_sum = 0;
            for (int k = 0; k < K; k++) {
                double p = A[(size_t)i * K + k] * Bt[(size_t)j * K + k];
                ref += p;
                abs_sum += fabs(p);
            }
            float c = got[(size_t)i * N + j];
            double err = fabs((double)c - ref);
            cr_assert(!isnan(c) && err <= rtol * abs_sum, "%s: C[%d][%d] = %.9g, expected %.9g (|err| %.3g > bound %.3g)",
                      what, i, j, c, ref, err, rtol * abs_sum);
        }
    }
    free(A);
    free(Bt);
}

/* A variant this GPU cannot run prints its row as N/A with the reason: skipped, never failed. */
#define SKIP_IF_UNAVAILABLE(out, what)                                                                 \
    do {                                                                                               \
        const char *na = strstr(out, "N/A: not available on this GPU");                              \
        if (na) cr_skip_test("%s: %.200s", what, na);                                                  \
    } while (0)

ParameterizedTestParameters(ch6, WBT_WHOSE(variant_is_within_tolerance))
{
    static wbt_case runs[WBT_MAX_CASES];
    return cr_make_param_array(wbt_case, runs, wbt_variant_cases(6, sizeof shapes / sizeof shapes[0], runs, WBT_MAX_CASES));
}
ParameterizedTest(wbt_case *r, ch6, WBT_WHOSE(variant_is_within_tolerance), .timeout = 180)
{
    const struct shape *sh = &shapes[r->size];
    static char out[WBT_OUT_MAX];
    char dir[64], size[64], what[128];
    wbt_tmpdir(dir, sizeof dir);
    int M = sh->M, N = sh->N, K = sh->K;
    snprintf(size, sizeof size, "%dx%dx%d", M, N, K);
    snprintf(what, sizeof what, "%s %s", r->variant, size);
    unsigned long long seed = 6000 + (unsigned long long)M * 7 + (unsigned long long)N * 5 + (unsigned long long)K;
    int rc = wbt_run(out, WBT_SOLUTION "6 --variant %s --size %s --seed %llu --reps 1 --warmup 0 --dump %s",
                     r->variant, size, seed, dir);
    WBT_SKIP_IF_NO_GPU(rc, out);
    cr_assert_eq(rc, WB_EXIT_PASS, "%s: exit %d\n%s", what, rc, out);
    if (strstr(out, "N/A: not available on this GPU")) rmdir(dir);
    SKIP_IF_UNAVAILABLE(out, what);
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

/* Beyond M·N·K = 2^31 the program compares most rows with cuBLAS's C (its operands swapped and Bt
 * transposed by the call: a wrong call would fail here on this rectangular shape). Check rows it did
 * not compute on the CPU, and the last one, here in double. */
Test(ch6, WBT_WHOSE(large_shape_checked_against_cublas), .timeout = 300)
{
    static char out[WBT_OUT_MAX];
    char dir[64];
    wbt_tmpdir(dir, sizeof dir);
    const int M = 1100, N = 1301, K = 1603;
    unsigned long long seed = 77;
    int rc = wbt_run(out, WBT_SOLUTION "6 --size %dx%dx%d --seed %llu --reps 1 --warmup 0 --dump %s", M, N, K,
                     seed, dir);
    WBT_SKIP_IF_NO_GPU(rc, out);
    cr_assert_eq(rc, WB_EXIT_PASS, "exit %d\n%s", rc, out);
    cr_assert(strstr(out, "reference: cuBLAS"), "large shapes should be checked against cuBLAS\n%s", out);
    const int rows[] = {1, 64, 127, 128, 129, 700, M - 2, M - 1};
    char variants[WBT_MAX_VARIANTS][64];
    int nv = wbt_variants(6, variants, WBT_MAX_VARIANTS);
    cr_assert_geq(nv, 1, "chapters/06-tcmatmul/chapter.json names no variant");
    for (int v = 0; v < nv; v++) {
        char path[256], what[128];
        snprintf(path, sizeof path, "%s/%s_%dx%dx%d.bin", dir, variants[v], M, N, K);
        snprintf(what, sizeof what, "%s %dx%dx%d", variants[v], M, N, K);
        if (access(path, F_OK) != 0 && strstr(out, "N/A: not available on this GPU")) continue; /* not run here */
        float *got = wbt_read_exact(path, sizeof(float) * (size_t)M * N);
        check_rows(what, got, M, N, K, seed, rows, sizeof rows / sizeof rows[0]);
        free(got);
        remove(path);
    }
    rmdir(dir);
}

/* The fp16 rounding this oracle rebuilds the inputs with: exact values stay, halfway cases go to even,
 * subnormals are multiples of 2^-24 (a wrong rule would make every case above fail or pass wrongly). */
Test(ch6, oracle_rounds_like_fp16)
{
    cr_assert_eq(to_half(1.0f), 1.0);
    cr_assert_eq(to_half(-0.5f), -0.5);
    cr_assert_eq(to_half(1.0f + 0x1p-11f), 1.0);               /* halfway between 1 and 1 + 2^-10: even */
    cr_assert_eq(to_half(1.0f + 3 * 0x1p-11f), 1.0 + 0x1p-9);   /* halfway, up to even */
    cr_assert_eq(to_half(0.7f), 0.7001953125);
    cr_assert_eq(to_half(0x1p-20f), 0x1p-20);
    cr_assert_eq(to_half(0x1.8p-25f), 0x1p-24);                 /* subnormal: nearest multiple of 2^-24 */
}

/* Chapter 6's own columns: the MMA instruction each variant uses, the three extents. */
Test(ch6, WBT_WHOSE(json_has_mma_and_dims), .timeout = 120)
{
    static char out[WBT_OUT_MAX];
    int rc;
    json_t *lines = wbt_table_json(".", 6, out, &rc);
    cr_assert_eq(rc, 0, "%s", out);
    size_t i;
    json_t *o;
    json_array_foreach(lines, i, o)
    {
        cr_assert_str_eq(json_string_value(json_object_get(o, "extra_name")), "MMA");
        long long d[3];
        cr_assert_eq(sscanf(json_string_value(json_object_get(o, "size")), "%lldx%lldx%lld", &d[0], &d[1], &d[2]), 3);
        json_t *dims = json_object_get(o, "dims");
        cr_assert_eq(json_array_size(dims), 3u);
        for (int k = 0; k < 3; k++) cr_assert_eq(json_integer_value(json_array_get(dims, (size_t)k)), d[k]);
    }
    json_decref(lines);
}
