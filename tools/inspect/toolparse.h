/*
 * toolparse.h — reading what the CUDA tools print, for `make sass / resources / sanitize / profile`.
 *
 * The look-inside tool (tools/inspect/inspect.c) runs cuobjdump, ptxas, compute-sanitizer and ncu; every
 * piece of their output it interprets goes through a parser here, so the Criterion tests can check
 * each parser on real captured output (tests/captured/) on a machine without a GPU.
 *
 *   variants ......... tp_parse_variants      a chapter's `--list --json -` lines      (names.c)
 *   kernel names ..... tp_kernel_matches      "reverse_global" vs _Z14reverse_globalPKiPii / demangled
 *   SASS / PTX ....... tp_parse_listing                                               (listing.c)       cuobjdump -sass or nvcc -ptx text -> functions, instructions
 *                      tp_classify            an opcode -> the kind the legend counts (LDG.128, BAR, ...)
 *   resources ........ tp_parse_ptxas         nvcc -Xptxas -v -> registers, smem, stack, spills per kernel
 *                                                                                     (resources.c)
 *   occupancy ........ tp_occupancy           blocks per SM from the GPU's limits (the formula of
 *                                             CUDA's cuda_occupancy.h, which the occupancy API follows)
 *   ncu .............. tp_parse_csv, tp_ncu_* `ncu --import R --csv --page raw` -> metric values  (ncu.c)
 * compute-sanitizer's output is read by grading/sanitizer.c, the grader's own reader (one rule for both).
 *
 * Plain C, no CUDA. Parsers never print and never exit.
 */
#ifndef WB_TOOLPARSE_H
#define WB_TOOLPARSE_H

#include <ctype.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Copies at most len-1 bytes of [s, s+n) into buf and terminates it. */
/* Skips spaces and tabs. */
const char *tp_skip_space(const char *s);

void tp_copy(char *buf, size_t len, const char *s, size_t n);

/* ================================================================ variants */
#define TP_MAX_VARIANTS 16
#define TP_MAX_KERNELS 8
#define TP_NAME 128

typedef struct {
    char name[TP_NAME];
    char idea[256];
    int n_kernels;                           /* 0: the chapter did not name them */
    char kernels[TP_MAX_KERNELS][TP_NAME];
} tp_variant;

/* Parses the JSON lines a chapter prints for `--list --json -`: {"variant":..,"idea":..,"kernels":"a,b"}.
 * Returns the number of variants, or -1 with a reason in err. Blank lines are skipped. */
int tp_parse_variants(const char *text, tp_variant *out, int max, char *err, size_t errlen);

int tp_variant_find(const tp_variant *v, int n, const char *name);

/* ================================================================ kernel names */
/* Does `symbol` (as a tool prints it) name the kernel `name` (as the chapter's source spells it)?
 * Accepted spellings: the plain name (extern "C" or ncu's function base); the Itanium mangling
 * _Z<len><name>... (cuobjdump, ptxas, PTX; <len> makes the prefix exact: reverse_global never matches
 * reverse_global2); the demangled form name(…) or name<…>(…), optionally after "void " (sanitizer,
 * ncu). */
int tp_kernel_matches(const char *symbol, const char *name);

/* The readable base name of a symbol: _Z14reverse_globalPKiPii -> reverse_global; "f(int)" -> f. */
void tp_base_name(const char *symbol, char *buf, size_t len);

/* ================================================================ SASS and PTX listings */
typedef enum { TP_ISA_SASS, TP_ISA_PTX } tp_isa;

typedef struct {
    char addr[12];        /* "0x0070" (SASS) or "" (PTX) */
    char text[160];       /* the instruction as printed, without the encoding comment */
    char opcode[48];      /* LDG.E.128.CONSTANT / ld.global.nc.v4.u32 */
} tp_insn;

typedef struct {
    char name[256];       /* mangled, as the listing names it */
    char arch[16];        /* "sm_90" / "sm_75" when known */
    int n_insns, cap;
    tp_insn *insns;
} tp_function;

typedef struct {
    tp_isa isa;
    int n_functions;
    tp_function functions[64];
} tp_listing;

void tp_listing_free(tp_listing *l);

/* SASS when the text has cuobjdump's "Function : " headers, else PTX. */
void tp_parse_listing(const char *text, tp_listing *l);

/* The kinds of instruction the legend counts. Memory kinds also carry the access width in bits. */
typedef enum {
    TP_K_GLOBAL_LD, TP_K_GLOBAL_ST, TP_K_SHARED_LD, TP_K_SHARED_ST, TP_K_LOCAL, TP_K_ASYNC_COPY,
    TP_K_ATOMIC_GLOBAL, TP_K_ATOMIC_SHARED, TP_K_BARRIER, TP_K_SHUFFLE, TP_K_FMINMAX, TP_K_IMINMAX,
    TP_K_FADD, TP_K_FMUL, TP_K_FFMA, TP_K_TENSOR, TP_K_OTHER, TP_K_COUNT
} tp_kind;

extern const char *const tp_kind_names[TP_K_COUNT];

/* What each kind means for performance, in one line (printed as the legend). */
extern const char *const tp_kind_legend[2][TP_K_COUNT];

/* Classifies an opcode; *width gets the access width in bits for memory kinds, else 0. */
tp_kind tp_classify(tp_isa isa, const char *op, int *width);

/* Counts per kind, and per width for the memory kinds (index: 8,16,32,64,128 bits -> 0..4). */
typedef struct {
    int total;
    int kind[TP_K_COUNT];
    int width[TP_K_COUNT][5];
} tp_counts;

/* NOPs are padding after EXIT; they are not counted. */
void tp_count(tp_isa isa, const tp_function *f, tp_counts *c);

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

/* ================================================================ CSV (ncu --csv) */
typedef struct {
    int n_cols, n_rows;
    char **header;           /* n_cols */
    char **units;            /* n_cols, or NULL */
    char ***rows;            /* n_rows × n_cols */
} tp_csv;

/* Splits one CSV record (RFC 4180 quoting: "a ""b""" -> a "b"). Returns the number of fields. */
int tp_csv_split(const char *line, char ***fields_out);

void tp_csv_free(tp_csv *c);

/* ncu --csv --page raw: lines before the header ("==PROF==", warnings) are skipped; the header starts
 * with "ID"; the line after it holds the units when its first field is empty. Returns 0, or -1 when
 * there is no header. */
int tp_parse_csv(const char *text, tp_csv *c);

int tp_csv_col(const tp_csv *c, const char *name);

/* A numeric cell: "2,972.51" -> 2972.51 (ncu groups thousands with commas); NAN when empty or "n/a". */
double tp_number(const char *cell);

/* The value of the first metric in `names` (NULL-terminated) present in row r; NAN if none. */
double tp_csv_metric(const tp_csv *c, int r, const char *const *names, const char **unit);

/* Multiplier from an ncu unit to the base unit: "Gbyte/second" -> 1e9, "KiB" -> 1024, "ns"/"nsecond" ->
 * 1e-9 (time in seconds), "%" -> 1. */
double tp_unit_scale(const char *unit);

/* Warp stall reasons: ncu's WarpStateStats metrics smsp__average_warps_issue_stalled_<reason>_per_issue_active
 * .ratio, the average number of warps waiting for that reason per issued instruction (their sum is the
 * "warp cycles per issued instruction" of the Nsight Compute GUI). The three largest, "selected" (not a
 * stall) excluded. Returns how many were found (≤ 3). */
typedef struct {
    char reason[48];
    double value;
} tp_stall;

int tp_ncu_top_stalls(const tp_csv *c, int r, tp_stall top[3]);

/* What a stall reason means, for students. */
const char *tp_stall_meaning(const char *reason);

#ifdef __cplusplus
}
#endif
#endif /* WB_TOOLPARSE_H */
