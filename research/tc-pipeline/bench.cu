/* Chapter 6's `pipeline` beside sm_80-style HGEMM candidates, on the chapter's own data and checks.
 * C (M×N, fp32) = A (M×K, fp16, row-major) · B, B stored as Bt (N×K, fp16, row-major), fp32 sums:
 * mma.sync m16n8k16 fed by ldmatrix from XOR-swizzled shared memory, cp.async in 3-4 stages. No wgmma,
 * no TMA: every kernel here runs on sm_80 and later.
 *
 * The candidates (one template, hgemm): 8 warps (or 4, the chapter's tile, for comparison) over block
 * tiles 128×128, 128×256, 256×128; warp tiles 64×64 or 64×32; slices 32 or 64 deep; 3-4 stages in
 * dynamic shared memory; the A/B fragments of k16 step s+1 loaded while the MMAs of step s issue
 * (two fragment buffers); the grid walked in groups of G block rows (rasterization) so that the
 * blocks running together share A's and B's slices in L2; guarded copies only in edge tiles and in the
 * last, partial slice of K; fragments of synchronous copies where K % 8 != 0 (as the chapter does).
 *
 * Checks: the chapter's setup() and check() (solutions/06-tcmatmul/tcmatmul.cu, included below): every
 * row against the CPU in fp64 where M·N·K ≤ 2^31, else 32 sampled rows and cuBLAS's C for the others,
 * within matmul_rtol(K). A G other than the first of a tile configuration is compared bit for bit
 * with that first output (the block order changes no sum). Timing: CUDA events, 3 warm-ups, median of
 * `reps` launches, two rounds interleaved, cuBLAS GemmEx timed in each round (the speed of light);
 * first, twice, the rate of mma.sync on registers alone (common/wb_peak.h), the ceiling of them all.
 *
 * Build (repository root):
 *   nvcc -O3 -std=c++20 -arch=sm_90 -Icommon -Xcompiler -fopenmp -Xptxas -v -o build/tc-pipeline \
 *        research/tc-pipeline/bench.cu -lcublas -lgomp
 * Run: build/tc-pipeline [reps [MxNxK ...]]   (CSV on stdout; see README.md) */
#define main chapter6_main
#include "../../solutions/06-tcmatmul/tcmatmul.cu"
#undef main

#include <string>
#include <vector>

namespace tp {

/* Halves offset of element (r, c) in a stage tile of rows BK halves long, c a multiple of 8 plus up
 * to 7. The tile is read as 128-byte lines (one row at BK = 64, two at BK = 32): the 16-byte chunk q of
 * line L is stored at chunk q ^ (L % 8). The 8 rows of one 8×8 ldmatrix matrix (same column chunk,
 * rows r0..r0+7, r0 a multiple of 8) then land in 8 different chunks of the 32 banks: at BK = 64 by
 * the chapter's argument; at BK = 32 they span 4 lines, two chunks each (q and q + 4), and the 4
 * consecutive L % 8 XOR them onto 8 distinct chunks. Each 8-thread phase of a copy writes one whole
 * line, permuted: no conflicts either. For r0 a multiple of 16, swz(r0 + r, c) = r0·BK + swz(r, c). */
template <int BK> __device__ __forceinline__ int swz(int r, int c)
{
    static_assert(BK == 32 || BK == 64, "the swizzle is conflict-free for 64- and 128-byte rows only");
    int idx = r * (BK / 8) + c / 8, line = idx / 8;
    return (line * 8 + ((idx % 8) ^ (line % 8))) * 8 + c % 8;
}

/* 16 bytes global → shared, no guard (the caller knows the chunk lies inside and is aligned); the
 * L2 prefetch hint asks for the whole 128-byte line, which the neighbouring threads read anyway. */
__device__ __forceinline__ void cp_async16(__half *dst, const __half *src)
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;\n" ::"r"(smem_u32(dst)), "l"(src) : "memory");
#else
    *(uint4 *)dst = *(const uint4 *)src;
#endif
}

/* A thread's share of copying ROWS×BK halves of X (rows×K, row-major) from rows r0.. into a swizzled
 * stage tile: chunks tid, tid + THREADS, …, which lie RSTEP rows apart (a multiple of 16, so that the
 * swizzled offsets are the first one's plus j·RSTEP·BK). The offsets are computed once, in 32 bits
 * (the sizes keep M·K and N·K below 2^31, edge rows included), so that the mainloop's addresses cost
 * a register each, not two; the mainloop adds k0. Guarded: the chapter's copy_chunk8_async per chunk (zeros outside, synchronous
 * where K % 8 != 0). */
template <int ROWS, int BK, int THREADS> struct TileCopy {
    static constexpr int PER = ROWS * BK / 8 / THREADS, RSTEP = THREADS / (BK / 8);
    static_assert(ROWS * BK / 8 % THREADS == 0 && RSTEP % 16 == 0, "equal shares, 16-row steps");
    int src, r, c, dst; /* this thread's first chunk: offset in X at k = 0, row and column in the tile,
                         * swizzled offset in the tile (halves) */
    __device__ __forceinline__ TileCopy(int K, int r0, int tid)
        : src((r0 + tid / (BK / 8)) * K + tid % (BK / 8) * 8), r(tid / (BK / 8)), c(tid % (BK / 8) * 8),
          dst(swz<BK>(tid / (BK / 8), tid % (BK / 8) * 8))
    {
    }
    __device__ __forceinline__ void issue(__half *tile, const __half *X, int rows, int K, int r0, int k0,
                                          bool guarded) const
    {
#pragma unroll
        for (int j = 0; j < PER; j++) {
            if (guarded) copy_chunk8_async(tile + dst + j * RSTEP * BK, X, rows, K, r0 + r + j * RSTEP, k0 + c);
            else cp_async16(tile + dst + j * RSTEP * BK, X + (src + k0 + j * RSTEP * K));
        }
    }
};

/* One k16 step's fragments of a warp tile: MI A tiles of 16×16, NJ B tiles of 16×8 (mma's a0..a3 and
 * b0, b1). */
template <int MI, int NJ> struct Frags {
    unsigned a[MI][4], b[NJ][2];
};

/* sA, sB: byte addresses of the warp's first row of A and of Bt in the stage; a_off, b_off: this
 * lane's ldmatrix offset (bytes) inside a 16-row band at this k16 step. Matrices as in the chapter's
 * mma_slice: A rows 0-7 / 8-15 at k 0-7, then at k 8-15; B two 8-column tiles per ldmatrix.x4. */
template <int BK, int MI, int NJ>
__device__ __forceinline__ void load_frags(Frags<MI, NJ> &f, unsigned sA, unsigned sB, unsigned a_off, unsigned b_off)
{
#pragma unroll
    for (int i = 0; i < MI; i++) ldmatrix_x4(f.a[i], sA + 2 * (i * 16 * BK) + a_off);
#pragma unroll
    for (int jj = 0; jj < NJ / 2; jj++) {
        unsigned t[4];
        ldmatrix_x4(t, sB + 2 * (jj * 16 * BK) + b_off);
        f.b[2 * jj][0] = t[0], f.b[2 * jj][1] = t[1], f.b[2 * jj + 1][0] = t[2], f.b[2 * jj + 1][1] = t[3];
    }
}

/* The MI×NJ MMAs of one k16 step, the B tiles walked back and forth (serpentine) so that consecutive
 * MMAs share an operand. */
template <int MI, int NJ> __device__ __forceinline__ void mma_step(float acc[MI][NJ][4], const Frags<MI, NJ> &f)
{
#pragma unroll
    for (int i = 0; i < MI; i++)
#pragma unroll
        for (int j = 0; j < NJ; j++) {
            int jj = i % 2 ? NJ - 1 - j : j;
            mma_16816(acc[i][jj], f.a[i], f.b[jj]);
        }
}

/* Block `pid` of the one-dimensional grid → its tile (bm, bn): groups of `group` block rows, each
 * walked column by column, so that the blocks resident at once cover a near-square patch of C and
 * reread the same rows of A and columns of B from L2. group = 1: row by row, the chapter's order. */
__device__ __forceinline__ void raster(int pid, int tiles_m, int tiles_n, int group, int &bm, int &bn)
{
    int per_group = group * tiles_n, g = pid / per_group, first = g * group;
    int rows = min(tiles_m - first, group), in = pid - g * per_group;
    bm = first + in % rows, bn = in / rows;
}

template <int BM, int BN, int BK, int WM, int WN> struct Shape {
    static constexpr int WARPS_M = BM / WM, WARPS_N = BN / WN, THREADS = 32 * WARPS_M * WARPS_N;
    static constexpr int MI = WM / 16, NJ = WN / 8, KSTEPS = BK / 16, STAGE_HALVES = (BM + BN) * BK;
    static_assert(BM % WM == 0 && BN % WN == 0 && WM % 16 == 0 && WN % 16 == 0, "warp tiles of 16-row bands");
    static_assert(KSTEPS % 2 == 0, "two fragment buffers alternate over an even number of k16 steps");
};

/* The warp's WM×WN accumulators to C, only what lies inside it (the chapter's store2). */
template <int MI, int NJ>
__device__ __forceinline__ void store_tile(float *C, int M, int N, int r0, int c0, const float acc[MI][NJ][4], int lane)
{
#pragma unroll
    for (int i = 0; i < MI; i++)
#pragma unroll
        for (int j = 0; j < NJ; j++) {
            int r = r0 + i * 16 + lane / 4, c = c0 + j * 8 + lane % 4 * 2;
            store2(C, M, N, r, c, acc[i][j][0], acc[i][j][1]);
            store2(C, M, N, r + 8, c, acc[i][j][2], acc[i][j][3]);
        }
}

/* Slice t + STAGES − 1 is copied while slice t is computed. Inside a slice, step s+1's fragments are
 * loaded before step s's MMAs issue; the first step of slice t+1 is loaded during the last step of
 * slice t, after the one barrier per slice (which also says that every warp has read slice t − 1,
 * whose stage the copies issued at step 0 of slice t refill). */
template <int BM, int BN, int BK, int WM, int WN, int STAGES, int MINB>
__global__ void __launch_bounds__(Shape<BM, BN, BK, WM, WN>::THREADS, MINB)
    hgemm(const __half *__restrict__ A, const __half *__restrict__ Bt, float *__restrict__ C, int M, int N, int K,
          int group)
{
    using S = Shape<BM, BN, BK, WM, WN>;
    constexpr int MI = S::MI, NJ = S::NJ, KSTEPS = S::KSTEPS, SH = S::STAGE_HALVES, T = S::THREADS;
    static_assert(STAGES >= 3, "one barrier per slice needs a stage between the one read and the one written");
    extern __shared__ __align__(128) __half hg_smem[];
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, wm = warp / S::WARPS_N, wn = warp % S::WARPS_N;
    int bm, bn;
    raster(blockIdx.x, (M + BM - 1) / BM, (N + BN - 1) / BN, group, bm, bn);
    int row0 = bm * BM, col0 = bn * BN, slices = (K + BK - 1) / BK;
    bool edge = row0 + BM > M || col0 + BN > N || K % 8 != 0;

    const TileCopy<BM, BK, T> copy_a(K, row0, tid);
    const TileCopy<BN, BK, T> copy_b(K, col0, tid);
    auto copy_slice = [&](int t, int stage) {
        if (t < slices) {
            __half *As = hg_smem + stage * SH;
            int k0 = t * BK;
            bool guarded = edge || k0 + BK > K;
            copy_a.issue(As, A, M, K, row0, k0, guarded);
            copy_b.issue(As + BM * BK, Bt, N, K, col0, k0, guarded);
        }
        cp_async_commit(); /* one group per slice, empty past the end: the waits count slices */
    };
    /* This lane's ldmatrix offsets (bytes) in a 16-row band at step 0. At step ks the logical chunk is
     * 2·ks + (0 or 1): bits 1-2 of the chunk, which the swizzle only XORs, so the offset is the first
     * one XOR ks·32 bytes (one register each instead of one per step). */
    int q = lane / 8;
    unsigned a_off = 2 * swz<BK>(lane % 16, lane / 16 * 8), b_off = 2 * swz<BK>(q / 2 * 8 + lane % 8, q % 2 * 8);
    unsigned base = smem_u32(hg_smem), warp_a = 2 * (wm * WM * BK), warp_b = 2 * (BM * BK + wn * WN * BK);

    for (int s = 0; s < STAGES - 1; s++) copy_slice(s, s);
    cp_async_wait<STAGES - 2>();
    __syncthreads();
    float acc[MI][NJ][4] = {};
    Frags<MI, NJ> f[2];
    load_frags<BK>(f[0], base + warp_a, base + warp_b, a_off, b_off);
    int rs = 0, ws = STAGES - 1; /* the stage read, the stage the next copies write */
    for (int t = 0; t < slices; t++) {
#pragma unroll
        for (int ks = 0; ks < KSTEPS; ks++) {
            if (ks == KSTEPS - 1) {
                cp_async_wait<STAGES - 2>(); /* this thread's copies of slice t + 1 have landed */
                __syncthreads();             /* everyone's have, and everyone has read slice t − 1 */
                rs = rs + 1 == STAGES ? 0 : rs + 1;
            }
            unsigned st = base + 2 * rs * SH;
            unsigned kx = (ks + 1) % KSTEPS * 32;
            load_frags<BK>(f[(ks + 1) % 2], st + warp_a, st + warp_b, a_off ^ kx, b_off ^ kx);
            if (ks == 0) {
                copy_slice(t + STAGES - 1, ws);
                ws = ws + 1 == STAGES ? 0 : ws + 1;
            }
            mma_step<MI, NJ>(acc, f[ks % 2]);
        }
    }
    store_tile<MI, NJ>(C, M, N, row0 + wm * WM, col0 + wn * WN, acc, lane);
}

/* ------------------------------------------------------------------ the host side */
/* One timed kernel: a name for the CSV, its launch, its resources (from the runtime: the counts ptxas
 * printed at build time, read back on the GPU). */
struct Kernel {
    std::string name, knobs;
    int tile_id;                                   /* kernels of one tile share it: outputs must agree bit for bit */
    void (*launch)(State *, int group);
    int group;                                     /* the raster's G (hgemm only) */
    cudaFuncAttributes attr;
    int threads, smem, per_sm;
};

template <int BM, int BN, int BK, int WM, int WN, int STAGES, int MINB> static void launch_hgemm(State *s, int g)
{
    using S = Shape<BM, BN, BK, WM, WN>;
    constexpr int smem = STAGES * S::STAGE_HALVES * (int)sizeof(__half);
    int blocks = wb_ceil_div(s->M, BM) * wb_ceil_div(s->N, BN);
    hgemm<BM, BN, BK, WM, WN, STAGES, MINB><<<blocks, S::THREADS, smem>>>(s->d_A, s->d_Bt, s->d_C, s->M, s->N, s->K, g);
    LAUNCH_CHECK();
}

template <int BM, int BN, int BK, int WM, int WN, int STAGES, int MINB>
static void add_hgemm(std::vector<Kernel> &ks, std::initializer_list<int> groups)
{
    using S = Shape<BM, BN, BK, WM, WN>;
    auto fn = hgemm<BM, BN, BK, WM, WN, STAGES, MINB>;
    constexpr int smem = STAGES * S::STAGE_HALVES * (int)sizeof(__half);
    int optin = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
    if (smem > optin) { /* 192 KiB on an A100 (163 KiB): left out, not an error */
        fprintf(stderr, "hgemm %dx%dx%d S=%d: %d B of shared memory, this GPU allows %d: left out\n", BM, BN, BK,
                STAGES, smem, optin);
        return;
    }
    CUDA_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    cudaFuncAttributes attr;
    CUDA_CHECK(cudaFuncGetAttributes(&attr, fn));
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, S::THREADS, smem));
    int tile_id = ks.empty() ? 0 : ks.back().tile_id + 1;
    for (int g : groups) {
        char knobs[128];
        snprintf(knobs, sizeof knobs, "%dx%dx%d warp %dx%d (%d warps) S=%d minB=%d G=%d", BM, BN, BK, WM, WN,
                 S::THREADS / 32, STAGES, MINB, g);
        ks.push_back(Kernel{"hgemm", knobs, tile_id, launch_hgemm<BM, BN, BK, WM, WN, STAGES, MINB>, g, attr,
                            S::THREADS, smem, per_sm});
    }
}

static void run_pipeline(State *s, int) { launch_pipeline(s); }

static std::vector<Kernel> kernels()
{
    std::vector<Kernel> ks;
    {
        cudaFuncAttributes attr;
        CUDA_CHECK(cudaFuncSetAttribute(tc_pipeline, cudaFuncAttributeMaxDynamicSharedMemorySize, PIPE_SMEM));
        CUDA_CHECK(cudaFuncGetAttributes(&attr, tc_pipeline));
        int per_sm = 0;
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, tc_pipeline, PIPE_THREADS, PIPE_SMEM));
        char knobs[128];
        snprintf(knobs, sizeof knobs, "%dx%dx%d warp 64x64 (%d warps) S=%d", MM_BM, PIPE_BN, MM_BK, PIPE_THREADS / 32,
                 PIPE_STAGES);
        ks.push_back(Kernel{"pipeline (chapter)", knobs, 0, run_pipeline, 0, attr, PIPE_THREADS, PIPE_SMEM, per_sm});
    }
    /* the chapter's tile and warps, with the fragment double buffer, 32-deep slices and rasterization */
    add_hgemm<128, 128, 32, 64, 64, 4, 2>(ks, {1, 8});
    /* 8 warps: the CUTLASS-style sm_80 tiles */
    add_hgemm<128, 256, 32, 64, 64, 3, 1>(ks, {1, 8, 16});
    add_hgemm<128, 256, 32, 64, 64, 4, 1>(ks, {1, 8, 16});
    add_hgemm<256, 128, 32, 64, 64, 3, 1>(ks, {1, 8, 16});
    add_hgemm<256, 128, 32, 64, 64, 4, 1>(ks, {1, 8, 16});
    add_hgemm<128, 256, 64, 64, 64, 3, 1>(ks, {1, 8, 16});
    add_hgemm<128, 256, 64, 64, 64, 4, 1>(ks, {1, 8, 16});
    add_hgemm<128, 128, 32, 64, 32, 4, 1>(ks, {1, 8, 16});
    add_hgemm<128, 128, 64, 64, 32, 3, 1>(ks, {1, 8, 16});
    return ks;
}

/* ------------------------------------------------------------------ checks */
__global__ void count_diff(const float *a, const float *b, size_t n, unsigned long long *bad)
{
    unsigned long long c = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        c += __float_as_uint(a[i]) != __float_as_uint(b[i]);
    if (c) atomicAdd(bad, c);
}

/* Each kernel once on a poisoned C. The first kernel of a tile against the chapter's reference; the
 * others of the tile (other G) bit for bit against it. */
static void check_all(State *s, std::vector<Kernel> &ks, std::vector<int> &ok, const char *size)
{
    size_t n = (size_t)s->M * s->N;
    float *h = (float *)wb_host_alloc(sizeof(float) * n, "a kernel's C");
    float *first = (float *)wb_device_alloc(sizeof(float) * n);
    unsigned long long *bad = (unsigned long long *)wb_device_alloc(sizeof *bad);
    for (size_t k = 0; k < ks.size(); k++) {
        wb_poison(s->d_C, sizeof(float) * n);
        ks[k].launch(s, ks[k].group);
        CUDA_CHECK(cudaDeviceSynchronize());
        bool lead = k == 0 || ks[k].tile_id != ks[k - 1].tile_id;
        bool pass;
        if (lead) {
            CUDA_CHECK(cudaMemcpy(h, s->d_C, sizeof(float) * n, cudaMemcpyDeviceToHost));
            wb_check chk;
            check(s, h, &chk);
            pass = wb_check_verdict(&chk) == WB_PASS;
            fprintf(stderr, "%-20s %-44s %s: %s, worst error %.3g of its bound (%s)\n", ks[k].name.c_str(),
                    ks[k].knobs.c_str(), size, pass ? "PASS" : "WRONG", chk.worst_err, chk.worst_of);
            if (!pass) wb_check_print(stderr, &chk);
            CUDA_CHECK(cudaMemcpy(first, s->d_C, sizeof(float) * n, cudaMemcpyDeviceToDevice));
        } else {
            unsigned long long diff = 0;
            CUDA_CHECK(cudaMemset(bad, 0, sizeof *bad));
            count_diff<<<1024, 256>>>(s->d_C, first, n, bad);
            LAUNCH_CHECK();
            CUDA_CHECK(cudaMemcpy(&diff, bad, sizeof diff, cudaMemcpyDeviceToHost));
            pass = diff == 0 && ok[k - 1];
            if (!pass)
                fprintf(stderr, "%-20s %-44s %s: WRONG, %llu elements differ from the same tile's first G\n",
                        ks[k].name.c_str(), ks[k].knobs.c_str(), size, diff);
        }
        ok[k] = pass;
    }
}

/* "MxNxK", each 1 to 32768 (the chapter's limit), or false. */
static bool parse_size(const char *arg, wb_size *size)
{
    long long d[3];
    char tail;
    if (sscanf(arg, "%lldx%lldx%lld%c", &d[0], &d[1], &d[2], &tail) != 3) return false;
    size->dims = 3;
    for (int i = 0; i < 3; i++) {
        if (d[i] < 1 || d[i] > 32768) return false;
        size->d[i] = d[i];
    }
    return true;
}

} // namespace tp

int main(int argc, char **argv)
{
    using namespace tp;
    int reps = 20;
    if (argc > 1 && (sscanf(argv[1], "%d", &reps) != 1 || reps < 1 || reps > 1000)) {
        fprintf(stderr, "usage: %s [reps (1-1000) [MxNxK ...]]: bad reps '%s'\n", argv[0], argv[1]);
        return 2;
    }
    std::vector<std::string> args(argv + (argc > 2 ? 2 : argc), argv + argc);
    if (args.empty())
        args = {"8192x8192x8192", "4096x4096x4096", "4095x1001x333", "1x1x1",  "17x33x7",
                "1000x777x512",   "300x200x40",     "257x129x72",    "129x257x100"};
    /* wb_size is an unnamed struct: nvcc 13.0's front end fails on a std::vector of it (an internal
     * error in its destructor's name), so the sizes live in a named wrapper. */
    struct Size {
        wb_size d;
    };
    std::vector<Size> sizes(args.size());
    for (size_t i = 0; i < args.size(); i++)
        if (!parse_size(args[i].c_str(), &sizes[i].d)) {
            fprintf(stderr, "%s: bad size '%s' (MxNxK, each 1 to 32768)\n", argv[0], args[i].c_str());
            return 2;
        }
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    fprintf(stderr, "%s (sm_%d%d, %d SMs), reps %d\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount, reps);
    std::vector<Kernel> ks = kernels();
    for (const Kernel &k : ks)
        fprintf(stderr, "%-20s %-44s %3d regs, %zu B local, %3d threads, %6d B smem, %d blocks/SM\n", k.name.c_str(),
                k.knobs.c_str(), k.attr.numRegs, k.attr.localSizeBytes, k.threads, k.smem, k.per_sm);
    printf("round,size,kernel,knobs,regs,local_bytes,blocks_per_sm,ms,TFLOPs,of_cublas,cublas_TFLOPs,check\n");
    /* What mma.sync itself can do here (wb_peak.h's loop of wmma MMAs on registers, two HMMAs each):
     * the ceiling of every kernel in this bench, below the wgmma peak on Hopper. */
    for (int round = 0; round < 2; round++)
        printf("%d,peak,mma.sync peak (wmma loop),-,-,-,-,-,%.1f,-,-,-\n", round, wb_tc_peak(3, reps) / 1e3);
    int all_pass = 1;
    for (size_t z = 0; z < sizes.size(); z++) {
        State s;
        wb_output out;
        setup(&s, &sizes[z].d, 42, &out);
        const char *size = args[z].c_str();
        std::vector<int> ok(ks.size(), 0);
        check_all(&s, ks, ok, size);
        double flop = 2.0 * s.M * (double)s.N * s.K;
        for (int round = 0; round < 2; round++) {
            double blas_ms = wb_time_ms([&] { launch_cublas(&s); }, 3, reps, NULL);
            double blas = flop / (blas_ms * 1e-3) / 1e12;
            printf("%d,%s,cuBLAS GemmEx fp16/fp32,-,-,-,-,%.4f,%.1f,1,%.1f,-\n", round, size, blas_ms, blas, blas);
            for (size_t k = 0; k < ks.size(); k++) {
                double ms = wb_time_ms([&] { ks[k].launch(&s, ks[k].group); }, 3, reps, NULL);
                double tf = flop / (ms * 1e-3) / 1e12;
                printf("%d,%s,%s,%s,%d,%zu,%d,%.4f,%.1f,%.4f,%.1f,%s\n", round, size, ks[k].name.c_str(),
                       ks[k].knobs.c_str(), ks[k].attr.numRegs, ks[k].attr.localSizeBytes, ks[k].per_sm, ms, tf,
                       tf / blas, blas, ok[k] ? "PASS" : "WRONG");
            }
            fflush(stdout);
        }
        for (int o : ok) all_pass &= o;
        teardown(&s);
        wb_free_all();
    }
    return all_pass ? 0 : 1;
}
