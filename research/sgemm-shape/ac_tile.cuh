/* ac_tile.cuh: chapter 4's async-copy kernel with its block tile as template parameters: ROWS (64 or
 * 128) rows of C by AC_BN = 256 columns, BK-deep slices in STAGES (2 or 3) cp.async buffers. Everything
 * else is the chapter's (chapter_async_copy.inc): the 32×64 warp tiles of 8×8 per lane, the
 * transposing 4-byte copies of A, the 16-byte copies of B, the guarded path under EDGE, the j-outer
 * order of the multiply-adds. THREADS (256 or 512) splits the block's warps over its rows: with
 * THREADS = 4·ROWS each thread computes the chapter's 8×8 (the 128-row tile then has 16 warps, as two
 * of the chapter's blocks on one SM have); with ROWS 128 and 256 threads each thread holds two 8×8
 * blocks, THREADS/4 rows apart (16×8, the sweep's 128×256 had 8×16: 8 warps per SM).
 * STAGES 2 is the chapter's pipeline line for line (the form research/sgemm-shape/chapter.patch puts
 * in the chapter); STAGES 3 waits for all but the newest group, so two slices are in flight.
 * Shared memory is dynamic: every tile but the chapter's needs more than the 48 KiB a static array may
 * have (128 rows, 2 buffers: 49 664 bytes). Needs first the chapter's macros, its cp.async helpers and
 * cp_async_wait_group<N> (bench.cu has the GPU's, sim.cpp the simulator's); no CUDA runtime calls here. */
#pragma once

template <int ROWS, int STAGES>
constexpr int ac_smem_bytes() { return (int)sizeof(float) * STAGES * BK * (ROWS + A_PAD + AC_BN); }

/* Blocks per SM that __launch_bounds__ asks for: 16 warps at 128 registers for 8×8 per thread, one
 * block at up to 255 registers for 16×8. */
constexpr int ac_min_blocks(int ROWS, int THREADS) { return ROWS * 4 == THREADS ? 512 / THREADS : 1; }

template <int ROWS, int THREADS, int STAGES, bool EDGE>
__global__ void __launch_bounds__(THREADS, ac_min_blocks(ROWS, THREADS))
    ac_tile(const float *A, const float *B, float *C, int M, int N, int K)
{
    static_assert((ROWS == 64 || ROWS == 128) && (STAGES == 2 || STAGES == 3), "the tiles measured");
    static_assert((THREADS == 256 || THREADS == 512) && THREADS <= 4 * ROWS, "whole 8x8 blocks per thread");
    constexpr int SPAN = THREADS / 4;                    /* rows the block's warps cover at once */
    constexpr int MI = ROWS / SPAN;                      /* 8x8 blocks per thread, SPAN rows apart */
    constexpr int A_COPIES = ROWS * BK / THREADS;        /* 4-byte copies of A per thread per slice */
    constexpr int A_RUNS = ROWS / (THREADS / 8);         /* A's copies i and i + A_RUNS: 8 k further */
    constexpr int B_COPIES = BK * AC_BN / 4 / THREADS;   /* 16-byte copies of B */
    extern __shared__ __align__(16) float smem[];
    auto As = reinterpret_cast<float (*)[BK][ROWS + A_PAD]>(smem);
    auto Bs = reinterpret_cast<float (*)[BK][AC_BN]>(smem + STAGES * BK * (ROWS + A_PAD));
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    int ty = (warp / 4) * 32 + lane / 8 * 8, tx = (warp % 4) * 64 + lane % 8 * 4;
    int row0 = blockIdx.y * ROWS, col0 = blockIdx.x * AC_BN;
    float acc[MI][TM][TN] = {};
    bool inside = row0 + ROWS <= M && col0 + AC_BN <= N && N % 4 == 0;
    /* The chapter's copy_slice with A's copies for ROWS rows; commits when STAGES is 2 (as the chapter
     * does), else the loop commits, so that every iteration closes one group, empty or not. */
    auto copy_slice = [&](int k0, int buf) {
        if (!EDGE || (inside && k0 + BK <= K)) {
#pragma unroll
            for (int i = 0; i < A_COPIES; i++) {
                int m = tid / 8 + THREADS / 8 * (i % A_RUNS), k = tid % 8 + 8 * (i / A_RUNS);
                cp_async4(&As[buf][k][m], A + (row0 + m) * K + k0 + k, 4);
            }
#pragma unroll
            for (int i = 0; i < B_COPIES; i++) {
                int k = tid / 64 + THREADS / 64 * i, nq = tid % 64 * 4;
                cp_async16(&Bs[buf][k][nq], B + (k0 + k) * N + col0 + nq);
            }
        } else {
#pragma unroll
            for (int i = 0; i < A_COPIES; i++) {
                int m = tid / 8 + THREADS / 8 * (i % A_RUNS), k = tid % 8 + 8 * (i / A_RUNS), r = row0 + m, c = k0 + k;
                bool in = r < M && c < K;
                cp_async4(&As[buf][k][m], in ? A + r * K + c : A, in ? 4 : 0);
            }
#pragma unroll
            for (int i = 0; i < B_COPIES; i++) {
                int k = tid / 64 + THREADS / 64 * i, nq = tid % 64 * 4;
                copy4_async(&Bs[buf][k][nq], B, K, N, k0 + k, col0 + nq);
            }
        }
        if (STAGES == 2) cp_async_commit();
    };
    auto multiply = [&](int cur) {
#pragma unroll
        for (int k = 0; k < BK; k++) {
            float a[MI][TM], b[TN];
#pragma unroll
            for (int mi = 0; mi < MI; mi++) {
                float4 lo = *(const float4 *)&As[cur][k][SPAN * mi + ty], hi = *(const float4 *)&As[cur][k][SPAN * mi + ty + 4];
                a[mi][0] = lo.x, a[mi][1] = lo.y, a[mi][2] = lo.z, a[mi][3] = lo.w;
                a[mi][4] = hi.x, a[mi][5] = hi.y, a[mi][6] = hi.z, a[mi][7] = hi.w;
            }
            float4 b_lo = *(const float4 *)&Bs[cur][k][tx], b_hi = *(const float4 *)&Bs[cur][k][tx + 32];
            b[0] = b_lo.x, b[1] = b_lo.y, b[2] = b_lo.z, b[3] = b_lo.w;
            b[4] = b_hi.x, b[5] = b_hi.y, b[6] = b_hi.z, b[7] = b_hi.w;
#pragma unroll
            for (int mi = 0; mi < MI; mi++)
#pragma unroll
                for (int j = 0; j < TN; j++)
#pragma unroll
                    for (int i = 0; i < TM; i++) acc[mi][i][j] += a[mi][i] * b[j];
        }
    };
    int slices = (K + BK - 1) / BK, cur = 0;
    if constexpr (STAGES == 2) {
        copy_slice(0, 0);
        for (int s = 0; s < slices; s++, cur ^= 1) {
            cp_async_wait_all();
            __syncthreads();
            if (s + 1 < slices) copy_slice((s + 1) * BK, cur ^ 1);
            multiply(cur);
        }
    } else {
        for (int p = 0; p < STAGES - 1; p++) {
            if (p < slices) copy_slice(p * BK, p);
            cp_async_commit();
        }
        int next = STAGES - 1; /* the buffer of slice s + STAGES - 1: the one slice s - 1 used */
        for (int s = 0; s < slices; s++) {
            /* Slice s landed (only the newer groups may still be in flight), everyone's after the
             * barrier, and everyone is done with slice s - 1, whose buffer the next copies refill. */
            cp_async_wait_group<STAGES - 2>();
            __syncthreads();
            if (s + STAGES - 1 < slices) copy_slice((s + STAGES - 1) * BK, next);
            cp_async_commit();
            multiply(cur);
            cur = cur + 1 == STAGES ? 0 : cur + 1;
            next = next + 1 == STAGES ? 0 : next + 1;
        }
    }
#pragma unroll
    for (int mi = 0; mi < MI; mi++)
#pragma unroll
        for (int i = 0; i < TM; i++) {
            int row = row0 + SPAN * mi + ty + i;
            float4 lo = make_float4(acc[mi][i][0], acc[mi][i][1], acc[mi][i][2], acc[mi][i][3]);
            float4 hi = make_float4(acc[mi][i][4], acc[mi][i][5], acc[mi][i][6], acc[mi][i][7]);
            if (EDGE) {
                store4_vector(C, M, N, row, col0 + tx, lo);
                store4_vector(C, M, N, row, col0 + tx + 32, hi);
            } else {
                *(float4 *)&C[row * N + col0 + tx] = lo;
                *(float4 *)&C[row * N + col0 + tx + 32] = hi;
            }
        }
}
