/*
 * Chapter 6 — matrix multiplication on the tensor cores: C = A·B with A M×K and B K×N in fp16, C M×N in
 * fp32, the products summed in fp32, any M, N, K ≥ 1.
 * Layouts: A is row-major (M×K, K contiguous). B is stored as its transpose Bt, row-major N×K (K
 * contiguous; "B column-major"), so that both operands reach the tensor cores K-major, the layout every
 * generation's MMA reads without a transposing step (cuBLAS calls this product "TN"). C is row-major.
 *
 * Variants, each adding one idea (build/chapter6 --list):
 *   wmma         each warp computes a 16×16 tile of C with nvcuda::wmma fragments loaded straight from
 *                global memory (16×16×16 per mma_sync); edge tiles through a zero-padded staging tile
 *   wmma-shared  a 128×128 block tile staged through shared memory, 32 deep in K, and eight warps each
 *                computing 64×32 of it from there: chapter 4's tiling, for tensor cores
 *   mma          PTX mma.sync m16n8k16 on fragments the warp loads with ldmatrix from a 64-deep slice;
 *                four warps of 64×64: every fragment in registers feeds four to eight MMAs
 *   swizzle      the same with the 16-byte chunks of each shared row XOR-permuted by the row: the
 *                eight rows one ldmatrix reads land in eight different bank groups
 *   pipeline     cp.async in three stages: two slices are in flight while the third is computed
 *   wgmma        Hopper: warpgroup MMA (wgmma.mma_async, 64×128×16 per instruction) reading both
 *                operands from shared memory, the tiles brought by the tensor memory accelerator
 *                (TMA, cp.async.bulk.tensor) and completing on an mbarrier; four stages; sm_90a
 *   wgmma-ws     Hopper: warp specialization: one producer warpgroup issues the copies (with fewer
 *                registers, setmaxnreg), two consumer warpgroups compute a 128×256 tile (64×256 each),
 *                full and empty barriers per stage so that copies and math never wait on a block barrier
 *
 * Speed of light: cuBLAS's cublasGemmEx with the same types (fp16 in, fp32 compute and output), on the
 * same data in the same run; the tensor cores' measured peak (a loop of MMAs on registers, and on an
 * sm_90a build on an H100/H200 of wgmma from shared memory) is printed beside it.
 *
 * Verification: each product of two fp16 values is exact in fp32 (11-bit significands, 22-bit
 * product); only the sums round. The tensor cores do not round the sums to nearest: they align the
 * addends of a step to the largest exponent and truncate (Fasi et al., 2021), which costs up to one
 * unit in the last place per addition, 2u with u = 2^-24. So |c − ref| ≤ γ_K(2u)·Σ_k |a_ik||b_kj| with
 * γ_K(v) = K·v/(1 − K·v) (Higham's bound for a K-term sum, each addition off by at most v relative),
 * plus 2·γ_K(2^-53) for the double reference and its bound. The reference: rows on the CPU in double
 * (A and B are the fp16 values, widened exactly), all of them while M·N·K ≤ 2^31, else 32 sampled rows
 * and cuBLAS for the others (chapter 4's wb_gemm_ref.h, with the normwise bound).
 *
 * Shapes: every variant takes any M, N, K. The tensor-memory copies need each row of A and Bt to
 * start on 16 bytes (K a multiple of 8): for other K the Hopper variants first copy A and Bt into
 * buffers padded with zeros to the next multiple of 8 (the prepare step, timed apart).
 *
 * Run:  make chapter6                 your version (this file, chapters/06-tcmatmul/)
 *       make solution6                the reference
 *       build/chapter6 --size 1000x777x513 --variant wmma,mma
 * Sources: the CUDA C++ Programming Guide (warp matrix functions); the PTX ISA (mma.sync, ldmatrix,
 * cp.async, wgmma, cp.async.bulk.tensor, mbarrier, setmaxnreg); the CUDA driver API (cuTensorMapEncodeTiled).
 */
#include "wb.h"
#include "wb_gemm_ref.h" /* the reference C is checked against (Verification above) */
#include <cuda.h>        /* CUtensorMap and its enums: types only, the driver's function comes at run time */
#include <cuda_fp16.h>
#include <cudaTypedefs.h> /* PFN_cuTensorMapEncodeTiled */
#include <mma.h>

using namespace nvcuda;

/* Hopper's warpgroup MMA, setmaxnreg and the tensor copies exist only in sm_90a code: the machine code
 * the Makefile builds for an H100 or H200 (chapter.mk). Elsewhere those kernels compile to a trap, and
 * the program reports the variants as not available instead of running them. */
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define WB_SM90A 1
#else
#define WB_SM90A 0
#endif

#define WB_STR_(x) #x
#define WB_STR(x) WB_STR_(x)

/* wmma: 4 warps, each a 16×16 tile of C; the block covers 32×32. */
#define W_TILE 16
#define W_THREADS 128
/* wmma-shared: 8 warps (2 along M, 4 along N) of 64×32 each, a 128×128 block tile, 32-deep slices. */
#define WS_BM 128
#define WS_BN 128
#define WS_BK 32
#define WS_PAD 8 /* halves: rows of 80 bytes keep wmma's 32-byte alignment and spread the rows over the banks */
#define WS_THREADS 256
/* mma, swizzle, pipeline: 4 warps (2×2) of 64×64 each, a 128×128 block tile, 64-deep slices: one shared
 * row is 64 halves = 128 bytes = the 32 banks once. */
#define MM_BM 128
#define MM_BN 128
#define MM_BK 64
#define MM_THREADS 128
/* pipeline: the same warps, PIPE_WN of them along N (block tile 128 × 64·PIPE_WN), PIPE_STAGES slices.
 * Measured on the H200 at 4096³ and 8192³ (2 or 4 along N, 3 or 4 stages): 2 × 3 and 4 × 3 within 5 %
 * of each other, 2 × 4 about 40 % slower (handouts/ch6.md). -DPIPE_WN=4 -DPIPE_STAGES=4 tries another. */
#ifndef PIPE_STAGES
#define PIPE_STAGES 3
#endif
#ifndef PIPE_WN
#define PIPE_WN 2
#endif
#define PIPE_BN (64 * PIPE_WN)
#define PIPE_THREADS (64 * PIPE_WN)
/* wgmma: 2 warpgroups of 64×128 each, a 128×128 block tile; wgmma-ws: 1 producer and 2 consumer
 * warpgroups of 64×256, a 128×256 block tile. Both: 64-deep slices (128 bytes, the swizzle's span). */
#define HG_BM 128
#define HG_BN 128
#define HG_BK 64
#define HG_STAGES 4
#define HG_THREADS 256
#define HW_BN 256
#define HW_STAGES 4
#define HW_THREADS 384

/* What every variant works on: the sizes and the buffers (set up by the harness at the end). */
struct State {
    int M, N, K, Kp;               /* Kp: K rounded up to a multiple of 8 (the tensor copies' rows) */
    float *h_A, *h_B;              /* host inputs, widened to float: A M×K and B K×N (not Bt), row-major */
    __half *d_A, *d_Bt;            /* A (M×K) and Bt (N×K), fp16, row-major */
    __half *d_Ap, *d_Btp;          /* A and Bt padded to Kp columns (the same buffers when K % 8 == 0) */
    float *d_C;
    double *d_fresh;               /* --grading: B·x and |B|·1 of a timed repetition's check (2K doubles) */
    CUtensorMap tm_A, tm_B128, tm_B256; /* the tensor maps of A (128×64 boxes) and Bt (128×64, 256×64) */
    int maps_made;
    double tc_peak;                /* the tensor cores' measured peak, TFLOP/s (speed_of_light) */
    const char *tc_peak_name;
    wb_gemm_ref ref; /* exact rows from the CPU, and cuBLAS's C for the others when they are too many */
};

/* ------------------------------------------------------------------ CPU reference */
/* The relative tolerance of K-term dot products on the tensor cores, see the header comment: each
 * addition truncated (2u, u = 2^-24), plus the double reference's own rounding. */
static double matmul_rtol(int K) { return wb_gamma_n(K, 0x1p-23) + 2.0 * wb_gamma_n(K, 0x1p-53); }

/* ------------------------------------------------------------------ helpers every variant uses */
/* 16×16 halves of a rows×K row-major matrix from (r0, k0) into dst (row-major, 16 a row), zeros where
 * they lie outside it: a warp's edge tile, padded so that the MMA adds nothing false. */
__device__ __forceinline__ void stage_tile16(__half *dst, const __half *X, int rows, int K, int r0, int k0, int lane)
{
    for (int e = lane; e < 256; e += 32) {
        int r = r0 + e / 16, k = k0 + e % 16;
        dst[e] = r < rows && k < K ? X[(size_t)r * K + k] : __float2half(0.0f);
    }
}

/* A 16×16 accumulator to C at (r0, c0): straight to memory when the tile lies inside C and its rows
 * keep wmma's 32-byte alignment, else through scratch (256 floats) and only the elements inside C. */
__device__ __forceinline__ void store_acc16(float *C, int M, int N, int r0, int c0,
                                            const wmma::fragment<wmma::accumulator, 16, 16, 16, float> &acc,
                                            float *scratch, int lane)
{
    if (r0 + 16 <= M && c0 + 16 <= N && N % 8 == 0) {
        wmma::store_matrix_sync(C + (size_t)r0 * N + c0, acc, N, wmma::mem_row_major);
        return;
    }
    wmma::store_matrix_sync(scratch, acc, 16, wmma::mem_row_major);
    __syncwarp();
    for (int e = lane; e < 256; e += 32) {
        int r = r0 + e / 16, c = c0 + e % 16;
        if (r < M && c < N) C[(size_t)r * N + c] = scratch[e];
    }
    __syncwarp();
}

/* 8 halves X[r][c..c+7] into dst (16 bytes of shared memory), zeros outside the matrix: one 16-byte
 * load when the chunk lies inside and is aligned (K a multiple of 8), else element by element. */
__device__ __forceinline__ void load_chunk8(__half *dst, const __half *X, int rows, int K, int r, int c)
{
    if (K % 8 == 0) {
        uint4 v = make_uint4(0, 0, 0, 0);
        if (r < rows && c < K) v = *(const uint4 *)(X + (size_t)r * K + c);
        *(uint4 *)dst = v;
        return;
    }
    for (int j = 0; j < 8; j++) dst[j] = r < rows && c + j < K ? X[(size_t)r * K + c + j] : __float2half(0.0f);
}

/* C[r][c], C[r][c+1] from two accumulators, leaving out what lies outside C (one 8-byte store where
 * both lie inside and the address is aligned). */
__device__ __forceinline__ void store2(float *C, int M, int N, int r, int c, float x, float y)
{
    if (r >= M) return;
    float *p = C + (size_t)r * N + c;
    if (N % 2 == 0 && c + 1 < N) {
        *(float2 *)p = make_float2(x, y);
        return;
    }
    if (c < N) p[0] = x;
    if (c + 1 < N) p[1] = y;
}

/* ------------------------------------------------------------------ kernels and their launchers */
/* Warp w of the block computes C[row0..row0+16)[col0..col0+16): at each k0 it loads a 16×16 fragment
 * of A (rows of A) and one of B (columns of B, which are rows of Bt, so "col_major" with Bt's row
 * length as the leading dimension) and lets the tensor cores multiply-add them. Straight from global
 * memory where the 16×16 tiles lie inside the matrices and their rows are 32-byte aligned (K a multiple
 * of 16); otherwise through a zero-padded staging tile in shared memory. */
__global__ void __launch_bounds__(W_THREADS) tc_wmma(const __half *A, const __half *Bt, float *C, int M, int N, int K)
{
    // BEGIN TODO(wmma)
    //| /* Warp w: row0 = blockIdx.y*32 + (w/2)*16, col0 = blockIdx.x*32 + (w%2)*16. A float accumulator
    //|  * fragment set to 0; for each k0 in steps of 16: a matrix_a (row_major) fragment of A at
    //|  * (row0, k0) and a matrix_b (col_major) fragment of Bt at (col0, k0), both with leading dimension
    //|  * K, loaded straight from global memory when the whole 16×16 tiles lie inside and K % 16 == 0,
    //|  * else staged by stage_tile16 into edge[w] (leading dimension 16) with __syncwarp around; then
    //|  * mma_sync. Finally store_acc16. */
    __shared__ __align__(32) __half edge[W_THREADS / 32][2][256];
    __shared__ __align__(32) float scratch[W_THREADS / 32][256];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int row0 = blockIdx.y * 32 + warp / 2 * W_TILE, col0 = blockIdx.x * 32 + warp % 2 * W_TILE;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    bool inside = row0 + W_TILE <= M && col0 + W_TILE <= N && K % 16 == 0;
    for (int k0 = 0; k0 < K; k0 += W_TILE) {
        if (inside && k0 + W_TILE <= K) {
            wmma::load_matrix_sync(a, A + (size_t)row0 * K + k0, K);
            wmma::load_matrix_sync(b, Bt + (size_t)col0 * K + k0, K);
        } else {
            stage_tile16(edge[warp][0], A, M, K, row0, k0, lane);
            stage_tile16(edge[warp][1], Bt, N, K, col0, k0, lane);
            __syncwarp(); /* the fragments gather elements other lanes staged */
            wmma::load_matrix_sync(a, edge[warp][0], 16);
            wmma::load_matrix_sync(b, edge[warp][1], 16);
            __syncwarp(); /* …and nobody restages before everyone has loaded */
        }
        wmma::mma_sync(acc, a, b, acc);
    }
    store_acc16(C, M, N, row0, col0, acc, scratch[warp], lane);
    // END TODO(wmma)
}

static void launch_wmma(State *s)
{
    dim3 grid(wb_ceil_div(s->N, 32), wb_ceil_div(s->M, 32));
    tc_wmma<<<grid, W_THREADS>>>(s->d_A, s->d_Bt, s->d_C, s->M, s->N, s->K);
    LAUNCH_CHECK();
}

/* The block stages A's 128×32 slice and Bt's 128×32 slice in shared memory (16-byte chunks, zeros
 * outside the matrices), then warp (wm, wn) multiplies its 64×32 part: 4×2 accumulator fragments, each
 * A fragment used twice and each B fragment four times. Global loads per multiply-add fall from
 * 1/16 + 1/16 (wmma) to 1/128 + 1/128. */
__global__ void __launch_bounds__(WS_THREADS)
    tc_wmma_shared(const __half *A, const __half *Bt, float *C, int M, int N, int K)
{
    // BEGIN TODO(wmma-shared)
    //| /* As[128][32+8] and Bs[128][32+8] halves in __shared__ (32-byte aligned). Warp w: wm = w/4 (64
    //|  * rows), wn = w%4 (32 columns); 4×2 accumulator fragments. Each slice k0: every thread loads two
    //|  * 16-byte chunks of each tile with load_chunk8 (chunk i: row i/4, column (i%4)*8); barrier;
    //|  * two steps of 16: 4 A and 2 B fragments from shared memory, 8 mma_sync; barrier. Then
    //|  * store_acc16 each fragment (scratch: a 256-float area per warp). */
    __shared__ __align__(32) __half As[WS_BM][WS_BK + WS_PAD];
    __shared__ __align__(32) __half Bs[WS_BN][WS_BK + WS_PAD];
    __shared__ __align__(32) float scratch[WS_THREADS / 32][256];
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, wm = warp / 4, wn = warp % 4;
    int row0 = blockIdx.y * WS_BM, col0 = blockIdx.x * WS_BN;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][2];
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 2; j++) wmma::fill_fragment(acc[i][j], 0.0f);
    for (int k0 = 0; k0 < K; k0 += WS_BK) {
#pragma unroll
        for (int i = tid; i < WS_BM * WS_BK / 8; i += WS_THREADS) {
            int r = i / (WS_BK / 8), c = i % (WS_BK / 8) * 8;
            load_chunk8(&As[r][c], A, M, K, row0 + r, k0 + c);
            load_chunk8(&Bs[r][c], Bt, N, K, col0 + r, k0 + c);
        }
        __syncthreads(); /* the fragments read what other threads stored */
#pragma unroll
        for (int kk = 0; kk < WS_BK; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a[4];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b[2];
#pragma unroll
            for (int i = 0; i < 4; i++) wmma::load_matrix_sync(a[i], &As[wm * 64 + i * 16][kk], WS_BK + WS_PAD);
#pragma unroll
            for (int j = 0; j < 2; j++) wmma::load_matrix_sync(b[j], &Bs[wn * 32 + j * 16][kk], WS_BK + WS_PAD);
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 2; j++) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
        __syncthreads(); /* …and nobody overwrites the slice before everyone has read it */
    }
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 2; j++)
            store_acc16(C, M, N, row0 + wm * 64 + i * 16, col0 + wn * 32 + j * 16, acc[i][j], scratch[warp], lane);
    // END TODO(wmma-shared)
}

static void launch_wmma_shared(State *s)
{
    dim3 grid(wb_ceil_div(s->N, WS_BN), wb_ceil_div(s->M, WS_BM));
    tc_wmma_shared<<<grid, WS_THREADS>>>(s->d_A, s->d_Bt, s->d_C, s->M, s->N, s->K);
    LAUNCH_CHECK();
}

/* mma.sync and ldmatrix, the PTX beneath wmma: with them the warp knows which lane holds which element
 * (handouts/ch6.md draws the layouts), so fragments can be loaded from any shared-memory layout and
 * the results stored straight from registers. */
__device__ __forceinline__ unsigned smem_u32(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

/* Four 8×8 matrices of halves from shared memory: lane l gives the address of row l % 8 of matrix
 * l / 8 (16 bytes) and receives, of each matrix, the two halves of row l / 4 at columns 2·(l % 4), +1. */
__device__ __forceinline__ void ldmatrix_x4(unsigned r[4], unsigned addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
}

/* d (16×8 fp32) += a (16×16 fp16, row) · b (16×8 fp16, col): one m16n8k16 MMA (sm_80 and later), or
 * two m16n8k8 on sm_75 (a's registers 0-1 and b's 0 hold k 0-7, the others k 8-15). */
__device__ __forceinline__ void mma_16816(float d[4], const unsigned a[4], const unsigned b[2])
{
#if __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]));
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[2]), "r"(a[3]), "r"(b[1]));
#endif
}

/* Where half (r, c) of a 128×64 slice lives in shared memory (row r, column c < 64), in halves. One row
 * is 128 bytes, the 32 banks once: unswizzled, the 8 rows of an 8×8 matrix that ldmatrix reads at the
 * same column all fall in the same 4 banks (8-way conflict). Swizzled, 16-byte chunk c/8 of row r is
 * stored at chunk (c/8) XOR (r % 8): the 8 rows land in 8 different chunks, all 32 banks. The same
 * permutation that TMA's 128-byte swizzle applies (the wgmma variants). */
__device__ __forceinline__ int slice_offset(int r, int c, bool swizzled)
{
    int chunk = c / 8;
    // BEGIN TODO(swizzle)
    //| /* Swizzled: XOR the chunk index with r % 8. */
    if (swizzled) chunk ^= r % 8;
    // END TODO(swizzle)
    return r * MM_BK + chunk * 8 + c % 8;
}

/* One 64-deep slice of the warp's 64×64 tile: acc[i][j] is the 16×8 MMA tile at rows 16·i, columns 8·j
 * of it (lane l holds rows l/4 and l/4 + 8, columns 2·(l % 4) and +1). As holds A's 128×64 slice, Bs
 * Bt's (columns of B as rows, K contiguous), both laid out by slice_offset. */
__device__ __forceinline__ void mma_slice(float acc[4][8][4], const __half *As, const __half *Bs, int wm, int wn,
                                          int lane, bool swizzled)
{
    // BEGIN TODO(mma-slice)
    //| /* For kk = 0, 16, 32, 48: A fragments i = 0..3 by ldmatrix_x4 with lane l at row wm*64 + 16i + l%16,
    //|  * column kk + (l/16)*8 (matrices: rows 0-7 and 8-15 at k 0-7, then at k 8-15: mma's a0..a3);
    //|  * B fragments of two 8-column tiles per ldmatrix_x4 with q = l/8 at row wn*64 + 16jj + (q/2)*8 + l%8,
    //|  * column kk + (q%2)*8 (b0, b1 of tile 2jj, then of tile 2jj+1); then 4×8 mma_16816. Addresses:
    //|  * smem_u32(X + slice_offset(row, column, swizzled)). */
    unsigned a_base = smem_u32(As), b_base = smem_u32(Bs);
#pragma unroll
    for (int kk = 0; kk < MM_BK; kk += 16) {
        unsigned a[4][4], b[8][2];
#pragma unroll
        for (int i = 0; i < 4; i++) {
            int r = wm * 64 + i * 16 + lane % 16, c = kk + lane / 16 * 8;
            ldmatrix_x4(a[i], a_base + 2 * slice_offset(r, c, swizzled));
        }
#pragma unroll
        for (int jj = 0; jj < 4; jj++) {
            int q = lane / 8, r = wn * 64 + jj * 16 + q / 2 * 8 + lane % 8, c = kk + q % 2 * 8;
            unsigned t[4];
            ldmatrix_x4(t, b_base + 2 * slice_offset(r, c, swizzled));
            b[2 * jj][0] = t[0], b[2 * jj][1] = t[1], b[2 * jj + 1][0] = t[2], b[2 * jj + 1][1] = t[3];
        }
#pragma unroll
        for (int i = 0; i < 4; i++)
#pragma unroll
            for (int j = 0; j < 8; j++) mma_16816(acc[i][j], a[i], b[j]);
    }
    // END TODO(mma-slice)
}

/* The warp's 64×64 tile from its MMA accumulators to C at (r0, c0), only what lies inside C. */
__device__ __forceinline__ void store_warp_tile(float *C, int M, int N, int r0, int c0, const float acc[4][8][4],
                                                int lane)
{
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 8; j++) {
            int r = r0 + i * 16 + lane / 4, c = c0 + j * 8 + lane % 4 * 2;
            store2(C, M, N, r, c, acc[i][j][0], acc[i][j][1]);
            store2(C, M, N, r + 8, c, acc[i][j][2], acc[i][j][3]);
        }
}

/* The block stages A's and Bt's 128×64 slices (16-byte chunks, zeros outside), then each of the 4 warps
 * runs mma_slice on its 64×64 tile: per 16 of depth, 8 ldmatrix feed 32 MMAs. SWIZZLE picks the
 * shared layout (the mma and swizzle variants). */
template <bool SWIZZLE>
__global__ void __launch_bounds__(MM_THREADS) tc_mma(const __half *A, const __half *Bt, float *C, int M, int N, int K)
{
    // BEGIN TODO(mma)
    //| /* As, Bs: 128*64 halves each in __shared__, 128-byte aligned. Warp w: wm = w/2, wn = w%2; float
    //|  * acc[4][8][4] = {}. Each slice k0: chunk i (row i/8, column (i%8)*8) of each tile by load_chunk8
    //|  * into X + slice_offset(row, column, SWIZZLE), i from threadIdx.x in steps of MM_THREADS;
    //|  * barrier; mma_slice; barrier. Then store_warp_tile at (row0 + wm*64, col0 + wn*64). */
    __shared__ __align__(128) __half As[MM_BM * MM_BK];
    __shared__ __align__(128) __half Bs[MM_BN * MM_BK];
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, wm = warp / 2, wn = warp % 2;
    int row0 = blockIdx.y * MM_BM, col0 = blockIdx.x * MM_BN;
    float acc[4][8][4] = {};
    for (int k0 = 0; k0 < K; k0 += MM_BK) {
#pragma unroll
        for (int i = tid; i < MM_BM * MM_BK / 8; i += MM_THREADS) {
            int r = i / (MM_BK / 8), c = i % (MM_BK / 8) * 8;
            load_chunk8(As + slice_offset(r, c, SWIZZLE), A, M, K, row0 + r, k0 + c);
            load_chunk8(Bs + slice_offset(r, c, SWIZZLE), Bt, N, K, col0 + r, k0 + c);
        }
        __syncthreads(); /* ldmatrix reads what other threads stored */
        mma_slice(acc, As, Bs, wm, wn, lane, SWIZZLE);
        __syncthreads(); /* …and nobody overwrites the slice before everyone has read it */
    }
    store_warp_tile(C, M, N, row0 + wm * 64, col0 + wn * 64, acc, lane);
    // END TODO(mma)
}

static void launch_mma(State *s)
{
    dim3 grid(wb_ceil_div(s->N, MM_BN), wb_ceil_div(s->M, MM_BM));
    tc_mma<false><<<grid, MM_THREADS>>>(s->d_A, s->d_Bt, s->d_C, s->M, s->N, s->K);
    LAUNCH_CHECK();
}

static void launch_swizzle(State *s)
{
    dim3 grid(wb_ceil_div(s->N, MM_BN), wb_ceil_div(s->M, MM_BM));
    tc_mma<true><<<grid, MM_THREADS>>>(s->d_A, s->d_Bt, s->d_C, s->M, s->N, s->K);
    LAUNCH_CHECK();
}

/* cp.async (sm_80 and later, chapter 4's last idea): 16 bytes from global to shared memory without
 * passing through registers, landing while the thread goes on. A chunk outside the matrix is copied
 * from 0 bytes (src need only be a valid address): the hardware fills it with zeros. Where K is not a
 * multiple of 8 the chunks are not 16-byte aligned: plain loads and stores then (synchronous, visible
 * after the next barrier like the copies); below sm_80 always. */
__device__ __forceinline__ void copy_chunk8_async(__half *dst, const __half *X, int rows, int K, int r, int c)
{
#if __CUDA_ARCH__ >= 800
    if (K % 8 == 0) {
        bool in = r < rows && c < K;
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_u32(dst)),
                     "l"(in ? X + (size_t)r * K + c : X), "r"(in ? 16 : 0)
                     : "memory");
        return;
    }
#endif
    load_chunk8(dst, X, rows, K, r, c);
}
/* Closes the group of this thread's copies issued since the last commit. */
__device__ __forceinline__ void cp_async_commit()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
/* Waits until at most PENDING of this thread's committed groups are still in flight (its own copies:
 * the others' need a __syncthreads() after it). */
template <int PENDING> __device__ __forceinline__ void cp_async_wait()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING) : "memory");
#endif
}

#define PIPE_STAGE_HALVES ((MM_BM + PIPE_BN) * MM_BK)
#define PIPE_SMEM (PIPE_STAGES * PIPE_STAGE_HALVES * (int)sizeof(__half))

/* swizzle with PIPE_STAGES slices in shared memory (dynamic: 96 KB at 3 stages of 128×128): slice t + PIPE_STAGES − 1 is
 * copied while slice t is computed, so the copies of two slices are always in flight. One barrier per
 * slice: it says slice t has landed for everyone, and that everyone has finished slice t − 1, whose
 * buffer the copies issued right after it refill. */
__global__ void __launch_bounds__(PIPE_THREADS, 1)
    tc_pipeline(const __half *A, const __half *Bt, float *C, int M, int N, int K)
{
    // BEGIN TODO(pipeline)
    //| /* extern __shared__ halves: stage s holds A's slice at s*PIPE_STAGE_HALVES, Bt's 128*64 after it.
    //|  * copy(t): if t < slices, chunks as in mma by copy_chunk8_async into stage t % PIPE_STAGES
    //|  * (swizzled); always cp_async_commit (one group per slice, even an empty one). Prologue: copy
    //|  * 0..PIPE_STAGES-2. Slice t: cp_async_wait<PIPE_STAGES - 2>, barrier, copy(t + PIPE_STAGES - 1),
    //|  * mma_slice on stage t % PIPE_STAGES. Then store_warp_tile. */
    extern __shared__ __align__(128) __half pipe_smem[];
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, wm = warp / PIPE_WN, wn = warp % PIPE_WN;
    int row0 = blockIdx.y * MM_BM, col0 = blockIdx.x * PIPE_BN, slices = (K + MM_BK - 1) / MM_BK;
    float acc[4][8][4] = {};
    auto copy_slice = [&](int t) {
        if (t < slices) {
            __half *As = pipe_smem + t % PIPE_STAGES * PIPE_STAGE_HALVES, *Bs = As + MM_BM * MM_BK;
            int k0 = t * MM_BK;
#pragma unroll
            for (int i = tid; i < MM_BM * MM_BK / 8; i += PIPE_THREADS) {
                int r = i / (MM_BK / 8), c = i % (MM_BK / 8) * 8;
                copy_chunk8_async(As + slice_offset(r, c, true), A, M, K, row0 + r, k0 + c);
            }
#pragma unroll
            for (int i = tid; i < PIPE_BN * MM_BK / 8; i += PIPE_THREADS) {
                int r = i / (MM_BK / 8), c = i % (MM_BK / 8) * 8;
                copy_chunk8_async(Bs + slice_offset(r, c, true), Bt, N, K, col0 + r, k0 + c);
            }
        }
        cp_async_commit(); /* a group per slice, empty past the end: the wait below counts slices */
    };
    for (int t = 0; t < PIPE_STAGES - 1; t++) copy_slice(t);
    for (int t = 0; t < slices; t++) {
        cp_async_wait<PIPE_STAGES - 2>(); /* this thread's copies of slice t have landed */
        __syncthreads();                  /* everyone's have, and everyone is done with slice t - 1 */
        copy_slice(t + PIPE_STAGES - 1);
        const __half *As = pipe_smem + t % PIPE_STAGES * PIPE_STAGE_HALVES;
        mma_slice(acc, As, As + MM_BM * MM_BK, wm, wn, lane, true);
    }
    store_warp_tile(C, M, N, row0 + wm * 64, col0 + wn * 64, acc, lane);
    // END TODO(pipeline)
}

static void launch_pipeline(State *s)
{
    CUDA_CHECK(cudaFuncSetAttribute(tc_pipeline, cudaFuncAttributeMaxDynamicSharedMemorySize, PIPE_SMEM));
    dim3 grid(wb_ceil_div(s->N, PIPE_BN), wb_ceil_div(s->M, MM_BM));
    tc_pipeline<<<grid, PIPE_THREADS, PIPE_SMEM>>>(s->d_A, s->d_Bt, s->d_C, s->M, s->N, s->K);
    LAUNCH_CHECK();
}

/* ------------------------------------------------------------------ Hopper (sm_90a) */
/* An mbarrier: a 64-bit object in shared memory that completes a phase when `count` threads have
 * arrived and the bytes it was told to expect (expect_tx) have been written by the tensor copies. A
 * waiter names the parity of the phase it waits for: 0 for the first, 1 for the second, 0 again… */
__device__ __forceinline__ void mbar_init(uint64_t *bar, unsigned count)
{
#if WB_SM90A
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(count) : "memory");
#endif
}
/* Makes the initialized barriers visible to the tensor copies (another proxy) before any is used. */
__device__ __forceinline__ void mbar_init_fence()
{
#if WB_SM90A
    asm volatile("fence.mbarrier_init.release.cluster;\nfence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}
/* This thread arrives and the phase also waits for `bytes` of tensor copies. */
__device__ __forceinline__ void mbar_expect_tx(uint64_t *bar, unsigned bytes)
{
#if WB_SM90A
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(bytes) : "memory");
#endif
}
__device__ __forceinline__ void mbar_arrive(uint64_t *bar)
{
#if WB_SM90A
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_u32(bar)) : "memory");
#endif
}
/* Returns when the phase of parity `parity` has completed. */
__device__ __forceinline__ void mbar_wait(uint64_t *bar, unsigned parity)
{
#if WB_SM90A
    asm volatile("{\n.reg .pred done;\nwait_%=:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
                 "@!done bra wait_%=;\n}\n" ::"r"(smem_u32(bar)),
                 "r"(parity)
                 : "memory");
#endif
}

/* The tensor memory accelerator copies the box of `map` at (k, row) (elements; a box reaching past the
 * matrix is filled with zeros) to dst in shared memory, swizzled as the map says, and counts its bytes
 * on bar. One thread issues it; nobody's registers carry the data. */
__device__ __forceinline__ void tma_load_2d(void *dst, const CUtensorMap *map, int k, int row, uint64_t *bar)
{
#if WB_SM90A
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(
                     smem_u32(dst)),
                 "l"((uint64_t)map), "r"(k), "r"(row), "r"(smem_u32(bar))
                 : "memory");
#endif
}

/* wgmma's shared-memory operand: a 64-bit descriptor of a K-major tile of rows of 128 bytes (64
 * halves) in the 128-byte swizzle, as TMA wrote it: the address (/16, 14 bits), the stride between
 * groups of 8 rows (1024 bytes, /16) and the swizzle mode (1: 128 bytes). The leading-dimension offset
 * is unused for a swizzled K-major tile (1 by convention). The tile must start on 1024 bytes; a step
 * of 16 in K inside it is +32 bytes on the address (the swizzle acts on the address bits, so the
 * hardware finds the permuted chunks itself). */
__device__ __forceinline__ uint64_t desc_sw128(const __half *tile)
{
    uint64_t addr = smem_u32(tile);
    return ((addr & 0x3FFFF) >> 4) | (1ull << 16) | ((uint64_t)(1024 >> 4) << 32) | (1ull << 62);
}

/* Before the first wgmma of a batch (after other instructions touched its accumulators); after the
 * batch, commit it as a group; wait until at most PENDING groups are in flight (their accumulators and
 * shared operands are then free). All warpgroup-collective. */
__device__ __forceinline__ void wgmma_fence()
{
#if WB_SM90A
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void wgmma_commit()
{
#if WB_SM90A
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}
template <int PENDING> __device__ __forceinline__ void wgmma_wait()
{
#if WB_SM90A
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(PENDING) : "memory");
#endif
}

/* A warpgroup gives registers back (the producer) or takes them (the consumers): per thread, a multiple
 * of 8 from 24 to 256; the whole warpgroup executes it. */
template <int REGS> __device__ __forceinline__ void setmaxnreg_dec()
{
#if WB_SM90A
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(REGS));
#endif
}
template <int REGS> __device__ __forceinline__ void setmaxnreg_inc()
{
#if WB_SM90A
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(REGS));
#endif
}

/* D (64x128 fp32, 64 registers a thread) += A (64x16, smem) · B (16x128, smem), both K-major with the
 * 128-byte swizzle; scale_d 0 overwrites D instead. */
__device__ __forceinline__ void wgmma_m64n128k16(float *d, uint64_t desc_a, uint64_t desc_b, int scale_d)
{
#if WB_SM90A
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {"
                 "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
                 "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
                 "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
                 "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63"
                 "}, %64, %65, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                   "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                   "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                   "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                   "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                   "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
                 : "l"(desc_a), "l"(desc_b), "r"(scale_d));
#endif
}

/* D (64x256 fp32, 128 registers a thread) += A (64x16, smem) · B (16x256, smem), both K-major with the
 * 128-byte swizzle; scale_d 0 overwrites D instead. */
__device__ __forceinline__ void wgmma_m64n256k16(float *d, uint64_t desc_a, uint64_t desc_b, int scale_d)
{
#if WB_SM90A
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {"
                 "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
                 "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
                 "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
                 "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,"
                 "%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,"
                 "%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95,"
                 "%96,%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109,%110,%111,"
                 "%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,%122,%123,%124,%125,%126,%127"
                 "}, %128, %129, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                   "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                   "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                   "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                   "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                   "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
                   "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                   "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
                   "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
                   "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
                   "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
                   "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
                   "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
                   "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
                 : "l"(desc_a), "l"(desc_b), "r"(scale_d));
#endif
}

/* A warpgroup's 64×N accumulator (wgmma's layout: warp w of the group holds rows 16w..16w+15, and of
 * each 8 columns j, registers 4j..4j+3 hold rows l/4 and l/4 + 8 at columns 2·(l % 4) and +1) to C at
 * (r0, c0), only what lies inside C. */
template <int NCOLS>
__device__ __forceinline__ void store_wg_tile(float *C, int M, int N, int r0, int c0, const float *d, int t)
{
    int warp = t / 32, lane = t % 32, r = r0 + warp * 16 + lane / 4;
#pragma unroll
    for (int j = 0; j < NCOLS / 8; j++) {
        int c = c0 + j * 8 + lane % 4 * 2;
        store2(C, M, N, r, c, d[4 * j], d[4 * j + 1]);
        store2(C, M, N, r + 8, c, d[4 * j + 2], d[4 * j + 3]);
    }
}

/* Bytes of one stage of each Hopper kernel: the slices of A and Bt, 64 halves deep. */
#define HG_A_BYTES (HG_BM * HG_BK * 2)
#define HG_B_BYTES (HG_BN * HG_BK * 2)
#define HW_B_BYTES (HW_BN * HG_BK * 2)
/* Dynamic shared memory: the stages, 1024 bytes to align them, the barriers. */
#define HG_SMEM (HG_STAGES * (HG_A_BYTES + HG_B_BYTES) + 1024 + 2 * HG_STAGES * 8)
#define HW_SMEM (HW_STAGES * (HG_A_BYTES + HW_B_BYTES) + 1024 + 2 * HW_STAGES * 8)

/* The block's 128×128 tile: thread 0 asks TMA for the slices of HG_STAGES steps ahead, each stage's
 * barrier completing when its 32 KB have landed; warpgroup g multiplies rows 64g..64g+63 with four
 * wgmma of 64×128×16 per slice, from shared memory, straight into its 64 accumulators. After a slice,
 * a block barrier says everyone is done with it, and thread 0 refills its stage. */
__global__ void __launch_bounds__(HG_THREADS)
    tc_wgmma(const __grid_constant__ CUtensorMap tm_A, const __grid_constant__ CUtensorMap tm_B, float *C, int M,
             int N, int K)
{
#if WB_SM90A
    // BEGIN TODO(wgmma)
    //| /* Dynamic shared memory rounded up to 1024 bytes: HG_STAGES slices of A (128×64 halves), then of
    //|  * Bt, then HG_STAGES barriers `full` (count 1, mbar_init + mbar_init_fence by thread 0, then
    //|  * __syncthreads). issue(t): mbar_expect_tx(full[t % S], A + B bytes) and tma_load_2d of A at
    //|  * (64t, row0) and of Bt at (64t, col0) into stage t % S. Thread 0 issues the first S slices. Slice
    //|  * t: mbar_wait(full[t % S], (t / S) & 1); wgmma_fence; four wgmma_m64n128k16 with desc_sw128 of
    //|  * A's rows 64g.. and Bt's slice, each +16 halves; wgmma_commit; wgmma_wait<0>; __syncthreads;
    //|  * thread 0 issues t + S. Then store_wg_tile<128>. */
    extern __shared__ unsigned char hg_raw[];
    __half *As = (__half *)(((uintptr_t)hg_raw + 1023) & ~(uintptr_t)1023); /* the swizzle's 1024-byte atoms */
    __half *Bs = As + HG_STAGES * HG_BM * HG_BK;
    uint64_t *full = (uint64_t *)(Bs + HG_STAGES * HG_BN * HG_BK);
    int tid = threadIdx.x, g = tid / 128, slices = (K + HG_BK - 1) / HG_BK;
    int row0 = blockIdx.y * HG_BM, col0 = blockIdx.x * HG_BN;
    if (tid == 0) {
        for (int s = 0; s < HG_STAGES; s++) mbar_init(&full[s], 1);
        mbar_init_fence();
    }
    __syncthreads(); /* the barriers exist before anyone waits on them */
    auto issue = [&](int t) {
        int s = t % HG_STAGES;
        mbar_expect_tx(&full[s], HG_A_BYTES + HG_B_BYTES);
        tma_load_2d(As + s * HG_BM * HG_BK, &tm_A, t * HG_BK, row0, &full[s]);
        tma_load_2d(Bs + s * HG_BN * HG_BK, &tm_B, t * HG_BK, col0, &full[s]);
    };
    if (tid == 0)
        for (int t = 0; t < HG_STAGES && t < slices; t++) issue(t);
    float d[64] = {};
    for (int t = 0; t < slices; t++) {
        int s = t % HG_STAGES;
        mbar_wait(&full[s], (t / HG_STAGES) & 1);
        const __half *a = As + s * HG_BM * HG_BK + g * 64 * HG_BK, *b = Bs + s * HG_BN * HG_BK;
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < HG_BK; kk += 16) wgmma_m64n128k16(d, desc_sw128(a + kk), desc_sw128(b + kk), 1);
        wgmma_commit();
        wgmma_wait<0>();
        __syncthreads(); /* both warpgroups are done with stage s: it may be refilled */
        if (tid == 0 && t + HG_STAGES < slices) issue(t + HG_STAGES);
    }
    store_wg_tile<HG_BN>(C, M, N, row0 + g * 64, col0, d, tid % 128);
    // END TODO(wgmma)
#else
    __trap(); /* not sm_90a code: the program never launches it (unavailable) */
#endif
}

/* The block tile of linear block b in a grid of tiles_m × tiles_n: blocks go down columns of GROUP
 * tiles of M before moving along N, so the blocks running at once share the slices of A of GROUP
 * row blocks and of B of a few column blocks, which stay in L2. */
#define HW_GROUP 8
__device__ __forceinline__ void tile_of_block(int b, int tiles_m, int tiles_n, int *tm, int *tn)
{
    int per_group = HW_GROUP * tiles_n, first = b / per_group * HW_GROUP;
    int rows = min(tiles_m - first, HW_GROUP), in = b % per_group;
    *tm = first + in % rows, *tn = in / rows;
}

/* Warp specialization: warpgroup 0 produces (one thread issues the tensor copies of each stage once
 * both consumers have released it: the `empty` barrier), warpgroups 1 and 2 consume (wait for `full`,
 * four wgmma of 64×256×16, release the stage of the slice before as soon as its MMAs are done: one
 * batch stays in flight while the next waits). The producer needs few registers: setmaxnreg moves them
 * to the consumers, whose 128 accumulators each would not fit otherwise at 384 threads. */
__global__ void __launch_bounds__(HW_THREADS, 1)
    tc_wgmma_ws(const __grid_constant__ CUtensorMap tm_A, const __grid_constant__ CUtensorMap tm_B, float *C, int M,
                int N, int K)
{
#if WB_SM90A
    // BEGIN TODO(wgmma-ws)
    //| /* As wgmma, with HW_STAGES stages of A (128×64) and Bt (256×64) and two barriers each: full
    //|  * (count 1) and empty (count 2: one arrival per consumer). The tile: tile_of_block. Warpgroup 0:
    //|  * setmaxnreg_dec<40>; its thread 0 for each slice t waits empty[t % S] (parity (t / S - 1) & 1)
    //|  * from t >= S on, then expect_tx and the two copies. Warpgroups 1, 2 (c = g - 1): setmaxnreg_inc
    //|  * <232>; slice t: wait full, fence, four wgmma_m64n256k16 on A's rows 64c.., commit, wgmma_wait<1>,
    //|  * then thread 0 of the group arrives on empty of slice t - 1. At the end wgmma_wait<0> and
    //|  * store_wg_tile<256>. */
    extern __shared__ unsigned char hw_raw[];
    __half *As = (__half *)(((uintptr_t)hw_raw + 1023) & ~(uintptr_t)1023);
    __half *Bs = As + HW_STAGES * HG_BM * HG_BK;
    uint64_t *full = (uint64_t *)(Bs + HW_STAGES * HW_BN * HG_BK), *empty = full + HW_STAGES;
    int tid = threadIdx.x, g = tid / 128, slices = (K + HG_BK - 1) / HG_BK, tm, tn;
    tile_of_block(blockIdx.x, (M + HG_BM - 1) / HG_BM, (N + HW_BN - 1) / HW_BN, &tm, &tn);
    int row0 = tm * HG_BM, col0 = tn * HW_BN;
    if (tid == 0) {
        for (int s = 0; s < HW_STAGES; s++) mbar_init(&full[s], 1), mbar_init(&empty[s], 2);
        mbar_init_fence();
    }
    __syncthreads(); /* the barriers exist before anyone waits on them */
    if (g == 0) {
        setmaxnreg_dec<40>();
        if (tid == 0)
            for (int t = 0; t < slices; t++) {
                int s = t % HW_STAGES;
                if (t >= HW_STAGES) mbar_wait(&empty[s], (t / HW_STAGES - 1) & 1);
                mbar_expect_tx(&full[s], HG_A_BYTES + HW_B_BYTES);
                tma_load_2d(As + s * HG_BM * HG_BK, &tm_A, t * HG_BK, row0, &full[s]);
                tma_load_2d(Bs + s * HW_BN * HG_BK, &tm_B, t * HG_BK, col0, &full[s]);
            }
        return;
    }
    setmaxnreg_inc<232>();
    int c = g - 1, t_in = tid % 128;
    float d[128] = {};
    for (int t = 0; t < slices; t++) {
        int s = t % HW_STAGES;
        mbar_wait(&full[s], (t / HW_STAGES) & 1);
        const __half *a = As + s * HG_BM * HG_BK + c * 64 * HG_BK, *b = Bs + s * HW_BN * HG_BK;
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < HG_BK; kk += 16) wgmma_m64n256k16(d, desc_sw128(a + kk), desc_sw128(b + kk), 1);
        wgmma_commit();
        wgmma_wait<1>(); /* slice t - 1's MMAs are done: its stage may be refilled */
        if (t > 0 && t_in == 0) mbar_arrive(&empty[(t - 1) % HW_STAGES]);
    }
    wgmma_wait<0>();
    store_wg_tile<HW_BN>(C, M, N, row0 + c * 64, col0, d, t_in);
    // END TODO(wgmma-ws)
#else
    __trap(); /* not sm_90a code: the program never launches it (unavailable) */
#endif
}

/* A tensor map of a rows×Kp row-major fp16 matrix, boxes of box_rows × 64 halves (128 bytes, the
 * swizzle's span) in the 128-byte swizzle, zeros past its edges. The driver's encoder is found at run
 * time (cudaGetDriverEntryPointByVersion), so the program needs no -lcuda. */
static CUtensorMap make_tensor_map(const __half *X, int rows, int Kp, int box_rows)
{
    PFN_cuTensorMapEncodeTiled_v12000 encode = NULL;
    cudaDriverEntryPointQueryResult found;
    CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&encode, 12000, cudaEnableDefault,
                                                &found));
    if (found != cudaDriverEntryPointSuccess || !encode) {
        fprintf(stderr, "the CUDA driver has no cuTensorMapEncodeTiled (a driver for CUDA 12 or later is needed)\n");
        exit(WB_EXIT_CUDA);
    }
    CUtensorMap map;
    cuuint64_t dims[2] = {(cuuint64_t)Kp, (cuuint64_t)rows}, strides[1] = {(cuuint64_t)Kp * sizeof(__half)};
    cuuint32_t box[2] = {HG_BK, (cuuint32_t)box_rows}, elem[2] = {1, 1};
    CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, (void *)X, dims, strides, box, elem,
                        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "cuTensorMapEncodeTiled failed (error %d) for a %dx%d matrix\n", (int)r, rows, Kp);
        exit(WB_EXIT_CUDA);
    }
    return map;
}

/* Rows of X (rows×K) into Xp (rows×Kp), zeros in the columns K..Kp−1. */
__global__ void pad_rows(const __half *X, __half *Xp, int rows, int K, int Kp)
{
    size_t n = (size_t)rows * Kp;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        size_t r = i / Kp, c = i % Kp;
        Xp[i] = c < (size_t)K ? X[r * K + c] : __float2half(0.0f);
    }
}

/* The Hopper variants' preparation (timed apart): A and Bt padded to rows of a multiple of 8 halves
 * when K is not one (the tensor copies need 16-byte rows), and the tensor maps, made once. */
static void prepare_hopper(State *s)
{
    if (s->Kp != s->K) {
        pad_rows<<<1024, 256>>>(s->d_A, s->d_Ap, s->M, s->K, s->Kp);
        LAUNCH_CHECK();
        pad_rows<<<1024, 256>>>(s->d_Bt, s->d_Btp, s->N, s->K, s->Kp);
        LAUNCH_CHECK();
    }
    if (s->maps_made) return;
    s->tm_A = make_tensor_map(s->d_Ap, s->M, s->Kp, HG_BM);
    s->tm_B128 = make_tensor_map(s->d_Btp, s->N, s->Kp, HG_BN);
    s->tm_B256 = make_tensor_map(s->d_Btp, s->N, s->Kp, HW_BN);
    s->maps_made = 1;
}

static void launch_wgmma(State *s)
{
    CUDA_CHECK(cudaFuncSetAttribute(tc_wgmma, cudaFuncAttributeMaxDynamicSharedMemorySize, HG_SMEM));
    dim3 grid(wb_ceil_div(s->N, HG_BN), wb_ceil_div(s->M, HG_BM));
    tc_wgmma<<<grid, HG_THREADS, HG_SMEM>>>(s->tm_A, s->tm_B128, s->d_C, s->M, s->N, s->Kp);
    LAUNCH_CHECK();
}

static void launch_wgmma_ws(State *s)
{
    CUDA_CHECK(cudaFuncSetAttribute(tc_wgmma_ws, cudaFuncAttributeMaxDynamicSharedMemorySize, HW_SMEM));
    int blocks = wb_ceil_div(s->M, HG_BM) * wb_ceil_div(s->N, HW_BN);
    tc_wgmma_ws<<<blocks, HW_THREADS, HW_SMEM>>>(s->tm_A, s->tm_B256, s->d_C, s->M, s->N, s->Kp);
    LAUNCH_CHECK();
}

/* ================================================================== the harness: you need not read below.
 * It runs the variants above, checks and times them; common/wb.h does the work. */
static const wb_variant variants[] = {
    {"wmma", "warp fragments (nvcuda::wmma) of 16x16x16 loaded straight from global memory", "tc_wmma",
     launch_wmma, NULL, "wmma 16x16x16", NULL, {{W_THREADS}}, NULL},
    {"wmma-shared", "a 128x128 block tile staged in shared memory, 8 warps of 64x32 wmma fragments",
     "tc_wmma_shared", launch_wmma_shared, NULL, "wmma 16x16x16", NULL, {{WS_THREADS}}, NULL},
    {"mma", "PTX mma.sync m16n8k16 on fragments loaded by ldmatrix, 4 warps of 64x64", "tc_mma<false>", launch_mma,
     NULL, "mma m16n8k16", NULL, {{MM_THREADS}}, NULL},
    {"swizzle", "shared rows XOR-swizzled by 16-byte chunk: ldmatrix without bank conflicts", "tc_mma<true>",
     launch_swizzle, NULL, "mma m16n8k16", NULL, {{MM_THREADS}}, NULL},
    {"pipeline", "cp.async in " WB_STR(PIPE_STAGES) " stages: two slices in flight while one is computed",
     "tc_pipeline", launch_pipeline, NULL, "mma m16n8k16", NULL, {{PIPE_THREADS, PIPE_SMEM}}, NULL},
    {"wgmma", "Hopper warpgroup MMA from shared memory, slices by TMA on mbarriers, 4 stages (sm_90a)", "tc_wgmma",
     launch_wgmma, prepare_hopper, "wgmma m64n128k16", NULL, {{HG_THREADS, HG_SMEM}}, wb_needs_sm90a},
    {"wgmma-ws", "warp-specialized: a TMA producer warpgroup, 2 consumers of 64x256, setmaxnreg (sm_90a)",
     "tc_wgmma_ws", launch_wgmma_ws, prepare_hopper, "wgmma m64n256k16", NULL, {{HW_THREADS, HW_SMEM}},
     wb_needs_sm90a},
};

/* The tensor cores' peak on this GPU, measured: wmma fragments multiplied in registers (wb_peak.h), and
 * where this binary runs sm_90a code, wgmma from shared memory with nothing else (a 64×256 accumulator
 * per warpgroup, two warpgroups a block, one batch of four always in flight): on Hopper only wgmma
 * reaches the full rate. TFLOP/s. */
__global__ void __launch_bounds__(256) tc_wgmma_peak(float *sink, int iters)
{
#if WB_SM90A
    extern __shared__ unsigned char pk_raw[];
    __half *a = (__half *)(((uintptr_t)pk_raw + 1023) & ~(uintptr_t)1023), *b = a + 64 * HG_BK;
    for (int i = threadIdx.x; i < (64 + 256) * HG_BK; i += blockDim.x) a[i] = __float2half(0.001f * (i % 7));
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); /* the stores above, seen by wgmma */
    float d[128] = {};
    for (int it = 0; it < iters; it++) {
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < HG_BK; kk += 16) wgmma_m64n256k16(d, desc_sw128(a + kk), desc_sw128(b + kk), 1);
        wgmma_commit();
        wgmma_wait<1>();
    }
    wgmma_wait<0>();
    float m = 0;
#pragma unroll
    for (int j = 0; j < 128; j++) m += d[j];
    sink[blockIdx.x * blockDim.x + threadIdx.x] = m;
#endif
}
#define PEAK_SMEM ((64 + 256) * HG_BK * 2 + 1024)

static double wgmma_peak(int warmup, int reps)
{
    int per_sm = 0, sms = 0, iters = 4096;
    CUDA_CHECK(cudaFuncSetAttribute(tc_wgmma_peak, cudaFuncAttributeMaxDynamicSharedMemorySize, PEAK_SMEM));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, tc_wgmma_peak, 256, PEAK_SMEM));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    int blocks = per_sm * sms;
    float *sink = (float *)wb_device_alloc(sizeof(float) * (size_t)blocks * 256);
    double ms = wb_time_ms(
        [&] {
            tc_wgmma_peak<<<blocks, 256, PEAK_SMEM>>>(sink, iters);
            LAUNCH_CHECK();
        },
        warmup, reps, NULL);
    return 2.0 * 64 * 256 * HG_BK * (double)iters * 2 * blocks / (ms * 1e-3) / 1e12;
}

static double ceiling(State *s, int warmup, int reps, const char **name)
{
    if (s->tc_peak == 0) {
        s->tc_peak = wb_tc_peak(warmup, reps) / 1e3, s->tc_peak_name = "tensor-core peak (wmma)";
        wb_device dev;
        CUDA_CHECK(cudaGetDeviceProperties(&dev.prop, 0));
        char why[WB_REASON_LEN];
        if (!wb_needs_sm90a(&dev, why, sizeof why)) {
            double w = wgmma_peak(warmup, reps);
            if (w > s->tc_peak) s->tc_peak = w, s->tc_peak_name = "tensor-core peak (wgmma)";
        }
    }
    *name = s->tc_peak_name;
    return s->tc_peak;
}

/* The speed of light, cuBLAS, also gives the reference of the rows the CPU cannot afford. The grader
 * builds student code with WB_NO_SOL_LIBS (no library may do a variant's work): the row is then the
 * tensor cores' peak, and only the exact rows are checked. */
#ifndef WB_NO_SOL_LIBS
#include "wb_cublas.h"
static void launch_cublas(State *s) { wb_cublas_gemm_f16(s->d_A, s->d_Bt, s->d_C, s->M, s->N, s->K); }
#endif

static double device_bytes(const wb_size *size)
{
    double M = (double)size->d[0], N = (double)size->d[1], K = (double)size->d[2];
    return 2.0 * 2 * (M + N) * (K + 8) + 4.0 * M * N + 64e6; /* A, Bt, their padded copies, C, cuBLAS */
}

/* In units of 10^12 flops / 10^9, so that the table's rates read in TFLOP/s. */
static double flops(const wb_size *size) { return 2e-3 * (double)size->d[0] * (double)size->d[1] * (double)size->d[2]; }

static void check(State *s, const void *result, wb_check *chk) { wb_gemm_ref_check(&s->ref, (const float *)result, chk, 0); }

/* The fp16 inputs: uniform in [-1, 1) (the fp32 recipe of every chapter), rounded to nearest fp16. */
__host__ __device__ static inline __half input_half(float x) { return __float2half_rn(x); }

#define HOST(type, count) (type *)wb_host_alloc(sizeof(type) * (count), "the matrices and the reference")
static void setup(State *s, const wb_size *size, uint64_t seed, wb_output *out)
{
    memset(s, 0, sizeof *s);
    s->M = (int)size->d[0], s->N = (int)size->d[1], s->K = (int)size->d[2], s->Kp = (s->K + 7) / 8 * 8;
    size_t M = (size_t)s->M, N = (size_t)s->N, K = (size_t)s->K;
    s->h_A = HOST(float, M * K);
    s->h_B = HOST(float, K * N);
    float *bt = HOST(float, N * K);
    __half *h_A16 = HOST(__half, M * K), *h_Bt16 = HOST(__half, N * K);
    wb_fill_f32(s->h_A, M * K, seed, 0, -1.0f, 1.0f);
    wb_fill_f32(bt, N * K, seed, 1, -1.0f, 1.0f);
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < M * K; i++) h_A16[i] = input_half(s->h_A[i]), s->h_A[i] = __half2float(h_A16[i]);
#pragma omp parallel for schedule(static)
    for (size_t j = 0; j < N; j++)
        for (size_t k = 0; k < K; k++) {
            h_Bt16[j * K + k] = input_half(bt[j * K + k]);
            s->h_B[k * N + j] = __half2float(h_Bt16[j * K + k]);
        }
    s->d_fresh = (double *)wb_device_alloc(sizeof(double) * 2 * K);
    s->d_A = (__half *)wb_device_copy(h_A16, sizeof(__half) * M * K);
    s->d_Bt = (__half *)wb_device_copy(h_Bt16, sizeof(__half) * N * K);
    s->d_Ap = s->d_A, s->d_Btp = s->d_Bt;
    if (s->Kp != s->K) {
        s->d_Ap = (__half *)wb_device_alloc(sizeof(__half) * M * s->Kp);
        s->d_Btp = (__half *)wb_device_alloc(sizeof(__half) * N * s->Kp);
    }
    s->d_C = (float *)wb_device_alloc(sizeof(float) * M * N);
    *out = wb_output{s->d_C, WB_ELEM_F32, M * N};
    /* Every row on the CPU while it can afford it, else a sample of rows. */
    int all = M * N * K <= (1ull << 31) && M * N <= (1ull << 26);
    wb_gemm_ref_exact(&s->ref, s->h_A, s->h_B, s->M, s->N, s->K, matmul_rtol(s->K), all, wb_gemm_rows_cpu);
#ifndef WB_NO_SOL_LIBS
    /* cuBLAS's C, checked against the exact rows; the other rows' reference when not all are exact. */
    wb_cublas_begin_tensor();
    wb_poison(s->d_C, sizeof(float) * M * N);
    launch_cublas(s);
    float *h_blas = HOST(float, M * N);
    CUDA_CHECK(cudaMemcpy(h_blas, s->d_C, sizeof(float) * M * N, cudaMemcpyDeviceToHost));
    wb_gemm_ref_take_lib(&s->ref, "cuBLAS", h_blas, s->h_A, s->h_B);
#endif
}

/* --grading's timed repetitions (common/wb_timing.h), as chapter 4's: each on inputs of its own (A and Bt
 * by the setup's recipe, on the GPU), each output checked by Freivalds' projection: for x with random
 * signs, row i of C·x must match row i of A·(B·x) within the check's own bound summed along the
 * projection, rtol·(|A|·(|B|·1))_i, plus 2·γ_{N+K}(2^-53) of the sums' size for the double arithmetic. */
__device__ __forceinline__ double fresh_sign(uint64_t seed, int j) { return (wb_random_at(seed, 7, (uint64_t)j) & 1) ? 1.0 : -1.0; }

__device__ __forceinline__ double fresh_value(uint64_t seed, uint64_t stream, size_t i)
{
    return __half2float(input_half(wb_random_f32(seed, stream, i, -1.0f, 1.0f)));
}

__global__ void fresh_fill_half(__half *d, size_t n, uint64_t seed, uint64_t stream)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        d[i] = input_half(wb_random_f32(seed, stream, i, -1.0f, 1.0f));
}

/* One warp per k: y[k] = Σ_j B_kj·x_j, y[K + k] = Σ_j |B_kj|, with B_kj = Bt[j][k]. */
__global__ void fresh_bx(double *y, int N, int K, uint64_t seed)
{
    int k = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
    if (k >= K) return;
    double bx = 0, babs = 0;
    for (int j = lane; j < N; j += 32) {
        double b = fresh_value(seed, 1, (size_t)j * K + k);
        bx += b * fresh_sign(seed, j);
        babs += fabs(b);
    }
    for (int d = 16; d > 0; d /= 2) {
        bx += __shfl_down_sync(0xFFFFFFFFu, bx, d);
        babs += __shfl_down_sync(0xFFFFFFFFu, babs, d);
    }
    if (lane == 0) y[k] = bx, y[K + k] = babs;
}

/* One warp per row i: A_i·y against C_i·x, within rtol·(|A_i|·|B|·1) and the double sums' rounding. */
__global__ void fresh_row(const float *C, const double *y, int M, int N, int K, uint64_t seed, double rtol,
                          double u_sum, unsigned rep, unsigned long long *fault)
{
    int i = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
    if (i >= M) return;
    double ay = 0, bound = 0, cx = 0, cabs = 0;
    for (int k = lane; k < K; k += 32) {
        double a = fresh_value(seed, 0, (size_t)i * K + k);
        ay += a * y[k];
        bound += fabs(a) * y[K + k];
    }
    for (int j = lane; j < N; j += 32) {
        double c = C[(size_t)i * N + j];
        cx += c * fresh_sign(seed, j);
        cabs += fabs(c);
    }
    for (int d = 16; d > 0; d /= 2) {
        ay += __shfl_down_sync(0xFFFFFFFFu, ay, d);
        bound += __shfl_down_sync(0xFFFFFFFFu, bound, d);
        cx += __shfl_down_sync(0xFFFFFFFFu, cx, d);
        cabs += __shfl_down_sync(0xFFFFFFFFu, cabs, d);
    }
    if (lane == 0 && !(fabs(ay - cx) <= rtol * bound + u_sum * (bound + cabs)))
        wb_fault(fault, wb_fault_key(rep, WB_FAULT_ROW, (unsigned long long)i));
}

static void fresh_renew(State *s, uint64_t seed)
{
    fresh_fill_half<<<wb_fresh_grid((size_t)s->M * s->K), WB_FRESH_BLOCK>>>(s->d_A, (size_t)s->M * s->K, seed, 0);
    LAUNCH_CHECK();
    fresh_fill_half<<<wb_fresh_grid((size_t)s->N * s->K), WB_FRESH_BLOCK>>>(s->d_Bt, (size_t)s->N * s->K, seed, 1);
    LAUNCH_CHECK();
}

static void fresh_verify(State *s, uint64_t seed, unsigned rep, unsigned long long *fault)
{
    fresh_bx<<<wb_ceil_div(s->K, 8), 256>>>(s->d_fresh, s->N, s->K, seed);
    LAUNCH_CHECK();
    fresh_row<<<wb_ceil_div(s->M, 8), 256>>>(s->d_C, s->d_fresh, s->M, s->N, s->K, seed, matmul_rtol(s->K),
                                             2.0 * wb_gamma_n(s->N + s->K, 0x1p-53), rep, fault);
    LAUNCH_CHECK();
}

static double speed_of_light(State *s, int warmup, int reps, const char **name)
{
    const char *peak_name;
    double peak = ceiling(s, warmup, reps, &peak_name);
#ifdef WB_NO_SOL_LIBS
    *name = peak_name;
    return peak;
#else
    *name = "cuBLAS GemmEx fp16/fp32";
    double blas = s->M * 2e-12 * s->N * s->K / (wb_time_median_ms(launch_cublas, s, warmup, reps) * 1e-3);
    /* The table has one speed of light; the peak goes beside it, with the share of it cuBLAS reaches. */
    fprintf(stderr, "note: %s %.1f TFLOP/s; cuBLAS reaches %.1f %% of it\n", peak_name, peak, 100.0 * blas / peak);
    return blas;
#endif
}

#ifndef WB_NO_SOL_LIBS
static void teardown(State *) { wb_cublas_end(); }
#else
static void (*const teardown)(State *) = NULL;
#endif

int main(int argc, char **argv)
{
    static const wb_chapter chapter = {
        .cli = {.id = "6-tcmatmul",
                .title = "tensor-core matrix multiplication, C (MxN, fp32) = A (MxK, fp16) * B (KxN, fp16, stored "
                         "as Bt NxK), fp32 sums",
                WB_VARIANTS(variants), .dims = 3, .max_dim = 1 << 15,
                .size_help = "MxNxK: C is MxN, A MxK, B KxN; each 1 to 32768 (the kernels index with int "
                             "within a row block: M*K, N*K and M*N stay within 2^30)",
                .default_sizes = "4096x4096x4096 8192x8192x8192 4095x1001x333"},
        .table = {.unit = "TFLOP/s", .extra_name = "MMA"}, .device_bytes = device_bytes, .work = flops,
        .setup = setup, .speed_of_light = speed_of_light, .check = check, .ceiling = ceiling, .teardown = teardown,
        .fresh = {fresh_renew, fresh_verify},
    };
    State state = {};
    return wb_main(argc, argv, &chapter, &state);
}
