/*
 * wb_device.h — the GPU: the one probe for a usable device (chapters, doctor, the look-inside tool),
 * with the one plain reason when there is none. CUDA only (included by wb.h under nvcc).
 */
#ifndef WB_DEVICE_H
#define WB_DEVICE_H
#ifdef __CUDACC__

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "contract.h"

/* Blocks (or chunks) needed to cover n items, per_block at a time. */
static inline int wb_ceil_div(long long n, long long per_block) { return (int)((n + per_block - 1) / per_block); }

#ifndef WB_DEVICE_TYPEDEF
#define WB_DEVICE_TYPEDEF
typedef struct wb_device wb_device; /* also named in wb_cli.h, for a variant's `unavailable` */
#endif
struct wb_device {
    cudaDeviceProp prop;
    size_t free_bytes, total_bytes;
};

/* The one probe for a usable GPU (chapters, doctor, look-inside tool): 0 with *dev filled in, or
 * WB_EXIT_NO_DEVICE with the one plain reason in why (the same wording everywhere). Never exits. */
static inline int wb_device_probe(wb_device *dev, char *why, size_t len)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        int driver = 0;
        cudaDriverGetVersion(&driver);
        snprintf(why, len, "no CUDA device found: %s",
                 driver == 0 ? "no NVIDIA driver is loaded (is there a GPU in this machine?)"
                 : e != cudaSuccess ? cudaGetErrorString(e)
                                    : "the driver reports 0 devices");
        return WB_EXIT_NO_DEVICE;
    }
    e = cudaSetDevice(0);
    if (e == cudaSuccess) e = cudaMemGetInfo(&dev->free_bytes, &dev->total_bytes);
    if (e == cudaSuccess) e = cudaGetDeviceProperties(&dev->prop, 0);
    if (e != cudaSuccess) {
        snprintf(why, len, "no usable CUDA device: %s", cudaGetErrorString(e));
        /* the context itself could not be made: the memory is held by others, the GPU is there */
        return e == cudaErrorMemoryAllocation ? WB_EXIT_NO_MEMORY : WB_EXIT_NO_DEVICE;
    }
    return 0;
}

/* Exits with one plain line when there is no usable GPU (WB_EXIT_NO_DEVICE, or WB_EXIT_NO_MEMORY). */
static inline void wb_device_init(wb_device *dev)
{
    char why[256];
    int rc = wb_device_probe(dev, why, sizeof why);
    if (rc) {
        fprintf(stderr, "%s. This program needs an NVIDIA GPU (see `make doctor`).\n", why);
        exit(rc);
    }
}

#endif /* __CUDACC__ */
#endif /* WB_DEVICE_H */
