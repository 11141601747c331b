/*
 * Planted bug for tests/test_ch3.c: chapter 3's block sum (warp-shuffle, grid-stride) with the
 * __syncthreads() between "lane 0 of each warp stores its warp's total" and "warp 0 reads all the
 * totals" removed. Warp 0 may read a total another warp has not stored yet, so compute-sanitizer
 * --tool racecheck must report a shared-memory hazard. Run once at n = 1031 and exit 0; the test
 * judges the sanitizer's report, not the result.
 */
#include "wb.h"

#define BLOCK 256
#define WARP 32

__device__ long long warp_sum(long long v)
{
    for (int offset = WARP / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void sum_warp_shuffle_no_barrier(const int *input, unsigned long long *result, int n)
{
    __shared__ long long warp_totals[BLOCK / WARP];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
    long long v = warp_sum(i < n ? input[i] : 0);
    if (lane == 0) warp_totals[warp] = v;
    /* __syncthreads() belongs here. */
    if (warp == 0) {
        v = warp_sum(lane < BLOCK / WARP ? warp_totals[lane] : 0);
        if (lane == 0) atomicAdd(result, (unsigned long long)v);
    }
}

int main(void)
{
    const int n = 1031;
    wb_device dev;
    wb_device_init(&dev);
    int *h_in = (int *)malloc(sizeof(int) * n);
    wb_fill_i32(h_in, n, 42, 0, -(1 << 22), 1 << 22);
    int *d_in;
    unsigned long long *d_result;
    CUDA_CHECK(cudaMalloc(&d_in, sizeof(int) * n));
    CUDA_CHECK(cudaMalloc(&d_result, sizeof *d_result));
    CUDA_CHECK(cudaMemcpy(d_in, h_in, sizeof(int) * n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_result, 0, sizeof *d_result));
    sum_warp_shuffle_no_barrier<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d_in, d_result, n);
    LAUNCH_CHECK();
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_result));
    free(h_in);
    return 0;
}
