/* check.c — see check.h. */
#include "check.h"
#include "caught.h"

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

/* The next screen sentence of a variant's caught note (gr_screen_hit_str's "region `…`" sentences, joined by
 * a space): its length from s, up to the next sentence or the end. */
static size_t gr_check_sentence(const char *s)
{
    const char *next = strstr(s + 1, ". region `");
    return next ? (size_t)(next - s) + 1 : strlen(s);
}

/* The region screen's sentences of chapter cr, each once with the variants it costs. */
static int gr_check_screen(const gr_ch_result *cr, gr_check_finding *out, int max, int n)
{
    const unsigned screen = 1u << GR_CAUGHT_SCREEN_PERF | 1u << GR_CAUGHT_SCREEN_CORRECT;
    for (int v = 0; v < cr->n_v; v++) {
        if (!(cr->v[v].caught & screen)) continue;
        for (const char *s = cr->v[v].caught_note; *s;) {
            size_t l = gr_check_sentence(s);
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
    /* The cause, not the path of the program that met it: "no CUDA device found: …" up to its first period. */
    const char *cause = strstr(why, "no CUDA device found");
    cause = cause ? cause : why;
    size_t l = strcspn(cause, ".");
    snprintf(out, len,
             "not checked here: correctness, compute-sanitizer and speed (they need a GPU: %.*s); run `make check` on "
             "a machine with an NVIDIA GPU, or `make check ENGINE=slurm` from a cluster's login node",
             (int)(l > 300 ? 300 : l), cause);
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
    for (int i = 0; i < n; i++)
        fprintf(f, "  ch%d%s%s: %s\n", fd[i].ch, fd[i].who[0] ? " " : "", fd[i].who, fd[i].text);
    free(fd);
    char line[900];
    gr_check_not_checked(why, line, sizeof line);
    fprintf(f, "%s\n", line);
}
