/* names.h — variants of a chapter (`--list --json -`) and kernel names (names.c). Plain C, no CUDA; parsers never print and never exit. */
#ifndef WB_TP_NAMES_H
#define WB_TP_NAMES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* n bytes of s into buf (len > 0), cut to fit and terminated. */
void tp_copy(char *buf, size_t len, const char *s, size_t n);

/* Skips spaces and tabs. */
const char *tp_skip_space(const char *s);

/* ================================================================ variants */
#define TP_MAX_VARIANTS 16
#define TP_MAX_KERNELS 8
#define TP_NAME 128

typedef struct {
    char name[TP_NAME];
    char idea[256];
    int n_kernels;                           /* 0: the chapter did not name them */
    char kernels[TP_MAX_KERNELS][TP_NAME];
    int threads[TP_MAX_KERNELS];             /* each kernel's block as the program launches it; 0: not said */
    long dsmem[TP_MAX_KERNELS];              /* and its dynamic shared memory, bytes */
} tp_variant;

/* Parses the JSON lines a chapter prints for `--list --json -`: {"variant":..,"idea":..,"kernels":"a,b",
 * "threads":[64,256],"dsmem":[0,0]} (the two arrays may be absent: every launch then unsaid).
 * Returns the number of variants, or -1 with a reason in err. Blank lines are skipped. */
int tp_parse_variants(const char *text, tp_variant *out, int max, char *err, size_t errlen);

int tp_variant_find(const tp_variant *v, int n, const char *name);

/* ================================================================ kernel names */
/* Does `symbol` (as a tool prints it) name the kernel `name` (as the chapter's source spells it)?
 * Accepted spellings: the plain name (extern "C" or ncu's function base); the Itanium mangling
 * _Z<len><name>... (cuobjdump, ptxas, PTX; <len> makes the prefix exact: reverse_global never matches
 * reverse_global2); the demangled form name(…) or name<…>(…), optionally after "void " (sanitizer,
 * ncu). */
int tp_kernel_matches(const char *symbol, const char *name);

/* The readable base name of a symbol: _Z14reverse_globalPKiPii -> reverse_global; "f(int)" -> f. */
void tp_base_name(const char *symbol, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* WB_TP_NAMES_H */
