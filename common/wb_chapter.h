/*
 * wb_chapter.h — a chapter as wb_main sees it (wb_chapter: its variant table and the functions on its
 * own State) and one checked run of a variant: poison, run, copy back, check; the sizes fitted to the
 * GPU; --dump's file; a result's table row and JSON line. CUDA only (included by wb.h under nvcc).
 */
#ifndef WB_CHAPTER_H
#define WB_CHAPTER_H
#ifdef __CUDACC__

#include "wb_cli.h"
#include "wb_device.h"
#include "wb_table.h"
#include "wb_timing.h"

/* ---------------------------------------------------------------- the chapter driver */

/* A chapter is its variant table plus a few functions on its own State; wb_main does the rest the same
 * way in every chapter: parse, find the GPU, check the memory fits, and for each size set up inputs
 * and the CPU reference, measure the speed of light, then for each variant poison, run once, copy
 * back, check, dump, time; then free what setup allocated. Throughputs are work / seconds / 1e9. */
typedef struct {
    wb_cli cli;
    wb_table table;
    /* Bytes of GPU memory a size needs, so too-large sizes are refused (or defaults scaled down). */
    double (*device_bytes)(const wb_size *size);
    /* Units of work one run does (bytes moved, flops, min-plus steps). */
    double (*work)(const wb_size *size);
    /* Allocate (wb_host_alloc, wb_device_alloc/copy), fill inputs from seed, compute what the check
     * needs, and describe the output. */
    void (*setup)(State *s, const wb_size *size, uint64_t seed, wb_output *out);
    /* Measure the speed of light on the same data; returns it in the chapter's unit, names it. */
    double (*speed_of_light)(State *s, int warmup, int reps, const char **name);
    /* Compare the result (copied back by wb_main) with the reference; NULL: with out->expected, exactly. */
    void (*check)(State *s, const void *result, wb_check *check);
    /* Optional: the hardware's own rate for this work (wb_peak.h), for --grading's CEILING line; NULL
     * when the speed of light already is one. */
    double (*ceiling)(State *s, int warmup, int reps, const char **name);
    void (*teardown)(State *s);   /* optional: what wb_free_all cannot release (a library handle) */
    /* Optional: --grading's timed repetitions on inputs of their own, each output checked (wb_timing.h). */
    wb_fresh fresh;
} wb_chapter;

#define WB_VARIANTS(table) .variants = table, .n_variants = WB_COUNT(table)

/* --json FILE is written to FILE.partial and renamed when the run completes (exit 0 or 1), so a run
 * that finds no GPU, fails or is stopped never empties or damages an earlier FILE. */
static char wb_json_partial[4096];
static void wb_json_discard(void)
{
    if (wb_json_partial[0]) unlink(wb_json_partial);
}

/* A default size that does not fit this GPU is halved (every extent for MxNxK) until it does, with a
 * note; an explicit --size beyond the GPU's whole memory is a usage error, one beyond what is free now
 * WB_EXIT_NO_MEMORY (another process holds the rest). Returns 0, or the exit code. */
static inline int wb_fit_sizes(const char *prog, const wb_chapter *ch, wb_options *o, const wb_device *dev)
{
    for (int s = 0; s < o->n_sizes; s++) {
        wb_size *size = &o->sizes[s];
        char before[48], after[48];
        wb_size_str(size, before, sizeof before);
        double need = ch->device_bytes(size);
        while (o->default_sizes && need > 0.95 * (double)dev->free_bytes && size->d[0] > 1) {
            for (int k = 0; k < size->dims; k++) size->d[k] = size->d[k] > 1 ? size->d[k] / 2 : 1;
            need = ch->device_bytes(size);
        }
        if (need > 0.95 * (double)dev->free_bytes) {
            fprintf(stderr, "%s: size %s needs %.2f GB of GPU memory, but only %.2f GB is free\n", prog, before,
                    need / 1e9, dev->free_bytes / 1e9);
            return need > 0.95 * (double)dev->total_bytes ? WB_EXIT_USAGE : WB_EXIT_NO_MEMORY;
        }
        wb_size_str(size, after, sizeof after);
        if (strcmp(before, after))
            fprintf(stderr, "note: the default size %s does not fit in this GPU's %.2f GB of free memory: running %s\n",
                    before, dev->free_bytes / 1e9, after);
    }
    return 0;
}

static inline void wb_print_claims(FILE *out, const wb_chapter *ch, const wb_options *o, const wb_device *dev,
                                   const char *size, const double *speedups, unsigned unavailable)
{
    int any = 0;
    for (int v = 0; v < ch->cli.n_variants; v++) {
        const char *claim = ch->cli.variants[v].claim;
        if (!claim || !(o->variant_mask & (1u << v))) continue;
        if (!any++) fprintf(out, "  the sources' claims beside this GPU (%s), size %s:\n", dev->prop.name, size);
        fprintf(out, "    %-16s claimed: %s\n    %-16s measured here: ", ch->cli.variants[v].name, claim, "");
        if (unavailable & (1u << v)) fprintf(out, "not available on this GPU\n");
        else if (speedups[v] >= 0) fprintf(out, "%.2fx the speed of %s\n", speedups[v], ch->cli.variants[0].name);
        else fprintf(out, "not timed (needs %s and this variant, both correct)\n", ch->cli.variants[0].name);
    }
}

static inline void wb_result_init(wb_result *r, const char *variant, const wb_size *size, const char *extra)
{
    memset(r, 0, sizeof *r);
    r->variant = variant;
    wb_size_str(size, r->size, sizeof r->size);
    r->ms = r->pre_ms = r->speedup = r->cpu_ms = -1;
    if (extra) snprintf(r->extra, sizeof r->extra, "%s", extra);
}

/* Copies the output back and checks it: the verdict of whatever the GPU left there. */
static inline wb_verdict wb_copy_back_check(const wb_chapter *ch, State *st, const wb_output *res, void *host,
                                            wb_check *chk)
{
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(host, res->device, wb_output_bytes(res), cudaMemcpyDeviceToHost));
    wb_check_init(chk, 0);
    if (ch->check) ch->check(st, host, chk);
    else if (res->type == WB_ELEM_I32) wb_check_i32(chk, 0, (const int32_t *)res->expected, (const int32_t *)host, res->count);
    else if (res->type == WB_ELEM_I64) wb_check_i64(chk, 0, (const int64_t *)res->expected, (const int64_t *)host, res->count);
    else wb_check_f32_exact(chk, 0, (const float *)res->expected, (const float *)host, res->count);
    return wb_check_verdict(chk);
}

static inline wb_grading_check wb_check_copy_back(const wb_chapter *ch, State *st, const wb_output *res, void *host)
{
    wb_check chk;
    return wb_copy_back_check(ch, st, res, host, &chk) == WB_PASS ? WB_CHECKED_PASS : WB_CHECKED_FAIL;
}

/* One checked run of a variant on a poisoned output. */
static inline wb_verdict wb_run_checked(const wb_chapter *ch, State *st, const wb_variant *var,
                                        const wb_output *res, void *host, wb_check *chk)
{
    wb_poison(res->device, wb_output_bytes(res));
    if (var->prepare) var->prepare(st);
    var->launch(st);
    return wb_copy_back_check(ch, st, res, host, chk);
}

/* --dump: the raw result array, written under a temporary name and renamed when whole, so that a run
 * killed partway (a time limit) leaves no truncated file that a reader would take for a result.
 * Returns 0, or WB_EXIT_IO after saying why. */
static inline int wb_dump(const char *dir, const wb_result *r, const void *host, size_t bytes, const char *prog)
{
    char path[1024], part[1040];
    int bad = wb_dump_path(path, sizeof path, dir, r->variant, r->size);
    snprintf(part, sizeof part, "%s.part", path);
    FILE *f = bad ? NULL : fopen(part, "wb");
    if (!f || fwrite(host, 1, bytes, f) != bytes || fclose(f) != 0 || rename(part, path) != 0) {
        fprintf(stderr, "%s: cannot write '%s'\n", prog, path);
        if (f) remove(part);
        return WB_EXIT_IO;
    }
    return 0;
}

/* Where a size's rows go: the table (with the check's first mismatches) and the JSON lines. */
typedef struct {
    FILE *out, *json;
    const wb_chapter *ch;
    const wb_device *dev;
    const wb_size *size;
    uint64_t seed;
} wb_emit_ctx;

static inline void wb_emit(const wb_emit_ctx *e, const wb_result *r, int reps, const wb_check *chk)
{
    wb_table_row(e->out, &e->ch->table, r);
    if (chk) wb_check_print(e->out, chk);
    if (r->timed_check == WB_CHECKED_FAIL)
        fprintf(e->out, "      the timed runs did not produce the result (each must compute it again)%s%s\n",
                r->timed_fault[0] ? ": " : "", r->timed_fault);
    if (r->rotated_check == WB_CHECKED_FAIL)
        fprintf(e->out, "      the result depends on an earlier run's input (wrong on a second input)\n");
    if (r->wrote_input)
        fprintf(e->out, "      writes its input: %s changed at element %lld (inputs are read-only; put back for the next "
                        "variant)\n", r->input_name, r->input_element);
    if (e->json) wb_json_result(e->json, e->ch->cli.id, e->dev->prop.name, e->size, e->seed, reps, &e->ch->table, r);
}

#endif /* __CUDACC__ */
#endif /* WB_CHAPTER_H */
