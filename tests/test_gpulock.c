/* grading/gpu.h: a run takes the GPU's lock for itself unless its holder has it already (a benchmark
 * step's runs), shared or alone as asked, and says whether it must release it. Real flock(2)s on files in
 * a temporary folder; no GPU. */
#define _GNU_SOURCE 1
#include "wbtest.h"

#include "contract.h"
#include "gpu.h"

Test(gpulock, a_run_takes_the_lock_unless_its_holder_has_it)
{
    char dir[512];
    wbt_tmpdir(dir, sizeof dir);
    setenv("WB_GRADE_LOCK_DIR", dir, 1);
    gr_gpu_lock l;
    gr_gpu_lock_init(&l, 0);
    cr_expect_eq(gr_gpu_take_for_run(NULL, GR_LOCK_SHARED), 0, "no lock: nothing to release");
    cr_assert_eq(gr_gpu_take_for_run(&l, GR_LOCK_SHARED), 1);
    cr_expect_eq(l.held, GR_LOCK_SHARED);
    cr_expect_eq(gr_gpu_take_for_run(&l, GR_LOCK_ALONE), 0, "held already: taken again, it would be released mid-step");
    cr_expect_eq(l.held, GR_LOCK_SHARED);
    gr_gpu_release(&l);
    cr_assert_eq(gr_gpu_take_for_run(&l, GR_LOCK_ALONE), 1);
    cr_expect_eq(l.held, GR_LOCK_ALONE);
    gr_gpu_release(&l);
    cr_expect_eq(l.held, GR_LOCK_NONE);
}

/* A holder in a process of its own (forked before anyone holds the lock: a child keeps the locks of the
 * descriptors it inherits): takes the lock as `how`, appends its name to the log, holds it hold_ms. */
static void hold_in_child(const char *name, gr_lock_state how, const char *log, int hold_ms)
{
    if (fork()) return;
    gr_gpu_lock l;
    gr_gpu_lock_init(&l, 0);
    if (!gr_gpu_take_for_run(&l, how)) _exit(1);
    FILE *f = fopen(log, "a");
    fprintf(f, "%s ", name);
    fclose(f);
    usleep((useconds_t)hold_ms * 1000);
    gr_gpu_release(&l);
    _exit(0);
}

/* Phase-fair: untimed runs that arrive while a benchmark holds the GPU and four more benchmarks wait all go
 * before the next benchmark (racing the queued benchmarks for the turnstile, they waited for the queue to
 * drain: the GPU then idled while the newest entries of a class caught up). */
Test(gpulock, the_shared_runs_waiting_go_before_the_next_benchmark, .timeout = 30)
{
    char dir[512], log[600];
    wbt_tmpdir(dir, sizeof dir);
    setenv("WB_GRADE_LOCK_DIR", dir, 1);
    snprintf(log, sizeof log, "%s/order", dir);
    const char *who[] = {"A", "B1", "B2", "B3", "B4"};
    for (int i = 0; i < 5; i++) {
        hold_in_child(who[i], GR_LOCK_ALONE, log, i ? 100 : 500);
        usleep(50000);
    }
    hold_in_child("S1", GR_LOCK_SHARED, log, 100);
    hold_in_child("S2", GR_LOCK_SHARED, log, 100);
    int st, ok = 1;
    while (wait(&st) > 0) ok &= WIFEXITED(st) && WEXITSTATUS(st) == 0;
    cr_assert(ok, "every holder took the lock");
    char order[64] = "";
    FILE *f = fopen(log, "r");
    cr_assert(f && fgets(order, sizeof order, f));
    fclose(f);
    cr_expect(!strncmp(order, "A S1 S2 ", 8) || !strncmp(order, "A S2 S1 ", 8),
              "the benchmark holding it, both shared runs, then the benchmarks one at a time: %s", order);
}

/* A run out of GPU memory while it shared the GPU goes again alone; one that failed alone counts. */
Test(gpulock, only_a_shared_run_out_of_memory_goes_again_alone)
{
    cr_expect_eq(gr_gpu_retry_alone(1, WB_EXIT_NO_MEMORY, GR_LOCK_SHARED), 1);
    cr_expect_eq(gr_gpu_retry_alone(1, WB_EXIT_NO_MEMORY, GR_LOCK_ALONE), 0, "alone already: its own failure");
    cr_expect_eq(gr_gpu_retry_alone(1, WB_EXIT_NO_MEMORY, GR_LOCK_NONE), 0, "no lock: nothing makes it alone");
    cr_expect_eq(gr_gpu_retry_alone(1, WB_EXIT_CUDA, GR_LOCK_SHARED), 0, "another CUDA error is the program's");
    cr_expect_eq(gr_gpu_retry_alone(0, WB_EXIT_NO_MEMORY, GR_LOCK_SHARED), 0, "killed by a signal");
}

/* The fake workbook of tests/test_grading_e2e.c graded with its programs out of GPU memory (fakedrv.h):
 * the reference's first run in each folder (-DFAKE_OOM_ONCE: another run held the memory) costs the good
 * submission nothing; a student's program that never gets its memory (-DFAKE_OOM_ALWAYS) is graded, its
 * variants not passed. Every retry is logged. */
Test(gpulock, a_run_out_of_gpu_memory_beside_others_is_not_its_failure, .timeout = 300)
{
    wbt_skip_if_no_isolation();
    static char log[WBT_OUT_MAX];
    char dir[512], p[600];
    wbt_tmpdir(dir, sizeof dir);
    chmod(dir, 0755); /* the programs run as other users when the tests run as root */
    int rc = wbt_grade_fake(dir, "-DFAKE_OOM_ONCE", "", log);
    cr_assert_eq(rc, 0, "the reference's memory failure beside others is the GPU's state (exit %d):\n%s", rc, log);
    cr_expect(strstr(log, "reference") && strstr(log, "once more alone on the GPU"), "no retry logged:\n%s", log);
    snprintf(p, sizeof p, "%s/out/grading.json", dir);
    json_t *g = json_load_file(p, 0, NULL);
    cr_assert_not_null(g, "%s", p);
    json_t *ch = json_array_get(json_object_get(g, "chapters"), 0);
    cr_expect_float_eq(json_number_value(json_object_get(ch, "score")),
                       json_number_value(json_object_get(ch, "max_score")), 1e-9, "good lost points:\n%s", log);
    json_decref(g);
    wbt_run(log, "chmod -R u+w %s; rm -rf %s/*", dir, dir);

    rc = wbt_grade_fake(dir, "", "-DFAKE_OOM_ALWAYS", log);
    cr_expect(strstr(log, "student") && strstr(log, "once more alone on the GPU"), "no retry logged:\n%s", log);
    g = json_load_file(p, 0, NULL);
    cr_assert_not_null(g, "%s\n%s", p, log);
    cr_expect_str_eq(json_string_value(json_object_get(g, "status")), "graded", "%s", log);
    ch = json_array_get(json_object_get(g, "chapters"), 0);
    cr_expect_lt(json_number_value(json_object_get(ch, "score")), json_number_value(json_object_get(ch, "max_score")),
                 "out of memory alone costs the student:\n%s", log);
    json_decref(g);
    wbt_run(log, "chmod -R u+w %s; rm -rf %s", dir, dir);
}

/* On a GPU (issue 43): a class of three copies of the references and a memory hog (chapter 1's launcher
 * takes all free GPU memory but 256 MiB and holds it for its process: every untimed run of it), four
 * graders on one GPU. Every copy is graded with full marks and nothing caught: a run that met the hog's
 * allocation went again alone. The same measured at class scale: tests/gpu-scale.sh hog. */
Test(gpulock_gpu, a_memory_hog_costs_no_other_entry_anything, .timeout = 600)
{
    static char out[WBT_OUT_MAX];
    wbt_require_gpu();
    wbt_skip_if_no_isolation();
    char dir[512], p[700];
    wbt_tmpdir(dir, sizeof dir);
    chmod(dir, 0755);
    snprintf(p, sizeof p, "%s/hog.txt", dir);
    FILE *f = fopen(p, "w");
    cr_assert_not_null(f);
    fputs("    static void *hog = NULL;\n    if (!hog) {\n        size_t free_b = 0, total_b = 0;\n"
          "        cudaMemGetInfo(&free_b, &total_b);\n"
          "        if (free_b > ((size_t)256 << 20)) cudaMalloc(&hog, free_b - ((size_t)256 << 20));\n    }\n",
          f);
    fclose(f);
    int rc = wbt_run(out, "mkdir -p %1$s/class && for e in a b c hog; do cp -r solutions %1$s/class/$e; done && "
                          "f=%1$s/class/hog/01-reversal/reversal.cu && "
                          "sed -i '/BEGIN TODO(shared-dynamic-launch)/r %1$s/hog.txt' $f && "
                          "grep -q 'cudaMalloc(&hog' $f && chmod -R a+rX %1$s",
                     dir);
    cr_assert_eq(rc, 0, "%s", out);
    rc = wbt_run(out, "./build/course --class %1$s/class --ch 1 --jobs 4 --out %1$s/out > %1$s/log 2>&1", dir);
    cr_expect(rc == 0 || rc == 1, "build/course exit %d: see %s/log", rc, dir);
    for (const char *e = "a\0b\0c\0"; *e; e += 2) {
        snprintf(p, sizeof p, "%s/out/%s/grading.json", dir, e);
        json_t *g = json_load_file(p, 0, NULL);
        cr_assert_not_null(g, "%s missing: see %s/log", p, dir);
        cr_expect_str_eq(json_string_value(json_object_get(g, "status")), "graded", "%s", p);
        double score = json_number_value(json_object_get(g, "score"));
        cr_expect_float_eq(score, json_number_value(json_object_get(g, "max_score")), 1e-9,
                           "%s lost points beside the hog: see %s/log", e, dir);
        json_decref(g);
    }
    wbt_run(out, "grep -c 'once more alone on the GPU' %s/log", dir);
    cr_log_info("retries alone: %s", out);
}
