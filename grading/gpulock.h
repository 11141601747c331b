/*
 * gpulock.h — a lock per GPU, so that graders sharing a machine never time kernels while anything else
 * runs there.
 *
 * Untimed runs (correctness, sanitizer, evidence) take it shared for the length of one run and no longer;
 * benchmarks take it alone for their step. A waiting benchmark goes first: a turnstile (a second lock
 * file) that it holds while it waits keeps new shared runs out, so a stream of untimed runs from other
 * graders cannot starve it, and it waits at most for the shared runs already going (each bounded by its
 * time limit). Two flock(2)s on files in WB_GRADE_LOCK_DIR (default /tmp), so graders of different users
 * and different processes of one grader agree; each holder opens its own descriptors (a forked child
 * must not share its parent's lock).
 */
#ifndef GR_GPULOCK_H
#define GR_GPULOCK_H

#include <limits.h>

typedef enum { GR_LOCK_NONE, GR_LOCK_SHARED, GR_LOCK_ALONE } gr_lock_state;

typedef struct {
    char path[PATH_MAX], turn[PATH_MAX];
    int fd;
    gr_lock_state held;
} gr_gpu_lock;

/* The lock of the GPU whose id (an index or a UUID) is given; nothing is opened yet. */
void gr_gpu_lock_init(gr_gpu_lock *l, const char *gpu_id);

void gr_gpu_release(gr_gpu_lock *l);

/* Another lock file held alone (slowprof's counters cache): the fd whose close lets go, or -1. */
int gr_lock_alone(const char *path);

/* For one run: takes l as `how` (GR_LOCK_SHARED or GR_LOCK_ALONE) unless this holder has it already (a
 * benchmark step's runs) or there is none. 1: taken here, release it after the run; 0: nothing to release. */
int gr_gpu_take_for_run(gr_gpu_lock *l, gr_lock_state how);

/* Whether a run that ended so is run once more with the GPU alone: it could not allocate GPU memory
 * (WB_EXIT_NO_MEMORY) while it shared the GPU (held: how it held the lock), and the memory may have been
 * another run's. A failure alone (a benchmark's, a confirmation's, the retry's) is the run's own. Pure. */
int gr_gpu_retry_alone(int exited, int code, gr_lock_state held);

#endif /* GR_GPULOCK_H */
