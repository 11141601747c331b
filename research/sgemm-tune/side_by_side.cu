/*
 * side_by_side.cu: chapter 4's async-copy kernel (solutions/04-matmul/matmul.cu, included whole with its
 * main renamed), this sweep's best configuration (sgemm_kernel.cuh) and cuBLAS fp32, in one program on the
 * same 4096³ data: first their bits compared (the two hand-written kernels add the same products in the
 * same order, so they must agree bit for bit), then `rounds` interleaved rounds of each, timed two ways:
 * per launch between events with a synchronisation after each (as common/wb.h times), and one batch of 20
 * back-to-back launches. Measuring all three in one process removes the run-to-run drift of clocks and
 * power (on the H100 the SM clock moved between 1950 and 1980 MHz under the power cap) from the
 * comparison. Build and run from the repository root (README.md):
 *   nvcc -O3 -std=c++20 -lineinfo -arch=sm_90 -Icommon -Iresearch/sgemm-tune -Xcompiler -fopenmp \
 *        -o build/side_by_side research/sgemm-tune/side_by_side.cu -lcublas -lgomp && build/side_by_side 3
 */
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <functional>
namespace sw { /* the sweep's helpers share names with the chapter's */
#include "sgemm_kernel.cuh"
template <KPARAMS> static void launch(const float *A, const float *B, float *C, int M, int N, int K)
{
    using G = Geo<KARGS>;
    auto k = sgemm_kernel<KARGS, false>;
    cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)G::SMEM);
    if (e != cudaSuccess) {
        fprintf(stderr, "side_by_side: the sweep kernel's shared memory: %s\n", cudaGetErrorString(e));
        exit(3);
    }
    k<<<((M + BM - 1) / BM) * ((N + BN - 1) / BN), NT, G::SMEM>>>(A, B, C, M, N, K, 0);
}
} // namespace sw
#define main chapter4_main
#include "../../solutions/04-matmul/matmul.cu"
#undef main
#include <algorithm>
#include <vector>

struct candidate {
    const char *name;
    std::function<void()> run;
};

int main(int argc, char **argv)
{
    const int M = 4096, N = 4096, K = 4096;
    char *end = NULL;
    const long rounds = argc > 1 ? strtol(argv[1], &end, 10) : 3;
    if (argc > 2 || (argc > 1 && (*argv[1] == 0 || *end != 0)) || rounds < 1 || rounds > 100) {
        fprintf(stderr, "usage: side_by_side [ROUNDS], ROUNDS a whole number from 1 to 100 (default 3)\n");
        return 2;
    }
    const size_t nA = (size_t)M * K, nB = (size_t)K * N, nC = (size_t)M * N;
    std::vector<float> hA(nA), hB(nB), h1(nC), h2(nC);
    wb_fill_f32(hA.data(), nA, 42, 0, -1.0f, 1.0f);
    wb_fill_f32(hB.data(), nB, 42, 1, -1.0f, 1.0f);
    float *A, *B, *C;
    CUDA_CHECK(cudaMalloc(&A, nA * 4));
    CUDA_CHECK(cudaMalloc(&B, nB * 4));
    CUDA_CHECK(cudaMalloc(&C, nC * 4));
    CUDA_CHECK(cudaMemcpy(A, hA.data(), nA * 4, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(B, hB.data(), nB * 4, cudaMemcpyHostToDevice));
    wb_cublas_begin();
    const dim3 grid(N / AC_BN, M / AC_BM);
    std::vector<candidate> c = {
        {"cuBLAS fp32", [&] { wb_cublas_sgemm(A, B, C, M, N, K); }},
        {"chapter async-copy", [&] { matmul_async_copy<false><<<grid, AC_THREADS>>>(A, B, C, M, N, K); }},
        {"sweep 64x256x16 cpa2", [&] { sw::launch<64, 256, 16, 32, 64, 2, 8, 4, 256, sw::CPA, 2, 2>(A, B, C, M, N, K); }},
    };
    for (size_t i = 1; i < c.size(); i++) { /* poisoned C, then the bits */
        CUDA_CHECK(cudaMemset(C, 0xff, nC * 4));
        c[i].run();
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(i == 1 ? h1.data() : h2.data(), C, nC * 4, cudaMemcpyDeviceToHost));
    }
    size_t differ = 0;
    for (size_t j = 0; j < nC; j++) differ += memcmp(&h1[j], &h2[j], 4) != 0;
    printf("bits: the two hand-written kernels differ at %zu of %zu elements\n", differ, nC);
    cudaEvent_t e0, e1;
    CUDA_CHECK(cudaEventCreate(&e0));
    CUDA_CHECK(cudaEventCreate(&e1));
    std::vector<std::vector<float>> per(c.size()), batch(c.size());
    for (long r = 0; r < rounds; r++)
        for (size_t i = 0; i < c.size(); i++) {
            for (int w = 0; w < 3; w++) c[i].run();
            std::vector<float> t(20);
            for (float &x : t) {
                CUDA_CHECK(cudaEventRecord(e0));
                c[i].run();
                CUDA_CHECK(cudaEventRecord(e1));
                CUDA_CHECK(cudaEventSynchronize(e1));
                CUDA_CHECK(cudaEventElapsedTime(&x, e0, e1));
            }
            std::sort(t.begin(), t.end());
            per[i].push_back(0.5f * (t[9] + t[10]));
            float b;
            CUDA_CHECK(cudaEventRecord(e0));
            for (int k = 0; k < 20; k++) c[i].run();
            CUDA_CHECK(cudaEventRecord(e1));
            CUDA_CHECK(cudaEventSynchronize(e1));
            CUDA_CHECK(cudaEventElapsedTime(&b, e0, e1));
            batch[i].push_back(b / 20);
            CUDA_CHECK(cudaGetLastError());
        }
    const float blas = *std::min_element(per[0].begin(), per[0].end());
    for (size_t i = 0; i < c.size(); i++) {
        printf("%-22s per-launch median ms:", c[i].name);
        for (float x : per[i]) printf(" %.4f", x);
        printf("  batch ms:");
        for (float x : batch[i]) printf(" %.4f", x);
        const float best = *std::min_element(per[i].begin(), per[i].end());
        printf("  of cuBLAS (best of each): %.3f\n", blas / best);
    }
    wb_cublas_end();
    return differ ? 1 : 0;
}
