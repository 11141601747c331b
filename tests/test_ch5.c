/* Chapter 5, min-plus product: every solution version (chapters/05-minplus/chapter.json's) at awkward
 * sizes, checked bit for bit here, independently of the program's own check, against a reference
 * computed from the seed; its preprocessing and speedup columns. The checks every chapter has are
 * tests/test_chapters.c's. */
#include <math.h>

#include "wbtest.h"

static const long long sizes[] = {1, 2, 63, 64, 65, 127, 1000};

/* The chapter's input for a seed, from the recipe in its header: uniform [0, 1) (stream 0), diagonal 0,
 * +inf for 1 in 20 other entries (stream 1), for every edge out of a dead end (1 vertex in 16, stream 2)
 * and into a source (1 in 16, stream 3). */
static float *make_input(int n, uint64_t seed)
{
    float *d = malloc(sizeof(float) * (size_t)n * n);
    cr_assert_not_null(d);
    wb_fill_f32(d, (size_t)n * n, seed, 0, 0.0f, 1.0f);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            size_t e = (size_t)n * i + j;
            if (i == j)
                d[e] = 0.0f;
            else if (wb_random_at(seed, 2, (uint64_t)i) % 16 == 0 || wb_random_at(seed, 3, (uint64_t)j) % 16 == 0 ||
                     wb_random_at(seed, 1, e) % 20 == 0)
                d[e] = INFINITY;
        }
    return d;
}

/* r[i][j] = min over k of d[i][k] + d[k][j]; k in the middle loop so that d is read along rows. */
static float *minplus_reference(const float *d, int n)
{
    float *r = malloc(sizeof(float) * (size_t)n * n);
    cr_assert_not_null(r);
    for (int i = 0; i < n; i++) {
        float *row = r + (size_t)n * i;
        for (int j = 0; j < n; j++) row[j] = INFINITY;
        for (int k = 0; k < n; k++) {
            float x = d[(size_t)n * i + k];
            const float *dk = d + (size_t)n * k;
            for (int j = 0; j < n; j++)
                if (x + dk[j] < row[j]) row[j] = x + dk[j];
        }
    }
    return r;
}

ParameterizedTestParameters(ch5, WBT_WHOSE(variant_is_exact))
{
    static wbt_case runs[WBT_MAX_CASES];
    return cr_make_param_array(wbt_case, runs, wbt_variant_cases(5, sizeof sizes / sizeof sizes[0], runs, WBT_MAX_CASES));
}
ParameterizedTest(wbt_case *r, ch5, WBT_WHOSE(variant_is_exact), .timeout = 180)
{
    long long len = sizes[r->size];
    static char out[WBT_OUT_MAX];
    char dir[64];
    wbt_tmpdir(dir, sizeof dir);
    unsigned long long seed = 5000 + (unsigned long long)len;
    int rc = wbt_run(out, WBT_SOLUTION "5 --variant %s --size %lld --seed %llu --reps 1 --warmup 0 --dump %s",
                     r->variant, len, seed, dir);
    WBT_SKIP_IF_NO_GPU(rc, out);
    cr_assert_eq(rc, WB_EXIT_PASS, "%s n=%lld: exit %d\n%s", r->variant, len, rc, out);

    /* The program's own check said PASS; compare its raw output here too, bit for bit. */
    char path[256];
    snprintf(path, sizeof path, "%s/%s_%lld.bin", dir, r->variant, len);
    int n = (int)len;
    size_t count = (size_t)n * n;
    float *got = wbt_read_exact(path, count * sizeof(float));
    float *d = make_input(n, seed);
    float *ref = minplus_reference(d, n);
    size_t inf_d = 0, inf_r = 0;
    for (size_t e = 0; e < count; e++) {
        inf_d += isinf(d[e]) != 0;
        inf_r += isinf(ref[e]) != 0;
        cr_assert(memcmp(&got[e], &ref[e], sizeof(float)) == 0 && !isnan(got[e]),
                  "%s n=%d: r[%zu][%zu] = %.9g, expected %.9g", r->variant, n, e / n, e % n, got[e], ref[e]);
    }
    /* The inputs are meant to exercise +inf (no edge) in both d and r: make sure they do. At n = 1000
     * this is the "many infinities" matrix: over a tenth of d and about a tenth of r. */
    if (n >= 63) cr_assert(inf_r > 0 && inf_r < count, "%s n=%d: r has %zu infinities", r->variant, n, inf_r);
    if (n == 1000)
        cr_assert(inf_d > count / 10 && inf_r > count / 20, "n=1000: %zu infinities in d, %zu in r", inf_d, inf_r);
    free(got);
    free(d);
    free(ref);
    remove(path);
    rmdir(dir);
}

/* Chapter 5's own columns: preprocessing time (v2 and later) and the speedup over v0 (the reference row and
 * the numbers every chapter has are tests/test_chapters.c's). */
Test(ch5, WBT_WHOSE(json_has_prep_time_and_speedup), .timeout = 120)
{
    static char out[WBT_OUT_MAX];
    int rc;
    json_t *lines = wbt_table_json(".", 5, out, &rc);
    cr_assert_eq(rc, 0, "%s", out);
    size_t i;
    json_t *o;
    json_array_foreach(lines, i, o)
    {
        /* Only v2 and later have preprocessing (padding and transposing), timed apart from the kernel. */
        json_t *prep = json_object_get(o, "prep_ms");
        if (i >= 3)
            cr_assert(json_is_number(prep) && json_number_value(prep) > 0, "row %zu: prep_ms", i);
        else
            cr_assert(json_is_null(prep), "row %zu: prep_ms should be null", i);
        if (i >= 1) cr_assert_str_eq(json_string_value(json_object_get(o, "verdict")), "PASS");
    }
    cr_assert_float_eq(json_number_value(json_object_get(json_array_get(lines, 1), "speedup")), 1.0, 1e-9);
    json_decref(lines);
}
