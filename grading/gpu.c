/* gpu.c — see gpu.h. */
#define _GNU_SOURCE 1
#include "gpu.h"
#include "tool.h"

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
