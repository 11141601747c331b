/* The Slurm engine against a real Slurm: tests/slurm/cluster.sh starts munged, slurmctld and slurmd as a
 * single-node cluster under a temporary folder; a class of the fake workbook (as tests/test_grading_e2e.c
 * grades it locally) goes through `course --class … --engine slurm`, and its grades.csv must equal the
 * local engine's. The fixture stops every daemon and removes the folder even when an assertion fails.
 * Where Slurm cannot start (not root, not installed, daemons fail) the test skips with the reason. */
#define _GNU_SOURCE 1
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "wbtest.h"

#include "gr_util.h"

static char dir[64];
static void setup(void) { wbt_tmpdir(dir, sizeof dir); }
static void teardown(void)
{
    static char out[WBT_OUT_MAX];
    if (!dir[0]) return;
    wbt_run(out, "tests/slurm/cluster.sh stop %s", dir);
    wbt_run(out, "rm -rf %s", dir);
}
TestSuite(slurm, .init = setup, .fini = teardown);

static char *slurp(const char *fmt, const char *a)
{
    char p[512];
    snprintf(p, sizeof p, fmt, a);
    char *t = gr_read_capped(p, 1 << 20, NULL);
    cr_assert_not_null(t, "no %s", p);
    return t;
}

/* The single-node cluster under dir, or the test skipped with cluster.sh's reason (exit 77). */
static void cluster_start(char *out)
{
    wbt_skip_if_no_isolation(); /* the tests on this cluster grade, or run make check */
    char line[256];
    int rc = wbt_run(out, "timeout 1000 tests/slurm/cluster.sh start %s", dir);
    if (rc == 77) {
        const char *last = out, *p;
        for (p = out; (p = strchr(p, '\n')) && p[1]; p++) last = p + 1;
        cr_skip_test("no Slurm here: %s", wbt_first_line(last, line, sizeof line));
    }
    cr_assert_eq(rc, 0, "cluster.sh start: exit %d\n%s", rc, out);
}

/* One cluster at a time (cluster.sh waits for the other test's to stop): hence time limits that allow for
 * the wait. */
Test(slurm, a_class_on_a_real_single_node_cluster_grades_as_the_local_engine, .timeout = 1200)
{
    static char out[WBT_OUT_MAX];
    char grade[PATH_MAX], subs[PATH_MAX];
    chmod(dir, 0755); /* the programs run as nobody when the tests run as root */
    cr_assert_not_null(realpath("build/course", grade), "build/course is not built");
    cr_assert_not_null(realpath("build/cases/bugs/ch9", subs));
    cluster_start(out);
    /* the class: two folders and an archive whose name needs quoting */
    int rc = wbt_run(out, "mkdir %s/wb && cp -r tests/grading/fake/. %s/wb/ && cp common/*.h %s/wb/common/ && "
                      "make -s -C %s/wb build/grading-flags.json build/solution9 && "
                      "mkdir %s/class && cp -r %s/good %s/off-by %s/class/ && (cd %s/good && tar -czf '%s/class/lee, ann.tar.gz' .) "
                      "&& chmod -R a+rX %s",
                 dir, dir, dir, dir, dir, subs, subs, dir, subs, dir, dir);
    cr_assert_eq(rc, 0, "%s", out);
    rc = wbt_run(out, "cd %s/wb && export WB_GRADE_LOCK_DIR=$PWD && PATH=%s/wb/bin:$PATH %s --class %s/class --out %s/local --seeds 5 --jobs 2 --rubric rubric.json > %s/local.log 2>&1",
                 dir, dir, grade, dir, dir, dir);
    cr_assert_eq(rc, 0, "local engine: exit %d (see local.log)", rc);
    rc = wbt_run(out, "cd %s/wb && export WB_GRADE_LOCK_DIR=$PWD && export SLURM_CONF=%s/slurm.conf && PATH=%s/wb/bin:$PATH timeout 150 %s --class %s/class "
                      "--engine slurm --out %s/slurm-out --seeds 5 --rubric rubric.json --time 5",
                 dir, dir, dir, grade, dir, dir);
    cr_assert_eq(rc, 0, "slurm engine: exit %d\n%s", rc, out);
    cr_expect_not_null(strstr(out, "3 task(s)"), "%s", out);
    char *want = slurp("%s/local/grades.csv", dir), *got = slurp("%s/slurm-out/grades.csv", dir);
    cr_expect_str_eq(got, want, "grades.csv of ENGINE=slurm:\n%s\ndiffers from ENGINE=local's:\n%s", got, want);
    cr_expect_not_null(strstr(got, "\"lee, ann\","), "%s", got);
    free(want);
    free(got);
    /* the array's accounting (jobcomp/filetxt: this cluster keeps no accounting database) */
    wbt_run(out, "grep -h 'Name=wb-grade' %s/jobcomp.txt | sed -E 's/.*(JobId=[0-9]+).*(Name=[^ ]+).*(JobState=[^ ]+).*"
                 "(ArrayJobId=[0-9]+ ArrayTaskId=[0-9]+|$).*/\\1 \\2 \\3 \\4/'",
            dir);
    cr_expect_not_null(strstr(out, "JobState=COMPLETED"), "%s", out);
    /* resumable: a rerun with everything graded submits no array, only the merge */
    rc = wbt_run(out, "cd %s/wb && export WB_GRADE_LOCK_DIR=$PWD && export SLURM_CONF=%s/slurm.conf && PATH=%s/wb/bin:$PATH timeout 60 %s --class %s/class "
                      "--engine slurm --out %s/slurm-out --seeds 5 --rubric rubric.json --time 5",
                 dir, dir, dir, grade, dir, dir);
    cr_expect_eq(rc, 0, "%s", out);
    cr_expect_not_null(strstr(out, "nothing left to grade"), "%s", out);
}

/* The merge job (`course --merge`, what the Slurm engine runs after its array) on a class whose task for
 * one entry never finished: that entry gets an empty cell with the reason, the class its pages, and the
 * exit code says an entry was not graded (it said 0 and made no pages). No cluster needed. */
Test(slurm, the_merge_job_says_an_entry_was_not_graded_and_makes_the_pages, .timeout = 600)
{
    wbt_skip_if_no_isolation();
    static char out[WBT_OUT_MAX];
    char grade[PATH_MAX], subs[PATH_MAX];
    chmod(dir, 0755); /* the programs run as nobody when the tests run as root */
    cr_assert_not_null(realpath("build/course", grade), "build/course is not built");
    cr_assert_not_null(realpath("build/cases/bugs/ch9", subs));
    int rc = wbt_run(out, "mkdir %s/wb && cp -r tests/grading/fake/. %s/wb/ && cp common/*.h %s/wb/common/ && "
                          "make -s -C %s/wb build/grading-flags.json build/solution9 && "
                          "mkdir %s/class && cp -r %s/good %s/off-by %s/class/ && chmod -R a+rX %s",
                     dir, dir, dir, dir, dir, subs, subs, dir, dir);
    cr_assert_eq(rc, 0, "%s", out);
    rc = wbt_run(out, "cd %s/wb && export WB_GRADE_LOCK_DIR=$PWD && %s --class %s/class --out %s/out --seeds 5 --jobs 2 "
                      "--rubric rubric.json > %s/local.log 2>&1 && rm %s/out/off-by/grading.json",
                 dir, grade, dir, dir, dir, dir);
    cr_assert_eq(rc, 0, "the class graded here: exit %d (see local.log)", rc);
    rc = wbt_run(out, "cd %s/wb && %s --merge --class %s/class --out %s/out --rubric rubric.json 2>&1 >/dev/null", dir, grade,
                 dir, dir);
    cr_expect_eq(rc, 1, "the merge exits %d, not 1 (an entry not graded):\n%s", rc, out);
    cr_expect_not_null(strstr(out, "1 of 2 entries not graded"), "%s", out);
    cr_expect_not_null(strstr(out, "its Slurm task did not finish"), "%s", out);
    char *csv = slurp("%s/out/grades.csv", dir);
    cr_expect_not_null(strstr(csv, "its Slurm task did not finish"), "grades.csv gives no reason:\n%s", csv);
    free(csv);
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/out/class.html", dir);
    cr_expect_eq(access(p, R_OK), 0, "the merge made no class.html");
}

/* The real workbook on the GPU: a class of twelve (folders, .tar.gz and .zip archives, names an LMS
 * writes: a comma, two spaces, accents) graded by the local engine and by Slurm, with the same grades.
 * Skips without a GPU, and where Slurm cannot start. */
Test(slurm, a_class_on_the_gpu_grades_the_same_through_slurm, .timeout = 1200)
{
    wbt_skip_if_no_isolation();
    static char out[WBT_OUT_MAX];
    wbt_require_gpu();
    chmod(dir, 0755);
    cluster_start(out);
    int rc;
    const char *S = "build/cases/bugs/ch1";
    rc = wbt_run(out,
                 "set -e; c=%s/class; mkdir $c; "
                 "for s in ok-solution off-by-one mangled unrounded-grid oob-read trap untouched-starter outside-edits; "
                 "do cp -r %s/$s $c/; done; "
                 "cp -r %s/compile-error \"$c/lee  ann\"; "
                 "(cd %s/fake-pass && tar -czf \"$c/lee, ann.tar.gz\" .); "
                 "(cd %s/read-solution && tar -cf \"$c/plain.tar\" .); "
                 "(cd %s/forged-time && python3 -c 'import sys,zipfile,os\n"
                 "z=zipfile.ZipFile(sys.argv[1],\"w\")\n"
                 "[z.write(os.path.join(r,f)) for r,_,fs in os.walk(\".\") for f in fs]' \"$c/Zoë Ångström.zip\"); "
                 "chmod -R a+rX %s",
                 dir, S, S, S, S, S, dir);
    cr_assert_eq(rc, 0, "%s", out);
    const char *args = "--rubric tests/grading/rubric-ch1.json --no-perf --no-sanitizer --seeds 7";
    rc = wbt_run(out, "./build/course --class %s/class --out %s/local %s --jobs 8 > %s/local.log 2>&1", dir, dir, args, dir);
    cr_assert_eq(rc, 0, "local engine: exit %d (see %s/local.log)", rc, dir);
    rc = wbt_run(out, "export SLURM_CONF=%s/slurm.conf && timeout 600 ./build/course --class %s/class --engine slurm "
                      "--out %s/slurm-out %s --time 10",
                 dir, dir, dir, args);
    cr_assert_eq(rc, 0, "slurm engine: exit %d\n%s", rc, out);
    char *want = slurp("%s/local/grades.csv", dir), *got = slurp("%s/slurm-out/grades.csv", dir);
    int rows = 0;
    for (char *c = want; *c; c++) rows += *c == '\n';
    cr_expect_eq(rows, 13, "a header and twelve students:\n%s", want);
    cr_expect_str_eq(got, want, "grades.csv of ENGINE=slurm:\n%s\ndiffers from ENGINE=local's:\n%s", got, want);
    for (const char *who = "lee, ann\0lee  ann\0Zoë Ångström\0plain\0ok-solution\0"; *who; who += strlen(who) + 1)
        cr_expect_not_null(strstr(want, who), "%s is not in grades.csv:\n%s", who, want);
    printf("grades.csv of the GPU class (local = slurm):\n%s", want);
    free(want);
    free(got);
    wbt_run(out, "grep -h 'Name=wb-grade' %s/jobcomp.txt | sed -E 's/.*(JobId=[0-9]+).*(Name=[^ ]+).*(JobState=[^ ]+).*"
                 "(ArrayJobId=[0-9]+ ArrayTaskId=[0-9]+|$).*/\\1 \\2 \\3 \\4/'",
            dir);
    printf("slurm jobs of the GPU class:\n%s", out);
}

/* A student on a login node (issue 39): `make chapter1 ENGINE=slurm` and `make check ENGINE=slurm` run on
 * the cluster's node through srun and print what a local run prints, its exit code included. This node
 * has no GPU (a GPU machine plays one: CUDA_VISIBLE_DEVICES=-1, which srun passes on), so the program's
 * "no CUDA device" line and its exit code 3 must come back, and make check's no-GPU conclusion (8). */
Test(slurm, a_chapter_and_make_check_run_on_a_node_and_bring_back_the_exit_code, .timeout = 1200)
{
    static char out[WBT_OUT_MAX];
    chmod(dir, 0755); /* the programs run as other users when the tests run as root */
    cluster_start(out);
#define SL_MAKE "export SLURM_CONF=%s/slurm.conf CUDA_VISIBLE_DEVICES=-1 && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory "
    int rc = wbt_run(out, SL_MAKE "chapter1 ENGINE=slurm TIME=5 2>&1", dir);
    cr_assert_neq(rc, 0, "%s", out);
    cr_assert(strstr(out, "srun ") && strstr(out, "./build/chapter1"), "not run through srun:\n%s", out);
    cr_assert(strstr(out, "\nno CUDA device found"), "the program's own line did not come back:\n%s", out);
    cr_assert(strstr(out, "chapter1] Error 3"), "the program's exit code 3 did not come back through srun and make:\n%s", out);
    rc = wbt_run(out, SL_MAKE "check CH=1 ENGINE=slurm TIME=5 OUT=%s/check 2>&1", dir, dir);
    cr_assert(strstr(out, "srun ") && strstr(out, "--check"), "not run through srun:\n%s", out);
    cr_assert(strstr(out, "\nnot checked here: correctness"), "make check's no-GPU conclusion did not come back:\n%s", out);
    cr_assert(strstr(out, "check] Error 8"), "make check's exit code (8: nothing found, no GPU) did not come back:\n%s", out);
    /* what the node wrote is where a local run writes it */
    char p[128];
    snprintf(p, sizeof p, "%s/check/grading.json", dir);
    cr_assert_eq(access(p, F_OK), 0, "no %s:\n%s", p, out);
#undef SL_MAKE
}

/* Issue 64: a class on Slurm makes the references' counters once, in a job of its own that the array waits for (on
 * tests/grading/slow-class.sh's fresh machine: a stand-in ncu that sleeps, no build/counters/), not per task; each task
 * reads them kept and derives its own profile's limit from them. Where each task made them, the fresh cluster's
 * first tasks each outlasted the 7.5 s that was once the reference's share of a student's budget. */
Test(slurm, the_reference_counters_are_made_once_before_the_array, .timeout = 1200)
{
    static char out[WBT_OUT_MAX];
    char grade[PATH_MAX];
    chmod(dir, 0755); /* the programs run as nobody when the tests run as root */
    cr_assert_not_null(realpath("build/course", grade), "build/course is not built");
    cluster_start(out);
    int rc = wbt_run(out, "mkdir %s/wb && tests/grading/slow-class.sh %s/wb 3 2", dir, dir);
    cr_assert_eq(rc, 0, "%s", out);
    rc = wbt_run(out, "cd %s/wb && export WB_GRADE_LOCK_DIR=$PWD && export SLURM_CONF=%s/slurm.conf && PATH=%s/wb/bin:$PATH "
                      "timeout 900 %s --class %s/wb/class --engine slurm --out %s/slurm-out --seeds 5 --rubric rubric.json "
                      "--time 15 2>&1",
                 dir, dir, dir, grade, dir, dir);
    cr_assert_eq(rc, 0, "slurm engine: exit %d\n%s", rc, out);
    const char *job = strstr(out, "slurm: reference counters job "), *array = strstr(out, "slurm: job array ");
    cr_expect(job && array && job < array && strstr(out, "2 task(s)"), "%s", out);
    wbt_run(out, "cat %s/slurm-out/slurm/round-*/counters.log", dir);
    cr_expect_not_null(strstr(out, "ch9 reference counters: 2 of 2 variants kept, 2 profiled now"), "%s", out);
    wbt_run(out, "cat %s/slurm-out/slurm/round-*/task-*.log", dir);
    int kept = 0, profiled = 0, limits = 0;
    for (const char *p = out; (p = strstr(p, "ch9 ref counters plus: ")); p++) {
        kept += !strncmp(p + 23, "kept, ", 6);
        profiled += p[23] >= '0' && p[23] <= '9';
    }
    for (const char *p = out; (p = strstr(p, "ch9 stu counters plus: limit ")); p++) limits++;
    cr_expect_eq(kept, 2, "each task reads the kept counters:\n%s", out);
    cr_expect_eq(profiled, 0, "a task profiled the reference:\n%s", out);
    cr_expect_eq(limits, 2, "each task's limit derived from them:\n%s", out);
}
