/*
 * wb_main.h — wb_main, the chapter driver, in its stages: parse (--help, --list, bad options: before
 * the GPU is probed), probe and fit the sizes, open --json's stream, then per size the speed of light,
 * each variant (checked, dumped, timed), --grading's second input, and the report. CUDA only (included
 * by wb.h under nvcc).
 */
#ifndef WB_MAIN_H
#define WB_MAIN_H
#ifdef __CUDACC__

#include "wb_avail.h"
#include "wb_chapter.h"
#include "wb_guard.h"
#include "wb_peak.h"

/* ---------------------------------------------------------------- wb_main's stages */
/* --list --json's launch shapes: "threads" and "dsmem", one entry per kernel named (0: not said). */
static inline void wb_list_shapes(const wb_variant *vi)
{
    int n = 0;
    for (const char *k = vi->kernels ? vi->kernels : ""; *k; k++)
        if (*k == ',') n++;
    n = vi->kernels && *vi->kernels ? n + 1 : 0;
    if (n > WB_MAX_KERNELS) n = WB_MAX_KERNELS;
    fputs(",\"" WB_JSON_THREADS "\":[", stdout);
    for (int k = 0; k < n; k++) printf("%s%d", k ? "," : "", vi->shapes[k].threads);
    fputs("],\"" WB_JSON_DSMEM "\":[", stdout);
    for (int k = 0; k < n; k++) printf("%s%ld", k ? "," : "", vi->shapes[k].dsmem);
    fputs("]", stdout);
}

/* --list --json's availability of a variant with a hook: true, false with the reason, or null (no GPU). */
static inline void wb_list_available(const wb_avail *a, int v)
{
    fputs(",\"" WB_JSON_AVAILABLE "\":", stdout);
    if (!a->asked) fputs("null", stdout);
    else if (!(a->mask & (1u << v))) fputs("true", stdout);
    else {
        fputs("false,\"" WB_JSON_UNAVAILABLE_REASON "\":", stdout);
        wb_json_string(stdout, a->why[v]);
    }
}

/* --list: one line per variant, or with --json one object per variant on stdout (machine-readable);
 * a variant this GPU cannot run says so and why (a: the hooks' answers, asked only when there are hooks). */
static inline void wb_list_variants(const wb_chapter *ch, int json, const wb_avail *a)
{
    for (int v = 0; v < ch->cli.n_variants; v++) {
        const wb_variant *vi = &ch->cli.variants[v];
        if (!json) {
            printf("%-16s %s", vi->name, vi->idea);
            if (a->mask & (1u << v)) printf(" [not available on this GPU: %s]", a->why[v]);
            printf("\n");
            continue;
        }
        fputs("{\"" WB_JSON_VARIANT "\":", stdout);
        wb_json_string(stdout, vi->name);
        fputs(",\"" WB_JSON_IDEA "\":", stdout);
        wb_json_string(stdout, vi->idea);
        fputs(",\"" WB_JSON_KERNELS "\":", stdout);
        wb_json_string(stdout, vi->kernels ? vi->kernels : "");
        wb_list_shapes(vi);
        if (vi->unavailable) wb_list_available(a, v);
        fputs("}\n", stdout);
    }
}

/* --list's answers: a chapter without hooks never touches the GPU; one with hooks asks a GPU when there
 * is one, and lists without availability when there is none. */
static inline void wb_list_avail(const wb_chapter *ch, wb_avail *a)
{
    wb_device dev;
    char why[256];
    int found = wb_avail_hooks(&ch->cli) && wb_device_probe(&dev, why, sizeof why) == 0;
    wb_avail_find(&ch->cli, found ? &dev : NULL, a);
}

/* Parse: the options, and what is answered before the GPU is probed (--help, --list, every bad option).
 * Returns -1 to go on, else the exit code. */
static inline int wb_main_parse(int argc, char **argv, const wb_chapter *ch, wb_options *o)
{
    char err[256];
    if (wb_parse_args(argc, argv, &ch->cli, o, err, sizeof err)) {
        fprintf(stderr, "%s: %s (try --help)\n", argv[0], err);
        return WB_EXIT_USAGE;
    }
    if (o->help) {
        wb_usage(stdout, argv[0], &ch->cli);
        return WB_EXIT_PASS;
    }
    if (o->list) {
        wb_avail a;
        wb_list_avail(ch, &a);
        wb_list_variants(ch, o->json_path != NULL, &a);
        return WB_EXIT_PASS;
    }
    if (wb_check_output_paths(o, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", argv[0], err);
        return WB_EXIT_USAGE;
    }
    return -1;
}

/* Opens --json's stream: stdout for "-", else FILE.partial (renamed by wb_json_close). 0, or the exit code. */
static inline int wb_json_open(const char *prog, const wb_options *o, FILE **json)
{
    *json = NULL;
    if (o->json_path && strcmp(o->json_path, "-") == 0) *json = stdout;
    else if (o->json_path) {
        if (snprintf(wb_json_partial, sizeof wb_json_partial, "%s.partial", o->json_path) >= (int)sizeof wb_json_partial ||
            !(*json = fopen(wb_json_partial, "w"))) {
            fprintf(stderr, "%s: cannot write '%s': %s\n", prog, o->json_path, strerror(errno));
            return WB_EXIT_IO;
        }
        atexit(wb_json_discard);
    }
    return 0;
}

/* The run completed: FILE.partial becomes FILE. 0, or WB_EXIT_IO. */
static inline int wb_json_close(const char *prog, const wb_options *o, FILE *json)
{
    if (!json || json == stdout) return 0;
    if (fclose(json) != 0 || rename(wb_json_partial, o->json_path) != 0) {
        fprintf(stderr, "%s: cannot write '%s': %s\n", prog, o->json_path, strerror(errno));
        return WB_EXIT_IO;
    }
    wb_json_partial[0] = 0;
    return 0;
}

/* One size's run: what its stages share. */
typedef struct {
    const wb_chapter *ch;
    State *st;
    const wb_options *o;
    const char *prog;
    const wb_avail *avail;        /* the variants this GPU cannot run: not run, N/A */
    wb_emit_ctx em;
    wb_guard *guard;
    wb_output res;
    void *host;
    double work;
    int sol_reps;
    wb_result ref, rs[WB_MAX_VARIANTS];
    wb_check chks[WB_MAX_VARIANTS];
    int reps_used[WB_MAX_VARIANTS];
    double speedups[WB_MAX_VARIANTS];
} wb_size_run;

/* The chapter's setup for this size from `seed`, the result buffer, and the guard pointed at them. */
static inline void wb_size_setup(wb_size_run *z, uint64_t seed)
{
    z->ch->setup(z->st, z->em.size, seed, &z->res);
    z->host = wb_host_alloc(wb_output_bytes(&z->res), "the result");
    z->guard->size = z->em.size, z->guard->seed = seed, z->guard->res = &z->res, z->guard->host = &z->host;
}

static inline void wb_size_teardown(wb_size_run *z)
{
    if (z->ch->teardown) z->ch->teardown(z->st);
    wb_free_all();
}

/* The speed of light (a table row), and with --grading --json the ceiling's line. */
static inline void wb_size_sol(wb_size_run *z)
{
    const wb_options *o = z->o;
    wb_result *ref = &z->ref;
    wb_result_init(ref, "speed of light", z->em.size, NULL);
    ref->throughput = z->ch->speed_of_light(z->st, o->warmup, z->sol_reps, &ref->variant);
    ref->is_reference = 1;
    ref->sol_pct = 100.0;
    ref->ms = z->work / (ref->throughput * 1e9) * 1e3;
    wb_emit(&z->em, ref, z->sol_reps, NULL);
    if (!o->grading || !z->em.json) return;
    wb_result ceil = *ref;
    if (z->ch->ceiling) ceil.throughput = z->ch->ceiling(z->st, o->warmup, z->sol_reps, &ceil.variant);
    ceil.is_reference = 0;
    ceil.verdict = WB_CEILING;
    ceil.ms = z->work / (ceil.throughput * 1e9) * 1e3;
    ceil.sol_pct = 100.0 * ceil.throughput / ref->throughput;
    wb_json_result(z->em.json, z->ch->cli.id, z->em.dev->prop.name, z->em.size, z->em.seed, z->sol_reps,
                   &z->ch->table, &ceil);
}

/* The check's inputs back on the device from their host originals, after the timed repetitions made
 * their own (wb_guard_inputs then finds them as generated, unless a variant changed a host original). */
static inline void wb_inputs_put_back(void)
{
    for (int i = 0; i < wb_n_inputs; i++)
        CUDA_CHECK(cudaMemcpy(wb_inputs[i].device, wb_inputs[i].host, wb_inputs[i].bytes, cudaMemcpyHostToDevice));
}

/* Times variant v into r: with --grading and a chapter that makes fresh inputs, every repetition on its
 * own and checked (timed_check: all of them right); otherwise on the check's inputs, with --grading the
 * last output checked. */
static inline void wb_size_time(wb_size_run *z, const wb_variant *var, wb_result *r, int warmup, int reps)
{
    const wb_options *o = z->o;
    State *state = z->st;
    if (o->grading && z->ch->fresh.renew && z->ch->fresh.verify) {
        wb_fresh_times t;
        wb_time_fresh(&z->ch->fresh, state, o->seed, var->launch, var->prepare, warmup, reps, &z->res, &t);
        wb_inputs_put_back();
        r->ms = t.ms, r->pre_ms = t.pre_ms, r->cpu_ms = t.cpu_ms, r->rep_wall_ms = t.rep_wall_ms;
        r->timed_check = t.fault == WB_FAULT_NONE ? WB_CHECKED_PASS : WB_CHECKED_FAIL;
        if (t.fault != WB_FAULT_NONE) wb_fault_str(t.fault, reps, r->timed_fault, sizeof r->timed_fault);
        return;
    }
    if (var->prepare) r->pre_ms = wb_time_median_ms(var->prepare, state, warmup, reps);
    r->ms = wb_time_ms([&] { var->launch(state); }, warmup, reps, o->grading ? &z->res : NULL,
                       o->grading ? &r->cpu_ms : NULL);
    if (o->grading) r->timed_check = wb_check_copy_back(z->ch, state, &z->res, z->host);
}

/* Variant v: poison, run once, copy back, check, dump, then time it (a variant still TODO is not timed).
 * Returns 0, or WB_EXIT_IO when the dump cannot be written. */
static inline int wb_size_variant(wb_size_run *z, int v, double *first_ms)
{
    const wb_options *o = z->o;
    const wb_variant *var = &z->ch->cli.variants[v];
    State *state = z->st;
    wb_result *r = &z->rs[v];
    wb_result_init(r, var->name, z->em.size, var->extra);
    z->reps_used[v] = 0;
    if (z->avail->mask & (1u << v)) { /* not run at all: its row and line say why */
        r->verdict = WB_UNAVAILABLE;
        snprintf(r->unavailable_reason, sizeof r->unavailable_reason, "%s", z->avail->why[v]);
        z->speedups[v] = -1;
        if (!o->grading) wb_emit(&z->em, r, 0, NULL);
        return 0;
    }
    r->verdict = wb_run_checked(z->ch, state, var, &z->res, z->host, &z->chks[v]);
    if (o->dump_dir && wb_dump(o->dump_dir, r, z->host, wb_output_bytes(&z->res), z->prog)) return WB_EXIT_IO;
    wb_guard_inputs(z->guard, r); /* after the dump: setting the inputs up again makes a new `host` */
    z->reps_used[v] = o->reps;
    if (r->verdict != WB_TODO) {
        int reps = o->reps, warmup = o->warmup;
        if (!o->reps_given) wb_budget_reps(var->launch, state, &warmup, &reps);
        wb_size_time(z, var, r, warmup, reps);
        wb_guard_inputs(z->guard, r);
        z->reps_used[v] = reps;
        r->throughput = z->work / (r->ms * 1e-3) / 1e9;
        r->sol_pct = 100.0 * r->throughput / z->ref.throughput;
        if (v == 0) *first_ms = r->ms;
        if (*first_ms > 0) r->speedup = *first_ms / r->ms;
    }
    if (r->wrote_input) r->verdict = WB_FAIL;
    z->speedups[v] = r->speedup;
    if (!o->grading) wb_emit(&z->em, r, z->reps_used[v], &z->chks[v]);
    return 0;
}

/* --grading: each variant once more, on other inputs: a result kept from before is wrong. */
static inline void wb_size_rotated(wb_size_run *z)
{
    wb_size_setup(z, z->o->seed ^ WB_ROTATED_SEED);
    for (int v = 0; v < z->ch->cli.n_variants; v++) {
        if (!(z->o->variant_mask & (1u << v))) continue;
        wb_result *r = &z->rs[v];
        if (r->verdict == WB_UNAVAILABLE) {
            wb_emit(&z->em, r, 0, NULL);
            continue;
        }
        if (r->verdict != WB_TODO) {
            wb_check again;
            int ok = wb_run_checked(z->ch, z->st, &z->ch->cli.variants[v], &z->res, z->host, &again) == WB_PASS;
            wb_guard_inputs(z->guard, r);
            r->rotated_check = ok ? WB_CHECKED_PASS : WB_CHECKED_FAIL;
            if (r->timed_check == WB_CHECKED_FAIL || !ok || r->wrote_input) r->verdict = WB_FAIL;
        }
        wb_emit(&z->em, r, z->reps_used[v], &z->chks[v]);
    }
    wb_size_teardown(z);
}

/* Run the variants on one size: WB_EXIT_PASS, WB_EXIT_WRONG, or WB_EXIT_IO. */
static inline int wb_run_size(wb_size_run *z)
{
    const wb_options *o = z->o;
    wb_size_setup(z, o->seed);
    z->work = z->ch->work(z->em.size);
    wb_size_sol(z);
    double first_ms = -1;
    for (int v = 0; v < z->ch->cli.n_variants; v++) {
        z->speedups[v] = -1;
        if (!(o->variant_mask & (1u << v))) continue;
        int io = wb_size_variant(z, v, &first_ms);
        if (io) return io;
    }
    wb_size_teardown(z);
    if (o->grading) wb_size_rotated(z);
    int status = WB_EXIT_PASS;
    for (int v = 0; v < z->ch->cli.n_variants; v++)
        if ((o->variant_mask & (1u << v)) && z->rs[v].verdict != WB_PASS && z->rs[v].verdict != WB_UNAVAILABLE)
            status = WB_EXIT_WRONG;
    if (o->claims) wb_print_claims(z->em.out, z->ch, o, z->em.dev, z->ref.size, z->speedups, z->avail->mask);
    return status;
}

/* Parse, probe the GPU (and fit the sizes to it), open the outputs, run every size, report. */
static inline int wb_main(int argc, char **argv, const wb_chapter *ch, State *state)
{
    wb_options o;
    int rc = wb_main_parse(argc, argv, ch, &o);
    if (rc >= 0) return rc;
    /* OpenMP threads (the fills, chapter 4's reference) must not spin on other cores after their work:
     * --grading counts the whole process's CPU time inside the launchers (honesty's host-compute). */
    setenv("OMP_WAIT_POLICY", "PASSIVE", 0);
    wb_device dev;
    wb_device_init(&dev);
    wb_grading = o.grading;
    wb_avail avail;
    wb_avail_find(&ch->cli, &dev, &avail); /* once, before any size: the answer is the GPU's and the build's */
    if ((rc = wb_fit_sizes(argv[0], ch, &o, &dev))) return rc;
    FILE *json;
    if ((rc = wb_json_open(argv[0], &o, &json))) return rc;
    FILE *out = json == stdout ? stderr : stdout; /* keep stdout pure JSON when asked for it there */
    fprintf(out, "%s — %s\nGPU: %s (sm_%d%d, %d SMs, %.1f GB), seed %llu, median of %d runs after %d warm-up\n",
            ch->cli.id, ch->cli.title, dev.prop.name, dev.prop.major, dev.prop.minor,
            dev.prop.multiProcessorCount, dev.total_bytes / 1e9, (unsigned long long)o.seed, o.reps, o.warmup);
    wb_table_header(out, &ch->table);
    int status = WB_EXIT_PASS;
    wb_guard guard;
    wb_guard_init(&guard, ch, state);
    for (int s = 0; s < o.n_sizes; s++) {
        wb_size_run z = {};
        z.ch = ch, z.st = state, z.o = &o, z.prog = argv[0], z.guard = &guard, z.avail = &avail;
        /* The speed of light and the ceiling are the GPU's, not the variants': a median of the default 20
         * runs is enough, and the grader's high --reps (its wall-clock cross-check) need not repeat them. */
        z.sol_reps = o.reps < WB_SOL_REPS ? o.reps : WB_SOL_REPS;
        z.em = (wb_emit_ctx){out, json, ch, &dev, &o.sizes[s], o.seed};
        rc = wb_run_size(&z);
        if (rc == WB_EXIT_IO) return rc;
        if (rc != WB_EXIT_PASS) status = rc;
    }
    wb_guard_release(&guard);
    fprintf(out, "%s\n", status == WB_EXIT_PASS ? "PASS" : "FAIL");
    rc = wb_json_close(argv[0], &o, json);
    return rc ? rc : status;
}

#endif /* __CUDACC__ */
#endif /* WB_MAIN_H */
