/* job.c — see job.h. */
#define _GNU_SOURCE 1
#include "job.h"

void gr_cmd_init(gr_cmd *c, const gr_config *x, const gr_sub_state *s, const char *workdir, double timeout,
                 gr_run_kind kind)
{
    int gpu = kind != GR_RUN_HOST;
    /* o.box: bubblewrap as probed once (gr_iso_setup) */
    *c = (gr_cmd){.o = {.workdir = workdir, .timeout_s = timeout, .cpu_s = x->rub.cpu_s, .fsize = x->rub.file_bytes,
                        .disk = x->rub.disk_bytes, .nproc = x->rub.nproc, .out_cap = x->rub.out_cap, .gpu = gpu,
                        .no_bwrap = gpu && s->gpu_way == GR_GPU_NO_BWRAP, .box = x->iso.box, .gid = s->sub_gid,
                        .janitor = x->janitor, .argv = c->argv, .env = c->env, .hide = c->hide, .ro_paths = c->ro},
                  .x = x, .s = s, .hide = {x->root}};
    /* Fewer hardware work queues than CUDA's eight: a CUDA process's start and end hold a driver lock that all the
     * machine's GPUs share, and the queues are most of that time (two H100s, issue 43: a context in 64 ms, not 130).
     * Untimed runs get one. Measured runs two: every chapter's reference timed as on eight (32 rows within 0.8 %; on
     * one, ch1's vector up to 2.4 % slower), a class's benchmark runs on 2 GPUs in 0.84 and 1.82 s (were 0.89, 1.90) */
    if (gpu) c->env[0] = c->env_gpu;
    if (gpu) c->env[1] = kind == GR_RUN_GPU ? "CUDA_DEVICE_MAX_CONNECTIONS=1" : "CUDA_DEVICE_MAX_CONNECTIONS=2";
    /* Hidden under bubblewrap (/ bound read-only): the submission, the grading's other folders, the kept runs. */
    const char *hidden[] = {s->hide_sub, s->work, x->keep};
    for (size_t i = 0, n = 1; i < sizeof hidden / sizeof hidden[0]; i++)
        if (hidden[i][0]) c->hide[n++] = hidden[i];
    int n = snprintf(c->env_gpu, sizeof c->env_gpu, "CUDA_VISIBLE_DEVICES=");
    gr_gpu_id(x->gpu, c->env_gpu + n, sizeof c->env_gpu - (size_t)n);
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

void gr_arg_keep(gr_cmd *c, const char *s)
{
    if (strlen(s) < sizeof c->store[0] || c->argc >= 94) gr_arg(c, "%s", s);
    else c->argv[c->argc++] = s, c->argv[c->argc] = NULL;
}

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
    for (int i = 0; i < c->argc && !c->o.extra_gid; i++) c->o.extra_gid = gr_iso_run_group(&c->x->iso, c->argv[i]);
    /* An untimed GPU run holds the GPU's lock for itself only: a benchmark elsewhere waits for this run, not for
     * the rest of this submission's steps. Another run's memory is never this one's failure: only alone counts. */
    int rc;
    for (gr_lock_state how = GR_LOCK_SHARED;; how = GR_LOCK_ALONE) {
        int locked = c->o.gpu && gr_gpu_take_for_run(c->s->lock, how);
        rc = gr_run(&c->o, r);
        if (locked) gr_gpu_release(c->s->lock);
        if (!locked || !gr_gpu_retry_alone(r->exited, r->code, how)) break;
        LOG(c->x, "%-28s out of GPU memory beside other runs: once more alone on the GPU", what);
        gr_run_result_free(r);
    }
    if (c->o.gpu) gr_budget_charge(c->s->budget, r->wall_s);
    char d[300];
    gr_run_describe(r, &c->o, d, sizeof d);
    LOG(c->x, "%-28s %6.2f s  %s", what, gr_now() - t, d);
    return rc;
}

/* One run of the probe: 1 when the program found no GPU; *bwrap: whether it ran under bubblewrap. */
static int gr_gpu_probe_run(const gr_config *x, const gr_sub_state *s, const char *prog, const gr_chapter_rubric *ch,
                            const char *dir, int no_bwrap, int *bwrap)
{
    gr_cmd c;
    gr_cmd_init(&c, x, s, dir, x->rub.t_run, GR_RUN_GPU);
    c.o.no_bwrap = no_bwrap;
    const char *const argv[] = {prog, "--variant", ch->var[0].name, "--size", ch->edge[0].text, "--reps", "1",
                                "--warmup", "0"};
    for (size_t a = 0; a < sizeof argv / sizeof argv[0]; a++) gr_arg(&c, "%s", argv[a]);
    gr_cmd_ro(&c, prog);
    *bwrap = gr_run_box_here(&c.o) == GR_BOX_BWRAP;
    gr_run_result r;
    gr_exec(&c, &r, no_bwrap ? "GPU probe without bubblewrap" : "GPU probe");
    int no_gpu = r.exited && r.code == WB_EXIT_NO_DEVICE;
    gr_run_result_free(&r);
    return no_gpu;
}

void gr_gpu_probe(const gr_config *x, gr_sub_state *s, const char *prog, const gr_chapter_rubric *ch, const char *work)
{
    if (s->gpu_way != GR_GPU_UNASKED) return;
    char dir[PATH_MAX];
    int bwrap;
    snprintf(dir, sizeof dir, "%s/probe", work);
    gr_mkdirs(dir, 0755);
    /* No GPU under bubblewrap: once more without it, kept where the GPU is found then. Not root, bubblewrap is all
     * that keeps student code from the course files: GPU runs go without it only with --insecure-sandbox or in the
     * student's practice run (--check). */
    int may_unbox = geteuid() == 0 || x->insecure || x->mode == GR_MODE_CHECK;
    int without = gr_gpu_probe_run(x, s, prog, ch, dir, 0, &bwrap) && bwrap && may_unbox;
    s->gpu_way = without && !gr_gpu_probe_run(x, s, prog, ch, dir, 1, &bwrap) ? GR_GPU_NO_BWRAP : GR_GPU_BWRAP;
    gr_rmtree(dir);
}

void gr_fail(gr_ch_status *status, char *reason, size_t len, gr_ch_status st, const char *fmt, ...)
{
    va_list ap;
    *status = st;
    va_start(ap, fmt);
    vsnprintf(reason, len, fmt, ap);
    va_end(ap);
}

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

const char *gr_prog_kernels(const gr_prog_variant *pv, int npv, const char *variant)
{
    for (int k = 0; k < npv; k++)
        if (!strcmp(pv[k].name, variant)) return pv[k].kernels;
    return "";
}
