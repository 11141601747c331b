/* Which GPUs the grader may use (grading/gpu.h) as CUDA_VISIBLE_DEVICES names them, the one reading of
 * TMPDIR for the grader's own folders (gr_tmpdir, grading/gr_util.h), and names made safe for a file
 * (gr_safe_name) as each of its callers made them before it. Each test runs in a process of its own, so its
 * setenv stays there. */
#include "wbtest.h"

#include <fcntl.h>

#include "refctr.h"
#include "gpu.h"

Test(gpu_ids, cuda_visible_devices_names_the_gpus_and_their_ids)
{
    char id[64];
    setenv("CUDA_VISIBLE_DEVICES", "2,GPU-4f1c-aa,5", 1);
    cr_expect_eq(gr_gpu_count(), 3);
    const char *want[] = {"2", "GPU-4f1c-aa", "5"};
    for (int k = 0; k < 3; k++) {
        gr_gpu_id(k, id, sizeof id);
        cr_expect_str_eq(id, want[k], "GPU %d", k);
    }
    gr_gpu_id(3, id, sizeof id);
    cr_expect_str_eq(id, "3", "past the list: the index itself");
    setenv("CUDA_VISIBLE_DEVICES", "1", 1);
    cr_expect_eq(gr_gpu_count(), 1);
    gr_gpu_id(0, id, sizeof id);
    cr_expect_str_eq(id, "1");
}

Test(gpu_ids, without_cuda_visible_devices_an_id_is_its_index)
{
    char id[64];
    unsetenv("CUDA_VISIBLE_DEVICES");
    gr_gpu_id(1, id, sizeof id);
    cr_expect_str_eq(id, "1");
    setenv("CUDA_VISIBLE_DEVICES", "", 1);
    gr_gpu_id(0, id, sizeof id);
    cr_expect_str_eq(id, "0", "an empty list is no list");
}

Test(gpu_ids, tmpdir_is_an_absolute_tmpdir_else_tmp)
{
    setenv("TMPDIR", "/var/x", 1);
    cr_expect_str_eq(gr_tmpdir(), "/var/x");
    setenv("TMPDIR", "build/tmp", 1);
    cr_expect_str_eq(gr_tmpdir(), "/tmp", "a relative TMPDIR");
    setenv("TMPDIR", "", 1);
    cr_expect_str_eq(gr_tmpdir(), "/tmp");
    unsetenv("TMPDIR");
    cr_expect_str_eq(gr_tmpdir(), "/tmp");
}

/* The three loops gr_safe_name replaced, as they were: grade.c's report folder (then never empty nor hidden),
 * evidence.c's counters cache name and gpu.c's lock name, each keeping its own characters. */
static void old_report_folder(const char *in, char *out, size_t len)
{
    size_t k = 0;
    for (const char *p = in; *p && k + 1 < len; p++)
        out[k++] = (isalnum((unsigned char)*p) || *p == '-' || *p == '_' || *p == '.') ? *p : '_';
    out[k] = 0;
    if (!k || out[0] == '.') snprintf(out, len, "_%s", in[0] ? "x" : "empty");
}

static void old_in_place(char *s, const char *keep)
{
    for (char *p = s; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr(keep, *p)) *p = '_';
}

Test(gr_util, safe_name_makes_each_callers_old_name)
{
    const char *tricky[] = {"a/b/../c", ".hidden", "..", "/", "", "x y\tz", "caf\xc3\xa9 \xff", "GPU-4f1c.aa_b",
                            "=1+1;rm -rf *", "-"};
    char want[64], got[64], id[64], path[256];
    for (size_t i = 0; i < sizeof tricky / sizeof *tricky; i++) {
        const char *in = tricky[i];
        old_report_folder(in, want, sizeof want);
        if (!gr_safe_name(got, sizeof got, in, "-_.") || got[0] == '.')
            snprintf(got, sizeof got, "_%s", in[0] ? "x" : "empty"); /* grade.c's rule after it */
        cr_expect_str_eq(got, want, "report folder of \"%s\"", in);
        cr_expect_eq(gr_safe_name(got, 4, in, "-_."), strlen(in) < 3 ? strlen(in) : 3, "cut to fit 4 bytes");
        /* the counters cache: the whole name built, then made safe in place */
        cr_assert_eq(gr_ctr_cache_name(in, 0xabcull, 4, in, "64x64", got, sizeof got), 0);
        snprintf(want, sizeof want, "%s_%016llx_ch4_%s_64x64.csv", in, 0xabcull, in);
        old_in_place(want, ".-");
        cr_expect_str_eq(got, want, "counters cache name of \"%s\"", in);
        /* the GPU's lock: its CUDA_VISIBLE_DEVICES entry made safe in place (a comma would split the entry) */
        if (!in[0] || strchr(in, ',')) continue;
        setenv("CUDA_VISIBLE_DEVICES", in, 1);
        setenv("WB_GRADE_LOCK_DIR", "/locks", 1);
        gr_gpu_lock l;
        gr_gpu_lock_init(&l, 0);
        snprintf(id, sizeof id, "%s", in);
        old_in_place(id, "-");
        snprintf(path, sizeof path, "/locks/wb-grade-gpu%s.lock", id);
        cr_expect_str_eq(l.path, path, "lock of GPU \"%s\"", in);
    }
    snprintf(got, sizeof got, "a.b/c");
    cr_expect_eq(gr_safe_name(got, sizeof got, got, ""), 5);
    cr_expect_str_eq(got, "a_b_c", "in place, nothing kept but letters and digits");
}

/* The log's text, "" where there is none yet. */
static void keeper_log(const char *root, char *buf, size_t len)
{
    char p[PATH_MAX + 16];
    snprintf(p, sizeof p, "%s/build/log", root);
    FILE *f = fopen(p, "r");
    size_t n = f ? fread(buf, 1, len - 1, f) : 0;
    buf[n] = 0;
    if (f) fclose(f);
}

/* Waits up to 5 s for the log to read `want`. */
static int keeper_log_reads(const char *root, const char *want)
{
    char buf[64];
    for (int i = 0; i < 500; i++, usleep(10000)) {
        keeper_log(root, buf, sizeof buf);
        if (!strcmp(buf, want)) return 1;
    }
    return 0;
}

/* gr_gpu_keep starts ROOT/build/gpu-keeper with the pipe as its stdin and lets it go by closing it; none where it
 * is not built. A stand-in script records its start and its stdin's end. */
Test(gpu_ids, the_keeper_runs_until_its_pipe_closes)
{
    char root[PATH_MAX], p[PATH_MAX + 32];
    wbt_tmpdir(root, sizeof root);
    cr_expect_eq(gr_gpu_keep(root), -1, "nothing built: nothing started");
    snprintf(p, sizeof p, "%s/build", root);
    cr_assert_eq(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/build/gpu-keeper", root);
    FILE *f = fopen(p, "w");
    cr_assert_not_null(f);
    /* its own outputs closed and its wait bounded: a fault (a pipe it holds itself) fails the test, never hangs it */
    fputs("#!/bin/sh\nlog=\"$(dirname \"$0\")/log\"\nexec > /dev/null 2>&1\necho started > \"$log\"\n"
          "timeout 10 cat > /dev/null\necho ended >> \"$log\"\n", f);
    fclose(f);
    cr_assert_eq(chmod(p, 0755), 0);
    int fd = gr_gpu_keep(root);
    cr_assert_geq(fd, 0, "a keeper built: its pipe");
    cr_expect(fcntl(fd, F_GETFD) & FD_CLOEXEC, "a grader's runs must not inherit the pipe (it would outlive the grader)");
    cr_expect(keeper_log_reads(root, "started\n"), "the keeper started");
    usleep(200000);
    char buf[64];
    keeper_log(root, buf, sizeof buf);
    cr_expect_str_eq(buf, "started\n", "held while the pipe is open");
    close(fd);
    cr_expect(keeper_log_reads(root, "started\nended\n"), "let go when the pipe closes");
}
