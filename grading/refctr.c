/* refctr.c — see refctr.h. */
#define _GNU_SOURCE 1
#include "refctr.h"
#include "build.h"
#include "submission.h"
#include "wb_inputs.h"

#include <math.h>

int gr_ctr_cache_name(const char *gpu, unsigned long long build, int chapter, const char *variant, const char *size,
                      char *out, size_t len)
{
    int n = snprintf(out, len, "%s_%016llx_ch%d_%s_%s.csv", gpu, build, chapter, variant, size);
    if (n < 0 || (size_t)n >= len) return -1;
    gr_safe_name(out, len, out, ".-");
    return 0;
}

/* The file keeping ref's counters for this GPU model, build, variant and size, its lock taken (the caller closes the
 * fd returned); -1 without a model name, a readable reference or a writable build/counters/ (then each grading
 * profiles the reference, as without a cache). */
static int gr_ctr_cache_lock(const gr_config *x, const gr_chapter_rubric *ch, const char *ref, const char *variant,
                             char *path, size_t len)
{
    char model[256], name[PATH_MAX];
    gr_gpu_name(x->gpu, model, sizeof model);
    size_t bytes;
    char *build = gr_read_capped(ref, (size_t)1 << 30, &bytes);
    int ok = model[0] && build &&
             !gr_ctr_cache_name(model, wb_checksum64(build, bytes), ch->number, variant, ch->perf_size.canon, name,
                                sizeof name);
    free(build);
    char dir[PATH_MAX], lock[PATH_MAX + 8];
    snprintf(dir, sizeof dir, "%s/build/counters", x->root);
    if (!ok || (gr_mkdirs(dir, 0755) && !gr_is_dir(dir))) return -1;
    snprintf(path, len, "%s/%s", dir, name);
    snprintf(lock, sizeof lock, "%s.lock", path);
    return gr_lock_alone(lock);
}

/* ncu's output kept with what it cost on its first line (the CSV reader skips lines that are no record). */
static void gr_ctr_keep(const gr_config *x, const char *keep, const char *out, double wall)
{
    char tmp[PATH_MAX + 8];
    snprintf(tmp, sizeof tmp, "%s.tmp", keep);
    FILE *f = fopen(tmp, "w");
    int bad = !f || fprintf(f, "# wb-profile-s %.3f\n", wall) < 0 || fputs(out, f) < 0;
    if ((f && fclose(f)) || bad || rename(tmp, keep)) LOG(x, "cannot keep the reference's counters in %s", keep);
}

gr_ctr_status gr_ctr_exec(const gr_config *x, const gr_sub_state *s, int chapter, const char *work, const gr_ctr_req *q,
                          const char *who, double limit, gr_ctr *c, double *wall, const char *keep)
{
    char dir[PATH_MAX], what[96];
    gr_ctr_cmd plan;
    if (gr_ctr_argv(q, &plan) < 0) return GR_CTR_FAILED;
    snprintf(dir, sizeof dir, "%s/ctr-%s-%s", work, who, q->variant);
    gr_rmtree(dir);
    gr_mkdirs(dir, 0755);
    gr_cmd cmd;
    gr_cmd_init(&cmd, x, s, dir, limit, GR_RUN_MEASURED);
    cmd.o.out_cap = GR_CTR_OUT_CAP;
    cmd.o.no_bwrap |= s->san && s->san->mode == GR_SAN_UID; /* ncu needs what compute-sanitizer needs of the host */
    for (int i = 0; i < plan.argc; i++) gr_arg_keep(&cmd, plan.argv[i]);
    gr_cmd_ro(&cmd, q->prog);
    gr_cmd_ro(&cmd, q->ncu);
    snprintf(what, sizeof what, "ch%d %s counters %s", chapter, who, q->variant);
    gr_run_result r;
    gr_exec(&cmd, &r, what);
    if (wall) *wall = r.wall_s;
    gr_ctr_status st = r.timed_out ? GR_CTR_TIMEOUT : gr_ctr_parse(r.out, c);
    if (st == GR_CTR_FAILED && r.err && strstr(r.err, "ERR_NVGPUCTRPERM")) st = GR_CTR_NO_PERM;
    if (st == GR_CTR_OK) /* the plan's cost, measured */
        LOG(x, "ch%d %s counters %s: %d launch(es) of %s, %d metrics, in %.2f s", chapter, who, q->variant,
            c->n_kernels, q->kernels, gr_ctr_launches(plan.metrics), r.wall_s);
    if (keep && st == GR_CTR_OK) gr_ctr_keep(x, keep, r.out, r.wall_s);
    gr_run_result_free(&r);
    gr_rmtree(dir);
    return st;
}

gr_ctr_status gr_refctr_get(const gr_config *x, const gr_sub_state *s, const gr_chapter_rubric *ch, const char *ref,
                            const char *work, const char *ncu, const char *variant, const char *kernels, gr_ctr *c,
                            double *ref_s, int *made)
{
    char keep[PATH_MAX] = "";
    *made = 0, *ref_s = 0;
    /* the kept file's lock before the GPU's (never the other way round): a grading that waits here for another's
     * profile of the same reference holds nothing the other needs */
    int cache = gr_ctr_cache_lock(x, ch, ref, variant, keep, sizeof keep);
    char *kept = cache >= 0 ? gr_read_capped(keep, GR_CTR_OUT_CAP, NULL) : NULL;
    /* kept without its cost (an older grader's): made again, since the student's limit derives from it */
    int costed = kept && sscanf(kept, "# wb-profile-s %lf", ref_s) == 1 && *ref_s > 0;
    gr_ctr_status st = costed ? gr_ctr_parse(kept, c) : GR_CTR_FAILED;
    free(kept);
    if (st == GR_CTR_OK)
        LOG(x, "ch%d ref counters %s: kept, %.2f s to profile (%s)", ch->number, variant, *ref_s, keep);
    else {
        gr_sub_state mine = *s;
        mine.budget = NULL; /* a product of the reference build: no student's budget pays for it */
        int alone = gr_gpu_take_for_run(mine.lock, GR_LOCK_ALONE); /* other runs' kernels would add to the counters */
        const gr_ctr_req q = {ncu, ref, variant, ch->perf_size.text, kernels};
        st = gr_ctr_exec(x, &mine, ch->number, work, &q, "ref", x->rub.t_perf, c, ref_s, cache >= 0 ? keep : NULL);
        if (alone) gr_gpu_release(mine.lock);
        *made = 1;
    }
    if (cache >= 0) close(cache);
    return st;
}

/* Chapter ch's reference counters (refctr.h's gr_refctr_make); how many are kept now. */
static int gr_refctr_chapter(const gr_config *x, gr_sub_state *s, const gr_chapter_rubric *ch, const char *ncu)
{
    char ref[PATH_MAX], pristine[PATH_MAX], dir[PATH_MAX], why[600];
    if ((x->only_ch && ch->number != x->only_ch) || !gr_pristine_path(x, ch, pristine, sizeof pristine) ||
        !gr_have_reference(x, s->work, ch, ref, sizeof ref))
        return 0;
    snprintf(dir, sizeof dir, "%s/ch%d", s->work, ch->number);
    gr_mkdirs(dir, 0755);
    gr_gpu_probe(x, s, ref, ch, dir); /* once, on the first chapter: whether the runs reach the GPU under bubblewrap */
    gr_prog_variant pv[GR_MAX_VAR];
    int npv = gr_list_variants(x, s, ref, dir, pv, GR_MAX_VAR, why, sizeof why), kept = 0, made = 0, tried = 0;
    double took = 0, longest = 0;
    for (int v = 0; v < npv; v++) {
        if (!pv[v].kernels[0] || !gr_rubric_variant(ch, pv[v].name)) continue;
        gr_ctr c;
        double sec;
        int m;
        tried++;
        gr_ctr_status st = gr_refctr_get(x, s, ch, ref, dir, ncu, pv[v].name, pv[v].kernels, &c, &sec, &m);
        if (st != GR_CTR_OK) LOG(x, "ch%d ref counters %s: %s", ch->number, pv[v].name, gr_ctr_status_name(st));
        kept += st == GR_CTR_OK;
        if (m && st == GR_CTR_OK) made++, took += sec, longest = fmax(longest, sec);
    }
    LOG(x, "ch%d reference counters: %d of %d variants kept, %d profiled now in %.1f s (the longest %.1f s)",
        ch->number, kept, tried, made, took, longest);
    return kept;
}

int gr_refctr_make(const gr_config *x)
{
    char ncu[PATH_MAX], work[PATH_MAX], closed[PATH_MAX];
    const char *none = x->mode == GR_MODE_CHECK ? "the practice run"
                       : !gr_gpu_count()  ? "no GPU"
                       : gr_ctr_find_ncu(x->sanitizer, ncu, sizeof ncu) < 0 ? "no ncu beside compute-sanitizer nor PATH"
                       : gr_runs_mkdtemp(x->janitor, "wb-ref-ctr", 0711, work, sizeof work, closed, sizeof closed)
                           ? "no scratch folder its runs can reach"
                           : NULL;
    if (none) {
        LOG(x, "reference counters: none made before the entries (%s)", none);
        return -1;
    }
    gr_gpu_lock lock;
    gr_gpu_lock_init(&lock, x->gpu);
    gr_sub_state s = {.san = &x->san, .lock = &lock, .gpu_way = x->gpu_way};
    snprintf(s.work, sizeof s.work, "%s", work);
    double t0 = gr_now();
    int kept = 0;
    for (int i = 0; i < x->rub.n_ch; i++) kept += gr_refctr_chapter(x, &s, &x->rub.ch[i], ncu);
    gr_gpu_release(&lock);
    gr_janitor_rm(x->janitor, work);
    LOG(x, "reference counters: %d variant(s) kept for this GPU, %.1f s before the first entry", kept, gr_now() - t0);
    return kept;
}
