/* sanitize.c — see sanitize.h. */
#define _GNU_SOURCE 1
#include "sanitize.h"
#include <sys/mman.h>
#include <sys/wait.h>
#include "gpu.h"
#include "submission.h"
#include "correctness.h"
#include "jsonfield.h"

/* ---------------------------------------------------------------- sanitizer */
/* The rubric's index of a chapter (the probe's times are kept in that order). */
static int gr_ch_index(const gr_config *x, const gr_chapter_rubric *ch) { return (int)(ch - x->rub.ch); }

/* The limit of a student's run of the chapter's tool t (budget.h), from the probe's time of the reference. */
static double gr_san_limit(const gr_chjob *j, int t)
{
    const gr_chapter_rubric *ch = j->ch;
    return gr_sanitizer_limit(&j->x->rub, t >= 0 && t < ch->n_tools ? j->s->san->ref_s[gr_ch_index(j->x, ch)][t] : 0);
}

/* One tool on `prog` (its `variants`) at the chapter's sanitizer size, in the sandbox the host's decision
 * gives (sanhost.h), within `limit` seconds. 1: a finding, 0: clean, -1: time limit, -2: the tool did not
 * finish (no summary). */
static int gr_san_run_once(const gr_chjob *j, const char *prog, const char *tool, const char *variants, double limit,
                           gr_run_result *r)
{
    const gr_config *x = j->x;
    const gr_chapter_rubric *ch = j->ch;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/san-%s", j->work, tool);
    gr_rmtree(dir);
    gr_mkdirs(dir, 0755);
    gr_cmd c;
    gr_cmd_init(&c, x, j->s, dir, limit, 1);
    c.o.no_bwrap |= j->s->san->mode == GR_SAN_UID;
    gr_arg(&c, "%s", x->sanitizer);
    gr_arg(&c, "--tool");
    gr_arg(&c, "%s", tool);
    gr_arg(&c, "--error-exitcode");
    gr_arg(&c, "86");
    gr_arg(&c, "--print-limit");
    gr_arg(&c, "10");
    gr_arg(&c, "%s", prog);
    gr_arg(&c, "--variant");
    gr_arg(&c, "%s", variants);
    gr_arg(&c, "--size");
    gr_arg(&c, "%s", ch->sanitizer_size);
    gr_arg(&c, "--reps");
    gr_arg(&c, "1");
    gr_arg(&c, "--warmup");
    gr_arg(&c, "0");
    gr_cmd_ro(&c, prog);
    gr_cmd_ro(&c, x->sanitizer);
    char what[96];
    snprintf(what, sizeof what, "ch%d %s %s", ch->number, tool, variants);
    gr_exec(&c, r, what);
    gr_san_report rep;
    gr_san_parse(r->out, &rep);
    int summary = rep.found_summary;
    int finding = (r->exited && r->code == 86) || gr_san_findings(&rep) > 0;
    gr_rmtree(dir);
    if (r->timed_out) return -1;
    if (!finding && !(summary && r->exited && r->code == 0)) return -2; /* the tool itself did not finish */
    return finding;
}

/* A student's run: never in a weaker sandbox than any other run (whatever the program does under the
 * tool, there is no second try elsewhere), within a limit derived from the reference's own time. */
static int gr_san_run(const gr_chjob *j, const char *tool, const char *variants, gr_run_result *r)
{
    int t = 0;
    while (t < j->ch->n_tools && strcmp(j->ch->tools[t], tool)) t++;
    return gr_san_run_once(j, j->stu, tool, variants, gr_san_limit(j, t), r);
}

/* Every tool of the chapter on `prog` at once, each in its own process (each its own subreaper); each
 * hands its result back with gr_run_result_save/load. `limit` <= 0: the student's derived limits.
 * Returns the longest run's wall time (the tools hold the GPU together). */
static double gr_san_tools(const gr_chjob *j, const char *prog, const char *variants, double limit, gr_run_result *res,
                           int *f)
{
    const gr_chapter_rubric *ch = j->ch;
    const char *work = j->work;
    pid_t pid[GR_MAX_TOOLS];
    for (int t = 0; t < ch->n_tools; t++) {
        fflush(NULL);
        pid[t] = fork();
        if (pid[t] == 0) {
            gr_run_result r;
            int rc = limit > 0 ? gr_san_run_once(j, prog, ch->tools[t], variants, limit, &r)
                               : gr_san_run(j, ch->tools[t], variants, &r);
            char p[PATH_MAX];
            snprintf(p, sizeof p, "%s/san-%s.json", work, ch->tools[t]);
            gr_run_result_save(p, rc, &r);
            fflush(NULL);
            _exit(0);
        }
    }
    double longest = 0;
    for (int t = 0; t < ch->n_tools; t++) {
        if (pid[t] > 0) waitpid(pid[t], NULL, 0);
        memset(&res[t], 0, sizeof res[t]);
        char p[PATH_MAX];
        snprintf(p, sizeof p, "%s/san-%s.json", work, ch->tools[t]);
        gr_run_result_load(p, &f[t], &res[t]);
        unlink(p);
        if (res[t].wall_s > longest) longest = res[t].wall_s;
    }
    return longest;
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

/* What one chapter's probe hands back to gr_san_probe_pass (through shared memory). */
typedef struct {
    int ran, finished;
    double ref_s[GR_MAX_TOOLS];
    char why[400];
} gr_probe_ch;

/* Every tool on one chapter's reference (gr_san_tools: the tools at once), in a folder of its own under work. */
static void gr_san_probe_chapter(const gr_config *x, const gr_sub_state *s, const char *work,
                                 const gr_chapter_rubric *ch, const char *ref, gr_probe_ch *out)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/ch%d", work, ch->number);
    gr_mkdirs(dir, 0755);
    const gr_chjob j = {.x = x, .s = s, .ch = ch, .ref = ref, .stu = ref, .work = dir};
    gr_run_result r[GR_MAX_TOOLS];
    int f[GR_MAX_TOOLS];
    gr_san_tools(&j, ref, "all", x->rub.t_sanitizer, r, f);
    out->finished = 1;
    for (int t = 0; t < ch->n_tools; t++) {
        out->ref_s[t] = r[t].wall_s;
        if (f[t] < 0 && out->finished) {
            char d[200], tail[300];
            gr_run_describe(&r[t], &(gr_run_opts){.timeout_s = x->rub.t_sanitizer}, d, sizeof d);
            gr_tail_lines(r[t].err[0] ? r[t].err : r[t].out, 1, tail, sizeof tail);
            snprintf(out->why, sizeof out->why, "on the reference of chapter %d, --tool %s %s%s%s", ch->number,
                     ch->tools[t], d, *tail ? ": " : "", tail);
            out->finished = 0;
        }
        gr_run_result_free(&r[t]);
    }
    out->ran = 1;
}

/* Each tool on each graded chapter's reference, in the given sandbox; 1 if all finished. Keeps the times.
 * The chapters run at once, each in a process of its own: one after the other they outlasted a
 * submission's builds, which the probe runs beside, and the grading waited for them. */
static int gr_san_probe_pass(const gr_config *x, const gr_sub_state *s, const char *work, double (*ref_s)[GR_MAX_TOOLS],
                             char *why, size_t wlen)
{
    gr_probe_ch *out = mmap(NULL, GR_MAX_CH * sizeof *out, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (out == MAP_FAILED) {
        snprintf(why, wlen, "the sanitizer probe could not share its results (mmap: %s)", strerror(errno));
        return 0;
    }
    memset(out, 0, GR_MAX_CH * sizeof *out);
    pid_t pid[GR_MAX_CH] = {0};
    for (int i = 0; i < x->rub.n_ch && i < GR_MAX_CH; i++) {
        const gr_chapter_rubric *ch = &x->rub.ch[i];
        char ref[PATH_MAX], pristine[PATH_MAX];
        if (x->only_ch && ch->number != x->only_ch) continue;
        if (!gr_pristine_path(x, ch, pristine, sizeof pristine) || !gr_have_reference(x, s->work, ch, ref, sizeof ref))
            continue;
        fflush(NULL);
        pid[i] = fork();
        if (pid[i] == 0) {
            gr_san_probe_chapter(x, s, work, ch, ref, &out[i]);
            fflush(NULL);
            _exit(0);
        }
        if (pid[i] < 0) gr_san_probe_chapter(x, s, work, ch, ref, &out[i]); /* no process: here, in turn */
    }
    int all = 1;
    for (int i = 0; i < x->rub.n_ch && i < GR_MAX_CH; i++) {
        if (pid[i] > 0) waitpid(pid[i], NULL, 0);
        if (pid[i] > 0 && !out[i].ran) { /* the chapter's process died before it said anything */
            out[i].finished = 0;
            snprintf(out[i].why, sizeof out[i].why, "on the reference of chapter %d: the probe's process died",
                     x->rub.ch[i].number);
        }
        for (int t = 0; t < GR_MAX_TOOLS; t++) ref_s[i][t] = out[i].ref_s[t];
        if ((out[i].ran || pid[i] > 0) && !out[i].finished && all) {
            snprintf(why, wlen, "%s", out[i].why);
            all = 0;
        }
    }
    munmap(out, GR_MAX_CH * sizeof *out);
    return all;
}

/* A scratch folder for the probe's runs, one the run uids can pass (gr_runs_base, as a work tree). 0, or -1
 * with why. */
static int gr_san_scratch(char *dir, size_t len, char *why, size_t wlen)
{
    const char *tmp = getenv("TMPDIR");
    char closed[PATH_MAX];
    tmp = tmp && *tmp == '/' ? tmp : "/tmp";
    const char *base = gr_runs_base(tmp, closed, sizeof closed);
    if (base) snprintf(dir, len, "%s/wb-san-probe.XXXXXX", base);
    if (base && mkdtemp(dir) && chmod(dir, 0711) == 0) return 0;
    snprintf(why, wlen, "the sanitizer probe has no folder its runs can reach (%s)", base ? strerror(errno) : closed);
    return -1;
}

void gr_san_probe(const gr_config *x, const gr_sub_state *within, gr_san_host *h)
{
    char work[PATH_MAX];
    gr_san_facts f = {.installed = x->sanitizer[0] != 0, .root = geteuid() == 0,
                      .fallback_skip = x->rub.san_fallback == GR_SAN_FALLBACK_SKIP};
    memset(h, 0, sizeof *h);
    char why[400] = "", why_uid[400] = "";
    f.probed = f.installed && x->mode != GR_MODE_CHECK && gr_gpu_count() > 0;
    if (f.probed && gr_san_scratch(work, sizeof work, why, sizeof why)) {
        snprintf(h->line, sizeof h->line, "compute-sanitizer runs in the same sandbox as every run (not probed: %s)", why);
        return; /* GR_SAN_UNPROBED: the full limits, as before any probe */
    }
    /* The probe's runs go as the runs of the submission whose grading asked (its hidden tree, group and
     * lock), or as a grading of their own. A reference the runs cannot reach (a clone under /root at 0700)
     * is staged into that submission's work tree (gr_stage_reference), else into the probe's own folder. */
    gr_sub_state probe = {0};
    if (within) probe = *within;
    probe.san = h;
    if (f.probed) {
        if (!probe.work[0]) snprintf(probe.work, sizeof probe.work, "%s", work);
        gr_run_opts o = {.box = x->iso.box, .no_bwrap = probe.gpu_way == GR_GPU_NO_BWRAP};
        f.bwrap = gr_run_isolation(&o) == GR_RUN_BWRAP;
        f.finished = gr_san_probe_pass(x, &probe, work, h->ref_s, why, sizeof why);
        if (!f.finished && f.bwrap && f.root && !f.fallback_skip) {
            h->mode = GR_SAN_UID; /* gr_san_run_once reads it: the second pass goes without bubblewrap */
            f.finished_uid = gr_san_probe_pass(x, &probe, work, h->ref_s, why_uid, sizeof why_uid);
        }
        gr_rmtree(work);
    }
    h->mode = gr_san_decide(&f);
    switch (h->mode) {
    case GR_SAN_ABSENT: snprintf(h->line, sizeof h->line, "compute-sanitizer not found: the sanitizer step is not run"); break;
    case GR_SAN_UNPROBED: snprintf(h->line, sizeof h->line, "compute-sanitizer runs in the same sandbox as every run (not probed: %s)",
                                   (x->mode == GR_MODE_CHECK) ? "practice run" : "no GPU"); break;
    case GR_SAN_SANDBOX: snprintf(h->line, sizeof h->line, "compute-sanitizer runs in the same sandbox as every run (%s; probed on the references)",
                                  f.bwrap ? "bubblewrap" : "no bubblewrap"); break;
    case GR_SAN_UID:
        snprintf(h->line, sizeof h->line, "compute-sanitizer does not finish under bubblewrap here (%s): its runs go as a "
                 "uid of their own with the course files closed (sanitizer_without_bubblewrap: isolated)", why); break;
    case GR_SAN_SKIP:
        snprintf(h->line, sizeof h->line, "the sanitizer step is skipped on this host: %s%s", *why_uid ? why_uid : why,
                 f.bwrap && !f.fallback_skip && !f.root ? " (outside bubblewrap only root can keep the course files closed)"
                 : f.bwrap && f.fallback_skip ? " (sanitizer_without_bubblewrap: skip)" : ""); break;
    }
}

int gr_san_host_save(const char *path, const gr_san_host *h)
{
    json_t *o = json_object(), *t = json_array();
    json_object_set_new(o, "mode", json_integer(h->mode));
    json_object_set_new(o, "line", gr_jstr(h->line));
    for (int i = 0; i < GR_MAX_CH; i++)
        for (int k = 0; k < GR_MAX_TOOLS; k++) json_array_append_new(t, json_real(h->ref_s[i][k]));
    json_object_set_new(o, "ref_s", t);
    int rc = json_dump_file(o, path, 0);
    json_decref(o);
    return rc;
}

int gr_san_host_load(const char *path, gr_san_host *h)
{
    json_t *o = json_load_file(path, 0, NULL);
    memset(h, 0, sizeof *h);
    if (!o) return -1;
    h->mode = (gr_san_mode)json_integer_value(json_object_get(o, "mode"));
    snprintf(h->line, sizeof h->line, "%s", json_string_value(json_object_get(o, "line")) ?: "");
    json_t *t = json_object_get(o, "ref_s");
    for (int i = 0; i < GR_MAX_CH; i++)
        for (int k = 0; k < GR_MAX_TOOLS; k++) h->ref_s[i][k] = json_number_value(json_array_get(t, (size_t)(i * GR_MAX_TOOLS + k)));
    json_decref(o);
    return 0;
}

/* Why no variant of this chapter is sanitized here, or NULL when they are. */
static const char *gr_san_not_here(const gr_chjob *j)
{
    if (!j->x->sanitizer[0]) return "compute-sanitizer not found: not checked, no points";
    if (j->s->san->mode == GR_SAN_SKIP || j->s->san->mode == GR_SAN_ABSENT) return j->s->san->line;
    return NULL;
}

/* The variants a scored run takes (gr_var_sanitized), their names in list and indices in idx; the others
 * say why not, where the sanitizer does not run here or the budget is spent. Returns how many. */
static int gr_san_select(const gr_chjob *j, char *list, size_t len, int *idx)
{
    gr_ch_result *cr = j->cr;
    int n = 0;
    list[0] = 0;
    for (int v = 0; v < cr->n_v; v++) {
        gr_var_result *r = &cr->v[v];
        if (!gr_var_sanitized(r)) continue;
        const char *not_here = gr_san_not_here(j);
        char spent[300];
        if (!not_here && gr_budget_spent(j->s->budget, spent, sizeof spent)) not_here = spent;
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

/* Tool t gave no verdict on the shared run r: no points, and say why (never award what was not checked).
 * The variants share the process: one that dies or hangs under the tool must not cost the others their
 * points. Each is run alone once (while the budget lasts) and judged by that. */
static void gr_san_unfinished(const gr_chjob *j, int t, const int *idx, int n, const gr_run_result *r)
{
    const char *tool = j->ch->tools[t];
    char d[200], tail[400];
    gr_run_describe(r, &(gr_run_opts){.timeout_s = gr_san_limit(j, t)}, d, sizeof d);
    gr_tail_lines(r->err[0] ? r->err : r->out, 3, tail, sizeof tail);
    for (int i = 0; i < n; i++) {
        gr_var_result *vr = &j->cr->v[idx[i]];
        int alone = -2;
        gr_run_result one = {0};
        if (n > 1 && !gr_budget_spent(j->s->budget, NULL, 0)) alone = gr_san_run(j, tool, vr->name, &one);
        if (alone == 1) gr_san_found(vr, tool, one.out, NULL);
        if (alone != 0) vr->san_pts = 0;
        if (alone < 0) {
            if (vr->san_state != GR_SANV_FINDING) vr->san_state = GR_SANV_UNFINISHED;
            char d1[200], t1[400]; /* its own run alone: its own words; else the shared run's */
            snprintf(d1, sizeof d1, "%s", d);
            snprintf(t1, sizeof t1, "%s", tail);
            if (one.how[0]) {
                gr_run_describe(&one, &(gr_run_opts){.timeout_s = gr_san_limit(j, t)}, d1, sizeof d1);
                gr_tail_lines(one.err && one.err[0] ? one.err : one.out ? one.out : "", 3, t1, sizeof t1);
            }
            if (vr->san_state != GR_SANV_FINDING)
                snprintf(vr->san, sizeof vr->san, "compute-sanitizer --tool %s did not finish (%s%s): %s", tool, d1,
                         n > 1 && !one.how[0] ? "; not run alone: the GPU time was spent" : "", t1);
        }
        if (one.how[0]) gr_run_result_free(&one);
    }
    LOG(j->x, "sanitizer %s did not finish: %s", tool, d);
}

/* Tool t found something on the shared run r: the variants whose kernels it names (or the only one)
 * lose their points; a finding no kernel name traces is settled by running each alone (while time is left). */
static void gr_san_attribute(const gr_chjob *j, int t, const gr_prog_variant *pv, int npv, const int *idx, int n,
                             const gr_run_result *r)
{
    const char *tool = j->ch->tools[t];
    int attributed = 0;
    for (int i = 0; i < n; i++) {
        gr_var_result *vr = &j->cr->v[idx[i]];
        const char *kernels = gr_prog_kernels(pv, npv, vr->name);
        if (n == 1 || (*kernels && gr_san_kernel_in(r->out, kernels))) {
            attributed = 1;
            gr_san_found(vr, tool, r->out, "(see the log)");
        }
    }
    for (int i = 0; !attributed && i < n && !gr_budget_spent(j->s->budget, NULL, 0); i++) {
        gr_var_result *vr = &j->cr->v[idx[i]];
        gr_run_result one;
        if (gr_san_run(j, tool, vr->name, &one) == 1) gr_san_found(vr, tool, one.out, NULL);
        gr_run_result_free(&one);
    }
}

void gr_sanitize(const gr_chjob *j, const gr_prog_variant *pv, int npv)
{
    char list[1024];
    int idx[GR_MAX_VAR];
    int n = gr_san_select(j, list, sizeof list, idx);
    if (!n) return;
    gr_run_result all[GR_MAX_TOOLS];
    int found[GR_MAX_TOOLS];
    double held = gr_san_tools(j, j->stu, list, 0, all, found);
    gr_budget_charge(j->s->budget, held); /* the tools ran in child processes */
    for (int t = 0; t < j->ch->n_tools; t++) {
        if (found[t] < 0) gr_san_unfinished(j, t, idx, n, &all[t]);
        else if (found[t] > 0) gr_san_attribute(j, t, pv, npv, idx, n, &all[t]);
        gr_run_result_free(&all[t]);
    }
}

/* One tool on one variant at the chapter's sanitizer size: 1 with the first finding in first, 0 clean,
 * -1 when the tool gave no verdict. For feedback on failing variants (evidence.c); awards nothing. */
int gr_sanitize_one(const gr_chjob *j, const char *tool, const char *variant, char *first, size_t len)
{
    first[0] = 0;
    if (gr_san_not_here(j) || gr_budget_spent(j->s->budget, NULL, 0)) return -1;
    gr_run_result r;
    int f = gr_san_run(j, tool, variant, &r);
    if (f == 1) gr_san_first_excerpt(r.out, first, len);
    gr_run_result_free(&r);
    return f < 0 ? -1 : f;
}
