/* Chapter 5, min-plus product: every solution version at awkward sizes, checked bit for bit here,
 * independently of the program's own check, against a reference computed from the seed; the starter;
 * bad command lines; compute-sanitizer. */
#include <math.h>

#include "wbtest.h"

static const char *const variants[] = {"v0", "v1", "v2", "v3", "v4", "v5"};
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

struct run {
    const char *variant;
    long long n;
};

ParameterizedTestParameters(ch5, solution_variant_is_exact)
{
    enum { V = sizeof variants / sizeof variants[0], S = sizeof sizes / sizeof sizes[0] };
    static struct run runs[V * S];
    for (int v = 0; v < V; v++)
        for (int s = 0; s < S; s++) runs[v * S + s] = (struct run){variants[v], sizes[s]};
    return cr_make_param_array(struct run, runs, V * S);
}
ParameterizedTest(struct run *r, ch5, solution_variant_is_exact, .timeout = 180)
{
    static char out[WBT_OUT_MAX];
    char dir[64];
    wbt_tmpdir(dir, sizeof dir);
    unsigned long long seed = 5000 + (unsigned long long)r->n;
    int rc = wbt_run(out, WBT_SOLUTION "5 --variant %s --size %lld --seed %llu --reps 1 --warmup 0 --dump %s",
                     r->variant, r->n, seed, dir);
    WBT_SKIP_IF_NO_GPU(rc, out);
    cr_assert_eq(rc, WB_EXIT_PASS, "%s n=%lld: exit %d\n%s", r->variant, r->n, rc, out);

    /* The program's own check said PASS; compare its raw output here too, bit for bit. */
    char path[128];
    snprintf(path, sizeof path, "%s/%s_%lld.bin", dir, r->variant, r->n);
    int n = (int)r->n;
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

Test(ch5, starter_reports_todo_and_fails, .timeout = 120)
{
    WBT_SKIP_IN_STUDENT_RELEASE();
    static char out[WBT_OUT_MAX];
    int rc;
    json_t *lines = wbt_run_json(out, &rc, "./build/chapter5 --size 200 --reps 1 --warmup 0");
    cr_assert_eq(rc, WB_EXIT_WRONG, "the untouched starter must exit %d, got %d\n%s", WB_EXIT_WRONG, rc, out);
    /* v0 is the worked example the starter gives; the others are the student's. */
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        const char *verdict = wbt_verdict_of(lines, variants[v]);
        cr_assert_not_null(verdict, "no JSON line for %s", variants[v]);
        cr_assert_str_eq(verdict, v == 0 ? "PASS" : "TODO", "%s", variants[v]);
    }
    cr_assert(strstr(out, "TODO") && strstr(out, "FAIL"), "%s", out);
    json_decref(lines);
}

Test(ch5, json_has_reference_row_and_sane_numbers, .timeout = 120)
{
    static char out[WBT_OUT_MAX];
    int rc;
    json_t *lines = wbt_run_json(out, &rc, WBT_SOLUTION "5 --size 1100 --reps 3 --warmup 1");
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert_eq(json_array_size(lines), 1 + sizeof variants / sizeof variants[0], "speed-of-light row + every variant");
    size_t i;
    json_t *o;
    json_array_foreach(lines, i, o)
    {
        double ms = json_number_value(json_object_get(o, "median_ms"));
        double tp = json_number_value(json_object_get(o, "throughput"));
        cr_assert_gt(ms, 0.0);
        cr_assert_gt(tp, 0.0);
        cr_assert_str_eq(json_string_value(json_object_get(o, "unit")), "G steps/s");
        cr_assert_str_eq(json_string_value(json_object_get(o, "size")), "1100");
        /* Only v2 and later have preprocessing (padding and transposing), timed apart from the kernel. */
        json_t *prep = json_object_get(o, "prep_ms");
        if (i >= 3)
            cr_assert(json_is_number(prep) && json_number_value(prep) > 0, "row %zu: prep_ms", i);
        else
            cr_assert(json_is_null(prep), "row %zu: prep_ms should be null", i);
        if (i >= 1) cr_assert_str_eq(json_string_value(json_object_get(o, "verdict")), "PASS");
    }
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(lines, 0), "verdict")), "REFERENCE");
    cr_assert_float_eq(json_number_value(json_object_get(json_array_get(lines, 1), "speedup")), 1.0, 1e-9);
    json_decref(lines);
}

/* Bad command lines are refused before any GPU work, so these run without a GPU too. */
ParameterizedTestParameters(ch5, bad_usage)
{
    static const char *args[] = {"--size 0",      "--size -1",     "--size abc",   "--size 32769", "--size 2^16",
                                 "--size 4x4x4",  "--variant v6",  "--variant V1", "--frobnicate", "--reps 0",
                                 "--size",        "1000",          "--dump /nonexistent/dir"};
    return cr_make_param_array(const char *, args, sizeof args / sizeof args[0]);
}
ParameterizedTest(const char **args, ch5, bad_usage)
{
    wbt_assert_bad_usage(WBT_SOLUTION "5", *args);
}

Test(ch5, help_and_list_work_without_gpu)
{
    wbt_assert_help_and_list("./build/chapter5", variants, sizeof variants / sizeof variants[0]);
}

struct san {
    const char *tool, *variant;
};
ParameterizedTestParameters(ch5, sanitizer_clean)
{
    static const char *tools[] = {"memcheck", "racecheck", "synccheck"};
    enum { T = 3, V = sizeof variants / sizeof variants[0] };
    static struct san cases[T * V];
    for (int t = 0; t < T; t++)
        for (int v = 0; v < V; v++) cases[t * V + v] = (struct san){tools[t], variants[v]};
    return cr_make_param_array(struct san, cases, T * V);
}
ParameterizedTest(struct san *s, ch5, sanitizer_clean, .timeout = 300)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, WBT_SOLUTION "5 --size 65 --variant %s --reps 1 --warmup 0", s->variant);
    wbt_sanitize(s->tool, cmd);
}
