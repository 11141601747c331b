/* diagnose.c — see diagnose.h. */
#include "diagnose.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define GR_BUG_ROW(id, name, hint) {name, hint},
static const struct {
    const char *name, *hint;
} gr_bugs[GR_BUG_COUNT] = {GR_BUGS(GR_BUG_ROW)};
#undef GR_BUG_ROW

const char *gr_bug_name(gr_bug b) { return b >= 0 && b < GR_BUG_COUNT ? gr_bugs[b].name : "?"; }
const char *gr_bug_hint(gr_bug b) { return b >= 0 && b < GR_BUG_COUNT ? gr_bugs[b].hint : ""; }

int gr_bug_is_perf(gr_bug b)
{
    return b == GR_BUG_PADDING || b == GR_BUG_UNCOALESCED || b == GR_BUG_HOST_WORK || (b >= GR_BUG_OCCUPANCY && b <= GR_BUG_SLOW);
}

int gr_bug_parse(const char *name)
{
    for (int b = 0; b < GR_BUG_COUNT; b++)
        if (name && !strcmp(name, gr_bugs[b].name)) return b;
    return -1;
}

void gr_diag_ev_init(gr_diag_ev *e, const gr_chapter_rubric *ch, int v)
{
    memset(e, 0, sizeof *e);
    e->repeats = -1;
    e->cpu_ms = -1; /* e->ctr: 0 is GR_CTR_NOT_TRIED */
    e->tile = ch ? ch->tile : 1;
    e->cols_dim = ch ? ch->cols_dim : -1;
    if (!ch) return;
    e->tiles = v >= 0 && v < ch->n_var ? ch->var[v].tiles : ch->tile > 1;
    e->n_sizes = ch->n_edge;
    for (int s = 0; s < ch->n_edge; s++) {
        snprintf(e->size_name[s], sizeof e->size_name[s], "%s", ch->edge[s].text);
        e->size[s].nd = ch->edge[s].n_dims;
        memcpy(e->size[s].dims, ch->edge[s].d, sizeof ch->edge[s].d);
    }
    e->scalar = ch->elem == GR_I64 && ch->tile == 1; /* the reduction chapter: one number */
}

gr_san_kind gr_san_kind_of(const char *f)
{
    if (!f || !*f) return GR_SAN_NONE;
    if (strstr(f, "Invalid __") || strstr(f, "out of bounds") || strstr(f, "Out-of-range") || strstr(f, "misaligned"))
        return GR_SAN_OOB;
    if (strstr(f, "Race reported") || strstr(f, "hazard")) return GR_SAN_RACE;
    if (strstr(f, "Barrier") || strstr(f, "barrier") || strstr(f, "syncthreads")) return GR_SAN_SYNC;
    return GR_SAN_OTHER;
}

/* ---------------------------------------------------------------- size facts */
/* The block/tile width: the 1-D chapters' BLOCK where the rubric has no tile. */
static int gr_width(const gr_diag_ev *e) { return e->tile > 1 ? e->tile : 256; }
static int gr_failed(const gr_size_ev *s) { return s->out >= GR_SZ_WRONG; }

/* A size against the block/tile width: small when one block/tile covers it. */
typedef struct {
    int multiple, small, square;
    long long volume;
} gr_shape;

static gr_shape gr_shape_of(const gr_size_ev *s, int w)
{
    gr_shape h = {1, 1, 1, 1};
    for (int d = 0; d < s->nd; d++) {
        h.multiple &= s->dims[d] % w == 0;
        h.small &= s->dims[d] <= w;
        h.square &= s->dims[d] == s->dims[0];
        h.volume *= s->dims[d];
    }
    return h;
}

typedef struct {
    const gr_diag_ev *e;
    int run, bad, wrong, ended;                   /* sizes run, failed, wrong (not ended early), ended early */
    int pats[GR_PAT_SCATTERED + 1];               /* failing sizes per pattern */
    int transposed, uniform, repeated, offset;
    int bad_multiple, ok_nonmultiple_big, ok_small, bad_small, ok_big;
    int ok_square_big, bad_rect, rect, ok_multiple;
    int ok_many;                                  /* right at a size of more than one element */
    int above, below;                             /* wrong sizes with every wrong element above / below */
    int one_spot;                                 /* wrong sizes with a single wrong element ... */
    long long spot;                               /* ... all at this index (-1: not one index) */
    long long max_ok, min_bad;                    /* volumes */
    char bad_list[160], ok_list[160];
} gr_facts;

static void gr_add(char *list, size_t len, const char *name)
{
    size_t l = strlen(list);
    if (l < len - 20) snprintf(list + l, len - l, "%s%s", l ? ", " : "", name);
    else if (!strstr(list, "...")) snprintf(list + l, len - l, ", ...");
}

static void gr_facts_of(const gr_diag_ev *e, gr_facts *f)
{
    memset(f, 0, sizeof *f);
    f->e = e;
    f->min_bad = -1;
    f->spot = -2; /* none seen yet */
    for (int i = 0; i < e->n_sizes; i++) {
        const gr_size_ev *s = &e->size[i];
        if (s->out == GR_SZ_NOT_RUN) continue;
        f->run++;
        gr_shape h = gr_shape_of(s, gr_width(e));
        f->rect += !h.square;
        if (gr_failed(s)) {
            f->bad++;
            f->wrong += s->out == GR_SZ_WRONG;
            f->ended += s->out != GR_SZ_WRONG;
            if (s->out == GR_SZ_WRONG) f->pats[s->pat]++;
            f->transposed += s->transposed;
            f->uniform += s->uniform;
            f->offset += s->offset && s->pat != GR_PAT_CONSTANT;
            f->repeated += s->first_tile_repeated;
            f->above += s->out == GR_SZ_WRONG && s->side > 0;
            f->below += s->out == GR_SZ_WRONG && s->side < 0;
            if (s->out == GR_SZ_WRONG && s->n_wrong == 1) {
                f->one_spot++;
                f->spot = f->spot == -2 || f->spot == s->first_wrong ? s->first_wrong : -1;
            }
            f->bad_multiple += h.multiple;
            f->bad_small += h.small;
            f->bad_rect += !h.square;
            if (f->min_bad < 0 || h.volume < f->min_bad) f->min_bad = h.volume;
            gr_add(f->bad_list, sizeof f->bad_list, e->size_name[i]);
        } else {
            f->ok_multiple += h.multiple;
            f->ok_nonmultiple_big += !h.multiple && !h.small;
            f->ok_small += h.small;
            f->ok_big += !h.small;
            f->ok_square_big += h.square && !h.small;
            f->ok_many += h.volume > 1;
            if (h.volume > f->max_ok) f->max_ok = h.volume;
            gr_add(f->ok_list, sizeof f->ok_list, e->size_name[i]);
        }
    }
}

/* Every wrong size lost elements (never written) or only its last tile: the grid does not reach them. */
static int gr_lost(const gr_facts *f)
{
    return f->wrong && f->pats[GR_PAT_TAIL] + f->pats[GR_PAT_POISON] + f->pats[GR_PAT_UNWRITTEN] == f->wrong;
}

/* Wrong only at sizes that are not a multiple of the block/tile, right at one that is. */
static int gr_only_ragged(const gr_facts *f)
{
    return f->bad && !f->bad_multiple && f->ok_multiple;
}

/* A reduction over inputs that are the same prefix at every size: a single block's sum is the sum at
 * n = block for every larger n; blocks that all sum block 0's elements give ceil(n / block) times it.
 * 1: the latter, -1: the former, 0: neither shown. */
static int gr_scalar_blocks(const gr_diag_ev *e)
{
    int b = -1, w = gr_width(e);
    for (int s = 0; s < e->n_sizes; s++)
        if (e->size[s].nd == 1 && e->size[s].dims[0] == w && e->have1[s]) b = s;
    if (!e->scalar || b < 0) return 0;
    int single = 1, repeated = 1, seen = 0;
    for (int s = 0; s < e->n_sizes; s++) {
        long long n = e->size[s].dims[0];
        if (!e->have1[s] || e->size[s].out != GR_SZ_WRONG || n <= w) continue;
        seen++;
        single &= e->got1[s] == e->ref1[b];
        repeated &= e->got1[s] == (n + w - 1) / w * e->ref1[b];
    }
    return !seen ? 0 : repeated && !single ? 1 : single && !repeated ? -1 : 0;
}

/* ---------------------------------------------------------------- the rules */
/* Names the class with its evidence; 1: the rule that calls it fired. */
__attribute__((format(printf, 3, 4))) static int gr_say(gr_diag *d, gr_bug bug, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->evidence, sizeof d->evidence, fmt, ap);
    va_end(ap);
    d->bug = bug;
    return 1;
}

static int r_unwritten(const gr_facts *f, gr_diag *d)
{
    if (!f->run || f->pats[GR_PAT_UNWRITTEN] != f->run) return 0;
    return gr_say(d, GR_BUG_UNWRITTEN, "every element is still the poison 0xA5A5A5A5 at every size");
}

/* A shift names the index; its stray store is a symptom. */
static int r_shift(const gr_facts *f, gr_diag *d)
{
    if (!f->pats[GR_PAT_SHIFT]) return 0;
    return gr_say(d, GR_BUG_OFF_BY_ONE, "the result is shifted by a constant number of places (wrong at sizes %s)",
                  f->bad_list);
}

/* A sanitizer finding, with every size right or not. An unguarded load of a tile that sticks out reads past
 * the data: wrong only there, or, in a tiled 2-D chapter, right everywhere (its values meet only the zero
 * padding or are never used); a stray write is not. */
static int r_sanitizer(const gr_facts *f, gr_diag *d)
{
    const gr_diag_ev *e = f->e;
    const char *right = f->bad ? "" : "right at every size, but ";
    if (e->san == GR_SAN_RACE || e->san == GR_SAN_SYNC)
        return gr_say(d, GR_BUG_RACE, "%scompute-sanitizer: %s", right, e->san_first);
    if (e->san != GR_SAN_OOB) return 0;
    int tile_load = e->tiles && strstr(e->san_first, "read") && (f->bad ? gr_only_ragged(f) : e->cols_dim >= 0);
    return gr_say(d, tile_load ? GR_BUG_TILE_EDGE : GR_BUG_OOB, "%scompute-sanitizer: %s%s%s", right, e->san_first,
                  f->bad ? "; wrong at sizes " : "", f->bad_list);
}

/* Results that differ from run to run: lost updates where one result is what many threads add to. */
static int r_repeats(const gr_facts *f, gr_diag *d)
{
    int scalar = f->e->scalar;
    if (f->e->repeats != 1) return 0;
    return gr_say(d, scalar ? GR_BUG_LOST_UPDATES : GR_BUG_RACE,
                  "three runs of the same input gave different results%s",
                  scalar ? " (one result that many threads add to)" : "");
}

/* The reference transposed, or right only at the square sizes. */
static int r_row_col(const gr_facts *f, gr_diag *d)
{
    if (f->transposed)
        return gr_say(d, GR_BUG_ROW_COL_SWAP,
                      "at a square size the result is the reference transposed; wrong at sizes %s", f->bad_list);
    if (!f->bad || f->bad_rect != f->bad || !f->ok_square_big || f->bad_rect < f->rect) return 0;
    return gr_say(d, GR_BUG_ROW_COL_SWAP, "right at every square size (%s), wrong only at rectangular ones (%s)",
                  f->ok_list, f->bad_list);
}

/* Blocks with x and y swapped compute every tile only while the grid of tiles is square: right exactly at
 * those sizes, for the chapter's tile or a multiple of it (a kernel's block tile may be larger), with a
 * right size of more than one tile to show it. */
static int r_square_grid(const gr_facts *f, gr_diag *d)
{
    const gr_diag_ev *e = f->e;
    if (!f->bad || e->cols_dim < 1 || e->tile < 2) return 0;
    for (long long w = e->tile; w <= 16LL * e->tile; w *= 2) {
        int fits = 1, shown = 0;
        for (int i = 0; i < e->n_sizes && fits; i++) {
            const gr_size_ev *s = &e->size[i];
            if (s->out == GR_SZ_NOT_RUN || s->nd <= e->cols_dim) continue;
            /* dims[0] rows and dims[cols_dim] columns make a square grid of w x w tiles */
            int sq = (s->dims[0] + w - 1) / w == (s->dims[e->cols_dim] + w - 1) / w;
            fits = sq != gr_failed(s);
            shown |= sq && s->dims[0] > w;
        }
        if (fits && shown)
            return gr_say(d, GR_BUG_ROW_COL_SWAP,
                          "right exactly at the sizes whose grid of %lldx%lld tiles is square (%s), wrong at the "
                          "others (%s)",
                          w, w, f->ok_list, f->bad_list);
    }
    return 0;
}

static int r_identity(const gr_facts *f, gr_diag *d)
{
    /* A wrong start shows at every size of more than one element. A one-element result can come out right
     * anyway (min-plus: the diagonal's 0 is below any start the bug puts there). */
    if (!f->wrong || f->ok_many) return 0;
    int constant = f->pats[GR_PAT_CONSTANT] + f->offset == f->wrong, uniform = f->uniform == f->wrong;
    if (!constant && !uniform) return 0;
    return gr_say(d, GR_BUG_IDENTITY, "wrong at every size, %s",
                  constant ? "every wrong value off by about the same constant"
                           : "every wrong element holds one and the same value");
}

/* At every wrong size the one and the same element is wrong, and nothing else: the first or last index
 * of a range included or left out by a test or bound off by one. */
static int r_one_spot(const gr_facts *f, gr_diag *d)
{
    if (f->e->scalar || f->wrong < 2 || f->wrong != f->bad || f->one_spot != f->wrong || f->spot < 0) return 0;
    if (f->spot > 0 && f->spot % gr_width(f->e) == 0) return 0; /* the first element of a block: a tile edge */
    return gr_say(d, GR_BUG_OFF_BY_ONE, "at every wrong size (%s) one element is wrong, always element %lld",
                  f->bad_list, f->spot);
}

/* Wrong at every size, every wrong element on the same side of the reference's, and not one value
 * (the identity's signature): each result misses a term, or has one too many — a loop bound off by one.
 * A min over too few terms comes out above, a sum of positive terms below. */
static int r_one_sided(const gr_facts *f, gr_diag *d)
{
    /* One wrong value per size everywhere is the identity's; a single wrong element (size 2) is one value too. */
    if (f->e->scalar || f->run < 3 || f->bad != f->run || f->wrong != f->bad || f->uniform == f->wrong) return 0;
    if (f->above != f->wrong && f->below != f->wrong) return 0;
    return gr_say(d, GR_BUG_OFF_BY_ONE,
                  "wrong at every size (%s), every wrong element %s the reference's: each result misses a term "
                  "or takes one too many",
                  f->bad_list, f->above ? "above" : "below");
}

/* Poison or a wrong last tile: the grid; garbage elsewhere: an unguarded tile load. */
static int r_tail(const gr_facts *f, gr_diag *d)
{
    if (!gr_only_ragged(f)) return 0;
    int lost = gr_lost(f);
    return gr_say(d, lost || !f->e->tiles ? GR_BUG_TAIL : GR_BUG_TILE_EDGE,
                  "wrong only at sizes that are not a multiple of %d (%s); right at %s%s", gr_width(f->e), f->bad_list,
                  f->ok_list, lost ? "; the last partial block is missing or wrong" : "");
}

/* Blocks that all do block 0's work: the index; the rest never written: the grid. */
static int r_one_block(const gr_facts *f, gr_diag *d)
{
    const gr_diag_ev *e = f->e;
    if (!f->bad || f->bad_small || !f->ok_small || f->ok_big) return 0;
    /* Wrong only next to tile boundaries: every block did its own work, only its edge is wrong. */
    if (f->wrong && f->pats[GR_PAT_BOUNDARY] == f->wrong) return 0;
    int sum = gr_scalar_blocks(e);
    int index = sum ? sum > 0 : e->scalar || f->repeated || f->pats[GR_PAT_POISON] + f->pats[GR_PAT_TAIL] < f->wrong;
    return gr_say(d, index ? GR_BUG_THREAD_INDEX : GR_BUG_SINGLE_BLOCK,
                  "right while one block of %d covers the input (%s), wrong at every larger size (%s)%s", gr_width(e),
                  f->ok_list, f->bad_list,
                  f->repeated || sum > 0 ? "; beyond the first block the result repeats the first block's"
                  : sum < 0             ? "; at every larger size the result is the first block's alone"
                                        : "");
}

/* Right at the smallest sizes; at every larger one, a multiple of the block too, what is wrong was never
 * written: the grid covers a fixed part of the output (one block), whatever the size. */
static int r_fixed_cover(const gr_facts *f, gr_diag *d)
{
    if (!gr_lost(f) || f->ended || !f->ok_small || !f->bad_multiple || f->max_ok >= f->min_bad) return 0;
    return gr_say(d, GR_BUG_SINGLE_BLOCK,
                  "right at the smallest sizes (%s); at every larger one (%s) the elements beyond a first part "
                  "were never written",
                  f->ok_list, f->bad_list);
}

/* Named when a passing size as large as a failing one would have shown the index bug otherwise. */
static int r_large_only(const gr_facts *f, gr_diag *d)
{
    if (!f->bad || f->ok_nonmultiple_big < 1 || f->min_bad <= f->max_ok || f->min_bad < (1LL << 18)) return 0;
    return gr_say(d, GR_BUG_INDEX_OVERFLOW, "right at every size up to %lld elements, wrong only at the largest (%s)",
                  f->max_ok, f->bad_list);
}

static int r_edge(const gr_facts *f, gr_diag *d)
{
    if (!f->pats[GR_PAT_BOUNDARY] && !f->pats[GR_PAT_NAN]) return 0;
    return gr_say(d, GR_BUG_TILE_EDGE, "%s (wrong at sizes %s)",
                  f->pats[GR_PAT_BOUNDARY] ? "wrong only next to tile boundaries"
                                           : "NaN in the result (unfilled tile?)",
                  f->bad_list);
}

/* Strongest evidence first: a direct observation (poison everywhere, a sanitizer finding, differing
 * repeats) before a contrast of sizes, before a pattern. Each rule names its class (or, where one
 * contrast of sizes fits two, lets the data decide) and says what was seen. */
static int (*const gr_rules[])(const gr_facts *f, gr_diag *d) = {
    r_unwritten, r_shift, r_sanitizer, r_repeats, r_row_col, r_square_grid, r_one_spot, r_identity, r_one_sided,
    r_large_only, r_tail, r_one_block, r_fixed_cover, r_edge,
};

/* A correct, slow variant: the host's CPU time, or a cause only from counters; the time ratio alone names
 * nothing (a 1.3x slowdown has many causes, and a wrong cause teaches the wrong lesson). */
static void gr_diagnose_slow(const gr_diag_ev *e, gr_diag *d)
{
    if (e->cpu_ms >= 0 && e->cpu_ms >= 0.5 * e->stu_ms) {
        gr_say(d, GR_BUG_HOST_WORK, "right, but the launcher's CPU time per repetition is at least half the measured "
                                    "time: the work runs on the host");
        return;
    }
    gr_bug bug = GR_BUG_SLOW;
    char why[340]; /* within the evidence, after the time ratio's ~55 characters */
    if (e->ctr == GR_CTR_OK) bug = gr_perf_cause(&e->stu_ctr, &e->ref_ctr, why, sizeof why);
    else snprintf(why, sizeof why, "%s", gr_ctr_status_line(e->ctr));
    gr_say(d, bug, "right, but %.1fx the reference's time (%.3g ms vs %.3g ms); %s",
           e->ref_ms > 0 ? e->stu_ms / e->ref_ms : 0, e->stu_ms, e->ref_ms, why);
}

void gr_diagnose(const gr_diag_ev *e, gr_diag *d)
{
    memset(d, 0, sizeof *d);
    gr_facts f;
    gr_facts_of(e, &f);
    if (!f.bad) {
        if (!r_sanitizer(&f, d) && e->slow && e->stu_ms > 0) gr_diagnose_slow(e, d);
        return;
    }
    for (size_t i = 0; i < sizeof gr_rules / sizeof gr_rules[0]; i++)
        if (gr_rules[i](&f, d)) return;
    /* No rule: what was seen, no guess. */
    gr_say(d, GR_BUG_UNCLEAR, "%s at sizes %s%s%s", f.ended == f.bad ? "the run failed" : "wrong", f.bad_list,
           f.ok_list[0] ? "; right at " : "", f.ok_list);
}
