#define _GNU_SOURCE 1
#include "html.h"

#include <ctype.h>

#include "tool.h"

void gr_html_wrap(gr_str *b, const char *pre, const char *s, const char *post)
{
    gr_str_add(b, pre);
    char *c = gr_utf8_clean(s ? s : "");
    for (const char *p = c; *p; p++) switch (*p) {
        case '&': gr_str_add(b, "&amp;"); break;
        case '<': gr_str_add(b, "&lt;"); break;
        case '>': gr_str_add(b, "&gt;"); break;
        case '"': gr_str_add(b, "&quot;"); break;
        case '\'': gr_str_add(b, "&#39;"); break;
        default: gr_str_addn(b, p, 1);
        }
    free(c);
    gr_str_add(b, post);
}

void gr_html_href(gr_str *b, const char *folder, const char *file)
{
    for (const char *p = folder; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (isalnum(c) || c == '-' || c == '_' || c == '.') gr_str_addn(b, p, 1);
        else gr_str_addf(b, "%%%02X", c);
    }
    gr_str_addf(b, "/%s", file);
}

static const char css[] =
    "body{font-family:Helvetica,Arial,sans-serif;margin:2em auto;max-width:1100px;color:#222;line-height:1.4}"
    "h1{border-bottom:2px solid #4a7ebb}h2{margin-top:1.6em;border-bottom:1px solid #ccc}"
    "table{border-collapse:collapse;margin:0.6em 0}th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}"
    "th{background:#eef3fa}td.num{text-align:right;font-variant-numeric:tabular-nums}"
    ".note{color:#555;font-style:italic}.bad{color:#a00;font-weight:bold}.ok{color:#070}"
    "pre{background:#f6f6f6;padding:0.6em;overflow-x:auto;font-size:12px}figure{margin:0.8em 0}"
    "figcaption{color:#555;font-size:90%}.kpi{display:inline-block;margin-right:2em;font-size:120%}"
    ".kpi b{font-size:150%;color:#4a7ebb}nav a{margin-right:1em}";

void gr_html_head(gr_str *b, const char *title)
{
    gr_str_add(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    gr_html_wrap(b, "<title>", title, "</title>\n");
    gr_str_addf(b, "<style>%s</style>\n</head>\n<body>\n", css);
}

void gr_html_foot(gr_str *b) { gr_str_add(b, "</body>\n</html>\n"); }

/* The SVG element (no XML prologue) gnuplot draws; NULL with a one-line reason. */
static char *plot_svg(const char *script, const char *data, int w, int h, char *why, size_t wlen)
{
    char path[PATH_MAX];
    if (!gr_which("gnuplot", path, sizeof path)) {
        snprintf(why, wlen, "gnuplot is not installed (apt-get install gnuplot-nox): plots left out");
        return NULL;
    }
    gr_str s = {0};
    gr_str_addf(&s, "set terminal svg size %d,%d dynamic enhanced font 'Helvetica,12' background '#ffffff'\n"
                    "set encoding utf8\n$D << EOD\n%sEOD\n%s\n", w, h, data, script);
    char *argv[] = {"gnuplot", "/dev/stdin", NULL}; /* as a file: an error stops it and names its line */
    gr_str out = {0}, err = {0};
    int rc = gr_tool_run(argv, s.s, &out, &err, 60);
    gr_str_free(&s);
    const char *svg = out.s ? strstr(out.s, "<svg") : NULL, *e = gr_str_c(&err);
    char *res = rc || !svg ? NULL : strdup(svg);
    if (!res)
        snprintf(why, wlen, "gnuplot failed (exit %d): %.*s", rc, strchr(e, '\n') ? (int)strcspn(e, "\n") : 200, e);
    gr_str_free(&out);
    gr_str_free(&err);
    return res;
}

void gr_html_plot(gr_str *b, const char *script, const char *data, int w, int h, const char *caption)
{
    char why[400];
    char *svg = plot_svg(script, data, w, h, why, sizeof why);
    gr_str_add(b, "<figure>\n");
    if (svg) gr_str_add(b, svg);
    else gr_html_wrap(b, "<p class=\"note\">", why, "</p>");
    gr_html_wrap(b, "\n<figcaption>", caption, "</figcaption>\n</figure>\n");
    free(svg);
}
