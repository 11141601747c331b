#define _GNU_SOURCE 1
#include "studentpage.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include "gr_util.h"
#include "html.h"
#include "report.h"

char *gr_md_to_html(const char *md, size_t len)
{
    cmark_gfm_core_extensions_ensure_registered();
    cmark_parser *p = cmark_parser_new(CMARK_OPT_DEFAULT);
    cmark_syntax_extension *table = cmark_find_syntax_extension("table");
    if (!p || !table) return NULL;
    cmark_parser_attach_syntax_extension(p, table);
    cmark_parser_feed(p, md, len);
    cmark_node *doc = cmark_parser_finish(p);
    char *html = doc ? cmark_render_html(doc, CMARK_OPT_DEFAULT, cmark_parser_get_syntax_extensions(p)) : NULL;
    if (doc) cmark_node_free(doc);
    cmark_parser_free(p);
    return html;
}

char *gr_sol_plot_data(const json_t *chapter, int *cols)
{
    gr_str d = {0};
    gr_str_add(&d, "");
    int any = 0;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(chapter, "variants"), i, v)
    {
        json_t *s = json_object_get(v, "sol_pct"), *r = json_object_get(v, "ref_sol_pct");
        any |= json_is_number(s) | json_is_number(r) << 1;
        gr_str_addf(&d, "\"%s\" ", json_string_value(json_object_get(v, "variant")) ?: "?");
        gr_str_addf(&d, json_is_number(s) ? "%.3f " : "NaN ", json_number_value(s));
        gr_str_addf(&d, json_is_number(r) ? "%.3f\n" : "NaN\n", json_number_value(r));
    }
    if (!any) d.s[0] = 0, d.len = 0;
    if (cols) *cols = any;
    return d.s;
}

/* The % of the speed of light plot of every chapter that measured one. */
static void sol_plots(gr_str *b, const json_t *g)
{
    size_t i;
    json_t *c;
    int shown = 0;
    json_array_foreach(json_object_get(g, "chapters"), i, c)
    {
        int cols;
        char *data = gr_sol_plot_data(c, &cols), cap[200];
        /* a column with no number at all is left out (gnuplot refuses an empty histogram column) */
        int mine = cols & 1, ref = cols & 2;
        if (data && *data) {
            int n = (int)json_integer_value(json_object_get(c, "number"));
            snprintf(cap, sizeof cap, "Chapter %d: each variant's throughput as %% of this GPU's speed of light, yours beside the reference's "
                                      "(same GPU, same run).", n);
            gr_str sc = {0};
            gr_str_add(&sc, "set style data histogram\nset style histogram clustered gap 1\nset style fill solid 0.85 border -1\n"
                            "set ylabel '% of the speed of light'\nset yrange [0:*]\nset grid ytics\nset key top left\nplot ");
            if (mine) gr_str_add(&sc, "$D using 2:xtic(1) title 'yours' lc rgb '#4a7ebb'");
            if (ref) gr_str_addf(&sc, "%s$D using 3%s title 'reference' lc rgb '#bbbbbb'", mine ? ", " : "", mine ? "" : ":xtic(1)");
            gr_str_add(&sc, "\n");
            if (!mine) gr_str_add(&sc, "# none of your variants was timed: the reference's alone\n");
            gr_html_plot(b, sc.s, data, 760, 320, cap);
            gr_str_free(&sc);
            shown++;
        }
        free(data);
    }
    if (!shown) gr_str_add(b, "<p class=\"note\">No variant's speed was measured (nothing correct to time, or the run did not time it).</p>\n");
}

/* results.json: the whole feedback as Gradescope's top-level output, in its Markdown format. */
static int results_md(const char *dir, const char *md)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/results.json", dir);
    json_t *r = json_load_file(p, 0, NULL);
    if (!r) return 0; /* none written (e.g. a grading that never started): nothing to add to */
    /* An ungraded run's output starts with why (report.c): it stays first, the feedback follows. */
    const char *was = json_string_value(json_object_get(r, "output"));
    gr_str o = {0};
    if (was && !strncmp(was, "Not graded: ", 12)) gr_str_addf(&o, "%s\n\n", was);
    gr_str_add(&o, md);
    json_object_set_new(r, "output", gr_jstr(gr_str_c(&o)));
    gr_str_free(&o);
    json_object_set_new(r, "output_format", json_string("md"));
    int rc = json_dump_file(r, p, JSON_INDENT(2));
    json_decref(r);
    return rc;
}

int gr_student_page(const char *dir)
{
    char p[PATH_MAX];
    size_t len;
    snprintf(p, sizeof p, "%s/feedback.md", dir);
    char *md = gr_read_capped(p, 16u << 20, &len);
    snprintf(p, sizeof p, "%s/grading.json", dir);
    json_t *g = json_load_file(p, 0, NULL);
    char *body = md ? gr_md_to_html(md, len) : NULL;
    int rc = -1;
    if (body) {
        gr_str b = {0};
        const char *who = json_string_value(json_object_get(g, "student"));
        char title[300];
        snprintf(title, sizeof title, "Feedback: %s", who ? who : "student");
        gr_html_head(&b, title);
        gr_str_add(&b, body);
        gr_str_add(&b, "<h2>Speed of light</h2>\n");
        sol_plots(&b, g);
        gr_html_foot(&b);
        snprintf(p, sizeof p, "%s/feedback.html", dir);
        rc = gr_write_file(p, b.s, b.len) || results_md(dir, md) ? -1 : 0;
        gr_str_free(&b);
    }
    if (rc) fprintf(stderr, "grade: could not write %s/feedback.html\n", dir);
    free(body), free(md);
    json_decref(g);
    return rc;
}
