/*
 * inspect — look inside a chapter's kernels: the tool behind `make sass / resources / sanitize /
 * profile` (see the "look inside" section of the Makefile, which builds the inputs and calls this).
 *
 *   inspect sass      --program P --listing FILE [--variant V]
 *   inspect resources --program P --ptxas FILE --arch sm_NN [--variant V] [--block B] [--dsmem D] [--json]
 *   inspect sanitize  --program P [--variant V] [--size S] [--tools LIST] [--jobs J] [--logs DIR]
 *   inspect profile   --program P --variant V --report PATH [--size S] [--ptxas FILE]
 *   inspect profile   --csv FILE           the summary of a CSV written by an earlier profile
 *   inspect gpu       [--arch sm_NN] [--check]     the GPU's limits as JSON; --check: exit 3 without a GPU
 *
 * P is a chapter program (build/chapterN, build/solutionN, or any program built on wb_main): its
 * `--list --json -` names the variants and their kernels. FILE inputs are what cuobjdump -sass,
 * nvcc -ptx and nvcc -Xptxas -v printed. Everything read from a tool's output goes through the
 * parsers of toolparse.h, which the tests check on captured output.
 *
 * C, compiled by nvcc only to link the CUDA runtime for cudaGetDeviceProperties (no kernels here).
 * Exit codes: 0 fine / clean; 1 findings (sanitize) or a tool failed; 2 bad usage (a bad variant
 * gets the list of valid ones); 3 no GPU (sanitize, profile, gpu --check) or a tool is missing.
 */
#include <cuda_runtime_api.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "regions.h" /* wb_read_file */
#include "sanitizer.h"
#include "toolparse.h"

#define EXIT_FINDINGS 1
#define EXIT_USAGE 2
#define EXIT_NEEDS 3

static const char *prog_name = "inspect";

static void die(int code, const char *fmt, ...)
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
static char *run_capture(const char *cmd, int *status)
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

static char *read_file(const char *path)
{
    size_t len;
    char *buf = wb_read_file(path, &len);
    if (!buf) die(1, "cannot read %s: %s", path, strerror(errno));
    return buf;
}

/* Program paths, variant names and sizes reach the shell: allow only what they are made of. */
static const char *shell_safe(const char *what, const char *s)
{
    for (const char *c = s; *c; c++)
        if (!isalnum((unsigned char)*c) && !strchr("/._-^x+,:=", *c))
            die(EXIT_USAGE, "%s '%s' has a character the shell would interpret", what, s);
    return s;
}

static int on_path(const char *tool)
{
    char cmd[256];
    int st;
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null", tool);
    free(run_capture(cmd, &st));
    return st == 0;
}

/* ---------------------------------------------------------------- options */
typedef struct {
    const char *program, *variant, *listing, *ptxas, *arch, *size, *tools, *report, *logs, *label, *csv;
    int block, dsmem, jobs, json, check, timeout_s;
} opts;

static void parse_opts(int argc, char **argv, int first, opts *o)
{
    memset(o, 0, sizeof *o);
    o->block = 256;
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

/* ---------------------------------------------------------------- the chapter's variants */
typedef struct {
    tp_variant v[TP_MAX_VARIANTS];
    int n;
    unsigned selected;       /* bit i: variant i chosen */
} variants;

static void load_variants(const char *program, const char *choice, variants *vs)
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
static int kernels_named(const variants *vs)
{
    for (int i = 0; i < vs->n; i++)
        if ((vs->selected >> i & 1) && vs->v[i].n_kernels == 0) return 0;
    return 1;
}

/* The selected variants that use the function `symbol`, comma-separated, into buf; 0 if none. */
static int variants_of(const variants *vs, const char *symbol, int selected_only, char *buf, size_t len)
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

static void describe_selection(const variants *vs, char *buf, size_t len)
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

/* ---------------------------------------------------------------- sass */
static void print_counts(tp_isa isa, const tp_counts *c)
{
    static const int bits[5] = {8, 16, 32, 64, 128};
    printf("    %-15s %6s  %-22s %s\n", "kind", "count", "widths", "what it is");
    for (int k = 0; k < TP_K_COUNT; k++) {
        if (!c->kind[k]) continue;
        char widths[64] = "";
        size_t at = 0;
        for (int w = 4; w >= 0; w--)
            if (c->width[k][w]) {
                int n = snprintf(widths + at, sizeof widths - at, "%s%d-bit x%d", at ? ", " : "", bits[w],
                                 c->width[k][w]);
                if (n > 0 && (size_t)n < sizeof widths - at) at += (size_t)n;
            }
        printf("    %-15s %6d  %-22s %s\n", tp_kind_names[k], c->kind[k], widths, tp_kind_legend[isa][k]);
    }
    char absent[512] = "";
    size_t at = 0;
    for (int k = 0; k < TP_K_OTHER; k++)
        if (!c->kind[k]) {
            int n = snprintf(absent + at, sizeof absent - at, "%s%s", at ? ", " : "", tp_kind_names[k]);
            if (n > 0 && (size_t)n < sizeof absent - at) at += (size_t)n;
        }
    if (at) printf("    none of: %s\n", absent);
}

static int cmd_sass(const opts *o)
{
    if (!o->program || !o->listing) die(EXIT_USAGE, "sass needs --program and --listing");
    variants vs;
    load_variants(o->program, o->variant, &vs);
    char *text = read_file(o->listing);
    tp_listing l;
    tp_parse_listing(text, &l);
    free(text);
    if (l.n_functions == 0) die(1, "%s holds no kernel code (is it cuobjdump -sass or nvcc -ptx output?)", o->listing);

    int named = kernels_named(&vs);
    char sel[512];
    describe_selection(&vs, sel, sizeof sel);
    const char *isa_name = l.isa == TP_ISA_SASS ? "SASS (machine code, cuobjdump -sass)" : "PTX (virtual ISA, nvcc -ptx)";
    printf("%s of %s, %s [%s]\n", isa_name, o->program, sel, l.functions[0].arch);
    if (l.isa == TP_ISA_PTX)
        printf("note: cuobjdump was not found, so this is PTX, the compiler's intermediate code; the GPU runs SASS,\n"
               "      which ptxas makes from it (register allocation, unrolling and load widths can still change).\n");
    if (!named)
        printf("note: a selected variant does not name its kernels (the `kernels` field of wb_variant_info),\n"
               "      so every kernel in the program is shown.\n");

    tp_counts total;
    memset(&total, 0, sizeof total);
    int shown = 0;
    for (int f = 0; f < l.n_functions; f++) {
        const tp_function *fn = &l.functions[f];
        char users[256];
        if (named && !variants_of(&vs, fn->name, 1, users, sizeof users)) continue;
        if (!named) variants_of(&vs, fn->name, 0, users, sizeof users);
        char base[TP_NAME];
        tp_base_name(fn->name, base, sizeof base);
        printf("\n== kernel %s  (%s)%s%s\n", base, fn->name, users[0] ? "  variant: " : "", users);
        for (int i = 0; i < fn->n_insns; i++) {
            if (l.isa == TP_ISA_SASS && strcmp(fn->insns[i].opcode, "NOP") == 0) continue;
            printf("  %-8s %s\n", fn->insns[i].addr, fn->insns[i].text);
        }
        tp_counts c;
        memset(&c, 0, sizeof c);
        tp_count(l.isa, fn, &c);
        printf("  -- %s: %d instructions\n", base, c.total);
        print_counts(l.isa, &c);
        for (int k = 0; k < TP_K_COUNT; k++) {
            total.kind[k] += c.kind[k];
            for (int w = 0; w < 5; w++) total.width[k][w] += c.width[k][w];
        }
        total.total += c.total;
        shown++;
    }
    if (!shown) {
        fprintf(stderr, "%s: none of the kernels of %s is in %s; the listing has:", prog_name, sel, o->listing);
        for (int f = 0; f < l.n_functions; f++) fprintf(stderr, " %s", l.functions[f].name);
        fputc('\n', stderr);
        tp_listing_free(&l);
        return 1;
    }
    if (shown > 1) {
        printf("\n== all %d kernels shown: %d instructions\n", shown, total.total);
        print_counts(l.isa, &total);
    }
    tp_listing_free(&l);
    return 0;
}

/* ---------------------------------------------------------------- the GPU */
/* The present GPU's limits, or -1 with the reason. */
static int gpu_present(tp_gpu *g, char *why, size_t len)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        snprintf(why, len, "%s", e != cudaSuccess ? cudaGetErrorString(e) : "the driver reports 0 devices");
        return -1;
    }
    struct cudaDeviceProp p;
    e = cudaGetDeviceProperties(&p, 0);
    if (e != cudaSuccess) {
        snprintf(why, len, "%s", cudaGetErrorString(e));
        return -1;
    }
    memset(g, 0, sizeof *g);
    tp_copy(g->name, sizeof g->name, p.name, strlen(p.name));
    g->major = p.major;
    g->minor = p.minor;
    g->sms = p.multiProcessorCount;
    g->warp_size = p.warpSize;
    g->max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    g->max_threads_per_block = p.maxThreadsPerBlock;
    g->max_blocks_per_sm = p.maxBlocksPerMultiProcessor;
    g->regs_per_sm = p.regsPerMultiprocessor;
    g->regs_per_block = p.regsPerBlock;
    g->smem_per_sm = (long)p.sharedMemPerMultiprocessor;
    g->smem_per_block = (long)p.sharedMemPerBlock;
    g->smem_per_block_optin = (long)p.sharedMemPerBlockOptin;
    g->reserved_smem_per_block = (long)p.reservedSharedMemPerBlock;
    return 0;
}

static int arch_number(const char *arch)
{
    if (!arch) return -1;
    const char *d = arch;
    while (*d && !isdigit((unsigned char)*d)) d++;
    return *d ? atoi(d) : -1;
}

static void print_gpu_json(const tp_gpu *g)
{
    json_t *j = json_pack("{s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:I,s:I,s:I,s:I,s:b}", "name", g->name,
                          "major", g->major, "minor", g->minor, "sms", g->sms, "warp_size", g->warp_size,
                          "max_threads_per_sm", g->max_threads_per_sm, "max_threads_per_block",
                          g->max_threads_per_block, "max_blocks_per_sm", g->max_blocks_per_sm, "regs_per_sm",
                          g->regs_per_sm, "regs_per_block", g->regs_per_block, "smem_per_sm",
                          (json_int_t)g->smem_per_sm, "smem_per_block", (json_int_t)g->smem_per_block,
                          "smem_per_block_optin", (json_int_t)g->smem_per_block_optin, "reserved_smem_per_block",
                          (json_int_t)g->reserved_smem_per_block, "is_default", g->is_default);
    char *s = json_dumps(j, JSON_COMPACT);
    puts(s);
    free(s);
    json_decref(j);
}

static int cmd_gpu(const opts *o)
{
    tp_gpu g;
    char why[256];
    if (gpu_present(&g, why, sizeof why) == 0) {
        if (!o->check) print_gpu_json(&g);
        return 0;
    }
    if (o->check) {
        fprintf(stderr, "%s needs an NVIDIA GPU, and none is usable here: %s (see `make doctor`)\n",
                o->label ? o->label : "this", why);
        return EXIT_NEEDS;
    }
    int cc = arch_number(o->arch ? o->arch : "sm_90");
    if (tp_gpu_default(cc, &g) != 0) die(EXIT_NEEDS, "no GPU (%s) and no published limits for %s", why, o->arch);
    print_gpu_json(&g);
    return 0;
}

/* ---------------------------------------------------------------- resources */
static int cmd_resources(const opts *o)
{
    if (!o->ptxas) die(EXIT_USAGE, "resources needs --ptxas");
    if (o->block < 1) die(EXIT_USAGE, "--block must be at least 1");
    variants vs;
    int have_variants = o->program != NULL;
    if (have_variants) load_variants(o->program, o->variant, &vs);
    char *text = read_file(o->ptxas);
    tp_resources res[128];
    int n = tp_parse_ptxas(text, res, 128);
    if (n == 0) die(1, "%s has no `ptxas info` lines for any kernel:\n%.600s", o->ptxas, text);
    free(text);

    /* The GPU: the present one, else the published limits of the compiled architecture. */
    tp_gpu g;
    char why[256] = "";
    int have_gpu = gpu_present(&g, why, sizeof why) == 0;
    int cc = arch_number(o->arch ? o->arch : res[0].arch);
    int have_limits = have_gpu || tp_gpu_default(cc, &g) == 0;
    if (have_gpu && cc > 0 && cc != g.major * 10 + g.minor && !o->json)
        printf("note: compiled for sm_%d, but the GPU is sm_%d%d; its registers may differ\n", cc, g.major, g.minor);

    if (!o->json) {
        printf("Resources per kernel (ptxas -v, %s)", res[0].arch);
        if (have_variants) printf(" of %s", o->program);
        printf("\n");
        if (have_gpu)
            printf("Occupancy on this GPU: %s (sm_%d%d, %d SMs), %d threads/block, %d B dynamic shared memory\n",
                   g.name, g.major, g.minor, g.sms, o->block, o->dsmem);
        else if (have_limits)
            printf("Occupancy at %d threads/block and %d B dynamic shared memory, for the published limits of the\n"
                   "%s: there is no GPU here (%s). ARCH=sm_NN picks another GPU.\n",
                   o->block, o->dsmem, g.name, why);
        else
            printf("Occupancy needs a GPU or a known architecture (sm_75/80/86/89/90): no GPU here (%s)\n", why);
        if (have_variants && !kernels_named(&vs))
            printf("note: a variant does not name its kernels (wb_variant_info.kernels): every kernel is shown\n");
        printf("  %-24s %-18s %5s %8s %7s %13s", "kernel", "variant", "regs", "smem B", "stack B", "spill st/ld B");
        if (have_limits) printf(" %9s %9s %9s  %s", "blocks/SM", "warps/SM", "occupancy", "limited by");
        printf("\n");
    }
    int shown = 0;
    for (int i = 0; i < n; i++) {
        const tp_resources *r = &res[i];
        char users[256] = "";
        if (have_variants) {
            int used = variants_of(&vs, r->name, 1, users, sizeof users);
            if (!used && o->variant && kernels_named(&vs)) continue;
            if (!used) variants_of(&vs, r->name, 0, users, sizeof users);
        }
        char base[TP_NAME];
        tp_base_name(r->name, base, sizeof base);
        tp_occ occ;
        if (have_limits) tp_occupancy(&g, r->regs, r->smem, o->dsmem, o->block, r->barriers, &occ);
        char lim[96] = "";
        if (have_limits) {
            if (occ.blocks == 0) snprintf(lim, sizeof lim, "cannot launch: %s", occ.why_zero ? occ.why_zero : "?");
            else tp_limiter_str(&occ, lim, sizeof lim);
        }
        if (o->json) {
            json_t *j = json_pack("{s:s,s:s,s:s,s:i,s:I,s:I,s:I,s:I,s:i,s:i}", "kernel", base, "symbol", r->name,
                                  "variants", users, "regs", r->regs, "smem", (json_int_t)r->smem, "stack",
                                  (json_int_t)r->stack, "spill_stores", (json_int_t)r->spill_stores, "spill_loads",
                                  (json_int_t)r->spill_loads, "block", o->block, "dsmem", o->dsmem);
            if (have_limits) {
                json_object_set_new(j, "blocks_per_sm", json_integer(occ.blocks));
                json_object_set_new(j, "occupancy", json_real(occ.occupancy));
                json_object_set_new(j, "limiter", json_string(lim));
                static const char *const keys[TP_LIM_COUNT] = {"by_threads", "by_registers", "by_smem",
                                                               "by_blocks", "by_barriers"};
                for (int l = 0; l < TP_LIM_COUNT; l++)
                    json_object_set_new(j, keys[l], occ.by[l] == INT_MAX ? json_null() : json_integer(occ.by[l]));
            }
            char *s = json_dumps(j, JSON_COMPACT);
            puts(s);
            free(s);
            json_decref(j);
        } else {
            char spill[32];
            snprintf(spill, sizeof spill, "%ld/%ld", r->spill_stores, r->spill_loads);
            printf("  %-24s %-18s %5d %8ld %7ld %13s", base, users[0] ? users : "-", r->regs, r->smem, r->stack, spill);
            if (have_limits) {
                char warps[24];
                snprintf(warps, sizeof warps, "%d/%d", occ.active_warps, occ.max_warps);
                printf(" %9d %9s %8.0f%%  %s", occ.blocks, warps, 100 * occ.occupancy, lim);
            }
            printf("\n");
        }
        shown++;
    }
    if (!shown) die(1, "no kernel of the chosen variant in %s", o->ptxas);
    if (!o->json) {
        printf("smem: static shared memory (dynamic shared memory is given at launch: DSMEM=bytes); stack: local\n"
               "memory per thread; spills: bytes stored to / loaded from local memory because registers ran out.\n");
        if (have_limits)
            printf("blocks/SM: the minimum of what threads (%d/SM), registers (%d/SM, 256 per warp), shared\n"
                   "memory (%ld B/SM, %ld B reserved per block) and the %d-block limit allow; occupancy =\n"
                   "resident warps / %d. BLOCK=threads sets the block size assumed (the chapter's launch decides).\n",
                   g.max_threads_per_sm, g.regs_per_sm, g.smem_per_sm, g.reserved_smem_per_block,
                   g.max_blocks_per_sm, g.max_threads_per_sm / (g.warp_size ? g.warp_size : 32));
    }
    return 0;
}

/* ---------------------------------------------------------------- sanitize */
static const char *program_cmd(const char *program, char *buf, size_t len)
{
    if (program[0] == '/' || strncmp(program, "./", 2) == 0) snprintf(buf, len, "%s", program);
    else snprintf(buf, len, "./%s", program);
    return buf;
}

/* A small size the program accepts and that is no multiple of any block or tile: 1-D 1031, else 3-D. */
static const char *probe_size(const char *program)
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

typedef struct {
    int variant;
    const char *tool;
    char log[1024];
    pid_t pid;
    int status;
} san_job;

static pid_t spawn_shell(const char *cmd)
{
    pid_t pid = fork();
    if (pid < 0) die(1, "fork failed: %s", strerror(errno));
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    return pid;
}

static const char *program_verdict(int rc)
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

static int cmd_sanitize(const opts *o)
{
    if (!o->program) die(EXIT_USAGE, "sanitize needs --program");
    variants vs;
    load_variants(o->program, o->variant, &vs);
    tp_gpu g;
    char why[256];
    if (gpu_present(&g, why, sizeof why) != 0) {
        fprintf(stderr, "make sanitize needs an NVIDIA GPU (compute-sanitizer runs the kernels): %s\n", why);
        return EXIT_NEEDS;
    }
    if (!on_path("compute-sanitizer"))
        die(EXIT_NEEDS, "compute-sanitizer is not on PATH (it comes with the CUDA toolkit, in its bin/ folder)");
    const char *size = o->size ? o->size : probe_size(o->program);
    const char *logs = o->logs ? o->logs : "build/sanitize";
    shell_safe("log folder", logs);
    char mk[1100];
    snprintf(mk, sizeof mk, "mkdir -p %s", logs);
    int st;
    free(run_capture(mk, &st));

    char toolbuf[256];
    snprintf(toolbuf, sizeof toolbuf, "%s", o->tools ? o->tools : "memcheck,racecheck,synccheck,initcheck");
    const char *tools[8];
    int n_tools = 0;
    for (char *save = NULL, *t = strtok_r(toolbuf, ",", &save); t && n_tools < 8; t = strtok_r(NULL, ",", &save)) {
        if (strcmp(t, "memcheck") && strcmp(t, "racecheck") && strcmp(t, "synccheck") && strcmp(t, "initcheck"))
            die(EXIT_USAGE, "unknown sanitizer tool '%s' (memcheck, racecheck, synccheck, initcheck)", t);
        tools[n_tools++] = t;
    }

    san_job jobs[TP_MAX_VARIANTS * 8];
    int n_jobs = 0;
    for (int v = 0; v < vs.n; v++)
        if (vs.selected >> v & 1)
            for (int t = 0; t < n_tools; t++) jobs[n_jobs++] = (san_job){.variant = v, .tool = tools[t]};

    const char *label = o->label ? o->label : o->program;
    char base[256];
    snprintf(base, sizeof base, "%s", strrchr(o->program, '/') ? strrchr(o->program, '/') + 1 : o->program);
    printf("compute-sanitizer on %s, size %s, one run per tool and variant (logs in %s/)\n", label, size, logs);
    fflush(stdout);

    /* Run up to `jobs` at once: each is mostly CPU work of the sanitizer; the GPU is shared. */
    int next = 0, running = 0, jobs_max = o->jobs > 0 ? o->jobs : 1;
    while (next < n_jobs || running > 0) {
        while (running < jobs_max && next < n_jobs) {
            san_job *j = &jobs[next++];
            snprintf(j->log, sizeof j->log, "%s/%s-%s-%s.log", logs, base, vs.v[j->variant].name, j->tool);
            char cmd[3000], pc[1024];
            snprintf(cmd, sizeof cmd,
                     "timeout %d compute-sanitizer --tool %s --error-exitcode 86 --print-limit 20 %s "
                     "--variant %s --size %s --reps 1 --warmup 0 > %s 2>&1",
                     o->timeout_s, j->tool, program_cmd(o->program, pc, sizeof pc), vs.v[j->variant].name, size,
                     j->log);
            j->pid = spawn_shell(cmd);
            running++;
        }
        int wst;
        pid_t done = wait(&wst);
        if (done < 0) break;
        for (int k = 0; k < next; k++)
            if (jobs[k].pid == done) {
                jobs[k].status = WIFEXITED(wst) ? WEXITSTATUS(wst) : 128 + WTERMSIG(wst);
                jobs[k].pid = 0;
            }
        running--;
    }

    int problems = 0, not_supported = 0;
    for (int k = 0; k < n_jobs; k++) {
        san_job *j = &jobs[k];
        char *text = read_file(j->log);
        gr_san_report s;
        gr_san_parse(text, &s);
        free(text);
        char verdict[1024];
        int bad;
        if (s.not_supported || (s.tool_error[0] && !s.found_summary)) {
            snprintf(verdict, sizeof verdict, "SANITIZER FAILED: %s", s.tool_error);
            bad = 1;
            not_supported += s.not_supported;
        } else if (!s.found_summary) {
            snprintf(verdict, sizeof verdict, "NO SUMMARY (exit %d%s%s): see the log", j->status,
                     j->status == 124 ? ", timed out after " : "", j->status == 124 ? "the limit" : "");
            bad = 1;
        } else if (gr_san_findings(&s) > 0) {
            snprintf(verdict, sizeof verdict, "FOUND %ld error%s%s: %s%s%s", s.errors, s.errors == 1 ? "" : "s",
                     s.warnings ? " + warnings" : "", s.first, s.where[0] ? " | " : "", s.where);
            bad = 1;
        } else if (j->status == 2 || j->status == 4 || j->status > 5) {
            snprintf(verdict, sizeof verdict, "clean, but %s (exit %d)", program_verdict(j->status), j->status);
            bad = 1;
        } else {
            snprintf(verdict, sizeof verdict, "clean   %s", program_verdict(j->status));
            bad = 0;
        }
        problems += bad;
        printf("  %-10s %-20s %s\n", j->tool, vs.v[j->variant].name, verdict);
        if (bad) printf("  %-10s %-20s log: %s\n", "", "", j->log);
    }
    if (not_supported) printf("compute-sanitizer could not instrument this GPU/driver (see the logs)\n");
    printf("%s: %d of %d runs %s\n", label, problems ? problems : n_jobs, n_jobs,
           problems ? "with findings" : "clean");
    return problems ? EXIT_FINDINGS : 0;
}

/* ---------------------------------------------------------------- profile */
/* One line that says why ncu produced nothing usable, from its output. */
static const char *ncu_failure(const char *log)
{
    if (strstr(log, "ERR_NVGPUCTRPERM"))
        return "ncu may not read the GPU's performance counters here (ERR_NVGPUCTRPERM: profiling is restricted "
               "to admin users; see NVIDIA's ERR_NVGPUCTRPERM page)";
    if (strstr(log, "LibraryNotLoaded") || strstr(log, "Failed to initialize the profiler"))
        return "ncu could not initialise the profiler on this machine (the driver's profiling library did not load)";
    if (strstr(log, "No kernels were profiled"))
        return "ncu profiled no kernel: the variant's kernels did not run (see the log)";
    if (strstr(log, "not supported") || strstr(log, "Unsupported"))
        return "ncu does not support this GPU or driver (see the log)";
    return NULL;
}

static void metric_line(const char *label, const char *text) { printf("  %-22s %s\n", label, text); }

static int profile_summary(const char *csvtext, const char *title);

static int cmd_profile(const opts *o)
{
    if (o->csv) { /* summarise a CSV that ncu --import wrote before (no GPU needed) */
        char *text = read_file(o->csv);
        int rc = profile_summary(text, o->csv);
        free(text);
        return rc;
    }
    if (!o->program || !o->report) die(EXIT_USAGE, "profile needs --program and --report");
    variants vs;
    if (!o->variant || strchr(o->variant, ',') || !strcmp(o->variant, "all")) {
        load_variants(o->program, NULL, &vs);
        fprintf(stderr, "%s: profile needs one variant (V=...); valid:", prog_name);
        for (int i = 0; i < vs.n; i++) fprintf(stderr, " %s", vs.v[i].name);
        fputc('\n', stderr);
        return EXIT_USAGE;
    }
    load_variants(o->program, o->variant, &vs);
    shell_safe("report", o->report);
    int v = 0;
    while (!(vs.selected >> v & 1)) v++;

    /* the kernels to profile: the variant's own, else every kernel the chapter's source defines */
    char regex[1024] = "";
    size_t at = 0;
    int n_k = vs.v[v].n_kernels;
    for (int k = 0; k < n_k; k++)
        at += (size_t)snprintf(regex + at, sizeof regex - at, "%s%s", k ? "|" : "", vs.v[v].kernels[k]);
    if (!n_k) {
        if (!o->ptxas) die(EXIT_USAGE, "variant %s names no kernels and no --ptxas file lists the chapter's", vs.v[v].name);
        char *text = read_file(o->ptxas);
        tp_resources res[128];
        int n = tp_parse_ptxas(text, res, 128);
        free(text);
        for (int k = 0; k < n; k++) {
            char base[TP_NAME];
            tp_base_name(res[k].name, base, sizeof base);
            at += (size_t)snprintf(regex + at, sizeof regex - at, "%s%s", k ? "|" : "", base);
        }
        printf("note: variant %s does not name its kernels (wb_variant_info.kernels); profiling every kernel of the "
               "chapter it launches: %s\n", vs.v[v].name, regex);
    }
    tp_gpu g;
    char why[256];
    if (gpu_present(&g, why, sizeof why) != 0) {
        fprintf(stderr, "make profile needs an NVIDIA GPU (ncu reads its hardware counters): %s\n", why);
        return EXIT_NEEDS;
    }
    if (!on_path("ncu")) die(EXIT_NEEDS, "ncu (Nsight Compute) is not on PATH; it comes with the CUDA toolkit");

    char cmd[4096], pc[1024], sizearg[128] = "";
    if (o->size) snprintf(sizearg, sizeof sizearg, "--size %s", o->size);
    /* --clock-control none: measure at the clocks the programs run at, not at base clocks.
     * --set full: every section, so the report file is complete for the Nsight Compute GUI. */
    snprintf(cmd, sizeof cmd,
             "ncu --set full --import-source no --clock-control none -f -o %s -k 'regex:^(%s)([<(].*)?$' "
             "%s --variant %s %s --reps 1 --warmup 0",
             o->report, regex, program_cmd(o->program, pc, sizeof pc), vs.v[v].name, sizearg);
    printf("profiling: %s\n", cmd);
    fflush(stdout);
    int st;
    char *log = run_capture(cmd, &st);
    char logpath[1100];
    snprintf(logpath, sizeof logpath, "%s.log", o->report);
    FILE *lf = fopen(logpath, "w");
    if (lf) fputs(log, lf), fclose(lf);
    const char *fail = ncu_failure(log);
    char rep[1100];
    snprintf(rep, sizeof rep, "%s.ncu-rep", o->report);
    struct stat sb;
    if (fail || stat(rep, &sb) != 0) {
        fprintf(stderr, "%s\n", fail ? fail : "ncu wrote no report (exit status below; full output in the log)");
        fprintf(stderr, "ncu exit %d; log: %s\n", st, logpath);
        free(log);
        return 1;
    }
    /* the program's own table, for the time and throughput it measured outside the profiler */
    free(log);

    snprintf(cmd, sizeof cmd, "ncu --import %s --csv --page raw --print-units base", rep);
    char *csvtext = run_capture(cmd, &st);
    char csvpath[1100];
    snprintf(csvpath, sizeof csvpath, "%s.csv", o->report);
    FILE *cf = fopen(csvpath, "w");
    if (cf) fputs(csvtext, cf), fclose(cf);
    if (st != 0) {
        fprintf(stderr, "could not read the report back (ncu --import exit %d): %.300s\n", st, csvtext);
        free(csvtext);
        return 1;
    }
    char title[512];
    snprintf(title, sizeof title, "%s, variant %s (%s) on %s", o->program, vs.v[v].name, vs.v[v].idea, g.name);
    int rc = profile_summary(csvtext, title);
    free(csvtext);
    if (rc == 0)
        printf("\nfull report: %s (open it in the Nsight Compute GUI: ncu-ui %s); raw metrics: %s\n", rep, rep,
               csvpath);
    return rc;
}

/* The student-readable summary of `ncu --import R --csv --page raw --print-units base`: one block per
 * kernel (its first launch; later launches are in the report). */
static int profile_summary(const char *csvtext, const char *title)
{
    tp_csv c;
    if (tp_parse_csv(csvtext, &c) != 0 || c.n_rows == 0) {
        fprintf(stderr, "no kernel rows in ncu's CSV: %.300s\n", csvtext);
        return 1;
    }
    int name_col = tp_csv_col(&c, "Kernel Name");
    printf("\nNsight Compute summary: %s\n", title);
    char seen[16][TP_NAME];
    int n_seen = 0;
    for (int r = 0; r < c.n_rows; r++) {
        const char *kname = name_col >= 0 ? c.rows[r][name_col] : "?";
        char base[TP_NAME];
        tp_base_name(kname, base, sizeof base);
        int dup = 0;
        for (int s = 0; s < n_seen; s++) dup |= !strcmp(seen[s], base);
        if (dup) continue; /* later launches of the same kernel: in the report */
        if (n_seen < 16) snprintf(seen[n_seen++], TP_NAME, "%s", base);

        const char *unit;
        char line[512];
        static const char *const t_dur[] = {"gpu__time_duration.sum", NULL};
        static const char *const t_blk[] = {"launch__block_size", NULL};
        static const char *const t_grid[] = {"launch__grid_size", NULL};
        static const char *const t_reg[] = {"launch__registers_per_thread", NULL};
        double dur = tp_csv_metric(&c, r, t_dur, &unit) * tp_unit_scale(unit);
        double blk = tp_csv_metric(&c, r, t_blk, NULL), grid = tp_csv_metric(&c, r, t_grid, NULL);
        double regs = tp_csv_metric(&c, r, t_reg, NULL);
        printf("\n== kernel %s\n", kname);
        snprintf(line, sizeof line, "%.4f ms   (%.0f blocks x %.0f threads, %.0f registers/thread)", dur * 1e3, grid,
                 blk, regs);
        metric_line("time (profiled)", line);

        static const char *const m_dram[] = {"dram__bytes.sum.per_second", NULL};
        static const char *const m_dram_pct[] = {"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
                                                 "dram__throughput.avg.pct_of_peak_sustained_elapsed", NULL};
        double dram = tp_csv_metric(&c, r, m_dram, &unit) * tp_unit_scale(unit);
        double dram_pct = tp_csv_metric(&c, r, m_dram_pct, NULL);
        snprintf(line, sizeof line, "%.0f GB/s = %.1f%% of the DRAM's peak", dram / 1e9, dram_pct);
        metric_line("DRAM throughput", isnan(dram) ? "n/a (not in the report)" : line);

        static const char *const m_ach[] = {"sm__warps_active.avg.pct_of_peak_sustained_active", NULL};
        static const char *const m_theo[] = {"sm__maximum_warps_per_active_cycle_pct", NULL};
        double ach = tp_csv_metric(&c, r, m_ach, NULL), theo = tp_csv_metric(&c, r, m_theo, NULL);
        snprintf(line, sizeof line, "achieved %.1f%% of the SM's warp slots (theoretical %.1f%%)", ach, theo);
        metric_line("occupancy", isnan(ach) ? "n/a (not in the report)" : line);

        static const char *const m_gs[] = {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", NULL};
        static const char *const m_gr[] = {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", NULL};
        static const char *const m_ss[] = {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", NULL};
        static const char *const m_sr[] = {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", NULL};
        double gs = tp_csv_metric(&c, r, m_gs, NULL), gr = tp_csv_metric(&c, r, m_gr, NULL);
        double ss = tp_csv_metric(&c, r, m_ss, NULL), sr = tp_csv_metric(&c, r, m_sr, NULL);
        if (isnan(gs) || isnan(gr)) snprintf(line, sizeof line, "n/a (not in the report)");
        else if (gr == 0) snprintf(line, sizeof line, "no global loads");
        else {
            char st_part[32] = "-";
            if (!isnan(ss) && !isnan(sr) && sr > 0) snprintf(st_part, sizeof st_part, "%.2f", ss / sr);
            snprintf(line, sizeof line, "%.2f sectors/request on loads, %s on stores (a coalesced warp: 4 per 4-byte access)",
                     gs / gr, st_part);
        }
        metric_line("global memory", line);

        static const char *const m_bl[] = {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", NULL};
        static const char *const m_bs[] = {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", NULL};
        static const char *const m_wl[] = {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", NULL};
        static const char *const m_ws[] = {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", NULL};
        double bl = tp_csv_metric(&c, r, m_bl, NULL), bs = tp_csv_metric(&c, r, m_bs, NULL);
        double wl = tp_csv_metric(&c, r, m_wl, NULL), wsf = tp_csv_metric(&c, r, m_ws, NULL);
        /* Source-level counters: wavefronts the shared accesses took vs the ideal for their addresses;
         * the excess is what bank conflicts in the code cost. The hardware counter l1tex__data_bank_
         * conflicts also counts collisions with other L1 traffic, so it is shown second. */
        static const char *const m_wf[] = {"memory_l1_wavefronts_shared", NULL};
        static const char *const m_wi[] = {"memory_l1_wavefronts_shared_ideal", NULL};
        double wf = tp_csv_metric(&c, r, m_wf, NULL), wi = tp_csv_metric(&c, r, m_wi, NULL);
        if (isnan(bl) && isnan(bs)) snprintf(line, sizeof line, "n/a (not in the report)");
        else if ((isnan(wl) || wl == 0) && (isnan(wsf) || wsf == 0))
            snprintf(line, sizeof line, "no shared-memory accesses");
        else if (!isnan(wf) && !isnan(wi) && wi > 0)
            snprintf(line, sizeof line,
                     "%.0f wavefronts where %.0f are ideal: %s; hardware conflict counter %.0f ld + %.0f st "
                     "(it also counts L1 traffic collisions)",
                     wf, wi, wf > wi * 1.001 ? "bank conflicts cost the excess" : "no bank conflicts in the code",
                     bl, bs);
        else
            snprintf(line, sizeof line, "bank conflicts: %.0f on loads (of %.0f wavefronts), %.0f on stores (of %.0f)",
                     bl, wl, bs, wsf);
        metric_line("shared memory", line);

        tp_stall top[3];
        int nt = tp_ncu_top_stalls(&c, r, top);
        if (!nt) metric_line("top warp stalls", "n/a (not in the report)");
        else metric_line("top warp stalls", "(warps waiting, per issued instruction, for:)");
        for (int s = 0; s < nt; s++) {
            snprintf(line, sizeof line, "%-18s %6.2f  %s", top[s].reason, top[s].value, tp_stall_meaning(top[s].reason));
            metric_line("", line);
        }
    }
    printf("note: ncu replays each kernel many times with caches flushed: its times are slightly off the table's.\n");
    tp_csv_free(&c);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fprintf(argc < 2 ? stderr : stdout,
                "usage: inspect sass|resources|sanitize|profile|gpu [options] (see the header of grading/inspect.c;\n"
                "       normally run through make sass / resources / sanitize / profile)\n");
        return argc < 2 ? EXIT_USAGE : 0;
    }
    opts o;
    parse_opts(argc, argv, 2, &o);
    if (!strcmp(argv[1], "sass")) return cmd_sass(&o);
    if (!strcmp(argv[1], "resources")) return cmd_resources(&o);
    if (!strcmp(argv[1], "sanitize")) return cmd_sanitize(&o);
    if (!strcmp(argv[1], "profile")) return cmd_profile(&o);
    if (!strcmp(argv[1], "gpu")) return cmd_gpu(&o);
    die(EXIT_USAGE, "unknown command '%s' (sass, resources, sanitize, profile, gpu)", argv[1]);
    return EXIT_USAGE;
}
