/* gpu.h — which GPUs the grader may use (whether a sandboxed program reaches one: gr_gpu_probe, job.h). */
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

#endif /* GR_GPU_H */
