/* listing.c — cuobjdump -sass / nvcc -ptx listings: functions, instructions, the kinds the legend counts (see toolparse.h). */
#define _GNU_SOURCE 1
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "listing.h"

void tp_listing_free(tp_listing *l)
{
    for (int i = 0; i < l->n_functions; i++) free(l->functions[i].insns);
    l->n_functions = 0;
}

static void tp_add_insn(tp_function *f, const char *addr, const char *text, size_t text_len,
                               const char *op, size_t op_len)
{
    if (f->n_insns == f->cap) {
        int cap = f->cap ? 2 * f->cap : 64;
        tp_insn *grown = (tp_insn *)realloc(f->insns, sizeof(tp_insn) * (size_t)cap);
        if (!grown) return;
        f->insns = grown;
        f->cap = cap;
    }
    tp_insn *in = &f->insns[f->n_insns++];
    tp_copy(in->addr, sizeof in->addr, addr, strlen(addr));
    tp_copy(in->text, sizeof in->text, text, text_len);
    for (char *t = in->text; *t; t++)
        if (*t == '\t') *t = ' ';
    tp_copy(in->opcode, sizeof in->opcode, op, op_len);
}

/* cuobjdump -sass: "code for sm_90", "Function : NAME", then lines
 *     [slash-star]0070[star-slash]   @!P0 LDG.E R2, desc[UR4][R2.64] ;   [slash-star] 0x... [star-slash]
 * The encoding comments (and the second, encoding-only line on newer GPUs) are dropped. */
static void tp_parse_sass(const char *text, tp_listing *l)
{
    char arch[16] = "";
    tp_function *cur = NULL;
    for (const char *p = text; *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[512];
        tp_copy(line, sizeof line, p, len);
        const char *s = tp_skip_space(line);
        const char *at;
        if (strncmp(s, "code for ", 9) == 0) {
            snprintf(arch, sizeof arch, "%.15s", tp_skip_space(s + 9));
            arch[strcspn(arch, " \r")] = 0;
        } else if ((at = strstr(s, "Function : ")) == s) {
            if (l->n_functions < (int)(sizeof l->functions / sizeof l->functions[0])) {
                cur = &l->functions[l->n_functions++];
                memset(cur, 0, sizeof *cur);
                snprintf(cur->name, sizeof cur->name, "%s", tp_skip_space(s + 11));
                cur->name[strcspn(cur->name, " \r")] = 0;
                tp_copy(cur->arch, sizeof cur->arch, arch, strlen(arch));
            } else {
                cur = NULL;
            }
        } else if (cur && s[0] == '/' && s[1] == '*' && isxdigit((unsigned char)s[2])) {
            const char *close = strstr(s, "*/");
            if (close) {
                char addr[12] = "0x";
                size_t alen = (size_t)(close - (s + 2));
                tp_copy(addr + 2, sizeof addr - 2, s + 2, alen);
                const char *ins = tp_skip_space(close + 2);
                if (*ins && !(ins[0] == '/' && ins[1] == '*')) {
                    const char *semi = strchr(ins, ';');
                    size_t ilen = semi ? (size_t)(semi - ins) : strcspn(ins, "/");
                    while (ilen && ins[ilen - 1] == ' ') ilen--;
                    const char *op = ins;
                    if (*op == '@') { /* predicate guard: @P0, @!PT, @UP1 */
                        op += strcspn(op, " ");
                        op = tp_skip_space(op);
                    }
                    size_t olen = strcspn(op, " ;");
                    tp_add_insn(cur, addr, ins, ilen, op, olen);
                }
            }
        } else if (cur && strncmp(s, "..........", 10) == 0) {
            cur = NULL;
        }
        if (!eol) break;
        p = eol + 1;
    }
}

/* The braces a PTX line opens minus those it closes, outside its comment. A vector operand's braces
 * ({%f1, %f2}) balance on their line; inline asm's do not: "{.reg .s32 t1;" opens a scope that
 * "min.s32 %r4, t1, %r5;}" closes, inside a kernel's body. */
static int tp_ptx_brace_delta(const char *s)
{
    int d = 0;
    for (; *s && !(s[0] == '/' && s[1] == '/'); s++) d += (*s == '{') - (*s == '}');
    return d;
}

/* PTX from nvcc -ptx: ".visible .entry NAME(" ... "{" body "}": the body ends where its braces balance
 * (an .entry cannot nest, so the next .entry ends an unbalanced one too). Directives, labels, braces
 * and declarations are not instructions. */
static void tp_parse_ptx(const char *text, tp_listing *l)
{
    char arch[16] = "";
    tp_function *cur = NULL;
    int depth = 0, in_body = 0;
    for (const char *p = text; *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[512];
        tp_copy(line, sizeof line, p, len);
        char *cr = strchr(line, '\r');
        if (cr) *cr = 0;
        const char *s = tp_skip_space(line);
        const char *entry;
        if (strncmp(s, ".target ", 8) == 0) {
            snprintf(arch, sizeof arch, "%.15s", tp_skip_space(s + 8));
            arch[strcspn(arch, " ,")] = 0;
        } else if ((entry = strstr(s, ".entry ")) != NULL && s[0] != '/') {
            cur = NULL;
            if (l->n_functions < (int)(sizeof l->functions / sizeof l->functions[0])) {
                cur = &l->functions[l->n_functions++];
                memset(cur, 0, sizeof *cur);
                const char *nm = tp_skip_space(entry + 7);
                tp_copy(cur->name, sizeof cur->name, nm, strcspn(nm, "( "));
                tp_copy(cur->arch, sizeof cur->arch, arch, strlen(arch));
            }
            depth = 0;
            in_body = 0;
        } else if (cur) {
            int delta = tp_ptx_brace_delta(s);
            while (*s == '{') s = tp_skip_space(s + 1);
            if (delta > 0) in_body = 1;
            if (in_body && *s && *s != '}' && *s != '.' && *s != '/' && s[strlen(s) - 1] != ':') {
                const char *op = s;
                if (*op == '@') {
                    op += strcspn(op, " \t");
                    op = tp_skip_space(op);
                }
                size_t olen = strcspn(op, " \t;");
                size_t ilen = strcspn(s, ";");
                tp_add_insn(cur, "", s, ilen, op, olen);
            }
            depth += delta;
            if (in_body && depth <= 0) cur = NULL;
        }
        if (!eol) break;
        p = eol + 1;
    }
}

void tp_parse_listing(const char *text, tp_listing *l)
{
    memset(l, 0, sizeof *l);
    if (strstr(text, "Function : ")) {
        l->isa = TP_ISA_SASS;
        tp_parse_sass(text, l);
    } else {
        l->isa = TP_ISA_PTX;
        tp_parse_ptx(text, l);
    }
}

const char *const tp_kind_names[TP_K_COUNT] = {
    "global load", "global store", "shared load", "shared store", "local (spill)", "async copy",
    "global atomic", "shared atomic", "barrier", "warp shuffle", "float min/max", "int min/max",
    "float add", "float mul", "float fma", "tensor core", "other"};

const char *const tp_kind_legend[2][TP_K_COUNT] = {
    {/* SASS */
     "LDG: load from global memory (.128 = 16-byte vector, .64 = 8, none = 4; .CONSTANT = read-only path, .EF = streaming)",
     "STG: store to global memory (width as for LDG)",
     "LDS/LDSM: load from shared memory (.128/.64: fewer, wider accesses; watch bank conflicts)",
     "STS: store to shared memory",
     "LDL/STL: local memory = registers spilled or arrays the compiler could not keep in registers",
     "LDGSTS: global->shared copy without passing through registers (cp.async)",
     "ATOMG/ATOM/RED: atomic read-modify-write on global memory (RED: result unused)",
     "ATOMS: atomic on shared memory (cheap, per block)",
     "BAR: __syncthreads() and friends: every thread of the block waits here",
     "SHFL: read another lane's register within the warp, no memory",
     "FMNMX: float min or max (the min-plus inner step)",
     "IMNMX/VIMNMX/VIADDMNMX: integer min or max (VIADDMNMX: Hopper's fused add+min, DPX)",
     "FADD: float add",
     "FMUL: float multiply",
     "FFMA: fused multiply-add, 2 flops (the matmul inner step)",
     "HMMA/IMMA/HGMMA: tensor-core matrix instructions",
     "integer arithmetic, address computation, moves, branches, ..."},
    {/* PTX */
     "ld.global: load from global memory (.v4.u32/.v2.u64 = 16-byte vector; .nc = read-only path)",
     "st.global: store to global memory",
     "ld.shared: load from shared memory",
     "st.shared: store to shared memory",
     "ld.local/st.local: local memory (PTX shows declared local arrays; spills appear only in SASS)",
     "cp.async: global->shared copy without passing through registers",
     "atom.global/red.global: atomic read-modify-write on global memory",
     "atom.shared/red.shared: atomic on shared memory",
     "bar.sync/barrier.sync: __syncthreads()",
     "shfl.sync: read another lane's register within the warp",
     "min.f32/max.f32: float min or max",
     "min/max on integers",
     "add.f32",
     "mul.f32",
     "fma.rn.f32: fused multiply-add, 2 flops",
     "mma/wmma: tensor-core matrix instructions",
     "integer arithmetic, moves, branches, ..."}};

const char *tp_kind_name(tp_isa isa, tp_kind k)
{
    return isa == TP_ISA_PTX && k == TP_K_LOCAL ? "local array" : tp_kind_names[k];
}

int tp_kind_absence_shown(tp_isa isa, tp_kind k)
{
    return k < TP_K_OTHER && !(isa == TP_ISA_PTX && k == TP_K_LOCAL);
}

static int tp_has_mod(const char *op, const char *mod)
{
    size_t m = strlen(mod);
    for (const char *d = strchr(op, '.'); d; d = strchr(d + 1, '.'))
        if (strncmp(d + 1, mod, m) == 0 && (d[1 + m] == '.' || d[1 + m] == 0)) return 1;
    return 0;
}

static int tp_op_is(const char *op, const char *base)
{
    size_t n = strlen(base);
    return strncmp(op, base, n) == 0 && (op[n] == '.' || op[n] == 0);
}

/* SASS access width in bits from the opcode's modifiers (default 32). */
static int tp_sass_width(const char *op)
{
    if (tp_has_mod(op, "128")) return 128;
    if (tp_has_mod(op, "64")) return 64;
    if (tp_has_mod(op, "U16") || tp_has_mod(op, "S16") || tp_has_mod(op, "16")) return 16;
    if (tp_has_mod(op, "U8") || tp_has_mod(op, "S8") || tp_has_mod(op, "8")) return 8;
    return 32;
}

/* PTX access width: vector count × element bits (ld.global.nc.v4.u32 -> 128). */
static int tp_ptx_width(const char *op)
{
    int vec = tp_has_mod(op, "v4") ? 4 : tp_has_mod(op, "v2") ? 2 : tp_has_mod(op, "v8") ? 8 : 1;
    int bits = 32;
    static const char *const types[] = {"b8", "u8", "s8", "b16", "u16", "s16", "f16", "b32", "u32", "s32",
                                        "f32", "b64", "u64", "s64", "f64", "b128"};
    static const int widths[] = {8, 8, 8, 16, 16, 16, 16, 32, 32, 32, 32, 64, 64, 64, 64, 128};
    for (size_t t = 0; t < sizeof widths / sizeof widths[0]; t++)
        if (tp_has_mod(op, types[t])) bits = widths[t];
    return vec * bits;
}

tp_kind tp_classify(tp_isa isa, const char *op, int *width)
{
    *width = 0;
    if (isa == TP_ISA_SASS) {
        if (tp_op_is(op, "LDG") || tp_op_is(op, "LD")) return *width = tp_sass_width(op), TP_K_GLOBAL_LD;
        if (tp_op_is(op, "STG") || tp_op_is(op, "ST")) return *width = tp_sass_width(op), TP_K_GLOBAL_ST;
        if (tp_op_is(op, "LDS") || tp_op_is(op, "LDSM")) return *width = tp_sass_width(op), TP_K_SHARED_LD;
        if (tp_op_is(op, "STS")) return *width = tp_sass_width(op), TP_K_SHARED_ST;
        if (tp_op_is(op, "LDL") || tp_op_is(op, "STL")) return *width = tp_sass_width(op), TP_K_LOCAL;
        if (tp_op_is(op, "LDGSTS")) return *width = tp_sass_width(op), TP_K_ASYNC_COPY;
        if (tp_op_is(op, "ATOMS")) return TP_K_ATOMIC_SHARED;
        if (tp_op_is(op, "ATOMG") || tp_op_is(op, "ATOM") || tp_op_is(op, "RED") || tp_op_is(op, "REDG"))
            return TP_K_ATOMIC_GLOBAL;
        if (tp_op_is(op, "BAR")) return TP_K_BARRIER;
        if (tp_op_is(op, "SHFL")) return TP_K_SHUFFLE;
        if (tp_op_is(op, "FMNMX")) return TP_K_FMINMAX;
        if (tp_op_is(op, "IMNMX") || tp_op_is(op, "VIMNMX") || tp_op_is(op, "VIMNMX3") ||
            tp_op_is(op, "VIADDMNMX"))
            return TP_K_IMINMAX;
        if (tp_op_is(op, "FADD")) return TP_K_FADD;
        if (tp_op_is(op, "FMUL")) return TP_K_FMUL;
        if (tp_op_is(op, "FFMA")) return TP_K_FFMA;
        if (tp_op_is(op, "HMMA") || tp_op_is(op, "IMMA") || tp_op_is(op, "HGMMA") || tp_op_is(op, "DMMA"))
            return TP_K_TENSOR;
        return TP_K_OTHER;
    }
    if (tp_op_is(op, "ld") || tp_op_is(op, "st")) {
        int store = op[0] == 's';
        *width = tp_ptx_width(op);
        if (tp_has_mod(op, "shared")) return store ? TP_K_SHARED_ST : TP_K_SHARED_LD;
        if (tp_has_mod(op, "local")) return TP_K_LOCAL;
        if (tp_has_mod(op, "param") || tp_has_mod(op, "const")) return *width = 0, TP_K_OTHER;
        return store ? TP_K_GLOBAL_ST : TP_K_GLOBAL_LD; /* .global or generic */
    }
    if (tp_op_is(op, "cp")) return TP_K_ASYNC_COPY;
    if (tp_op_is(op, "atom") || tp_op_is(op, "red"))
        return tp_has_mod(op, "shared") ? TP_K_ATOMIC_SHARED : TP_K_ATOMIC_GLOBAL;
    if (tp_op_is(op, "bar") || tp_op_is(op, "barrier")) return TP_K_BARRIER;
    if (tp_op_is(op, "shfl")) return TP_K_SHUFFLE;
    if (tp_op_is(op, "min") || tp_op_is(op, "max"))
        return tp_has_mod(op, "f32") || tp_has_mod(op, "f64") ? TP_K_FMINMAX : TP_K_IMINMAX;
    if (tp_op_is(op, "add") && tp_has_mod(op, "f32")) return TP_K_FADD;
    if (tp_op_is(op, "mul") && tp_has_mod(op, "f32")) return TP_K_FMUL;
    if (tp_op_is(op, "fma") && tp_has_mod(op, "f32")) return TP_K_FFMA;
    if (tp_op_is(op, "mma") || tp_op_is(op, "wmma") || tp_op_is(op, "wgmma")) return TP_K_TENSOR;
    return TP_K_OTHER;
}

static int tp_width_index(int bits)
{
    return bits == 8 ? 0 : bits == 16 ? 1 : bits == 64 ? 3 : bits == 128 ? 4 : 2;
}

void tp_count(tp_isa isa, const tp_function *f, tp_counts *c)
{
    for (int i = 0; i < f->n_insns; i++) {
        const char *op = f->insns[i].opcode;
        if (isa == TP_ISA_SASS && strcmp(op, "NOP") == 0) continue;
        int w;
        tp_kind k = tp_classify(isa, op, &w);
        c->total++;
        c->kind[k]++;
        if (w) c->width[k][tp_width_index(w)]++;
    }
}
