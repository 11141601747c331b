/* gpu-keeper — an idle CUDA context on every GPU it can see, held until its stdin ends: the grader starts one
 * for a grading or a class (grading/gpu.h: gr_gpu_keep) and lets it go by closing the pipe, or by ending.
 *
 * Why: a benchmark run holds its GPU alone from its process's start to its end, and a CUDA process starts
 * and ends faster where another context is open on the GPU. Measured on an H100 (issue 43), one benchmark
 * run of chapter 1: its context made in 176 ms instead of 255, torn down in 65 ms instead of 119; in a class
 * on two H100s the benchmark runs' median fell from 1.25 s to 1.02 s (the low count) and from 2.26 s to 1.98 s
 * (the high). The context launches nothing, so it takes no time from the kernels timed beside it.
 */
#include <cuda_runtime.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(void)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* a grader killed outright closes no pipe */
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) return 1;
    for (int d = 0; d < n; d++)
        if (cudaSetDevice(d) != cudaSuccess || cudaFree(0) != cudaSuccess) return 1;
    char buf[64];
    while (read(0, buf, sizeof buf) > 0) continue;
    return 0;
}
