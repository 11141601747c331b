/*
 * sandbox.h — run one untrusted program and always come back.
 *
 * Each run gets its own process group and working directory, a wall-clock timeout that ends the whole
 * group (SIGTERM, then SIGKILL after a grace period), capped capture of stdout and stderr (head and
 * tail), setrlimit on CPU time, file size, core dumps and processes (never on address space: CUDA maps
 * ~13 GiB of virtual memory, ~170 GiB under compute-sanitizer), a polled cap on the disk used under the
 * working directory, and a minimal environment. As root the program runs as an unprivileged uid of its own
 * (with its submission's group and, for the reference only, the course group: isolation.h) and, without
 * bubblewrap, a /proc of its own mounted with hidepid=2 (other uids' processes, the grader's included, are
 * invisible: no command line with the seeds, no other run's paths)
 * (gr_run_uid), so the process limit applies to it alone, in a new network namespace where the kernel allows. Where bubblewrap works,
 * it is an extra layer: read-only root, private /tmp, the given directories hidden (the repository with
 * solutions/ and the grader), only the working directory writable, GPU device nodes bound in.
 *
 * The caller becomes a child subreaper, so processes that escape the group (setsid, double fork) come
 * back to it and are killed when the run ends. Call gr_run from one thread, one run at a time.
 */
#ifndef GR_SANDBOX_H
#define GR_SANDBOX_H

#include "gr_util.h"

#include <glob.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

#define GR_NOBODY 65534
/* As root, each run gets a uid of its own (no account is needed for one). RLIMIT_NPROC counts a uid's
 * tasks machine-wide, so with one shared uid, runs going on in parallel ate each other's process
 * budget (nvcc and the shell failed to fork), and a fork bomb in one submission could starve another's.
 * The grader's pid and a counter make the uid unique among the runs alive at a time. */
#define GR_RUN_UID_BASE 0x40000000u
#define GR_TAIL 4096

/* 1 if a run (a uid of the runs' block, no group of the grader's) can pass every folder down to path;
 * else 0 and the folder that stops it in blocked. */
int gr_runs_reach(const char *path, char *blocked, size_t blen);

/* Where a tree of folders for runs goes: tmpdir, or, as root (the runs go as other uids), /tmp or /var/tmp
 * where the runs cannot pass tmpdir (a clone under /root at 0700). NULL when none will do, with the
 * folder that stopped the runs in `closed`. */
const char *gr_runs_base(const char *tmpdir, char *closed, size_t clen);

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
    gid_t gid;                    /* as root: the run's group (its submission's, isolation.h); 0: its uid */
    gid_t extra_gid;              /* as root: one supplementary group (the course's, for the reference); 0: none */
} gr_run_opts;

typedef struct {
    int exited, code;             /* normal exit and its status */
    int signaled, sig;            /* killed by a signal (after a timeout: the one that ended it) */
    int timed_out, cpu_exceeded, fsize_exceeded, disk_exceeded, start_failed;
    double wall_s;
    char *out, *err;              /* captured text: head, a marker of what was cut, tail */
    unsigned long long out_total, err_total;
    char how[96];                 /* the isolation used, for the report */
} gr_run_result;

/* The one pair that hands a run's result (and the caller's own code `rc`) from a child process to
 * its parent: a JSON file. load returns -1 (and a result marked start_failed) if the file is missing. */
int gr_run_result_save(const char *path, int rc, const gr_run_result *r);
int gr_run_result_load(const char *path, int *rc, gr_run_result *r);

typedef struct {
    char *head;
    size_t hlen, cap;
    char tail[GR_TAIL];
    size_t tlen;                  /* bytes in the ring, ≤ GR_TAIL */
    size_t tpos;
    unsigned long long total;
    int eof;
} gr_capture;

/* Runs the program; never returns before it and everything it started are gone. Returns 0, or -1 if
 * the program could not be started at all (res->start_failed, reason in res->err). */
int gr_run(const gr_run_opts *o, gr_run_result *res);

void gr_run_result_free(gr_run_result *r);

/* 1 if gr_run would use bubblewrap here (present, not switched off by WB_GRADE_NO_BWRAP, and a trivial
 * sandbox runs the way gr_run starts it: as nobody when root); probed once. */
int gr_sandbox_bwrap_works(void);

/* One line saying how the run ended, for reports. */
void gr_run_describe(const gr_run_result *r, const gr_run_opts *o, char *buf, size_t len);

#endif /* GR_SANDBOX_H */
