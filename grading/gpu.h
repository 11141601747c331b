/*
 * gpu.h — which GPUs the grader may use, and a lock per GPU so that graders sharing a machine never time kernels
 * while anything else runs there. Untimed runs take it shared for one run, benchmarks alone for their step.
 * Phase-fair: a waiting benchmark holds a turnstile (a second lock file) so new shared runs cannot starve it (it
 * waits at most for the shared runs already going, each bounded by its time limit), and benchmarks queue for the
 * turnstile one at a time on a third, so shared runs that arrived during a benchmark go before the next one
 * (racing benchmarks starved a class's newest entries while the GPU idled). flock(2)s in WB_GRADE_LOCK_DIR
 * (default /tmp), shared by graders of any user; each holder opens its own (a forked child must not share it).
 */
#ifndef GR_GPU_H
#define GR_GPU_H

#include "gr_util.h"

/* The GPUs this grader may use: CUDA_VISIBLE_DEVICES's where it is set, else nvidia-smi's. The k-th one's id
 * (an index or a UUID) for a child's CUDA_VISIBLE_DEVICES and the lock's name. */
void gr_gpu_id(int k, char *id, size_t len);

int gr_gpu_count(void); /* 0 when there is none (nvidia-smi lists none, or is missing) */

/* The k-th GPU's model name as nvidia-smi gives it ("NVIDIA H100 80GB HBM3": the recorded tables' "gpu",
 * the counters cache's key), or "" where it cannot say. */
void gr_gpu_name(int k, char *out, size_t len);

typedef enum { GR_LOCK_NONE, GR_LOCK_SHARED, GR_LOCK_ALONE } gr_lock_state;

typedef struct {
    char path[PATH_MAX], turn[PATH_MAX], queue[PATH_MAX];
    int fd, queue_fd; /* queue_fd: held from a benchmark's wait to its release */
    gr_lock_state held;
} gr_gpu_lock;

/* The lock of the k-th GPU (named by its id); nothing is opened yet. */
void gr_gpu_lock_init(gr_gpu_lock *l, int k);

void gr_gpu_release(gr_gpu_lock *l);

/* Starts build/gpu-keeper (tools/gpu-keeper.cu: an idle context on each GPU, which makes every run's start and
 * end cheaper) and returns the pipe whose close lets it go; -1 where it cannot start (the runs go as before). */
int gr_gpu_keep(const char *root);

/* Another lock file held alone (evidence.c's counters cache): the fd whose close lets go, or -1. */
int gr_lock_alone(const char *path);

/* For one run or a benchmark step: takes l as `how` unless it is held already or NULL. 1: release it after; 0:
 * nothing to release (also where the lock files cannot be opened: the runs go unlocked). */
int gr_gpu_take_for_run(gr_gpu_lock *l, gr_lock_state how);

/* Whether a run goes once more alone: it ran out of GPU memory (WB_EXIT_NO_MEMORY) while sharing the GPU, where
 * the memory may have been another run's; a failure alone is its own. Pure. */
int gr_gpu_retry_alone(int exited, int code, gr_lock_state held);

#endif /* GR_GPU_H */
