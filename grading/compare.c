/* compare.c — see compare.h. */
#define _GNU_SOURCE 1
#include "compare.h"

size_t gr_elem_size(gr_elem e) { return e == GR_I64 ? 8 : 4; }

double gr_elem_value(gr_elem e, const void *a, size_t i)
{
    if (e == GR_I32) return ((const int32_t *)a)[i];
    if (e == GR_I64) return (double)((const int64_t *)a)[i];
    return ((const float *)a)[i];
}

static void gr_fmt(gr_elem e, const void *a, size_t i, char *buf, size_t len)
{
    if (e == GR_I32) snprintf(buf, len, "%d", ((const int32_t *)a)[i]);
    else if (e == GR_I64) snprintf(buf, len, "%lld", (long long)((const int64_t *)a)[i]);
    else snprintf(buf, len, "%.9g", ((const float *)a)[i]);
}

static int gr_equal(const gr_chapter_rubric *ch, double kscale, const void *ref, const void *got, size_t i, size_t j)
{
    if (ch->elem == GR_I32) return ((const int32_t *)ref)[i] == ((const int32_t *)got)[j];
    if (ch->elem == GR_I64) return ((const int64_t *)ref)[i] == ((const int64_t *)got)[j];
    float r = ((const float *)ref)[i], g = ((const float *)got)[j];
    if (isnan(g)) return 0;
    if (!ch->tolerance) return memcmp(&r, &g, 4) == 0;
    if (isinf(r) || isinf(g)) return r == g;
    return fabs((double)g - (double)r) <= (ch->atol + ch->rtol * fabs((double)r)) * kscale;
}

void gr_compare(const gr_chapter_rubric *ch, const long long *dims, int ndims, const void *ref,
                              long long ref_bytes, const void *got, long long got_bytes, gr_cmp *c)
{
    memset(c, 0, sizeof *c);
    c->first = -1;
    c->exp_bytes = ref_bytes;
    c->got_bytes = got_bytes;
    size_t es = gr_elem_size(ch->elem);
    if (!got || got_bytes != ref_bytes || ref_bytes % (long long)es) {
        c->pattern = GR_PAT_LENGTH;
        c->wrong = c->n = (unsigned long long)(ref_bytes / (long long)es);
        return;
    }
    size_t n = (size_t)ref_bytes / es;
    c->n = n;
    double kscale = ch->sqrt_k && ndims == 3 ? sqrt((double)dims[2]) : 1.0;
    /* Output geometry for the tail/boundary patterns: rows × cols, tiles of ch->tile. */
    size_t cols = ch->cols_dim >= 0 && ch->cols_dim < ndims ? (size_t)dims[ch->cols_dim] : n;
    if (cols == 0 || n % cols) cols = n;
    size_t rows = n / cols, T = (size_t)ch->tile;
    size_t full_cols = cols / T * T, full_rows = rows / T * T;
    int all_tail = 1, all_boundary = 1, have_const = 1, const_set = 0;
    unsigned shift_ok = (1u << (2 * GR_SHIFTS)) - 1; /* bit per candidate shift ±1..±GR_SHIFTS */
    for (size_t i = 0; i < n; i++) {
        if (gr_equal(ch, kscale, ref, got, i, i)) continue;
        c->wrong++;
        if (c->first < 0) {
            c->first = (long long)i;
            if (ch->cols_dim >= 0) snprintf(c->where, sizeof c->where, "[%zu][%zu]", i / cols, i % cols);
            else snprintf(c->where, sizeof c->where, "[%zu]", i);
            gr_fmt(ch->elem, ref, i, c->expected, sizeof c->expected);
            gr_fmt(ch->elem, got, i, c->got, sizeof c->got);
        }
        int poison = wb_is_poison((const char *)got + es * i, es);
        c->poison += poison;
        if (ch->elem == GR_F32 && isnan(((const float *)got)[i]) && !poison) c->nan++;
        size_t r = i / cols, q = i % cols;
        int tail = (cols % T && q >= full_cols) || (rows > 1 && rows % T && r >= full_rows);
        all_tail &= tail;
        int edge = q % T == 0 || q % T == T - 1 || q == cols - 1 ||
                   (rows > 1 && (r % T == 0 || r % T == T - 1 || r == rows - 1));
        all_boundary &= edge;
        double d = gr_elem_value(ch->elem, got, i) - gr_elem_value(ch->elem, ref, i);
        if (!const_set) {
            c->constant = d;
            const_set = 1;
        } else if (!(d == c->constant || fabs(d - c->constant) <= 1e-6 * fabs(c->constant))) have_const = 0;
        if (!isfinite(d) || poison) have_const = 0;
        for (int k = 0; k < 2 * GR_SHIFTS && shift_ok && !poison; k++) { /* unwritten ones say nothing */
            if (!(shift_ok & (1u << k))) continue;
            long long s = k < GR_SHIFTS ? k + 1 : -(k - GR_SHIFTS + 1);
            long long j = (long long)i + s;
            if (j < 0 || j >= (long long)n || !gr_equal(ch, kscale, ref, got, (size_t)j, i)) shift_ok &= ~(1u << k);
        }
    }
    if (!c->wrong) {
        c->pattern = GR_PAT_NONE;
        return;
    }
    int tiled = T > 1 && (cols > T || rows > T);
    if (c->poison == n) c->pattern = GR_PAT_UNWRITTEN;
    else if (c->nan) c->pattern = GR_PAT_NAN;
    else if (tiled && all_tail) c->pattern = GR_PAT_TAIL;
    else if (c->poison == c->wrong && c->wrong < n) c->pattern = GR_PAT_POISON;
    else if (tiled && all_boundary && c->wrong < n / 2) c->pattern = GR_PAT_BOUNDARY;
    else if (shift_ok && c->wrong - c->poison > 1) {
        int k = __builtin_ctz(shift_ok); /* the first candidate left */
        c->pattern = GR_PAT_SHIFT;
        c->shift = k < GR_SHIFTS ? k + 1 : -(k - GR_SHIFTS + 1);
    } else if (have_const && c->constant != 0) c->pattern = GR_PAT_CONSTANT;
    else if (c->poison) c->pattern = GR_PAT_POISON;
    else c->pattern = GR_PAT_SCATTERED;
}
