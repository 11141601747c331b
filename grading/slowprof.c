/* slowprof.c — see slowprof.h. */
#define _GNU_SOURCE 1
#include "slowprof.h"
#include "gpu.h"
#include "wb_inputs.h"

int gr_ctr_room(const gr_budget *b)
{
    return !b || (b->cap_chapter - b->chapter >= 2 * GR_CTR_RUN_S && b->cap_submission - b->submission >= 2 * GR_CTR_RUN_S);
}

int gr_ctr_cache_name(const char *gpu, unsigned long long build, int chapter, const char *variant, const char *size,
                      char *out, size_t len)
{
    int n = snprintf(out, len, "%s_%016llx_ch%d_%s_%s.csv", gpu, build, chapter, variant, size);
    if (n < 0 || (size_t)n >= len) return -1;
    for (char *p = out; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '.' && *p != '-') *p = '_';
    return 0;
}

/* The file keeping the reference's counters for this GPU model, build, variant and size, its lock taken (the
 * caller closes the fd returned); -1 without a model name, a readable reference or a writable build/counters/
 * (then each grading profiles the reference, as without a cache). */
static int gr_ctr_cache_lock(const gr_chjob *j, const char *variant, char *path, size_t len)
{
    char model[256], name[PATH_MAX];
    gr_gpu_name(j->x->gpu, model, sizeof model);
    size_t bytes;
    char *build = gr_read_capped(j->ref, (size_t)1 << 30, &bytes);
    int ok = model[0] && build &&
             !gr_ctr_cache_name(model, wb_checksum64(build, bytes), j->ch->number, variant, j->ch->perf_size.canon, name,
                                sizeof name);
    free(build);
    char dir[PATH_MAX], lock[PATH_MAX + 8];
    snprintf(dir, sizeof dir, "%s/build/counters", j->x->root);
    if (!ok || (gr_mkdirs(dir, 0755) && !gr_is_dir(dir))) return -1;
    snprintf(path, len, "%s/%s", dir, name);
    snprintf(lock, sizeof lock, "%s.lock", path);
    return gr_lock_alone(lock);
}

/* One profiled run of prog's variant within limit seconds; its counters into c, its wall time into *wall
 * (NULL: not wanted); keep: where ncu's output is kept when it gave counters (NULL: nowhere). */
static gr_ctr_status gr_ctr_run(const gr_chjob *j, const gr_ctr_req *q, const char *who, double limit, gr_ctr *c,
                                double *wall, const char *keep)
{
    const gr_config *x = j->x;
    char dir[PATH_MAX], what[96], args[GR_CTR_ARGS][GR_CTR_ARG];
    int n = gr_ctr_argv(q, args, GR_CTR_ARGS);
    if (n < 0) return GR_CTR_FAILED;
    snprintf(dir, sizeof dir, "%s/ctr-%s-%s", j->work, who, q->variant);
    gr_rmtree(dir);
    gr_mkdirs(dir, 0755);
    gr_cmd cmd;
    gr_cmd_init(&cmd, x, j->s, dir, limit, 1);
    cmd.o.out_cap = GR_CTR_OUT_CAP;
    cmd.o.no_bwrap |= j->s->san->mode == GR_SAN_UID; /* ncu needs what compute-sanitizer needs of the host */
    for (int i = 0; i < n; i++) gr_arg(&cmd, "%s", args[i]);
    gr_cmd_ro(&cmd, q->prog);
    gr_cmd_ro(&cmd, q->ncu);
    snprintf(what, sizeof what, "ch%d %s counters %s", j->ch->number, who, q->variant);
    gr_run_result r;
    gr_exec(&cmd, &r, what);
    if (wall) *wall = r.wall_s;
    gr_ctr_status st = r.timed_out ? GR_CTR_TIMEOUT : gr_ctr_parse(r.out, c);
    if (st == GR_CTR_FAILED && r.err && strstr(r.err, "ERR_NVGPUCTRPERM")) st = GR_CTR_NO_PERM;
    char tmp[PATH_MAX + 8];
    snprintf(tmp, sizeof tmp, "%s.tmp", keep ? keep : "");
    if (keep && st == GR_CTR_OK && (gr_write_file(tmp, r.out, strlen(r.out)) || rename(tmp, keep)))
        LOG(x, "cannot keep the reference's counters in %s", keep);
    gr_run_result_free(&r);
    gr_rmtree(dir);
    return st;
}

void gr_slow_counters(const gr_chjob *j, const char *variant, const char *kernels, gr_diag_ev *e)
{
    char ncu[PATH_MAX], keep[PATH_MAX] = "";
    if (!j->ref) e->ctr = GR_CTR_FAILED; /* check mode without solutions/: nothing to compare with */
    else if (gr_ctr_find_ncu(j->x->sanitizer, ncu, sizeof ncu) < 0) e->ctr = GR_CTR_NO_NCU;
    else if (!gr_ctr_room(j->s->budget)) e->ctr = GR_CTR_BUDGET;
    else {
        /* the kept file's lock before the GPU's (never the other way round): a grading that waits here for
         * another's profile of the same reference holds nothing the other needs */
        int cache = gr_ctr_cache_lock(j, variant, keep, sizeof keep);
        /* alone on the GPU, as a benchmark: another grading's kernels would add to the device's counters
         * (DRAM bytes, L2) and ncu's replays would wait on them; the pair is bounded by 2 x GR_CTR_RUN_S */
        gr_gpu_lock *l = j->s->lock;
        int alone = gr_gpu_take_for_run(l, GR_LOCK_ALONE);
        const gr_ctr_req stu = {ncu, j->stu, variant, j->ch->perf_size.text, kernels},
                         ref = {ncu, j->ref, variant, j->ch->perf_size.text, kernels};
        /* the reference first: its kernels are the fast ones; the slow student's run then gets what the
         * pair's 2 x GR_CTR_RUN_S leaves (a 49 ms kernel replayed for every pass outran 7.5 s on the H100),
         * all of it where the reference's were kept */
        double ref_s = 0;
        char *kept = cache >= 0 ? gr_read_capped(keep, GR_CTR_OUT_CAP, NULL) : NULL;
        e->ctr = kept ? gr_ctr_parse(kept, &e->ref_ctr) : GR_CTR_FAILED;
        free(kept);
        if (e->ctr == GR_CTR_OK)
            LOG(j->x, "ch%d ref counters %s: kept from an earlier grading (%s)", j->ch->number, variant, keep);
        else e->ctr = gr_ctr_run(j, &ref, "ref", GR_CTR_RUN_S, &e->ref_ctr, &ref_s, cache >= 0 ? keep : NULL);
        if (cache >= 0) close(cache);
        if (e->ctr == GR_CTR_OK) e->ctr = gr_ctr_run(j, &stu, "stu", 2 * GR_CTR_RUN_S - ref_s, &e->stu_ctr, NULL, NULL);
        if (alone) gr_gpu_release(l);
    }
}
