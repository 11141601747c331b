/* isolation.h — before any student code is built or run, keep it from the course files (solutions, reference
 * binaries, test submissions, other students' reports), or refuse:
 *   bubblewrap works → GR_ISO_BWRAP: the course tree is hidden inside the sandbox
 *   else, as root    → GR_ISO_UID: a uid per run (sandbox.c); the course files lose their "other" bits and get
 *                      the course group, which only the reference's runs carry; a probe as a run uid must get
 *                      EACCES on a solution and on a reference binary
 *   else             → GR_ISO_NONE: refused (exit 3), unless --insecure-sandbox (GR_ISO_INSECURE, in every report)
 * As root the course files are closed under bubblewrap too: a GPU run may go without it (gpu.c), and then the
 * uid keeps the solutions out of reach. */
#ifndef GR_ISOLATION_H
#define GR_ISOLATION_H

#include "sandbox.h"

typedef enum { GR_ISO_NONE, GR_ISO_BWRAP, GR_ISO_UID, GR_ISO_INSECURE } gr_iso_kind;

/* The closed course files' group (no account needed): the reference's runs' one supplementary group, never a
 * student run's. Outside the run uids' range (sandbox.h). */
#define GR_COURSE_GID 0x3fff0000u
/* Each submission's runs share a group of their own, the only one its work tree is open to: one student's run
 * cannot reach another's files, even knowing the path (/proc/PID/cmdline). */
#define GR_SUB_GID_BASE 0x20000000u

/* What the decision depends on (bwrap_works: gr_sandbox_box), for tests to pose. */
typedef struct {
    int root, bwrap_works, insecure;
} gr_iso_facts;

typedef struct {
    gr_iso_kind kind;
    int closed;        /* the course files were closed and the probe got EACCES */
    char line[300];    /* for the terminal, make doctor and the reports' "isolation" field */
    char root[PATH_MAX]; /* the workbook whose build/solution* runs get the course group */
    gr_box box;        /* probed once here, every run's gr_run_opts.box (gr_cmd_init); GR_BOX_PROBE: not set up */
} gr_iso;

/* Why bubblewrap does not work for this (non-root) user, from what the host says; each cause's fix: gr_iso_refusal. */
typedef enum {
    GR_BWRAP_SWITCHED_OFF, GR_BWRAP_MISSING, GR_BWRAP_APPARMOR,
    GR_BWRAP_USERNS_CLONE_OFF, GR_BWRAP_NO_USERNS, GR_BWRAP_FAILS
} gr_bwrap_why;

typedef struct {
    int switched_off, installed; /* WB_GRADE_NO_BWRAP; bwrap on PATH */
    int apparmor_restrict, userns_clone, max_userns; /* their sysctls (/proc/sys), -1 where absent */
} gr_bwrap_host;

gr_bwrap_why gr_bwrap_why_decide(const gr_bwrap_host *h);
/* The line the grader prints when it refuses: the cause and what to do. */
void gr_iso_refusal(gr_bwrap_why w, char *out, size_t len);

gr_iso_kind gr_iso_decide(const gr_iso_facts *f);

/* Closes the course files under the workbook `root` (isolation.c lists them) and the `extra` folders themselves (the
 * class, the output): group GR_COURSE_GID, nothing for others. Returns how many paths failed (why: the first). */
int gr_iso_close(const char *root, const char *const *extra, char *why, size_t wlen);

/* As `uid` (a forked child: no supplementary groups, gid = uid), open() one solution source and one
 * reference binary under `root`; 0 if each failed with EACCES (or none exists), else -1 and why. */
int gr_iso_verify(const char *root, uid_t uid, char *why, size_t wlen);

/* Everything above for this process. Returns 0 to go on, or 3 (the refusal or the failure in why); *out is the
 * configuration's `iso`. With `dry` (make doctor) nothing changes: the probe says whether the course is closed. */
int gr_iso_setup(const char *root, int insecure, int dry, const char *const *extra, gr_iso *out, char *why, size_t wlen);

/* The supplementary group a run of `prog` gets under `iso`: GR_COURSE_GID for the reference binaries
 * (they must read themselves), 0 for anything else. */
gid_t gr_iso_run_group(const gr_iso *iso, const char *prog);

/* Makes a submission's work tree reachable by its own runs only: owner root, group `gid`, 0710. */
int gr_iso_protect_work(const char *work, gid_t gid);

#endif /* GR_ISOLATION_H */
