/*
 * For tests/test_inspect.c: kernels whose occupancy is limited by different resources, and what the
 * CUDA occupancy API says about each. The test compiles this file with `nvcc -Xptxas -v`, lets
 * `inspect resources` compute blocks per SM from the printed registers and shared memory and the
 * GPU's properties, and compares with the API's answer printed here.
 *
 * Prints one JSON line per (kernel, block size, dynamic shared memory):
 *   {"kernel":"occ_regs","block":256,"dsmem":0,"api_blocks":3,"num_regs":80,"static_smem":0}
 * Exits 3 without a GPU (the test then skips).
 */
#include "wb.h"

/* few registers, no shared memory: threads or the block limit decide */
__global__ void occ_light(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * 2.0f;
}

/* many values live at once: registers decide */
__global__ void occ_regs(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc[40];
#pragma unroll
    for (int j = 0; j < 40; j++) acc[j] = in[(i + j * 1031) % n];
    float x = in[i % n];
#pragma unroll
    for (int r = 0; r < 8; r++)
#pragma unroll
        for (int j = 0; j < 40; j++) acc[j] = acc[j] * x + acc[(j + 13) % 40];
    float s = 0;
#pragma unroll
    for (int j = 0; j < 40; j++) s += acc[j];
    if (i < n) out[i] = s;
}

/* 40 000 bytes of static shared memory: shared memory decides */
__global__ void occ_smem(const float *in, float *out, int n)
{
    __shared__ float big[10000];
    for (int j = threadIdx.x; j < 10000; j += blockDim.x) big[j] = in[(blockIdx.x + j) % n];
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = big[(threadIdx.x * 37) % 10000];
}

/* dynamic shared memory, sized at launch */
__global__ void occ_dynamic(const float *in, float *out, int n)
{
    extern __shared__ float dyn[];
    dyn[threadIdx.x] = in[(blockIdx.x * blockDim.x + threadIdx.x) % n];
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = dyn[blockDim.x - 1 - threadIdx.x];
}

static void report(const char *name, const void *fn, int block, size_t dsmem)
{
    cudaFuncAttributes attr;
    CUDA_CHECK(cudaFuncGetAttributes(&attr, fn));
    int blocks = -1;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fn, block, dsmem));
    printf("{\"kernel\":\"%s\",\"block\":%d,\"dsmem\":%zu,\"api_blocks\":%d,\"num_regs\":%d,\"static_smem\":%zu}\n",
           name, block, dsmem, blocks, attr.numRegs, attr.sharedSizeBytes);
}

int main(void)
{
    wb_device dev;
    wb_device_init(&dev);
    static const int blocks[] = {32, 96, 128, 256, 384, 512, 1024};
    for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
        int block = blocks[b];
        report("occ_light", (const void *)occ_light, block, 0);
        report("occ_regs", (const void *)occ_regs, block, 0);
        report("occ_smem", (const void *)occ_smem, block, 0);
        static const size_t dyn[] = {0, 4000, 12000, 30000, 45000};
        for (size_t d = 0; d < sizeof dyn / sizeof dyn[0]; d++)
            report("occ_dynamic", (const void *)occ_dynamic, block, dyn[d] < block * sizeof(float) ? block * sizeof(float) : dyn[d]);
    }
    return 0;
}
