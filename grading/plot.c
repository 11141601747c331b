/* plot.c — see plot.h. */
#define _GNU_SOURCE 1
#include "plot.h"

#include "gr_util.h"
#include "tool.h"

char *gr_plot_svg(const char *script, const char *data, int w, int h, char *why, size_t wlen)
{
    char path[PATH_MAX];
    if (!gr_which("gnuplot", path, sizeof path)) {
        snprintf(why, wlen, "gnuplot is not installed (apt-get install gnuplot-nox): plots left out");
        return NULL;
    }
    gr_str s = {0};
    gr_str_addf(&s, "set terminal svg size %d,%d dynamic enhanced font 'Helvetica,12' background '#ffffff'\n"
                    "set encoding utf8\n$D << EOD\n%sEOD\n%s\n", w, h, data, script);
    const char *tmp = gr_tmpdir();
    snprintf(path, sizeof path, "%s/wb-plot-XXXXXX", tmp);
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, s.s, s.len) != (ssize_t)s.len) {
        if (fd >= 0) close(fd), unlink(path);
        gr_str_free(&s);
        snprintf(why, wlen, "cannot write a plot script under %s", tmp);
        return NULL;
    }
    close(fd);
    gr_str_free(&s);
    char *argv[] = {"gnuplot", path, NULL};
    gr_str out = {0}, err = {0};
    int rc = gr_tool_run(argv, NULL, &out, &err, 60);
    unlink(path);
    const char *svg = out.s ? strstr(out.s, "<svg") : NULL;
    char *res = NULL;
    if (rc || !svg) {
        const char *e = gr_str_c(&err);
        const char *nl = strchr(e, '\n');
        snprintf(why, wlen, "gnuplot failed (exit %d): %.*s", rc, nl ? (int)(nl - e) : 200, e);
    } else res = strdup(svg);
    gr_str_free(&out), gr_str_free(&err);
    return res;
}
