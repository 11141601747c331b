/* Source of ptxas_spill_sm90.txt: a kernel with a dynamically indexed local array (stack frame) and,
 * under -maxrregcount=16, more live values than registers (spills). Captured with
 *   nvcc -cubin -arch=sm_90 -O3 -maxrregcount=16 -Xptxas -v -o /dev/null tests/captured/spill.cu */
__global__ void spiller(const float *in, float *out, int n, int k)
{
    float local[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int j = 0; j < 64; j++) local[j] = in[(i + j * 977) % n];
    float acc[24];
#pragma unroll
    for (int j = 0; j < 24; j++) acc[j] = in[(i * 31 + j) % n];
    float s = local[k & 63];
#pragma unroll
    for (int j = 0; j < 24; j++) s = s * acc[j] + acc[(j + 7) % 24];
    if (i < n) out[i] = s;
}

__global__ void __launch_bounds__(128) tiled(const float *in, float *out, int n)
{
    __shared__ float tile[2][1024];
    int t = threadIdx.x;
    for (int j = t; j < 1024; j += 128) tile[0][j] = in[(blockIdx.x * 1024 + j) % n];
    __syncthreads();
    tile[1][t] = tile[0][1023 - t];
    __syncthreads();
    out[(blockIdx.x * 128 + t) % n] = tile[1][127 - t];
}
