/* resources.c — ptxas -v (registers, shared memory, spills) and the occupancy they allow (see toolparse.h). */
#define _GNU_SOURCE 1
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resources.h"

int tp_parse_ptxas(const char *text, tp_resources *out, int max)
{
    int n = 0;
    tp_resources *cur = NULL;  /* the entry being described */
    int props_for_cur = 0;     /* the last "Function properties" line was about cur */
    for (const char *p = text; *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[1024];
        tp_copy(line, sizeof line, p, len);
        char *s = strstr(line, "Compiling entry function '");
        if (s) {
            s += strlen("Compiling entry function '");
            char *q = strchr(s, '\'');
            if (q && n < max) {
                cur = &out[n++];
                memset(cur, 0, sizeof *cur);
                cur->barriers = -1;
                cur->cmem0 = -1;
                tp_copy(cur->name, sizeof cur->name, s, (size_t)(q - s));
                char *f = strstr(q, "for '");
                if (f) {
                    f += 5;
                    tp_copy(cur->arch, sizeof cur->arch, f, strcspn(f, "'"));
                }
            } else {
                cur = NULL;
            }
            props_for_cur = 0;
        } else if ((s = strstr(line, "Function properties for ")) != NULL) {
            s += strlen("Function properties for ");
            s[strcspn(s, " \r")] = 0;
            props_for_cur = cur && strcmp(s, cur->name) == 0;
        } else if (strstr(line, "bytes stack frame")) {
            if (props_for_cur) {
                long a = 0, b = 0, c = 0;
                if (sscanf(tp_skip_space(line), "%ld bytes stack frame, %ld bytes spill stores, %ld bytes spill loads",
                           &a, &b, &c) == 3) {
                    cur->stack = a;
                    cur->spill_stores = b;
                    cur->spill_loads = c;
                }
            }
        } else if ((s = strstr(line, "Used ")) != NULL && cur) {
            /* comma-separated facts, in an order that changed between CUDA versions */
            for (char *tok = strtok(s + 5, ","); tok; tok = strtok(NULL, ",")) {
                long v;
                int end = 0;
                char word[32] = "";
                tok = (char *)tp_skip_space(tok);
                /* %n: the whole phrase matched, not just the number before it */
                if (sscanf(tok, "used %ld barriers%n", &v, &end) == 1 && end) cur->barriers = (int)v;
                else if (sscanf(tok, "%ld registers%n", &v, &end) == 1 && end) cur->regs = (int)v;
                else if (sscanf(tok, "%ld bytes %31s", &v, word) == 2) {
                    if (strcmp(word, "smem") == 0) cur->smem = v;
                    else if (strncmp(word, "cmem[0]", 7) == 0) cur->cmem0 = v;
                }
            }
        }
        if (!eol) break;
        p = eol + 1;
    }
    return n;
}

/* ---------------------------------------------------------------- the rows of `make resources` */
/* Is a the worse instantiation: more registers, then more spill bytes, then more shared memory? */
static int tp_res_worse(const tp_resources *a, const tp_resources *b)
{
    if (a->regs != b->regs) return a->regs > b->regs;
    long sa = a->spill_stores + a->spill_loads, sb = b->spill_stores + b->spill_loads;
    if (sa != sb) return sa > sb;
    return a->smem > b->smem;
}

/* A row for the entries whose base name is that of res[first], from first down to 0 (source order). */
static tp_res_row tp_res_group(const tp_resources *res, int first, char (*base)[TP_NAME], unsigned char *taken)
{
    tp_res_row r = {first, 0, 0, 0, 0, TP_SHAPE_ASSUMED};
    for (int j = first; j >= 0; j--) {
        if (taken[j] || strcmp(base[j], base[first]) != 0) continue;
        taken[j] = 1;
        r.instances++;
        if (tp_res_worse(&res[j], &res[r.entry])) r.entry = j;
    }
    return r;
}

static void tp_res_shape(const tp_res_plan *p, int threads, long dsmem, tp_res_row *r)
{
    r->shape = threads > 0 ? TP_SHAPE_PROGRAM : TP_SHAPE_ASSUMED;
    r->threads = threads > 0 ? threads : p->assumed_block;
    r->dsmem = threads > 0 ? dsmem : 0;
    if (p->block > 0) r->threads = p->block, r->shape = TP_SHAPE_GIVEN;
    if (p->dsmem >= 0) r->dsmem = p->dsmem;
}

int tp_res_rows(const tp_resources *res, int n, const tp_res_plan *p, tp_res_row *rows, int max)
{
    if (n > 128) n = 128;
    char base[128][TP_NAME];
    unsigned char taken[128] = {0}, named[128] = {0};
    for (int j = 0; j < n; j++) tp_base_name(res[j].name, base[j], sizeof base[j]);
    int count = 0, all = p->all;
    for (int i = 0; i < p->nv; i++) {
        const tp_variant *v = &p->v[i];
        int chosen = p->selected >> i & 1;
        if (chosen && v->n_kernels == 0) all = 1;
        for (int k = 0; k < v->n_kernels; k++)
            for (int j = n - 1; j >= 0; j--) {
                if (!tp_kernel_matches(res[j].name, v->kernels[k])) continue;
                named[j] = 1;
                if (!chosen || taken[j] || count == max) continue;
                tp_res_row r = tp_res_group(res, j, base, taken);
                tp_res_shape(p, v->threads[k], v->dsmem[k], &r);
                rows[count++] = r;
            }
    }
    for (int j = n - 1; all && j >= 0; j--) {
        if (named[j] || taken[j] || count == max) continue;
        tp_res_row r = tp_res_group(res, j, base, taken);
        r.harness = 1;
        tp_res_shape(p, 0, 0, &r);
        rows[count++] = r;
    }
    return count;
}

/* The limits of one GPU of each supported compute capability (cudaDeviceProp of that card), for
 * `make resources` where there is no GPU to ask. */
static const struct {
    int cc;
    const char *name;
    int sms, max_threads_per_sm, max_blocks_per_sm;
    long smem_per_sm_kb, smem_optin_kb, reserved_smem;
} tp_known_gpus[] = {
    {75, "Tesla T4 (sm_75)", 40, 1024, 16, 64, 64, 0},
    {80, "A100 (sm_80)", 108, 2048, 32, 164, 163, 1024},
    {86, "A10 / RTX 30xx (sm_86)", 72, 1536, 16, 100, 99, 1024},
    {89, "L4 / RTX 40xx (sm_89)", 58, 1536, 24, 100, 99, 1024},
    {90, "H100 SXM (sm_90)", 132, 2048, 32, 228, 227, 1024},
};

int tp_gpu_default(int cc, tp_gpu *g)
{
    memset(g, 0, sizeof *g);
    for (size_t k = 0; k < sizeof tp_known_gpus / sizeof *tp_known_gpus; k++) {
        if (tp_known_gpus[k].cc != cc) continue;
        snprintf(g->name, sizeof g->name, "%s", tp_known_gpus[k].name);
        g->major = cc / 10;
        g->minor = cc % 10;
        g->warp_size = 32;
        g->max_threads_per_block = 1024;
        g->regs_per_sm = g->regs_per_block = 65536;
        g->smem_per_block = 48 * 1024;
        g->is_default = 1;
        g->sms = tp_known_gpus[k].sms;
        g->max_threads_per_sm = tp_known_gpus[k].max_threads_per_sm;
        g->max_blocks_per_sm = tp_known_gpus[k].max_blocks_per_sm;
        g->smem_per_sm = tp_known_gpus[k].smem_per_sm_kb * 1024;
        g->smem_per_block_optin = tp_known_gpus[k].smem_optin_kb * 1024;
        g->reserved_smem_per_block = tp_known_gpus[k].reserved_smem;
        return 0;
    }
    return -1;
}

/* Shared memory carve-outs the hardware offers, in KB (cudaOccAlignUpShmemSizeVoltaPlus). */
static long tp_align_carveout(const tp_gpu *g, long bytes)
{
    static const int turing[] = {32, 64}, volta[] = {0, 8, 16, 32, 64, 96},
                     a100[] = {0, 8, 16, 32, 64, 100, 132, 164}, ga10x[] = {0, 8, 16, 32, 64, 100},
                     hopper[] = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
    const int *sizes;
    int n;
    if (g->major == 7 && g->minor == 5) sizes = turing, n = 2;
    else if (g->major == 7) sizes = volta, n = 6;
    else if (g->major == 8 && (g->minor == 0 || g->minor == 7)) sizes = a100, n = 8;
    else if (g->major == 8 || g->major == 12) sizes = ga10x, n = 6;
    else sizes = hopper, n = 10;
    for (int i = 0; i < n; i++)
        if (bytes <= (long)sizes[i] * 1024) return (long)sizes[i] * 1024;
    return -1;
}

static const char *const tp_limit_names[TP_LIM_COUNT] = {"threads", "registers", "shared memory", "blocks/SM",
                                                         "barriers"};

static int tp_round_up(long x, long to) { return (int)((x + to - 1) / to * to); }

void tp_occupancy(const tp_gpu *g, int regs, long static_smem, long dyn_smem, int block,
                                int barriers, tp_occ *o)
{
    memset(o, 0, sizeof *o);
    int ws = g->warp_size ? g->warp_size : 32;
    o->warps_per_block = (block + ws - 1) / ws;
    o->max_warps = g->max_threads_per_sm / ws;
    for (int l = 0; l < TP_LIM_COUNT; l++) o->by[l] = INT_MAX;

    /* threads (warp slots) */
    o->by[TP_LIM_WARPS] = block > g->max_threads_per_block ? 0 : o->max_warps / o->warps_per_block;
    if (block > g->max_threads_per_block) o->why_zero = "more threads per block than the GPU allows";

    /* blocks per SM; from Hopper on, also the block barriers (named barriers: ptxas's "used N barriers"),
     * two per block slot on sm_90 */
    o->by[TP_LIM_BLOCKS] = g->max_blocks_per_sm;
    if (g->major >= 9 && barriers > 0) {
        int per_slot = (g->major == 10 && g->minor == 1) || (g->major == 11 && g->minor == 0) || g->major == 12 ? 1 : 2;
        o->by[TP_LIM_BARRIERS] = g->max_blocks_per_sm * per_slot / barriers;
    }

    /* registers: allocated per warp in units of 256, warps spread over 4 sub-partitions */
    int regs_per_warp = tp_round_up((long)regs * ws, 256);
    o->regs_per_block = regs_per_warp * o->warps_per_block;
    int assumed = regs_per_warp * tp_round_up(o->warps_per_block, 4);
    if (regs > 255 || assumed > g->regs_per_block || o->regs_per_block > g->regs_per_block) {
        o->by[TP_LIM_REGS] = 0;
        if (!o->why_zero) o->why_zero = "too many registers per block";
    } else if (regs_per_warp > 0) {
        int warps_per_sub = (g->regs_per_sm / 4) / regs_per_warp;
        o->by[TP_LIM_REGS] = warps_per_sub * 4 / o->warps_per_block;
    }

    /* shared memory: the driver reserves some per block, allocates in 128-byte units (256 before
     * Ampere), and picks the smallest carve-out that holds one block if the default is too small */
    long gran = g->major >= 8 ? 128 : 256;
    long per_block = static_smem + dyn_smem + g->reserved_smem_per_block;
    o->smem_per_block = tp_round_up(per_block, gran);
    long limit_per_block = (static_smem + dyn_smem > g->smem_per_block ? g->smem_per_block_optin
                                                                       : g->smem_per_block) +
                           g->reserved_smem_per_block;
    if (o->smem_per_block > limit_per_block) {
        o->by[TP_LIM_SMEM] = 0;
        if (!o->why_zero) o->why_zero = "more shared memory per block than the GPU allows";
    } else if (o->smem_per_block > 0) {
        long carve = tp_align_carveout(g, g->smem_per_sm);
        if (carve < o->smem_per_block) carve = tp_align_carveout(g, o->smem_per_block);
        o->by[TP_LIM_SMEM] = carve > 0 ? (int)(carve / o->smem_per_block) : 0;
    }

    int best = INT_MAX;
    for (int l = 0; l < TP_LIM_COUNT; l++)
        if (o->by[l] < best) best = o->by[l];
    o->blocks = best == INT_MAX ? 0 : best;
    for (int l = 0; l < TP_LIM_COUNT; l++)
        if (o->by[l] == best) o->limiters |= 1u << l;
    o->active_warps = o->blocks * o->warps_per_block;
    o->occupancy = o->max_warps ? (double)o->active_warps / o->max_warps : 0;
}

void tp_limiter_str(const tp_occ *o, char *buf, size_t len)
{
    buf[0] = 0;
    size_t at = 0;
    for (int l = 0; l < TP_LIM_COUNT; l++)
        if (o->limiters & (1u << l)) {
            int w = snprintf(buf + at, len - at, "%s%s", at ? " + " : "", tp_limit_names[l]);
            if (w < 0 || (size_t)w >= len - at) break;
            at += (size_t)w;
        }
}
