/* gpu.c — see gpu.h. */
#define _GNU_SOURCE 1
#include "gpu.h"
#include "tool.h"
#include "contract.h"

#include <fcntl.h>
#include <sys/file.h>

/* The k-th entry of CUDA_VISIBLE_DEVICES into id (when id is not NULL); how many entries it has (0: unset). */
static int gr_visible(int k, char *id, size_t len)
{
    const char *vis = getenv("CUDA_VISIBLE_DEVICES");
    int n = 0;
    for (const char *p = vis; p && *p; n++) {
        size_t w = strcspn(p, ",");
        if (n == k && id) snprintf(id, len, "%.*s", (int)w, p);
        p += w + (p[w] == ',');
    }
    return n;
}

void gr_gpu_id(int k, char *id, size_t len) { if (k >= gr_visible(k, id, len)) snprintf(id, len, "%d", k); }

void gr_gpu_name(int k, char *out, size_t len)
{
    char id[64];
    gr_gpu_id(k, id, sizeof id);
    char *argv[] = {"nvidia-smi", "--query-gpu=name", "--format=csv,noheader", "-i", id, NULL};
    gr_str name = {0};
    int st = gr_tool_run(argv, NULL, &name, NULL, 30);
    snprintf(out, len, "%.*s", st ? 0 : (int)strcspn(gr_str_c(&name), "\r\n"), gr_str_c(&name));
    gr_str_free(&name);
}

int gr_gpu_count(void)
{
    int n = gr_visible(-1, NULL, 0);
    if (n) return n;
    char *argv[] = {"nvidia-smi", "-L", NULL};
    gr_str o = {0};
    gr_tool_run(argv, NULL, &o, NULL, 30);
    const char *out = gr_str_c(&o);
    for (const char *p = out; (p = strstr(p, "GPU ")); p += 4)
        if (p == out || p[-1] == '\n') n++;
    gr_str_free(&o);
    return n;
}

void gr_gpu_lock_init(gr_gpu_lock *l, int k)
{
    const char *dir = getenv("WB_GRADE_LOCK_DIR");
    char id[64];
    *l = (gr_gpu_lock){.fd = -1, .queue_fd = -1, .held = GR_LOCK_NONE};
    gr_gpu_id(k, id, sizeof id);
    gr_safe_name(id, sizeof id, id, "-");
    dir = dir && *dir ? dir : "/tmp";
    snprintf(l->path, sizeof l->path, "%s/wb-grade-gpu%s.lock", dir, id);
    snprintf(l->turn, sizeof l->turn, "%s/wb-grade-gpu%s.turn", dir, id);
    snprintf(l->queue, sizeof l->queue, "%s/wb-grade-gpu%s.queue", dir, id);
}

/* Opens a lock file that every grader (any uid) may lock and locks it (LOCK_SH or LOCK_EX): its fd, or -1. */
static int gr_lock_file(const char *path, int op)
{
    int fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0666);
    if (fd < 0) return -1;
    (void)fchmod(fd, 0666);
    while (flock(fd, op) != 0 && errno == EINTR) continue;
    return fd;
}

int gr_lock_alone(const char *path) { return gr_lock_file(path, LOCK_EX); }

int gr_gpu_take_for_run(gr_gpu_lock *l, gr_lock_state how)
{
    if (!l || l->held != GR_LOCK_NONE) return 0;
    int op = how == GR_LOCK_ALONE ? LOCK_EX : LOCK_SH;
    int q = how == GR_LOCK_ALONE ? gr_lock_file(l->queue, LOCK_EX) : -2; /* one benchmark at the turnstile */
    /* Through the turnstile: a benchmark holds it alone while it waits, so shared runs queue behind it. */
    int t = q == -1 ? -1 : gr_lock_file(l->turn, op);
    l->fd = t < 0 ? -1 : gr_lock_file(l->path, op);
    if (t >= 0) close(t);
    if (l->fd < 0) {
        if (q >= 0) close(q);
        return 0;
    }
    l->queue_fd = q;
    l->held = how;
    return 1;
}

void gr_gpu_release(gr_gpu_lock *l)
{
    if (l->fd >= 0) {
        flock(l->fd, LOCK_UN);
        close(l->fd);
    }
    if (l->queue_fd >= 0) close(l->queue_fd); /* after the GPU's lock: the next benchmark finds it free */
    l->fd = -1;
    l->queue_fd = -1;
    l->held = GR_LOCK_NONE;
}

int gr_gpu_retry_alone(int exited, int code, gr_lock_state held)
{
    return exited && code == WB_EXIT_NO_MEMORY && held == GR_LOCK_SHARED;
}

int gr_gpu_keep(const char *root)
{
    char prog[PATH_MAX];
    int p[2];
    snprintf(prog, sizeof prog, "%s/build/gpu-keeper", root);
    if (access(prog, X_OK) || pipe2(p, O_CLOEXEC)) return -1; /* no exec of a grader's run inherits the end */
    pid_t pid = fork();
    if (pid == 0) {
        dup2(p[0], 0);
        execl(prog, prog, (char *)NULL);
        _exit(127);
    }
    close(p[0]);
    if (pid > 0) return p[1];
    close(p[1]);
    return -1;
}
