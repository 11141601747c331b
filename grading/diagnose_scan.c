/* diagnose_scan.c — gr_diag_scan of diagnose.h: what one wrong size's raw results show. */
#include "diagnose.h"
#include "contract.h"

#include <math.h>
#include <string.h>

static int gr_elem_eq(const void *a, size_t i, const void *b, size_t j, int eb)
{
    return !memcmp((const char *)a + i * eb, (const char *)b + j * eb, eb);
}

static int gr_poison_at(const void *p, size_t i, int eb) { return wb_is_poison((const char *)p + i * eb, (size_t)eb); }

/* Equal, or for floats close (results summed in another order). */
static int gr_close(const void *a, size_t i, const void *b, size_t j, int eb, int approx)
{
    if (!approx) return gr_elem_eq(a, i, b, j, eb);
    float x = ((const float *)a)[i], y = ((const float *)b)[j];
    return x == y || fabsf(x - y) <= 1e-3f * (1.0f + fabsf(y));
}

/* -1, 0, 1 as got[i] is below, equal to or above ref[i] by value; 2: not comparable (NaN). int64 is
 * compared as it is: as doubles, values beyond 2^53 that differ would round together. */
static int gr_order(const void *ref, const void *got, size_t i, gr_elem elem)
{
    if (elem == GR_I64) {
        long long a = ((const long long *)ref)[i], b = ((const long long *)got)[i];
        return (b > a) - (b < a);
    }
    double a = gr_elem_value(elem, ref, i), b = gr_elem_value(elem, got, i);
    return a != a || b != b ? 2 : (b > a) - (b < a);
}

void gr_diag_scan(const void *ref, const void *got, unsigned long long n, unsigned long long cols, gr_elem elem,
                  int approx, int tile, gr_size_ev *s)
{
    int eb = (int)gr_elem_size(elem);
    s->transposed = s->uniform = s->first_tile_repeated = s->offset = s->side = 0;
    s->n_wrong = 0, s->first_wrong = -1;
    if (!ref || !got || !n || eb <= 0) return;
    if (!cols || n % cols) cols = n;
    unsigned long long rows = n / cols;
    /* Transposed: only a square non-trivial result can tell, and only if it is not symmetric. */
    if (rows == cols && rows > 1) {
        int t = 1, differs = 0;
        for (unsigned long long r = 0; r < rows && t; r++)
            for (unsigned long long c = 0; c < cols && t; c++) {
                t = gr_close(got, r * cols + c, ref, c * cols + r, eb, approx);
                differs |= !gr_elem_eq(got, r * cols + c, ref, r * cols + c, eb);
            }
        s->transposed = t && differs;
    }
    long long first_wrong = -1;
    int uniform = 1, any = 0, above = 0, below = 0, other = 0;
    for (unsigned long long i = 0; i < n; i++) {
        if (gr_elem_eq(ref, i, got, i, eb)) continue;
        if (!s->n_wrong++) s->first_wrong = (long long)i;
        if (gr_poison_at(got, i, eb)) continue;
        if (first_wrong < 0) first_wrong = (long long)i;
        else if (!gr_elem_eq(got, i, got, (size_t)first_wrong, eb)) uniform = 0;
        any = 1;
        int o = gr_order(ref, got, i, elem);
        above += o == 1, below += o == -1, other += o == 0 || o == 2;
    }
    s->uniform = any && uniform && s->n_wrong > 1; /* one wrong element is "one value" by default: no evidence */
    /* Exact results only: a tolerance blurs the side of a near miss. */
    if (!approx && !other && (above || below) && !(above && below)) s->side = above ? 1 : -1;
    if (approx && any) { /* every element off by about the same amount (a float accumulator's start) */
        double d0 = 0;
        int off = 1, set = 0;
        for (unsigned long long i = 0; i < n && off; i++) {
            double d = (double)((const float *)got)[i] - ((const float *)ref)[i];
            if (!set) d0 = d, set = 1;
            off = isfinite(d) && fabs(d - d0) <= 1e-3 * (1 + fabs(d0));
        }
        s->offset = off && d0 != 0;
    }
    /* Blocks that all did block 0's work: written elements beyond the first tile equal got[i % tile]. */
    unsigned long long w = tile > 1 ? (unsigned long long)tile : 256;
    if (n > w) {
        int rep = 1, seen = 0;
        for (unsigned long long i = w; i < n && rep; i++) {
            if (gr_poison_at(got, i, eb)) continue;
            seen++;
            rep = gr_elem_eq(got, i, got, i % w, eb) && !gr_elem_eq(got, i, ref, i, eb);
        }
        s->first_tile_repeated = rep && seen;
    }
}
