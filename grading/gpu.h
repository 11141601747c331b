/* gpu.h — which GPUs the grader may use, a lock per GPU, and whether a sandboxed program reaches one. */
#ifndef GR_GPU_H
#define GR_GPU_H

#include "job.h"

/* The GPUs this grader may use: those CUDA_VISIBLE_DEVICES names when it is set, else every GPU
 * nvidia-smi lists. gr_gpu_id gives the k-th one's id (an index or a UUID) for the child's
 * CUDA_VISIBLE_DEVICES and the lock's name. */
void gr_gpu_id(int k, char *id, size_t len);

int gr_gpu_count(void); /* 0 when there is none (nvidia-smi lists none, or is missing) */

/* Can a sandboxed program reach the GPU? Where bubblewrap cannot pass the device through (a kernel
 * that refuses device nodes in a user namespace, say) but the plain sandbox can, GPU runs go without
 * bubblewrap, and the report says so. Asked once per process, with a one-element run. */
void gr_gpu_probe(const gr_config *x, const gr_sub_state *s, const char *prog, const gr_chapter_rubric *ch, const char *work,
                         gr_sub_result *res);

#endif /* GR_GPU_H */
