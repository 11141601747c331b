/*
 * Chapter 4 — matrix multiplication: C = A·B with A M×K, B K×N, C M×N, float, row-major, any M, N, K ≥ 1.
 * Rectangular on purpose: with square matrices a kernel that swaps two extents still passes.
 *
 * Variants, each adding one idea (build/chapter4 --list):
 *   naive          one thread per element of C, its dot product read straight from global memory
 *                  (PMPP fig. 5.1, with bounds checks): 2 global loads per multiply-add
 *   tiled          TILE_WIDTH×TILE_WIDTH tiles of A and B staged in __shared__, two barriers per phase
 *                  (PMPP fig. 5.12); tiles that overhang the matrices are padded with zeros, so any
 *                  shape works: 2/TILE_WIDTH loads per multiply-add
 *   reg-1d         each thread computes 8 elements of one column of C in registers from a 64×64 block tile
 *                  with 8-deep slices of K: every B value read from shared memory feeds 8 multiply-adds,
 *                  and (64+64)/(64·64) = 1/32 global loads per multiply-add
 *   reg-2d         each thread computes an 8×8 block of C in registers from a 128×128 block tile with
 *                  16-deep slices of K: every value read from shared memory feeds 8 multiply-adds, and
 *                  (128+128)/(128·128) = 1/64 global loads per multiply-add
 *   reg-block      the same with shared memory laid out so that a warp's reads do not conflict in the
 *                  banks: A's slice stored transposed, each thread's rows and columns in two halves
 *   vector         the same with 16-byte (float4) accesses to global and shared memory wherever the
 *                  shape allows (a row length that is a multiple of 4), scalar at the edges
 *   double-buffer  two shared buffers: the global loads of the next slice are in flight while the
 *                  current one is computed, and one barrier per slice instead of two
 *   async-copy     the slices travel by cp.async, straight from global to shared memory without
 *                  passing through registers; the registers saved pay for a 64×256 block tile, the
 *                  shape an autotuning sweep picked: (64+256)/(64·256) = 1/51 global loads per FMA
 * TILE_WIDTH is 16 unless built with -DTILE_WIDTH=32 (e.g. `make build/solution4 NVCC="nvcc
 * -DTILE_WIDTH=32"`); the table's loads/FMA column names it ("2/16 T=16").
 *
 * The loads/FMA column is the seeds' measure (PMPP's CGMA ratio, turned over): global-memory loads
 * the kernel issues per multiply-add, counted in elements. It is what the code asks for, not what
 * reaches DRAM: today's L1 and L2 caches catch most of the naive kernel's repeats, which is why tiling
 * gains far less here than the seeds measured.
 *
 * Speed of light: cublasSgemm in fp32 with TF32 off (CUBLAS_PEDANTIC_MATH), on the same data in the
 * same run. Every variant does the same 2·M·N·K floating-point operations.
 *
 * Verification: |c − ref| ≤ rtol·Σ_k |a_ik||b_kj| for every element, with rtol = γ_K = K·u/(1 − K·u),
 * u = 2^-24 (Higham's bound for a K-term dot product in fp32, in any order of summation, with or
 * without fused multiply-add), plus 2·γ_K in double for the rounding of the reference and of the bound.
 * The reference is computed on the CPU in double precision (OpenMP) when M·N·K ≤ 2^31 and M·N ≤ 2^26.
 * Beyond that, 32 rows spread over C (the first and last included) are computed on the CPU in double
 * and every other row is compared with cuBLAS's result, allowing the error of both sides (2·rtol) and
 * bounding Σ|a||b| by ‖row of A‖₂·‖column of B‖₂ (Cauchy–Schwarz). cuBLAS's own result is checked
 * against the CPU rows before it is used. The line under each row gives the worst error as a fraction
 * of its bound, where it is, and which reference that was. All eight variants add the K products of an
 * element in the same order (k = 0, 1, …, one fused multiply-add each), so they produce bit-identical
 * C and the same worst error; cuBLAS orders its sums differently.
 *
 * Run:  make chapter4                 your version (this file, chapters/04-matmul/)
 *       make solution4                the reference
 *       build/chapter4 --size 1000x777x513 --variant naive,tiled
 *       build/chapter4 --help
 * Sources: Kirk & Hwu, "Programming Massively Parallel Processors", chapter 5 (figures 5.1 and 5.12);
 *        the 2008 course slides' mat_mul (both assume Width a multiple of TILE_WIDTH; ours does not).
 */
#include "wb.h"
#include "wb_gemm_ref.h" /* the reference C is checked against (Verification above) */

#ifndef TILE_WIDTH
#define TILE_WIDTH 16 /* tiled: threads per block side and tile side; 32 also works (1024 threads) */
#endif
#if TILE_WIDTH < 1 || TILE_WIDTH > 32
#error "TILE_WIDTH must be between 1 and 32 (a block holds at most 1024 threads)"
#endif
#define BLOCK_WIDTH 16 /* naive: threads per block side */

/* reg-1d: a block of R1_THREADS = 512 threads computes a BM1×BN1 block tile of C, each thread TM1
 * elements of one column of it, walking K in slices BK1 deep. */
#define BM1 64
#define BN1 64
#define BK1 8
#define TM1 8
#define R1_THREADS (BM1 * BN1 / TM1)
static_assert(R1_THREADS == BM1 * BK1 && R1_THREADS == BK1 * BN1, "each thread loads one element of A and one of B per slice");

/* The register-blocked variants: a block of 256 threads computes a BM×BN block tile of C, each
 * thread a TM×TN block of it, walking K in slices BK deep. */
#define BM 128
#define BN 128
#ifndef BK
#define BK 16 /* measured on the H100 at 4096³: 16 beats 8 by ~5% (half the barriers per K) */
#endif
#define TM 8
#define TN 8
#define RB_THREADS ((BM / TM) * (BN / TN))
/* As rows padded to BM+4 floats: a warp's transposing stores then hit 16 banks twice (2-way conflict)
 * instead of 8 banks four times; BM+2 would be conflict-free but breaks the float4 reads of As. */
#define A_PAD 4
#define A_LOADS (BM * BK / 4 / RB_THREADS) /* float4 loads of A per thread per slice */
#define B_LOADS (BK * BN / 4 / RB_THREADS) /* float4 loads of B per thread per slice */
static_assert(RB_THREADS == 256 && TM == 8 && TN == 8, "the thread layout below assumes 16×16 threads of 8×8");
static_assert(BK % 4 == 0 && A_LOADS >= 1 && B_LOADS >= 1 && (BM * BK / 4) % RB_THREADS == 0,
              "each thread loads whole float4s of each slice");
/* async-copy: 256 threads, each an 8×8 block of a 64×256 block tile, BK-deep slices copied by cp.async. */
#define AC_BM 64
#define AC_BN 256
#define AC_THREADS 256
#define AC_A_COPIES (AC_BM * BK / AC_THREADS)     /* 4-byte copies of A per thread per slice */
#define AC_B_COPIES (BK * AC_BN / 4 / AC_THREADS) /* 16-byte copies of B per thread per slice */
static_assert(AC_THREADS == 256 && AC_BM == 64 && AC_BN == 256 && BK == 16 && AC_A_COPIES == 4 && AC_B_COPIES == 4,
              "the warp and copy layouts of async-copy assume these");

#define WB_STR_(x) #x
#define WB_STR(x) WB_STR_(x)

/* What every variant works on: the sizes and the buffers (set up by the harness at the end). */
struct State {
    int M, N, K;
    float *h_A, *h_B;           /* host inputs */
    float *d_A, *d_B, *d_C;
    double *d_fresh;            /* --grading: B·x and |B|·1 of a timed repetition's check (2K doubles) */
    wb_gemm_ref ref; /* exact rows from the CPU, and cuBLAS's C for the others when they are too many */
};

/* ------------------------------------------------------------------ CPU reference */
/* The relative tolerance for K-term dot products in fp32, see the header comment. */
static double matmul_rtol(int K) { return wb_gamma_n(K, 0x1p-24) + 2.0 * wb_gamma_n(K, 0x1p-53); }

/* ------------------------------------------------------------------ kernels and their launchers */
/* Thread (row, col) computes C[row][col] alone: every multiply-add loads one element of A and one of
 * B from global memory. x walks the columns, so a warp reads one A element (broadcast) and 32
 * consecutive B elements. */
__global__ void matmul_naive(const float *A, const float *B, float *C, int M, int N, int K)
{
    // BEGIN TODO(naive)
    //| /* One thread per element of C: row = blockIdx.y * blockDim.y + threadIdx.y, col likewise along x; where both
    //|  * lie inside C, C[row][col] = the sum over k of A[row][k] * B[k][col] (row-major: A[row * K + k]). */
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float sum = 0.0f;
        for (int k = 0; k < K; k++) sum += A[row * K + k] * B[k * N + col];
        C[row * N + col] = sum;
    }
    // END TODO(naive)
}

static void launch_naive(State *s)
{
    // BEGIN TODO(naive-launch)
    //| /* A BLOCK_WIDTH x BLOCK_WIDTH block of threads per tile of C (x: columns, y: rows), enough blocks to cover
    //|  * C whatever its size (wb_ceil_div), then LAUNCH_CHECK(). */
    dim3 block(BLOCK_WIDTH, BLOCK_WIDTH);
    dim3 grid(wb_ceil_div(s->N, BLOCK_WIDTH), wb_ceil_div(s->M, BLOCK_WIDTH)); /* x: columns of C, y: rows */
    matmul_naive<<<grid, block>>>(s->d_A, s->d_B, s->d_C, s->M, s->N, s->K);
    LAUNCH_CHECK();
    // END TODO(naive-launch)
}

/* The block computes a TILE_WIDTH×TILE_WIDTH tile of C. Phase p stages A's tile (row block, column
 * block p) and B's tile (row block p, column block) in shared memory, one element per thread, and each
 * thread then takes TILE_WIDTH multiply-adds from shared memory: global loads drop by TILE_WIDTH.
 * Elements outside A or B are stored as 0, so the last phase and the edge blocks add nothing false;
 * threads outside C still load and wait at the barriers, they only skip the final store. */
__global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int N, int K)
{
    // BEGIN TODO(tiled)
    //| /* Phase by phase along k: load a TILE_WIDTH x TILE_WIDTH tile of A and one of B into __shared__ arrays (0 where
    //|  * the index lies outside the matrix), __syncthreads(), add the tile's TILE_WIDTH products, __syncthreads(). */
    __shared__ float As[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Bs[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE_WIDTH + ty;
    int col = blockIdx.x * TILE_WIDTH + tx;
    float sum = 0.0f;
    for (int phase = 0; phase < (K + TILE_WIDTH - 1) / TILE_WIDTH; phase++) {
        int a_col = phase * TILE_WIDTH + tx, b_row = phase * TILE_WIDTH + ty;
        As[ty][tx] = row < M && a_col < K ? A[row * K + a_col] : 0.0f;
        Bs[ty][tx] = b_row < K && col < N ? B[b_row * N + col] : 0.0f;
        /* Every thread reads a row of As and a column of Bs that other threads wrote. */
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; k++) sum += As[ty][k] * Bs[k][tx];
        /* …and nobody overwrites them with the next phase's tiles until everyone has read them. */
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = sum;
    // END TODO(tiled)
}

static void launch_tiled(State *s)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid(wb_ceil_div(s->N, TILE_WIDTH), wb_ceil_div(s->M, TILE_WIDTH));
    matmul_tiled<<<grid, block>>>(s->d_A, s->d_B, s->d_C, s->M, s->N, s->K);
    LAUNCH_CHECK();
}

/* Block tile: C[row0..row0+64)[col0..col0+64). The tiled kernel's two shared loads per multiply-add
 * were its limit; here thread (ty, tx) computes the 8 elements of column tx in rows ty*8..ty*8+7, so
 * at each k it reads B's value once, keeps it in a register and uses it for 8 multiply-adds (A's 8
 * values are one address for the whole warp: a broadcast). The block tile is 64 wide, so global loads
 * per multiply-add fall to 1/32. Zero-padding makes the edges and the last slice harmless, as in tiled. */
__global__ void __launch_bounds__(R1_THREADS) matmul_reg1d(const float *A, const float *B, float *C, int M, int N, int K)
{
    // BEGIN TODO(reg-1d)
    //| /* Slice by slice along k: each thread loads one element of A's BM1 x BK1 part and one of B's BK1 x BN1
    //|  * part into __shared__ arrays (0 outside the matrices), __syncthreads(); then at each k it reads one B
    //|  * value into a register and adds its product with TM1 values of A into TM1 accumulators;
    //|  * __syncthreads(). Finally each thread stores its TM1 elements of C that lie inside it. */
    __shared__ float As[BM1][BK1];
    __shared__ float Bs[BK1][BN1];
    int tid = threadIdx.x, tx = tid % BN1, ty = tid / BN1; /* column tx, rows ty*TM1 .. ty*TM1+TM1-1 */
    int row0 = blockIdx.y * BM1, col0 = blockIdx.x * BN1;
    int a_m = tid / BK1, a_k = tid % BK1, b_k = tid / BN1, b_n = tid % BN1;
    float acc[TM1] = {};
    for (int k0 = 0; k0 < K; k0 += BK1) {
        int ar = row0 + a_m, ac = k0 + a_k, br = k0 + b_k, bc = col0 + b_n;
        As[a_m][a_k] = ar < M && ac < K ? A[ar * K + ac] : 0.0f;
        Bs[b_k][b_n] = br < K && bc < N ? B[br * N + bc] : 0.0f;
        /* Every thread reads a column of Bs and rows of As that other threads wrote. */
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK1; k++) {
            float b = Bs[k][tx]; /* one shared load, kept in a register for TM1 multiply-adds */
#pragma unroll
            for (int i = 0; i < TM1; i++) acc[i] += As[ty * TM1 + i][k] * b;
        }
        /* …and nobody overwrites them with the next slice until everyone has read them. */
        __syncthreads();
    }
    int col = col0 + tx;
#pragma unroll
    for (int i = 0; i < TM1; i++) {
        int row = row0 + ty * TM1 + i;
        if (row < M && col < N) C[row * N + col] = acc[i];
    }
    // END TODO(reg-1d)
}

static void launch_reg1d(State *s)
{
    dim3 grid(wb_ceil_div(s->N, BN1), wb_ceil_div(s->M, BM1));
    matmul_reg1d<<<grid, R1_THREADS>>>(s->d_A, s->d_B, s->d_C, s->M, s->N, s->K);
    LAUNCH_CHECK();
}

// BEGIN TODO(edge-access)
//| /* File-level __device__ helpers for your register-blocked kernels (reg-2d, reg-block, vector, …): read
//|  * 4 consecutive elements of a row with zeros outside the matrix, store 4 leaving out what lies outside, and
//|  * 16-byte versions where the row length and address allow. They make ragged sizes safe in one place. */
/* X[r][c..c+3] of a rows×cols row-major matrix, zeros where that lies outside it (c is a multiple of
 * 4 in every caller). The address is formed only inside the matrix, so r·cols never overflows. */
__device__ __forceinline__ float4 load4_guarded(const float *X, int rows, int cols, int r, int c)
{
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (r < rows) {
        const float *p = X + r * cols;
        if (c < cols) v.x = p[c];
        if (c + 1 < cols) v.y = p[c + 1];
        if (c + 2 < cols) v.z = p[c + 2];
        if (c + 3 < cols) v.w = p[c + 3];
    }
    return v;
}

/* One 16-byte load when all four are inside and aligned: cudaMalloc'd X is, and with cols a multiple
 * of 4 so is every X[r][c] with c a multiple of 4. Otherwise (the ragged edge, odd row lengths) the
 * scalar path. */
__device__ __forceinline__ float4 load4_vector(const float *X, int rows, int cols, int r, int c)
{
    if (cols % 4 == 0 && r < rows && c + 3 < cols) return *(const float4 *)(X + r * cols + c);
    return load4_guarded(X, rows, cols, r, c);
}

/* Stores v to X[r][c..c+3], leaving out what lies outside the matrix. */
__device__ __forceinline__ void store4_guarded(float *X, int rows, int cols, int r, int c, float4 v)
{
    if (r >= rows) return;
    float *p = X + r * cols;
    if (c < cols) p[c] = v.x;
    if (c + 1 < cols) p[c + 1] = v.y;
    if (c + 2 < cols) p[c + 2] = v.z;
    if (c + 3 < cols) p[c + 3] = v.w;
}

__device__ __forceinline__ void store4_vector(float *X, int rows, int cols, int r, int c, float4 v)
{
    if (cols % 4 == 0 && r < rows && c + 3 < cols) {
        *(float4 *)(X + r * cols + c) = v;
        return;
    }
    store4_guarded(X, rows, cols, r, c, v);
}
// END TODO(edge-access)

/* Block tile: C[row0..row0+128)[col0..col0+128). Each slice of K, BK deep, is staged in shared memory
 * as it lies in the matrices: A's 128×BK part (As[m][k]) and B's BK×128 part (Bs[k][n]). Thread
 * (ty, tx), both 0..15, computes the 8×8 block of C at rows ty*8..+7 and columns tx*8..+7: at each k it
 * reads 8 values of A and 8 of B and does the 64 multiply-adds of their outer product into acc, so
 * every shared load feeds 8 multiply-adds (reg-1d: one in 8 did), and global loads per multiply-add
 * fall to (128+128)/(128·128) = 1/64. Each thread loads runs of 4 elements with the guarded helpers
 * of your edge-access region: zero-padding makes the edges and the last slice harmless, as in tiled. */
__global__ void __launch_bounds__(RB_THREADS, 2)
    matmul_reg2d(const float *A, const float *B, float *C, int M, int N, int K)
{
    // BEGIN TODO(reg-2d)
    //| /* A BM x BN tile of C per block, each thread the 8x8 sub-block at rows ty*8.., columns tx*8..; per BK-deep
    //|  * slice of k, load A's and B's parts as they lie (your guarded helpers), __syncthreads(), at each k read 8
    //|  * values of A and 8 of B into registers and add their 64 products, __syncthreads(); store through the helpers. */
    __shared__ float As[BM][BK];
    __shared__ float Bs[BK][BN];
    int tid = threadIdx.x;
    int tx = tid % 16, ty = tid / 16;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[TM][TN] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
        for (int l = 0; l < A_LOADS; l++) {
            int e = tid + l * RB_THREADS, m = e / (BK / 4), kq = e % (BK / 4) * 4;
            float4 a = load4_guarded(A, M, K, row0 + m, k0 + kq);
            As[m][kq + 0] = a.x;
            As[m][kq + 1] = a.y;
            As[m][kq + 2] = a.z;
            As[m][kq + 3] = a.w;
        }
#pragma unroll
        for (int l = 0; l < B_LOADS; l++) {
            int e = tid + l * RB_THREADS, k = e / (BN / 4), nq = e % (BN / 4) * 4;
            float4 b = load4_guarded(B, K, N, k0 + k, col0 + nq);
            Bs[k][nq + 0] = b.x;
            Bs[k][nq + 1] = b.y;
            Bs[k][nq + 2] = b.z;
            Bs[k][nq + 3] = b.w;
        }
        __syncthreads();
        /* 8 of the 16 k at a time, not all: fully unrolled, ptxas scheduled the shared loads of later
         * k so early that it ran out of the 128 registers 2 blocks per SM allow and spilled 28 bytes
         * (make resources CH=4 SOLUTION=1, sm_90); two trips cost one compare and branch. */
#pragma unroll 8
        for (int k = 0; k < BK; k++) {
            float a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < 4; i++) {
                a[i] = As[ty * 8 + i][k];
                a[4 + i] = As[ty * 8 + 4 + i][k];
                b[i] = Bs[k][tx * 8 + i];
                b[4 + i] = Bs[k][tx * 8 + 4 + i];
            }
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; i++) {
        int row = row0 + ty * 8 + i;
        store4_guarded(C, M, N, row, col0 + tx * 8, make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]));
        store4_guarded(C, M, N, row, col0 + tx * 8 + 4,
                       make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]));
    }
    // END TODO(reg-2d)
}

static void launch_reg2d(State *s)
{
    dim3 grid(wb_ceil_div(s->N, BN), wb_ceil_div(s->M, BM));
    matmul_reg2d<<<grid, RB_THREADS>>>(s->d_A, s->d_B, s->d_C, s->M, s->N, s->K);
    LAUNCH_CHECK();
}

/* reg-2d with shared memory laid out so that a warp's reads do not collide in the banks. In reg-2d a
 * warp reads Bs[k][tx*8 + j] for 16 values of tx, addresses 8 floats apart: threads tx and tx+4 hit
 * one bank at different addresses; and As[ty*8 + i][k] for 2 values of ty, 128 floats apart: one bank
 * again. Each conflict makes the read take one more pass. Here A's slice is stored transposed
 * (As[k][m], so that a thread's 8 rows at one k lie side by side), and thread (ty, tx), both 0..15, owns
 * rows ty*4..+3 and 64+ty*4..+3 and columns tx*4..+3 and 64+tx*4..+3 of the block tile: the two halves
 * 64 apart, and the warp covering 4 row groups × 8 column groups, keep its shared reads to a few
 * distinct, consecutive addresses: with warp = threadIdx.x / 32 and lane = threadIdx.x % 32,
 * tx = (warp % 2) * 8 + lane % 8 and ty = (warp / 2) * 4 + lane / 8 (the 8 warps tile the 16×16
 * threads as 4 × 2). 4 floats of padding per row of As spread the transposing stores. */
__global__ void __launch_bounds__(RB_THREADS, 2)
    matmul_regblock(const float *A, const float *B, float *C, int M, int N, int K)
{
    // BEGIN TODO(reg-block)
    //| /* Your reg-2d with the layout of the comment above: A's slice stored transposed into As[BK][BM + A_PAD], tx and
    //|  * ty from the warp and lane, each thread's rows and columns read (and C stored) in two halves 64 apart. */
    __shared__ float As[BK][BM + A_PAD];
    __shared__ float Bs[BK][BN];
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    int tx = (warp % 2) * 8 + lane % 8, ty = (warp / 2) * 4 + lane / 8;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[TM][TN] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
        for (int l = 0; l < A_LOADS; l++) {
            int e = tid + l * RB_THREADS, m = e / (BK / 4), kq = e % (BK / 4) * 4;
            float4 a = load4_guarded(A, M, K, row0 + m, k0 + kq);
            As[kq + 0][m] = a.x;
            As[kq + 1][m] = a.y;
            As[kq + 2][m] = a.z;
            As[kq + 3][m] = a.w;
        }
#pragma unroll
        for (int l = 0; l < B_LOADS; l++) {
            int e = tid + l * RB_THREADS, k = e / (BN / 4), nq = e % (BN / 4) * 4;
            float4 b = load4_guarded(B, K, N, k0 + k, col0 + nq);
            Bs[k][nq + 0] = b.x;
            Bs[k][nq + 1] = b.y;
            Bs[k][nq + 2] = b.z;
            Bs[k][nq + 3] = b.w;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; k++) {
            float a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < 4; i++) {
                a[i] = As[k][ty * 4 + i];
                a[4 + i] = As[k][BM / 2 + ty * 4 + i];
                b[i] = Bs[k][tx * 4 + i];
                b[4 + i] = Bs[k][BN / 2 + tx * 4 + i];
            }
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; i++) {
        int row = row0 + i / 4 * (BM / 2) + ty * 4 + i % 4;
        store4_guarded(C, M, N, row, col0 + tx * 4, make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]));
        store4_guarded(C, M, N, row, col0 + BN / 2 + tx * 4,
                       make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]));
    }
    // END TODO(reg-block)
}

static void launch_regblock(State *s)
{
    dim3 grid(wb_ceil_div(s->N, BN), wb_ceil_div(s->M, BM));
    matmul_regblock<<<grid, RB_THREADS>>>(s->d_A, s->d_B, s->d_C, s->M, s->N, s->K);
    LAUNCH_CHECK();
}

/* reg-block with 16-byte accesses: float4 loads from global memory where the row length allows
 * (a 16-byte load helper of your edge-access region; the reference calls it load4_vector), B's slice stored and both slices read back as float4, and float4 stores of C:
 * a quarter of the load/store instructions. */
__global__ void __launch_bounds__(RB_THREADS, 2)
    matmul_vector(const float *A, const float *B, float *C, int M, int N, int K)
{
    // BEGIN TODO(vector)
    //| /* reg-block with 16-byte accesses: float4 loads from global memory (your edge-access helpers), float4
    //|  * shared-memory reads, float4 stores of C; scalar only at the ragged edges. */
    __shared__ __align__(16) float As[BK][BM + A_PAD];
    __shared__ __align__(16) float Bs[BK][BN];
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    int tx = (warp % 2) * 8 + lane % 8, ty = (warp / 2) * 4 + lane / 8;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[TM][TN] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
        for (int l = 0; l < A_LOADS; l++) {
            int e = tid + l * RB_THREADS, m = e / (BK / 4), kq = e % (BK / 4) * 4;
            float4 a = load4_vector(A, M, K, row0 + m, k0 + kq);
            As[kq + 0][m] = a.x;
            As[kq + 1][m] = a.y;
            As[kq + 2][m] = a.z;
            As[kq + 3][m] = a.w;
        }
#pragma unroll
        for (int l = 0; l < B_LOADS; l++) {
            int e = tid + l * RB_THREADS, k = e / (BN / 4), nq = e % (BN / 4) * 4;
            float4 b = load4_vector(B, K, N, k0 + k, col0 + nq);
            *(float4 *)&Bs[k][nq] = b;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; k++) {
            float4 a_lo = *(const float4 *)&As[k][ty * 4], a_hi = *(const float4 *)&As[k][BM / 2 + ty * 4];
            float4 b_lo = *(const float4 *)&Bs[k][tx * 4], b_hi = *(const float4 *)&Bs[k][BN / 2 + tx * 4];
            float a[TM] = {a_lo.x, a_lo.y, a_lo.z, a_lo.w, a_hi.x, a_hi.y, a_hi.z, a_hi.w};
            float b[TN] = {b_lo.x, b_lo.y, b_lo.z, b_lo.w, b_hi.x, b_hi.y, b_hi.z, b_hi.w};
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; i++) {
        int row = row0 + i / 4 * (BM / 2) + ty * 4 + i % 4;
        store4_vector(C, M, N, row, col0 + tx * 4, make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]));
        store4_vector(C, M, N, row, col0 + BN / 2 + tx * 4,
                      make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]));
    }
    // END TODO(vector)
}

static void launch_vector(State *s)
{
    dim3 grid(wb_ceil_div(s->N, BN), wb_ceil_div(s->M, BM));
    matmul_vector<<<grid, RB_THREADS>>>(s->d_A, s->d_B, s->d_C, s->M, s->N, s->K);
    LAUNCH_CHECK();
}

/* vector with two shared buffers per operand. While slice k0 is multiplied out of buffer `cur`, the
 * loads of slice k0+BK are already on their way into registers (a_next, b_next); they go to the other
 * buffer afterwards. One barrier per slice suffices: the buffer written in this round was last read
 * in the previous one, and everyone has passed that round's barrier. */
__global__ void __launch_bounds__(RB_THREADS, 2)
    matmul_double_buffer(const float *A, const float *B, float *C, int M, int N, int K)
{
    // BEGIN TODO(double-buffer)
    //| /* vector with two shared buffers: load slice s+1 into registers while computing slice s, then store it to the
    //|  * other buffer; one __syncthreads() per slice. */
    __shared__ __align__(16) float As[2][BK][BM + A_PAD];
    __shared__ __align__(16) float Bs[2][BK][BN];
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    int tx = (warp % 2) * 8 + lane % 8, ty = (warp / 2) * 4 + lane / 8;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[TM][TN] = {};
    float4 a_next[A_LOADS], b_next[B_LOADS];
    /* Fetches slice k0 into a_next/b_next; stage() puts them into buffer buf. */
    auto fetch = [&](int k0) {
#pragma unroll
        for (int l = 0; l < A_LOADS; l++) {
            int e = tid + l * RB_THREADS, m = e / (BK / 4), kq = e % (BK / 4) * 4;
            a_next[l] = load4_vector(A, M, K, row0 + m, k0 + kq);
        }
#pragma unroll
        for (int l = 0; l < B_LOADS; l++) {
            int e = tid + l * RB_THREADS, k = e / (BN / 4), nq = e % (BN / 4) * 4;
            b_next[l] = load4_vector(B, K, N, k0 + k, col0 + nq);
        }
    };
    auto stage = [&](int buf) {
#pragma unroll
        for (int l = 0; l < A_LOADS; l++) {
            int e = tid + l * RB_THREADS, m = e / (BK / 4), kq = e % (BK / 4) * 4;
            As[buf][kq + 0][m] = a_next[l].x;
            As[buf][kq + 1][m] = a_next[l].y;
            As[buf][kq + 2][m] = a_next[l].z;
            As[buf][kq + 3][m] = a_next[l].w;
        }
#pragma unroll
        for (int l = 0; l < B_LOADS; l++) {
            int e = tid + l * RB_THREADS, k = e / (BN / 4), nq = e % (BN / 4) * 4;
            *(float4 *)&Bs[buf][k][nq] = b_next[l];
        }
    };
    fetch(0);
    stage(0);
    __syncthreads();
    for (int k0 = 0; k0 < K; k0 += BK) {
        int cur = k0 / BK % 2;
        bool more = k0 + BK < K;
        if (more) fetch(k0 + BK);
        /* Fully unrolled, on purpose, although it spills 40 bytes at the 128-register cap (make
         * resources CH=4 SOLUTION=1, sm_90): unrolled by 2 it spills nothing but ran 5-6 % slower on
         * the H100 (2048^3: 0.446 vs 0.422 ms; 4096^3: 3.48 vs 3.31 ms), and by 4 or 8 it spilled
         * more. The spilled values are the next slice's, stored once per slice, not per k. */
#pragma unroll
        for (int k = 0; k < BK; k++) {
            float4 a_lo = *(const float4 *)&As[cur][k][ty * 4], a_hi = *(const float4 *)&As[cur][k][BM / 2 + ty * 4];
            float4 b_lo = *(const float4 *)&Bs[cur][k][tx * 4], b_hi = *(const float4 *)&Bs[cur][k][BN / 2 + tx * 4];
            float a[TM] = {a_lo.x, a_lo.y, a_lo.z, a_lo.w, a_hi.x, a_hi.y, a_hi.z, a_hi.w};
            float b[TN] = {b_lo.x, b_lo.y, b_lo.z, b_lo.w, b_hi.x, b_hi.y, b_hi.z, b_hi.w};
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++) acc[i][j] += a[i] * b[j];
        }
        if (more) stage(cur ^ 1);
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; i++) {
        int row = row0 + i / 4 * (BM / 2) + ty * 4 + i % 4;
        store4_vector(C, M, N, row, col0 + tx * 4, make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]));
        store4_vector(C, M, N, row, col0 + BN / 2 + tx * 4,
                      make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]));
    }
    // END TODO(double-buffer)
}

static void launch_double_buffer(State *s)
{
    dim3 grid(wb_ceil_div(s->N, BN), wb_ceil_div(s->M, BM));
    matmul_double_buffer<<<grid, RB_THREADS>>>(s->d_A, s->d_B, s->d_C, s->M, s->N, s->K);
    LAUNCH_CHECK();
}

/* async-copy moves the slices with cp.async: a copy from global to shared memory that the hardware
 * carries out on its own (sm_80 and later), without passing through the thread's registers. The
 * registers double-buffer held for the next slice are free, and the block tile becomes 64×256 (the
 * shape an autotuning sweep picked on the H100, handouts/ch4.md). Where the GPU has no cp.async, the
 * same calls are plain loads and stores: slower, still right. src_bytes < the copy's size fills the
 * rest of it with zeros (0: nothing is read, and src need only be a valid address). */
__device__ __forceinline__ void cp_async4(float *dst, const float *src, int src_bytes)
{
#if __CUDA_ARCH__ >= 800
    unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src), "r"(src_bytes) : "memory");
#else
    *dst = src_bytes ? *src : 0.0f;
#endif
}
__device__ __forceinline__ void cp_async16(float *dst, const float *src)
{
#if __CUDA_ARCH__ >= 800
    unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(src) : "memory");
#else
    *(float4 *)dst = *(const float4 *)src;
#endif
}
/* Closes the group of this thread's copies issued since the last commit. */
__device__ __forceinline__ void cp_async_commit()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
/* Waits until every group this thread committed has landed in shared memory (its own copies only:
 * the others' need a __syncthreads() after it). */
__device__ __forceinline__ void cp_async_wait_all()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group 0;\n" ::: "memory");
#endif
}

/* X[r][c..c+3] into dst[0..3] by cp.async: one 16-byte copy where all four lie inside and the row
 * length keeps them aligned, else four 4-byte copies, zero-filled outside the matrix. */
__device__ __forceinline__ void copy4_async(float *dst, const float *X, int rows, int cols, int r, int c)
{
    if (cols % 4 == 0 && r < rows && c + 3 < cols) {
        cp_async16(dst, X + r * cols + c);
        return;
    }
    for (int j = 0; j < 4; j++) {
        bool in = r < rows && c + j < cols;
        cp_async4(dst + j, in ? X + r * cols + c + j : X, in ? 4 : 0);
    }
}

/* Block tile: C[row0..row0+64)[col0..col0+256), slices BK deep in two buffers as in double-buffer.
 * Warp w owns the 32×64 warp tile at rows (w / 4)·32, columns (w % 4)·64; in it, lane l owns 8
 * consecutive rows from (l / 8)·8 and the columns (l % 8)·4..+3 and 32 further. At each k a warp then
 * reads 4 distinct 32-byte runs of As and 8 distinct 16-byte runs of Bs: one shared-memory wavefront
 * per float4 read. Copy i of a thread moves A[row0 + m][k0 + k] to As[k][m] with m = tid / 8 + 32·(i % 2),
 * k = tid % 8 + 8·(i / 2) (the transposing stores of a warp hit 32 different banks), and B's row
 * tid / 64 + 4·i, columns (tid % 64)·4..+3, 16 bytes at once. EDGE (a compile-time flag the launcher
 * sets) says whether the shape may leave partial tiles: without it, no copy or store needs a bounds test. */
template <bool EDGE>
__global__ void __launch_bounds__(AC_THREADS, 2)
    matmul_async_copy(const float *A, const float *B, float *C, int M, int N, int K)
{
    // BEGIN TODO(async-copy)
    //| /* double-buffer's pipeline with the copies done by cp.async: copy slice 0 (cp_async4 for A, transposed;
    //|  * copy4_async for B; then cp_async_commit()); for each slice: cp_async_wait_all(), __syncthreads(), start
    //|  * the copies of the next slice into the other buffer, multiply this one out; store your 8x8 of C. With
    //|  * EDGE false every tile is whole: plain cp_async4/cp_async16 copies and float4 stores, no bounds test. */
    __shared__ __align__(16) float As[2][BK][AC_BM + A_PAD];
    __shared__ __align__(16) float Bs[2][BK][AC_BN];
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    int ty = (warp / 4) * 32 + lane / 8 * 8, tx = (warp % 4) * 64 + lane % 8 * 4;
    int row0 = blockIdx.y * AC_BM, col0 = blockIdx.x * AC_BN;
    float acc[TM][TN] = {};
    /* A block wholly inside C whose row length keeps float4s aligned copies every full slice without
     * a single bounds test; the edge blocks and a ragged last slice take the guarded copies. */
    bool inside = row0 + AC_BM <= M && col0 + AC_BN <= N && N % 4 == 0;
    /* Issues the copies of slice k0 into buffer buf; they land while the thread goes on. */
    auto copy_slice = [&](int k0, int buf) {
        if (!EDGE || (inside && k0 + BK <= K)) {
#pragma unroll
            for (int i = 0; i < AC_A_COPIES; i++) {
                int m = tid / 8 + 32 * (i % 2), k = tid % 8 + 8 * (i / 2);
                cp_async4(&As[buf][k][m], A + (row0 + m) * K + k0 + k, 4);
            }
#pragma unroll
            for (int i = 0; i < AC_B_COPIES; i++) {
                int k = tid / 64 + 4 * i, nq = tid % 64 * 4;
                cp_async16(&Bs[buf][k][nq], B + (k0 + k) * N + col0 + nq);
            }
        } else {
#pragma unroll
            for (int i = 0; i < AC_A_COPIES; i++) {
                int m = tid / 8 + 32 * (i % 2), k = tid % 8 + 8 * (i / 2), r = row0 + m, c = k0 + k;
                bool in = r < M && c < K;
                cp_async4(&As[buf][k][m], in ? A + r * K + c : A, in ? 4 : 0);
            }
#pragma unroll
            for (int i = 0; i < AC_B_COPIES; i++) {
                int k = tid / 64 + 4 * i, nq = tid % 64 * 4;
                copy4_async(&Bs[buf][k][nq], B, K, N, k0 + k, col0 + nq);
            }
        }
        cp_async_commit();
    };
    int slices = (K + BK - 1) / BK, cur = 0;
    copy_slice(0, 0);
    for (int s = 0; s < slices; s++, cur ^= 1) {
        /* Slice s has landed, this thread's copies and (after the barrier) everyone's; everyone has
         * also finished slice s-1, whose buffer the next copies refill. */
        cp_async_wait_all();
        __syncthreads();
        if (s + 1 < slices) copy_slice((s + 1) * BK, cur ^ 1);
#pragma unroll
        for (int k = 0; k < BK; k++) {
            float4 a_lo = *(const float4 *)&As[cur][k][ty], a_hi = *(const float4 *)&As[cur][k][ty + 4];
            float4 b_lo = *(const float4 *)&Bs[cur][k][tx], b_hi = *(const float4 *)&Bs[cur][k][tx + 32];
            float a[TM] = {a_lo.x, a_lo.y, a_lo.z, a_lo.w, a_hi.x, a_hi.y, a_hi.z, a_hi.w};
            float b[TN] = {b_lo.x, b_lo.y, b_lo.z, b_lo.w, b_hi.x, b_hi.y, b_hi.z, b_hi.w};
            /* Column by column: the same 64 multiply-adds and the same sums, bit for bit, in another
             * order. On the H100 the compiler then assigned the registers differently and the kernel
             * ran 4 % faster; on vector the same swap was 8 % slower. Which order the compiler likes
             * is measured, not derived (handouts/ch4.md). */
#pragma unroll
            for (int j = 0; j < TN; j++)
#pragma unroll
                for (int i = 0; i < TM; i++) acc[i][j] += a[i] * b[j];
        }
    }
#pragma unroll
    for (int i = 0; i < TM; i++) {
        int row = row0 + ty + i;
        float4 lo = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
        float4 hi = make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]);
        if (EDGE) {
            store4_vector(C, M, N, row, col0 + tx, lo);
            store4_vector(C, M, N, row, col0 + tx + 32, hi);
        } else {
            *(float4 *)&C[row * N + col0 + tx] = lo;
            *(float4 *)&C[row * N + col0 + tx + 32] = hi;
        }
    }
    // END TODO(async-copy)
}

static void launch_async_copy(State *s)
{
    dim3 grid(wb_ceil_div(s->N, AC_BN), wb_ceil_div(s->M, AC_BM));
    /* Where the tiles divide the shape, the kernel without a single bounds test (EDGE false): the
     * guarded code, even untaken, costs the loop about 5 % on the H100. */
    if (s->M % AC_BM == 0 && s->N % AC_BN == 0 && s->K % BK == 0)
        matmul_async_copy<false><<<grid, AC_THREADS>>>(s->d_A, s->d_B, s->d_C, s->M, s->N, s->K);
    else
        matmul_async_copy<true><<<grid, AC_THREADS>>>(s->d_A, s->d_B, s->d_C, s->M, s->N, s->K);
    LAUNCH_CHECK();
}

/* ================================================================== the harness: you need not read below.
 * It runs the variants above, checks and times them; common/wb.h does the work. */
static const wb_variant variants[] = {
    {"naive", "one thread per element of C, dot product straight from global memory", "matmul_naive",
     launch_naive, NULL, "2", NULL, {{BLOCK_WIDTH * BLOCK_WIDTH}}},
    {"tiled", "TILE_WIDTH² tiles of A and B in __shared__, two barriers per phase, zero-padded edges",
     "matmul_tiled", launch_tiled, NULL, "2/" WB_STR(TILE_WIDTH) " T=" WB_STR(TILE_WIDTH),
     "much faster than naive: each input element is loaded TILE_WIDTH times less often (the 2008 slides: "
     "17.2x on a GT200)",
     {{TILE_WIDTH * TILE_WIDTH}}},
    {"reg-1d", "each thread computes 8 elements of a column of C in registers from 64x64 block tiles",
     "matmul_reg1d", launch_reg1d, NULL, "1/32", NULL, {{R1_THREADS}}},
    {"reg-2d", "each thread computes an 8x8 block of C in registers from 128x128 block tiles",
     "matmul_reg2d", launch_reg2d, NULL, "1/64", NULL, {{RB_THREADS}}},
    {"reg-block", "reg-2d with shared memory laid out for conflict-free reads: A transposed, split layout",
     "matmul_regblock", launch_regblock, NULL, "1/64", NULL, {{RB_THREADS}}},
    {"vector", "16-byte (float4) loads and stores to global and shared memory, scalar at ragged edges",
     "matmul_vector", launch_vector, NULL, "1/64", NULL, {{RB_THREADS}}},
    {"double-buffer", "two shared buffers: the next slice's loads overlap this slice's math, one barrier",
     "matmul_double_buffer", launch_double_buffer, NULL, "1/64", NULL, {{RB_THREADS}}},
    {"async-copy", "cp.async copies global to shared memory without registers; 64x256 block tiles",
     "matmul_async_copy", launch_async_copy, NULL, "1/51", NULL, {{AC_THREADS}}},
};

/* The speed of light, cuBLAS, also gives the reference of the rows the CPU cannot afford. The grader
 * builds student code with WB_NO_SOL_LIBS (no library may do a variant's work): the row is then this
 * GPU's FMA peak, and only the exact rows are checked. */
#ifndef WB_NO_SOL_LIBS
#include "wb_cublas.h"
static void launch_cublas(State *s) { wb_cublas_sgemm(s->d_A, s->d_B, s->d_C, s->M, s->N, s->K); }
#endif

static double device_bytes(const wb_size *size)
{
    double M = (double)size->d[0], N = (double)size->d[1], K = (double)size->d[2];
    return sizeof(float) * (M * K + K * N + M * N) + 64e6; /* + cuBLAS's workspace and context */
}

static double flops(const wb_size *size) { return 2.0 * (double)size->d[0] * (double)size->d[1] * (double)size->d[2]; }

static void check(State *s, const void *result, wb_check *chk) { wb_gemm_ref_check(&s->ref, (const float *)result, chk, 0); }

#define HOST(type, count) (type *)wb_host_alloc(sizeof(type) * (count), "the matrices and the reference")
static void setup(State *s, const wb_size *size, uint64_t seed, wb_output *out)
{
    memset(s, 0, sizeof *s);
    s->M = (int)size->d[0], s->N = (int)size->d[1], s->K = (int)size->d[2];
    size_t M = (size_t)s->M, N = (size_t)s->N, K = (size_t)s->K;
    s->h_A = HOST(float, M * K);
    s->h_B = HOST(float, K * N);
    wb_fill_f32(s->h_A, M * K, seed, 0, -1.0f, 1.0f);
    wb_fill_f32(s->h_B, K * N, seed, 1, -1.0f, 1.0f);
    s->d_fresh = (double *)wb_device_alloc(sizeof(double) * 2 * K);
    s->d_A = (float *)wb_device_copy(s->h_A, sizeof(float) * M * K);
    s->d_B = (float *)wb_device_copy(s->h_B, sizeof(float) * K * N);
    s->d_C = (float *)wb_device_alloc(sizeof(float) * M * N);
    *out = wb_output{s->d_C, WB_ELEM_F32, M * N};
    /* Every row on the CPU while it can afford it, else a sample of rows. */
    int all = M * N * K <= (1ull << 31) && M * N <= (1ull << 26);
    wb_gemm_ref_exact(&s->ref, s->h_A, s->h_B, s->M, s->N, s->K, matmul_rtol(s->K), all, wb_gemm_rows_cpu);
#ifndef WB_NO_SOL_LIBS
    /* cuBLAS's C, checked against the exact rows; the other rows' reference when not all are exact. */
    wb_cublas_begin();
    wb_poison(s->d_C, sizeof(float) * M * N);
    launch_cublas(s);
    float *h_blas = HOST(float, M * N);
    CUDA_CHECK(cudaMemcpy(h_blas, s->d_C, sizeof(float) * M * N, cudaMemcpyDeviceToHost));
    wb_gemm_ref_take_lib(&s->ref, "cuBLAS", h_blas, s->h_A, s->h_B);
#endif
}

/* --grading's timed repetitions (common/wb_timing.h): each on inputs of its own (A and B by the setup's
 * recipe, on the GPU), each output checked by Freivalds' projection: for x with random signs (x_j = ±1),
 * row i of C·x must match row i of A·(B·x). A and B are taken from the recipe, never from the buffers a
 * variant could have changed; the sums are in double. The tolerance is the check's own, summed along the
 * projection: each C_ij may be off by rtol·Σ_k|A_ik||B_kj| (matmul_rtol), so |(C·x)_i − (A·(B·x))_i| ≤
 * rtol·(|A|·(|B|·1))_i, plus 2·γ_{N+K}(2^-53) of the sums' own size for the double arithmetic. An output
 * left wrong in a whole row or tile (stale, poisoned, NaN: !(d ≤ tol) fails on NaN) moves C·x by far
 * more; what it misses is a single entry wrong by less than the row's summed bound, which the full check
 * of the checked run and the rotated run would still see if the variant were wrong that way there. */
__device__ __forceinline__ double fresh_sign(uint64_t seed, int j) { return (wb_random_at(seed, 7, (uint64_t)j) & 1) ? 1.0 : -1.0; }

/* One warp per row k of B: y[k] = Σ_j B_kj·x_j, y[K + k] = Σ_j |B_kj|. */
__global__ void fresh_bx(double *y, int N, int K, uint64_t seed)
{
    int k = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
    if (k >= K) return;
    double bx = 0, babs = 0;
    for (int j = lane; j < N; j += 32) {
        double b = wb_random_f32(seed, 1, (uint64_t)k * N + j, -1.0f, 1.0f);
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
        double a = wb_random_f32(seed, 0, (uint64_t)i * K + k, -1.0f, 1.0f);
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
    wb_fill_f32_gpu(s->d_A, (size_t)s->M * s->K, seed, 0, -1.0f, 1.0f);
    wb_fill_f32_gpu(s->d_B, (size_t)s->K * s->N, seed, 1, -1.0f, 1.0f);
}

static void fresh_verify(State *s, uint64_t seed, unsigned rep, unsigned long long *fault)
{
    fresh_bx<<<wb_ceil_div(s->K, 8), 256>>>(s->d_fresh, s->N, s->K, seed);
    LAUNCH_CHECK();
    fresh_row<<<wb_ceil_div(s->M, 8), 256>>>(s->d_C, s->d_fresh, s->M, s->N, s->K, seed, matmul_rtol(s->K),
                                             2.0 * wb_gamma_n(s->N + s->K, 0x1p-53), rep, fault);
    LAUNCH_CHECK();
}

static double ceiling(State *, int warmup, int reps, const char **name)
{
    *name = "fp32 FMA peak";
    return wb_fma_peak(warmup, reps);
}

static double speed_of_light(State *s, int warmup, int reps, const char **name)
{
#ifdef WB_NO_SOL_LIBS
    return ceiling(s, warmup, reps, name);
#else
    *name = "cuBLAS sgemm fp32";
    return 2.0 * s->M * (double)s->N * s->K / (wb_time_median_ms(launch_cublas, s, warmup, reps) * 1e-3) / 1e9;
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
        .cli = {.id = "4-matmul", .title = "matrix multiplication, C (MxN) = A (MxK) * B (KxN), fp32, row-major",
                WB_VARIANTS(variants), .dims = 3, .max_dim = 1 << 15,
                .size_help = "MxNxK: C is MxN, A MxK, B KxN; each 1 to 32768 (the kernels index with int: "
                             "M*K, K*N and M*N stay within 2^30)",
                .default_sizes = "4096x4096x4096 4096x1000x333"},
        .table = {.unit = "GFLOP/s", .extra_name = "loads/FMA"}, .device_bytes = device_bytes, .work = flops,
        .setup = setup, .speed_of_light = speed_of_light, .check = check, .ceiling = ceiling, .teardown = teardown,
        .fresh = {fresh_renew, fresh_verify},
    };
    State state = {};
    return wb_main(argc, argv, &chapter, &state);
}
