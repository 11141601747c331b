/* ops.c — see ops.h. */
#define _GNU_SOURCE 1
#include "ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Labels are what a grader can observe and should name: "< becomes <=" on a bounds test writes one
 * element past the end, which the sanitizer reports (out-of-bounds); "n - 1 - i becomes n - i" shifts
 * the result (off-by-one). */
const mu_op mu_ops[] = {
    {MU_DELETE_LINE, 0, "__syncthreads();", NULL, "race", "drop a __syncthreads()"},
    {MU_REPLACE, 0, "if (i < n) ", "", "out-of-bounds", "remove the bounds check on i"},
    {MU_REPLACE, 0, "if (src < n) ", "", "out-of-bounds", "remove the bounds check on src"},
    {MU_REPLACE, 0, "(i < n) ", "(i <= n) ", "out-of-bounds", "< becomes <= in the bounds test"},
    {MU_CEIL_FLOOR, 0, NULL, NULL, "tail", "the grid size rounded down (floor instead of ceil)"},
    {MU_CEIL_ONE, 0, NULL, NULL, "single-block", "one block instead of enough to cover n"},
    {MU_REPLACE, 0, "blockIdx.x * blockDim.x + threadIdx.x", "threadIdx.x", "thread-index",
     "threadIdx.x for the global index"},
    {MU_REPLACE, 0, "blockIdx.x * BLOCK + t;", "t;", "thread-index", "the thread index for the global index"},
    {MU_REPLACE, 0, "blockIdx.x * BLOCK + tx;", "tx;", "thread-index", "the thread index for the global index"},
    {MU_REPLACE, 0, "blockIdx.x * width + t;", "t;", "thread-index", "the thread index for the global index"},
    {MU_REPLACE, 0, "blockIdx.x * blockDim.x + tx;", "tx;", "thread-index", "the thread index for the global index"},
    {MU_REPLACE, 1, "blockIdx.x * blockDim.x + threadIdx.x", "threadIdx.x * gridDim.x + blockIdx.x", "uncoalesced",
     "neighbouring threads take elements gridDim.x apart"},
    {MU_REPLACE, 2, "blockIdx.x * blockDim.x + threadIdx.x", "threadIdx.x * gridDim.x + blockIdx.x", "uncoalesced",
     "neighbouring threads take elements gridDim.x apart"},
    {MU_REPLACE, 3, "blockIdx.x * blockDim.x + threadIdx.x", "threadIdx.x * gridDim.x + blockIdx.x", "uncoalesced",
     "neighbouring threads take elements gridDim.x apart"},
    /* chapter 1 */
    {MU_REPLACE, 1, "n - 1 - i]", "n - i]", "off-by-one", "n - i instead of n - 1 - i"},
    {MU_REPLACE, 1, "n - 1 - src]", "n - src]", "off-by-one", "n - src instead of n - 1 - src"},
    {MU_REPLACE, 1, "tile[BLOCK - 1 - t] = in[i]", "tile[t] = in[i]", "off-by-one", "the tile not reversed"},
    /* chapter 2 */
    /* Only where every thread takes the test: in the shared variants only thread 0 of a block does, at
     * an i that is a multiple of BLOCK, where i > 1 and i > 0 agree (an equivalent mutant). */
    {MU_REPLACE, 2, "input[i] - (i > 0 ? input[i - 1] : 0)", "input[i] - (i > 1 ? input[i - 1] : 0)", "off-by-one",
     "i > 1 for i > 0"},
    {MU_REPLACE, 2, "tile[tx] - tile[tx - 1]", "tile[tx] - input[i - 1]", "none",
     "the neighbour from global memory (equivalent: a survivor by design)"},
    {MU_REPLACE, 2, "result[i] = tile[0] - (i > 0 ? input[i - 1] : 0);", "result[i] = tile[0];", "tile-edge",
     "the neighbour across the tile edge left out"},
    /* chapter 3 */
    {MU_ATOMIC_PLAIN, 3, NULL, NULL, "lost-updates", "atomicAdd becomes a plain +="},
    {MU_REPLACE, 3, "partial = 0;", "partial = 1;", "identity", "the block's partial sum starts at 1"},
    {MU_REPLACE, 3, "long long acc = 0;", "long long acc = 1;", "identity", "the accumulator starts at 1"},
    {MU_REPLACE, 3, "long long acc = 0;", "int acc = 0;", "index-overflow", "a 32-bit accumulator"},
    {MU_REPLACE, 3, "cudaMemsetAsync(s->d_result, 0,", "cudaMemsetAsync(s->d_result, 1,", "identity",
     "the result not zeroed (bytes of 1)"},
    {MU_REPLACE, 3, "lane < BLOCK / WARP ? warp_totals[lane] : 0", "warp_totals[lane]", "out-of-bounds",
     "every lane reads a warp total (past the array)"},
    /* chapter 4 */
    {MU_REPLACE, 4, "float sum = 0.0f;", "float sum = 1.0f;", "identity", "the dot product starts at 1"},
    {MU_REPLACE, 4, "row < M && a_col < K ? A[row * K + a_col] : 0.0f", "A[row * K + a_col]", "tile-edge",
     "the A tile loaded without its bounds check"},
    {MU_REPLACE, 4, "b_row < K && col < N ? B[b_row * N + col] : 0.0f", "B[b_row * N + col]", "tile-edge",
     "the B tile loaded without its bounds check"},
    {MU_REPLACE, 4, "if (c + 1 < cols) v.y", "v.y", "tile-edge", "a guarded load loses one bounds check"},
    {MU_REPLACE, 4, "if (c + 3 < cols) v.w", "v.w", "tile-edge", "a guarded load loses one bounds check"},
    {MU_REPLACE, 4, "if (c + 2 < cols) p[c + 2]", "p[c + 2]", "out-of-bounds", "a guarded store loses one bounds check"},
    {MU_SWAP, 4, "blockIdx.x", "blockIdx.y", "row-col-swap", "blockIdx.x and blockIdx.y swapped"},
    {MU_REPLACE, 4, "sum += As[ty][k] * Bs[k][tx]", "sum += As[k][ty] * Bs[tx][k]", "row-col-swap",
     "the shared tiles read transposed"},
    {MU_REPLACE, 4, "C[row * N + col] = sum", "C[col * M + row] = sum", "row-col-swap", "C written column-major"},
    {MU_REPLACE, 4, "[BM + A_PAD]", "[BM]", "padding", "the A tile's padding removed (bank conflicts)"},
    {MU_REPLACE, 4, "phase < (K + TILE_WIDTH - 1) / TILE_WIDTH", "phase < K / TILE_WIDTH", "tail",
     "the last partial phase of K dropped"},
    {MU_REPLACE, 4, "k < K; k++) sum", "k <= K; k++) sum", "out-of-bounds", "k <= K in the dot product"},
    /* chapter 5 */
    {MU_REPLACE, 5, "float v = INFINITY;", "float v = 0.0f;", "identity", "the min starts at 0"},
    {MU_REPLACE, 5, "v[ib][jb] = INFINITY;", "v[ib][jb] = 0.0f;", "identity", "the mins start at 0"},
    {MU_REPLACE, 5, "if (i >= n || j >= n) return;", "", "out-of-bounds", "the bounds check removed"},
    {MU_REPLACE, 5, "i >= n || j >= n", "i > n || j > n", "out-of-bounds", ">= becomes > in the bounds test"},
    {MU_REPLACE, 5, "r[n * i + j] = v;", "r[n * j + i] = v;", "row-col-swap", "the result written transposed"},
    {MU_REPLACE, 5, "d[n * k + j]", "d[n * j + k]", "row-col-swap", "the second operand read along a row"},
    {MU_REPLACE, 5, "k < n; ++k)", "k < n - 1; ++k)", "off-by-one", "the last k left out"},
    /* chapter 4, async-copy (after chapter 5: a mutant's id is its op's index, and earlier ids stay) */
    {MU_DELETE_LINE, 4, "cp_async_wait_all();", NULL, "race", "a slice read before its copies have landed"},
    {MU_REPLACE, 4, "bool in = r < M && c < K;", "bool in = c < K;", "tile-edge",
     "the copy of A loses its row check"},
    {MU_REPLACE, 4, "copy_slice((s + 1) * BK, cur ^ 1)", "copy_slice((s + 1) * BK, cur)", "race",
     "the next slice copied into the buffer being read"},
};
const int mu_n_ops = sizeof mu_ops / sizeof mu_ops[0];

/* The end of a call's argument list: the offset of its ')' from the '(' at open, and the first
 * top-level comma (0 if none); -1 if unbalanced. */
static long mu_call_end(const char *t, size_t len, size_t open, size_t *comma)
{
    int depth = 0;
    *comma = 0;
    for (size_t i = open; i < len; i++) {
        if (t[i] == '(') depth++;
        else if (t[i] == ')' && --depth == 0) return (long)i;
        else if (t[i] == ',' && depth == 1 && !*comma) *comma = i;
    }
    return -1;
}

static const char *mu_needle(const mu_op *op)
{
    switch (op->kind) {
    case MU_CEIL_FLOOR:
    case MU_CEIL_ONE: return "wb_ceil_div(";
    case MU_ATOMIC_PLAIN: return "atomicAdd(";
    default: return op->a;
    }
}

int mu_find(const mu_op *op, const char *text, size_t len, size_t *at, int max)
{
    const char *needle = mu_needle(op);
    size_t nl = strlen(needle);
    int n = 0;
    if (op->kind == MU_SWAP) { /* one mutant: every a and b exchanged */
        const char *p = memmem(text, len, op->a, strlen(op->a)), *q = memmem(text, len, op->b, strlen(op->b));
        if (p && q && max > 0) at[n++] = 0;
        return n;
    }
    for (size_t i = 0; i + nl <= len && n < max; i++) {
        if (memcmp(text + i, needle, nl)) continue;
        /* wb_ceil_div( inside another wb_ceil_div( is the same launch: only the outer one */
        if ((op->kind == MU_CEIL_FLOOR || op->kind == MU_CEIL_ONE) && n && i < at[n - 1] + 40) continue;
        at[n++] = i;
    }
    return n;
}

/* a + middle + b, as a malloc'd string. */
static char *mu_join(const char *t, size_t cut, const char *mid, size_t midlen, const char *rest, size_t restlen)
{
    char *o = malloc(cut + midlen + restlen + 1);
    if (!o) return NULL;
    memcpy(o, t, cut);
    memcpy(o + cut, mid, midlen);
    memcpy(o + cut + midlen, rest, restlen);
    o[cut + midlen + restlen] = 0;
    return o;
}

static char *mu_swap(const mu_op *op, const char *t, size_t len)
{
    size_t la = strlen(op->a), lb = strlen(op->b), cap = len * 2 + 1, n = 0;
    char *o = malloc(cap);
    if (!o) return NULL;
    for (size_t i = 0; i < len;) {
        if (i + la <= len && !memcmp(t + i, op->a, la)) memcpy(o + n, op->b, lb), n += lb, i += la;
        else if (i + lb <= len && !memcmp(t + i, op->b, lb)) memcpy(o + n, op->a, la), n += la, i += lb;
        else o[n++] = t[i++];
    }
    o[n] = 0;
    return o;
}

char *mu_apply(const mu_op *op, const char *t, size_t len, size_t at)
{
    if (op->kind == MU_SWAP) return mu_swap(op, t, len);
    const char *needle = mu_needle(op);
    size_t nl = strlen(needle);
    if (at + nl > len || memcmp(t + at, needle, nl)) return NULL;
    if (op->kind == MU_REPLACE)
        return mu_join(t, at, op->b, strlen(op->b), t + at + nl, len - at - nl);
    if (op->kind == MU_DELETE_LINE) {
        size_t b = at, e = at + nl;
        while (b > 0 && t[b - 1] != '\n') b--;
        while (e < len && t[e] != '\n') e++;
        if (e < len) e++;
        return mu_join(t, b, "", 0, t + e, len - e);
    }
    size_t open = at + nl - 1, comma;
    long close = mu_call_end(t, len, open, &comma);
    if (close < 0 || !comma) return NULL;
    const char *x = t + open + 1, *y = t + comma + 1;
    int xl = (int)(comma - open - 1), yl = (int)((size_t)close - comma - 1);
    while (yl > 0 && *y == ' ') y++, yl--;
    char mid[600];
    if (op->kind == MU_CEIL_FLOOR) snprintf(mid, sizeof mid, "(%.*s) / (%.*s)", xl, x, yl, y);
    else if (op->kind == MU_CEIL_ONE) snprintf(mid, sizeof mid, "1");
    else if (*x == '&') snprintf(mid, sizeof mid, "%.*s += %.*s", xl - 1, x + 1, yl, y);
    else snprintf(mid, sizeof mid, "*%.*s += %.*s", xl, x, yl, y);
    return mu_join(t, at, mid, strlen(mid), t + close + 1, len - (size_t)close - 1);
}
