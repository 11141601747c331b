/* The sandbox runner with small hostile host programs (shell one-liners): each gets the right verdict,
 * the runner always comes back, and nothing the program started survives it. No GPU needed. Where
 * bubblewrap works here, its extra layer is checked too (hidden directories, read-only root). */
#define _GNU_SOURCE 1
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "wbtest.h"

#include "sandbox.h"

typedef struct {
    gr_run_opts o;
    const char *argv[8];
    char dir[64];
} box;

static void box_init(box *b, const char *script, double timeout)
{
    memset(b, 0, sizeof *b);
    wbt_tmpdir_open(b->dir, sizeof b->dir); /* its runs go as other uids */
    b->argv[0] = "/bin/sh";
    b->argv[1] = "-c";
    b->argv[2] = script;
    b->o.argv = b->argv;
    b->o.workdir = b->dir;
    b->o.timeout_s = timeout;
    b->o.cpu_s = 30;
    b->o.fsize = 8 << 20;
    b->o.disk = 16 << 20;
    b->o.nproc = 64;
    b->o.out_cap = 4096;
}

static int alive(pid_t pid) { return kill(pid, 0) == 0 || errno == EPERM; }

/* No child of the test process may be left (the runner reaps what it started). */
static void assert_no_children(void)
{
    errno = 0;
    cr_assert_eq(waitpid(-1, NULL, WNOHANG), -1, "a child process is left over");
    cr_assert_eq(errno, ECHILD);
}

Test(grading_sandbox, a_normal_run_and_its_exit_code)
{
    box b;
    box_init(&b, "echo out; echo err >&2; exit 7", 10);
    gr_run_result r;
    cr_assert_eq(gr_run(&b.o, &r), 0);
    cr_assert(r.exited && r.code == 7);
    cr_assert_str_eq(r.out, "out\n");
    cr_assert_str_eq(r.err, "err\n");
    cr_assert(!r.timed_out && !r.signaled);
    gr_run_result_free(&r);
}

Test(grading_sandbox, a_hang_is_killed_with_its_whole_group, .timeout = 30)
{
    box b;
    box_init(&b, "sleep 300 & echo $! > bg.pid; exec sleep 300", 1.0);
    double t0 = gr_now();
    gr_run_result r;
    gr_run(&b.o, &r);
    double took = gr_now() - t0;
    cr_assert(r.timed_out, "not reported as a timeout");
    cr_assert_lt(took, 5.0, "took %.1f s to end a 1 s run", took);
    char p[128];
    snprintf(p, sizeof p, "%s/bg.pid", b.dir);
    char *pid = gr_read_capped(p, 64, NULL);
    if (pid && atoi(pid) > 0 && !strstr(r.how, "bubblewrap")) /* inside bubblewrap the pid is the namespace's */
        cr_assert(!alive(atoi(pid)), "the background sleep %d survived", atoi(pid));
    free(pid);
    assert_no_children();
    gr_run_result_free(&r);
}

Test(grading_sandbox, an_escape_to_a_new_session_is_still_ended, .timeout = 30)
{
    box b;
    box_init(&b, "setsid sh -c 'echo $$ > esc.pid; exec sleep 300' & sleep 0.3; exit 0", 10);
    gr_run_result r;
    gr_run(&b.o, &r);
    cr_assert(r.exited && r.code == 0, "%s", r.err);
    char p[128];
    snprintf(p, sizeof p, "%s/esc.pid", b.dir);
    char *pid = gr_read_capped(p, 64, NULL);
    cr_assert_not_null(pid, "the escapee did not start: %s", r.err);
    if (!strstr(r.how, "bubblewrap")) cr_assert(!alive(atoi(pid)), "the setsid escapee %d survived", atoi(pid));
    free(pid);
    assert_no_children();
    gr_run_result_free(&r);
}

/* Running, not a zombie that its new parent has yet to reap. */
static int running(pid_t pid)
{
    char p[64], st[512];
    snprintf(p, sizeof p, "/proc/%ld/stat", (long)pid);
    FILE *f = fopen(p, "r");
    size_t n = f ? fread(st, 1, sizeof st - 1, f) : 0;
    if (f) fclose(f);
    st[n] = 0;
    const char *rp = strrchr(st, ')');
    return rp && rp[1] == ' ' && rp[2] != 'Z' && rp[2] != 'X';
}

/* The grader killed midway (SIGKILL, as the OOM killer would): its run ends with it, and what the run started in
 * the background is ended by the janitor (janitor.h), not left on the machine for good. Without bubblewrap: its
 * own pid namespace ends every process in it, but its setup child can be left behind the same way. */
Test(grading_sandbox, a_killed_grader_s_run_leaves_no_process, .timeout = 30)
{
    box b;
    box_init(&b, "sleep 300 & echo $! > bg.pid; exec sleep 300", 60);
    b.o.no_bwrap = 1;
    char p[128];
    snprintf(p, sizeof p, "%s/bg.pid", b.dir);
    pid_t grader = fork();
    if (grader == 0) {
        b.o.janitor = gr_janitor_start();
        gr_run_result r;
        _exit(b.o.janitor > 2 ? gr_run(&b.o, &r) : 3);
    }
    char *pid = NULL;
    for (int i = 0; i < 100 && !(pid && atoi(pid) > 0); i++) {
        free(pid);
        usleep(50 * 1000);
        pid = gr_read_capped(p, 64, NULL);
    }
    cr_assert(pid && atoi(pid) > 0, "the run did not start its background sleep");
    kill(grader, SIGKILL);
    int st;
    waitpid(grader, &st, 0);
    cr_assert(WIFSIGNALED(st), "the grader ended before it was killed (status %d)", st);
    int left = 1;
    for (int i = 0; i < 100 && (left = running(atoi(pid))); i++) usleep(50 * 1000);
    cr_expect(!left, "the run's background sleep %d outlived its grader by 5 s", atoi(pid));
    if (left) kill(atoi(pid), SIGKILL);
    free(pid);
}

/* Processes running (not zombies) whose command line holds text: a run's folder is in bubblewrap's. */
static int running_with(const char *text)
{
    int n = 0;
    DIR *d = opendir("/proc");
    for (struct dirent *e; d && (e = readdir(d));) {
        char p[300], buf[8192];
        snprintf(p, sizeof p, "/proc/%s/cmdline", e->d_name);
        FILE *f = e->d_name[0] >= '1' && e->d_name[0] <= '9' ? fopen(p, "r") : NULL;
        size_t len = f ? fread(buf, 1, sizeof buf, f) : 0;
        if (f) fclose(f);
        n += memmem(buf, len, text, strlen(text)) && running((pid_t)atol(e->d_name));
    }
    if (d) closedir(d);
    return n;
}

/* bubblewrap's setup child, cloned just before its parent was killed, waits for that parent for good (bubblewrap
 * 0.8; CI: a class stopped by Ctrl-C left one). Graders killed 0-20 ms into a run, 100 times: none of it is left
 * running. Without the janitor 15 and 24 of 300 were, here, for a grader that is not root (CI's second run; as root
 * 0 of 600 were, with delays up to 100 ms: then this checks only that nothing else goes wrong). */
Test(grading_sandbox, graders_killed_as_bubblewrap_starts_leave_none_of_it, .timeout = 60)
{
    if (gr_sandbox_box() != GR_BOX_BWRAP) cr_skip_test("bubblewrap does not work here");
    box b;
    box_init(&b, "exit 0", 10);
    b.o.box = GR_BOX_BWRAP;
    for (int i = 0; i < 100; i++) {
        pid_t grader = fork();
        if (grader == 0) {
            b.o.janitor = gr_janitor_start();
            gr_run_result r;
            _exit(gr_run(&b.o, &r) ? 3 : 0);
        }
        usleep((useconds_t)(i * 211 % 20000));
        kill(grader, SIGKILL);
        waitpid(grader, NULL, 0);
    }
    int left = running_with(b.dir);
    for (int i = 0; i < 20 && left; i++) {
        usleep(100 * 1000);
        left = running_with(b.dir);
    }
    cr_expect_eq(left, 0, "%d of bubblewrap's processes outlived their graders by 2 s", left);
}

Test(grading_sandbox, a_crash_is_a_signal)
{
    box b;
    box_init(&b, "kill -SEGV $$", 10);
    gr_run_result r;
    gr_run(&b.o, &r);
    char d[200];
    gr_run_describe(&r, &b.o, d, sizeof d);
    if (strstr(r.how, "bubblewrap")) /* bubblewrap passes the death on as 128 + signal */
        cr_assert((r.signaled && r.sig == SIGSEGV) || (r.exited && r.code == 128 + SIGSEGV), "%s", d);
    else cr_assert(r.signaled && r.sig == SIGSEGV, "%s", d);
    gr_run_result_free(&r);
}

Test(grading_sandbox, a_fork_bomb_is_bounded_and_cleaned_up, .timeout = 60)
{
    box b;
    box_init(&b, "b() { b & b & wait; }; b", 3.0);
    double t0 = gr_now();
    gr_run_result r;
    gr_run(&b.o, &r);
    cr_assert_lt(gr_now() - t0, 20.0);
    cr_assert(r.timed_out || r.exited, "how did it end?");
    assert_no_children();
    /* nothing of it is left running as nobody (or as us) with our process as ancestor */
    gr_run_result_free(&r);
}

Test(grading_sandbox, one_huge_file_hits_the_file_size_limit, .timeout = 30)
{
    box b;
    box_init(&b, "exec head -c 100000000 /dev/zero > big", 20);
    gr_run_result r;
    gr_run(&b.o, &r);
    char d[200];
    gr_run_describe(&r, &b.o, d, sizeof d);
    cr_assert(r.fsize_exceeded || (r.exited && r.code != 0), "%s", d);
    char p[128];
    snprintf(p, sizeof p, "%s/big", b.dir);
    cr_assert_leq(gr_file_size(p), 8 << 20, "the file grew past the limit");
    gr_run_result_free(&r);
}

Test(grading_sandbox, many_files_hit_the_disk_cap, .timeout = 60)
{
    box b;
    box_init(&b, "i=0; while :; do head -c 4000000 /dev/zero > f$i; i=$((i+1)); done", 30);
    double t0 = gr_now();
    gr_run_result r;
    gr_run(&b.o, &r);
    char d[200];
    gr_run_describe(&r, &b.o, d, sizeof d);
    cr_assert(r.disk_exceeded, "%s", d);
    cr_assert_lt(gr_now() - t0, 15.0, "the cap is polled, not waited for the timeout");
    gr_run_result_free(&r);
}

Test(grading_sandbox, cpu_time_is_limited, .timeout = 60)
{
    box b;
    box_init(&b, "while :; do :; done", 30);
    b.o.cpu_s = 1;
    double t0 = gr_now();
    gr_run_result r;
    gr_run(&b.o, &r);
    char d[200];
    gr_run_describe(&r, &b.o, d, sizeof d);
    cr_assert(!r.timed_out && gr_now() - t0 < 10, "%s", d);
    cr_assert(r.cpu_exceeded, "%s", d);
    gr_run_result_free(&r);
}

Test(grading_sandbox, output_is_capped_head_and_tail, .timeout = 30)
{
    box b;
    box_init(&b, "echo FIRST; yes 'a line of junk' | head -c 50000000; echo; echo LAST", 20);
    gr_run_result r;
    gr_run(&b.o, &r);
    cr_assert(r.exited && r.code == 0);
    cr_assert_gt(r.out_total, 40000000ull);
    cr_assert_lt(strlen(r.out), 4096 + GR_TAIL + 100, "kept %zu bytes", strlen(r.out));
    cr_assert(strncmp(r.out, "FIRST\n", 6) == 0);
    cr_assert(strstr(r.out, "bytes cut") && strstr(r.out, "LAST\n"), "head and tail are kept");
    gr_run_result_free(&r);
}

/* Fake PASS lines and JSON are just text to the runner: the verdict never comes from them. */
Test(grading_sandbox, fake_pass_output_is_captured_not_believed)
{
    box b;
    box_init(&b, "echo PASS; echo '{\"verdict\":\"PASS\",\"median_ms\":0.0001}'; exit 1", 10);
    gr_run_result r;
    gr_run(&b.o, &r);
    cr_assert(r.exited && r.code == 1, "the exit code is the program's, whatever it prints");
    cr_assert(strstr(r.out, "PASS"));
    gr_run_result_free(&r);
}

Test(grading_sandbox, the_environment_is_minimal)
{
    setenv("WB_GRADER_SECRET", "s3cret", 1);
    box b;
    box_init(&b, "env", 10);
    gr_run_result r;
    gr_run(&b.o, &r);
    cr_assert(r.exited && r.code == 0);
    cr_assert_null(strstr(r.out, "s3cret"), "the grader's environment leaked:\n%s", r.out);
    cr_assert(strstr(r.out, "HOME="), "%s", r.out);
    gr_run_result_free(&r);
}

Test(grading_sandbox, as_root_each_run_gets_an_unprivileged_uid_of_its_own)
{
    if (geteuid() != 0) cr_skip_test("not root: the program runs as the grader's own user");
    box a, b;
    box_init(&a, "id -u", 10);
    box_init(&b, "id -u", 10);
    gr_run_result ra, rb;
    gr_run(&a.o, &ra);
    gr_run(&b.o, &rb);
    unsigned long ua = strtoul(ra.out, NULL, 10), ub = strtoul(rb.out, NULL, 10);
    cr_assert_geq(ua, GR_RUN_UID_BASE, "%s (%s)", ra.out, ra.how);
    cr_assert_geq(ub, GR_RUN_UID_BASE, "%s (%s)", rb.out, rb.how);
    cr_assert_neq(ua, ub, "two runs shared uid %lu: their process limits would be shared", ua);
    gr_run_result_free(&ra);
    gr_run_result_free(&rb);
}

Test(grading_sandbox, a_program_that_does_not_exist)
{
    box b;
    box_init(&b, "", 10);
    b.argv[0] = "/nonexistent/program";
    b.argv[1] = NULL;
    gr_run_result r;
    cr_assert_eq(gr_run(&b.o, &r), -1);
    cr_assert(r.start_failed);
    gr_run_result_free(&r);
}

/* The extra layer: the workbook (with solutions/) hidden, the root read-only, /tmp private. */
Test(grading_sandbox, bubblewrap_hides_the_solutions, .timeout = 30)
{
    char bw[PATH_MAX], root[PATH_MAX];
    if (!gr_which("bwrap", bw, sizeof bw)) cr_skip_test("bubblewrap is not installed here");
    cr_assert_not_null(getcwd(root, sizeof root));
    char script[PATH_MAX + 200];
    snprintf(script, sizeof script,
             "cat %s/solutions/01-reversal/reversal.cu >/dev/null 2>&1 && echo READ; "
             "touch /usr/wb-probe 2>/dev/null && echo WROTE; echo ok > mine && echo MINE",
             root);
    box b;
    box_init(&b, script, 10);
    const char *hide[] = {root, NULL};
    b.o.hide = hide;
    gr_run_result r;
    gr_run(&b.o, &r);
    if (!strstr(r.how, "bubblewrap")) cr_skip_test("bubblewrap does not work here (%s)", r.how);
    cr_assert_null(strstr(r.out, "READ"), "the solution was readable inside the sandbox");
    cr_assert_null(strstr(r.out, "WROTE"), "the root was writable");
    cr_assert(strstr(r.out, "MINE"), "the working directory must stay writable: %s %s", r.out, r.err);
    gr_run_result_free(&r);
}

/* A grading's work tree hidden (gr_cmd_init hides it from every run), the run's own folder and its program
 * inside it bound again: a result beside the run's folder (the reference's, for the same seed) is not readable. */
Test(grading_sandbox, bubblewrap_hides_the_work_tree_but_the_runs_own_folder, .timeout = 30)
{
    char bw[PATH_MAX];
    if (!gr_which("bwrap", bw, sizeof bw)) cr_skip_test("bubblewrap is not installed here");
    box b;
    box_init(&b, "", 10);
    /* outside /tmp, which bubblewrap replaces anyway: a TMPDIR elsewhere (a cluster's scratch) is the case */
    rmdir(b.dir);
    snprintf(b.dir, sizeof b.dir, "/var/tmp/wbtest.XXXXXX");
    if (!mkdtemp(b.dir)) cr_skip_test("no folder in /var/tmp: %s", strerror(errno));
    chmod(b.dir, 0711); /* as root the run is another uid: it passes through, as through a work tree */
    char ref[PATH_MAX + 16], run[PATH_MAX + 16], prog[PATH_MAX + 32], p[PATH_MAX + 32];
    snprintf(ref, sizeof ref, "%s/ref-0-0", b.dir);
    snprintf(run, sizeof run, "%s/stu-0-0", b.dir);
    snprintf(prog, sizeof prog, "%s/build/prog", b.dir);
    cr_assert_eq(gr_mkdirs(ref, 0755) | gr_mkdirs(run, 0777), 0);
    snprintf(p, sizeof p, "%s/expected.bin", ref);
    cr_assert_eq(gr_write_file(p, "SECRET", 6), 0);
    snprintf(p, sizeof p, "%s/build", b.dir);
    gr_mkdirs(p, 0755);
    char script[3 * PATH_MAX];
    snprintf(script, sizeof script, "#!/bin/sh\ncat %s/expected.bin 2>/dev/null && echo READ; ls %s 2>/dev/null | grep -q ref && echo LISTED; echo ok > mine && echo MINE\n", ref, b.dir);
    cr_assert_eq(gr_write_file(prog, script, strlen(script)), 0);
    chmod(prog, 0755);
    b.argv[0] = prog;
    b.argv[1] = NULL;
    b.o.workdir = run;
    const char *hide[] = {b.dir, NULL}, *ro[] = {prog, NULL};
    b.o.hide = hide;
    b.o.ro_paths = ro;
    gr_run_result r;
    gr_run(&b.o, &r);
    if (!strstr(r.how, "bubblewrap")) cr_skip_test("bubblewrap does not work here (%s)", r.how);
    cr_expect_null(strstr(r.out, "SECRET"), "the reference's result beside the run was readable: %s", r.out);
    cr_expect_null(strstr(r.out, "LISTED"), "the work tree was listed: %s", r.out);
    cr_expect(strstr(r.out, "MINE"), "the run's own folder must stay writable, its program runnable: %s %s (%s)", r.out,
              r.err, r.how);
    gr_run_result_free(&r);
    static char out[WBT_OUT_MAX];
    wbt_run(out, "rm -rf %s", b.dir);
}

/* A run's text fits the room GR_RUN_TEXT_MAX gives it (a child hands it back in a slot of that size,
 * children.h): head, the marker of what was cut, tail, and the NUL, with the default head too. */
Test(grading_sandbox, a_runs_text_fits_its_bound)
{
    box b;
    box_init(&b, "head -c 300000 /dev/zero | tr '\\0' x; head -c 300000 /dev/zero | tr '\\0' y >&2", 10);
    for (size_t cap = 0; cap <= 4096; cap += 4096) {
        b.o.out_cap = cap;
        gr_run_result r;
        gr_run(&b.o, &r);
        cr_assert(strstr(r.out, "bytes cut"), "%.200s", r.out);
        cr_assert_lt(strlen(r.out), GR_RUN_TEXT_MAX(cap));
        cr_assert_lt(strlen(r.err), GR_RUN_TEXT_MAX(cap));
        cr_assert_gt(strlen(r.out), (cap ? cap : 60000), "the head was cut short");
        gr_run_result_free(&r);
    }
}
