/* listing.h — SASS and PTX listings: functions, instructions and the kinds the legend counts (listing.c). Plain C, no CUDA; parsers never print and never exit. */
#ifndef WB_TP_LISTING_H
#define WB_TP_LISTING_H

#include "names.h" /* TP_NAME */
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

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

void tp_listing_free(tp_listing *l);

/* SASS when the text has cuobjdump's "Function : " headers, else PTX. */
void tp_parse_listing(const char *text, tp_listing *l);

/* The kinds of instruction the legend counts. Memory kinds also carry the access width in bits. */
typedef enum {
    TP_K_GLOBAL_LD, TP_K_GLOBAL_ST, TP_K_SHARED_LD, TP_K_SHARED_ST, TP_K_LOCAL, TP_K_ASYNC_COPY,
    TP_K_ATOMIC_GLOBAL, TP_K_ATOMIC_SHARED, TP_K_BARRIER, TP_K_SHUFFLE, TP_K_FMINMAX, TP_K_IMINMAX,
    TP_K_FADD, TP_K_FMUL, TP_K_FFMA, TP_K_TENSOR, TP_K_OTHER, TP_K_COUNT
} tp_kind;

extern const char *const tp_kind_names[TP_K_COUNT];

/* The kind's name in this ISA: PTX's ld.local/st.local are declared local arrays ("local array"),
 * never spills, which only ptxas makes. */
const char *tp_kind_name(tp_isa isa, tp_kind k);

/* May "none of" list the kind when the listing has none? Not spills from PTX: ptxas adds them later. */
int tp_kind_absence_shown(tp_isa isa, tp_kind k);

/* What each kind means for performance, in one line (printed as the legend). */
extern const char *const tp_kind_legend[2][TP_K_COUNT];

/* Classifies an opcode; *width gets the access width in bits for memory kinds, else 0. */
tp_kind tp_classify(tp_isa isa, const char *op, int *width);

/* Counts per kind, and per width for the memory kinds (index: 8,16,32,64,128 bits -> 0..4). */
typedef struct {
    int total;
    int kind[TP_K_COUNT];
    int width[TP_K_COUNT][5];
} tp_counts;

/* NOPs are padding after EXIT; they are not counted. */
void tp_count(tp_isa isa, const tp_function *f, tp_counts *c);

#ifdef __cplusplus
}
#endif
#endif /* WB_TP_LISTING_H */
