/* wb_cublas.h: cuBLAS's matrix products on row-major matrices (fp32 for chapter 4, fp16 in with fp32
 * sums for chapter 6), for the speed of light and the reference of the rows the CPU cannot afford. Reference builds only: the grader builds student
 * code with WB_NO_SOL_LIBS and without -lcublas (no library may do a variant's work). */
#pragma once
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include "wb.h"

static cublasHandle_t wb_blas;

static void wb_cublas_check(cublasStatus_t st, const char *call, int line)
{
    if (st == CUBLAS_STATUS_SUCCESS) return;
    fprintf(stderr, "%s:%d: cuBLAS error %s (%s) in %s\n", __FILE__, line, cublasGetStatusName(st),
            cublasGetStatusString(st), call);
    exit(st == CUBLAS_STATUS_ALLOC_FAILED ? WB_EXIT_NO_MEMORY : WB_EXIT_CUDA);
}
#define WB_CUBLAS_CHECK(call) wb_cublas_check((call), #call, __LINE__)

/* Once per size (setup), with wb_cublas_end in teardown. fp32 throughout: no TF32. */
static void wb_cublas_begin(void)
{
    WB_CUBLAS_CHECK(cublasCreate(&wb_blas));
    WB_CUBLAS_CHECK(cublasSetMathMode(wb_blas, CUBLAS_PEDANTIC_MATH));
}

static void wb_cublas_end(void) { WB_CUBLAS_CHECK(cublasDestroy(wb_blas)); }

/* C (M×N) = A (M×K)·B (K×N), all row-major. cuBLAS is column-major, and a row-major matrix read
 * column-major is its transpose: the row-major C we want is the column-major Cᵀ (N×M) = Bᵀ·Aᵀ, where
 * the row-major B and A already are the column-major Bᵀ (N×K, leading dimension N) and Aᵀ (K×M,
 * leading dimension K). So: swap the operands and the roles of M and N, transpose nothing. */
static void wb_cublas_sgemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    const float one = 1.0f, zero = 0.0f;
    WB_CUBLAS_CHECK(cublasSgemm(wb_blas, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N));
}

/* Once per size, for the tensor cores' products: cuBLAS's default math (tensor cores allowed). */
static void wb_cublas_begin_tensor(void)
{
    WB_CUBLAS_CHECK(cublasCreate(&wb_blas));
    WB_CUBLAS_CHECK(cublasSetMathMode(wb_blas, CUBLAS_DEFAULT_MATH));
}

/* C (M×N, fp32, row-major) = A (M×K, fp16, row-major)·B, B given as Bt (N×K, fp16, row-major), the
 * products summed in fp32. As in wb_cublas_sgemm the row-major C is the column-major Cᵀ = Bᵀ·Aᵀ: Aᵀ is
 * the row-major A read column-major (K×M, leading dimension K), and Bt read column-major is B (K×N,
 * leading dimension K), transposed by the call (CUBLAS_OP_T) into Bᵀ. */
static void wb_cublas_gemm_f16(const __half *A, const __half *Bt, float *C, int M, int N, int K)
{
    const float one = 1.0f, zero = 0.0f;
    WB_CUBLAS_CHECK(cublasGemmEx(wb_blas, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &one, Bt, CUDA_R_16F, K, A, CUDA_R_16F,
                                 K, &zero, C, CUDA_R_32F, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}
