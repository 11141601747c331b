/*
 * sgemm_kernel.cuh: the templated SGEMM kernel of bench.cu (and of sim.cpp, which runs it on the CPU).
 * One templated kernel in the style of siboehm's SGEMM_CUDA kernel 10 ("warptiling"), written anew:
 *   block tile BM×BN, K walked in slices BK deep, NUM_THREADS threads;
 *   each warp owns a WM×WN warp tile, cut into WMITER×WNITER sub-tiles of WSUBM×WSUBN;
 *   in each sub-tile a lane owns TM×TN elements (lanes: LR rows × LC columns, LR·LC = 32),
 *   so a thread accumulates (WMITER·TM)×(WNITER·TN) elements of C in registers.
 * Loading (template MODE):
 *   REG: register-staged double buffer: float4 global loads of the next slice into registers at the
 *     start of a slice, stored into the other shared buffer after the slice's math (2 buffers, one
 *     barrier per slice);
 *   MIX: A register-staged, B by cp.async (2 buffers);
 *   CPA: cp.async for both, STAGES = 2..4 buffers: B with cp.async.cg 16-byte copies, A with 4-byte
 *     cp.async.ca copies that transpose it on the way (a 16-byte copy cannot transpose).
 * A is stored transposed in shared memory (As[k][m], rows padded by 4 floats), B as it is (Bs[k][n]),
 * so a lane reads its TM values of A and its TN values of B at one k with float4 loads.
 *
 * Ragged shapes: the kernel has two instantiations. EDGE=false, used when M%BM = N%BN = K%BK = 0, has no
 * guards at all. EDGE=true: the partial slice of K is taken first and zero-filled where it reaches
 * outside A and B, rows of A past M and columns of B past N are clamped (they only feed elements of C
 * that are not stored), stores outside C are dropped; 16-byte accesses where the row length is a
 * multiple of 4 (rows 16-byte aligned), 4-byte ones otherwise. Every element of C adds its K products,
 * one fused multiply-add each, in the order of the slices.
 * Index arithmetic is in int: M·K, K·N and M·N must stay below 2^31 (the bench's sizes do).
 *
 * With SGEMM_SIM defined (sim.cpp), the few CUDA-only pieces (shared memory, barrier, cp.async, the
 * alignment of 16-byte accesses) are the simulator's, so the same code runs on the CPU.
 */
#pragma once

/* ============================================================================ device helpers */
#ifndef SGEMM_SIM
#define SGEMM_SHARED(name) extern __shared__ __align__(16) float name[]
#define SGEMM_SYNC() __syncthreads()
#define SGEMM_CHECK_ALIGN16(p) ((void)0)
/* cp.async with a source size: src_bytes < the copy size zero-fills the rest (0 = all zeros, nothing
 * read; the source address is then a valid dummy). .cg (L2 only) needs 16 bytes, .ca allows 4. */
__device__ __forceinline__ void cp_async16(float *dst, const float *src, int src_bytes)
{
    unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(src_bytes) : "memory");
}
__device__ __forceinline__ void cp_async4(float *dst, const float *src, int src_bytes)
{
    unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src), "r"(src_bytes) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
/* Waits until at most N of this thread's committed groups are still in flight. */
template <int N> __device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory"); }
#endif

/* 16-byte loads and stores (global or shared); p must be 16-byte aligned. */
__device__ __forceinline__ float4 ld4(const float *p)
{
    SGEMM_CHECK_ALIGN16(p);
    return *(const float4 *)p;
}
__device__ __forceinline__ void st4(float *p, float4 v)
{
    SGEMM_CHECK_ALIGN16(p);
    *(float4 *)p = v;
}

/* ============================================================================ the kernel */
#define KPARAMS                                                                                              \
    int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, int NT, int MODE, int STAGES, int MINB
#define KARGS BM, BN, BK, WM, WN, WNITER, TM, TN, NT, MODE, STAGES, MINB
enum { REG = 0, MIX = 1, CPA = 2 };

template <KPARAMS> struct Geo {
    static constexpr bool A_ASYNC = MODE == CPA, B_ASYNC = MODE == MIX || MODE == CPA;
    static constexpr int NWARPS = NT / 32;
    static constexpr int WARPS_N = BN / WN, WARPS_M = BM / WM;
    static constexpr int WMITER = (WM * WN) / (32 * TM * TN * WNITER);
    static constexpr int WSUBM = WM / WMITER, WSUBN = WN / WNITER;
    static constexpr int LC = WSUBN / TN, LR = WSUBM / TM; /* lanes per sub-tile column / row */
    static constexpr int ASTR = BM + 4;                      /* As row length: +4 keeps float4 alignment */
    static constexpr int BSTR = BN;
    static constexpr int A_F4 = BM * BK / 4 / NT; /* float4s of A per thread per slice */
    static constexpr int B_F4 = BK * BN / 4 / NT; /* float4s of B per thread per slice */
    static constexpr int A_STAGE = BK * ASTR, B_STAGE = BK * BSTR; /* floats per buffer */
    static constexpr size_t SMEM = (size_t)STAGES * (A_STAGE + B_STAGE) * sizeof(float);

    static_assert(NT % 32 == 0 && WARPS_N * WARPS_M == NWARPS && BM % WM == 0 && BN % WN == 0, "warps tile the block");
    static_assert(WMITER >= 1 && WMITER * 32 * TM * TN * WNITER == WM * WN, "lanes tile the warp tile");
    static_assert(WM % WMITER == 0 && WN % WNITER == 0, "sub-tiles tile the warp tile");
    static_assert(LC * TN == WSUBN && LR * TM == WSUBM && LR * LC == 32, "32 lanes tile a sub-tile");
    static_assert(TM % 4 == 0 && TN % 4 == 0, "fragments are read as float4");
    static_assert(BK % 8 == 0 && BM % 32 == 0 && BN % 32 == 0, "the load mappings below");
    static_assert(A_F4 >= 1 && A_F4 * NT * 4 == BM * BK, "every thread loads whole float4s of A");
    static_assert(B_F4 >= 1 && B_F4 * NT * 4 == BK * BN, "every thread loads whole float4s of B");
    /* Conflict-free float4 fragment reads: a quarter-warp (8 lanes, one shared-memory wavefront for
     * 16-byte accesses) must touch distinct bank groups or the same address. */
    static_assert(TM * (LC >= 8 ? 1 : 8 / LC) <= 32, "A fragment reads would conflict");
    static_assert(TN * (LC >= 8 ? 8 : LC) <= 32, "B fragment reads would conflict");
    static_assert(STAGES >= 2 && STAGES <= 4, "2..4 shared buffers");
    static_assert(MODE >= REG && MODE <= CPA && (STAGES == 2 || MODE == CPA), "more than 2 buffers only with CPA");
};

/* A compile-time flag passed to generic lambdas (GK: guard k < 0). */
template <bool V> struct Flag {
    static constexpr bool value = V;
};

/* Unit e = tid + l·NT (tid < NT) written as e = (hi·D + mid)·W + lo with lo < W, mid < D, computed so
 * that the part depending on l is a compile-time constant: with t = tid / W (< S = NT / W), e / W =
 * t + l·S. If D divides S: mid = t % D, hi = t / D + l·S/D. If S divides D (R = D/S): mid = t + (l%R)·S,
 * hi = l / R. Both equal ((e/W) % D, (e/W) / D). */
template <int NT, int W, int D> struct Map {
    static constexpr int S = NT / W;
    static_assert(NT % W == 0 && (S % D == 0 || D % S == 0), "Map: threads must tile the rows evenly");
    __device__ __forceinline__ static void at(int tid, int l, int &hi, int &mid, int &lo)
    {
        lo = tid % W;
        const int t = tid / W;
        if constexpr (S % D == 0) {
            mid = t % D;
            hi = t / D + l * (S / D);
        } else {
            constexpr int R = D / S;
            mid = t + (l % R) * S;
            hi = l / R;
        }
    }
};

template <KPARAMS, bool EDGE>
__global__ void __launch_bounds__(NT, MINB)
    sgemm_kernel(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K,
                 int group)
{
    using G = Geo<KARGS>;
    constexpr int ASTR = G::ASTR, BSTR = G::BSTR, A_F4 = G::A_F4, B_F4 = G::B_F4;
    constexpr int WMITER = G::WMITER, WSUBM = G::WSUBM, WSUBN = G::WSUBN, LC = G::LC;
    constexpr bool A_ASYNC = G::A_ASYNC, B_ASYNC = G::B_ASYNC;

    SGEMM_SHARED(smem);
    float *As = smem;                      /* STAGES × [BK][ASTR], A transposed */
    float *Bs = smem + STAGES * G::A_STAGE; /* STAGES × [BK][BSTR] */

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int warpRow = warp / G::WARPS_N, warpCol = warp % G::WARPS_N;
    const int laneRow = lane / LC, laneCol = lane % LC;

    /* Block → tile. group ≤ 1: row-major raster (tile column fastest). group > 1: `group` tile rows
     * are walked column by column (L2 reuse of B); the last group may be shorter. Bijective. */
    const int tilesM = (M + BM - 1) / BM, tilesN = (N + BN - 1) / BN;
    const int pid = blockIdx.x;
    int tm, tn;
    if (group <= 1) {
        tm = pid / tilesN;
        tn = pid % tilesN;
    } else {
        const int per = group * tilesN, first = pid / per * group;
        const int gs = min(tilesM - first, group), r = pid % per;
        tm = first + r % gs;
        tn = r / gs;
    }
    const int row0 = tm * BM, col0 = tn * BN;

    /* Row lengths that are multiples of 4 make every float4 of a row 16-byte aligned. On the fast
     * path (EDGE=false) K%BK = N%BN = 0, so both hold. */
    const bool a_vec = !EDGE || (K & 3) == 0;
    const bool b_vec = !EDGE || (N & 3) == 0;

    /* Ragged edges without guards in the main loop:
     * - K: the partial slice comes FIRST. Slice t covers k0 = k_first + t·BK .. +BK-1 with
     *   k_first = K%BK − BK ≤ 0 when BK does not divide K, so only slice 0 reaches outside A and B
     *   (k < 0): its loads are guarded (template GK) and zero-filled, the others are all inside.
     *   With K%4 = 0, k_first is a multiple of 4, so a float4 never straddles k = 0.
     * - M and N: rows of A past M and columns of B past N are clamped to the last one. What they
     *   load is finite data that only reaches rows/columns of C past the edge, which are never stored.
     *   (Clamped float4 columns: N%4 = 0 there, so N−4 is aligned.) */
    const int k_first = EDGE && K % BK ? K % BK - BK : 0;
    const int KT = (K - k_first) / BK; /* slices, ≥ 1 */
    auto arow = [&](int m) { return EDGE ? min(row0 + m, M - 1) : row0 + m; };
    auto bcol4 = [&](int nq) { return EDGE ? min(col0 + nq, N - 4) : col0 + nq; };
    auto bcol1 = [&](int n) { return EDGE ? min(col0 + n, N - 1) : col0 + n; };

    float acc[WMITER * TM][WNITER * TN];
#pragma unroll
    for (int i = 0; i < WMITER * TM; i++)
#pragma unroll
        for (int j = 0; j < WNITER * TN; j++) acc[i][j] = 0.0f;

    /* Registers of the register-staged operands: the next slice, between its load and its store. */
    float a_reg[A_ASYNC ? 1 : 4 * A_F4];
    float b_reg[B_ASYNC ? 1 : 4 * B_F4];

    /* ---- Load mappings. Unit e = tid + l·NT of a slice (l = 0, 1, … per thread) is split as
     * e = (hi·D + mid)·W + lo (Map above), so that what changes with l is a compile-time offset:
     * A, float4 along k (l < A_F4): W=2, D=BM: m = mid, kq = 4(2hi + lo).
     *   A warp reads 16 rows × 32 bytes; its transposing stores As[kq+j][m] hit 16·lo + m + 4j mod 32
     *   (ASTR ≡ 4 mod 32): 32 distinct banks.
     * A, scalar (l < 4·A_F4): W=8, D=BM: m = mid, k = 8hi + lo.
     *   A warp reads 4 rows × 32 bytes; stores hit 4·lo + m mod 32: distinct.
     * B, float4 along n: W = min(32, BN/4), D = BN/4/W: k = hi, nq = 4(mid·W + lo).
     * B, scalar: W = 32, D = BN/32: k = hi, n = mid·32 + lo.
     * Each covers the slice exactly once (e < BM·BK/4, BM·BK, BK·BN/4, BK·BN resp.). */
    constexpr int WBV = (BN / 4) % 32 == 0 ? 32 : BN / 4;
    using MapAV = Map<NT, 2, BM>;
    using MapAS = Map<NT, 8, BM>;
    using MapBV = Map<NT, WBV, BN / 4 / WBV>;
    using MapBS = Map<NT, 32, BN / 32>;
    auto a_vec_map = [&](int l, int &m, int &kq) {
        int hi, lo;
        MapAV::at(tid, l, hi, m, lo);
        kq = (hi * 2 + lo) * 4;
    };
    auto a_sca_map = [&](int l, int &m, int &k) {
        int hi, lo;
        MapAS::at(tid, l, hi, m, lo);
        k = hi * 8 + lo;
    };
    auto b_vec_map = [&](int l, int &k, int &nq) {
        int mid, lo;
        MapBV::at(tid, l, k, mid, lo);
        nq = (mid * WBV + lo) * 4;
    };
    auto b_sca_map = [&](int l, int &k, int &n) {
        int mid, lo;
        MapBS::at(tid, l, k, mid, lo);
        n = mid * 32 + lo;
    };

    /* ---- register-staged A: fetch slice k0 into a_reg, then store it transposed into buffer buf.
     * GK: the slice may reach k < 0 (slice 0 of a ragged K): zeros there. */
    auto fetchA = [&](int k0, auto GK) {
        if (a_vec) {
#pragma unroll
            for (int l = 0; l < A_F4; l++) {
                int m, kq;
                a_vec_map(l, m, kq);
                const int gk = k0 + kq;
                float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
                if (!decltype(GK)::value || gk >= 0) v = ld4(A + arow(m) * K + gk);
                a_reg[4 * l + 0] = v.x;
                a_reg[4 * l + 1] = v.y;
                a_reg[4 * l + 2] = v.z;
                a_reg[4 * l + 3] = v.w;
            }
        } else {
#pragma unroll
            for (int l = 0; l < 4 * A_F4; l++) {
                int m, k;
                a_sca_map(l, m, k);
                const int gk = k0 + k;
                a_reg[l] = (!decltype(GK)::value || gk >= 0) ? A[arow(m) * K + gk] : 0.0f;
            }
        }
    };
    auto stageA = [&](int buf) {
        float *As_ = As + buf * G::A_STAGE;
        if (a_vec) {
#pragma unroll
            for (int l = 0; l < A_F4; l++) {
                int m, kq;
                a_vec_map(l, m, kq);
#pragma unroll
                for (int j = 0; j < 4; j++) As_[(kq + j) * ASTR + m] = a_reg[4 * l + j];
            }
        } else {
#pragma unroll
            for (int l = 0; l < 4 * A_F4; l++) {
                int m, k;
                a_sca_map(l, m, k);
                As_[k * ASTR + m] = a_reg[l];
            }
        }
    };
    /* ---- register-staged B. */
    auto fetchB = [&](int k0, auto GK) {
        if (b_vec) {
#pragma unroll
            for (int l = 0; l < B_F4; l++) {
                int k, nq;
                b_vec_map(l, k, nq);
                const int gk = k0 + k;
                float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
                if (!decltype(GK)::value || gk >= 0) v = ld4(B + gk * N + bcol4(nq));
                b_reg[4 * l + 0] = v.x;
                b_reg[4 * l + 1] = v.y;
                b_reg[4 * l + 2] = v.z;
                b_reg[4 * l + 3] = v.w;
            }
        } else {
#pragma unroll
            for (int l = 0; l < 4 * B_F4; l++) {
                int k, n;
                b_sca_map(l, k, n);
                const int gk = k0 + k;
                b_reg[l] = (!decltype(GK)::value || gk >= 0) ? B[gk * N + bcol1(n)] : 0.0f;
            }
        }
    };
    auto stageB = [&](int buf) {
        float *Bs_ = Bs + buf * G::B_STAGE;
        if (b_vec) {
#pragma unroll
            for (int l = 0; l < B_F4; l++) {
                int k, nq;
                b_vec_map(l, k, nq);
                st4(Bs_ + k * BSTR + nq, make_float4(b_reg[4 * l + 0], b_reg[4 * l + 1], b_reg[4 * l + 2], b_reg[4 * l + 3]));
            }
        } else {
#pragma unroll
            for (int l = 0; l < 4 * B_F4; l++) {
                int k, n;
                b_sca_map(l, k, n);
                Bs_[k * BSTR + n] = b_reg[l];
            }
        }
    };
    /* ---- cp.async A: 4-byte copies straight into the transposed layout (zero-filled at k < 0, the
     * source then a valid dummy address). */
    auto asyncA = [&](int k0, int buf, auto GK) {
        float *As_ = As + buf * G::A_STAGE;
#pragma unroll
        for (int l = 0; l < 4 * A_F4; l++) {
            int m, k;
            a_sca_map(l, m, k);
            const int gk = k0 + k;
            if constexpr (decltype(GK)::value) {
                const bool ok = gk >= 0;
                cp_async4(As_ + k * ASTR + m, ok ? A + arow(m) * K + gk : A, ok ? 4 : 0);
            } else {
                cp_async4(As_ + k * ASTR + m, A + arow(m) * K + gk, 4);
            }
        }
    };
    /* ---- cp.async B: 16-byte copies when rows are aligned, else 4-byte ones. */
    auto asyncB = [&](int k0, int buf, auto GK) {
        float *Bs_ = Bs + buf * G::B_STAGE;
        if (b_vec) {
#pragma unroll
            for (int l = 0; l < B_F4; l++) {
                int k, nq;
                b_vec_map(l, k, nq);
                const int gk = k0 + k;
                if constexpr (decltype(GK)::value) {
                    const bool ok = gk >= 0;
                    cp_async16(Bs_ + k * BSTR + nq, ok ? B + gk * N + bcol4(nq) : B, ok ? 16 : 0);
                } else {
                    cp_async16(Bs_ + k * BSTR + nq, B + gk * N + bcol4(nq), 16);
                }
            }
        } else {
#pragma unroll
            for (int l = 0; l < 4 * B_F4; l++) {
                int k, n;
                b_sca_map(l, k, n);
                const int gk = k0 + k;
                if constexpr (decltype(GK)::value) {
                    const bool ok = gk >= 0;
                    cp_async4(Bs_ + k * BSTR + n, ok ? B + gk * N + bcol1(n) : B, ok ? 4 : 0);
                } else {
                    cp_async4(Bs_ + k * BSTR + n, B + gk * N + bcol1(n), 4);
                }
            }
        }
    };

    /* ---- The math of one slice from buffer buf: at each k, a lane reads WMITER·TM values of A and
     * WNITER·TN of B as float4s and does their outer product into acc. */
    auto compute = [&](int buf) {
        const float *As_ = As + buf * G::A_STAGE + warpRow * WM + laneRow * TM;
        const float *Bs_ = Bs + buf * G::B_STAGE + warpCol * WN + laneCol * TN;
#pragma unroll
        for (int k = 0; k < BK; k++) {
            float a[WMITER * TM], b[WNITER * TN];
#pragma unroll
            for (int wm = 0; wm < WMITER; wm++)
#pragma unroll
                for (int c = 0; c < TM / 4; c++) {
                    const float4 v = ld4(As_ + k * ASTR + wm * WSUBM + 4 * c);
                    a[wm * TM + 4 * c + 0] = v.x;
                    a[wm * TM + 4 * c + 1] = v.y;
                    a[wm * TM + 4 * c + 2] = v.z;
                    a[wm * TM + 4 * c + 3] = v.w;
                }
#pragma unroll
            for (int wn = 0; wn < WNITER; wn++)
#pragma unroll
                for (int c = 0; c < TN / 4; c++) {
                    const float4 v = ld4(Bs_ + k * BSTR + wn * WSUBN + 4 * c);
                    b[wn * TN + 4 * c + 0] = v.x;
                    b[wn * TN + 4 * c + 1] = v.y;
                    b[wn * TN + 4 * c + 2] = v.z;
                    b[wn * TN + 4 * c + 3] = v.w;
                }
#pragma unroll
            for (int i = 0; i < WMITER * TM; i++)
#pragma unroll
                for (int j = 0; j < WNITER * TN; j++) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
    };

    const Flag<EDGE> guard0;     /* slice 0: guarded on EDGE */
    const Flag<false> unguarded; /* the others: inside A and B */

    if constexpr (A_ASYNC && B_ASYNC) {
        /* ---- STAGES-deep cp.async pipeline. Invariant at the top of iteration t: groups for slices
         * 0..t+STAGES-2 are committed (one group per slice, empty past the end), so waiting until at
         * most STAGES-2 are pending means slice t has landed (for this thread); the barrier then makes
         * every thread's copies visible AND guarantees everyone finished computing slice t-1, whose
         * buffer ((t-1) mod STAGES = (t+STAGES-1) mod STAGES) is refilled right after. */
        asyncA(k_first, 0, guard0);
        asyncB(k_first, 0, guard0);
        cp_async_commit();
#pragma unroll
        for (int s = 1; s < STAGES - 1; s++) {
            if (s < KT) {
                asyncA(k_first + s * BK, s, unguarded);
                asyncB(k_first + s * BK, s, unguarded);
            }
            cp_async_commit();
        }
        int buf_compute = 0, buf_load = STAGES - 1;
        for (int t = 0; t < KT; t++) {
            cp_async_wait<STAGES - 2>();
            SGEMM_SYNC();
            const int tl = t + STAGES - 1;
            if (tl < KT) {
                asyncA(k_first + tl * BK, buf_load, unguarded);
                asyncB(k_first + tl * BK, buf_load, unguarded);
            }
            cp_async_commit();
            compute(buf_compute);
            buf_compute = buf_compute + 1 == STAGES ? 0 : buf_compute + 1;
            buf_load = buf_load + 1 == STAGES ? 0 : buf_load + 1;
        }
    } else {
        /* ---- Two buffers, at least one operand register-staged. Iteration t computes buffer t&1
         * while slice t+1 travels (into registers, or by cp.async straight into buffer (t+1)&1, which
         * everyone finished reading before the previous iteration's closing barrier); then the
         * registers are stored into that buffer, the copies awaited, and one barrier publishes it. */
        if constexpr (A_ASYNC) asyncA(k_first, 0, guard0); else fetchA(k_first, guard0);
        if constexpr (B_ASYNC) asyncB(k_first, 0, guard0); else fetchB(k_first, guard0);
        cp_async_commit();
        if constexpr (!A_ASYNC) stageA(0);
        if constexpr (!B_ASYNC) stageB(0);
        cp_async_wait<0>();
        SGEMM_SYNC();
        for (int t = 0; t < KT; t++) {
            const int cur = t & 1, nxt = cur ^ 1;
            const bool more = t + 1 < KT;
            const int k0 = k_first + (t + 1) * BK;
            if (more) {
                if constexpr (A_ASYNC) asyncA(k0, nxt, unguarded); else fetchA(k0, unguarded);
                if constexpr (B_ASYNC) asyncB(k0, nxt, unguarded); else fetchB(k0, unguarded);
                cp_async_commit();
            }
            compute(cur);
            if (more) {
                if constexpr (!A_ASYNC) stageA(nxt);
                if constexpr (!B_ASYNC) stageB(nxt);
            }
            if constexpr (A_ASYNC || B_ASYNC) cp_async_wait<0>();
            SGEMM_SYNC();
        }
    }

    /* ---- Epilogue: float4 stores of each TN-wide run, guarded on EDGE. */
#pragma unroll
    for (int wm = 0; wm < WMITER; wm++)
#pragma unroll
        for (int i = 0; i < TM; i++) {
            const int r = row0 + warpRow * WM + wm * WSUBM + laneRow * TM + i;
            if (EDGE && r >= M) continue;
            float *Crow = C + r * N;
#pragma unroll
            for (int wn = 0; wn < WNITER; wn++)
#pragma unroll
                for (int c = 0; c < TN / 4; c++) {
                    const int cc = col0 + warpCol * WN + wn * WSUBN + laneCol * TN + 4 * c;
                    const float *v = &acc[wm * TM + i][wn * TN + 4 * c];
                    if (!EDGE || (b_vec && cc < N)) {
                        st4(Crow + cc, make_float4(v[0], v[1], v[2], v[3]));
                    } else {
#pragma unroll
                        for (int j = 0; j < 4; j++)
                            if (cc + j < N) Crow[cc + j] = v[j];
                    }
                }
        }
}

