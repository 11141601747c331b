/* Chapter 4, matrix multiplication: every solution variant on awkward rectangular shapes, checked here
 * independently of the program's own check (a double-precision reference rebuilt from the seed); the
 * cuBLAS-referenced path of large shapes; the starter; bad command lines; compute-sanitizer. */
#include <math.h>

#include "wbtest.h"

static const char *const variants[] = {"naive", "tiled", "reg-1d", "reg-2d", "reg-block", "vector", "double-buffer",
                                       "async-copy"};

struct shape {
    int M, N, K;
};
/* Vectors and scalars, tiny K, long K, rows/columns of 1, nothing a multiple of 16 or 128, the float4
 * path with ragged edges (130x132x36: N and K multiples of 4), exact multiples of every tile, one larger. */
static const struct shape shapes[] = {{1, 1, 1},     {17, 33, 5},    {33, 17, 65},     {1000, 1, 1000},
                                      {1, 1000, 1},  {127, 129, 131}, {130, 132, 36},  {256, 256, 256},
                                      {1000, 777, 513}};

/* The program's tolerance, restated: |c - ref| <= (gamma_K(2^-24) + 2 gamma_K(2^-53)) * sum |a||b|. */
static double gamma_n(int n, double u) { return n * u / (1.0 - n * u); }
static double rtol_for(int K) { return gamma_n(K, 0x1p-24) + 2.0 * gamma_n(K, 0x1p-53); }

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

struct run {
    const char *variant;
    struct shape s;
};

ParameterizedTestParameters(ch4, solution_variant_is_within_tolerance)
{
    enum { V = sizeof variants / sizeof variants[0], S = sizeof shapes / sizeof shapes[0] };
    static struct run runs[V * S];
    for (int v = 0; v < V; v++)
        for (int s = 0; s < S; s++) runs[v * S + s] = (struct run){variants[v], shapes[s]};
    return cr_make_param_array(struct run, runs, V * S);
}
ParameterizedTest(struct run *r, ch4, solution_variant_is_within_tolerance, .timeout = 180)
{
    static char out[WBT_OUT_MAX];
    char dir[64], size[64], what[128];
    wbt_tmpdir(dir, sizeof dir);
    int M = r->s.M, N = r->s.N, K = r->s.K;
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
    char path[160];
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
Test(ch4, large_shape_checked_against_cublas, .timeout = 300)
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
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        char path[160], what[64];
        snprintf(path, sizeof path, "%s/%s_%dx%dx%d.bin", dir, variants[v], M, N, K);
        snprintf(what, sizeof what, "%s %dx%dx%d", variants[v], M, N, K);
        float *got = wbt_read_exact(path, sizeof(float) * (size_t)M * N);
        check_rows(what, got, M, N, K, seed, rows, sizeof rows / sizeof rows[0]);
        free(got);
        remove(path);
    }
    rmdir(dir);
}

Test(ch4, starter_reports_todo_and_fails, .timeout = 120)
{
    WBT_SKIP_IN_STUDENT_RELEASE();
    static char out[WBT_OUT_MAX];
    int rc;
    json_t *lines = wbt_run_json(out, &rc, "./build/chapter4 --size 100x60x40 --reps 1 --warmup 0");
    cr_assert_eq(rc, WB_EXIT_WRONG, "the untouched starter must exit %d, got %d\n%s", WB_EXIT_WRONG, rc, out);
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        const char *verdict = wbt_verdict_of(lines, variants[v]);
        cr_assert_not_null(verdict, "no JSON line for %s", variants[v]);
        cr_assert_str_eq(verdict, "TODO", "%s is %s, not TODO\n%s", variants[v], verdict, out);
    }
    cr_assert(strstr(out, "TODO") && strstr(out, "FAIL"), "%s", out);
    json_decref(lines);
}

Test(ch4, json_has_reference_row_and_sane_numbers, .timeout = 120)
{
    static char out[WBT_OUT_MAX];
    int rc;
    json_t *lines = wbt_run_json(out, &rc, WBT_SOLUTION "4 --size 300x200x100 --reps 3 --warmup 1");
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert_eq(json_array_size(lines), 9u, "cuBLAS row + 8 variants");
    size_t i;
    json_t *o;
    json_array_foreach(lines, i, o)
    {
        cr_assert_gt(json_number_value(json_object_get(o, "median_ms")), 0.0);
        cr_assert_gt(json_number_value(json_object_get(o, "throughput")), 0.0);
        cr_assert_str_eq(json_string_value(json_object_get(o, "unit")), "GFLOP/s");
        cr_assert_str_eq(json_string_value(json_object_get(o, "size")), "300x200x100");
        cr_assert_str_eq(json_string_value(json_object_get(o, "extra_name")), "loads/FMA");
        json_t *dims = json_object_get(o, "dims");
        cr_assert_eq(json_array_size(dims), 3u);
        cr_assert_eq(json_integer_value(json_array_get(dims, 0)), 300);
        cr_assert_eq(json_integer_value(json_array_get(dims, 1)), 200);
        cr_assert_eq(json_integer_value(json_array_get(dims, 2)), 100);
    }
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(lines, 0), "verdict")), "REFERENCE");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(lines, 2), "extra")), "2/16 T=16");
    json_decref(lines);
}

/* Bad command lines are refused before any GPU work, so these run without a GPU too. */
ParameterizedTestParameters(ch4, bad_usage)
{
    static const char *args[] = {"--size 4x4",      "--size 4x4x4x4", "--size 0x4x4",      "--size 4x0x4",
                                 "--size 4x4x0",    "--size -4x4x4",  "--size 4xax4",      "--size 4096",
                                 "--size 32769x1x1", "--size 1x1x2^16", "--variant nope",  "--size",
                                 "4x4x4",           "--dump /nonexistent/dir"};
    return cr_make_param_array(const char *, args, sizeof args / sizeof args[0]);
}
ParameterizedTest(const char **args, ch4, bad_usage)
{
    wbt_assert_bad_usage(WBT_SOLUTION "4", *args);
}

Test(ch4, help_and_list_work_without_gpu)
{
    wbt_assert_help_and_list("./build/chapter4", variants, sizeof variants / sizeof variants[0]);
    static char out[WBT_OUT_MAX];
    cr_assert_eq(wbt_run(out, "./build/chapter4 --help"), 0);
    cr_assert(strstr(out, "MxNxK") && strstr(out, "32768"), "%s", out);
}

struct san {
    const char *tool, *variant;
};
ParameterizedTestParameters(ch4, sanitizer_clean)
{
    static struct san cases[3 * sizeof variants / sizeof variants[0]];
    static const char *const tools[] = {"memcheck", "racecheck", "synccheck"};
    int n = 0;
    for (int t = 0; t < 3; t++)
        for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) cases[n++] = (struct san){tools[t], variants[v]};
    return cr_make_param_array(struct san, cases, n);
}
/* 131x130x36: no extent a multiple of any tile; K a multiple of 4 and N not, so the vector variants
 * take their float4 path for A and their scalar path for B and C. */
ParameterizedTest(struct san *s, ch4, sanitizer_clean, .timeout = 300)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, WBT_SOLUTION "4 --size 131x130x36 --variant %s --reps 1 --warmup 0", s->variant);
    wbt_sanitize(s->tool, cmd);
}
