/* resources.h — ptxas -v resources per kernel, and occupancy from the GPU's limits (cuda_occupancy.h's formula) (resources.c). Plain C, no CUDA; parsers never print and never exit. */
#ifndef WB_TP_RESOURCES_H
#define WB_TP_RESOURCES_H

#include "names.h" /* TP_NAME */
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ================================================================ ptxas -v */
typedef struct {
    char name[256];          /* mangled */
    char arch[16];
    int regs, barriers;      /* barriers: -1 when ptxas did not say */
    long smem, cmem0;        /* static shared memory; constant bank 0 (-1 unknown) */
    long stack, spill_stores, spill_loads;
} tp_resources;

/* Parses `ptxas info` lines (nvcc -Xptxas -v) for entry functions only:
 *   ptxas info    : Compiling entry function '_Z14reverse_globalPKiPii' for 'sm_90'
 *   ptxas info    : Function properties for _Z14reverse_globalPKiPii
 *       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
 *   ptxas info    : Used 10 registers, used 1 barriers, 1024 bytes smem, 360 bytes cmem[0]
 * Returns the number of kernels found. */
int tp_parse_ptxas(const char *text, tp_resources *out, int max);

/* ================================================================ the rows of `make resources` */
typedef enum { TP_SHAPE_PROGRAM, TP_SHAPE_GIVEN, TP_SHAPE_ASSUMED } tp_shape_src;

typedef struct {
    const tp_variant *v;          /* the program's variants (--list), in its table's order */
    int nv;
    unsigned selected;            /* bit i: variant i chosen */
    int all;                      /* also the kernels no variant names (the harness's own) */
    int block;                    /* > 0: given (BLOCK=) for every kernel; else each kernel's own launch */
    long dsmem;                   /* >= 0: given (DSMEM=) for every kernel; else each kernel's own */
    int assumed_block;            /* for a kernel whose launch the program does not say */
} tp_res_plan;

typedef struct {
    int entry;                    /* the ptxas entry shown: of the kernel's instantiations, the one using
                                   * the most registers, then spill bytes, then shared memory */
    int instances;                /* entries with the kernel's base name (template instantiations) */
    int harness;                  /* 1: no variant names it */
    int threads;
    long dsmem;
    tp_shape_src shape;
} tp_res_row;

/* One row per kernel: the chosen variants' kernels in the order the variant table names them (the
 * chapter's source order), then with plan->all (or when a chosen variant names no kernels) the others,
 * in source order (ptxas lists the last defined first). Returns the number of rows. */
int tp_res_rows(const tp_resources *res, int n, const tp_res_plan *plan, tp_res_row *rows, int max);

/* ================================================================ occupancy */
typedef struct {
    char name[128];
    int major, minor, sms, warp_size;
    int max_threads_per_sm, max_threads_per_block, max_blocks_per_sm;
    int regs_per_sm, regs_per_block;
    long smem_per_sm, smem_per_block, smem_per_block_optin, reserved_smem_per_block;
    int is_default;          /* 1: no GPU was found; these are a named GPU's published limits */
} tp_gpu;

/* Published limits (CUDA C Programming Guide, "Technical Specifications per Compute Capability"),
 * used when there is no GPU to ask. The names say which card they stand for. */
int tp_gpu_default(int cc, tp_gpu *g);

typedef enum { TP_LIM_WARPS, TP_LIM_REGS, TP_LIM_SMEM, TP_LIM_BLOCKS, TP_LIM_BARRIERS, TP_LIM_COUNT } tp_limit;

typedef struct {
    int blocks;                   /* resident blocks per SM (0: the block cannot launch) */
    int by[TP_LIM_COUNT];         /* the bound each resource sets (INT_MAX: no bound) */
    unsigned limiters;            /* bit l set: resource l is at the minimum */
    int warps_per_block, active_warps, max_warps;
    double occupancy;             /* active warps / max warps per SM, 0..1 */
    long smem_per_block;          /* allocated, with the driver's reserve and granularity */
    int regs_per_block;           /* allocated */
    const char *why_zero;         /* when blocks == 0 */
} tp_occ;

/* Blocks per SM for a kernel using `regs` registers per thread and `static_smem` bytes of static
 * shared memory, launched with `block` threads and `dyn_smem` bytes of dynamic shared memory, with
 * the default carve-out preference: cudaOccMaxActiveBlocksPerMultiprocessor of cuda_occupancy.h for
 * compute capability ≥ 7 (no partitioned global caching, no opt-in of more than 48 KB). */
void tp_occupancy(const tp_gpu *g, int regs, long static_smem, long dyn_smem, int block,
                                int barriers, tp_occ *o);

/* "registers" or "threads + blocks/SM" */
void tp_limiter_str(const tp_occ *o, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* WB_TP_RESOURCES_H */
