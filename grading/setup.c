/* setup.c — see setup.h. */
#define _GNU_SOURCE 1
#include "setup.h"
#include "report.h"

#include <sys/random.h>

int gr_stop(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return code;
}

int gr_strict_int(const char *s, long long lo, long long hi, long long *out)
{
    return wb_parse_count(s, hi, out) == 0 && *out >= lo ? 0 : -1;
}

/* One of the shared options into *cli and *x. -1: taken; -2: not a shared option; else the exit code. */
static int gr_shared_opt(int c, const char *arg, gr_shared_cli *cli, gr_config *x)
{
    long long v;
    switch (c) {
    case GR_O_OUT: cli->out = arg; return -1;
    case GR_O_SEEDS: cli->seeds = arg; return -1;
    case GR_O_RUBRIC: snprintf(x->rubric_path, sizeof x->rubric_path, "%s", arg); return -1;
    case GR_O_CH:
    case GR_O_JOBS:
        if (gr_strict_int(arg, 1, c == GR_O_CH ? 99 : 256, &v))
            return gr_stop(GR_EXIT_USAGE, c == GR_O_CH ? "grade: --ch '%s' is not a chapter number (1 to 99)"
                                                       : "grade: --jobs '%s' must be a whole number from 1 to 256",
                           arg);
        *(c == GR_O_CH ? &x->only_ch : &x->jobs) = (int)v;
        return -1;
    case GR_O_FORCE: x->force = 1; return -1;
    case GR_O_NO_PERF: x->no_perf = 1; return -1;
    case GR_O_NO_SAN: x->no_san = 1; return -1;
    case GR_O_QUIET: x->quiet = 1; return -1;
    case GR_O_INSECURE: x->insecure = 1; return -1;
    case GR_O_VALIDATE: cli->validate = 1; return -1;
    default: return -2;
    }
}

int gr_parse_opts(int argc, char **argv, const struct option *longopts, void (*usage)(FILE *), gr_own_opt *own_opt,
                  void *own, gr_shared_cli *cli, gr_config *x)
{
    snprintf(x->rubric_path, sizeof x->rubric_path, "grading/rubric.json");
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (c == 'h') return usage(stdout), GR_EXIT_OK;
        if (c == ':') return gr_stop(GR_EXIT_USAGE, "grade: %s needs a value", argv[optind - 1]);
        if (c == '?') {
            fprintf(stderr, "grade: unknown option %s\n", argv[optind - 1]);
            usage(stderr);
            return GR_EXIT_USAGE;
        }
        int rc = gr_shared_opt(c, optarg, cli, x);
        if (rc < 0) rc = own_opt(c, optarg, argv, own, x);
        if (rc >= 0) return rc;
    }
    return -1;
}

void gr_usage_exits(FILE *f)
{
    fprintf(f, "exit codes (make passes them on as \"Error N\"):\n");
    for (int e = 0; e < GR_EXIT_N; e++) fprintf(f, "  %d  %s\n", e, gr_exit_meaning((gr_exit)e));
}

int gr_setup_root(gr_config *x)
{
    if (getcwd(x->root, sizeof x->root) && gr_is_file("common/wb.h")) return -1;
    return gr_stop(GR_EXIT_USAGE, "grade: run me from the workbook's root (common/wb.h not found)");
}

static int gr_setup_seeds(gr_config *x, const char *seeds)
{
    if (seeds && *seeds) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", seeds);
        char *save = NULL;
        for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            long long v;
            if (x->n_seeds == 8 || gr_strict_int(t, 0, 0x7fffffff, &v))
                return gr_stop(GR_EXIT_USAGE, "grade: bad seed '%s' (at most 8, each from 0 to 2147483647)", t);
            x->seeds[x->n_seeds++] = (unsigned long long)v;
        }
        return -1;
    }
    for (int i = 0; i < x->rub.seeds; i++) {
        uint32_t v;
        if (getrandom(&v, sizeof v, 0) != (ssize_t)sizeof v)
            return gr_stop(GR_EXIT_REFUSED, "grade: no random seed from the kernel (getrandom: %s)", strerror(errno));
        x->seeds[x->n_seeds++] = v & 0x7fffffff;
    }
    return -1;
}

int gr_setup_rubric(gr_config *x, const char *seeds)
{
    char err[600];
    if (gr_rubric_load_at(".", x->rubric_path, &x->rub, err, sizeof err))
        return gr_stop(GR_EXIT_USAGE, "grade: bad rubric: %s", err);
    int has = !x->only_ch;
    for (int c = 0; c < x->rub.n_ch; c++) has |= x->rub.ch[c].number == x->only_ch;
    if (!has) return gr_stop(GR_EXIT_USAGE, "grade: --ch %d: the rubric has no chapter %d", x->only_ch, x->only_ch);
    return gr_setup_seeds(x, seeds);
}

void gr_find_sanitizer(char *out, size_t len)
{
    if (!gr_which("compute-sanitizer", out, len)) {
        const char *cand = "/usr/local/cuda/bin/compute-sanitizer";
        snprintf(out, len, "%s", access(cand, X_OK) == 0 ? cand : "");
    }
    char real[PATH_MAX];
    if (out[0] && realpath(out, real)) snprintf(out, len, "%s", real);
}

int gr_setup_out(char *dir, size_t len)
{
    char why[PATH_MAX + 200];
    if (gr_report_dir_ready(dir, why, sizeof why))
        return gr_stop(GR_EXIT_IO, "grade: cannot write the reports (--out): %s", why);
    if (realpath(dir, why)) snprintf(dir, len, "%s", why);
    return -1;
}

int gr_setup_isolate(gr_config *x, const char *const *extra)
{
    char why[700];
    if (gr_iso_setup(x->root, x->insecure || x->mode == GR_MODE_CHECK, 0, extra, &x->iso, why, sizeof why))
        return gr_stop(GR_EXIT_REFUSED, "%s", why);
    LOG(x, "isolation: %s", x->iso.line);
    if (!x->janitor) x->janitor = gr_janitor_start(); /* before any scratch folder (grade starts it earlier) */
    return -1;
}
