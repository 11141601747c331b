/* look.c — `make sass` and `make resources`: what the compiler made of the kernels, no GPU needed. */
#define _GNU_SOURCE 1
#include "inspect.h"

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
        printf("    %-15s %6d  %-22s %s\n", tp_kind_name(isa, (tp_kind)k), c->kind[k], widths, tp_kind_legend[isa][k]);
    }
    char absent[512] = "";
    size_t at = 0;
    for (int k = 0; k < TP_K_OTHER; k++)
        if (!c->kind[k] && tp_kind_absence_shown(isa, (tp_kind)k)) {
            int n = snprintf(absent + at, sizeof absent - at, "%s%s", at ? ", " : "", tp_kind_name(isa, (tp_kind)k));
            if (n > 0 && (size_t)n < sizeof absent - at) at += (size_t)n;
        }
    if (at) printf("    none of: %s\n", absent);
    if (isa == TP_ISA_PTX) printf("    spills: PTX cannot show them (ptxas makes them): see `make resources`\n");
}

int cmd_sass(const opts *o)
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
        printf("note: cuobjdump was not found (`make doctor` names its package), so this is PTX, the compiler's\n"
               "      intermediate code; the GPU runs SASS, which ptxas makes from it (register allocation,\n"
               "      spills, unrolling and load widths can still change).\n");
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

int cmd_gpu(const opts *o)
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
/* What the resources table is shown for: the variants (if a program was given) and the GPU's limits
 * (the present GPU's, else the published ones of the compiled architecture). */
typedef struct {
    const opts *o;
    variants vs;
    int have_variants, have_gpu, have_limits, marks; /* marks: bit 0 a launch assumed, bit 1 instantiations */
    tp_gpu g;
    char why[256];
} res_ctx;

static void res_header(const res_ctx *x, const char *arch)
{
    const opts *o = x->o;
    const tp_gpu *g = &x->g;
    char shape[160];
    if (o->block > 0)
        snprintf(shape, sizeof shape, "every kernel at BLOCK=%d threads/block%s", o->block,
                 o->dsmem >= 0 ? ", DSMEM given" : "");
    else
        snprintf(shape, sizeof shape, "each kernel at the block its variant launches (the program's --list)");
    printf("Resources per kernel (ptxas -v, %s)", arch);
    if (x->have_variants) printf(" of %s", o->program);
    printf("\n");
    if (x->have_gpu)
        printf("Occupancy on this GPU: %s (sm_%d%d, %d SMs), %s\n", g->name, g->major, g->minor, g->sms, shape);
    else if (x->have_limits)
        printf("Occupancy for the published limits of the %s, %s:\n"
               "there is no GPU here (%s).\n", g->name, shape, x->why);
    else
        printf("Occupancy needs a GPU or a known architecture (sm_75/80/86/89/90): no GPU here (%s)\n", x->why);
    if (x->have_variants && !kernels_named(&x->vs))
        printf("note: a variant does not name its kernels (wb_variant_info.kernels): every kernel is shown\n");
    printf("  %-24s %-18s %6s %5s %8s %7s %13s", "kernel", "variant", "block", "regs", "smem B", "stack B",
           "spill st/ld B");
    if (x->have_limits) printf(" %9s %9s %9s  %s", "blocks/SM", "warps/SM", "occupancy", "limited by");
    printf("\n");
}

static const char *const res_shape_names[] = {"program", "given", "assumed"};

static void res_json_row(const res_ctx *x, const tp_resources *r, const tp_res_row *row, const char *base,
                         const char *users, const tp_occ *occ, const char *lim)
{
    json_t *j = json_pack("{s:s,s:s,s:s,s:i,s:I,s:I,s:I,s:I,s:i,s:I,s:s,s:i,s:b}", "kernel", base, "symbol", r->name,
                          "variants", users, "regs", r->regs, "smem", (json_int_t)r->smem, "stack",
                          (json_int_t)r->stack, "spill_stores", (json_int_t)r->spill_stores, "spill_loads",
                          (json_int_t)r->spill_loads, "block", row->threads, "dsmem", (json_int_t)row->dsmem,
                          "launch", res_shape_names[row->shape], "instantiations", row->instances, "harness",
                          row->harness);
    if (x->have_limits) {
        json_object_set_new(j, "blocks_per_sm", json_integer(occ->blocks));
        json_object_set_new(j, "occupancy", json_real(occ->occupancy));
        json_object_set_new(j, "limiter", json_string(lim));
        static const char *const keys[TP_LIM_COUNT] = {"by_threads", "by_registers", "by_smem", "by_blocks",
                                                       "by_barriers"};
        for (int l = 0; l < TP_LIM_COUNT; l++)
            json_object_set_new(j, keys[l], occ->by[l] == INT_MAX ? json_null() : json_integer(occ->by[l]));
    }
    char *s = json_dumps(j, JSON_COMPACT);
    puts(s);
    free(s);
    json_decref(j);
}

static void res_text_row(const res_ctx *x, const tp_resources *r, const tp_res_row *row, const char *base,
                         const char *users, const tp_occ *occ, const char *lim)
{
    char spill[32], name[TP_NAME + 8], block[16], smem[40];
    snprintf(spill, sizeof spill, "%ld/%ld", r->spill_stores, r->spill_loads);
    if (row->instances > 1) snprintf(name, sizeof name, "%s (%d)", base, row->instances);
    else snprintf(name, sizeof name, "%s", base);
    snprintf(block, sizeof block, "%d%s", row->threads, row->shape == TP_SHAPE_ASSUMED ? "*" : "");
    if (row->dsmem > 0) snprintf(smem, sizeof smem, "%ld+%ld", r->smem, row->dsmem);
    else snprintf(smem, sizeof smem, "%ld", r->smem);
    printf("  %-24s %-18s %6s %5d %8s %7ld %13s", name, users[0] ? users : "-", block, r->regs, smem, r->stack,
           spill);
    if (x->have_limits) {
        char warps[24];
        snprintf(warps, sizeof warps, "%d/%d", occ->active_warps, occ->max_warps);
        printf(" %9d %9s %8.0f%%  %s", occ->blocks, warps, 100 * occ->occupancy, lim);
    }
    printf("\n");
}

static void res_row(res_ctx *x, const tp_resources *r, const tp_res_row *row)
{
    char users[256] = "";
    if (x->have_variants && !row->harness) variants_of(&x->vs, r->name, 1, users, sizeof users);
    char base[TP_NAME], lim[96] = "";
    tp_base_name(r->name, base, sizeof base);
    tp_occ occ;
    if (x->have_limits) {
        tp_occupancy(&x->g, r->regs, r->smem, row->dsmem, row->threads, r->barriers, &occ);
        if (occ.blocks == 0) snprintf(lim, sizeof lim, "cannot launch: %s", occ.why_zero ? occ.why_zero : "?");
        else tp_limiter_str(&occ, lim, sizeof lim);
    }
    x->marks |= (row->shape == TP_SHAPE_ASSUMED) | (row->instances > 1) << 1;
    if (x->o->json) res_json_row(x, r, row, base, users, &occ, lim);
    else res_text_row(x, r, row, base, users, &occ, lim);
}

static void res_footer(const res_ctx *x)
{
    const tp_gpu *g = &x->g;
    printf("block: threads per block; smem: static shared memory (+ the launch's dynamic part); stack:\n"
           "local memory per thread; spills: bytes stored to / loaded from local memory because registers ran out.\n");
    if (x->marks & 1)
        printf("*: the program does not say how it launches this kernel: %d threads assumed (BLOCK=n).\n",
               x->o->block > 0 ? x->o->block : 256);
    if (x->marks & 2)
        printf("(N): N template instantiations of the kernel; the row is the one using the most registers.\n");
    if (x->have_limits)
        printf("blocks/SM: the minimum of what threads (%d/SM), registers (%d/SM, 256 per warp), shared\n"
               "memory (%ld B/SM, %ld B reserved per block) and the %d-block limit allow; occupancy =\n"
               "resident warps / %d. BLOCK=n and DSMEM=bytes replace every kernel's launch (what if?).\n",
               g->max_threads_per_sm, g->regs_per_sm, g->smem_per_sm, g->reserved_smem_per_block,
               g->max_blocks_per_sm, g->max_threads_per_sm / (g->warp_size ? g->warp_size : 32));
    if (!x->o->all) printf("ALL=1 adds the harness's own kernels (its speed-of-light measurements).\n");
}

int cmd_resources(const opts *o)
{
    if (!o->ptxas) die(EXIT_USAGE, "resources needs --ptxas");
    res_ctx ctx = {0}, *x = &ctx;
    x->o = o;
    x->have_variants = o->program != NULL;
    if (x->have_variants) load_variants(o->program, o->variant, &x->vs);
    char *text = read_file(o->ptxas);
    tp_resources res[128];
    int n = tp_parse_ptxas(text, res, 128);
    if (n == 0) die(1, "%s has no `ptxas info` lines for any kernel:\n%.600s", o->ptxas, text);
    free(text);
    x->have_gpu = gpu_present(&x->g, x->why, sizeof x->why) == 0;
    int cc = arch_number(o->arch ? o->arch : res[0].arch);
    x->have_limits = x->have_gpu || tp_gpu_default(cc, &x->g) == 0;
    if (x->have_gpu && cc > 0 && cc != x->g.major * 10 + x->g.minor && !o->json)
        printf("note: compiled for sm_%d, but the GPU is sm_%d%d; its registers may differ\n", cc, x->g.major,
               x->g.minor);
    tp_res_plan plan = {x->vs.v, x->have_variants ? x->vs.n : 0, x->vs.selected, o->all || !x->have_variants,
                        o->block, o->dsmem, 256};
    tp_res_row rows[128];
    int shown = tp_res_rows(res, n, &plan, rows, 128);
    if (!shown) die(1, "no kernel of the chosen variant in %s", o->ptxas);
    if (!o->json) res_header(x, res[0].arch);
    for (int i = 0; i < shown; i++) res_row(x, &res[rows[i].entry], &rows[i]);
    if (!o->json) res_footer(x);
    return 0;
}
