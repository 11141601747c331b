/*
 * refkeep.h — the reference's runs that a class's graders share. A class draws its seeds once, so the reference's
 * results for a seed and chunk of sizes are the same for every entry: the first grader to need them runs the
 * reference and keeps the run's folder, the others read it (correctness.c). Its benchmark runs on one GPU are kept
 * for perf.reference_reuse_s (perf.c). A kept folder is moved in whole by rename(2), named with when it was kept;
 * the newest is read. They lie in gr_config.keep, beside the work trees, closed to every run (mode 0700, hidden
 * under bubblewrap: gr_cmd_init), removed when the class ends; outside a class (keep "") nothing is kept.
 */
#ifndef GR_REFKEEP_H
#define GR_REFKEEP_H

#include "job.h"

/* The class's folder of kept runs into x->keep, made beside the work trees; "" where it cannot be made. */
void gr_keep_open(gr_config *x);

/* Removes the folder and everything kept in it. */
void gr_keep_close(gr_config *x);

/* The newest kept folder called name, kept at most max_age_s ago (0: however long ago), into path; its age in
 * seconds (NULL: not wanted) and its run's wall time. 0 when found, -1 when not (or keep is ""). */
int gr_keep_find(const gr_config *x, const char *name, double max_age_s, char *path, size_t len, double *age_s,
                 double *wall_s);

/* The lock of name, held alone (the caller closes the fd returned): a grader that finds nothing kept takes it,
 * looks again, and runs the reference only if still nothing is kept, so the graders that start a class together
 * wait for one run instead of each making its own. Taken before the GPU's lock, never after. -1: no lock. */
int gr_keep_lock(const gr_config *x, const char *name);

/* A finished run's folder dir (its files complete), which took wall_s, kept as name: moved into the keep folder.
 * Returns 0 with the kept path in path (dir is gone), or -1 (nothing kept: keep is "", or the move failed). */
int gr_keep_put(const gr_config *x, const char *dir, const char *name, double wall_s, char *path, size_t len);

#endif /* GR_REFKEEP_H */
