/* doctor — is there a GPU this workbook can use, and what is it? (run by `make doctor`) */
#include "wb.h"

/* One kernel that must run: "usable" means code ran on the GPU and its result came back, not only that the
 * device answered a query; and it gives `make doctor`'s counters line a kernel for ncu to measure. */
__global__ void doctor_kernel(int *out) { out[threadIdx.x] = 2 * (int)threadIdx.x + 1; }

static int doctor_kernel_runs(void)
{
    enum { N = 32 };
    int *d = NULL, h[N] = {0};
    if (cudaMalloc(&d, sizeof h) != cudaSuccess) return 0;
    doctor_kernel<<<1, N>>>(d);
    int ok = cudaGetLastError() == cudaSuccess && cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess;
    cudaFree(d);
    for (int i = 0; ok && i < N; i++) ok = h[i] == 2 * i + 1;
    return ok;
}

int main(void)
{
    int runtime = 0, driver = 0;
    CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    cudaDriverGetVersion(&driver); /* 0 when no driver is loaded: wb_device_init says so below */
    if (driver)
        printf("runtime:  CUDA %d.%d, driver supports CUDA %d.%d\n", runtime / 1000, runtime % 1000 / 10,
               driver / 1000, driver % 1000 / 10);
    else
        printf("runtime:  CUDA %d.%d, no NVIDIA driver loaded\n", runtime / 1000, runtime % 1000 / 10);
    wb_device dev;
    wb_device_init(&dev); /* exits 3 with the reason when there is no usable GPU */
    const cudaDeviceProp *p = &dev.prop;
    printf("GPU:      %s, compute capability %d.%d, %d SMs, %.1f GB (%.1f GB free), L2 %d MB\n", p->name,
           p->major, p->minor, p->multiProcessorCount, dev.total_bytes / 1e9, dev.free_bytes / 1e9,
           p->l2CacheSize >> 20);
    if (p->major * 10 + p->minor < 75) {
        printf("usable:   no: compute capability %d.%d is below 7.5, the oldest CUDA 13 supports\n", p->major,
               p->minor);
        return WB_EXIT_NO_DEVICE;
    }
    if (!doctor_kernel_runs()) {
        printf("usable:   no: a test kernel did not run or returned a wrong result (%s)\n",
               cudaGetErrorString(cudaGetLastError()));
        return WB_EXIT_NO_DEVICE;
    }
    printf("usable:   yes\n");
    return 0;
}
