/* The sandbox's run, the parts decided without running anything: bubblewrap's command line, the run's
 * environment, its uid, and how a run ended (from the wait status and what the runner did). No process
 * is started here; test_grading_sandbox.c runs real programs through the whole of gr_run. */
#define _GNU_SOURCE 1
#include "wbtest.h"

#include "job.h"
#include "sandbox.h"

/* The index of the first `a` in v followed by `b` (NULL: any), or -1. */
static int find2(const char **v, const char *a, const char *b)
{
    for (int i = 0; v[i]; i++)
        if (!strcmp(v[i], a) && (!b || (v[i + 1] && !strcmp(v[i + 1], b)))) return i;
    return -1;
}

static int count(const char **v)
{
    int n = 0;
    while (v[n]) n++;
    return n;
}

static const char *const args[] = {"--dump", "out.bin", NULL};
static const char *const tmpfs[] = {"/home", "/work/course", "/work/course/subs/alice", NULL};
static const char *const ro[] = {"/work/course/build/solution1", NULL};
static const char *const devs[] = {"/dev/nvidia0", "/dev/nvidiactl", NULL};

static gr_argv_spec spec(const char *bwrap)
{
    return (gr_argv_spec){.bwrap = bwrap, .prog = "/w/run/prog", .args = args, .workdir = "/w/run",
                          .devices = devs, .tmpfs = tmpfs, .ro_paths = ro};
}

Test(sandbox_parts, bubblewrap_isolates_the_network_the_root_and_tmp)
{
    gr_argv_spec s = spec("/usr/bin/bwrap");
    const char **v = gr_run_argv(&s);
    cr_assert_str_eq(v[0], "/usr/bin/bwrap");
    cr_assert_geq(find2(v, "--unshare-all", NULL), 0, "no new namespaces: the run would have the network");
    cr_assert_geq(find2(v, "--die-with-parent", NULL), 0);
    cr_assert_geq(find2(v, "--new-session", NULL), 0, "the run could reach the grader's terminal (TIOCSTI)");
    int root = find2(v, "--ro-bind", "/");
    cr_assert(root >= 0 && !strcmp(v[root + 2], "/"), "the root is not bound read-only");
    cr_assert_geq(find2(v, "--tmpfs", "/tmp"), 0, "/tmp is not private");
    cr_assert_geq(find2(v, "--proc", "/proc"), 0);
    free(v);
}

Test(sandbox_parts, bubblewrap_hides_each_path_before_binding_the_visible_ones)
{
    gr_argv_spec s = spec("/usr/bin/bwrap");
    const char **v = gr_run_argv(&s);
    int last_hide = -1;
    for (const char *const *h = tmpfs; *h; h++) {
        int i = find2(v, "--tmpfs", *h);
        cr_assert_geq(i, 0, "%s is not hidden", *h);
        if (i > last_hide) last_hide = i;
    }
    /* a bind that came before the tmpfs over its folder would be hidden again */
    int bind = find2(v, "--ro-bind", ro[0]);
    cr_assert(bind > last_hide, "the reference is bound at %d, before the hiding ends at %d", bind, last_hide);
    cr_assert_str_eq(v[bind + 2], ro[0]);
    for (const char *const *d = devs; *d; d++) {
        int i = find2(v, "--dev-bind", *d);
        cr_assert(i >= 0 && !strcmp(v[i + 2], *d), "the GPU node %s is not bound in", *d);
    }
    free(v);
}

Test(sandbox_parts, bubblewrap_ends_with_the_writable_workdir_then_the_program)
{
    gr_argv_spec s = spec("/usr/bin/bwrap");
    const char **v = gr_run_argv(&s);
    int n = count(v);
    int bind = find2(v, "--bind", "/w/run");
    cr_assert(bind >= 0 && !strcmp(v[bind + 2], "/w/run"), "the working directory is not writable");
    cr_assert_geq(find2(v, "--chdir", "/w/run"), 0);
    int dd = find2(v, "--", NULL);
    cr_assert_eq(dd, n - 4, "the program must follow `--` (%d of %d)", dd, n);
    cr_assert_str_eq(v[n - 3], "/w/run/prog");
    cr_assert_str_eq(v[n - 2], "--dump");
    cr_assert_str_eq(v[n - 1], "out.bin");
    free(v);
}

Test(sandbox_parts, without_bubblewrap_the_argv_is_the_program_and_its_arguments)
{
    gr_argv_spec s = spec(NULL);
    const char **v = gr_run_argv(&s);
    cr_assert_eq(count(v), 3);
    cr_assert_str_eq(v[0], "/w/run/prog");
    cr_assert_str_eq(v[1], "--dump");
    cr_assert_str_eq(v[2], "out.bin");
    free(v);
    s.args = NULL;
    v = gr_run_argv(&s);
    cr_assert_eq(count(v), 1);
    free(v);
}

Test(sandbox_parts, bubblewrap_is_used_as_the_caller_probed_unless_switched_off)
{
    gr_run_opts o = {0};
    cr_assert_eq(gr_run_box(&o, 0), GR_BOX_PROBE, "no answer given: the run must probe");
    o.box = GR_BOX_BWRAP;
    cr_assert_eq(gr_run_box(&o, 0), GR_BOX_BWRAP);
    cr_assert_eq(gr_run_box(&o, 1), GR_BOX_NO_BWRAP, "WB_GRADE_NO_BWRAP must win over the probe");
    o.no_bwrap = 1; /* a GPU run where bubblewrap cannot reach the GPU (gpu.c) */
    cr_assert_eq(gr_run_box(&o, 0), GR_BOX_NO_BWRAP, "no_bwrap must win over the probe");
    o.box = GR_BOX_NO_BWRAP;
    o.no_bwrap = 0;
    cr_assert_eq(gr_run_box(&o, 0), GR_BOX_NO_BWRAP);
}

/* ---------------------------------------------------------------- the environment */
static int has(const char *const *v, const char *entry)
{
    for (; *v; v++)
        if (!strcmp(*v, entry)) return 1;
    return 0;
}

Test(sandbox_parts, the_environment_holds_what_a_run_needs_and_nothing_of_the_graders)
{
    setenv("WB_GRADER_SECRET", "s3cret", 1);
    setenv("HOME", "/root", 1);
    const char *const extra[] = {"CUDA_VISIBLE_DEVICES=1", NULL};
    gr_run_env e;
    gr_run_env_make(&e, "/w/run/sub/prog", "/w/run", NULL, extra);
    const char *const want[] = {"PATH=/w/run/sub:/usr/local/cuda/bin:/usr/bin:/bin", "HOME=/w/run", "TMPDIR=/w/run",
                                "LANG=C", "LC_ALL=C", "OMP_WAIT_POLICY=PASSIVE", "CUDA_VISIBLE_DEVICES=1", NULL};
    int n = 0;
    for (const char *const *w = want; *w; w++, n++) cr_assert(has(e.v, *w), "%s is missing", *w);
    for (int i = 0; e.v[i]; i++) cr_assert_null(strstr(e.v[i], "s3cret"), "the grader's environment leaked: %s", e.v[i]);
    cr_assert_null(e.v[n], "more than the run needs: %s", e.v[n]);
    gr_run_env_make(&e, "/w/run/sub/prog", "/w/run", "/usr/local/cuda/lib64", NULL);
    cr_assert(has(e.v, "LD_LIBRARY_PATH=/usr/local/cuda/lib64"), "the library path is not passed on");
    cr_assert_null(e.v[7]);
}

/* An untimed GPU run asks for one hardware work queue, a measured one for two (job.c says why: their start and end
 * cost every GPU of the machine less; two time the kernels as CUDA's eight do); a build sees no GPU. */
Test(sandbox_parts, an_untimed_gpu_run_asks_for_one_work_queue_a_measured_one_for_two)
{
    setenv("CUDA_VISIBLE_DEVICES", "1", 1);
    static gr_config x;
    gr_sub_state s = {0};
    gr_cmd c;
    gr_cmd_init(&c, &x, &s, "/w/run", 10, GR_RUN_GPU);
    cr_assert(has(c.env, "CUDA_DEVICE_MAX_CONNECTIONS=1"), "an untimed run gets CUDA's eight work queues");
    cr_assert(has(c.env, "CUDA_VISIBLE_DEVICES=1"), "an untimed run is not told its GPU");
    gr_cmd_init(&c, &x, &s, "/w/run", 10, GR_RUN_MEASURED);
    cr_assert(has(c.env, "CUDA_VISIBLE_DEVICES=1"), "a measured run is not told its GPU");
    cr_assert(has(c.env, "CUDA_DEVICE_MAX_CONNECTIONS=2"), "a measured run is not timed on two work queues");
    gr_cmd_init(&c, &x, &s, "/w/run", 10, GR_RUN_HOST);
    cr_assert_null(c.env[0], "a build is given %s", c.env[0]);
}

Test(sandbox_parts, the_environment_keeps_room_for_its_own_entries)
{
    const char *extra[100];
    for (int i = 0; i < 99; i++) extra[i] = "X=1";
    extra[99] = NULL;
    gr_run_env e;
    gr_run_env_make(&e, "/p", "/w", "/lib", extra);
    cr_assert_eq(count(e.v), 62);
    cr_assert_str_eq(e.v[0], "PATH=:/usr/local/cuda/bin:/usr/bin:/bin");
}

/* ---------------------------------------------------------------- the uid */
Test(sandbox_parts, each_run_uid_is_its_own_and_never_the_isolation_probe)
{
    pid_t grader = 42;
    uid_t probe = GR_RUN_UID_BASE + ((unsigned)grader & 0x3fffffu) * 64u + 63u; /* isolation.c's */
    for (pid_t p = 1; p < 70000; p++) {
        uid_t u = gr_run_uid(p);
        cr_assert_geq(u, GR_RUN_UID_BASE);
        cr_assert_neq(u, probe, "pid %d got the probe's uid", p);
        cr_assert_neq(u, gr_run_uid(p + 1), "pids %d and %d share a uid", p, p + 1);
    }
    cr_assert_neq(gr_run_uid(4194303), gr_run_uid(4194302)); /* the largest pids the kernel gives */
    cr_assert_gt(gr_run_uid(4194303), gr_run_uid(1));
}

/* ---------------------------------------------------------------- how a run ended */
typedef struct {
    const char *name;
    gr_run_facts f;
    gr_run_end end;
    int sig, code;
    const char *text;
} ending;

static const ending endings[] = {
    {"exit 0", {.status = W_EXITCODE(0, 0)}, GR_END_EXITED, 0, 0, "exited with code 0"},
    {"exit 7", {.status = W_EXITCODE(7, 0)}, GR_END_EXITED, 0, 7, "exited with code 7"},
    {"segfault", {.status = SIGSEGV}, GR_END_CRASHED, SIGSEGV, 0, "crashed with signal 11"},
    {"abort", {.status = SIGABRT}, GR_END_CRASHED, SIGABRT, 0, "crashed with signal 6"},
    {"SIGXCPU", {.status = SIGXCPU, .cpu_s = 30, .wall_s = 31}, GR_END_CPU, SIGXCPU, 0, "more than 30 s of CPU"},
    {"SIGKILL at the hard CPU limit", {.status = SIGKILL, .cpu_s = 30, .wall_s = 32}, GR_END_CPU, SIGKILL, 0,
     "more than 30 s of CPU"},
    {"SIGKILL long before the CPU limit", {.status = SIGKILL, .cpu_s = 30, .wall_s = 2}, GR_END_CRASHED, SIGKILL, 0,
     "crashed with signal 9"},
    {"SIGKILL without a CPU limit", {.status = SIGKILL, .wall_s = 100}, GR_END_CRASHED, SIGKILL, 0, "signal 9"},
    {"killed after the timeout", {.status = SIGKILL, .timed_out = 1, .cpu_s = 5, .wall_s = 11}, GR_END_TIMED_OUT,
     SIGKILL, 0, "after the 10 s time limit"},
    {"ended by SIGTERM after the timeout", {.status = SIGTERM, .timed_out = 1, .wall_s = 10.2}, GR_END_TIMED_OUT,
     SIGTERM, 0, "after the 10 s time limit"},
    {"killed for the disk", {.status = SIGKILL, .disk_exceeded = 1, .cpu_s = 1, .wall_s = 1}, GR_END_DISK, SIGKILL,
     0, "more than 16 MB to disk"},
    {"SIGXFSZ", {.status = SIGXFSZ}, GR_END_FSIZE, SIGXFSZ, 0, "a file grew beyond 8 MB"},
    {"exit 139 outside bubblewrap", {.status = W_EXITCODE(139, 0)}, GR_END_EXITED, 0, 139, "code 139"},
    {"bubblewrap: segfault as 128+11", {.status = W_EXITCODE(139, 0), .bwrap = 1}, GR_END_CRASHED, SIGSEGV, 0,
     "crashed with signal 11"},
    {"bubblewrap: SIGXCPU as 128+24", {.status = W_EXITCODE(128 + SIGXCPU, 0), .bwrap = 1, .cpu_s = 3},
     GR_END_CPU, SIGXCPU, 0, "more than 3 s of CPU"},
    {"bubblewrap: SIGXFSZ as 128+25", {.status = W_EXITCODE(128 + SIGXFSZ, 0), .bwrap = 1}, GR_END_FSIZE, SIGXFSZ,
     0, "beyond 8 MB"},
    {"bubblewrap: exit 128 is an exit", {.status = W_EXITCODE(128, 0), .bwrap = 1}, GR_END_EXITED, 0, 128, "code 128"},
    {"bubblewrap could not start it", {.status = W_EXITCODE(1, 0), .bwrap = 1, .err = "bwrap: Can't mount proc"},
     GR_END_NOT_STARTED, 0, 1, "could not start: bwrap: Can't mount proc"},
    {"exit 1 under bubblewrap", {.status = W_EXITCODE(1, 0), .bwrap = 1, .err = "error: wrong\n"}, GR_END_EXITED, 0,
     1, "exited with code 1"},
    {"a program that prints bwrap: itself", {.status = W_EXITCODE(1, 0), .err = "bwrap: fake"}, GR_END_EXITED, 0, 1,
     "exited with code 1"},
};

Test(sandbox_parts, each_way_of_ending_decodes_to_its_outcome_and_text)
{
    gr_run_opts o = {.timeout_s = 10, .cpu_s = 30, .fsize = 8 << 20, .disk = 16 << 20};
    for (size_t i = 0; i < sizeof endings / sizeof *endings; i++) {
        const ending *e = &endings[i];
        gr_run_result r;
        memset(&r, 0, sizeof r);
        r.err = (char *)e->f.err;
        gr_run_decode(&e->f, &r);
        o.cpu_s = e->f.cpu_s;
        char d[300];
        gr_run_describe(&r, &o, d, sizeof d);
        cr_expect_eq(gr_run_end_of(&r), e->end, "%s: end %d, not %d (%s)", e->name, gr_run_end_of(&r), e->end, d);
        cr_expect_eq(r.sig, e->sig, "%s: signal %d", e->name, r.sig);
        /* correctness.c reads the flags themselves */
        cr_expect_eq(r.cpu_exceeded, e->end == GR_END_CPU, "%s: cpu_exceeded %d", e->name, r.cpu_exceeded);
        cr_expect_eq(r.fsize_exceeded, e->end == GR_END_FSIZE, "%s: fsize_exceeded %d", e->name, r.fsize_exceeded);
        if (e->end == GR_END_EXITED || e->end == GR_END_NOT_STARTED) cr_expect_eq(r.code, e->code, "%s", e->name);
        cr_expect(strstr(d, e->text), "%s: '%s' does not say '%s'", e->name, d, e->text);
        cr_expect_eq(r.wall_s, e->f.wall_s, "%s", e->name);
    }
}
