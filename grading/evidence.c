/* evidence.c — see evidence.h. */
#define _GNU_SOURCE 1
#include "evidence.h"
#include "correctness.h"
#include "sanitize.h"
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
    gr_safe_name(out, len, out, ".-");
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
    gr_cmd_init(&cmd, x, j->s, dir, limit, GR_RUN_MEASURED);
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

/* Profiles `variant` of the student's build and of the reference into e (sets e->ctr whatever happens): its `kernels`
 * alone (comma-separated, from the reference's --list), none named: nothing measured. */
static void gr_slow_counters(const gr_chjob *j, const char *variant, const char *kernels, gr_diag_ev *e)
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

#define GR_REPEATS 3

/* The wrong size to repeat: the largest that came out wrong (a race needs many blocks to show), but
 * at most ~2^22 elements so three runs stay cheap. -1 if none. */
static int gr_repeat_size(const gr_diag_ev *e)
{
    int best = -1;
    long long bv = -1;
    for (int s = 0; s < e->n_sizes; s++) {
        const gr_size_ev *z = &e->size[s];
        if (z->out != GR_SZ_WRONG) continue;
        long long v = 1;
        for (int d = 0; d < z->nd; d++) v *= z->dims[d];
        if (v > (1LL << 22)) continue;
        if (v > bv) bv = v, best = s;
    }
    return best;
}

/* 1 if three runs of one input gave different bytes, 0 if they agreed, -1 if they could not be compared. */
static int gr_repeats(const gr_chjob *j, const char *variant, int s)
{
    const gr_chapter_rubric *ch = j->ch;
    /* a short limit: the size came out wrong, not late, in a run of all of them */
    const gr_dump_chunk k = {j->x->seeds[0], s, 1, gr_confirm_limit(&j->x->rub, 0)};
    char *first = NULL;
    size_t flen = 0;
    int res = 0;
    for (int i = 0; i < GR_REPEATS && !res; i++) {
        if (gr_budget_spent(j->s->budget, NULL, 0)) { /* not all three: no comparison */
            res = -1;
            break;
        }
        char dir[PATH_MAX], what[96], p[PATH_MAX];
        snprintf(dir, sizeof dir, "%s/rep-%s-%d", j->work, variant, i);
        snprintf(what, sizeof what, "ch%d %s repeat %d", ch->number, variant, i + 1);
        gr_cmd c;
        gr_run_result r;
        gr_dump_run(j, &k, j->stu, variant, dir, what, &c, &r);
        gr_run_result_free(&r);
        wb_dump_path(p, sizeof p, dir, variant, ch->edge[s].canon);
        long long n = gr_file_size(p);
        size_t len = 0;
        char *got = n >= 0 ? gr_read_capped(p, (size_t)n + 1, &len) : NULL;
        gr_rmtree(dir);
        if (!got) res = -1;
        else if (!first) first = got, flen = len;
        else {
            res = len != flen || memcmp(got, first, len);
            free(got);
        }
    }
    free(first);
    return res;
}

void gr_evidence(const gr_chjob *j, const gr_prog_variant *pv, int npv)
{
    const gr_config *x = j->x;
    gr_ch_result *cr = j->cr;
    for (int v = 0; v < cr->n_v; v++) {
        gr_var_result *r = &cr->v[v];
        gr_diag_ev *e = &r->ev;
        if (r->verdict == GR_V_NOT_RUN || r->verdict == GR_V_SELF_PASS || r->verdict == GR_V_SELF_FAIL) continue;
        /* not run here, or its program said so where the reference ran: nothing of it to repeat or profile */
        if (r->seen.avail != GR_AVAIL_RUNS) continue;
        if (gr_var_failed(r)) {
            int s = gr_repeat_size(e);
            if (s >= 0) e->repeats = gr_repeats(j, r->name, s);
            /* memcheck first; racecheck only when memcheck saw nothing (a wrong result with a clean
             * memcheck is often a missing barrier that the repeats happened not to show) */
            static const char *const tools[] = {"memcheck", "racecheck"};
            for (int t = 0; t < 2 && gr_var_feedback_sanitized(r) && !x->no_san && x->sanitizer[0]; t++) {
                char first[500];
                if (gr_sanitize_one(j, tools[t], r->name, first, sizeof first) == 1) {
                    snprintf(r->san, sizeof r->san, "%s at size %s: %s", tools[t], j->ch->sanitizer_size.text, first);
                    r->san_state = GR_SANV_FEEDBACK_FINDING; /* a failing variant: scored runs never had it */
                }
            }
        }
        if (gr_sanv_found(r->san_state)) {
            e->san = gr_san_kind_of(r->san);
            /* the finding's own line, without the tool's prefixes ("memcheck: ", "========= ", "Error: ") */
            const char *line = strstr(r->san, ": ");
            line = line ? line + 2 : r->san;
            line += strspn(line, "= ");
            if (!strncmp(line, "Error: ", 7)) line += 7;
            snprintf(e->san_first, sizeof e->san_first, "%.*s", (int)strcspn(line, "\n"), line);
        }
        double slow = x->rub.n_bands ? x->rub.band[0].within : GR_SLOW_RATIO;
        int host = (r->caught & 1u << GR_CAUGHT_HOST_COMPUTE) != 0; /* honesty.c measured the launcher's CPU time */
        if (host || (r->perf_ran && r->ratio > slow)) {
            e->slow = 1;
            e->stu_ms = host && r->stu_ms <= 0 ? 1 : r->stu_ms;
            e->ref_ms = r->ref_ms;
            if (host) e->cpu_ms = e->stu_ms;
        }
        if (e->slow && e->cpu_ms < 0) /* why it is slow: measured, or nothing named */
            gr_slow_counters(j, r->name, gr_prog_kernels(pv, npv, r->name), e);
        gr_diagnose(e, &r->diag);
    }
}
