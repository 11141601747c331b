/* The look-inside tool (make sass / resources / sanitize / profile): its parsers on tool output captured
 * from real runs (tests/captured/, see its README), its occupancy formula against CUDA's own
 * cuda_occupancy.h over many configurations, the make targets without a GPU, and on a GPU: the
 * sanitizer is clean on chapter 1's solution and flags every planted bug, and the occupancy the tool
 * computes equals cudaOccupancyMaxActiveBlocksPerMultiprocessor. */
#include <cuda_occupancy.h>
#include <sys/stat.h>

#include "sanitizer.h"
#include "toolparse.h"
#include "wbtest.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "missing captured file %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = fread(buf, 1, (size_t)n, f);
    buf[got] = 0;
    fclose(f);
    return buf;
}

/* ---------------------------------------------------------------- variants */
Test(inspect_parse, variant_list_from_chapter1)
{
    char *text = slurp("tests/captured/ch1_list.jsonl");
    tp_variant v[TP_MAX_VARIANTS];
    char err[256];
    int n = tp_parse_variants(text, v, TP_MAX_VARIANTS, err, sizeof err);
    cr_assert_eq(n, 4, "%s", err);
    cr_assert_str_eq(v[0].name, "global");
    cr_assert_str_eq(v[3].name, "vector");
    cr_assert_eq(v[1].n_kernels, 1);
    cr_assert_str_eq(v[1].kernels[0], "reverse_shared_static");
    cr_assert_eq(tp_variant_find(v, n, "shared-dynamic"), 2);
    cr_assert_eq(tp_variant_find(v, n, "shared"), -1);
    free(text);
}

Test(inspect_parse, variant_list_edge_cases)
{
    tp_variant v[TP_MAX_VARIANTS];
    char err[256];
    /* several kernels, spaces, an escaped quote in the idea, an empty kernels field, a blank line */
    const char *text = "{\"variant\":\"two-pass\",\"idea\":\"a \\\"scan\\\", then add\",\"kernels\":\"scan, add\"}\n"
                       "\n"
                       "{\"variant\":\"unnamed\",\"idea\":\"x\",\"kernels\":\"\"}\n";
    cr_assert_eq(tp_parse_variants(text, v, TP_MAX_VARIANTS, err, sizeof err), 2, "%s", err);
    cr_assert_str_eq(v[0].idea, "a \"scan\", then add");
    cr_assert_eq(v[0].n_kernels, 2);
    cr_assert_str_eq(v[0].kernels[0], "scan");
    cr_assert_str_eq(v[0].kernels[1], "add");
    cr_assert_eq(v[1].n_kernels, 0);
    cr_assert_eq(tp_parse_variants("{\"variant\":\"a\",", v, TP_MAX_VARIANTS, err, sizeof err), -1);
    cr_assert_eq(tp_parse_variants("[1,2]\n", v, TP_MAX_VARIANTS, err, sizeof err), -1);
    cr_assert_eq(tp_parse_variants("{\"idea\":\"no name\"}\n", v, TP_MAX_VARIANTS, err, sizeof err), -1);
    cr_assert_eq(tp_parse_variants("", v, TP_MAX_VARIANTS, err, sizeof err), -1);
}

Test(inspect_parse, kernel_names)
{
    cr_assert(tp_kernel_matches("_Z14reverse_globalPKiPii", "reverse_global"));
    cr_assert(!tp_kernel_matches("_Z15reverse_global2PKiPii", "reverse_global"));
    cr_assert(!tp_kernel_matches("_Z14reverse_globalPKiPii", "reverse_glob"));
    cr_assert(tp_kernel_matches("reverse_global(const int *, int *, int)", "reverse_global"));
    cr_assert(!tp_kernel_matches("reverse_global2(const int *, int *, int)", "reverse_global"));
    cr_assert(tp_kernel_matches("void matmul_tiled<16>(const float *, const float *, float *, int, int, int)",
                                "matmul_tiled"));
    cr_assert(tp_kernel_matches("_Z12matmul_tiledILi16EEvPKfS1_Pfiii", "matmul_tiled"));
    cr_assert(tp_kernel_matches("plain_c_kernel", "plain_c_kernel"));
    cr_assert(!tp_kernel_matches("plain_c_kernel", ""));
    char base[TP_NAME];
    tp_base_name("_Z22reverse_shared_dynamicPKiPii", base, sizeof base);
    cr_assert_str_eq(base, "reverse_shared_dynamic");
    tp_base_name("void matmul_tiled<16>(const float *)", base, sizeof base);
    cr_assert_str_eq(base, "matmul_tiled");
}

/* ---------------------------------------------------------------- ptxas -v */
static const tp_resources *find_res(const tp_resources *r, int n, const char *kernel)
{
    for (int i = 0; i < n; i++)
        if (tp_kernel_matches(r[i].name, kernel)) return &r[i];
    cr_assert_fail("no %s in the ptxas output", kernel);
    return NULL;
}

Test(inspect_parse, ptxas_chapter1_sm90)
{
    char *text = slurp("tests/captured/ptxas_ch1_sm90.txt");
    tp_resources r[16];
    int n = tp_parse_ptxas(text, r, 16);
    cr_assert_eq(n, 4);
    const tp_resources *v = find_res(r, n, "reverse_vector"), *s = find_res(r, n, "reverse_shared_static"),
                       *d = find_res(r, n, "reverse_shared_dynamic"), *g = find_res(r, n, "reverse_global");
    cr_assert_str_eq(v->arch, "sm_90");
    cr_assert_eq(v->regs, 44);
    cr_assert_eq(v->barriers, 0);
    cr_assert_eq(s->regs, 10);
    cr_assert_eq(s->smem, 1024, "the 'Used' line's smem, not its register count");
    cr_assert_eq(s->barriers, 1);
    cr_assert_eq(d->regs, 12);
    cr_assert_eq(d->smem, 0, "dynamic shared memory is not static");
    cr_assert_eq(g->regs, 10);
    cr_assert_eq(g->cmem0, -1, "CUDA 13's -cubin output for sm_90 prints no cmem");
    free(text);
}

Test(inspect_parse, ptxas_chapter1_sm75_with_cmem)
{
    char *text = slurp("tests/captured/ptxas_ch1_sm75.txt");
    tp_resources r[16];
    int n = tp_parse_ptxas(text, r, 16);
    cr_assert_eq(n, 4);
    const tp_resources *v = find_res(r, n, "reverse_vector"), *s = find_res(r, n, "reverse_shared_static");
    cr_assert_eq(v->regs, 46);
    cr_assert_eq(v->cmem0, 372);
    cr_assert_eq(s->smem, 1024);
    cr_assert_eq(s->cmem0, 372);
    cr_assert_str_eq(s->arch, "sm_75");
    free(text);
}

Test(inspect_parse, ptxas_spills_and_stack)
{
    char *text = slurp("tests/captured/ptxas_spill_sm90.txt");
    tp_resources r[16];
    int n = tp_parse_ptxas(text, r, 16);
    cr_assert_eq(n, 2, "the 'Overriding maximum register limit' line is no kernel");
    const tp_resources *sp = find_res(r, n, "spiller"), *t = find_res(r, n, "tiled");
    cr_assert_eq(sp->regs, 24, "'480 bytes cumulative stack size' is not a register count");
    cr_assert_eq(sp->stack, 480);
    cr_assert_eq(sp->spill_stores, 300);
    cr_assert_eq(sp->spill_loads, 312);
    cr_assert_eq(t->smem, 8192);
    cr_assert_eq(t->stack, 0);
    free(text);
}

/* ---------------------------------------------------------------- listings */
static const tp_function *find_fn(const tp_listing *l, const char *kernel)
{
    for (int i = 0; i < l->n_functions; i++)
        if (tp_kernel_matches(l->functions[i].name, kernel)) return &l->functions[i];
    cr_assert_fail("no %s in the listing", kernel);
    return NULL;
}

static tp_counts count_of(const tp_listing *l, const char *kernel)
{
    tp_counts c;
    memset(&c, 0, sizeof c);
    tp_count(l->isa, find_fn(l, kernel), &c);
    return c;
}

Test(inspect_parse, ptx_chapter1)
{
    char *text = slurp("tests/captured/ch1_sm75.ptx");
    tp_listing l;
    tp_parse_listing(text, &l);
    cr_assert_eq(l.isa, TP_ISA_PTX);
    cr_assert_eq(l.n_functions, 4);
    cr_assert_str_eq(l.functions[0].arch, "sm_75");
    tp_counts g = count_of(&l, "reverse_global");
    cr_assert_eq(g.kind[TP_K_GLOBAL_LD], 1);
    cr_assert_eq(g.width[TP_K_GLOBAL_LD][2], 1, "one 32-bit load");
    cr_assert_eq(g.kind[TP_K_GLOBAL_ST], 1);
    cr_assert_eq(g.kind[TP_K_BARRIER], 0);
    cr_assert_eq(g.kind[TP_K_SHARED_LD], 0);
    tp_counts s = count_of(&l, "reverse_shared_static");
    cr_assert_eq(s.kind[TP_K_BARRIER], 1);
    cr_assert_eq(s.kind[TP_K_SHARED_ST], 1);
    cr_assert_eq(s.kind[TP_K_SHARED_LD], 1);
    tp_counts v = count_of(&l, "reverse_vector");
    cr_assert_eq(v.width[TP_K_GLOBAL_LD][4], 8, "2 aligned int4 loads for each of 4 chunks");
    cr_assert_eq(v.width[TP_K_GLOBAL_ST][4], 4, "one int4 store per chunk");
    /* parameters are loaded with ld.param: not global traffic */
    for (int i = 0; i < find_fn(&l, "reverse_vector")->n_insns; i++) {
        int w;
        const char *op = find_fn(&l, "reverse_vector")->insns[i].opcode;
        if (strncmp(op, "ld.param", 8) == 0) cr_assert_eq(tp_classify(TP_ISA_PTX, op, &w), TP_K_OTHER);
    }
    tp_listing_free(&l);
    free(text);
}

/* Inline asm (__vimin3_s32 at sm_90) opens a brace on one line and closes it at the end of another: the
 * kernel still ends at its own closing brace, and the next kernel is found (a trimmed capture: see
 * capture.sh). */
Test(inspect_parse, ptx_body_ends_at_its_brace_despite_inline_asm)
{
    char *text = slurp("tests/captured/ch5_v5_sm90.ptx");
    tp_listing l;
    tp_parse_listing(text, &l);
    cr_assert_eq(l.isa, TP_ISA_PTX);
    cr_assert_eq(l.n_functions, 2, "minplus_v5 and the kernel after it, not one run-on body");
    const tp_function *v5 = find_fn(&l, "minplus_v5"), *next = find_fn(&l, "wb_read_kernel");
    cr_assert_str_eq(v5->insns[v5->n_insns - 1].opcode, "ret", "the body's last instruction is its ret");
    cr_assert_str_eq(next->insns[next->n_insns - 1].opcode, "ret");
    int mins = 0;
    for (int i = 0; i < v5->n_insns; i++) {
        cr_assert(v5->insns[i].text[0] != '.' && v5->insns[i].text[0] != '{', "%s", v5->insns[i].text);
        mins += strcmp(v5->insns[i].opcode, "min.s32") == 0;
    }
    cr_assert_eq(mins, 2 * 3, "two min.s32 in each of the 3 inline-asm blocks kept whole");
    /* what PTX cannot show is not claimed: spills are ptxas's, its ld.local are declared arrays */
    cr_assert_not(tp_kind_absence_shown(TP_ISA_PTX, TP_K_LOCAL));
    cr_assert(tp_kind_absence_shown(TP_ISA_SASS, TP_K_LOCAL));
    cr_assert_str_eq(tp_kind_name(TP_ISA_PTX, TP_K_LOCAL), "local array");
    tp_listing_free(&l);
    free(text);
}

Test(inspect_parse, sass_chapter1_sm90)
{
    char *text = slurp("tests/captured/ch1_sm90.sass");
    tp_listing l;
    tp_parse_listing(text, &l);
    cr_assert_eq(l.isa, TP_ISA_SASS);
    cr_assert_eq(l.n_functions, 4);
    cr_assert_str_eq(find_fn(&l, "reverse_global")->arch, "sm_90");
    tp_counts g = count_of(&l, "reverse_global");
    cr_assert_eq(g.kind[TP_K_GLOBAL_LD], 1);
    cr_assert_eq(g.width[TP_K_GLOBAL_LD][2], 1);
    cr_assert_eq(g.kind[TP_K_GLOBAL_ST], 1);
    cr_assert_eq(g.kind[TP_K_BARRIER], 0);
    tp_counts s = count_of(&l, "reverse_shared_static");
    cr_assert_eq(s.kind[TP_K_BARRIER], 1);
    cr_assert_eq(s.kind[TP_K_SHARED_ST], 1);
    cr_assert_eq(s.kind[TP_K_SHARED_LD], 1);
    tp_counts v = count_of(&l, "reverse_vector");
    cr_assert_geq(v.width[TP_K_GLOBAL_LD][4], 8, "the int4 loads are LDG.E.128");
    cr_assert_geq(v.width[TP_K_GLOBAL_ST][4], 4, "the int4 stores are STG.E.128");
    /* no NOP counted, every instruction has an address and an opcode */
    const tp_function *f = find_fn(&l, "reverse_vector");
    for (int i = 0; i < f->n_insns; i++) {
        cr_assert(f->insns[i].addr[0] == '0' && f->insns[i].opcode[0], "%s", f->insns[i].text);
        cr_assert(!strchr(f->insns[i].text, ';'), "the ';' and encoding are cut: %s", f->insns[i].text);
    }
    tp_listing_free(&l);
    free(text);
}

Test(inspect_parse, sass_opcode_kinds)
{
    int w;
    cr_assert_eq(tp_classify(TP_ISA_SASS, "LDG.E.128.CONSTANT", &w), TP_K_GLOBAL_LD);
    cr_assert_eq(w, 128);
    cr_assert_eq(tp_classify(TP_ISA_SASS, "LDG.E.64", &w), TP_K_GLOBAL_LD);
    cr_assert_eq(w, 64);
    cr_assert_eq(tp_classify(TP_ISA_SASS, "LDG.E.U8", &w), TP_K_GLOBAL_LD);
    cr_assert_eq(w, 8);
    cr_assert_eq(tp_classify(TP_ISA_SASS, "STG.E.EF.128", &w), TP_K_GLOBAL_ST);
    cr_assert_eq(w, 128);
    cr_assert_eq(tp_classify(TP_ISA_SASS, "LDS.U.128", &w), TP_K_SHARED_LD);
    cr_assert_eq(tp_classify(TP_ISA_SASS, "LDSM.16.M88.4", &w), TP_K_SHARED_LD);
    cr_assert_eq(tp_classify(TP_ISA_SASS, "STL.64", &w), TP_K_LOCAL);
    cr_assert_eq(tp_classify(TP_ISA_SASS, "LDGSTS.E.BYPASS.128", &w), TP_K_ASYNC_COPY);
    cr_assert_eq(tp_classify(TP_ISA_SASS, "BAR.SYNC.DEFER_BLOCKING", &w), TP_K_BARRIER);
    cr_assert_eq(tp_classify(TP_ISA_SASS, "ATOMS.ADD", &w), TP_K_ATOMIC_SHARED);
    cr_assert_eq(tp_classify(TP_ISA_SASS, "RED.E.ADD.STRONG.GPU", &w), TP_K_ATOMIC_GLOBAL);
    cr_assert_eq(tp_classify(TP_ISA_SASS, "ATOMG.E.ADD.64.STRONG.GPU", &w), TP_K_ATOMIC_GLOBAL);
    cr_assert_eq(tp_classify(TP_ISA_SASS, "SHFL.BFLY", &w), TP_K_SHUFFLE);
    cr_assert_eq(tp_classify(TP_ISA_SASS, "FMNMX", &w), TP_K_FMINMAX);
    cr_assert_eq(tp_classify(TP_ISA_SASS, "VIADDMNMX", &w), TP_K_IMINMAX);
    cr_assert_eq(tp_classify(TP_ISA_SASS, "FFMA.FTZ", &w), TP_K_FFMA);
    cr_assert_eq(tp_classify(TP_ISA_SASS, "LDC", &w), TP_K_OTHER, "constant loads are not global memory");
    cr_assert_eq(tp_classify(TP_ISA_SASS, "LDSM", &w), TP_K_SHARED_LD);
    cr_assert_eq(tp_classify(TP_ISA_SASS, "STS", &w), TP_K_SHARED_ST);
    cr_assert_eq(w, 32);
    cr_assert_eq(tp_classify(TP_ISA_PTX, "ld.global.nc.v4.f32", &w), TP_K_GLOBAL_LD);
    cr_assert_eq(w, 128);
    cr_assert_eq(tp_classify(TP_ISA_PTX, "red.global.add.s32", &w), TP_K_ATOMIC_GLOBAL);
    cr_assert_eq(tp_classify(TP_ISA_PTX, "atom.shared.add.u32", &w), TP_K_ATOMIC_SHARED);
    cr_assert_eq(tp_classify(TP_ISA_PTX, "min.f32", &w), TP_K_FMINMAX);
    cr_assert_eq(tp_classify(TP_ISA_PTX, "min.s32", &w), TP_K_IMINMAX);
    cr_assert_eq(tp_classify(TP_ISA_PTX, "fma.rn.f32", &w), TP_K_FFMA);
}

/* ---------------------------------------------------------------- occupancy */
/* NVIDIA's own calculator (cuda_occupancy.h, plain C) with the same inputs as tp_occupancy: a kernel
 * that opted in to exactly the dynamic shared memory it is launched with, default carve-out. */
static int nvidia_blocks(const tp_gpu *g, int regs, long smem, long dsmem, int block, int barriers)
{
    cudaOccDeviceProp p;
    memset(&p, 0, sizeof p);
    p.computeMajor = g->major;
    p.computeMinor = g->minor;
    p.maxThreadsPerBlock = g->max_threads_per_block;
    p.maxThreadsPerMultiprocessor = g->max_threads_per_sm;
    p.regsPerBlock = g->regs_per_block;
    p.regsPerMultiprocessor = g->regs_per_sm;
    p.warpSize = g->warp_size;
    p.sharedMemPerBlock = (size_t)g->smem_per_block;
    p.sharedMemPerMultiprocessor = (size_t)g->smem_per_sm;
    p.numSms = g->sms;
    p.sharedMemPerBlockOptin = (size_t)g->smem_per_block_optin;
    p.reservedSharedMemPerBlock = (size_t)g->reserved_smem_per_block;
    cudaOccFuncAttributes a;
    memset(&a, 0, sizeof a);
    a.maxThreadsPerBlock = 1024;
    a.numRegs = regs;
    a.sharedSizeBytes = (size_t)smem;
    a.partitionedGCConfig = PARTITIONED_GC_OFF;
    a.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
    a.maxDynamicSharedSizeBytes = (size_t)dsmem;
    a.numBlockBarriers = barriers;
    cudaOccDeviceState st;
    st.cacheConfig = CACHE_PREFER_NONE;
    st.carveoutConfig = SHAREDMEM_CARVEOUT_DEFAULT;
    cudaOccResult r;
    memset(&r, 0, sizeof r);
    cudaOccError e = cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &a, &st, block, (size_t)dsmem);
    cr_assert_eq(e, CUDA_OCC_SUCCESS, "cuda_occupancy.h refused regs=%d smem=%ld dsmem=%ld block=%d", regs, smem,
                 dsmem, block);
    return r.activeBlocksPerMultiprocessor;
}

Test(inspect_occupancy, formula_equals_cuda_occupancy_h_on_every_default_gpu)
{
    static const int ccs[] = {75, 80, 86, 89, 90};
    static const int regs[] = {1, 8, 10, 16, 24, 32, 33, 40, 44, 48, 56, 64, 72, 80, 96, 128, 168, 200, 255};
    static const long smems[] = {0, 4, 1024, 2048, 8192, 12000, 16384, 40000, 48 * 1024};
    static const long dsmems[] = {0, 1000, 20000, 60000, 100 * 1024, 200 * 1024};
    static const int blocks[] = {1, 31, 32, 33, 64, 96, 128, 160, 192, 256, 288, 384, 512, 640, 768, 1024};
    long compared = 0;
    for (size_t c = 0; c < sizeof ccs / sizeof ccs[0]; c++) {
        tp_gpu g;
        cr_assert_eq(tp_gpu_default(ccs[c], &g), 0);
        for (size_t r = 0; r < sizeof regs / sizeof regs[0]; r++)
            for (size_t s = 0; s < sizeof smems / sizeof smems[0]; s++)
                for (size_t d = 0; d < sizeof dsmems / sizeof dsmems[0]; d++)
                    for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++)
                        for (int bars = 0; bars <= 2; bars++) {
                            if (smems[s] + dsmems[d] > g.smem_per_block_optin) continue; /* cannot compile/launch */
                            tp_occ o;
                            tp_occupancy(&g, regs[r], smems[s], dsmems[d], blocks[b], bars, &o);
                            int want = nvidia_blocks(&g, regs[r], smems[s], dsmems[d], blocks[b], bars);
                            cr_assert_eq(o.blocks, want,
                                         "sm_%d regs=%d smem=%ld dsmem=%ld block=%d barriers=%d: %d, NVIDIA's %d",
                                         ccs[c], regs[r], smems[s], dsmems[d], blocks[b], bars, o.blocks, want);
                            compared++;
                        }
    }
    cr_assert_gt(compared, 50000);
}

Test(inspect_occupancy, limiters_named)
{
    tp_gpu h;
    cr_assert_eq(tp_gpu_default(90, &h), 0);
    char lim[96];
    tp_occ o;
    /* chapter 1's vector kernel on the H100: 44 registers -> 1536 per warp -> 10 warps per sub-partition */
    tp_occupancy(&h, 44, 0, 0, 256, 0, &o);
    cr_assert_eq(o.blocks, 5);
    cr_assert_eq(o.active_warps, 40);
    tp_limiter_str(&o, lim, sizeof lim);
    cr_assert_str_eq(lim, "registers");
    /* 40000 B + 1 KB reserved, in 128-byte units: 5 blocks in 228 KB */
    tp_occupancy(&h, 16, 40000, 0, 128, 1, &o);
    cr_assert_eq(o.blocks, 5);
    cr_assert_eq(o.smem_per_block, 41088);
    tp_limiter_str(&o, lim, sizeof lim);
    cr_assert_str_eq(lim, "shared memory");
    tp_occupancy(&h, 16, 0, 0, 32, 0, &o);
    cr_assert_eq(o.blocks, 32);
    tp_limiter_str(&o, lim, sizeof lim);
    cr_assert_str_eq(lim, "blocks/SM");
    tp_occupancy(&h, 16, 0, 0, 1024, 0, &o);
    cr_assert_eq(o.blocks, 2);
    tp_limiter_str(&o, lim, sizeof lim);
    cr_assert_str_eq(lim, "threads");
    tp_occupancy(&h, 32, 0, 0, 256, 0, &o); /* 32 regs x 2048 threads = exactly 65536 */
    tp_limiter_str(&o, lim, sizeof lim);
    cr_assert_str_eq(lim, "threads + registers");
    tp_occupancy(&h, 255, 0, 0, 1024, 0, &o);
    cr_assert_eq(o.blocks, 0);
    cr_assert_not_null(o.why_zero);
    tp_occupancy(&h, 16, 0, 0, 1025, 0, &o);
    cr_assert_eq(o.blocks, 0);
    cr_assert_eq(tp_gpu_default(61, &h), -1, "no made-up limits for GPUs not in the table");
}

/* ---------------------------------------------------------------- compute-sanitizer */
/* ---------------------------------------------------------------- the rows of make resources */
typedef struct {
    tp_variant v[TP_MAX_VARIANTS];
    int nv;
    tp_resources res[128];
    int n;
} rows_input;

static void load_rows_input(int ch, rows_input *in)
{
    char path[64], err[256];
    snprintf(path, sizeof path, "tests/captured/ch%d_list.jsonl", ch);
    char *text = slurp(path);
    in->nv = tp_parse_variants(text, in->v, TP_MAX_VARIANTS, err, sizeof err);
    cr_assert_gt(in->nv, 0, "%s", err);
    free(text);
    snprintf(path, sizeof path, "tests/captured/ptxas_ch%d_sm90.txt", ch);
    text = slurp(path);
    in->n = tp_parse_ptxas(text, in->res, 128);
    free(text);
}

static int row_of(const rows_input *in, const tp_res_row *rows, int n, const char *kernel)
{
    for (int i = 0; i < n; i++) {
        char base[TP_NAME];
        tp_base_name(in->res[rows[i].entry].name, base, sizeof base);
        if (!strcmp(base, kernel)) return i;
    }
    return -1;
}

static double row_occupancy(const rows_input *in, const tp_res_row *r)
{
    tp_gpu g;
    cr_assert_eq(tp_gpu_default(90, &g), 0);
    const tp_resources *k = &in->res[r->entry];
    tp_occ o;
    tp_occupancy(&g, k->regs, k->smem, r->dsmem, r->threads, k->barriers, &o);
    return o.occupancy;
}

/* Chapter 4's reference at sm_90: the variants' kernels in source order, one row each (both
 * instantiations of matmul_async_copy in one), none of the harness's, reg-1d at its 512 threads. */
Test(inspect_resources, chapter4_rows_at_each_variants_launch)
{
    rows_input in;
    load_rows_input(4, &in);
    tp_res_plan plan = {in.v, in.nv, (1u << in.nv) - 1, 0, -1, -1, 256};
    tp_res_row rows[128];
    int n = tp_res_rows(in.res, in.n, &plan, rows, 128);
    static const char *const order[] = {"matmul_naive", "matmul_tiled", "matmul_reg1d", "matmul_reg2d",
                                        "matmul_regblock", "matmul_vector", "matmul_double_buffer",
                                        "matmul_async_copy"};
    cr_assert_eq(n, 8, "one row per kernel of the variants, the harness's left out (got %d)", n);
    for (int i = 0; i < n; i++) {
        char base[TP_NAME];
        tp_base_name(in.res[rows[i].entry].name, base, sizeof base);
        cr_assert_str_eq(base, order[i], "row %d", i);
        cr_assert_eq(rows[i].shape, TP_SHAPE_PROGRAM);
        cr_assert_not(rows[i].harness);
    }
    const tp_res_row *r1 = &rows[row_of(&in, rows, n, "matmul_reg1d")];
    cr_assert_eq(r1->threads, 512);
    cr_assert_float_eq(row_occupancy(&in, r1), 0.5, 1e-9, "reg-1d at 512 threads: 50 %%");
    cr_assert_eq(rows[row_of(&in, rows, n, "matmul_naive")].threads, 256);
    const tp_res_row *ac = &rows[row_of(&in, rows, n, "matmul_async_copy")];
    cr_assert_eq(ac->instances, 2);
    for (int j = 0; j < in.n; j++) /* the row shown is the instantiation using the most registers */
        if (tp_kernel_matches(in.res[j].name, "matmul_async_copy")) cr_assert_geq(in.res[ac->entry].regs, in.res[j].regs);
}

/* Chapter 5: v4 and v5 at their one-warp blocks (25 %, by registers, not by threads), pad_transpose in
 * one row for its four variants; V= keeps a variant's kernels; BLOCK= replaces every launch. */
Test(inspect_resources, chapter5_one_warp_blocks_selection_and_override)
{
    rows_input in;
    load_rows_input(5, &in);
    tp_res_plan plan = {in.v, in.nv, (1u << in.nv) - 1, 0, -1, -1, 256};
    tp_res_row rows[128];
    int n = tp_res_rows(in.res, in.n, &plan, rows, 128);
    cr_assert_eq(n, 7, "minplus_v0..v5 and pad_transpose, once (got %d)", n);
    cr_assert_eq(row_of(&in, rows, n, "pad_transpose"), 2, "in source order, before minplus_v2");
    for (int v = 4; v <= 5; v++) {
        char name[32];
        snprintf(name, sizeof name, "minplus_v%d", v);
        const tp_res_row *r = &rows[row_of(&in, rows, n, name)];
        cr_assert_eq(r->threads, 32, "%s", name);
        cr_assert_float_eq(row_occupancy(&in, r), 16.0 / 64, 1e-9, "%s: 16 one-warp blocks", name);
    }
    cr_assert_eq(rows[row_of(&in, rows, n, "minplus_v2")].threads, 64);

    plan.selected = 1u << tp_variant_find(in.v, in.nv, "v4");
    n = tp_res_rows(in.res, in.n, &plan, rows, 128);
    cr_assert_eq(n, 2);
    cr_assert_eq(row_of(&in, rows, n, "pad_transpose"), 0);
    cr_assert_eq(row_of(&in, rows, n, "minplus_v4"), 1);

    plan.block = 128;
    plan.dsmem = 4096;
    n = tp_res_rows(in.res, in.n, &plan, rows, 128);
    for (int i = 0; i < n; i++) {
        cr_assert_eq(rows[i].shape, TP_SHAPE_GIVEN);
        cr_assert_eq(rows[i].threads, 128);
        cr_assert_eq(rows[i].dsmem, 4096);
    }
}

/* ALL=1: the harness's kernels after the chapter's, one row per kernel, their launch marked assumed. */
Test(inspect_resources, harness_kernels_on_request)
{
    rows_input in;
    load_rows_input(4, &in);
    tp_res_plan plan = {in.v, in.nv, (1u << in.nv) - 1, 1, -1, -1, 256};
    tp_res_row rows[128];
    int n = tp_res_rows(in.res, in.n, &plan, rows, 128);
    cr_assert_gt(n, 8);
    int instances = 0;
    for (int i = 0; i < n; i++) {
        instances += rows[i].instances;
        cr_assert_eq(rows[i].harness, i >= 8, "row %d", i);
        cr_assert_eq(rows[i].shape, i >= 8 ? TP_SHAPE_ASSUMED : TP_SHAPE_PROGRAM, "row %d", i);
        for (int j = 0; j < i; j++) {
            char a[TP_NAME], b[TP_NAME];
            tp_base_name(in.res[rows[i].entry].name, a, sizeof a);
            tp_base_name(in.res[rows[j].entry].name, b, sizeof b);
            cr_assert_str_neq(a, b, "%s has two rows", a);
        }
    }
    cr_assert_eq(instances, in.n, "every compiled kernel is in exactly one row");
    const tp_res_row *h = &rows[row_of(&in, rows, n, "wb_fma_kernel")];
    cr_assert_eq(h->threads, 256);
}

Test(inspect_parse, sanitizer_outputs)
{
    gr_san_report s;
    char *t = slurp("tests/captured/sanitizer_memcheck_clean.txt");
    gr_san_parse(t, &s);
    cr_assert(s.found_summary);
    cr_assert_eq(gr_san_findings(&s), 0);
    cr_assert_str_eq(s.first, "");
    free(t);

    t = slurp("tests/captured/sanitizer_racecheck_clean.txt");
    gr_san_parse(t, &s);
    cr_assert(s.found_summary, "racecheck's own summary line counts");
    cr_assert_eq(gr_san_findings(&s), 0);
    free(t);

    t = slurp("tests/captured/sanitizer_racecheck_race.txt");
    gr_san_parse(t, &s);
    cr_assert(s.found_summary);
    cr_assert_gt(s.errors, 0);
    cr_assert(strstr(s.first, "Race reported") && strstr(s.first, "planted_race"), "%s", s.first);
    cr_assert_eq(s.errors, 2);
    free(t);

    t = slurp("tests/captured/sanitizer_memcheck_oob.txt");
    gr_san_parse(t, &s);
    cr_assert_gt(s.errors, 0);
    cr_assert(strstr(s.first, "Invalid __global__ write"), "%s", s.first);
    cr_assert(strstr(s.where, "planted_out_of_bounds"), "%s", s.where);
    free(t);

    t = slurp("tests/captured/sanitizer_initcheck_uninit.txt");
    gr_san_parse(t, &s);
    cr_assert_gt(s.errors, 0);
    cr_assert(strstr(s.first, "Uninitialized"), "%s", s.first);
    free(t);

    /* whole warps skipping __syncthreads() on sm_90: synccheck finds nothing (racecheck does) */
    t = slurp("tests/captured/sanitizer_synccheck_divergent_syncthreads.txt");
    gr_san_parse(t, &s);
    cr_assert(s.found_summary);
    cr_assert_eq(gr_san_findings(&s), 0);
    free(t);

    t = slurp("tests/captured/sanitizer_synccheck_bad_syncwarp.txt");
    gr_san_parse(t, &s);
    cr_assert_eq(s.errors, 1280, "the summary, not the 'errors were not printed' note after it: %ld", s.errors);
    cr_assert_str_eq(s.first, "Barrier error detected. Invalid arguments.");
    cr_assert(strstr(s.where, "__syncwarp"), "%s", s.where);
    free(t);

    gr_san_parse("========= COMPUTE-SANITIZER\nsegfault\n", &s);
    cr_assert(!s.found_summary, "a run that died has no summary, which is not 'clean'");
}

/* ---------------------------------------------------------------- ncu */
Test(inspect_parse, csv_quoting)
{
    char **f;
    int n = tp_csv_split("\"a\",\"b,c\",\"d \"\"q\"\"\",,e", &f);
    cr_assert_eq(n, 5);
    cr_assert_str_eq(f[1], "b,c");
    cr_assert_str_eq(f[2], "d \"q\"");
    cr_assert_str_eq(f[3], "");
    cr_assert_str_eq(f[4], "e");
    for (int i = 0; i < n; i++) free(f[i]);
    free(f);
    cr_assert_float_eq(tp_number("2,972.51"), 2972.51, 1e-9);
    cr_assert(isnan(tp_number("n/a")));
    cr_assert(isnan(tp_number("")));
}

Test(inspect_parse, ncu_raw_csv_of_chapter1_global)
{
    char *text = slurp("tests/captured/ncu_ch1_global.csv");
    tp_csv c;
    cr_assert_eq(tp_parse_csv(text, &c), 0);
    cr_assert_geq(c.n_rows, 1);
    cr_assert_not_null(c.units);
    int name = tp_csv_col(&c, "Kernel Name");
    cr_assert_geq(name, 0);
    cr_assert(tp_kernel_matches(c.rows[0][name], "reverse_global"), "%s", c.rows[0][name]);
    const char *unit;
    static const char *const dram[] = {"dram__bytes.sum.per_second", NULL};
    double bw = tp_csv_metric(&c, 0, dram, &unit) * tp_unit_scale(unit);
    cr_assert(bw > 1e11 && bw < 5e12, "DRAM %g B/s (%s)", bw, unit);
    static const char *const pct[] = {"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", NULL};
    double p = tp_csv_metric(&c, 0, pct, NULL);
    cr_assert(p > 5 && p <= 100, "%g%%", p);
    static const char *const sec[] = {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", NULL};
    static const char *const req[] = {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", NULL};
    double ratio = tp_csv_metric(&c, 0, sec, NULL) / tp_csv_metric(&c, 0, req, NULL);
    cr_assert(ratio > 3.9 && ratio < 4.1, "coalesced 4-byte loads: 4 sectors per request, got %g", ratio);
    tp_stall top[3];
    int n = tp_ncu_top_stalls(&c, 0, top);
    cr_assert_eq(n, 3);
    cr_assert_geq(top[0].value, top[1].value);
    cr_assert_geq(top[1].value, top[2].value);
    for (int i = 0; i < 3; i++) cr_assert_str_neq(top[i].reason, "selected");
    tp_csv_free(&c);
    free(text);
}

Test(inspect_parse, ncu_shared_memory_of_chapter2_shared)
{
    char *text = slurp("tests/captured/ncu_ch2_shared.csv");
    tp_csv c;
    cr_assert_eq(tp_parse_csv(text, &c), 0);
    static const char *const wf[] = {"memory_l1_wavefronts_shared", NULL};
    static const char *const wi[] = {"memory_l1_wavefronts_shared_ideal", NULL};
    static const char *const bl[] = {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", NULL};
    cr_assert_float_eq(tp_csv_metric(&c, 0, wf, NULL), 26214400.0, 0.5);
    cr_assert_float_eq(tp_csv_metric(&c, 0, wi, NULL), 26214400.0, 0.5, "tile[tx] and tile[tx-1]: no conflicts");
    cr_assert_gt(tp_csv_metric(&c, 0, bl, NULL), 0, "the hardware counter is not zero even so");
    tp_stall top[3];
    cr_assert_eq(tp_ncu_top_stalls(&c, 0, top), 3);
    cr_assert_str_eq(top[1].reason, "barrier", "the tile's __syncthreads() shows up");
    tp_csv_free(&c);
    free(text);
}

/* The summary a student reads, from the captured CSV (inspect profile --csv: no GPU needed). */
Test(inspect_parse, profile_summary_text)
{
    static char out[WBT_OUT_MAX];
    int rc = wbt_run(out, "./build/inspect profile --csv tests/captured/ncu_ch1_global.csv");
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strstr(out, "0.8945 ms"), "time in ms from ncu's ns:\n%s", out);
    cr_assert(strstr(out, "2383 GB/s = 71.1% of the DRAM's peak"), "%s", out);
    cr_assert(strstr(out, "achieved 72.8%"), "%s", out);
    cr_assert(strstr(out, "4.00 sectors/request on loads"), "%s", out);
    cr_assert(strstr(out, "no shared-memory accesses"), "%s", out);
    cr_assert(strstr(out, "long_scoreboard"), "%s", out);
    rc = wbt_run(out, "./build/inspect profile --csv tests/captured/ncu_ch2_shared.csv");
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strstr(out, "no bank conflicts in the code"), "%s", out);
}
