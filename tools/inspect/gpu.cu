/* gpu.cu — the present GPU's limits, through the workbook's one GPU probe (wb_device_probe), so that
 * `make resources` and friends say "no GPU" in the same words as the chapters and `make doctor`. */
#include "wb.h"

#include "toolparse.h"

extern "C" int gpu_present(tp_gpu *g, char *why, size_t len);

extern "C" int gpu_present(tp_gpu *g, char *why, size_t len)
{
    wb_device dev;
    if (wb_device_probe(&dev, why, len)) return -1;
    const cudaDeviceProp &p = dev.prop;
    memset(g, 0, sizeof *g);
    tp_copy(g->name, sizeof g->name, p.name, strlen(p.name));
    g->major = p.major;
    g->minor = p.minor;
    g->sms = p.multiProcessorCount;
    g->warp_size = p.warpSize;
    g->max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    g->max_threads_per_block = p.maxThreadsPerBlock;
    g->max_blocks_per_sm = p.maxBlocksPerMultiProcessor;
    g->regs_per_sm = p.regsPerMultiprocessor;
    g->regs_per_block = p.regsPerBlock;
    g->smem_per_sm = (long)p.sharedMemPerMultiprocessor;
    g->smem_per_block = (long)p.sharedMemPerBlock;
    g->smem_per_block_optin = (long)p.sharedMemPerBlockOptin;
    g->reserved_smem_per_block = (long)p.reservedSharedMemPerBlock;
    return 0;
}
