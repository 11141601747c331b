/* sanitize.c — see sanitize.h. */
#define _GNU_SOURCE 1
#include "sanitize.h"

/* ---------------------------------------------------------------- sanitizer */
static int gr_san_run_once(const gr_chjob *j, const char *tool, const char *variants, gr_run_result *r, int no_bwrap)
{
    const gr_ctx *x = j->x;
    const gr_chapter_rubric *ch = j->ch;
    const char *stu = j->stu, *work = j->work;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/san-%s", work, tool);
    gr_rmtree(dir);
    gr_mkdirs(dir, 0755);
    gr_cmd c;
    gr_cmd_init(&c, x, dir, x->rub.t_sanitizer, 1);
    c.o.no_bwrap |= no_bwrap;
    gr_arg(&c, "%s", x->sanitizer);
    gr_arg(&c, "--tool");
    gr_arg(&c, "%s", tool);
    gr_arg(&c, "--error-exitcode");
    gr_arg(&c, "86");
    gr_arg(&c, "--print-limit");
    gr_arg(&c, "10");
    gr_arg(&c, "%s", stu);
    gr_arg(&c, "--variant");
    gr_arg(&c, "%s", variants);
    gr_arg(&c, "--size");
    gr_arg(&c, "%s", ch->sanitizer_size);
    gr_arg(&c, "--reps");
    gr_arg(&c, "1");
    gr_arg(&c, "--warmup");
    gr_arg(&c, "0");
    gr_cmd_ro(&c, stu);
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

/* compute-sanitizer attaches to the program in ways a sandbox may refuse: if it does not finish under
 * bubblewrap, it is tried once more with the plain sandbox (same limits, still as nobody when root). */
static int gr_san_run(const gr_chjob *j, const char *tool, const char *variants, gr_run_result *r)
{
    int f = gr_san_run_once(j, tool, variants, r, 0);
    if (f == -2 && strstr(r->how, "bubblewrap")) {
        LOG("%s did not finish under bubblewrap: once more without it", tool);
        gr_run_result_free(r);
        f = gr_san_run_once(j, tool, variants, r, 1);
    }
    return f;
}

/* The tools are not timed, so they run at the same time, each in its own process (each its own
 * subreaper); each hands its result back with gr_run_result_save/load. */
static void gr_san_run_all(const gr_chjob *j, const char *variants, gr_run_result *res, int *f)
{
    const gr_chapter_rubric *ch = j->ch;
    const char *work = j->work;
    pid_t pid[GR_MAX_TOOLS];
    for (int t = 0; t < ch->n_tools; t++) {
        fflush(NULL);
        pid[t] = fork();
        if (pid[t] == 0) {
            gr_run_result r;
            int rc = gr_san_run(j, ch->tools[t], variants, &r);
            char p[PATH_MAX];
            snprintf(p, sizeof p, "%s/san-%s.json", work, ch->tools[t]);
            gr_run_result_save(p, rc, &r);
            fflush(NULL);
            _exit(0);
        }
    }
    for (int t = 0; t < ch->n_tools; t++) {
        if (pid[t] > 0) waitpid(pid[t], NULL, 0);
        memset(&res[t], 0, sizeof res[t]);
        char p[PATH_MAX];
        snprintf(p, sizeof p, "%s/san-%s.json", work, ch->tools[t]);
        gr_run_result_load(p, &f[t], &res[t]);
        unlink(p);
    }
}

void gr_sanitize(const gr_chjob *j, const gr_prog_variant *pv, int npv)
{
    const gr_ctx *x = j->x;
    const gr_chapter_rubric *ch = j->ch;
    const char *work = j->work;
    gr_ch_result *cr = j->cr;
    char list[1024] = "";
    int idx[GR_MAX_VAR], n = 0;
    for (int v = 0; v < cr->n_v; v++) {
        gr_var_result *r = &cr->v[v];
        if ((r->verdict != GR_V_PASS) && (r->verdict != GR_V_SELF_PASS)) continue;
        if (!x->sanitizer[0]) {
            snprintf(r->san, sizeof r->san, "compute-sanitizer not found: not checked, no points");
            continue;
        }
        r->san_ran = 1;
        snprintf(r->san, sizeof r->san, "clean (%d tools)", ch->n_tools);
        r->san_pts = r->rub.sanitizer;
        size_t l = strlen(list);
        snprintf(list + l, sizeof list - l, "%s%s", l ? "," : "", r->name);
        idx[n++] = v;
    }
    if (!n) return;
    gr_run_result all[GR_MAX_TOOLS];
    int found[GR_MAX_TOOLS];
    gr_san_run_all(j, list, all, found);
    for (int t = 0; t < ch->n_tools; t++) {
        gr_run_result r = all[t];
        int f = found[t];
        if (f < 0) {
            /* No verdict from the tool: no points, and say why (never award what was not checked). */
            char d[200], tail[400];
            gr_cmd dummy;
            gr_cmd_init(&dummy, x, work, x->rub.t_sanitizer, 1);
            gr_run_describe(&r, &dummy.o, d, sizeof d);
            gr_tail_lines(r.err[0] ? r.err : r.out, 3, tail, sizeof tail);
            for (int i = 0; i < n; i++) {
                gr_var_result *vr = &cr->v[idx[i]];
                vr->san_pts = 0;
                vr->san_unfinished = 1;
                if (!vr->san_finding)
                    snprintf(vr->san, sizeof vr->san, "compute-sanitizer --tool %s did not finish (%s): %s", ch->tools[t],
                             d, tail);
            }
            LOG("sanitizer %s did not finish: %s", ch->tools[t], d);
            gr_run_result_free(&r);
            continue;
        }
        if (f == 0) {
            gr_run_result_free(&r);
            continue;
        }
        int attributed = 0;
        for (int i = 0; i < n; i++) {
            gr_var_result *vr = &cr->v[idx[i]];
            const char *kernels = "";
            for (int k = 0; k < npv; k++)
                if (!strcmp(pv[k].name, vr->name)) kernels = pv[k].kernels;
            if (n == 1 || (*kernels && gr_san_kernel_in(r.out, kernels))) {
                attributed = 1;
                if (!vr->san_finding) {
                    char first[500];
                    gr_san_first_excerpt(r.out, first, sizeof first);
                    snprintf(vr->san, sizeof vr->san, "%s: %s", ch->tools[t], first[0] ? first : "(see the log)");
                }
                vr->san_finding = 1;
                vr->san_pts = 0;
            }
        }
        gr_run_result_free(&r);
        if (!attributed) /* not traceable to a kernel name: run each variant alone */
            for (int i = 0; i < n; i++) {
                gr_var_result *vr = &cr->v[idx[i]];
                gr_run_result one;
                if (gr_san_run(j, ch->tools[t], vr->name, &one) == 1) {
                    char first[500];
                    gr_san_first_excerpt(one.out, first, sizeof first);
                    if (!vr->san_finding) snprintf(vr->san, sizeof vr->san, "%s: %s", ch->tools[t], first);
                    vr->san_finding = 1;
                    vr->san_pts = 0;
                }
                gr_run_result_free(&one);
            }
    }
}

/* One tool on one variant at the chapter's sanitizer size: 1 with the first finding in first, 0 clean,
 * -1 when the tool gave no verdict. For feedback on failing variants (evidence.c); awards nothing. */
int gr_sanitize_one(const gr_chjob *j, const char *tool, const char *variant, char *first, size_t len)
{
    gr_run_result r;
    int f = gr_san_run(j, tool, variant, &r);
    first[0] = 0;
    if (f == 1) gr_san_first_excerpt(r.out, first, len);
    gr_run_result_free(&r);
    return f < 0 ? -1 : f;
}
