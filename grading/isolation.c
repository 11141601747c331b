/* isolation.c — see isolation.h. */
#define _GNU_SOURCE 1
#include "isolation.h"

gr_iso_kind gr_iso_decide(const gr_iso_facts *f)
{
    if (f->bwrap_works) return GR_ISO_BWRAP;
    if (f->root) return GR_ISO_UID;
    return f->insecure ? GR_ISO_INSECURE : GR_ISO_NONE;
}

typedef struct {
    int errors;
    char why[300];
} gr_close_state;

/* Others lose every bit; the group becomes the course's (its read/exec bits stay: the reference's
 * runs carry that group). Symbolic links are left alone (lchown would change the link, not its target). */
static void gr_close_one(const char *path, const struct stat *st, void *ctx)
{
    gr_close_state *k = ctx;
    if (S_ISLNK(st->st_mode)) return;
    if ((chown(path, (uid_t)-1, (gid_t)GR_COURSE_GID) != 0 || chmod(path, st->st_mode & 07770) != 0) && !k->errors++)
        snprintf(k->why, sizeof k->why, "%s: %s", path, strerror(errno));
}

int gr_iso_close(const char *root, const char *const *extra, char *why, size_t wlen)
{
    static const char *const trees[] = {"solutions", "tests/grading", "handouts/instructor", "grading/secret",
                                        "build/grades", "build/grade-out", "build/solution*", NULL};
    gr_close_state k = {0};
    for (const char *const *t = trees; *t; t++) {
        char p[PATH_MAX];
        snprintf(p, sizeof p, "%s/%s", root, *t);
        glob_t g;
        if (glob(p, 0, NULL, &g) != 0) continue; /* not in this copy (the student release has no solutions/) */
        for (size_t i = 0; i < g.gl_pathc; i++) gr_walk(g.gl_pathv[i], gr_close_one, &k);
        globfree(&g);
    }
    /* the folders given on the command line themselves only: what they hold cannot be reached, keeping its modes */
    for (const char *const *e = extra; e && *e; e++) {
        struct stat st;
        if (stat(*e, &st) == 0) gr_close_one(*e, &st, &k);
    }
    if (k.errors) snprintf(why, wlen, "%s", k.why);
    return k.errors;
}

/* The first regular file (not a link) that matches the glob pattern under root; 0 if none. */
static int gr_first_file(const char *root, const char *pattern, char *out, size_t len)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", root, pattern);
    glob_t g;
    int found = 0;
    if (glob(p, 0, NULL, &g) != 0) return 0;
    for (size_t i = 0; i < g.gl_pathc && !found; i++) {
        struct stat st;
        found = lstat(g.gl_pathv[i], &st) == 0 && S_ISREG(st.st_mode);
        if (found) snprintf(out, len, "%s", g.gl_pathv[i]);
    }
    globfree(&g);
    return found;
}

int gr_iso_verify(const char *root, uid_t uid, char *why, size_t wlen)
{
    static const char *const probed[] = {"solutions/*/*.cu", "build/solution*"};
    for (int i = 0; i < 2; i++) {
        char file[PATH_MAX];
        if (!gr_first_file(root, probed[i], file, sizeof file)) continue;
        pid_t pid = fork();
        if (pid == 0) { /* exactly what a student run is: its own uid and gid, no supplementary groups */
            if (setgroups(0, NULL) || setgid((gid_t)uid) || setuid(uid)) _exit(2);
            int fd = open(file, O_RDONLY);
            _exit(fd >= 0 ? 1 : errno == EACCES ? 0 : 3);
        }
        int st = 0;
        if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            int c = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
            snprintf(why, wlen, "as uid %u, %s %s", (unsigned)uid, file,
                     c == 1 ? "could still be opened" : c == 2 ? "could not be tested (setuid failed)"
                                                       : "failed with another error than EACCES");
            return -1;
        }
    }
    return 0;
}

/* A sysctl's integer value, or -1 where this kernel has no such file. */
static int gr_sysctl_int(const char *path)
{
    FILE *f = fopen(path, "r");
    int v;
    if (!f) return -1;
    if (fscanf(f, "%d", &v) != 1) v = -1;
    fclose(f);
    return v;
}

gr_bwrap_why gr_bwrap_why_decide(const gr_bwrap_host *h)
{
    if (h->switched_off) return GR_BWRAP_SWITCHED_OFF;
    if (!h->installed) return GR_BWRAP_MISSING;
    if (h->apparmor_restrict == 1) return GR_BWRAP_APPARMOR;
    if (h->userns_clone == 0) return GR_BWRAP_USERNS_CLONE_OFF;
    if (h->max_userns == 0) return GR_BWRAP_NO_USERNS;
    return GR_BWRAP_FAILS;
}

void gr_iso_refusal(gr_bwrap_why w, char *out, size_t len)
{
    static const struct { const char *cause, *fix; } says[] = {
        [GR_BWRAP_SWITCHED_OFF] = {"bubblewrap switched off by WB_GRADE_NO_BWRAP", "unset WB_GRADE_NO_BWRAP"},
        [GR_BWRAP_MISSING] = {"no bubblewrap installed", "sudo apt-get install bubblewrap"},
        [GR_BWRAP_APPARMOR] = {"bubblewrap cannot make a user namespace: AppArmor restricts unprivileged user namespaces, "
                               "kernel.apparmor_restrict_unprivileged_userns = 1 (Ubuntu 24.04's default)",
                               "an AppArmor profile for bwrap that allows userns, or sudo sysctl "
                               "kernel.apparmor_restrict_unprivileged_userns=0"},
        [GR_BWRAP_USERNS_CLONE_OFF] = {"bubblewrap cannot make a user namespace: kernel.unprivileged_userns_clone = 0",
                                       "sudo sysctl kernel.unprivileged_userns_clone=1"},
        [GR_BWRAP_NO_USERNS] = {"bubblewrap cannot make a user namespace: user.max_user_namespaces = 0",
                                "sudo sysctl user.max_user_namespaces=10000"},
        [GR_BWRAP_FAILS] = {"bubblewrap is installed but its trial sandbox fails here: see bwrap --unshare-all --ro-bind / / true",
                            "make bubblewrap work for this user"},
    };
    snprintf(out, len, "grade: cannot isolate the course files from student code (not root, and %s); fix: %s (or run the grader as root)",
             says[w].cause, says[w].fix);
}

int gr_iso_setup(const char *root, int insecure, int dry, const char *const *extra, gr_iso *out, char *why, size_t wlen)
{
    gr_box box = gr_sandbox_box(); /* the one probe of bubblewrap: every run reads the answer (out->box) */
    gr_iso_facts f = {.root = geteuid() == 0, .bwrap_works = box == GR_BOX_BWRAP, .insecure = insecure};
    *out = (gr_iso){.box = box, .kind = gr_iso_decide(&f)};
    uid_t probe = gr_run_uid(getpid()) + 63u; /* of the block this process's runs get (sandbox.h), never theirs */
    snprintf(out->root, sizeof out->root, "%s", root);
    why[0] = 0;
    if (out->kind == GR_ISO_NONE) {
        char p[PATH_MAX];
        gr_bwrap_host h = {.switched_off = getenv("WB_GRADE_NO_BWRAP") != NULL,
                           .installed = gr_which("bwrap", p, sizeof p),
                           .apparmor_restrict = gr_sysctl_int("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"),
                           .userns_clone = gr_sysctl_int("/proc/sys/kernel/unprivileged_userns_clone"),
                           .max_userns = gr_sysctl_int("/proc/sys/user/max_user_namespaces")};
        gr_iso_refusal(gr_bwrap_why_decide(&h), why, wlen);
        snprintf(out->line, sizeof out->line, "none: refused");
        return 3;
    }
    if (f.root) {
        char e[400];
        if (dry) { /* make doctor: say what is, change nothing */
            int open_now = gr_iso_verify(root, probe, e, sizeof e);
            /* closed as verified: the doctor's sanitizer probe gives the references' runs the course group */
            out->closed = !open_now;
            snprintf(out->line, sizeof out->line, "%s%s%s", out->kind == GR_ISO_BWRAP ? "bubblewrap, " : "",
                     out->kind == GR_ISO_UID ? "uid (one per run), " : "",
                     open_now ? "course files open to others now (the grader closes them when it starts)"
                              : "course files closed");
            return 0;
        }
        if (gr_iso_close(root, extra, e, sizeof e)) {
            snprintf(why, wlen, "grade: cannot close the course files to student runs: %s", e);
            return 3;
        }
        if (gr_iso_verify(root, probe, e, sizeof e)) {
            snprintf(why, wlen, "grade: the course files are still readable by a run uid: %s", e);
            return 3;
        }
        out->closed = 1;
    }
    if (out->kind == GR_ISO_BWRAP)
        snprintf(out->line, sizeof out->line, "bubblewrap%s", out->closed ? ", course files closed to the run uids" : "");
    else if (out->kind == GR_ISO_UID)
        snprintf(out->line, sizeof out->line, "uid %u, course files closed", (unsigned)probe);
    else
        snprintf(out->line, sizeof out->line, "insecure: --insecure-sandbox, student code can read the course files");
    return 0;
}

gid_t gr_iso_run_group(const gr_iso *iso, const char *prog)
{
    if (!iso || !iso->closed || !prog || !iso->root[0]) return 0;
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/build/solution", iso->root);
    if (strncmp(prog, p, strlen(p)) == 0) return (gid_t)GR_COURSE_GID;
    /* a reference copied into a work tree (gr_stage_reference, submission.c): the grader's own file, in
     * the course group, closed to others; no run can make such a file */
    struct stat st;
    int staged = lstat(prog, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == 0 && st.st_gid == (gid_t)GR_COURSE_GID;
    return staged && !(st.st_mode & 07) ? (gid_t)GR_COURSE_GID : 0;
}

int gr_iso_protect_work(const char *work, gid_t gid)
{
    if (geteuid() != 0) return chmod(work, 0711); /* one uid for every run: nothing to separate */
    return chown(work, 0, gid) == 0 && chmod(work, 0710) == 0 ? 0 : -1;
}
