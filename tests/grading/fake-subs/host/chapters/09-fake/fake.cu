/* A host-only stand-in for a chapter (C, built with gcc by tests/grading/fake/Makefile) for the
 * grader's end-to-end test without a GPU. Two variants: plus (out[i] = in[i] + 1) and reverse. */
#include "wb.h"
#include "fakedrv.h"

static void plus_kernel(const int32_t *in, int32_t *out, int n)
{
    // BEGIN TODO(plus)
    for (int i = 0; i < n; i++) out[i] = in[i] + 1;
    // END TODO(plus)
}

static void reverse_kernel(const int32_t *in, int32_t *out, int n)
{
    // BEGIN TODO(reverse)
    for (int i = 0; i < n; i++) out[n - 1 - i] = in[i];
}

/* planted: the CPU time a host implementation would report (the fake's "kernels" are host code, so it
 * cannot really tell host from device work: this exercises the grader's path; test_honesty.c the rule) */
static int forged_main(int argc, char **argv, const fake_variant *vars, int nv)
{
    int rc = fake_main(argc, argv, vars, nv);
    const char *json = NULL;
    for (int k = 1; k + 1 < argc; k++)
        if (!strcmp(argv[k], "--json")) json = argv[k + 1];
    if (!json) return rc;
    static char text[1 << 16], out[1 << 17];
    FILE *f = fopen(json, "r");
    size_t len = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f) fclose(f);
    text[len] = 0;
    char *o = out;
    for (char *p = text; *p;) {
        if (!strncmp(p, "\"cpu_ms\":", 9)) {
            char *end;
            double ms = strtod(p + 9, &end);
            o += sprintf(o, "\"cpu_ms\":%.6g", 50 + 100 * ms);
            p = end;
        } else *o++ = *p++;
    }
    f = fopen(json, "w");
    if (f) {
        fwrite(out, 1, (size_t)(o - out), f);
        fclose(f);
    }
    return rc;
}
#define fake_main forged_main

static void forged_unused(void)
{
    // END TODO(reverse)
}

static const fake_variant variants[] = {{"plus", "plus_kernel", plus_kernel}, {"reverse", "reverse_kernel", reverse_kernel}};

int main(int argc, char **argv)
{
    return fake_main(argc, argv, variants, 2);
}
