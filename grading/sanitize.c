/* sanitize.c — see sanitize.h. */
#define _GNU_SOURCE 1
#include "sanitize.h"
#include "children.h"
#include "gpu.h"
#include "submission.h"

/* A student's run of tool gets a limit derived from the probe's time of the chapter's reference (budget.h). */
static double gr_san_limit(const gr_chjob *j, const char *tool)
{
    const gr_chapter_rubric *ch = j->ch;
    int t = 0;
    while (t < ch->n_tools && strcmp(ch->tools[t], tool)) t++;
    return gr_sanitizer_limit(&j->x->rub, t < ch->n_tools ? j->s->san->ref_s[ch - j->x->rub.ch][t] : 0);
}

/* One tool on `prog` (its `variants`) within `limit` seconds (0: the student's), in the sandbox the host's decision
 * gives: never a weaker one for a student (whatever the program does under the tool, there is no second try
 * elsewhere). 1: a finding, 0: clean, -1: no verdict (the time limit, or the tool did not finish: no summary; a
 * student's run that said a variant the reference runs here is not available on this GPU: it ran nothing). */
static int gr_san_run(const gr_chjob *j, const char *prog, const char *tool, const char *variants, double limit,
                      gr_run_result *r)
{
    const gr_config *x = j->x;
    const gr_chapter_rubric *ch = j->ch;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/san-%s", j->work, tool);
    gr_rmtree(dir);
    gr_mkdirs(dir, 0755);
    gr_cmd c;
    gr_cmd_init(&c, x, j->s, dir, limit > 0 ? limit : gr_san_limit(j, tool), GR_RUN_GPU);
    c.o.no_bwrap |= j->s->san->mode == GR_SAN_UID;
    const char *const argv[] = {x->sanitizer, "--tool", tool, "--error-exitcode", "86", "--print-limit", "10", prog,
                                "--variant", variants, "--size", ch->sanitizer_size.text, "--reps", "1", "--warmup", "0",
                                "--json", "san.jsonl"};
    for (size_t a = 0; a < sizeof argv / sizeof argv[0]; a++) gr_arg(&c, "%s", argv[a]);
    gr_cmd_ro(&c, prog);
    gr_cmd_ro(&c, x->sanitizer);
    char what[96];
    snprintf(what, sizeof what, "ch%d %s %s", ch->number, tool, variants);
    gr_exec(&c, r, what);
    gr_san_report rep;
    gr_san_parse(r->out, &rep);
    int finding = (r->exited && r->code == 86) || gr_san_findings(&rep) > 0;
    char rows[PATH_MAX + 16];
    snprintf(rows, sizeof rows, "%s/san.jsonl", dir);
    int dodged = !strcmp(prog, j->stu) && wb_jsonl_unavailable(rows, NULL, NULL, 0);
    gr_rmtree(dir);
    return r->timed_out || dodged || (!finding && !(rep.found_summary && r->exited && r->code == 0)) ? -1 : finding;
}

/* One run of a batch: a tool of j's chapter on prog; limit 0: the student's. */
typedef struct {
    gr_chjob j;
    const char *prog, *variants;
    int tool;
    double limit;
} gr_san_task;

/* What a run of a batch hands back from its process: the verdict, the run (out and err NULL), their text. */
typedef struct {
    int rc;
    gr_run_result r;
    char text[]; /* out, then err, GR_RUN_TEXT_MAX each */
} gr_san_back;

static void gr_san_task_child(int i, void *ctx, void *slot)
{
    const gr_san_task *k = (const gr_san_task *)ctx + i;
    size_t text_max = GR_RUN_TEXT_MAX(k->j.x->rub.out_cap); /* room for one of out and err */
    gr_san_back *b = slot;
    b->rc = gr_san_run(&k->j, k->prog, k->j.ch->tools[k->tool], k->variants, k->limit, &b->r);
    snprintf(b->text, text_max, "%s", b->r.out);
    snprintf(b->text + text_max, text_max, "%s", b->r.err);
    gr_run_result_free(&b->r);
}

/* The n runs at once, each in its own process (its own subreaper); a process that died is a run that did not
 * start, saying how it ended. */
static void gr_san_batch(const gr_config *x, const gr_san_task *task, int n, gr_run_result *res, int *f)
{
    size_t text_max = GR_RUN_TEXT_MAX(x->rub.out_cap);
    gr_children c = {.n = n, .size = sizeof(gr_san_back) + 2 * text_max, .fn = gr_san_task_child, .ctx = (void *)task};
    char *back = calloc((size_t)n + 1, c.size);
    gr_child_outcome *how = calloc((size_t)n + 1, sizeof *how);
    gr_children_run(&c, back, how);
    for (int i = 0; i < n; i++) {
        gr_san_back *b = (gr_san_back *)(back + (size_t)i * c.size);
        f[i] = b->rc;
        res[i] = b->r;
        res[i].out = strdup(b->text);
        res[i].err = strdup(b->text + text_max);
        if (how[i].end != GR_CHILD_DONE) {
            char d[100];
            gr_str why = {0};
            gr_child_describe(&how[i], d, sizeof d);
            gr_str_addf(&why, "the grader's process for this tool %s", d);
            f[i] = -1;
            res[i].start_failed = 1;
            free(res[i].err);
            res[i].err = why.s;
        }
    }
    free(back);
    free(how);
}

/* ---------------------------------------------------------------- the host's decision */
gr_san_mode gr_san_decide(const gr_san_facts *f)
{
    if (!f->installed) return GR_SAN_ABSENT;
    if (!f->probed) return GR_SAN_UNPROBED;
    if (f->finished) return GR_SAN_SANDBOX;
    if (f->bwrap && f->root && !f->fallback_skip && f->finished_uid) return GR_SAN_UID;
    return GR_SAN_SKIP;
}

/* The probe's runs: every tool on each graded chapter's reference, in a folder of the chapter's under work. */
typedef struct {
    char ref[GR_MAX_CH][PATH_MAX], dir[GR_MAX_CH][PATH_MAX];
    gr_san_task task[GR_MAX_CH * GR_MAX_TOOLS];
    gr_run_result r[GR_MAX_CH * GR_MAX_TOOLS];
    int f[GR_MAX_CH * GR_MAX_TOOLS];
} gr_probe_runs;

/* Each tool on each graded chapter's reference; 1 if all finished. Keeps the times. All at once: one chapter
 * after the other they outlasted the submission's builds, which the probe runs beside. */
static int gr_san_probe_pass(const gr_config *x, const gr_sub_state *s, const char *work, double (*ref_s)[GR_MAX_TOOLS],
                             char *why, size_t wlen)
{
    gr_probe_runs *p = calloc(1, sizeof *p);
    int n = 0, all = 1;
    for (int i = 0; i < x->rub.n_ch && i < GR_MAX_CH; i++) {
        const gr_chapter_rubric *ch = &x->rub.ch[i];
        char pristine[PATH_MAX];
        if ((x->only_ch && ch->number != x->only_ch) || !gr_pristine_path(x, ch, pristine, sizeof pristine) ||
            !gr_have_reference(x, s->work, ch, p->ref[i], PATH_MAX))
            continue;
        snprintf(p->dir[i], PATH_MAX, "%s/ch%d", work, ch->number);
        gr_mkdirs(p->dir[i], 0755);
        for (int t = 0; t < ch->n_tools; t++)
            p->task[n++] = (gr_san_task){.j = {.x = x, .s = s, .ch = ch, .ref = p->ref[i], .stu = p->ref[i],
                                               .work = p->dir[i]},
                                         .prog = p->ref[i], .variants = "all", .tool = t, .limit = x->rub.t_sanitizer};
    }
    gr_san_batch(x, p->task, n, p->r, p->f);
    for (int i = 0; i < n; i++) {
        const gr_chapter_rubric *ch = p->task[i].j.ch;
        int t = p->task[i].tool;
        gr_run_result *r = &p->r[i];
        ref_s[ch - x->rub.ch][t] = r->wall_s;
        if (p->f[i] < 0 && all) {
            char d[200], tail[300];
            gr_run_describe(r, &(gr_run_opts){.timeout_s = x->rub.t_sanitizer}, d, sizeof d);
            gr_tail_lines(r->err[0] ? r->err : r->out, 1, tail, sizeof tail);
            snprintf(why, wlen, "on the reference of chapter %d, --tool %s %s%s%s", ch->number, ch->tools[t], d,
                     *tail ? ": " : "", tail);
            all = 0;
        }
        gr_run_result_free(r);
    }
    free(p);
    return all;
}

void gr_san_probe(const gr_config *x, const gr_sub_state *within, gr_san_host *h)
{
    char work[PATH_MAX];
    gr_san_facts f = {.installed = x->sanitizer[0] != 0, .root = geteuid() == 0,
                      .fallback_skip = x->rub.san_fallback == GR_SAN_FALLBACK_SKIP};
    memset(h, 0, sizeof *h);
    char why[400] = "", why_uid[400] = "";
    f.probed = f.installed && x->mode != GR_MODE_CHECK && gr_gpu_count() > 0;
    /* a scratch folder the run uids can pass; none: GR_SAN_UNPROBED, saying why (the full limits) */
    char closed[PATH_MAX];
    int rc = f.probed ? gr_runs_mkdtemp(x->janitor, "wb-san-probe", 0711, work, sizeof work, closed, sizeof closed) : 0;
    if (rc) snprintf(why, sizeof why, "the sanitizer probe has no folder its runs can reach (%s)",
                     rc == -1 ? closed : strerror(errno));
    f.probed = f.probed && !rc;
    /* As runs of the submission whose grading asked (its hidden tree, group and lock) or of their own; a
     * reference the runs cannot reach (under /root at 0700) is staged into that work tree, else the scratch. */
    gr_sub_state probe = within ? *within : (gr_sub_state){0};
    probe.san = h;
    if (f.probed) {
        if (!probe.work[0]) snprintf(probe.work, sizeof probe.work, "%s", work);
        gr_run_opts o = {.box = x->iso.box, .no_bwrap = probe.gpu_way == GR_GPU_NO_BWRAP};
        f.bwrap = gr_run_box_here(&o) == GR_BOX_BWRAP;
        f.finished = gr_san_probe_pass(x, &probe, work, h->ref_s, why, sizeof why);
        if (!f.finished && f.bwrap && f.root && !f.fallback_skip) {
            h->mode = GR_SAN_UID; /* gr_san_run reads it: the second pass goes without bubblewrap */
            f.finished_uid = gr_san_probe_pass(x, &probe, work, h->ref_s, why_uid, sizeof why_uid);
        }
        gr_janitor_rm(x->janitor, work);
    }
    h->mode = gr_san_decide(&f);
    const char *same = "compute-sanitizer runs in the same sandbox as every run";
    if (h->mode == GR_SAN_ABSENT)
        snprintf(h->line, sizeof h->line, "compute-sanitizer not found: the sanitizer step is not run");
    else if (h->mode == GR_SAN_UNPROBED)
        snprintf(h->line, sizeof h->line, "%s (not probed: %s)", same,
                 *why ? why : x->mode == GR_MODE_CHECK ? "practice run" : "no GPU");
    else if (h->mode == GR_SAN_SANDBOX)
        snprintf(h->line, sizeof h->line, "%s (%s; probed on the references)", same,
                 f.bwrap ? "bubblewrap" : "no bubblewrap");
    else if (h->mode == GR_SAN_UID)
        snprintf(h->line, sizeof h->line,
                 "compute-sanitizer does not finish under bubblewrap here (%s): its runs go as a uid of their own "
                 "with the course files closed (sanitizer_without_bubblewrap: isolated)",
                 why);
    else
        snprintf(h->line, sizeof h->line, "the sanitizer step is skipped on this host: %s%s", *why_uid ? why_uid : why,
                 !f.bwrap          ? ""
                 : f.fallback_skip ? " (sanitizer_without_bubblewrap: skip)"
                 : !f.root         ? " (outside bubblewrap only root can keep the course files closed)"
                                   : "");
}

/* Why no variant of this chapter is sanitized here (the sanitizer, or the budget spent: in `spent`), or NULL. */
static const char *gr_san_not_here(const gr_chjob *j, char *spent, size_t len)
{
    if (!j->x->sanitizer[0]) return "compute-sanitizer not found: not checked, no points";
    if (j->s->san->mode == GR_SAN_SKIP || j->s->san->mode == GR_SAN_ABSENT) return j->s->san->line;
    return gr_budget_spent(j->s->budget, spent, len) ? spent : NULL;
}

/* The variants a scored run takes (gr_var_sanitized): names in list, indices in idx, how many returned; where the
 * sanitizer does not run here or the budget is spent, they say why not. */
static int gr_san_select(const gr_chjob *j, char *list, size_t len, int *idx)
{
    char spent[300];
    const char *not_here = gr_san_not_here(j, spent, sizeof spent);
    int n = 0;
    list[0] = 0;
    for (int v = 0; v < j->cr->n_v; v++) {
        gr_var_result *r = &j->cr->v[v];
        if (!gr_var_sanitized(r)) continue;
        if (not_here) {
            snprintf(r->san, sizeof r->san, "%s", not_here);
            continue;
        }
        r->san_state = GR_SANV_CLEAN;
        snprintf(r->san, sizeof r->san, "clean (%d tools)", j->ch->n_tools);
        r->san_pts = r->rub.sanitizer;
        size_t l = strlen(list);
        snprintf(list + l, len - l, "%s%s", l ? "," : "", r->name);
        idx[n++] = v;
    }
    return n;
}

/* A variant's finding: its first excerpt, the first finding kept; no sanitizer points. */
static void gr_san_found(gr_var_result *vr, const char *tool, const char *out, const char *if_none)
{
    if (vr->san_state != GR_SANV_FINDING) {
        char first[500];
        gr_san_first_excerpt(out, first, sizeof first);
        snprintf(vr->san, sizeof vr->san, "%s: %s", tool, first[0] || !if_none ? first : if_none);
    }
    vr->san_state = GR_SANV_FINDING;
    vr->san_pts = 0;
}

/* Settles the tool's shared run r of the variants idx[0..n), rc as gr_san_run gave it (never award what was not
 * checked). A finding costs the variants whose kernels it names (or the only one) their points. A finding no
 * kernel traces, or no verdict (one variant that dies or hangs under the tool must not cost the others their
 * points), is settled by running each alone once while the budget lasts. */
static void gr_san_settle(const gr_chjob *j, const char *tool, const gr_prog_variant *pv, int npv, const int *idx,
                          int n, const gr_run_result *r, int rc)
{
    const gr_run_opts limit = {.timeout_s = gr_san_limit(j, tool)};
    int attributed = 0;
    for (int i = 0; i < n && rc > 0; i++) {
        const char *kernels = gr_prog_kernels(pv, npv, j->cr->v[idx[i]].name);
        if (n == 1 || (*kernels && gr_san_kernel_in(r->out, kernels))) {
            attributed = 1;
            gr_san_found(&j->cr->v[idx[i]], tool, r->out, "(see the log)");
        }
    }
    for (int i = 0; i < n && !attributed; i++) {
        gr_var_result *vr = &j->cr->v[idx[i]];
        int alone = -1;
        gr_run_result one = {0};
        if (n > 1 && !gr_budget_spent(j->s->budget, NULL, 0)) alone = gr_san_run(j, j->stu, tool, vr->name, 0, &one);
        if (alone == 1) gr_san_found(vr, tool, one.out, NULL);
        if (alone < 0 && rc < 0 && vr->san_state != GR_SANV_FINDING) { /* a finding has taken the points already */
            vr->san_state = GR_SANV_UNFINISHED;
            vr->san_pts = 0;
            const gr_run_result *own = one.how[0] ? &one : r; /* its own run alone: its own words */
            char d1[200], t1[400];
            gr_run_describe(own, &limit, d1, sizeof d1);
            gr_tail_lines(own->err && own->err[0] ? own->err : own->out ? own->out : "", 3, t1, sizeof t1);
            snprintf(vr->san, sizeof vr->san, "compute-sanitizer --tool %s did not finish (%s%s): %s", tool, d1,
                     n > 1 && !one.how[0] ? "; not run alone: the GPU time was spent" : "", t1);
        }
        if (one.how[0]) gr_run_result_free(&one);
    }
    char d[200];
    gr_run_describe(r, &limit, d, sizeof d);
    if (rc < 0) LOG(j->x, "sanitizer %s did not finish: %s", tool, d);
}

void gr_sanitize(const gr_chjob *j, const gr_prog_variant *pv, int npv)
{
    char list[1024];
    int idx[GR_MAX_VAR];
    int n = gr_san_select(j, list, sizeof list, idx);
    if (!n) return;
    gr_run_result all[GR_MAX_TOOLS];
    int found[GR_MAX_TOOLS];
    gr_san_task task[GR_MAX_TOOLS];
    double held = 0;
    for (int t = 0; t < j->ch->n_tools; t++) task[t] = (gr_san_task){.j = *j, .prog = j->stu, .variants = list, .tool = t};
    gr_san_batch(j->x, task, j->ch->n_tools, all, found);
    for (int t = 0; t < j->ch->n_tools; t++) held = all[t].wall_s > held ? all[t].wall_s : held;
    gr_budget_charge(j->s->budget, held); /* the tools held the GPU together, in child processes */
    for (int t = 0; t < j->ch->n_tools; t++) {
        if (found[t]) gr_san_settle(j, j->ch->tools[t], pv, npv, idx, n, &all[t], found[t]);
        gr_run_result_free(&all[t]);
    }
}

int gr_sanitize_one(const gr_chjob *j, const char *tool, const char *variant, char *first, size_t len)
{
    char spent[300];
    first[0] = 0;
    if (gr_san_not_here(j, spent, sizeof spent)) return -1;
    gr_run_result r;
    int f = gr_san_run(j, j->stu, tool, variant, 0, &r);
    if (f == 1) gr_san_first_excerpt(r.out, first, len);
    gr_run_result_free(&r);
    return f;
}
