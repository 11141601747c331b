/* gpu.c — see gpu.h. */
#define _GNU_SOURCE 1
#include "gpu.h"
#include "tool.h"

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
    char *argv[] = {"nvidia-smi", "-L", NULL};
    gr_str o = {0};
    gr_tool_run(argv, NULL, &o, NULL, 30);
    const char *out = gr_str_c(&o);
    int n = 0;
    for (const char *p = out; (p = strstr(p, "GPU ")); p += 4)
        if (p == out || p[-1] == '\n') n++;
    gr_str_free(&o);
    return n;
}
