/* check.c — see check.h. */
#include "check.h"
#include "gpu.h"
#include "perf.h"

/* A finding of chapter ch for `who`; the count goes on past max (the caller sizes its array by it). */
static int gr_check_add(gr_check_finding *out, int max, int n, int ch, const char *who, const char *text)
{
    if (out && n < max) {
        out[n].ch = ch;
        snprintf(out[n].who, sizeof out[n].who, "%s", who);
        snprintf(out[n].text, sizeof out[n].text, "%s", text);
    }
    return n + 1;
}

/* The region screen's sentences of chapter cr, each once with the variants it costs. */
static int gr_check_screen(const gr_ch_result *cr, gr_check_finding *out, int max, int n)
{
    const unsigned screen = 1u << GR_CAUGHT_SCREEN_PERF | 1u << GR_CAUGHT_SCREEN_CORRECT;
    for (int v = 0; v < cr->n_v; v++) {
        if (!(cr->v[v].caught & screen)) continue;
        for (const char *s = cr->v[v].caught_note; *s;) {
            const char *next = strstr(s + 1, ". region `"); /* gr_screen_hit_str's sentences, joined by a space */
            size_t l = next ? (size_t)(next - s) + 1 : strlen(s);
            char text[700];
            snprintf(text, sizeof text, "%.*s", (int)l, s);
            s += l + (s[l] == ' ');
            int seen = 0; /* a sentence an earlier variant had too: told there, with every variant it costs */
            for (int u = 0; u < v && !seen; u++) seen = strstr(cr->v[u].caught_note, text) != NULL;
            if (seen) continue;
            char who[200] = "";
            for (int u = v; u < cr->n_v; u++)
                if (strstr(cr->v[u].caught_note, text))
                    snprintf(who + strlen(who), sizeof who - strlen(who), "%s%s", who[0] ? ", " : "", cr->v[u].name);
            n = gr_check_add(out, max, n, cr->number, who, text);
        }
    }
    return n;
}

int gr_check_findings(const gr_sub_result *s, gr_check_finding *out, int max)
{
    int n = 0;
    for (int c = 0; c < s->n_ch; c++) {
        const gr_ch_result *cr = &s->ch[c];
        if (cr->status == GR_CH_MISSING || cr->status == GR_CH_NOT_GRADABLE || cr->status == GR_CH_BUILD_FAILED) {
            char text[700];
            snprintf(text, sizeof text, "%s: %s", gr_ch_status_name(cr->status), cr->reason);
            n = gr_check_add(out, max, n, cr->number, "", text);
        }
        if (cr->outside[0]) n = gr_check_add(out, max, n, cr->number, "", cr->outside);
        n = gr_check_screen(cr, out, max, n);
    }
    return n;
}

gr_check_outcome gr_check_decide(gr_sub_status st, int n_findings)
{
    if (st == GR_SUB_NO_GPU) return n_findings ? GR_CHECK_FINDINGS : GR_CHECK_CLEAN;
    return st == GR_SUB_GRADED ? GR_CHECK_RAN : GR_CHECK_NOT_RUN;
}

gr_check_outcome gr_check_outcome_of(const gr_sub_result *s, gr_mode mode)
{
    char why[sizeof s->error + 700];
    if (mode != GR_MODE_CHECK) return GR_CHECK_RAN;
    return gr_check_decide(gr_sub_judge(s, why, sizeof why), gr_check_findings(s, NULL, 0));
}

gr_exit gr_check_exit(gr_check_outcome o, gr_sub_status st)
{
    if (o == GR_CHECK_FINDINGS) return GR_EXIT_CHECK_FINDINGS;
    if (o == GR_CHECK_CLEAN) return GR_EXIT_CHECK_CLEAN;
    return gr_exit_of(st);
}

void gr_check_not_checked(const char *why, char *out, size_t len)
{
    /* the cause, not the path of the program that met it: "no CUDA device found: …" up to its first period */
    const char *cause = strstr(why, "no CUDA device found");
    cause = cause ? cause : why;
    size_t l = strcspn(cause, ".");
    snprintf(out, len,
             "not checked here: correctness, compute-sanitizer and speed (they need a GPU: %.*s); run `make check` on "
             "a machine with an NVIDIA GPU, or `make check ENGINE=slurm GRES=gpu:1` from a cluster's login node",
             (int)(l > 300 ? 300 : l), cause);
}

void gr_check_untouched(const gr_ch_result *cr, char *out, size_t len)
{
    out[0] = 0;
    if (cr->n_untouched > 0)
        snprintf(out, len, "%d of %d region%s untouched (%s): %s the starter's text", cr->n_untouched, cr->n_regions,
                 cr->n_regions == 1 ? "" : "s", cr->untouched, cr->n_untouched == 1 ? "it still holds" : "each still holds");
}

void gr_check_summary(int n_findings, int n_untouched, int n_regions, char *out, size_t len)
{
    char done[200] = "";
    if (n_untouched > 0)
        snprintf(done, sizeof done, "; %d of the %d regions still hold the starter's text, so %s not done yet",
                 n_untouched, n_regions, n_untouched == 1 ? "that one is" : "those are");
    if (n_findings > 0)
        snprintf(out, len, "in short: %d finding%s above to fix%s; correctness and speed need a GPU. make ends with "
                 "`Error %d`, which means findings, not that make check broke", n_findings, n_findings == 1 ? "" : "s",
                 done, GR_EXIT_CHECK_FINDINGS);
    else
        snprintf(out, len, "in short: nothing wrong found in what this machine can check%s; correctness and speed need "
                 "a GPU. make ends with `Error %d`, which means nothing found, not that make check broke", done,
                 GR_EXIT_CHECK_CLEAN);
}

void gr_check_print_static(FILE *f, const gr_sub_result *s, const char *why)
{
    int n = gr_check_findings(s, NULL, 0);
    gr_check_finding *fd = n ? calloc((size_t)n, sizeof *fd) : NULL;
    if (n && !fd) n = 0;
    gr_check_findings(s, fd, n);
    fprintf(f, "check without a GPU: %d finding%s in what needs none (the build, the markers, edits outside the "
               "regions, the region screen)\n",
            n, n == 1 ? "" : "s");
    int untouched = 0, regions = 0;
    for (int c = 0; c < s->n_ch; c++) {
        char line[500];
        gr_check_untouched(&s->ch[c], line, sizeof line);
        if (line[0]) fprintf(f, "  chapter %d: %s\n", s->ch[c].number, line);
        untouched += s->ch[c].n_untouched, regions += s->ch[c].n_regions;
    }
    for (int i = 0; i < n; i++)
        fprintf(f, "  ch%d%s%s: %s\n", fd[i].ch, fd[i].who[0] ? " " : "", fd[i].who, fd[i].text);
    free(fd);
    char line[900];
    gr_check_not_checked(why, line, sizeof line);
    fprintf(f, "%s\n", line);
    gr_check_summary(n, untouched, regions, line, sizeof line);
    fprintf(f, "%s\n", line);
}

/* ---------------------------------------------------------------- the performance points of the practice run */
gr_check_perf_way gr_check_perf_decide(const gr_check_perf_in *in)
{
    if (in->have_ref) return GR_PERF_TIMED;
    int same_gpu = in->gpu_here[0] && !strcmp(in->gpu_here, in->gpu_recorded);
    int same_size = in->size_perf[0] && !strcmp(in->size_perf, in->size_recorded);
    return same_gpu && same_size ? GR_PERF_RECORDED : GR_PERF_NOT_SCORED;
}

/* The reference's recorded table of chapter ch (handouts/results/chN.json): its GPU, its size (canonical) and
 * each variant's median time and % of the speed of light, into in, ms and pct (by the chapter's variant order;
 * 0: not recorded). A row at the benchmark size is taken before any other. */
static void gr_check_recorded(const gr_config *x, const gr_ch_result *cr, gr_check_perf_in *in, double *ms, double *pct)
{
    char path[PATH_MAX], err[200];
    snprintf(path, sizeof path, "%s/handouts/results/ch%d.json", x->root, cr->number);
    json_t *lines = gr_is_file(path) ? wb_jsonl_load(path, err, sizeof err) : NULL, *o;
    size_t i;
    int at_perf[GR_MAX_VAR] = {0};
    json_array_foreach(lines, i, o)
    {
        const char *v = json_string_value(json_object_get(o, WB_JSON_VARIANT));
        const char *gpu = json_string_value(json_object_get(o, WB_JSON_GPU));
        const char *size = json_string_value(json_object_get(o, WB_JSON_SIZE));
        gr_size z;
        const char *canon = !size ? "" : gr_size_parse(size, &z) ? "0" : z.canon;
        for (int k = 0; v && k < cr->n_v; k++) {
            if (strcmp(v, cr->v[k].name) || at_perf[k]) continue;
            at_perf[k] = canon[0] && !strcmp(canon, in->size_perf);
            ms[k] = json_number_value(json_object_get(o, WB_JSON_MEDIAN_MS));
            pct[k] = json_number_value(json_object_get(o, WB_JSON_SOL_PCT));
            if (gpu) snprintf(in->gpu_recorded, sizeof in->gpu_recorded, "%s", gpu);
            if (size) snprintf(in->size_recorded, sizeof in->size_recorded, "%s", canon);
        }
    }
    json_decref(lines);
}

static void gr_check_score_recorded(const gr_config *x, gr_ch_result *cr, const gr_check_perf_in *in, const double *ms)
{
    for (int k = 0; k < cr->n_v; k++) {
        gr_var_result *r = &cr->v[k];
        if (r->verdict != GR_V_SELF_PASS || !r->perf_ran || !(r->stu_ms > 0) || !(ms[k] > 0) || r->caught) continue;
        gr_perf_points(&x->rub, r, ms[k], "the reference's recorded");
    }
    snprintf(cr->perf_note, sizeof cr->perf_note, "check mode: your times against the reference's recorded on this GPU "
             "model (%s, handouts/results/ch%d.json); the grader times the reference beside yours", in->gpu_here, cr->number);
}

gr_check_estimate gr_check_estimate_of(const gr_rubric *rub, double stu_pct, double ref_pct, double points)
{
    gr_check_estimate e = {0, 0, 0};
    if (!(stu_pct > 0) || !(ref_pct > 0) || !isfinite(stu_pct) || !isfinite(ref_pct)) return e;
    e.ok = 1;
    e.ratio = ref_pct / stu_pct;
    e.pts = gr_band_fraction(rub, e.ratio) * points;
    return e;
}

/* Each timed variant's estimate (gr_check_estimate_of) in its note and a short list in lst; their points in *pts
 * and the points they are out of in *of. Returns how many variants have one. */
static int gr_check_estimates(const gr_config *x, gr_ch_result *cr, const gr_check_perf_in *in, const double *pct,
                              char *lst, size_t len, double *pts, double *of)
{
    int n = 0;
    lst[0] = 0;
    *pts = *of = 0;
    for (int k = 0; k < cr->n_v; k++) {
        gr_var_result *r = &cr->v[k];
        int timed = r->verdict == GR_V_SELF_PASS && r->perf_ran && r->stu_ms > 0 && !r->caught;
        gr_check_estimate e = gr_check_estimate_of(&x->rub, timed ? r->stu_sol_pct : 0, pct[k], r->rub.perf);
        if (!e.ok) continue;
        n++;
        *pts += e.pts, *of += r->rub.perf;
        size_t at = strlen(lst);
        snprintf(lst + at, len - at, "%s%s %.2fx", at ? ", " : "", r->name, e.ratio);
        snprintf(r->perf_note, sizeof r->perf_note, "Estimate, not scored: %.4f ms here at size %s, %.1f%% of this GPU's "
                 "speed of light; the reference's recorded %.1f%% (%s) predicts %.2fx its time, %.1f of %.1f points.",
                 r->stu_ms, in->size_perf, r->stu_sol_pct, pct[k], in->gpu_recorded, e.ratio, e.pts, r->rub.perf);
    }
    return n;
}

static void gr_check_unscored(const gr_config *x, gr_ch_result *cr, const gr_check_perf_in *in, const double *pct)
{
    double pts = 0, est = 0, of = 0;
    char lst[300];
    int n = gr_check_estimates(x, cr, in, pct, lst, sizeof lst, &est, &of);
    for (int k = 0; k < cr->n_v; k++) {
        pts += gr_var_graded(&cr->v[k]) ? cr->v[k].rub.perf : 0; /* one this GPU cannot run is out of the total already */
        cr->v[k].rub.perf = 0;
        cr->v[k].perf_pts = 0;
    }
    if (n)
        snprintf(cr->perf_note, sizeof cr->perf_note, "performance ESTIMATE, not in the total: %s of the reference's time, "
                 "about %.1f of %.1f points; from your %% of the speed of light in this run against the reference's "
                 "recorded %% (%s); the grader times the reference beside yours", lst, est, of, in->gpu_recorded);
    else
        snprintf(cr->perf_note, sizeof cr->perf_note, "performance: not scored here (%.1f points, not in the total): no "
                 "reference to time yours beside%s%s%s; the grader times it beside yours", pts,
                 in->gpu_recorded[0] ? ", and its recorded times are for " : "", in->gpu_recorded,
                 in->gpu_recorded[0] ? (strcmp(in->gpu_here, in->gpu_recorded) ? " (another GPU)" : " at another size") : "");
}

void gr_check_score_perf(const gr_config *x, gr_sub_result *res)
{
    if (x->mode != GR_MODE_CHECK) return;
    char gpu[128] = "";
    for (int c = 0; c < res->n_ch; c++) {
        gr_ch_result *cr = &res->ch[c];
        if (cr->status != GR_CH_GRADED || !cr->self_check) continue;
        if (!gpu[0]) gr_gpu_name(x->gpu, gpu, sizeof gpu);
        gr_check_perf_in in = {0};
        double ms[GR_MAX_VAR] = {0}, pct[GR_MAX_VAR] = {0};
        snprintf(in.gpu_here, sizeof in.gpu_here, "%s", gpu);
        for (int i = 0; i < x->rub.n_ch; i++)
            if (x->rub.ch[i].number == cr->number)
                snprintf(in.size_perf, sizeof in.size_perf, "%s", x->rub.ch[i].perf_size.canon);
        gr_check_recorded(x, cr, &in, ms, pct);
        if (gr_check_perf_decide(&in) == GR_PERF_RECORDED) gr_check_score_recorded(x, cr, &in, ms);
        else gr_check_unscored(x, cr, &in, pct);
    }
    gr_sub_totals(res);
}
