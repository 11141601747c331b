/* sandbox.c — see sandbox.h. */
#define _GNU_SOURCE 1
#include "sandbox.h"

#include <jansson.h>
#include <sys/mount.h>

static uid_t gr_run_uid(void)
{
    static unsigned counter;
    return (uid_t)(GR_RUN_UID_BASE + ((unsigned)getpid() & 0x3fffffu) * 64u + (counter++ % 64u));
}

static void gr_capture_add(gr_capture *c, const char *p, size_t n)
{
    c->total += n;
    size_t h = c->cap - c->hlen < n ? c->cap - c->hlen : n;
    memcpy(c->head + c->hlen, p, h);
    c->hlen += h;
    for (size_t i = h; i < n; i++) { /* what no longer fits the head goes to the tail ring */
        c->tail[c->tpos] = p[i];
        c->tpos = (c->tpos + 1) % GR_TAIL;
        if (c->tlen < GR_TAIL) c->tlen++;
    }
}

static char *gr_capture_text(gr_capture *c)
{
    gr_str s = {0};
    gr_str_addn(&s, c->head, c->hlen);
    unsigned long long cut = c->total - c->hlen - c->tlen;
    if (c->tlen) {
        if (cut) gr_str_addf(&s, "\n[... %llu bytes cut ...]\n", cut);
        size_t start = (c->tpos + GR_TAIL - c->tlen) % GR_TAIL;
        for (size_t i = 0; i < c->tlen; i++) gr_str_addn(&s, &c->tail[(start + i) % GR_TAIL], 1);
    }
    if (!s.s) gr_str_add(&s, "");
    return s.s;
}

/* Tasks (threads) that real uid `uid` owns now: RLIMIT_NPROC counts them all, so the limit a run gets
 * is this plus what it may add. */
static long gr_tasks_of_uid(uid_t uid)
{
    DIR *d = opendir("/proc");
    if (!d) return 0;
    long total = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        char path[300], line[256];
        snprintf(path, sizeof path, "/proc/%s/status", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        long real = -1, threads = 0;
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "Uid:", 4) == 0) real = strtol(line + 4, NULL, 10);
            else if (strncmp(line, "Threads:", 8) == 0) threads = strtol(line + 8, NULL, 10);
        }
        fclose(f);
        if (real == (long)uid) total += threads;
    }
    closedir(d);
    return total;
}

/* Kills every child of this process (the subreaper collects escaped ones) and reaps them, except
 * `keep` (the run's main process, which the caller reaps to learn its status; 0: none). */
static void gr_kill_children(pid_t keep)
{
    for (int round = 0; round < 200; round++) {
        int found = 0;
        DIR *d = opendir("/proc");
        if (!d) break;
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
            char path[300], buf[512];
            snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
            FILE *f = fopen(path, "r");
            if (!f) continue;
            size_t n = fread(buf, 1, sizeof buf - 1, f);
            fclose(f);
            buf[n] = 0;
            char *rp = strrchr(buf, ')'); /* the command name may hold spaces and parentheses */
            if (!rp) continue;
            char state;
            long ppid;
            if (sscanf(rp + 1, " %c %ld", &state, &ppid) != 2) continue;
            if (ppid == (long)getpid()) {
                pid_t child = (pid_t)atol(e->d_name);
                kill(child, SIGKILL);
                if (child != keep) {
                    found = 1;
                    waitpid(child, NULL, WNOHANG);
                }
            }
        }
        closedir(d);
        if (!found) break;
        usleep(5000);
    }
}

/* 1 if bubblewrap runs a trivial sandbox here as `as_uid` (-1: as ourselves); cached. */
static int gr_bwrap_probe(const char *bwrap, int drop)
{
    static int cached[2] = {-1, -1};
    if (cached[drop] >= 0) return cached[drop];
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(null, 1);
        dup2(null, 2);
        if (drop && (setgroups(0, NULL) || setgid(GR_NOBODY) || setuid(GR_NOBODY))) _exit(97);
        execl(bwrap, bwrap, "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "--proc", "/proc", "--dev",
              "/dev", "--tmpfs", "/tmp", "true", (char *)NULL);
        _exit(98);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    cached[drop] = WIFEXITED(st) && WEXITSTATUS(st) == 0;
    return cached[drop];
}

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

int gr_run(const gr_run_opts *o, gr_run_result *res)
{
    memset(res, 0, sizeof *res);
    static int reaper;
    if (!reaper) reaper = prctl(PR_SET_CHILD_SUBREAPER, 1) == 0 ? 1 : -1;
    int root = geteuid() == 0;

    char prog[PATH_MAX];
    if (!gr_which(o->argv[0], prog, sizeof prog)) {
        res->start_failed = 1;
        res->out = strdup("");
        gr_str e = {0};
        gr_str_addf(&e, "cannot find the program '%s'", o->argv[0]);
        res->err = e.s;
        snprintf(res->how, sizeof res->how, "not started");
        return -1;
    }

    /* bubblewrap where it works: as nobody (so RLIMIT_NPROC binds), else as root with --uid. */
    char bwrap[PATH_MAX];
    int use_bwrap = 0, bwrap_drop = 0;
    /* As root, bubblewrap is used only if it works as nobody: inside a user namespace made by root the
     * processes still count as root's, whom RLIMIT_NPROC does not bind, and the process limit matters
     * more than hiding files (a fork bomb harms every other user of the machine). */
    if (!o->no_bwrap && !getenv("WB_GRADE_NO_BWRAP") && gr_which("bwrap", bwrap, sizeof bwrap)) {
        if (root) use_bwrap = bwrap_drop = gr_bwrap_probe(bwrap, 1);
        else use_bwrap = gr_bwrap_probe(bwrap, 0);
    }
    int drop = root && (!use_bwrap || bwrap_drop);
    uid_t run_uid = drop ? gr_run_uid() : getuid();
    gid_t run_gid = o->gid ? o->gid : (gid_t)run_uid;
    if (drop && chown(o->workdir, run_uid, run_gid) != 0) drop = drop; /* best effort; reported by failures */

    const char **argv = NULL;
    int argc = 0, acap = 0;
    glob_t nv;
    memset(&nv, 0, sizeof nv);
    if (use_bwrap) {
        gr_argv_push(&argv, &argc, &acap, bwrap);
        const char *fixed[] = {"--unshare-all", "--die-with-parent", "--new-session", "--ro-bind", "/", "/",
                               "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"};
        for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) gr_argv_push(&argv, &argc, &acap, fixed[i]);
        if (root && !bwrap_drop) {
            const char *ids[] = {"--uid", "65534", "--gid", "65534"};
            for (int i = 0; i < 4; i++) gr_argv_push(&argv, &argc, &acap, ids[i]);
        }
        if (o->gpu && glob("/dev/nvidia*", 0, NULL, &nv) == 0)
            for (size_t i = 0; i < nv.gl_pathc; i++) {
                gr_argv_push(&argv, &argc, &acap, "--dev-bind");
                gr_argv_push(&argv, &argc, &acap, nv.gl_pathv[i]);
                gr_argv_push(&argv, &argc, &acap, nv.gl_pathv[i]);
            }
        static const char *const homes[] = {"/home", "/root", NULL};
        for (const char *const *h = homes; *h; h++)
            if (gr_is_dir(*h)) {
                gr_argv_push(&argv, &argc, &acap, "--tmpfs");
                gr_argv_push(&argv, &argc, &acap, *h);
            }
        /* bubblewrap without privileges cannot mount a tmpfs over a path it cannot reach, and needs not:
         * a folder the run cannot reach is hidden already (a submission inside the closed course, say). */
        for (const char *const *h = o->hide; h && *h; h++)
            if (gr_is_dir(*h) && (!bwrap_drop || gr_reachable_by(*h, run_uid, run_gid, o->extra_gid, NULL, 0))) {
                gr_argv_push(&argv, &argc, &acap, "--tmpfs");
                gr_argv_push(&argv, &argc, &acap, *h);
            }
        for (const char *const *p = o->ro_paths; p && *p; p++) {
            gr_argv_push(&argv, &argc, &acap, "--ro-bind");
            gr_argv_push(&argv, &argc, &acap, *p);
            gr_argv_push(&argv, &argc, &acap, *p);
        }
        const char *wd[] = {"--bind", o->workdir, o->workdir, "--chdir", o->workdir, "--"};
        for (int i = 0; i < 6; i++) gr_argv_push(&argv, &argc, &acap, wd[i]);
        gr_argv_push(&argv, &argc, &acap, prog);
    } else {
        gr_argv_push(&argv, &argc, &acap, prog);
    }
    for (int i = 1; o->argv[i]; i++) gr_argv_push(&argv, &argc, &acap, o->argv[i]);
    char uid_note[64] = "";
    if (drop) snprintf(uid_note, sizeof uid_note, ", uid %u of its own", (unsigned)run_uid);
    else if (use_bwrap && root) snprintf(uid_note, sizeof uid_note, ", uid 65534 in a user namespace");
    snprintf(res->how, sizeof res->how, "%s%s", use_bwrap ? "bubblewrap" : "process group + rlimits", uid_note);

    /* The minimal environment: nothing of the grader's but the library path and the GPU choice. */
    char e_path[PATH_MAX + 64], e_home[PATH_MAX + 8], e_tmp[PATH_MAX + 8], e_ld[8192];
    const char *env[64];
    int ne = 0;
    const char *pdir = strrchr(prog, '/');
    snprintf(e_path, sizeof e_path, "PATH=%.*s:/usr/local/cuda/bin:/usr/bin:/bin", (int)(pdir - prog), prog);
    snprintf(e_home, sizeof e_home, "HOME=%s", o->workdir);
    snprintf(e_tmp, sizeof e_tmp, "TMPDIR=%s", o->workdir);
    env[ne++] = e_path;
    env[ne++] = e_home;
    env[ne++] = e_tmp;
    env[ne++] = "LANG=C";
    env[ne++] = "LC_ALL=C";
    if (getenv("LD_LIBRARY_PATH")) {
        snprintf(e_ld, sizeof e_ld, "LD_LIBRARY_PATH=%s", getenv("LD_LIBRARY_PATH"));
        env[ne++] = e_ld;
    }
    for (const char *const *x = o->env; x && *x && ne < 62; x++) env[ne++] = *x;
    env[ne] = NULL;

    long nproc_limit = (long)(o->nproc > 0 ? o->nproc : 64);
    nproc_limit += gr_tasks_of_uid(run_uid);

    int po[2], pe[2];
    if (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC)) {
        res->start_failed = 1;
        res->out = strdup("");
        res->err = strdup("pipe failed");
        free(argv);
        globfree(&nv);
        return -1;
    }
    double t0 = gr_now();
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        int null = open("/dev/null", O_RDONLY);
        dup2(null, 0);
        dup2(po[1], 1);
        dup2(pe[1], 2);
        if (chdir(o->workdir) != 0) {
            fprintf(stderr, "sandbox: cannot enter %s: %s\n", o->workdir, strerror(errno));
            _exit(126);
        }
        if (root && !use_bwrap) {
            (void)unshare(CLONE_NEWNET); /* no network where the kernel allows */
            /* A /proc of its own that shows other uids' processes to no one (hidepid=2): not the grader's
             * command line (replayed --seeds), not another run's paths. Where the kernel allows. */
            if (unshare(CLONE_NEWNS) == 0 && mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) == 0)
                (void)mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "hidepid=2");
        }
        struct rlimit rl;
        if (o->cpu_s > 0) {
            rl.rlim_cur = (rlim_t)(o->cpu_s + 0.999);
            rl.rlim_max = rl.rlim_cur + 2;
            setrlimit(RLIMIT_CPU, &rl);
        }
        if (o->fsize > 0) {
            rl.rlim_cur = rl.rlim_max = (rlim_t)o->fsize;
            setrlimit(RLIMIT_FSIZE, &rl);
        }
        rl.rlim_cur = rl.rlim_max = 0;
        setrlimit(RLIMIT_CORE, &rl);
        rl.rlim_cur = rl.rlim_max = (rlim_t)nproc_limit;
        setrlimit(RLIMIT_NPROC, &rl);
        signal(SIGPIPE, SIG_DFL);
        signal(SIGXFSZ, SIG_DFL);
        gid_t extra = o->extra_gid;
        if (drop && (setgroups(extra ? 1 : 0, &extra) != 0 || setgid(run_gid) != 0 || setuid(run_uid) != 0)) {
            fprintf(stderr, "sandbox: cannot drop privileges: %s\n", strerror(errno));
            _exit(126);
        }
        execve(argv[0], (char *const *)argv, (char *const *)env);
        fprintf(stderr, "sandbox: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid); /* also here: no window in which a kill of the group misses the child */
    close(po[1]);
    close(pe[1]);
    free(argv);
    globfree(&nv);

    size_t cap = o->out_cap ? o->out_cap : 64 * 1024;
    gr_capture cs[2];
    memset(cs, 0, sizeof cs);
    for (int i = 0; i < 2; i++) {
        cs[i].cap = cap;
        cs[i].head = (char *)malloc(cap);
    }
    int fds[2] = {po[0], pe[0]};
    for (int i = 0; i < 2; i++) fcntl(fds[i], F_SETFL, O_NONBLOCK);

    int status = 0, done = 0, term_sent = 0;
    double deadline = t0 + (o->timeout_s > 0 ? o->timeout_s : 60), kill_at = 0, last_du = t0, drain_until = 0;
    char buf[65536];
    for (;;) {
        struct pollfd pf[2];
        int np = 0;
        for (int i = 0; i < 2; i++)
            if (!cs[i].eof) pf[np++] = (struct pollfd){.fd = fds[i], .events = POLLIN};
        if (np) poll(pf, (nfds_t)np, 50);
        else usleep(20000);
        for (int i = 0; i < 2; i++) {
            if (cs[i].eof) continue;
            for (;;) {
                ssize_t n = read(fds[i], buf, sizeof buf);
                if (n > 0) gr_capture_add(&cs[i], buf, (size_t)n);
                else {
                    if (n == 0) cs[i].eof = 1;
                    break;
                }
            }
        }
        double now = gr_now();
        if (!done) {
            pid_t w = waitpid(pid, &status, WNOHANG);
            if (w == -1 && errno == ECHILD) { /* reaped elsewhere: cannot know its status */
                status = W_EXITCODE(126, 0);
                w = pid;
            }
            if (w == pid) {
                done = 1;
                res->wall_s = now - t0;
                kill(-pid, SIGKILL); /* whatever it left behind in its group */
                gr_kill_children(0);
                drain_until = now + 0.3; /* an escaped grandchild could hold the pipes open */
            }
        }
        if (done && ((cs[0].eof && cs[1].eof) || now > drain_until)) break;
        if (done) continue;
        if (o->disk > 0 && now - last_du > 0.25) {
            last_du = now;
            if (gr_du(o->workdir) > (unsigned long long)o->disk && !res->disk_exceeded) {
                res->disk_exceeded = 1;
                kill(-pid, SIGKILL);
                gr_kill_children(pid);
            }
        }
        if (now > deadline && !term_sent) {
            res->timed_out = 1;
            term_sent = 1;
            kill(-pid, SIGTERM);
            kill_at = now + 1.0;
        }
        if (term_sent && now > kill_at) {
            kill(-pid, SIGKILL);
            gr_kill_children(pid);
            kill_at = now + 1.0;
        }
    }
    close(po[0]);
    close(pe[0]);
    gr_kill_children(0);
    if (WIFEXITED(status)) {
        res->exited = 1;
        res->code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        res->signaled = 1;
        res->sig = WTERMSIG(status);
        res->cpu_exceeded = res->sig == SIGXCPU || (res->sig == SIGKILL && !res->timed_out && !res->disk_exceeded &&
                                                    o->cpu_s > 0 && res->wall_s >= o->cpu_s * 0.9);
        res->fsize_exceeded = res->sig == SIGXFSZ;
    }
    /* bubblewrap reports its child's death by signal as exit 128+sig */
    if (use_bwrap && res->exited && res->code > 128 && res->code < 128 + 65) {
        int s = res->code - 128;
        res->exited = 0;
        res->signaled = 1;
        res->sig = s;
        if (s == SIGXCPU) res->cpu_exceeded = 1;
        if (s == SIGXFSZ) res->fsize_exceeded = 1;
    }
    if (use_bwrap && res->exited && res->code == 1 && cs[1].total && strstr(cs[1].head, "bwrap:") == cs[1].head)
        res->start_failed = 1;
    res->out = gr_capture_text(&cs[0]);
    res->err = gr_capture_text(&cs[1]);
    res->out_total = cs[0].total;
    res->err_total = cs[1].total;
    free(cs[0].head);
    free(cs[1].head);
    return 0;
}

int gr_sandbox_bwrap_works(void)
{
    char bwrap[PATH_MAX];
    if (getenv("WB_GRADE_NO_BWRAP") || !gr_which("bwrap", bwrap, sizeof bwrap)) return 0;
    return gr_bwrap_probe(bwrap, geteuid() == 0);
}

void gr_run_result_free(gr_run_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

void gr_run_describe(const gr_run_result *r, const gr_run_opts *o, char *buf, size_t len)
{
    if (r->start_failed) snprintf(buf, len, "could not start: %.200s", r->err ? r->err : "");
    else if (r->timed_out) snprintf(buf, len, "was killed after the %.0f s time limit (hung?)", o->timeout_s);
    else if (r->disk_exceeded) snprintf(buf, len, "was killed: it wrote more than %lld MB to disk", o->disk >> 20);
    else if (r->fsize_exceeded) snprintf(buf, len, "was killed: a file grew beyond %lld MB", o->fsize >> 20);
    else if (r->cpu_exceeded) snprintf(buf, len, "was killed: it used more than %.0f s of CPU time", o->cpu_s);
    else if (r->signaled) snprintf(buf, len, "crashed with signal %d (%s)", r->sig, strsignal(r->sig));
    else snprintf(buf, len, "exited with code %d", r->code);
}

int gr_run_result_save(const char *path, int rc, const gr_run_result *r)
{
    char *out = gr_utf8_clean(r->out ? r->out : ""), *err = gr_utf8_clean(r->err ? r->err : "");
    json_t *o = json_pack("{s:i, s:b, s:i, s:b, s:i, s:b, s:b, s:b, s:b, s:b, s:f, s:s, s:s, s:s}", "rc", rc, "exited",
                          r->exited, "code", r->code, "signaled", r->signaled, "sig", r->sig, "timed_out", r->timed_out,
                          "cpu_exceeded", r->cpu_exceeded, "fsize_exceeded", r->fsize_exceeded, "disk_exceeded",
                          r->disk_exceeded, "start_failed", r->start_failed, "wall_s", r->wall_s, "out", out, "err", err,
                          "how", r->how);
    free(out);
    free(err);
    int ok = o && json_dump_file(o, path, 0) == 0;
    json_decref(o);
    return ok ? 0 : -1;
}

int gr_run_result_load(const char *path, int *rc, gr_run_result *r)
{
    memset(r, 0, sizeof *r);
    json_error_t je;
    json_t *o = json_load_file(path, 0, &je);
    *rc = -1;
    if (!json_is_object(o)) {
        r->start_failed = 1;
        r->out = strdup("");
        r->err = strdup("the grader's child process died before it reported");
        json_decref(o);
        return -1;
    }
    *rc = (int)json_integer_value(json_object_get(o, "rc"));
    r->exited = json_is_true(json_object_get(o, "exited"));
    r->code = (int)json_integer_value(json_object_get(o, "code"));
    r->signaled = json_is_true(json_object_get(o, "signaled"));
    r->sig = (int)json_integer_value(json_object_get(o, "sig"));
    r->timed_out = json_is_true(json_object_get(o, "timed_out"));
    r->cpu_exceeded = json_is_true(json_object_get(o, "cpu_exceeded"));
    r->fsize_exceeded = json_is_true(json_object_get(o, "fsize_exceeded"));
    r->disk_exceeded = json_is_true(json_object_get(o, "disk_exceeded"));
    r->start_failed = json_is_true(json_object_get(o, "start_failed"));
    r->wall_s = json_real_value(json_object_get(o, "wall_s"));
    const char *out = json_string_value(json_object_get(o, "out")), *err = json_string_value(json_object_get(o, "err"));
    r->out = strdup(out ? out : "");
    r->err = strdup(err ? err : "");
    snprintf(r->how, sizeof r->how, "%s", json_string_value(json_object_get(o, "how")) ?: "");
    json_decref(o);
    return 0;
}

int gr_runs_reach(const char *path, char *blocked, size_t blen)
{
    return gr_reachable_by(path, GR_RUN_UID_BASE, GR_RUN_UID_BASE, 0, blocked, blen);
}

const char *gr_runs_base(const char *tmpdir, char *closed, size_t clen)
{
    static const char *const fallbacks[] = {"/tmp", "/var/tmp", NULL};
    return geteuid() == 0 ? gr_work_base(tmpdir, fallbacks, gr_runs_reach, closed, clen) : tmpdir;
}
