/* slowprof.c — see slowprof.h. */
#define _GNU_SOURCE 1
#include "slowprof.h"

int gr_ctr_room(const gr_budget *b)
{
    return !b || (b->cap_chapter - b->chapter >= 2 * GR_CTR_RUN_S && b->cap_submission - b->submission >= 2 * GR_CTR_RUN_S);
}

/* One profiled run of prog's variant within limit seconds; its counters into c, its wall time into *wall
 * (NULL: not wanted). */
static gr_ctr_status gr_ctr_run(const gr_chjob *j, const gr_ctr_req *q, const char *who, double limit, gr_ctr *c,
                                double *wall)
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
    gr_run_result_free(&r);
    gr_rmtree(dir);
    return st;
}

void gr_slow_counters(const gr_chjob *j, const char *variant, const char *kernels, gr_diag_ev *e)
{
    char ncu[PATH_MAX];
    if (!j->ref) e->ctr = GR_CTR_FAILED; /* check mode without solutions/: nothing to compare with */
    else if (gr_ctr_find_ncu(j->x->sanitizer, ncu, sizeof ncu) < 0) e->ctr = GR_CTR_NO_NCU;
    else if (!gr_ctr_room(j->s->budget)) e->ctr = GR_CTR_BUDGET;
    else {
        /* alone on the GPU, as a benchmark: another grading's kernels would add to the device's counters
         * (DRAM bytes, L2) and ncu's replays would wait on them; the pair is bounded by 2 x GR_CTR_RUN_S */
        gr_gpu_lock *l = j->s->lock;
        int alone = gr_gpu_take_for_run(l, GR_LOCK_ALONE);
        const gr_ctr_req stu = {ncu, j->stu, variant, j->ch->perf_size.text, kernels},
                         ref = {ncu, j->ref, variant, j->ch->perf_size.text, kernels};
        /* the reference first: its kernels are the fast ones; the slow student's run then gets what the
         * pair's 2 x GR_CTR_RUN_S leaves (a 49 ms kernel replayed for every pass outran 7.5 s on the H100) */
        double ref_s = 0;
        e->ctr = gr_ctr_run(j, &ref, "ref", GR_CTR_RUN_S, &e->ref_ctr, &ref_s);
        if (e->ctr == GR_CTR_OK) e->ctr = gr_ctr_run(j, &stu, "stu", 2 * GR_CTR_RUN_S - ref_s, &e->stu_ctr, NULL);
        if (alone) gr_gpu_release(l);
    }
}
