/* ops.c — see ops.h. */
#define _GNU_SOURCE 1
#include "ops.h"
#include "starter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Labels are what a grader can observe and should name: "< becomes <=" on a bounds test writes one
 * element past the end, which the sanitizer reports (out-of-bounds); "n - 1 - i becomes n - i" shifts
 * the result (off-by-one). The operators of every chapter; a chapter's own are beside its reference
 * (solutions/NN-name/mutants.json, mu_own_load). An operator's id is its index here: mutant ids
 * (ch1-global-04a) name it. */
const mu_op mu_ops[] = {
    {MU_DELETE_LINE, 0, "__syncthreads();", NULL, "race", "drop a __syncthreads()", 0},
    {MU_REPLACE, 1, "if (i < n) ", "", "out-of-bounds", "remove the bounds check on i", 0},
    {MU_REPLACE, 2, "if (src < n) ", "", "out-of-bounds", "remove the bounds check on src", 0},
    {MU_REPLACE, 3, "(i < n) ", "(i <= n) ", "out-of-bounds", "< becomes <= in the bounds test", 0},
    {MU_CEIL_FLOOR, 4, NULL, NULL, "tail", "the grid size rounded down (floor instead of ceil)", 0},
    {MU_CEIL_ONE, 5, NULL, NULL, "single-block", "one block instead of enough to cover n", 0},
    {MU_REPLACE, 6, "blockIdx.x * blockDim.x + threadIdx.x", "threadIdx.x", "thread-index",
     "threadIdx.x for the global index", 0},
    {MU_REPLACE, 7, "blockIdx.x * BLOCK + t;", "t;", "thread-index", "the thread index for the global index", 0},
    {MU_REPLACE, 8, "blockIdx.x * BLOCK + tx;", "tx;", "thread-index", "the thread index for the global index", 0},
    {MU_REPLACE, 9, "blockIdx.x * width + t;", "t;", "thread-index", "the thread index for the global index", 0},
    {MU_REPLACE, 10, "blockIdx.x * blockDim.x + tx;", "tx;", "thread-index", "the thread index for the global index", 0},
};
const int mu_n_ops = sizeof mu_ops / sizeof mu_ops[0];

/* The end of a call's argument list: the offset of its ')' from the '(' at open, and the first
 * top-level comma (0 if none); -1 if unbalanced. */
static long mu_call_end(const char *t, size_t len, size_t open, size_t *comma)
{
    int depth = 0;
    *comma = 0;
    for (size_t i = open; i < len; i++) {
        if (t[i] == '(') depth++;
        else if (t[i] == ')' && --depth == 0) return (long)i;
        else if (t[i] == ',' && depth == 1 && !*comma) *comma = i;
    }
    return -1;
}

static const char *mu_needle(const mu_op *op)
{
    switch (op->kind) {
    case MU_CEIL_FLOOR:
    case MU_CEIL_ONE: return "wb_ceil_div(";
    case MU_ATOMIC_PLAIN: return "atomicAdd(";
    default: return op->a;
    }
}

/* Is offset i of text on a hint line (`//| `: the starter's text, a comment in the reference)? A mutant
 * there changes nothing the grader can see: operators apply to the reference's own code only. */
static int mu_on_hint(const char *text, size_t len, size_t i)
{
    size_t b = i, e = i;
    while (b > 0 && text[b - 1] != '\n') b--;
    while (e < len && text[e] != '\n') e++;
    return st_hint_line(text + b, e - b) >= 0;
}

/* The first occurrence of s at or after from, off the hint lines; len when none. */
static size_t mu_code_find(const char *text, size_t len, size_t from, const char *s)
{
    size_t sl = strlen(s);
    for (size_t i = from; i + sl <= len; i++)
        if (!memcmp(text + i, s, sl) && !mu_on_hint(text, len, i)) return i;
    return len;
}

int mu_find(const mu_op *op, const char *text, size_t len, size_t *at, int max)
{
    const char *needle = mu_needle(op);
    int n = 0;
    if (op->kind == MU_SWAP) { /* one mutant: every a and b exchanged */
        if (mu_code_find(text, len, 0, op->a) < len && mu_code_find(text, len, 0, op->b) < len && max > 0) at[n++] = 0;
        return n;
    }
    for (size_t i = 0; n < max && (i = mu_code_find(text, len, i, needle)) < len; i++) {
        /* wb_ceil_div( inside another wb_ceil_div( is the same launch: only the outer one */
        if ((op->kind == MU_CEIL_FLOOR || op->kind == MU_CEIL_ONE) && n && i < at[n - 1] + 40) continue;
        at[n++] = i;
    }
    return n;
}

/* a + middle + b, as a malloc'd string. */
static char *mu_join(const char *t, size_t cut, const char *mid, size_t midlen, const char *rest, size_t restlen)
{
    char *o = malloc(cut + midlen + restlen + 1);
    if (!o) return NULL;
    memcpy(o, t, cut);
    memcpy(o + cut, mid, midlen);
    memcpy(o + cut + midlen, rest, restlen);
    o[cut + midlen + restlen] = 0;
    return o;
}

static char *mu_swap(const mu_op *op, const char *t, size_t len)
{
    size_t la = strlen(op->a), lb = strlen(op->b), cap = len * 2 + 1, n = 0;
    char *o = malloc(cap);
    if (!o) return NULL;
    for (size_t i = 0; i < len;) {
        if ((i == 0 || t[i - 1] == '\n') && mu_on_hint(t, len, i)) { /* a hint line stays as it is */
            while (i < len && t[i] != '\n') o[n++] = t[i++];
            if (i < len) o[n++] = t[i++];
        } else if (i + la <= len && !memcmp(t + i, op->a, la)) memcpy(o + n, op->b, lb), n += lb, i += la;
        else if (i + lb <= len && !memcmp(t + i, op->b, lb)) memcpy(o + n, op->a, la), n += la, i += lb;
        else o[n++] = t[i++];
    }
    o[n] = 0;
    return o;
}

char *mu_apply(const mu_op *op, const char *t, size_t len, size_t at)
{
    if (op->kind == MU_SWAP) return mu_swap(op, t, len);
    const char *needle = mu_needle(op);
    size_t nl = strlen(needle);
    if (at + nl > len || memcmp(t + at, needle, nl)) return NULL;
    if (op->kind == MU_REPLACE)
        return mu_join(t, at, op->b, strlen(op->b), t + at + nl, len - at - nl);
    if (op->kind == MU_DELETE_LINE) {
        size_t b = at, e = at + nl;
        while (b > 0 && t[b - 1] != '\n') b--;
        while (e < len && t[e] != '\n') e++;
        if (e < len) e++;
        return mu_join(t, b, "", 0, t + e, len - e);
    }
    size_t open = at + nl - 1, comma;
    long close = mu_call_end(t, len, open, &comma);
    if (close < 0 || !comma) return NULL;
    const char *x = t + open + 1, *y = t + comma + 1;
    int xl = (int)(comma - open - 1), yl = (int)((size_t)close - comma - 1);
    while (yl > 0 && *y == ' ') y++, yl--;
    char mid[600];
    if (op->kind == MU_CEIL_FLOOR) snprintf(mid, sizeof mid, "(%.*s) / (%.*s)", xl, x, yl, y);
    else if (op->kind == MU_CEIL_ONE) snprintf(mid, sizeof mid, "1");
    else if (*x == '&') snprintf(mid, sizeof mid, "%.*s += %.*s", xl - 1, x + 1, yl, y);
    else snprintf(mid, sizeof mid, "*%.*s += %.*s", xl, x, yl, y);
    return mu_join(t, at, mid, strlen(mid), t + close + 1, len - (size_t)close - 1);
}

/* ---------------------------------------------------------------- a chapter's own operators */
static int mu_kind_of(const char *s, mu_kind *k)
{
    static const struct {
        const char *name;
        mu_kind kind;
    } names[] = {{"replace", MU_REPLACE}, {"swap", MU_SWAP}, {"delete-line", MU_DELETE_LINE}, {"atomic-plain", MU_ATOMIC_PLAIN}};
    for (size_t i = 0; s && i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(s, names[i].name)) return *k = names[i].kind, 0;
    return -1;
}

/* One entry of "mutants": {id, op, a, b, label, what, perf} (a and b as its kind needs them). */
static int mu_own_op(json_t *m, size_t i, mu_op *op, const mu_own_ops *o, char *err, size_t elen)
{
    json_t *id = json_object_get(m, "id");
    const char *a = json_string_value(json_object_get(m, "a")), *b = json_string_value(json_object_get(m, "b"));
    op->label = json_string_value(json_object_get(m, "label"));
    op->what = json_string_value(json_object_get(m, "what"));
    op->a = a, op->b = b;
    json_t *perf = json_object_get(m, "perf");
    if (perf && !json_is_boolean(perf)) return snprintf(err, elen, "mutants[%zu].perf: true or false", i), -1;
    op->perf = json_is_true(perf);
    if (mu_kind_of(json_string_value(json_object_get(m, "op")), &op->kind))
        return snprintf(err, elen, "mutants[%zu].op: replace, swap, delete-line or atomic-plain", i), -1;
    if (!json_is_integer(id) || json_integer_value(id) < mu_n_ops || json_integer_value(id) > 999)
        return snprintf(err, elen, "mutants[%zu].id: an integer from %d to 999 (below are every chapter's)", i, mu_n_ops), -1;
    op->id = (int)json_integer_value(id);
    for (int k = 0; k < o->n; k++)
        if (o->op[k].id == op->id) return snprintf(err, elen, "mutants[%zu].id: %d appears twice", i, op->id), -1;
    int needs_a = op->kind != MU_ATOMIC_PLAIN, needs_b = op->kind == MU_REPLACE || op->kind == MU_SWAP;
    if (!op->label || !op->what || (needs_a && (!a || !*a)) || (needs_b && !b))
        return snprintf(err, elen, "mutants[%zu]: needs label, what%s", i, needs_b ? ", a and b" : needs_a ? " and a" : ""), -1;
    return 0;
}

int mu_own_load(const char *root, const char *dir, mu_own_ops *o, char *err, size_t elen)
{
    char p[4096], why[200];
    snprintf(p, sizeof p, "%s/solutions/%s/mutants.json", root, dir);
    memset(o, 0, sizeof *o);
    if (access(p, F_OK) != 0) return 0; /* the operators of every chapter only */
    json_error_t je;
    o->doc = json_load_file(p, JSON_REJECT_DUPLICATES, &je);
    if (!o->doc) return snprintf(err, elen, "%s: %s", p, je.text), -1;
    json_t *list = json_object_get(o->doc, "mutants");
    if (!list) return 0; /* the operators of every chapter only */
    if (!json_is_array(list) || json_array_size(list) > MU_MAX_OWN)
        return snprintf(err, elen, "%s: mutants: an array of at most %d operators", p, MU_MAX_OWN), -1;
    size_t i;
    json_t *m;
    json_array_foreach(list, i, m)
    {
        if (mu_own_op(m, i, &o->op[o->n], o, why, sizeof why)) return snprintf(err, elen, "%s: %s", p, why), -1;
        o->n++;
    }
    return 0;
}

void mu_own_free(mu_own_ops *o)
{
    json_decref(o->doc);
    o->doc = NULL;
    o->n = 0;
}
