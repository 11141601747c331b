/* job.c — see job.h. */
#define _GNU_SOURCE 1
#include "job.h"
#include "gpu.h"

int gr_verbose = 1;
int gr_gpu_without_bwrap;

/* ---------------------------------------------------------------- trusted helpers */
/* Runs a trusted shell command (make, nvidia-smi) and returns its stdout, at most cap bytes. */
char *gr_capture_cmd(const char *cmd, size_t cap, int *status)
{
    FILE *p = popen(cmd, "r");
    if (!p) return NULL;
    char *buf = malloc(cap + 1);
    size_t n = fread(buf, 1, cap, p);
    buf[n] = 0;
    int st = pclose(p);
    if (status) *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
    return buf;
}

/* ---------------------------------------------------------------- running programs */

void gr_cmd_init(gr_cmd *c, const gr_config *x, const gr_sub_state *s, const char *workdir, double timeout, int gpu)
{
    memset(c, 0, sizeof *c);
    c->o.workdir = workdir;
    c->o.timeout_s = timeout;
    c->o.cpu_s = x->rub.cpu_s;
    c->o.fsize = x->rub.file_bytes;
    c->o.disk = x->rub.disk_bytes;
    c->o.nproc = x->rub.nproc;
    c->o.out_cap = x->rub.out_cap;
    c->o.gpu = gpu;
    c->o.no_bwrap = gpu && gr_gpu_without_bwrap;
    c->o.gid = s->sub_gid;
    c->lock = s->lock;
    c->budget = s->budget;
    char id[32];
    gr_gpu_id(x->gpu, id, sizeof id);
    snprintf(c->env_gpu, sizeof c->env_gpu, "CUDA_VISIBLE_DEVICES=%s", id);
    if (gpu) c->env[0] = c->env_gpu;
    c->o.env = c->env;
    int h = 0;
    c->hide[h++] = x->root;
    if (s->hide_sub[0]) c->hide[h++] = s->hide_sub;
    c->o.hide = c->hide;
    c->o.ro_paths = c->ro;
    c->o.argv = c->argv;
}

void gr_arg(gr_cmd *c, const char *fmt, ...)
{
    if (c->argc >= 94) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->store[c->argc], sizeof c->store[0], fmt, ap);
    va_end(ap);
    c->argv[c->argc] = c->store[c->argc];
    c->argc++;
    c->argv[c->argc] = NULL;
}

/* A program outside the hidden directories (e.g. the reference in build/) is made visible read-only. */
/* Makes `path` readable inside bubblewrap (bound again after the hidden directories and the tmpfs /tmp). */
void gr_cmd_ro(gr_cmd *c, const char *path)
{
    for (int i = 0; i < 3; i++)
        if (!c->ro[i]) {
            c->ro[i] = path;
            return;
        }
}

int gr_exec(gr_cmd *c, gr_run_result *r, const char *what)
{
    double t = gr_now();
    /* The reference must read itself (also when it runs under compute-sanitizer); student code never. */
    c->o.extra_gid = 0;
    for (int i = 0; i < c->argc && !c->o.extra_gid; i++) c->o.extra_gid = gr_iso_run_group(c->argv[i]);
    /* An untimed GPU run holds the GPU's lock for itself only: a benchmark elsewhere waits for this run,
     * not for the rest of this submission's steps. */
    int locked = c->o.gpu && c->lock && c->lock->held == GR_LOCK_NONE && gr_gpu_share(c->lock) == 0;
    int rc = gr_run(&c->o, r);
    if (locked) gr_gpu_release(c->lock);
    if (c->o.gpu) gr_budget_charge(c->budget, r->wall_s);
    char d[300];
    gr_run_describe(r, &c->o, d, sizeof d);
    LOG("%-28s %6.2f s  %s", what, gr_now() - t, d);
    return rc;
}

/* The last non-empty lines of a text, for short feedback. */
void gr_tail_lines(const char *text, int lines, char *out, size_t len)
{
    size_t n = strlen(text);
    while (n && (text[n - 1] == '\n' || text[n - 1] == ' ')) n--;
    size_t start = n;
    for (int k = 0; k < lines && start > 0; k++) {
        start--;
        while (start > 0 && text[start - 1] != '\n') start--;
    }
    snprintf(out, len, "%.*s", (int)(n - start), text + start);
}
