/*
 * toolparse.h — reading what the CUDA tools print, for `make sass / resources / sanitize / profile`.
 *
 * The look-inside tool (grading/inspect.c) runs cuobjdump, ptxas, compute-sanitizer and ncu; every
 * piece of their output it interprets goes through a parser here, so the Criterion tests can check
 * each parser on real captured output (tests/captured/) on a machine without a GPU.
 *
 *   variants ......... tp_parse_variants      a chapter's `--list --json -` lines (jansson)
 *   kernel names ..... tp_kernel_matches      "reverse_global" vs _Z14reverse_globalPKiPii / demangled
 *   SASS / PTX ....... tp_parse_listing       cuobjdump -sass or nvcc -ptx text -> functions, instructions
 *                      tp_classify            an opcode -> the kind the legend counts (LDG.128, BAR, ...)
 *   resources ........ tp_parse_ptxas         nvcc -Xptxas -v -> registers, smem, stack, spills per kernel
 *   occupancy ........ tp_occupancy           blocks per SM from the GPU's limits (the formula of
 *                                             CUDA's cuda_occupancy.h, which the occupancy API follows)
 *   ncu .............. tp_parse_csv, tp_ncu_* `ncu --import R --csv --page raw` -> metric values
 *
 * Plain C, static inline, no CUDA. Parsers never print and never exit.
 */
#ifndef WB_TOOLPARSE_H
#define WB_TOOLPARSE_H

#include <ctype.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ================================================================ small helpers */
static inline char *tp_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = (char *)malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* Copies at most len-1 bytes of [s, s+n) into buf and terminates it. */
static inline void tp_copy(char *buf, size_t len, const char *s, size_t n)
{
    if (n >= len) n = len - 1;
    memcpy(buf, s, n);
    buf[n] = 0;
}

static inline const char *tp_skip_space(const char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    return s;
}

/* ================================================================ variants */
#define TP_MAX_VARIANTS 16
#define TP_MAX_KERNELS 8
#define TP_NAME 128

typedef struct {
    char name[TP_NAME];
    char idea[256];
    int n_kernels;                           /* 0: the chapter did not name them */
    char kernels[TP_MAX_KERNELS][TP_NAME];
} tp_variant;

/* Parses the JSON lines a chapter prints for `--list --json -`: {"variant":..,"idea":..,"kernels":"a,b"}.
 * Returns the number of variants, or -1 with a reason in err. Blank lines are skipped. */
static inline int tp_parse_variants(const char *text, tp_variant *out, int max, char *err, size_t errlen)
{
    int n = 0, line_no = 0;
    const char *p = text;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        line_no++;
        const char *q = tp_skip_space(p);
        if ((size_t)(q - p) < len && *q != '\r') {
            json_error_t je;
            json_t *obj = json_loadb(p, len, 0, &je);
            if (!obj || !json_is_object(obj)) {
                snprintf(err, errlen, "line %d of the variant list is not a JSON object: %s", line_no,
                         obj ? "not an object" : je.text);
                json_decref(obj);
                return -1;
            }
            const char *name = json_string_value(json_object_get(obj, "variant"));
            const char *idea = json_string_value(json_object_get(obj, "idea"));
            const char *kernels = json_string_value(json_object_get(obj, "kernels"));
            if (!name || !*name) {
                snprintf(err, errlen, "line %d of the variant list has no \"variant\" string", line_no);
                json_decref(obj);
                return -1;
            }
            if (n == max) {
                snprintf(err, errlen, "more than %d variants", max);
                json_decref(obj);
                return -1;
            }
            tp_variant *v = &out[n++];
            memset(v, 0, sizeof *v);
            tp_copy(v->name, sizeof v->name, name, strlen(name));
            snprintf(v->idea, sizeof v->idea, "%s", idea ? idea : "");
            for (const char *k = kernels ? kernels : ""; *k;) {
                const char *comma = strchr(k, ',');
                size_t klen = comma ? (size_t)(comma - k) : strlen(k);
                while (klen && (*k == ' ')) k++, klen--;
                while (klen && k[klen - 1] == ' ') klen--;
                if (klen && v->n_kernels < TP_MAX_KERNELS) tp_copy(v->kernels[v->n_kernels++], TP_NAME, k, klen);
                if (!comma) break;
                k = comma + 1;
            }
            json_decref(obj);
        }
        if (!eol) break;
        p = eol + 1;
    }
    if (n == 0) {
        snprintf(err, errlen, "the program listed no variants");
        return -1;
    }
    return n;
}

static inline int tp_variant_find(const tp_variant *v, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(v[i].name, name) == 0) return i;
    return -1;
}

/* ================================================================ kernel names */
/* Does `symbol` (as a tool prints it) name the kernel `name` (as the chapter's source spells it)?
 * Accepted spellings: the plain name (extern "C" or ncu's function base); the Itanium mangling
 * _Z<len><name>... (cuobjdump, ptxas, PTX; <len> makes the prefix exact: reverse_global never matches
 * reverse_global2); the demangled form name(…) or name<…>(…), optionally after "void " (sanitizer,
 * ncu). */
static inline int tp_kernel_matches(const char *symbol, const char *name)
{
    size_t n = strlen(name);
    if (n == 0) return 0;
    symbol = tp_skip_space(symbol);
    if (strcmp(symbol, name) == 0) return 1;
    char mangled[TP_NAME + 24];
    snprintf(mangled, sizeof mangled, "_Z%zu%s", n, name);
    if (strncmp(symbol, mangled, strlen(mangled)) == 0) return 1;
    if (strncmp(symbol, "void ", 5) == 0) symbol += 5;
    if (strncmp(symbol, name, n) == 0 && (symbol[n] == '(' || symbol[n] == '<')) return 1;
    return 0;
}

/* The readable base name of a symbol: _Z14reverse_globalPKiPii -> reverse_global; "f(int)" -> f. */
static inline void tp_base_name(const char *symbol, char *buf, size_t len)
{
    if (symbol[0] == '_' && symbol[1] == 'Z' && isdigit((unsigned char)symbol[2])) {
        char *end;
        long n = strtol(symbol + 2, &end, 10);
        if (n > 0 && (size_t)n <= strlen(end)) {
            tp_copy(buf, len, end, (size_t)n);
            return;
        }
    }
    if (strncmp(symbol, "void ", 5) == 0) symbol += 5;
    size_t k = strcspn(symbol, "(<");
    tp_copy(buf, len, symbol, k);
}

/* ================================================================ SASS and PTX listings */
typedef enum { TP_ISA_SASS, TP_ISA_PTX } tp_isa;

typedef struct {
    char addr[12];        /* "0x0070" (SASS) or "" (PTX) */
    char text[160];       /* the instruction as printed, without the encoding comment */
    char opcode[48];      /* LDG.E.128.CONSTANT / ld.global.nc.v4.u32 */
} tp_insn;

typedef struct {
    char name[256];       /* mangled, as the listing names it */
    char arch[16];        /* "sm_90" / "sm_75" when known */
    int n_insns, cap;
    tp_insn *insns;
} tp_function;

typedef struct {
    tp_isa isa;
    int n_functions;
    tp_function functions[64];
} tp_listing;

static inline void tp_listing_free(tp_listing *l)
{
    for (int i = 0; i < l->n_functions; i++) free(l->functions[i].insns);
    l->n_functions = 0;
}

static inline void tp_add_insn(tp_function *f, const char *addr, const char *text, size_t text_len,
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
static inline void tp_parse_sass(const char *text, tp_listing *l)
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

/* PTX from nvcc -ptx: ".visible .entry NAME(" ... "{" body "}". Directives, labels, braces and
 * declarations are not instructions. */
static inline void tp_parse_ptx(const char *text, tp_listing *l)
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
        } else if (!cur && (entry = strstr(s, ".entry ")) != NULL) {
            if (l->n_functions < (int)(sizeof l->functions / sizeof l->functions[0])) {
                cur = &l->functions[l->n_functions++];
                memset(cur, 0, sizeof *cur);
                const char *nm = tp_skip_space(entry + 7);
                tp_copy(cur->name, sizeof cur->name, nm, strcspn(nm, "( "));
                tp_copy(cur->arch, sizeof cur->arch, arch, strlen(arch));
                depth = 0;
                in_body = 0;
            }
        } else if (cur) {
            if (*s == '{') {
                depth++;
                in_body = 1;
            } else if (*s == '}') {
                if (--depth <= 0 && in_body) cur = NULL;
            } else if (in_body && *s && *s != '.' && *s != '/' && s[strlen(s) - 1] != ':') {
                const char *op = s;
                if (*op == '@') {
                    op += strcspn(op, " \t");
                    op = tp_skip_space(op);
                }
                size_t olen = strcspn(op, " \t;");
                size_t ilen = strcspn(s, ";");
                tp_add_insn(cur, "", s, ilen, op, olen);
            }
        }
        if (!eol) break;
        p = eol + 1;
    }
}

/* SASS when the text has cuobjdump's "Function : " headers, else PTX. */
static inline void tp_parse_listing(const char *text, tp_listing *l)
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

/* The kinds of instruction the legend counts. Memory kinds also carry the access width in bits. */
typedef enum {
    TP_K_GLOBAL_LD, TP_K_GLOBAL_ST, TP_K_SHARED_LD, TP_K_SHARED_ST, TP_K_LOCAL, TP_K_ASYNC_COPY,
    TP_K_ATOMIC_GLOBAL, TP_K_ATOMIC_SHARED, TP_K_BARRIER, TP_K_SHUFFLE, TP_K_FMINMAX, TP_K_IMINMAX,
    TP_K_FADD, TP_K_FMUL, TP_K_FFMA, TP_K_TENSOR, TP_K_OTHER, TP_K_COUNT
} tp_kind;

static const char *const tp_kind_names[TP_K_COUNT] = {
    "global load", "global store", "shared load", "shared store", "local (spill)", "async copy",
    "global atomic", "shared atomic", "barrier", "warp shuffle", "float min/max", "int min/max",
    "float add", "float mul", "float fma", "tensor core", "other"};

/* What each kind means for performance, in one line (printed as the legend). */
static const char *const tp_kind_legend[2][TP_K_COUNT] = {
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

static inline int tp_has_mod(const char *op, const char *mod)
{
    size_t m = strlen(mod);
    for (const char *d = strchr(op, '.'); d; d = strchr(d + 1, '.'))
        if (strncmp(d + 1, mod, m) == 0 && (d[1 + m] == '.' || d[1 + m] == 0)) return 1;
    return 0;
}

static inline int tp_op_is(const char *op, const char *base)
{
    size_t n = strlen(base);
    return strncmp(op, base, n) == 0 && (op[n] == '.' || op[n] == 0);
}

/* SASS access width in bits from the opcode's modifiers (default 32). */
static inline int tp_sass_width(const char *op)
{
    if (tp_has_mod(op, "128")) return 128;
    if (tp_has_mod(op, "64")) return 64;
    if (tp_has_mod(op, "U16") || tp_has_mod(op, "S16") || tp_has_mod(op, "16")) return 16;
    if (tp_has_mod(op, "U8") || tp_has_mod(op, "S8") || tp_has_mod(op, "8")) return 8;
    return 32;
}

/* PTX access width: vector count × element bits (ld.global.nc.v4.u32 -> 128). */
static inline int tp_ptx_width(const char *op)
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

/* Classifies an opcode; *width gets the access width in bits for memory kinds, else 0. */
static inline tp_kind tp_classify(tp_isa isa, const char *op, int *width)
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

/* Counts per kind, and per width for the memory kinds (index: 8,16,32,64,128 bits -> 0..4). */
typedef struct {
    int total;
    int kind[TP_K_COUNT];
    int width[TP_K_COUNT][5];
} tp_counts;

static inline int tp_width_index(int bits)
{
    return bits == 8 ? 0 : bits == 16 ? 1 : bits == 64 ? 3 : bits == 128 ? 4 : 2;
}

/* NOPs are padding after EXIT; they are not counted. */
static inline void tp_count(tp_isa isa, const tp_function *f, tp_counts *c)
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

/* ================================================================ ptxas -v */
typedef struct {
    char name[256];          /* mangled */
    char arch[16];
    int regs, barriers;      /* barriers: -1 when ptxas did not say */
    long smem, cmem0;        /* static shared memory; constant bank 0 (-1 unknown) */
    long stack, spill_stores, spill_loads;
} tp_resources;

/* Parses `ptxas info` lines (nvcc -Xptxas -v) for entry functions only:
 *   ptxas info    : Compiling entry function '_Z14reverse_globalPKiPii' for 'sm_90'
 *   ptxas info    : Function properties for _Z14reverse_globalPKiPii
 *       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
 *   ptxas info    : Used 10 registers, used 1 barriers, 1024 bytes smem, 360 bytes cmem[0]
 * Returns the number of kernels found. */
static inline int tp_parse_ptxas(const char *text, tp_resources *out, int max)
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

/* ================================================================ occupancy */
typedef struct {
    char name[128];
    int major, minor, sms, warp_size;
    int max_threads_per_sm, max_threads_per_block, max_blocks_per_sm;
    int regs_per_sm, regs_per_block;
    long smem_per_sm, smem_per_block, smem_per_block_optin, reserved_smem_per_block;
    int is_default;          /* 1: no GPU was found; these are a named GPU's published limits */
} tp_gpu;

/* Published limits (CUDA C Programming Guide, "Technical Specifications per Compute Capability"),
 * used when there is no GPU to ask. The names say which card they stand for. */
static inline int tp_gpu_default(int cc, tp_gpu *g)
{
    memset(g, 0, sizeof *g);
    g->warp_size = 32;
    g->max_threads_per_block = 1024;
    g->regs_per_sm = g->regs_per_block = 65536;
    g->smem_per_block = 48 * 1024;
    g->is_default = 1;
    switch (cc) {
    case 75:
        snprintf(g->name, sizeof g->name, "Tesla T4 (sm_75)");
        g->sms = 40, g->max_threads_per_sm = 1024, g->max_blocks_per_sm = 16;
        g->smem_per_sm = 64 * 1024, g->smem_per_block_optin = 64 * 1024, g->reserved_smem_per_block = 0;
        break;
    case 80:
        snprintf(g->name, sizeof g->name, "A100 (sm_80)");
        g->sms = 108, g->max_threads_per_sm = 2048, g->max_blocks_per_sm = 32;
        g->smem_per_sm = 164 * 1024, g->smem_per_block_optin = 163 * 1024, g->reserved_smem_per_block = 1024;
        break;
    case 86:
        snprintf(g->name, sizeof g->name, "A10 / RTX 30xx (sm_86)");
        g->sms = 72, g->max_threads_per_sm = 1536, g->max_blocks_per_sm = 16;
        g->smem_per_sm = 100 * 1024, g->smem_per_block_optin = 99 * 1024, g->reserved_smem_per_block = 1024;
        break;
    case 89:
        snprintf(g->name, sizeof g->name, "L4 / RTX 40xx (sm_89)");
        g->sms = 58, g->max_threads_per_sm = 1536, g->max_blocks_per_sm = 24;
        g->smem_per_sm = 100 * 1024, g->smem_per_block_optin = 99 * 1024, g->reserved_smem_per_block = 1024;
        break;
    case 90:
        snprintf(g->name, sizeof g->name, "H100 SXM (sm_90)");
        g->sms = 132, g->max_threads_per_sm = 2048, g->max_blocks_per_sm = 32;
        g->smem_per_sm = 228 * 1024, g->smem_per_block_optin = 227 * 1024, g->reserved_smem_per_block = 1024;
        break;
    default:
        return -1;
    }
    g->major = cc / 10;
    g->minor = cc % 10;
    return 0;
}

/* Shared memory carve-outs the hardware offers, in KB (cudaOccAlignUpShmemSizeVoltaPlus). */
static inline long tp_align_carveout(const tp_gpu *g, long bytes)
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

typedef enum { TP_LIM_WARPS, TP_LIM_REGS, TP_LIM_SMEM, TP_LIM_BLOCKS, TP_LIM_BARRIERS, TP_LIM_COUNT } tp_limit;
static const char *const tp_limit_names[TP_LIM_COUNT] = {"threads", "registers", "shared memory", "blocks/SM",
                                                         "barriers"};

typedef struct {
    int blocks;                   /* resident blocks per SM (0: the block cannot launch) */
    int by[TP_LIM_COUNT];         /* the bound each resource sets (INT_MAX: no bound) */
    unsigned limiters;            /* bit l set: resource l is at the minimum */
    int warps_per_block, active_warps, max_warps;
    double occupancy;             /* active warps / max warps per SM, 0..1 */
    long smem_per_block;          /* allocated, with the driver's reserve and granularity */
    int regs_per_block;           /* allocated */
    const char *why_zero;         /* when blocks == 0 */
} tp_occ;

static inline int tp_round_up(long x, long to) { return (int)((x + to - 1) / to * to); }

/* Blocks per SM for a kernel using `regs` registers per thread and `static_smem` bytes of static
 * shared memory, launched with `block` threads and `dyn_smem` bytes of dynamic shared memory, with
 * the default carve-out preference: cudaOccMaxActiveBlocksPerMultiprocessor of cuda_occupancy.h for
 * compute capability ≥ 7 (no partitioned global caching, no opt-in of more than 48 KB). */
static inline void tp_occupancy(const tp_gpu *g, int regs, long static_smem, long dyn_smem, int block,
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

/* "registers" or "threads + blocks/SM" */
static inline void tp_limiter_str(const tp_occ *o, char *buf, size_t len)
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


/* ================================================================ CSV (ncu --csv) */
typedef struct {
    int n_cols, n_rows;
    char **header;           /* n_cols */
    char **units;            /* n_cols, or NULL */
    char ***rows;            /* n_rows × n_cols */
} tp_csv;

/* Splits one CSV record (RFC 4180 quoting: "a ""b""" -> a "b"). Returns the number of fields. */
static inline int tp_csv_split(const char *line, char ***fields_out)
{
    int n = 0, cap = 16;
    char **fields = (char **)malloc(sizeof(char *) * (size_t)cap);
    const char *p = line;
    size_t linelen = strlen(line);
    char *buf = (char *)malloc(linelen + 1);
    for (;;) {
        size_t k = 0;
        if (*p == '"') {
            p++;
            while (*p) {
                if (*p == '"' && p[1] == '"') buf[k++] = '"', p += 2;
                else if (*p == '"') { p++; break; }
                else buf[k++] = *p++;
            }
            while (*p && *p != ',') p++;
        } else {
            while (*p && *p != ',' && *p != '\r' && *p != '\n') buf[k++] = *p++;
        }
        buf[k] = 0;
        if (n == cap) fields = (char **)realloc(fields, sizeof(char *) * (size_t)(cap *= 2));
        fields[n++] = tp_strdup(buf);
        if (*p != ',') break;
        p++;
    }
    free(buf);
    *fields_out = fields;
    return n;
}

static inline void tp_csv_free(tp_csv *c)
{
    for (int j = 0; j < c->n_cols; j++) {
        free(c->header[j]);
        if (c->units) free(c->units[j]);
    }
    for (int i = 0; i < c->n_rows; i++) {
        for (int j = 0; j < c->n_cols; j++) free(c->rows[i][j]);
        free(c->rows[i]);
    }
    free(c->header);
    free(c->units);
    free(c->rows);
    memset(c, 0, sizeof *c);
}

/* ncu --csv --page raw: lines before the header ("==PROF==", warnings) are skipped; the header starts
 * with "ID"; the line after it holds the units when its first field is empty. Returns 0, or -1 when
 * there is no header. */
static inline int tp_parse_csv(const char *text, tp_csv *c)
{
    memset(c, 0, sizeof *c);
    int cap = 0;
    for (const char *p = text; *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char *line = (char *)malloc(len + 1);
        tp_copy(line, len + 1, p, len);
        if (line[0] == '"') {
            char **f;
            int n = tp_csv_split(line, &f);
            if (!c->header) {
                if (strcmp(f[0], "ID") == 0) {
                    c->header = f;
                    c->n_cols = n;
                    f = NULL;
                }
            } else if (!c->units && c->n_rows == 0 && f[0][0] == 0) {
                c->units = (char **)calloc((size_t)c->n_cols, sizeof(char *));
                for (int j = 0; j < c->n_cols; j++) c->units[j] = tp_strdup(j < n ? f[j] : "");
            } else {
                char **row = (char **)calloc((size_t)c->n_cols, sizeof(char *));
                for (int j = 0; j < c->n_cols; j++) row[j] = tp_strdup(j < n ? f[j] : "");
                if (c->n_rows == cap) c->rows = (char ***)realloc(c->rows, sizeof(char **) * (size_t)(cap = cap ? 2 * cap : 8));
                c->rows[c->n_rows++] = row;
            }
            if (f) {
                for (int j = 0; j < n; j++) free(f[j]);
                free(f);
            }
        }
        free(line);
        if (!eol) break;
        p = eol + 1;
    }
    return c->header ? 0 : -1;
}

static inline int tp_csv_col(const tp_csv *c, const char *name)
{
    for (int j = 0; j < c->n_cols; j++)
        if (strcmp(c->header[j], name) == 0) return j;
    return -1;
}

/* A numeric cell: "2,972.51" -> 2972.51 (ncu groups thousands with commas); NAN when empty or "n/a". */
static inline double tp_number(const char *cell)
{
    char buf[64];
    size_t k = 0;
    for (const char *s = cell; *s && k + 1 < sizeof buf; s++)
        if (*s != ',' && *s != ' ') buf[k++] = *s;
    buf[k] = 0;
    if (!k) return NAN;
    char *end;
    double v = strtod(buf, &end);
    return *end ? NAN : v;
}

/* The value of the first metric in `names` (NULL-terminated) present in row r; NAN if none. */
static inline double tp_csv_metric(const tp_csv *c, int r, const char *const *names, const char **unit)
{
    for (; *names; names++) {
        int j = tp_csv_col(c, *names);
        if (j >= 0) {
            double v = tp_number(c->rows[r][j]);
            if (!isnan(v)) {
                if (unit) *unit = c->units ? c->units[j] : "";
                return v;
            }
        }
    }
    if (unit) *unit = "";
    return NAN;
}

/* Multiplier from an ncu unit to the base unit: "Gbyte/second" -> 1e9, "KiB" -> 1024, "ns"/"nsecond" ->
 * 1e-9 (time in seconds), "%" -> 1. */
static inline double tp_unit_scale(const char *unit)
{
    if (!unit || !*unit) return 1;
    static const struct {
        const char *unit;
        double scale;
    } times[] = {{"ns", 1e-9}, {"nsecond", 1e-9}, {"us", 1e-6}, {"usecond", 1e-6}, {"ms", 1e-3},
                 {"msecond", 1e-3}, {"s", 1}, {"second", 1}};
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
        if (strcmp(unit, times[i].unit) == 0) return times[i].scale;
    switch (unit[0]) {
    case 'K': return strncmp(unit, "KiB", 3) == 0 ? 1024.0 : 1e3;
    case 'M': return strncmp(unit, "MiB", 3) == 0 ? 1048576.0 : 1e6;
    case 'G': return strncmp(unit, "GiB", 3) == 0 ? 1073741824.0 : 1e9;
    case 'T': return 1e12;
    default: return 1;
    }
}

/* Warp stall reasons: ncu's WarpStateStats metrics smsp__average_warps_issue_stalled_<reason>_per_issue_active
 * .ratio, the average number of warps waiting for that reason per issued instruction (their sum is the
 * "warp cycles per issued instruction" of the Nsight Compute GUI). The three largest, "selected" (not a
 * stall) excluded. Returns how many were found (≤ 3). */
typedef struct {
    char reason[48];
    double value;
} tp_stall;

static inline int tp_ncu_top_stalls(const tp_csv *c, int r, tp_stall top[3])
{
    static const char prefix[] = "smsp__average_warps_issue_stalled_";
    static const char suffix[] = "_per_issue_active.ratio";
    int n = 0;
    for (int j = 0; j < c->n_cols; j++) {
        const char *h = c->header[j];
        size_t hl = strlen(h), pl = sizeof prefix - 1, sl = sizeof suffix - 1;
        if (hl <= pl + sl || strncmp(h, prefix, pl) != 0 || strcmp(h + hl - sl, suffix) != 0) continue;
        char reason[48];
        tp_copy(reason, sizeof reason, h + pl, hl - pl - sl);
        if (strcmp(reason, "selected") == 0) continue;
        double v = tp_number(c->rows[r][j]);
        if (isnan(v) || v <= 0) continue;
        int at = n < 3 ? n++ : 3;
        while (at > 0 && top[at - 1].value < v) {
            if (at < 3) top[at] = top[at - 1];
            at--;
        }
        if (at < 3) {
            tp_copy(top[at].reason, sizeof top[at].reason, reason, strlen(reason));
            top[at].value = v;
        }
    }
    return n;
}

/* What a stall reason means, for students. */
static inline const char *tp_stall_meaning(const char *reason)
{
    static const char *const table[][2] = {
        {"long_scoreboard", "waiting for data from global/local memory (L1TEX)"},
        {"short_scoreboard", "waiting for shared memory or a special-function result (MIO)"},
        {"barrier", "waiting at __syncthreads() for the rest of the block"},
        {"membar", "waiting at a memory fence"},
        {"mio_throttle", "shared-memory/special instruction queue full"},
        {"lg_throttle", "global/local memory instruction queue full (fewer, wider loads help)"},
        {"tex_throttle", "texture/L1TEX queue full"},
        {"math_pipe_throttle", "the arithmetic pipe is busy (good in compute-bound code)"},
        {"wait", "a fixed-latency dependency on the previous instruction"},
        {"not_selected", "ready, but another warp was picked (enough parallelism)"},
        {"dispatch_stall", "the dispatcher could not issue"},
        {"drain", "waiting for stores to drain before the warp exits"},
        {"branch_resolving", "waiting for a branch target"},
        {"no_instruction", "instruction fetch miss"},
        {"imc_miss", "constant cache miss"},
        {"sleeping", "the warp is sleeping (nanosleep or a yield)"},
        {"misc", "other"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(reason, table[i][0]) == 0) return table[i][1];
    return "";
}

#endif /* WB_TOOLPARSE_H */
