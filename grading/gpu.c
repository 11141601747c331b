/* gpu.c — see gpu.h. */
#define _GNU_SOURCE 1
#include "gpu.h"

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

void gr_gpu_id(int k, char *id, size_t len)
{
    if (k >= gr_visible(k, id, len)) snprintf(id, len, "%d", k);
}

int gr_gpu_count(void)
{
    int n = gr_visible(-1, NULL, 0);
    if (n) return n;
    int st;
    char *out = gr_capture_cmd("nvidia-smi -L 2>/dev/null", 65536, &st);
    for (char *p = out; p && (p = strstr(p, "GPU ")); p += 4)
        if (p == out || p[-1] == '\n') n++;
    free(out);
    return n;
}

void gr_gpu_name(int k, char *out, size_t len)
{
    char id[64], cmd[200];
    out[0] = 0;
    gr_gpu_id(k, id, sizeof id);
    if (strspn(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-") != strlen(id)) return; /* a shell's */
    snprintf(cmd, sizeof cmd, "nvidia-smi --query-gpu=name --format=csv,noheader -i %s 2>/dev/null", id);
    int st;
    char *name = gr_capture_cmd(cmd, 4096, &st);
    if (name && st == 0) snprintf(out, len, "%.*s", (int)strcspn(name, "\r\n"), name);
    free(name);
}
