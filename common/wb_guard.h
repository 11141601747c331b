/*
 * wb_guard.h — the variants' inputs are read-only: after each run of a variant, every input recorded
 * by wb_device_copy is checked and, where it changed, put back (or set up again from the seed) and the
 * variant told. The pure half is wb_inputs.h. CUDA only (included by wb.h under nvcc).
 */
#ifndef WB_GUARD_H
#define WB_GUARD_H
#ifdef __CUDACC__

#include "wb_chapter.h"

/* ---------------------------------------------------------------- read-only inputs */
/* Checks, after a run of a variant, that the inputs are as generated (wb_inputs.h says why), on the GPU:
 * wb_checksum64 of each device copy, computed where it is, and 8 bytes back. Only a changed input comes
 * back whole (into a host scratch buffer as large as the largest), to find its first changed element.
 *
 * Why on the GPU: the check runs three times per variant with --grading (the checked run, after the timed
 * repetitions, the rotated run), two without, and at rubric.json's perf sizes the inputs are 256 MiB for
 * chapters 1-3 (2^26 ints). Copied back through pageable memory and summed on the host, that was the
 * largest share of a benchmark run's fixed cost, and the part that other processes' host traffic slowed
 * (issue 43: a grading on two GPUs). On the GPU a check reads 256 MiB at device bandwidth: well under a
 * millisecond on the H100. The sum's 8 bytes of device memory are taken once, before any variant runs. */
typedef struct {
    const wb_chapter *ch;
    State *st;
    const wb_size *size;
    uint64_t seed;   /* of the inputs now set up: setting them up again must give the same ones */
    wb_output *res;  /* wb_main's: a new setup describes the output anew */
    void **host;     /* wb_main's result buffer: freed and made again with the rest */
    void *scratch;
    size_t cap;
    unsigned long long *d_sum;
} wb_guard;

static inline void wb_guard_init(wb_guard *g, const wb_chapter *ch, State *st)
{
    memset(g, 0, sizeof *g);
    g->ch = ch, g->st = st;
    CUDA_CHECK(cudaMalloc(&g->d_sum, sizeof *g->d_sum));
}

static inline void wb_guard_release(wb_guard *g)
{
    free(g->scratch);
    CUDA_CHECK(cudaFree(g->d_sum));
    g->scratch = NULL, g->d_sum = NULL;
    g->cap = 0;
}

static inline void wb_guard_reserve(wb_guard *g, size_t bytes)
{
    if (g->cap >= bytes) return;
    free(g->scratch);
    if (!(g->scratch = malloc(bytes))) {
        fprintf(stderr, "out of host memory: %.2f GB for checking the inputs could not be allocated\n", bytes / 1e9);
        exit(WB_EXIT_CUDA);
    }
    g->cap = bytes;
}

__global__ void wb_checksum_kernel(const uint64_t *w, size_t words, unsigned long long *sum)
{
    unsigned long long own = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < words; i += (size_t)gridDim.x * blockDim.x)
        own += wb_checksum_term(w[i], i);
    for (int d = 16; d > 0; d /= 2) own += __shfl_down_sync(0xFFFFFFFFu, own, d);
    if ((threadIdx.x & 31) == 0) atomicAdd(sum, own);
}

/* wb_checksum64 of `bytes` bytes of device memory (cudaMalloc'd: 8-byte aligned), the tail's few bytes
 * summed on the host. */
static inline uint64_t wb_checksum64_device(const wb_guard *g, const void *device, size_t bytes)
{
    size_t words = bytes / 8;
    unsigned long long sum = 0;
    CUDA_CHECK(cudaMemset(g->d_sum, 0, sizeof *g->d_sum));
    if (words) {
        wb_checksum_kernel<<<wb_fresh_grid(words), WB_FRESH_BLOCK>>>((const uint64_t *)device, words, g->d_sum);
        LAUNCH_CHECK();
    }
    CUDA_CHECK(cudaMemcpy(&sum, g->d_sum, sizeof sum, cudaMemcpyDeviceToHost));
    if (bytes % 8) {
        uint64_t w = 0;
        CUDA_CHECK(cudaMemcpy(&w, (const char *)device + 8 * words, bytes % 8, cudaMemcpyDeviceToHost));
        sum += wb_checksum_term(w, words);
    }
    return wb_checksum_finish(sum, bytes);
}

/* The first change a variant made to an input is the one it is told about. */
static inline void wb_note_input(wb_result *r, int index, const char *name, long long element)
{
    if (r->wrote_input) return;
    r->wrote_input = 1;
    r->input_element = element < 0 ? 0 : element;
    wb_input_label(r->input_name, sizeof r->input_name, name, index);
}

/* The host original changed too: only the chapter's setup, from the same seed, makes the inputs again
 * (and with them every buffer it allocates; the variants find them all in the State). */
static inline void wb_guard_set_up_again(wb_guard *g)
{
    if (g->ch->teardown) g->ch->teardown(g->st);
    wb_free_all();
    g->ch->setup(g->st, g->size, g->seed, g->res);
    *g->host = wb_host_alloc(wb_output_bytes(g->res), "the result");
}

/* After a run of the variant r: every input whose device bytes changed is put back as generated, and the
 * variant is told "writes its input" (r->wrote_input: which, and the first changed element). */
static inline void wb_guard_inputs(wb_guard *g, wb_result *r)
{
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < wb_n_inputs; i++) {
        wb_input in = wb_inputs[i];
        uint64_t now = wb_checksum64_device(g, in.device, in.bytes);
        if (now == in.sum) continue;
        wb_guard_reserve(g, in.bytes);
        CUDA_CHECK(cudaMemcpy(g->scratch, in.device, in.bytes, cudaMemcpyDeviceToHost));
        wb_input_action a = wb_input_decide(in.sum, now, wb_checksum64(in.host, in.bytes));
        if (a == WB_INPUT_RESTORE) {
            CUDA_CHECK(cudaMemcpy(in.device, in.host, in.bytes, cudaMemcpyHostToDevice));
            wb_note_input(r, i, in.name, wb_first_diff(in.host, g->scratch, in.bytes) / (long long)in.elem_size);
            continue;
        }
        wb_guard_set_up_again(g); /* every input is as generated again: this one is compared with its new copy */
        const wb_input *again = i < wb_n_inputs ? &wb_inputs[i] : NULL;
        size_t n = again && again->bytes < in.bytes ? again->bytes : in.bytes;
        wb_note_input(r, i, in.name, again ? wb_first_diff(again->host, g->scratch, n) / (long long)in.elem_size : 0);
        return;
    }
}

#endif /* __CUDACC__ */
#endif /* WB_GUARD_H */
