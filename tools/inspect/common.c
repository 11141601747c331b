/* common.c — the helpers every command of the look-inside tool uses. */
#define _GNU_SOURCE 1
#include "inspect.h"

const char *prog_name = "inspect";

void die(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog_name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(code);
}

/* ---------------------------------------------------------------- processes and files */
/* Runs a shell command; returns its whole stdout+stderr (malloc'ed) and its exit status in *status
 * (128+signal when killed). */
char *run_capture(const char *cmd, int *status)
{
    char full[4200];
    snprintf(full, sizeof full, "%s 2>&1", cmd);
    FILE *p = popen(full, "r");
    if (!p) die(1, "cannot run: %s", cmd);
    size_t n = 0, cap = 1 << 16;
    char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n - 1, p)) > 0) {
        n += got;
        if (cap - n < 4096) buf = realloc(buf, cap *= 2);
    }
    buf[n] = 0;
    int st = pclose(p);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    return buf;
}

char *read_file(const char *path)
{
    size_t len;
    char *buf = wb_read_file(path, &len);
    if (!buf) die(1, "cannot read %s: %s", path, strerror(errno));
    return buf;
}

/* Program paths, variant names and sizes reach the shell: allow only what they are made of. */
const char *shell_safe(const char *what, const char *s)
{
    for (const char *c = s; *c; c++)
        if (!isalnum((unsigned char)*c) && !strchr("/._-^x+,:=", *c))
            die(EXIT_USAGE, "%s '%s' has a character the shell would interpret", what, s);
    return s;
}

int on_path(const char *tool)
{
    char cmd[256];
    int st;
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null", tool);
    free(run_capture(cmd, &st));
    return st == 0;
}

void parse_opts(int argc, char **argv, int first, opts *o)
{
    memset(o, 0, sizeof *o);
    o->block = -1; /* not given: each kernel's own launch */
    o->dsmem = -1;
    o->jobs = 4;
    o->timeout_s = 600;
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        const char **str = NULL;
        int *num = NULL;
        if (!strcmp(a, "--program")) str = &o->program;
        else if (!strcmp(a, "--variant")) str = &o->variant;
        else if (!strcmp(a, "--listing")) str = &o->listing;
        else if (!strcmp(a, "--ptxas")) str = &o->ptxas;
        else if (!strcmp(a, "--arch")) str = &o->arch;
        else if (!strcmp(a, "--size")) str = &o->size;
        else if (!strcmp(a, "--tools")) str = &o->tools;
        else if (!strcmp(a, "--report")) str = &o->report;
        else if (!strcmp(a, "--logs")) str = &o->logs;
        else if (!strcmp(a, "--label")) str = &o->label;
        else if (!strcmp(a, "--csv")) str = &o->csv;
        else if (!strcmp(a, "--block")) num = &o->block;
        else if (!strcmp(a, "--dsmem")) num = &o->dsmem;
        else if (!strcmp(a, "--jobs")) num = &o->jobs;
        else if (!strcmp(a, "--timeout")) num = &o->timeout_s;
        else if (!strcmp(a, "--json")) { o->json = 1; continue; }
        else if (!strcmp(a, "--check")) { o->check = 1; continue; }
        else if (!strcmp(a, "--all")) { o->all = 1; continue; }
        else die(EXIT_USAGE, "unknown option '%s'", a);
        if (i + 1 >= argc || !argv[i + 1][0]) die(EXIT_USAGE, "option '%s' needs a value", a);
        if (str) *str = argv[++i];
        else {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 0 || v > (1 << 26)) die(EXIT_USAGE, "%s '%s' is not a non-negative integer", a, argv[i]);
            *num = (int)v;
        }
    }
    if (o->program) shell_safe("program", o->program);
    if (o->size) shell_safe("size", o->size);
    if (o->variant && *o->variant == 0) o->variant = NULL;
}

void load_variants(const char *program, const char *choice, variants *vs)
{
    char cmd[1024], err[256];
    int st;
    snprintf(cmd, sizeof cmd, "./%s --list --json -", program);
    if (program[0] == '/' || strncmp(program, "./", 2) == 0) snprintf(cmd, sizeof cmd, "%s --list --json -", program);
    char *out = run_capture(cmd, &st);
    if (st != 0) die(1, "%s --list --json - failed (exit %d): %.300s", program, st, out);
    vs->n = tp_parse_variants(out, vs->v, TP_MAX_VARIANTS, err, sizeof err);
    free(out);
    if (vs->n < 0) die(1, "%s: %s", program, err);
    vs->selected = 0;
    if (!choice || !strcmp(choice, "all")) {
        vs->selected = (1u << vs->n) - 1;
        return;
    }
    char buf[512];
    tp_copy(buf, sizeof buf, choice, strlen(choice));
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int k = tp_variant_find(vs->v, vs->n, t);
        if (k < 0) {
            fprintf(stderr, "%s: unknown variant '%s' for %s; valid:", prog_name, t, program);
            for (int i = 0; i < vs->n; i++) fprintf(stderr, " %s", vs->v[i].name);
            fputc('\n', stderr);
            exit(EXIT_USAGE);
        }
        vs->selected |= 1u << k;
    }
}

/* Do the selected variants all name their kernels? */
int kernels_named(const variants *vs)
{
    for (int i = 0; i < vs->n; i++)
        if ((vs->selected >> i & 1) && vs->v[i].n_kernels == 0) return 0;
    return 1;
}

/* The selected variants that use the function `symbol`, comma-separated, into buf; 0 if none. */
int variants_of(const variants *vs, const char *symbol, int selected_only, char *buf, size_t len)
{
    int found = 0;
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; i < vs->n; i++) {
        if (selected_only && !(vs->selected >> i & 1)) continue;
        for (int k = 0; k < vs->v[i].n_kernels; k++)
            if (tp_kernel_matches(symbol, vs->v[i].kernels[k])) {
                int w = snprintf(buf + at, len - at, "%s%s", found ? "," : "", vs->v[i].name);
                if (w > 0 && (size_t)w < len - at) at += (size_t)w;
                found++;
                break;
            }
    }
    return found;
}

void describe_selection(const variants *vs, char *buf, size_t len)
{
    size_t at = 0;
    int count = 0;
    buf[0] = 0;
    if (vs->selected == (1u << vs->n) - 1) {
        snprintf(buf, len, "all variants");
        return;
    }
    for (int i = 0; i < vs->n; i++)
        if (vs->selected >> i & 1) {
            int w = snprintf(buf + at, len - at, "%s%s", count++ ? ", " : "", vs->v[i].name);
            if (w > 0 && (size_t)w < len - at) at += (size_t)w;
        }
}

int arch_number(const char *arch)
{
    if (!arch) return -1;
    const char *d = arch;
    while (*d && !isdigit((unsigned char)*d)) d++;
    return *d ? atoi(d) : -1;
}

/* ---------------------------------------------------------------- sanitize */
const char *program_cmd(const char *program, char *buf, size_t len)
{
    if (program[0] == '/' || strncmp(program, "./", 2) == 0) snprintf(buf, len, "%s", program);
    else snprintf(buf, len, "./%s", program);
    return buf;
}

/* A small size the program accepts and that is no multiple of any block or tile: 1-D 1031, else 3-D. */
const char *probe_size(const char *program)
{
    static const char *const candidates[] = {"1031", "67x45x33"};
    char cmd[1200], pc[1024];
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
        int st;
        snprintf(cmd, sizeof cmd, "%s --size %s --list", program_cmd(program, pc, sizeof pc), candidates[i]);
        free(run_capture(cmd, &st));
        if (st == 0) return candidates[i];
    }
    die(EXIT_USAGE, "%s accepts neither --size 1031 nor --size 67x45x33; give SIZE=", program);
    return NULL;
}

pid_t spawn_shell(const char *cmd)
{
    pid_t pid = fork();
    if (pid < 0) die(1, "fork failed: %s", strerror(errno));
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    return pid;
}

const char *program_verdict(int rc)
{
    switch (rc) {
    case 0: return "program PASS";
    case 1: return "program FAIL/TODO";
    case 2: return "program: bad usage";
    case 3: return "program: no CUDA device";
    case 4: return "program: CUDA error";
    case 86: return "";
    case 124: return "timed out";
    default: return "program exited abnormally";
    }
}
