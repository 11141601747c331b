/*
 * Planted bug for tests/test_ch2.c: chapter 2's `shared` kernel with its __syncthreads() removed.
 * Thread tx reads tile[tx-1], which thread tx-1 may not have written yet (at a warp boundary it
 * belongs to another warp), so compute-sanitizer --tool racecheck must report a shared-memory hazard.
 * Run once at n = 1031 (not a multiple of the block) and exit 0; the test judges the sanitizer's
 * report, not the result.
 */
#include "wb.h"

#define BLOCK 256

__global__ void adjdiff_shared_no_barrier(const int *input, int *result, int n)
{
    __shared__ int tile[BLOCK];
    int tx = threadIdx.x;
    int i = blockIdx.x * BLOCK + tx;
    if (i < n) tile[tx] = input[i];
    /* __syncthreads() belongs here. */
    if (i < n) {
        if (tx > 0)
            result[i] = tile[tx] - tile[tx - 1];
        else
            result[i] = tile[0] - (i > 0 ? input[i - 1] : 0);
    }
}

int main(void)
{
    const int n = 1031;
    wb_device dev;
    wb_device_init(&dev);
    int *h_in = (int *)malloc(sizeof(int) * n);
    wb_fill_i32(h_in, n, 42, 0, 0, (1 << 30) - 1);
    int *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, sizeof(int) * n));
    CUDA_CHECK(cudaMalloc(&d_out, sizeof(int) * n));
    CUDA_CHECK(cudaMemcpy(d_in, h_in, sizeof(int) * n, cudaMemcpyHostToDevice));
    adjdiff_shared_no_barrier<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d_in, d_out, n);
    LAUNCH_CHECK();
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    free(h_in);
    return 0;
}
