/* evidence.c — see evidence.h. */
#define _GNU_SOURCE 1
#include "evidence.h"
#include "correctness.h"
#include "refctr.h"
#include "sanitize.h"

/* Profiles `variant` of the reference (kept, or made now outside the submission's budget: refctr.h) and then of the
 * student's build into e (sets e->ctr whatever happens): its `kernels` alone (comma-separated, from the reference's
 * --list), none named: nothing measured. The student's run gets the limit its work derives from (gr_ctr_limit). */
static void gr_slow_counters(const gr_chjob *j, const char *variant, const char *kernels, gr_diag_ev *e)
{
    char ncu[PATH_MAX], why[200];
    double ref_s = 0, limit = 0;
    int made;
    if (!j->ref) e->ctr = GR_CTR_FAILED; /* check mode without solutions/: nothing to compare with */
    else if (gr_ctr_find_ncu(j->x->sanitizer, ncu, sizeof ncu) < 0) e->ctr = GR_CTR_NO_NCU;
    else e->ctr = gr_refctr_get(j->x, j->s, j->ch, j->ref, j->work, ncu, variant, kernels, &e->ref_ctr, &ref_s, &made);
    if (e->ctr != GR_CTR_OK) return;
    double ratio = e->ref_ms > 0 ? e->stu_ms / e->ref_ms : 0;
    if (!gr_ctr_limit(ref_s, ratio, gr_budget_left(j->s->budget), &limit, why, sizeof why)) {
        LOG(j->x, "ch%d stu counters %s: not run: %s", j->ch->number, variant, why);
        e->ctr = GR_CTR_BUDGET;
        return;
    }
    LOG(j->x, "ch%d stu counters %s: limit %s", j->ch->number, variant, why);
    /* alone on the GPU, as a benchmark: another grading's kernels would add to the device's counters (DRAM bytes,
     * L2) and ncu's replays would wait on them */
    int alone = gr_gpu_take_for_run(j->s->lock, GR_LOCK_ALONE);
    const gr_ctr_req stu = {ncu, j->stu, variant, j->ch->perf_size.text, kernels};
    e->ctr = gr_ctr_exec(j->x, j->s, j->ch->number, j->work, &stu, "stu", limit, &e->stu_ctr, NULL, NULL);
    if (alone) gr_gpu_release(j->s->lock);
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
