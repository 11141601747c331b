/* wb_gemm_ref.h: the reference an fp32 matrix product C (M×N) = A (M×K)·B (K×N), row-major, is checked
 * against (chapter 4's "Verification"): rows computed exactly on the CPU, in double, with their error
 * bounds; when the CPU cannot afford all M rows, a sample of them, and for the others a trusted
 * library's C with a normwise bound. The chapter supplies the CPU rows and the tolerance (its lesson);
 * this header keeps the bookkeeping out of the chapter's harness. */
#pragma once
#include "wb.h"

#define WB_GEMM_SAMPLED_ROWS 32

/* Rows rows[0..n_rows) of A·B in ref and of |A|·|B| in abs_sum, both n_rows×N, in double. */
typedef void (*wb_gemm_rows_fn)(const float *A, const float *B, int N, int K, const int *rows, int n_rows,
                                double *ref, double *abs_sum);

/* The CPU's rows, a wb_gemm_rows_fn: products of two floats (fp16 widened to float too) are exact in
 * double, and the sums round at 2^-53, far below any fp32 tolerance. */
static inline void wb_gemm_rows_cpu(const float *A, const float *B, int N, int K, const int *rows, int n_rows,
                                    double *ref, double *abs_sum)
{
#pragma omp parallel for schedule(dynamic, 1)
    for (int r = 0; r < n_rows; r++) {
        double *c = ref + (size_t)r * N, *c_abs = abs_sum + (size_t)r * N;
        for (int j = 0; j < N; j++) c[j] = c_abs[j] = 0.0;
        const float *a = A + (size_t)rows[r] * K;
        for (int k = 0; k < K; k++) {
            double a_k = a[k], a_abs = fabs(a_k);
            const float *b = B + (size_t)k * N;
            for (int j = 0; j < N; j++) {
                c[j] += a_k * b[j];
                c_abs[j] += a_abs * fabs((double)b[j]);
            }
        }
    }
}

/* γ_n = n·u/(1 − n·u) (Higham, "Accuracy and Stability of Numerical Algorithms", §3.1): the bound on the
 * relative error of n roundings at unit roundoff u. */
static inline double wb_gamma_n(int n, double u) { return n * u / (1.0 - n * u); }

typedef struct {
    int M, N, K, n_exact, *exact_rows; /* the exact rows, in increasing order */
    double rtol, *ex_ref, *ex_bound;    /* their values and bounds (rtol·Σ|a||b|), n_exact×N */
    const float *lib;                   /* the library's C, the other rows' reference; NULL: none */
    double *row_norm_A, *col_norm_B;    /* ‖row i of A‖₂, ‖column j of B‖₂: Σ|a||b| ≤ their product */
    double *row_ref, *row_bound;        /* one row's reference and bound, built from lib when checked */
    char worst_of[64];                  /* what the reference was, for the report's "worst error" line */
} wb_gemm_ref;

/* The exact rows: all M (all != 0, or M ≤ WB_GEMM_SAMPLED_ROWS), else WB_GEMM_SAMPLED_ROWS spread
 * evenly, the first and the last included. */
static inline void wb_gemm_ref_exact(wb_gemm_ref *r, const float *A, const float *B, int M, int N, int K,
                                     double rtol, int all, wb_gemm_rows_fn rows)
{
    memset(r, 0, sizeof *r);
    r->M = M, r->N = N, r->K = K, r->rtol = rtol;
    r->n_exact = all || M <= WB_GEMM_SAMPLED_ROWS ? M : WB_GEMM_SAMPLED_ROWS;
    r->exact_rows = (int *)wb_host_alloc(sizeof(int) * r->n_exact, "the reference rows");
    for (int e = 0; e < r->n_exact; e++)
        r->exact_rows[e] = r->n_exact == 1 ? 0 : (int)((long long)e * (M - 1) / (r->n_exact - 1));
    size_t cells = (size_t)r->n_exact * N;
    r->ex_ref = (double *)wb_host_alloc(sizeof(double) * cells, "the reference rows");
    r->ex_bound = (double *)wb_host_alloc(sizeof(double) * cells, "the reference rows");
    rows(A, B, N, K, r->exact_rows, r->n_exact, r->ex_ref, r->ex_bound);
    for (size_t e = 0; e < cells; e++) r->ex_bound[e] *= rtol;
    snprintf(r->worst_of, sizeof r->worst_of, "CPU fp64");
}

/* Checks got (M×N): each exact row against the CPU's, the others (when a library's C was taken) against
 * it with the bound 2·rtol·‖row of A‖₂·‖column of B‖₂ (both sides' error), or not at all (exact_only). */
static inline void wb_gemm_ref_check(wb_gemm_ref *r, const float *got, wb_check *chk, int exact_only)
{
    size_t N = (size_t)r->N;
    wb_check_init(chk, N);
    chk->worst_of = r->worst_of;
    for (int i = 0, next = 0; i < r->M; i++) {
        const double *ref = r->row_ref, *bound = r->row_bound;
        size_t at = (size_t)i * N;
        if (next < r->n_exact && r->exact_rows[next] == i) {
            ref = r->ex_ref + next * N;
            bound = r->ex_bound + next++ * N;
        } else if (exact_only || !r->lib) {
            continue;
        } else {
            for (size_t j = 0; j < N; j++) {
                r->row_ref[j] = r->lib[at + j];
                r->row_bound[j] = 2.0 * r->rtol * r->row_norm_A[i] * r->col_norm_B[j];
            }
        }
        wb_check_f32_tol(chk, at, ref, bound, got + at, N);
    }
}

/* A library's C (host copy, kept): checked against the exact rows first (a disagreement exits with
 * WB_EXIT_CUDA: the library call is wrong, not the student), then the reference of the other rows. */
static inline void wb_gemm_ref_take_lib(wb_gemm_ref *r, const char *name, const float *lib, const float *A,
                                        const float *B)
{
    wb_check chk;
    wb_gemm_ref_check(r, lib, &chk, 1);
    if (chk.wrong) {
        fprintf(stderr, "%s's C disagrees with the CPU reference (is the operand order right?):\n", name);
        wb_check_print(stderr, &chk);
        exit(WB_EXIT_CUDA);
    }
    if (r->n_exact == r->M) return;
    size_t M = (size_t)r->M, N = (size_t)r->N, K = (size_t)r->K;
    r->lib = lib;
    snprintf(r->worst_of, sizeof r->worst_of, "%s, %d rows CPU fp64", name, r->n_exact);
    r->row_norm_A = (double *)wb_host_alloc(sizeof(double) * M, "the reference norms");
    r->col_norm_B = (double *)wb_host_alloc(sizeof(double) * N, "the reference norms");
    r->row_ref = (double *)wb_host_alloc(sizeof(double) * N, "the reference rows");
    r->row_bound = (double *)wb_host_alloc(sizeof(double) * N, "the reference rows");
    for (size_t i = 0; i < M; i++) {
        double sq = 0;
        for (size_t k = 0; k < K; k++) sq += (double)A[i * K + k] * A[i * K + k];
        r->row_norm_A[i] = sqrt(sq);
    }
    memset(r->col_norm_B, 0, sizeof(double) * N);
    for (size_t k = 0; k < K; k++)
        for (size_t j = 0; j < N; j++) r->col_norm_B[j] += (double)B[k * N + j] * B[k * N + j];
    for (size_t j = 0; j < N; j++) r->col_norm_B[j] = sqrt(r->col_norm_B[j]);
}
