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
/* Checks, after a run of a variant, that the inputs are as generated (wb_inputs.h says why). One host
 * scratch buffer as large as the largest input is reused for every check; no device memory is used.
 *
 * What it costs: per check, one device-to-host copy of every input and one checksum pass over it (on the
 * host, OpenMP), three checks per variant with --grading (the checked run, after the timed repetitions,
 * the rotated run), two without. At rubric.json's perf sizes the inputs are 256 MiB for chapters 1-3
 * (2^26 ints), 8 MiB for chapter 4 (1024^3: A and B) and 9 MB for chapter 5 (1500^2 floats). A pinned
 * copy moves 256 MiB in about 10 ms at a PCIe 5 host link's ~25 GB/s, and the checksum reads it at host
 * memory bandwidth: about 20 ms per check in chapters 1-3 (an estimate, to be measured on the H100),
 * under a millisecond in 4 and 5. Once per process, the scratch is pinned (cudaMallocHost, ~tens of ms
 * at 256 MiB), or plain malloc where pinning fails. */
typedef struct {
    const wb_chapter *ch;
    State *st;
    const wb_size *size;
    uint64_t seed;   /* of the inputs now set up: setting them up again must give the same ones */
    wb_output *res;  /* wb_main's: a new setup describes the output anew */
    void **host;     /* wb_main's result buffer: freed and made again with the rest */
    void *scratch;
    size_t cap;
    int pinned;
} wb_guard;

static inline void wb_guard_release(wb_guard *g)
{
    if (g->pinned) CUDA_CHECK(cudaFreeHost(g->scratch));
    else free(g->scratch);
    g->scratch = NULL;
    g->cap = 0;
}

static inline void wb_guard_reserve(wb_guard *g, size_t bytes)
{
    if (g->cap >= bytes) return;
    wb_guard_release(g);
    g->pinned = cudaMallocHost(&g->scratch, bytes) == cudaSuccess;
    if (!g->pinned) {
        (void)cudaGetLastError(); /* not sticky: clear it, and fall back to pageable memory */
        g->scratch = malloc(bytes);
    }
    if (!g->scratch) {
        fprintf(stderr, "out of host memory: %.2f GB for checking the inputs could not be allocated\n", bytes / 1e9);
        exit(WB_EXIT_CUDA);
    }
    g->cap = bytes;
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
        wb_guard_reserve(g, in.bytes);
        CUDA_CHECK(cudaMemcpy(g->scratch, in.device, in.bytes, cudaMemcpyDeviceToHost));
        uint64_t now = wb_checksum64(g->scratch, in.bytes);
        if (now == in.sum) continue;
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
