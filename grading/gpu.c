/* gpu.c — see gpu.h. */
#define _GNU_SOURCE 1
#include "gpu.h"


/* The GPUs this grader may use: those CUDA_VISIBLE_DEVICES names when it is set, else every GPU
 * nvidia-smi lists. gr_gpu_id gives the k-th one's id (an index or a UUID) for the child's
 * CUDA_VISIBLE_DEVICES and the lock's name. */
void gr_gpu_id(int k, char *id, size_t len)
{
    const char *vis = getenv("CUDA_VISIBLE_DEVICES");
    if (vis && *vis) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s", vis);
        char *save = NULL;
        int i = 0;
        for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save), i++)
            if (i == k) {
                snprintf(id, len, "%s", t);
                return;
            }
    }
    snprintf(id, len, "%d", k);
}

int gr_gpu_count(void)
{
    const char *vis = getenv("CUDA_VISIBLE_DEVICES");
    if (vis && *vis) {
        int n = 1;
        for (const char *p = vis; *p; p++) n += *p == ',';
        return n;
    }
    int st;
    char *out = gr_capture_cmd("nvidia-smi -L 2>/dev/null", 65536, &st);
    int n = 0;
    for (char *p = out; p && (p = strstr(p, "GPU ")); p += 4)
        if (p == out || p[-1] == '\n') n++;
    free(out);
    return n;
}

/* Can a sandboxed program reach the GPU? Where bubblewrap cannot pass the device through (a kernel
 * that refuses device nodes in a user namespace, say) but the plain sandbox can, GPU runs go without
 * bubblewrap, and the report says so. Asked once per process, with a one-element run. */
void gr_gpu_probe(const gr_config *x, const gr_sub_state *s, const char *prog, const gr_chapter_rubric *ch, const char *work,
                         gr_sub_result *res)
{
    static int asked;
    if (asked) goto note;
    asked = 1;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/probe", work);
    gr_mkdirs(dir, 0755);
    for (int attempt = 0; attempt < 2; attempt++) {
        gr_cmd c;
        gr_cmd_init(&c, x, s, dir, x->rub.t_run, 1);
        c.o.no_bwrap = attempt == 1;
        gr_arg(&c, "%s", prog);
        gr_arg(&c, "--variant");
        gr_arg(&c, "%s", ch->var[0].name);
        gr_arg(&c, "--size");
        gr_arg(&c, "%s", ch->edge[0]);
        gr_arg(&c, "--reps");
        gr_arg(&c, "1");
        gr_arg(&c, "--warmup");
        gr_arg(&c, "0");
        gr_cmd_ro(&c, prog);
        gr_run_result r;
        gr_exec(&c, &r, attempt ? "GPU probe without bubblewrap" : "GPU probe");
        int no_gpu = r.exited && r.code == WB_EXIT_NO_DEVICE;
        int used_bwrap = strstr(r.how, "bubblewrap") != NULL;
        gr_run_result_free(&r);
        if (attempt == 1) {
            if (no_gpu) gr_gpu_without_bwrap = 0; /* no GPU at all: bubblewrap was not the problem */
            break;
        }
        if (!no_gpu || !used_bwrap) break; /* the GPU works (or bubblewrap was not in use) */
        /* Not root, bubblewrap is the only thing between student code and the course files: without
         * it GPU runs do not go (isolation.h), unless --insecure-sandbox or the student's practice run
         * of their own code (--check). */
        if (geteuid() != 0 && !x->insecure && !x->check_mode) break;
        gr_gpu_without_bwrap = 1; /* try once more without bubblewrap; kept if it works */
    }
    gr_rmtree(dir);
note:
    if (gr_gpu_without_bwrap && !strstr(res->isolation, "GPU runs without"))
        snprintf(res->isolation + strlen(res->isolation), sizeof res->isolation - strlen(res->isolation),
                 "; GPU runs without bubblewrap (it could not reach the GPU here)");
}
