/* The look-inside tool run whole (tests/test_inspect.c has its parsers and its occupancy formula): the make
 * targets without a GPU (their bad values, a wrapper nvcc, the no-GPU reason), and on a GPU: the sanitizer is
 * clean on chapter 1's solution and flags every planted bug, and the occupancy the tool computes equals
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor. */
#include <sys/stat.h>

#include "wbtest.h"

#include "rubric.h"

/* The test runner may itself run under make: keep the child make off its jobserver. */
#define MAKE "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory "

/* ---------------------------------------------------------------- the make targets */
static int has_gpu(void)
{
    static char out[WBT_OUT_MAX];
    return wbt_run(out, "./build/inspect gpu --check") == 0;
}

/* One test, so that two make runs never write the same build/look files at once. */
Test(inspect_make, targets_and_bad_values, .timeout = 600)
{
    static char out[WBT_OUT_MAX];
    int rc = wbt_run(out, MAKE "sass CH=1 SOLUTION=1 V=vector");
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strstr(out, "reverse_vector") && !strstr(out, "== kernel reverse_global"), "%s", out);
    cr_assert(strstr(out, "global load") && strstr(out, "128-bit"), "the int4 loads are counted as 128-bit:\n%s", out);

    rc = wbt_run(out, MAKE "resources CH=1 SOLUTION=1");
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strstr(out, "reverse_shared_static") && strstr(out, "limited by"), "%s", out);
    cr_assert(strstr(out, "registers") || strstr(out, "threads"), "%s", out);
    /* at sm_90 (no GPU here: the H100's limits; or an H100), reg-1d at its own 512 threads is 50 % */
    /* the references spill nothing at sm_90: a reference that spills teaches the opposite of its lesson. Every
     * chapter found from its folder (chapters 1-3's once took seconds each: their kernels are small). */
    char dirs[GR_MAX_CH][128], file[128];
    int n_ch = gr_chapters_scan(".", dirs, GR_MAX_CH);
    for (int c = 0, ch = 0; c < n_ch; c++) {
        cr_assert_eq(gr_chapter_dir_split(dirs[c], &ch, file, sizeof file), 0, "%s", dirs[c]);
        rc = wbt_run(out, MAKE "resources CH=%d SOLUTION=1", ch);
        cr_assert_eq(rc, 0, "%s", out);
        if (!strstr(out, "sm_90")) break;
        for (const char *r = strstr(out, "\n  "); r; r = strstr(r + 1, "\n  ")) {
            const char *e = strchr(r + 1, '\n');
            if (strncmp(r, "\n  kernel ", 10) == 0) continue;
            const char *z = strstr(r, " 0/0 ");
            /* the one measured exception, explained in handouts/ch4.md: without its spill it ran slower */
            if (strncmp(r, "\n  matmul_double_buffer ", 24) == 0) continue;
            cr_assert(z && e && z < e, "chapter %d: a reference kernel spills at sm_90:\n%.*s", ch, e ? (int)(e - r) : 200, r);
        }
    }
    rc = wbt_run(out, MAKE "resources CH=4 SOLUTION=1 V=reg-1d");
    cr_assert_eq(rc, 0, "%s", out);
    const char *row = strstr(out, "\n  matmul_reg1d "), *eol = row ? strchr(row + 1, '\n') : NULL;
    cr_assert(row && eol, "no reg-1d row:\n%s", out);
    cr_assert(strstr(row, " 512 ") && strstr(row, " 512 ") < eol, "reg-1d launches 512 threads:\n%s", out);
    if (strstr(out, "sm_90"))
        cr_assert(strstr(row, " 50%") && strstr(row, " 50%") < eol, "reg-1d at sm_90: 50 %%:\n%s", out);
    cr_assert_null(strstr(out, "wb_"), "the harness's kernels only with ALL=1:\n%s", out);

    rc = wbt_run(out, MAKE "sass CH=99");
    cr_assert_eq(rc, 2, "%s", out);
    cr_assert(strstr(out, "valid: 1"), "a bad CH lists the valid ones:\n%s", out);
    rc = wbt_run(out, MAKE "resources CH=");
    cr_assert_eq(rc, 2, "%s", out);
    /* the student release has no solutions/: SOLUTION=1 says so, not "valid: " and nothing */
    rc = wbt_run(out, MAKE "resources CH=4 SOLUTION=1 SOLUTIONS_PRESENT='   '"); /* the release: blanks */
    cr_assert_eq(rc, 2, "%s", out);
    cr_assert(strstr(out, "not part of the student release") && strstr(out, "leave SOLUTION=1 out"), "%s", out);
    rc = wbt_run(out, MAKE "sass CH=1 V=nope");
    cr_assert_eq(rc, 2, "%s", out);
    cr_assert(strstr(out, "valid: global shared-static shared-dynamic vector"), "%s", out);
    rc = wbt_run(out, MAKE "profile CH=1");
    cr_assert_eq(rc, 2, "profile without V lists the variants:\n%s", out);
    cr_assert(strstr(out, "global shared-static"), "%s", out);

    if (has_gpu()) return; /* the GPU tests below cover sanitize and profile there */
    rc = wbt_run(out, MAKE "sanitize CH=1");
    cr_assert_neq(rc, 0);
    cr_assert(strstr(out, "needs an NVIDIA GPU"), "%s", out);
    rc = wbt_run(out, MAKE "profile CH=1 V=global");
    cr_assert_neq(rc, 0);
    cr_assert(strstr(out, "needs an NVIDIA GPU"), "%s", out);
}

/* CI reaches nvcc through a wrapper script (/usr/local/bin/nvcc: `exec /usr/local/cuda-13.0/bin/nvcc`),
 * so the toolkit's headers are not beside the nvcc on PATH. The Makefile asks nvcc for its root instead;
 * here the one test object that includes a CUDA header is built, in a build folder of its own, with
 * nvcc reached through such a wrapper. */
Test(inspect_make, cuda_headers_found_through_a_wrapper_nvcc, .timeout = 300)
{
    static char out[WBT_OUT_MAX];
    char real[1024], dir[64], path[1100];
    if (wbt_run(real, "command -v nvcc") != 0) cr_skip_test("nvcc is not on PATH");
    real[strcspn(real, "\n")] = 0;
    wbt_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/nvcc", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fprintf(f, "#!/bin/sh\nexec '%s' \"$@\"\n", real);
    fclose(f);
    cr_assert_eq(chmod(path, 0755), 0);

    int rc = wbt_run(out, MAKE "BUILD=%s/build NVCC=%s %s/build/tests/test_inspect.o", dir, path, dir);
    cr_assert_eq(rc, 0, "building with nvcc through %s failed:\n%s", path, out);
    snprintf(path, sizeof path, "%s/build/tests/test_inspect.o", dir);
    cr_assert_eq(access(path, R_OK), 0, "no %s after the build:\n%s", path, out);
    wbt_run(out, "rm -rf '%s'", dir);
}

/* One probe, one wording: where there is no GPU, the look-inside tool and `make doctor` give the
 * reason of wb_device_probe (common/wb.h), the same words as the chapter programs; where there is one,
 * both find it usable. */
Test(inspect_make, no_gpu_reason_is_the_probes_in_inspect_and_doctor, .timeout = 300)
{
    static char out[WBT_OUT_MAX], doc[WBT_OUT_MAX];
    int rc = wbt_run(out, "./build/inspect gpu --check");
    if (rc == 0) { /* a GPU: both tools must agree that it is usable, and neither may invent a reason */
        cr_assert_eq(wbt_run(doc, "make --no-print-directory -s build/doctor && ./build/doctor"), 0, "%s", doc);
        cr_assert_not_null(strstr(doc, "usable:   yes"), "%s", doc);
        cr_assert_null(strstr(doc, "no CUDA device found"), "%s", doc);
        return;
    }
    cr_assert_eq(rc, 3, "%s", out);
    cr_assert_eq(wbt_run(doc, "make --no-print-directory -s build/doctor && ./build/doctor"), 3, "%s", doc);
    const char *why = strstr(out, "no CUDA device found: ");
    if (!why) why = strstr(out, "no usable CUDA device: ");
    cr_assert_not_null(why, "inspect does not give the probe's reason:\n%s", out);
    char reason[256];
    snprintf(reason, sizeof reason, "%.*s", (int)strcspn(why, "\n("), why);
    cr_assert_not_null(strstr(doc, reason), "doctor says otherwise than inspect ('%s'):\n%s", reason, doc);
    cr_assert_null(strstr(doc, "CUDA 0.0"), "%s", doc);
    cr_assert_null(strstr(out, "insufficient"), "%s", out);
}

/* ---------------------------------------------------------------- on a GPU */
static void require_gpu_or_skip(void)
{
    static char out[WBT_OUT_MAX];
    int rc = wbt_run(out, "./build/inspect gpu --check");
    if (rc == 3) {
        char line[256];
        cr_skip_test("needs a CUDA GPU: %s", wbt_first_line(out, line, sizeof line));
    }
    cr_assert_eq(rc, 0, "%s", out);
    if (wbt_run(out, "command -v compute-sanitizer") != 0) cr_skip_test("compute-sanitizer is not on PATH");
}

Test(inspect_gpu, sanitize_is_clean_on_chapter1_solution, .timeout = 600)
{
    static char out[WBT_OUT_MAX];
    require_gpu_or_skip();
    int rc = wbt_run(out, MAKE "sanitize CH=1 SOLUTION=1");
    cr_assert_eq(rc, 0, "%s", out);
    int lines = 0;
    for (const char *p = strstr(out, "  memcheck"); p; p = strstr(p + 1, "   clean   program PASS")) lines++;
    cr_assert_geq(lines, 16, "4 tools x 4 variants, each clean and PASS:\n%s", out);
}

Test(inspect_gpu, sanitize_flags_each_planted_bug, .timeout = 600)
{
    static char out[WBT_OUT_MAX];
    require_gpu_or_skip();
    char logs[64];
    wbt_tmpdir(logs, sizeof logs);
    int rc = wbt_run(out, "./build/inspect sanitize --program build/planted/inspect_bugs --logs %s", logs);
    cr_assert_eq(rc, 1, "findings must give exit 1:\n%s", out);
    /* On sm_90 synccheck does not report whole warps skipping __syncthreads(); racecheck sees the race. */
    static const char *const expect[][2] = {{"racecheck", "race"},
                                            {"memcheck", "out-of-bounds"},
                                            {"initcheck", "uninitialized"},
                                            {"racecheck", "divergent-barrier"},
                                            {"synccheck", "bad-syncwarp"}};
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
        char pat[96];
        snprintf(pat, sizeof pat, "  %-10s %-20s FOUND", expect[i][0], expect[i][1]);
        cr_assert(strstr(out, pat), "expected '%s' in:\n%s", pat, out);
    }
    static const char *const tools[] = {"memcheck", "racecheck", "synccheck", "initcheck"};
    for (size_t i = 0; i < 4; i++) {
        char pat[96];
        snprintf(pat, sizeof pat, "  %-10s %-20s clean", tools[i], "clean");
        cr_assert(strstr(out, pat), "the correct variant must be clean under %s:\n%s", tools[i], out);
    }
}

/* The tool's blocks/SM from ptxas -v and the GPU's properties equals what the CUDA runtime says for
 * the same kernels (tests/planted/inspect_occupancy.cu) at many block sizes and shared memory sizes. */
Test(inspect_gpu, resources_occupancy_equals_the_api, .timeout = 300)
{
    static char out[WBT_OUT_MAX], tool[WBT_OUT_MAX];
    require_gpu_or_skip();
    int rc = wbt_run(out, "./build/planted/inspect_occupancy");
    WBT_SKIP_IF_NO_GPU(rc, out);
    cr_assert_eq(rc, 0, "%s", out);
    int checked = 0, limiters_seen = 0;
    char *save = NULL;
    for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        json_error_t je;
        json_t *api = json_loads(line, 0, &je);
        cr_assert_not_null(api, "%s: %s", je.text, line);
        const char *kernel = json_string_value(json_object_get(api, "kernel"));
        int block = (int)json_integer_value(json_object_get(api, "block"));
        int dsmem = (int)json_integer_value(json_object_get(api, "dsmem"));
        int want = (int)json_integer_value(json_object_get(api, "api_blocks"));
        rc = wbt_run(tool, "./build/inspect resources --ptxas build/planted/inspect_occupancy.ptxas --block %d "
                           "--dsmem %d --json", block, dsmem);
        cr_assert_eq(rc, 0, "%s", tool);
        int found = 0;
        char *s2 = NULL;
        for (char *tl = strtok_r(tool, "\n", &s2); tl; tl = strtok_r(NULL, "\n", &s2)) {
            json_t *mine = json_loads(tl, 0, &je);
            cr_assert_not_null(mine, "%s", tl);
            if (strcmp(json_string_value(json_object_get(mine, "kernel")), kernel) == 0) {
                found = 1;
                cr_assert_eq(json_integer_value(json_object_get(mine, "regs")),
                             json_integer_value(json_object_get(api, "num_regs")), "%s: ptxas registers", kernel);
                cr_assert_eq(json_integer_value(json_object_get(mine, "smem")),
                             json_integer_value(json_object_get(api, "static_smem")), "%s: static smem", kernel);
                cr_assert_eq(json_integer_value(json_object_get(mine, "blocks_per_sm")), want,
                             "%s block=%d dsmem=%d: inspect says %lld blocks/SM (%s), the API %d", kernel, block,
                             dsmem, (long long)json_integer_value(json_object_get(mine, "blocks_per_sm")),
                             json_string_value(json_object_get(mine, "limiter")), want);
                const char *lim = json_string_value(json_object_get(mine, "limiter"));
                limiters_seen |= strstr(lim, "registers") ? 1 : 0;
                limiters_seen |= strstr(lim, "shared memory") ? 2 : 0;
                limiters_seen |= strstr(lim, "threads") ? 4 : 0;
                limiters_seen |= strstr(lim, "blocks/SM") ? 8 : 0;
            }
            json_decref(mine);
        }
        cr_assert(found, "inspect resources did not list %s", kernel);
        json_decref(api);
        checked++;
    }
    cr_assert_geq(checked, 50);
    cr_assert_eq(limiters_seen, 15, "each resource limits at least one configuration (seen: %d)", limiters_seen);
}
