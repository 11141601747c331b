/*
 * test_testrun.c — `make test`'s own run (scripts/test.sh and scripts/test-progress.sh, issues 35 and 39): a
 * clone others cannot pass gets a TMPDIR of its own in /tmp, removed after; the runner's failure is make test's,
 * an entry the suite leaves in the watched /tmp fails it under either rule, REQUIRE_GPU=1 fails on a skipped GPU
 * test; nobody else's writes or removals in /tmp fail a run; a line per suite once it is done. A fake runner
 * plays Criterion. (Moved out of test_makefile.c, which keeps the build itself.)
 */
#include "wbtest.h"

static char out[WBT_OUT_MAX];

/* A clone under a 0700 folder (root's home): the runs cannot reach its build/tmp, so the run's TMPDIR is a
 * folder of its own in /tmp that others may pass, removed after the run (else the grader's and the tests'
 * fallbacks left wb-grade.* and wbtest.* in /tmp, seen on the H100). The run's leftover check only warns here
 * (TMP_CHECK=0): the real /tmp is watched, where the test beside this one makes and removes /tmp/wb-test.* folders
 * of its own runs whenever its folder is closed too (a user's 0700 home: the release as wbt failed on one); this
 * test checks its own folder's removal itself. */
Test(testrun, in_a_closed_clone_uses_a_passable_tmpdir_and_removes_it, .timeout = 60)
{
    char dir[512], root[512];
    wbt_tmpdir(dir, sizeof dir);
    cr_assert_not_null(getcwd(root, sizeof root));
    int rc = wbt_run(out,
                     "set -e; cd '%1$s'; mkdir -m 700 closed; cat > closed/runner <<'X'\n"
                     "#!/bin/sh\n"
                     "for a; do case $a in --tap=*) tap=${a#--tap=} ;; --list) exit 0 ;; esac; done\n"
                     "echo \"TMPDIR=$TMPDIR\"; stat -c %%a \"$TMPDIR\"; echo 'ok 1 - a' > \"$tap\"\n"
                     "X\n"
                     "chmod +x closed/runner; cd closed && env TMP_CHECK=0 REQUIRE_GPU=0 '%2$s/scripts/test.sh' ./runner t.tap tmp 2>&1",
                     dir, root);
    cr_assert_eq(rc, 0, "%s", out);
    char *t = strstr(out, "TMPDIR=/tmp/wb-test.");
    cr_assert_not_null(t, "the run's TMPDIR is not a folder of its own in /tmp:\n%s", out);
    cr_expect(strstr(out, "\n711\n"), "its mode is not 0711:\n%s", out);
    char path[256];
    cr_assert_eq(sscanf(t, "TMPDIR=%255s", path), 1);
    cr_expect(access(path, F_OK) != 0, "%s was not removed after the run", path);
    wbt_run(out, "rm -rf '%s'", dir);
}

/* The fake Criterion runner of the tests of scripts/test.sh: --list names two suites; a run writes a TAP
 * with the skips of $SKIPS and Criterion's --verbose lines of one test, leaves $LEAVE in the watched folder,
 * sleeps $SLEEP seconds, exits $RC. */
static void fake_runner(const char *dir)
{
    int rc = wbt_run(out,
                     "set -e; mkdir -p '%1$s/watch'; cat > '%1$s/runner' <<'X'\n"
                     "#!/bin/sh\n"
                     "tap=; for a; do case $a in --tap=*) tap=${a#--tap=} ;; --list) printf 'a: 1 test\\n|-- x\\nb: 2 tests\\n'; exit 0 ;; esac; done\n"
                     "echo 'ok 1 - a::x' > \"$tap\"; for s in $SKIPS; do echo \"ok 2 - b::y # SKIP $s\" >> \"$tap\"; done\n"
                     "echo '[RUN ] a::x' >&2; echo '[PASS] a::x: (0.00s)' >&2\n"
                     "[ -z \"$LEAVE\" ] || touch \"$TMP_WATCH/$LEAVE\"; [ -d \"$TMPDIR\" ] || exit 9; sleep ${SLEEP:-0}; exit ${RC:-0}\n"
                     "X\n"
                     "chmod +x '%1$s/runner'",
                     dir);
    cr_assert_eq(rc, 0, "%s", out);
}

/* make test's run (scripts/test.sh): the runner's failure is make test's; an entry the suite leaves in the
 * watched /tmp fails a passing run under either rule (TMP_CHECK=0 only warns), and the rule in force is
 * said; the counts and the skips are listed on every run, failed or not; REQUIRE_GPU=1 turns a skipped GPU
 * test into a failure, another skip only into a line; a skip whose reason stops at its colon fails; a line per suite as it ends. A fake runner plays
 * Criterion. */
Test(testrun, fails_on_tmp_leftovers_and_required_gpu_skips, .timeout = 60)
{
    char dir[512];
    wbt_tmpdir(dir, sizeof dir);
    fake_runner(dir);
    static const struct {
        const char *env;
        int rc;
        const char *says;
    } cases[] = {
        {"", 0, "skipped: none"},
        {"", 0, "[1/2 suites, 0:0"}, /* whole seconds so far, which a loaded machine turns over */
        {"", 0, " so far] a: 1 test: 1 passed\n"},
        {"", 0, "summary: 1 tests: 1 passed, 0 failed, 0 skipped"},
        {"RC=1", 1, "skipped: none"},
        {"RC=1 SKIPS=slurm", 1, "1 slurm"},
        {"LEAVE=x1", 1, "left new entries in"},
        {"LEAVE=x2 TMP_CHECK=0", 0, "left new entries in"},
        {"LEAVE=x3 TMP_PRIVATE=0", 1, "left new entries in"},
        {"TMP_PRIVATE=0", 0, "is shared (TMP_PRIVATE=0): only new entries in it owned by uid"},
        {"SKIPS=slurm", 0, "skipped: 1 tests, because:\n"},
        {"SKIPS=slurm REQUIRE_GPU=1", 0, "1 slurm"},
        {"SKIPS='slurm no_CUDA_device' REQUIRE_GPU=1", 1, "REQUIRE_GPU=1: 1 GPU test(s) skipped"},
        {"SKIPS=no_CUDA_device", 0, "1 no_CUDA_device"},
        {"SKIPS='slurm needs_a_GPU:'", 1, "a skip that does not say why: b::y "},
    };
    char root[512];
    cr_assert_not_null(getcwd(root, sizeof root));
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        /* make test's own TMP_CHECK and REQUIRE_GPU are in this test's environment: set both */
        int rc = wbt_run(out, "cd '%1$s' && env TMP_CHECK=1 REQUIRE_GPU=0 %2$s TMP_WATCH='%1$s/watch' '%3$s/scripts/test.sh' ./runner t.tap tmp 2>&1",
                         dir, cases[i].env, root);
        cr_assert_eq(rc, cases[i].rc, "%s: exit %d, not %d:\n%s", cases[i].env, rc, cases[i].rc, out);
        cr_assert(strstr(out, cases[i].says), "%s: no '%s' in\n%s", cases[i].env, cases[i].says, out);
        cr_assert(strstr(out, "make test: ") && (strstr(out, " is private to this run ") || strstr(out, " is shared (")),
                  "%s: the rule in force is not said:\n%s", cases[i].env, out);
    }
    wbt_run(out, "rm -rf '%s'", dir);
}

/* The folder of a run beside another process's writes (its fake runner, a watch/ for /tmp) and the workbook's
 * root; skipped unless root, which alone can start a writer of another uid. */
static void watched_tmp(char dir[512], char root[512])
{
    if (geteuid() != 0) cr_skip_test("needs root: a writer of another uid (the non-root case runs in CI as a user of its own)");
    wbt_tmpdir_open(dir, 512);
    fake_runner(dir);
    cr_assert_not_null(getcwd(root, 512));
}

/* Nobody else's files fail a run (issue 39): while another process writes into the watched /tmp, a clean
 * run passes and a run that leaves an entry still fails. As root, both rules: the private /tmp (any writer
 * outside it) and the shared one (a writer of another uid). Not as root, only the shared rule exists and a
 * writer can only be this uid, which that rule counts: CI's second run (as a user of its own, while root
 * writes into /tmp) and tests/release-e2e.sh show it there. */
Test(testrun, passes_while_another_process_writes_into_tmp, .timeout = 120)
{
    char dir[512], root[512];
    watched_tmp(dir, root);
    cr_assert_eq(wbt_run(out, "chmod 755 '%1$s' && chmod 1777 '%1$s/watch'", dir), 0, "%s", out);
    static const struct {
        const char *env, *writer;
        int rc;
    } cases[] = {
        {"", "", 0},
        {"LEAVE=mine", "", 1},
        {"TMP_PRIVATE=0", "setpriv --reuid=65534 --regid=65534 --clear-groups", 0},
        {"TMP_PRIVATE=0 LEAVE=mine", "setpriv --reuid=65534 --regid=65534 --clear-groups", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int rc = wbt_run(out,
                         "cd '%1$s' && rm -rf watch/* stop && "
                         "{ %4$s sh -c 'i=0; while [ ! -e stop ] && [ $i -lt 1000 ]; do i=$((i+1)); touch watch/other.$i; sleep 0.02; done' & } && "
                         "r=0; env TMP_CHECK=1 REQUIRE_GPU=0 SLEEP=1 %2$s TMP_WATCH='%1$s/watch' '%3$s/scripts/test.sh' ./runner t.tap tmp 2>&1 || r=$?; "
                         "touch stop; wait; echo \"others wrote $(ls watch | grep -c other)\"; exit $r",
                         dir, cases[i].env, root, cases[i].writer);
        cr_assert_eq(rc, cases[i].rc, "%s (writer: %s): exit %d, not %d:\n%s", cases[i].env, cases[i].writer, rc,
                     cases[i].rc, out);
        cr_assert_null(strstr(out, "others wrote 0\n"), "the other process wrote nothing during the run:\n%s", out);
        if (cases[i].rc) cr_assert(strstr(out, "left new entries in") && strstr(out, ": mine \n"), "%s", out);
        else cr_assert_null(strstr(out, "left new entries"), "another process's files were counted:\n%s", out);
    }
    wbt_run(out, "rm -rf '%s'", dir);
}

/* The same with a writer that removes what it wrote, 2,000 entries churned without pause: an entry listed and gone
 * before find reads its owner failed the shared rule's listing, and with it the run (seen in CI's release run:
 * "find: '/tmp/wb-e2e-other.…': No such file or directory"). Five runs, each listing twice: without find's
 * -ignore_readdir_race about one in three listings failed here. */
Test(testrun, passes_while_another_process_removes_files_in_tmp, .timeout = 120)
{
    char dir[512], root[512];
    watched_tmp(dir, root);
    int rc = wbt_run(out,
                     "cd '%1$s' && chmod 755 . && chmod 1777 watch && "
                     "{ setpriv --reuid=65534 --regid=65534 --clear-groups sh -c 'cd watch && touch $(seq 2000) && "
                     "while [ ! -e ../stop ]; do for i in $(seq 2000); do rm -f $i; touch $i; done; done' & } && "
                     "r=0; for k in 1 2 3 4 5; do env TMP_CHECK=1 TMP_PRIVATE=0 REQUIRE_GPU=0 TMP_WATCH='%1$s/watch' "
                     "'%2$s/scripts/test.sh' ./runner t.tap tmp 2>&1 || { r=$?; break; }; done; touch stop; wait; exit $r",
                     dir, root);
    cr_expect_eq(rc, 0, "a run failed while another process removed its files:\n%s", out);
    wbt_run(out, "rm -rf '%s'", dir);
}

/* make test's progress (scripts/test-progress.sh) on a --verbose log where a test's start is read after the
 * next suite's first (each test reports its own start; seen in a full run: "archive: 13 tests", "budget: 1
 * test" for 14 and 6): a suite's line waits until JOBS more tests have started, a line that came too early
 * is corrected at the end, and the per-test lines are left out while failures are kept. The time so far is
 * bash's whole seconds, which turn over at any moment of a 50 ms run (CI once read "0:01"): it is masked. */
Test(testrun, progress_reports_each_suite_once_done, .timeout = 30)
{
    int rc = wbt_run(out, "{ printf '%%s\\n' '[====] Running 2 tests from a:' '[RUN ] a::1' '[PASS] a::1' '[RUN ] b::1' '[PASS] b::1' "
                          "'[RUN ] a::2' '[PASS] a::2: (0.00s)' '[RUN ] b::2' '[SKIP] b::2: no GPU' "
                          "'[RUN ] c::1' '[RUN ] c::2' '[RUN ] c::3' '[PASS] c::1' '[----] a line of a test' '[PASS] c::2' "
                          "'[PASS] c::3' '[RUN ] a::3' '[FAIL] a::3: CRASH!' '[====] Synthesis: Tested: 7' "
                          "| CRITERION_JOBS=2 scripts/test-progress.sh 3; echo \"exit $?\"; } "
                          "| sed -E 's/[0-9]+:[0-9]{2} so far/M:SS so far/'");
    cr_assert_eq(rc, 0, "%s", out);
    const char *want = "[1/3 suites, M:SS so far] a: 2 tests: 2 passed\n"
                       "[2/3 suites, M:SS so far] b: 2 tests: 1 passed, 1 skipped\n"
                       "[----] a line of a test\n"
                       "[FAIL] a::3: CRASH!\n"
                       "[2/3 suites, M:SS so far] a: 3 tests: 2 passed, 1 FAILED (corrected: a test's start came late)\n"
                       "[3/3 suites, M:SS so far] c: 3 tests: 3 passed\n"
                       "[====] Synthesis: Tested: 7\n"
                       "exit 0\n";
    cr_assert_str_eq(out, want, "the progress lines:\n%s", out);
}
