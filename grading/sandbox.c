/* sandbox.c — see sandbox.h. */
#define _GNU_SOURCE 1
#include "sandbox.h"

#include <sys/mount.h>

#define GR_NOBODY 65534

typedef struct {
    char *head;
    size_t hlen, cap;
    char tail[GR_TAIL];           /* the last bytes that did not fit the head */
    size_t tlen;
    unsigned long long total;
    int eof;
} gr_capture;

uid_t gr_run_uid(pid_t pid) { return (uid_t)(GR_RUN_UID_BASE + ((unsigned)pid & 0x3fffffu) * 64u); }

static void gr_capture_add(gr_capture *c, const char *p, size_t n)
{
    c->total += n;
    size_t h = c->cap - c->hlen < n ? c->cap - c->hlen : n;
    memcpy(c->head + c->hlen, p, h);
    c->hlen += h;
    size_t t = n - h < GR_TAIL ? n - h : GR_TAIL; /* the new tail's bytes, then what it keeps of the old */
    size_t keep = c->tlen + t > GR_TAIL ? GR_TAIL - t : c->tlen;
    memmove(c->tail, c->tail + c->tlen - keep, keep);
    memcpy(c->tail + keep, p + n - t, t);
    c->tlen = keep + t;
}

/* The captured text (head, a marker of what was cut, tail); frees the head. */
static char *gr_capture_text(gr_capture *c)
{
    gr_str s = {0};
    gr_str_addn(&s, c->head, c->hlen);
    unsigned long long cut = c->total - c->hlen - c->tlen;
    if (c->tlen) {
        if (cut) gr_str_addf(&s, "\n[... %llu bytes cut ...]\n", cut);
        gr_str_addn(&s, c->tail, c->tlen);
    }
    if (!s.s) gr_str_add(&s, "");
    free(c->head);
    return s.s;
}

/* Tasks (threads) that real uid `uid` owns now. */
static long gr_tasks_of_uid(uid_t uid)
{
    DIR *d = opendir("/proc");
    if (!d) return 0;
    long total = 0;
    char st[4096];
    while (gr_proc_next(d, "status", st, sizeof st)) {
        long threads = gr_proc_field(st, "Threads");
        if (threads > 0 && gr_proc_field(st, "Uid") == (long)uid) total += threads;
    }
    closedir(d);
    return total;
}

/* Kills the run's process group (`run`; 0: none) and every child of this process (the subreaper collects
 * escaped ones), and reaps them except `keep` (the run's main process, which the caller reaps for its status). */
static void gr_kill_children(pid_t run, pid_t keep)
{
    if (run) kill(-run, SIGKILL);
    for (int round = 0; round < 200; round++) {
        int found = 0;
        DIR *d = opendir("/proc");
        if (!d) break;
        char buf[512];
        for (const char *pid; (pid = gr_proc_next(d, "stat", buf, sizeof buf));) {
            const char *rp = strrchr(buf, ')'); /* the command name may hold spaces and parentheses */
            long ppid;
            if (!rp || sscanf(rp + 1, " %*c %ld", &ppid) != 1 || ppid != (long)getpid()) continue;
            pid_t child = (pid_t)atol(pid);
            kill(child, SIGKILL);
            if (child == keep) continue;
            found = 1;
            waitpid(child, NULL, WNOHANG);
        }
        closedir(d);
        if (!found) break;
        usleep(5000);
    }
}

/* As root, bubblewrap is used only if it works as nobody: inside a user namespace made by root the
 * processes still count as root's, whom RLIMIT_NPROC does not bind, and the process limit matters more
 * than hiding files (a fork bomb harms every other user of the machine). */
gr_box gr_sandbox_box(void)
{
    char bwrap[PATH_MAX];
    if (getenv("WB_GRADE_NO_BWRAP") || !gr_which("bwrap", bwrap, sizeof bwrap)) return GR_BOX_NO_BWRAP;
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(null, 1);
        dup2(null, 2);
        if (geteuid() == 0 && (setgroups(0, NULL) || setgid(GR_NOBODY) || setuid(GR_NOBODY))) _exit(97);
        execl(bwrap, bwrap, "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "--proc", "/proc", "--dev",
              "/dev", "--tmpfs", "/tmp", "true", (char *)NULL);
        _exit(98);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? GR_BOX_BWRAP : GR_BOX_NO_BWRAP;
}

gr_box gr_run_box_here(const gr_run_opts *o)
{
    gr_box box = gr_run_box(o, getenv("WB_GRADE_NO_BWRAP") != NULL);
    return box == GR_BOX_PROBE ? gr_sandbox_box() : box;
}

/* ---------------------------------------------------------------- the pure parts */
static void gr_argv_push(const char ***v, int *n, int *cap, const char *s)
{
    if (*n + 1 >= *cap) {
        *cap = *cap ? *cap * 2 : 64;
        *v = (const char **)realloc(*v, sizeof(char *) * (size_t)*cap);
        if (!*v) abort();
    }
    (*v)[(*n)++] = s;
    (*v)[*n] = NULL;
}

/* Pushes `opt path [path]` for each path of a NULL-terminated list. */
static void gr_argv_paths(const char ***v, int *n, int *cap, const char *opt, const char *const *paths, int twice)
{
    for (const char *const *p = paths; p && *p; p++) {
        gr_argv_push(v, n, cap, opt);
        gr_argv_push(v, n, cap, *p);
        if (twice) gr_argv_push(v, n, cap, *p);
    }
}

const char **gr_run_argv(const gr_argv_spec *s)
{
    const char **v = NULL;
    int n = 0, cap = 0;
    if (s->bwrap) {
        static const char *const fixed[] = {"--unshare-all", "--die-with-parent", "--new-session", "--ro-bind", "/",
                                            "/", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", NULL};
        gr_argv_push(&v, &n, &cap, s->bwrap);
        for (const char *const *f = fixed; *f; f++) gr_argv_push(&v, &n, &cap, *f);
        gr_argv_paths(&v, &n, &cap, "--dev-bind", s->devices, 1);
        gr_argv_paths(&v, &n, &cap, "--tmpfs", s->tmpfs, 0);
        gr_argv_paths(&v, &n, &cap, "--ro-bind", s->ro_paths, 1);
        const char *wd[] = {"--bind", s->workdir, s->workdir, "--chdir", s->workdir, "--", NULL};
        for (const char *const *w = wd; *w; w++) gr_argv_push(&v, &n, &cap, *w);
    }
    gr_argv_push(&v, &n, &cap, s->prog);
    for (const char *const *a = s->args; a && *a; a++) gr_argv_push(&v, &n, &cap, *a);
    return v;
}

void gr_run_env_make(gr_run_env *e, const char *prog, const char *workdir, const char *ld, const char *const *extra)
{
    int n = 0;
    const char *pdir = strrchr(prog, '/');
    snprintf(e->path, sizeof e->path, "PATH=%.*s:/usr/local/cuda/bin:/usr/bin:/bin", pdir ? (int)(pdir - prog) : 0,
             prog);
    snprintf(e->home, sizeof e->home, "HOME=%s", workdir);
    snprintf(e->tmp, sizeof e->tmp, "TMPDIR=%s", workdir);
    /* OMP_WAIT_POLICY: after the harness's OpenMP regions libgomp's idle threads spin, and inside a timed launch
     * that CPU time read as host work (honesty's host-compute rule) against variants that do none. */
    const char *const fixed[] = {e->path, e->home, e->tmp, "LANG=C", "LC_ALL=C", "OMP_WAIT_POLICY=PASSIVE", NULL};
    for (const char *const *f = fixed; *f; f++) e->v[n++] = *f;
    if (ld) {
        snprintf(e->ld, sizeof e->ld, "LD_LIBRARY_PATH=%s", ld);
        e->v[n++] = e->ld;
    }
    for (const char *const *x = extra; x && *x && n < 62; x++) e->v[n++] = *x;
    e->v[n] = NULL;
}

void gr_run_decode(const gr_run_facts *f, gr_run_result *r)
{
    r->timed_out = f->timed_out;
    r->disk_exceeded = f->disk_exceeded;
    r->wall_s = f->wall_s;
    int real = WIFSIGNALED(f->status);
    if (WIFEXITED(f->status)) r->code = WEXITSTATUS(f->status);
    /* bubblewrap reports its child's death by signal as exit 128+sig */
    int bwrap_sig = f->bwrap && WIFEXITED(f->status) && r->code > 128 && r->code < 128 + 65;
    r->exited = WIFEXITED(f->status) && !bwrap_sig;
    r->signaled = real || bwrap_sig;
    r->sig = real ? WTERMSIG(f->status) : bwrap_sig ? r->code - 128 : 0;
    /* the hard limit (soft + 2 s) ends a process that ignores SIGXCPU with SIGKILL */
    r->cpu_exceeded = r->sig == SIGXCPU || (real && r->sig == SIGKILL && !r->timed_out && !r->disk_exceeded &&
                                            f->cpu_s > 0 && r->wall_s >= f->cpu_s * 0.9);
    r->fsize_exceeded = r->sig == SIGXFSZ;
    r->start_failed = f->bwrap && r->exited && r->code == 1 && f->err && !strncmp(f->err, "bwrap:", 6);
}

gr_box gr_run_box(const gr_run_opts *o, int switched_off)
{
    return o->no_bwrap || switched_off ? GR_BOX_NO_BWRAP : o->box;
}

gr_run_end gr_run_end_of(const gr_run_result *r)
{
    if (r->start_failed) return GR_END_NOT_STARTED;
    if (r->timed_out) return GR_END_TIMED_OUT;
    if (r->disk_exceeded) return GR_END_DISK;
    if (r->fsize_exceeded) return GR_END_FSIZE;
    if (r->cpu_exceeded) return GR_END_CPU;
    if (r->signaled) return GR_END_CRASHED;
    return GR_END_EXITED;
}

void gr_run_describe(const gr_run_result *r, const gr_run_opts *o, char *buf, size_t len)
{
    switch (gr_run_end_of(r)) {
    case GR_END_NOT_STARTED: snprintf(buf, len, "could not start: %.200s", r->err ? r->err : ""); break;
    case GR_END_TIMED_OUT: snprintf(buf, len, "was killed after the %.0f s time limit (hung?)", o->timeout_s); break;
    case GR_END_DISK: snprintf(buf, len, "was killed: it wrote more than %lld MB to disk", o->disk >> 20); break;
    case GR_END_FSIZE: snprintf(buf, len, "was killed: a file grew beyond %lld MB", o->fsize >> 20); break;
    case GR_END_CPU: snprintf(buf, len, "was killed: it used more than %.0f s of CPU time", o->cpu_s); break;
    case GR_END_CRASHED: snprintf(buf, len, "crashed with signal %d (%s)", r->sig, strsignal(r->sig)); break;
    case GR_END_EXITED: snprintf(buf, len, "exited with code %d", r->code); break;
    }
}

/* ---------------------------------------------------------------- the child: from fork to exec */
/* One run: what the parent decided before the fork (the child's part), then what it sees while it pumps. */
typedef struct {
    const gr_run_opts *o;
    const char *prog;
    const char *bwrap;            /* NULL: no bubblewrap */
    int drop;                     /* as root: become the run's own uid */
    int pipes[2][2];              /* stdout's, stderr's: the child writes [i][1], the parent reads [i][0] */
    pid_t pid;
    gr_capture cs[2];
    double t0, deadline, kill_at, last_du, drain_until;
    int status, done, timed_out, disk_exceeded; /* timed_out: SIGTERM sent */
    double wall_s;
} gr_launch;

/* The paths bubblewrap gets, as they are now: the GPU's device nodes, the homes and the hidden folders. A folder
 * the run cannot reach is hidden already, and unprivileged bubblewrap cannot mount a tmpfs over it. */
static const char **gr_launch_argv(const gr_launch *l, uid_t uid, gid_t gid, glob_t *nv)
{
    const gr_run_opts *o = l->o;
    gr_argv_spec s = {.bwrap = l->bwrap, .prog = l->prog, .args = o->argv + 1, .workdir = o->workdir,
                      .ro_paths = o->ro_paths};
    const char **tmpfs = NULL;
    int n = 0, cap = 0;
    memset(nv, 0, sizeof *nv);
    if (l->bwrap && o->gpu && glob("/dev/nvidia*", 0, NULL, nv) == 0) s.devices = (const char *const *)nv->gl_pathv;
    static const char *const homes[] = {"/home", "/root", NULL};
    for (const char *const *h = homes; l->bwrap && *h; h++)
        if (gr_is_dir(*h)) gr_argv_push(&tmpfs, &n, &cap, *h);
    for (const char *const *h = o->hide; l->bwrap && h && *h; h++)
        if (gr_is_dir(*h) && (!l->drop || gr_reachable_by(*h, uid, gid, o->extra_gid, NULL, 0)))
            gr_argv_push(&tmpfs, &n, &cap, *h);
    s.tmpfs = tmpfs;
    return gr_run_argv(&s);
}

/* In the forked child: never returns. */
static void gr_child(const gr_launch *l)
{
    const gr_run_opts *o = l->o;
    uid_t uid = l->drop ? gr_run_uid(getpid()) : getuid();
    gid_t gid = o->gid ? o->gid : (gid_t)uid;
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    int null = open("/dev/null", O_RDONLY);
    dup2(null, 0);
    dup2(l->pipes[0][1], 1);
    dup2(l->pipes[1][1], 2);
    if (chdir(o->workdir) != 0) {
        fprintf(stderr, "sandbox: cannot enter %s: %s\n", o->workdir, strerror(errno));
        _exit(126);
    }
    if (l->drop && chown(o->workdir, uid, gid) != 0) {
        /* best effort: a run that cannot write its directory fails, and says so */
    }
    glob_t nv;
    const char **argv = gr_launch_argv(l, uid, gid, &nv);
    gr_run_env env;
    gr_run_env_make(&env, l->prog, o->workdir, getenv("LD_LIBRARY_PATH"), o->env);
    if (geteuid() == 0 && !l->bwrap) {
        (void)unshare(CLONE_NEWNET); /* no network where the kernel allows */
        /* A /proc of its own that shows other uids' processes to no one (hidepid=2): not the grader's
         * command line (replayed --seeds), not another run's paths. Where the kernel allows. */
        if (unshare(CLONE_NEWNS) == 0 && mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) == 0)
            (void)mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "hidepid=2");
    }
    rlim_t cpu = (rlim_t)(o->cpu_s + 0.999), fsize = (rlim_t)o->fsize;
    /* RLIMIT_NPROC counts every task of the uid: the run may add nproc to what its uid runs now */
    rlim_t nproc = (rlim_t)((o->nproc > 0 ? o->nproc : 64) + gr_tasks_of_uid(uid));
    const struct { int res, on; struct rlimit rl; } limits[] = {{RLIMIT_CPU, o->cpu_s > 0, {cpu, cpu + 2}},
                                                                {RLIMIT_FSIZE, o->fsize > 0, {fsize, fsize}},
                                                                {RLIMIT_CORE, 1, {0, 0}},
                                                                {RLIMIT_NPROC, 1, {nproc, nproc}}};
    for (size_t i = 0; i < sizeof limits / sizeof *limits; i++)
        if (limits[i].on) setrlimit(limits[i].res, &limits[i].rl);
    signal(SIGPIPE, SIG_DFL);
    signal(SIGXFSZ, SIG_DFL);
    gid_t extra = o->extra_gid;
    if (l->drop && (setgroups(extra ? 1 : 0, &extra) != 0 || setgid(gid) != 0 || setuid(uid) != 0)) {
        fprintf(stderr, "sandbox: cannot drop privileges: %s\n", strerror(errno));
        _exit(126);
    }
    execve(argv[0], (char *const *)argv, (char *const *)env.v);
    fprintf(stderr, "sandbox: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

/* ---------------------------------------------------------------- the parent: pump and wait */
/* Waits up to 50 ms for output and takes what there is. */
static void gr_pump_read(gr_launch *p)
{
    char buf[65536];
    struct pollfd pf[2];
    int np = 0;
    for (int i = 0; i < 2; i++)
        if (!p->cs[i].eof) pf[np++] = (struct pollfd){.fd = p->pipes[i][0], .events = POLLIN};
    if (np) poll(pf, (nfds_t)np, 50);
    else usleep(20000);
    for (int i = 0; i < 2; i++)
        while (!p->cs[i].eof) {
            ssize_t n = read(p->pipes[i][0], buf, sizeof buf);
            if (n <= 0) {
                if (n == 0) p->cs[i].eof = 1;
                break;
            }
            gr_capture_add(&p->cs[i], buf, (size_t)n);
        }
}

/* Once the program is gone, whatever it left behind goes too. */
static void gr_pump_reap(gr_launch *p, double now)
{
    pid_t w = waitpid(p->pid, &p->status, WNOHANG);
    if (w == -1 && errno == ECHILD) { /* reaped elsewhere: cannot know its status */
        p->status = W_EXITCODE(126, 0);
        w = p->pid;
    }
    if (w != p->pid) return;
    p->done = 1;
    p->wall_s = now - p->t0;
    gr_kill_children(p->pid, 0);
    p->drain_until = now + 0.3; /* an escaped grandchild could hold the pipes open */
}

/* The disk cap and the time limit (SIGTERM to the group, SIGKILL a second later and every second after). */
static void gr_pump_police(gr_launch *p, double now)
{
    const gr_run_opts *o = p->o;
    if (o->disk > 0 && now - p->last_du > 0.25) {
        p->last_du = now;
        if (gr_du(o->workdir) > (unsigned long long)o->disk && !p->disk_exceeded) {
            p->disk_exceeded = 1;
            gr_kill_children(p->pid, p->pid);
        }
    }
    if (now > p->deadline && !p->timed_out) {
        p->timed_out = 1;
        kill(-p->pid, SIGTERM);
        p->kill_at = now + 1.0;
    }
    if (p->timed_out && now > p->kill_at) {
        gr_kill_children(p->pid, p->pid);
        p->kill_at = now + 1.0;
    }
}

static void gr_pump_run(gr_launch *p)
{
    const gr_run_opts *o = p->o;
    size_t cap = o->out_cap ? o->out_cap : GR_OUT_CAP;
    for (int i = 0; i < 2; i++) {
        p->cs[i].cap = cap;
        p->cs[i].head = (char *)malloc(cap);
        fcntl(p->pipes[i][0], F_SETFL, O_NONBLOCK);
    }
    p->deadline = p->t0 + (o->timeout_s > 0 ? o->timeout_s : 60);
    p->last_du = p->t0;
    for (;;) {
        gr_pump_read(p);
        double now = gr_now();
        if (!p->done) gr_pump_reap(p, now);
        if (p->done && ((p->cs[0].eof && p->cs[1].eof) || now > p->drain_until)) break;
        if (!p->done) gr_pump_police(p, now);
    }
    close(p->pipes[0][0]);
    close(p->pipes[1][0]);
    gr_kill_children(0, 0);
}

static int gr_not_started(gr_run_result *res, char *why)
{
    res->start_failed = 1;
    res->out = strdup("");
    res->err = why;
    snprintf(res->how, sizeof res->how, "not started");
    return -1;
}

int gr_run(const gr_run_opts *o, gr_run_result *res)
{
    memset(res, 0, sizeof *res);
    (void)prctl(PR_SET_CHILD_SUBREAPER, 1); /* idempotent: escaped processes come back to us */
    char prog[PATH_MAX], bwrap[PATH_MAX];
    if (!gr_which(o->argv[0], prog, sizeof prog)) {
        gr_str e = {0};
        gr_str_addf(&e, "cannot find the program '%s'", o->argv[0]);
        return gr_not_started(res, e.s);
    }
    gr_launch p = {.o = o, .prog = prog, .drop = geteuid() == 0};
    if (gr_run_box_here(o) == GR_BOX_BWRAP && gr_which("bwrap", bwrap, sizeof bwrap)) p.bwrap = bwrap;
    if (pipe2(p.pipes[0], O_CLOEXEC) || pipe2(p.pipes[1], O_CLOEXEC)) return gr_not_started(res, strdup("pipe failed"));
    p.t0 = gr_now();
    p.pid = fork();
    if (p.pid == 0) gr_child(&p);
    if (p.pid > 0) setpgid(p.pid, p.pid); /* also here: no window in which a kill of the group misses the child */
    for (int i = 0; i < 2; i++) {
        close(p.pipes[i][1]);
        if (p.pid < 0) close(p.pipes[i][0]);
    }
    if (p.pid < 0) return gr_not_started(res, strdup("fork failed"));
    uid_t uid = p.drop ? gr_run_uid(p.pid) : getuid();
    gr_janitor_group(o->janitor, p.pid, uid, 1);
    int hl = snprintf(res->how, sizeof res->how, "%s", p.bwrap ? "bubblewrap" : "process group + rlimits");
    if (p.drop) snprintf(res->how + hl, sizeof res->how - hl, ", uid %u of its own", (unsigned)uid);
    gr_pump_run(&p);
    gr_janitor_group(o->janitor, p.pid, uid, 0);
    res->out = gr_capture_text(&p.cs[0]);
    res->err = gr_capture_text(&p.cs[1]);
    res->out_total = p.cs[0].total;
    gr_run_facts f = {.status = p.status, .timed_out = p.timed_out, .disk_exceeded = p.disk_exceeded,
                      .wall_s = p.wall_s, .cpu_s = o->cpu_s, .bwrap = p.bwrap != NULL, .err = res->err};
    gr_run_decode(&f, res);
    return 0;
}

void gr_run_result_free(gr_run_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

/* 1 if a run (a uid of the runs' block, no group of the grader's) can pass every folder down to path. */
static int gr_runs_reach(const char *path, char *blocked, size_t blen)
{
    return gr_reachable_by(path, GR_RUN_UID_BASE, GR_RUN_UID_BASE, 0, blocked, blen);
}

const char *gr_runs_base(const char *tmpdir, char *closed, size_t clen)
{
    static const char *const fallbacks[] = {"/tmp", "/var/tmp", NULL};
    return geteuid() == 0 ? gr_work_base(tmpdir, fallbacks, gr_runs_reach, closed, clen) : tmpdir;
}

int gr_runs_mkdtemp(int janitor, const char *prefix, mode_t mode, char *out, size_t len, char *closed, size_t clen)
{
    const char *base = gr_runs_base(gr_tmpdir(), closed, clen);
    if (!base) return -1;
    snprintf(out, len, "%s/%s.XXXXXX", base, prefix);
    if (!mkdtemp(out)) return -2;
    gr_janitor_add(janitor, out);
    if (mode == 0700 || !chmod(out, mode)) return 0;
    int e = errno; /* the folder goes: nothing is left half made */
    gr_janitor_rm(janitor, out);
    errno = e;
    return -2;
}
