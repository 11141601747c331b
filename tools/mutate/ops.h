/*
 * ops.h — mutation operators for the reference solutions' TODO regions: each one a small, typical
 * student bug (a dropped barrier, < for <=, a missing bounds check, a grid rounded down, threadIdx.x for
 * the global index, x and y swapped, += for atomicAdd, an accumulator not at the identity, ...) labelled
 * with the bug class the grader's diagnosis should name (grading/diagnose.h's gr_bug_name words).
 *
 * Pure text functions: a mutant is the region's text with one occurrence rewritten; the caller splices
 * it back into the file (tools/mutate/mutants.c). The operators of every chapter are the table in ops.c;
 * a chapter's own (its code's typical bugs) are in solutions/NN-name/mutants.json. Tested by tests/test_mutate.c.
 */
#ifndef WB_MUTATE_OPS_H
#define WB_MUTATE_OPS_H

#include <jansson.h>
#include <stddef.h>

typedef enum {
    MU_REPLACE,      /* the occurrence of a becomes b */
    MU_SWAP,         /* every a becomes b and every b becomes a (all at once: one mutant per region) */
    MU_CEIL_FLOOR,   /* wb_ceil_div(x, y) becomes (x) / (y): the grid rounded down */
    MU_CEIL_ONE,     /* wb_ceil_div(x, y) becomes 1: one block */
    MU_ATOMIC_PLAIN, /* atomicAdd(p, v) becomes *p += v (or x += v for &x) */
    MU_DELETE_LINE   /* the line holding a is deleted */
} mu_kind;

typedef struct {
    mu_kind kind;
    int id;               /* its number in mutant ids: its index in mu_ops, or a chapter's own "id" */
    const char *a, *b;
    const char *label;    /* the bug class (gr_bug_name) the diagnosis should name */
    const char *what;     /* what the mutant does, for the listing */
    int perf;             /* graded with the performance run whatever its label: a correct alternative
                           * (label none) that must not get a cause of slowness invented */
} mu_op;

/* The operators of every chapter. */
extern const mu_op mu_ops[];
extern const int mu_n_ops;

/* A chapter's own operators, from solutions/NN-name/mutants.json beside its reference (they quote it:
 * the student release has neither): "mutants": [{id, op: replace|swap|delete-line|atomic-plain, a, b,
 * label, what, perf (optional, false)}]; the strings live in doc. */
#define MU_MAX_OWN 64
typedef struct {
    mu_op op[MU_MAX_OWN];
    int n;
    json_t *doc;
} mu_own_ops;

/* Reads root/solutions/<dir>/mutants.json's operators into o (no file: none). Returns 0, or -1 with one
 * line naming the file and the entry in err; mu_own_free after either. */
int mu_own_load(const char *root, const char *dir, mu_own_ops *o, char *err, size_t elen);
void mu_own_free(mu_own_ops *o);

/* Where op applies in text[0..len): the offsets of up to max occurrences, none on a hint line (`//| `, the
 * starter's text: a comment in the reference, tools/starter's st_hint_line); returns how many. */
int mu_find(const mu_op *op, const char *text, size_t len, size_t *at, int max);

/* text[0..len) with op applied at the occurrence found at offset at (a swap: at every occurrence off the hint
 * lines): a malloc'd string, or NULL if the occurrence does not parse (e.g. an unbalanced call) or nothing changes. */
char *mu_apply(const mu_op *op, const char *text, size_t len, size_t at);

#endif /* WB_MUTATE_OPS_H */
