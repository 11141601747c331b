/* sandbox.h — run one untrusted program and always come back. Each run: its own process group and working directory, a
 * wall-clock timeout that ends the whole group (SIGTERM, then SIGKILL), output captured head and tail, rlimits (never
 * on address space: CUDA maps ~13 GiB, ~170 GiB under compute-sanitizer), a polled disk cap, a minimal environment. As
 * root: a uid of its own (groups: isolation.h) and, without bubblewrap, /proc with hidepid=2 and no network where the
 * kernel allows. Where bubblewrap works it is an extra layer: read-only root, private /tmp, the given directories
 * hidden, only the working directory writable, GPU nodes bound in. The caller becomes a child subreaper: processes that
 * escape the group (setsid, double fork) come back to it and die with the run. One run at a time. */
#ifndef GR_SANDBOX_H
#define GR_SANDBOX_H

#include "gr_util.h"
#include "janitor.h" /* gr_runs_mkdtemp lists its folder there */

#include <glob.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

/* As root, each run gets a uid of its own (no account needed): RLIMIT_NPROC counts a uid's tasks machine-wide,
 * so runs sharing one uid ate each other's process budget (nvcc failed to fork) and a fork bomb starved others. */
#define GR_RUN_UID_BASE 0x40000000u
#define GR_TAIL 4096
#define GR_OUT_CAP (64 * 1024) /* the head kept where opts.out_cap is 0 */

/* Where a tree of folders for runs goes: tmpdir, or as root /tmp or /var/tmp where the run uids cannot pass
 * tmpdir (a clone under /root at 0700). NULL when none will do, with the folder that stopped them in `closed`. */
const char *gr_runs_base(const char *tmpdir, char *closed, size_t clen);

/* A fresh folder <the runs' base of TMPDIR>/<prefix>.XXXXXX of that mode into out (len >= PATH_MAX), on the
 * janitor's list (janitor.h; remove it with gr_janitor_rm): 0; -1 where no base will do (the folder that stopped
 * the runs in closed); -2 where mkdtemp or chmod failed (errno; nothing left). */
int gr_runs_mkdtemp(int janitor, const char *prefix, mode_t mode, char *out, size_t len, char *closed, size_t clen);

/* Whether a run may use bubblewrap, probed once (gr_sandbox_box) and handed to each run; GR_BOX_PROBE: it probes. */
typedef enum { GR_BOX_PROBE = 0, GR_BOX_NO_BWRAP, GR_BOX_BWRAP } gr_box;

typedef struct {
    const char *const *argv;      /* argv[0]: an absolute path, or a name looked up on the grader's PATH */
    const char *workdir;          /* cwd of the program; the only writable place under bubblewrap */
    double timeout_s;             /* wall clock */
    double cpu_s;                 /* RLIMIT_CPU; 0: none */
    long long fsize;              /* RLIMIT_FSIZE in bytes; 0: none */
    long long disk;               /* cap on the bytes under workdir, polled; 0: none */
    int nproc;                    /* processes/threads the run may add (≥ 64 for CUDA) */
    size_t out_cap;               /* bytes of the head of stdout and of stderr kept */
    const char *const *env;       /* extra "NAME=value" entries, NULL-terminated, or NULL */
    const char *const *ro_paths;  /* files/dirs made visible read-only under bubblewrap (after hiding) */
    const char *const *hide;      /* directories hidden (empty tmpfs) under bubblewrap */
    int gpu;                      /* bind the NVIDIA device nodes in */
    int no_bwrap;                 /* do not use bubblewrap even where it works */
    gr_box box;                   /* whether bubblewrap works here, as probed once; GR_BOX_PROBE: probe now */
    gid_t gid;                    /* as root: the run's group (its submission's, isolation.h); 0: its uid */
    gid_t extra_gid;              /* as root: one supplementary group (the course's, for the reference); 0: none */
    int janitor;                  /* the grading's janitor (janitor.h), told of the run's process group; 0: none */
} gr_run_opts;

typedef struct {
    int exited, code;             /* normal exit and its status */
    int signaled, sig;            /* killed by a signal (after a timeout: the one that ended it) */
    int timed_out, cpu_exceeded, fsize_exceeded, disk_exceeded, start_failed;
    double wall_s;
    char *out, *err;              /* captured text: head, a marker of what was cut, tail */
    unsigned long long out_total;
    char how[96];                 /* the isolation used, for the report */
} gr_run_result;

/* The longest out or err (with its NUL) a run keeps with opts.out_cap = cap: head, cut marker (≤ 43), tail. */
#define GR_RUN_TEXT_MAX(cap) (((cap) ? (size_t)(cap) : GR_OUT_CAP) + 48 + GR_TAIL)

/* Runs the program; never returns before it and everything it started are gone. Returns 0, or -1 if
 * the program could not be started at all (res->start_failed, reason in res->err). */
int gr_run(const gr_run_opts *o, gr_run_result *res);

void gr_run_result_free(gr_run_result *r);

/* GR_BOX_BWRAP if bubblewrap, not switched off, runs a trivial sandbox as gr_run would. A fork each call: keep it. */
gr_box gr_sandbox_box(void);
/* gr_run_box with WB_GRADE_NO_BWRAP, probing only where o->box kept no answer. Never GR_BOX_PROBE. */
gr_box gr_run_box_here(const gr_run_opts *o);

/* ---------------------------------------------------------------- the pure parts of a run */
/* As root: the uid of the run whose first process is `pid`, unique among the runs alive (a multiple of 64 above
 * GR_RUN_UID_BASE). */
uid_t gr_run_uid(pid_t pid);

/* Never bubblewrap with o->no_bwrap or `switched_off` (WB_GRADE_NO_BWRAP), else o->box (GR_BOX_PROBE: probe). */
gr_box gr_run_box(const gr_run_opts *o, int switched_off);

/* What bubblewrap's command line is made of, every path already checked; the lists NULL-terminated, or NULL. */
typedef struct {
    const char *bwrap;            /* bubblewrap's path; NULL: no bubblewrap, the program runs as it is */
    const char *prog;             /* an absolute path */
    const char *const *args;      /* after argv[0] */
    const char *workdir;          /* bound writable; the program starts there */
    const char *const *devices;   /* GPU device nodes bound in */
    const char *const *tmpfs;     /* folders hidden under an empty tmpfs (homes, hidden paths) */
    const char *const *ro_paths;  /* bound read-only after the hiding */
} gr_argv_spec;

/* The argv gr_run executes: bubblewrap's (no network, private /tmp, read-only root, the spec's paths) ending
 * in the program and its arguments, or those alone. NULL-terminated, the spec's strings; free() the array. */
const char **gr_run_argv(const gr_argv_spec *s);

/* The run's whole environment: PATH (the program's folder, CUDA's, the system's), HOME and TMPDIR (the working
 * directory), LANG=C, LC_ALL=C, the grader's LD_LIBRARY_PATH (`ld`, may be NULL) and the caller's `extra`. */
typedef struct {
    char path[PATH_MAX + 64], home[PATH_MAX + 8], tmp[PATH_MAX + 8], ld[8192];
    const char *v[64];
} gr_run_env;
void gr_run_env_make(gr_run_env *e, const char *prog, const char *workdir, const char *ld, const char *const *extra);

/* How a run ended, in this order of precedence (a timeout that ends in SIGKILL is a timeout). */
typedef enum {
    GR_END_NOT_STARTED,
    GR_END_TIMED_OUT,
    GR_END_DISK,                  /* killed for the bytes written under its working directory */
    GR_END_FSIZE,                 /* RLIMIT_FSIZE: SIGXFSZ */
    GR_END_CPU,                   /* RLIMIT_CPU: SIGXCPU, or SIGKILL at the hard limit */
    GR_END_CRASHED,               /* another signal */
    GR_END_EXITED
} gr_run_end;

/* What the runner knows when the program is gone. */
typedef struct {
    int status;                   /* from waitpid */
    int timed_out, disk_exceeded; /* the runner killed it for that */
    double wall_s, cpu_s;         /* cpu_s: its RLIMIT_CPU (0: none) */
    int bwrap;                    /* it ran under bubblewrap, which reports a death by signal as exit 128+sig */
    const char *err;              /* its captured stderr ("bwrap: ..." when bubblewrap could not start it) */
} gr_run_facts;

/* Fills how the run ended (exited/code, signaled/sig, the limits, start_failed, wall_s); the rest of *r stays. */
void gr_run_decode(const gr_run_facts *f, gr_run_result *r);
gr_run_end gr_run_end_of(const gr_run_result *r);

void gr_run_describe(const gr_run_result *r, const gr_run_opts *o, char *buf, size_t len);

#endif /* GR_SANDBOX_H */
