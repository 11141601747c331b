/* prose.c — see prose.h. */
#define _GNU_SOURCE 1
#include "prose.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gr_pattern_text(int tile, const gr_cmp *c, char *pat, size_t plen, char *hint, size_t hlen)
{
    switch (c->pattern) {
    case GR_PAT_NONE:
        snprintf(pat, plen, "correct");
        snprintf(hint, hlen, "-");
        break;
    case GR_PAT_LENGTH:
        if (c->got_bytes < 0) snprintf(pat, plen, "no result file was written");
        else
            snprintf(pat, plen, "the result has %lld bytes, the reference %lld", c->got_bytes, c->exp_bytes);
        snprintf(hint, hlen, "The program did not finish this run: see how it ended (crash, time limit, CUDA error).");
        break;
    case GR_PAT_UNWRITTEN:
        snprintf(pat, plen, "never written: every element still holds the poison 0xA5A5A5A5");
        snprintf(hint, hlen, "Not implemented yet, or the kernel never stores to the output (is it launched?).");
        break;
    case GR_PAT_NAN:
        snprintf(pat, plen, "%llu NaN values where numbers were expected", c->nan);
        snprintf(hint, hlen, "NaN comes from reading memory nobody wrote (a shared tile not filled at the edges?) "
                             "or from inf - inf / 0 * inf.");
        break;
    case GR_PAT_POISON:
        snprintf(pat, plen, "%llu of %llu elements never written (still the poison 0xA5A5A5A5)", c->poison, c->n);
        snprintf(hint, hlen, "The grid does not cover every element: round the number of blocks up "
                             "((n + B - 1) / B) and check the bounds test.");
        break;
    case GR_PAT_TAIL:
        snprintf(pat, plen, "wrong only in the last, partial tile of %d", tile);
        snprintf(hint, hlen, "The last partial block/tile is mishandled: check the bounds test (i < n) and the "
                             "rounding up of the grid; test a size that is not a multiple of the block.");
        break;
    case GR_PAT_BOUNDARY:
        snprintf(pat, plen, "wrong only at tile boundaries (index %% %d is 0 or %d)", tile, tile - 1);
        snprintf(hint, hlen, "Elements at tile edges are wrong: the neighbour across a block boundary, the tile "
                             "index arithmetic, or a missing __syncthreads().");
        break;
    case GR_PAT_SHIFT:
        snprintf(pat, plen, "the result is shifted by %lld place%s (got[i] == expected[i%+lld])%s", c->shift,
                 llabs(c->shift) == 1 ? "" : "s", c->shift, c->poison ? ", and some elements never written" : "");
        snprintf(hint, hlen, "An off-by-one in the index arithmetic (e.g. n - i instead of n - 1 - i).");
        break;
    case GR_PAT_CONSTANT:
        snprintf(pat, plen, "every wrong value is off by the same constant (got - expected = %.9g)", c->constant);
        snprintf(hint, hlen, "A constant error: an extra term, or an accumulator that does not start at the "
                             "identity (0 for +, +infinity for min).");
        break;
    default:
        snprintf(pat, plen, "%llu of %llu elements wrong, no simple pattern", c->wrong, c->n);
        snprintf(hint, hlen, "Try a tiny size by hand (--size 5) and run compute-sanitizer --tool racecheck: "
                             "scattered errors are often a race or a wrong index mapping.");
    }
}

/* "1 ok, 257 wrong, 1000003 crash": each size's own verdict. */
static void gr_by_size(const gr_diag_ev *e, char *out, size_t len)
{
    static const char *word[] = {"not run", "ok", "wrong", "crash", "time limit", "error"};
    out[0] = 0;
    for (int s = 0; s < e->n_sizes; s++) {
        size_t l = strlen(out);
        snprintf(out + l, len - l, "%s%s %s", l ? ", " : "", e->size_name[s], word[e->size[s].out]);
    }
}

/* How the first run that left results missing ended ("" none). */
static void gr_lost_text(const gr_var_facts *f, char *out, size_t len)
{
    if (f->lost == GR_LOST_RAN)
        snprintf(out, len, "the program %s%s%s", f->lost_how, *f->lost_tail ? ":\n" : "", f->lost_tail);
    else if (f->lost == GR_LOST_NO_BUDGET)
        snprintf(out, len, "its run next to the other variants left results missing; the run alone was %s",
                 f->lost_how);
    else out[0] = 0;
}

/* The most telling wrong run, a written input first ("" neither). */
static void gr_first_text(const gr_var_facts *f, int tile, char *out, size_t len)
{
    char pat[300], hint[300], was[1200] = "";
    if (f->mismatch) {
        gr_pattern_text(tile, &f->cmp, pat, sizeof pat, hint, sizeof hint);
        if (f->cmp.pattern == GR_PAT_LENGTH)
            snprintf(was, sizeof was, "seed %llu, size %s: %s\nHint: %s", f->seed, f->size, pat, hint);
        else
            snprintf(was, sizeof was,
                     "seed %llu, size %s: first mismatch at %s: expected %s, got %s; %llu of %llu elements "
                     "wrong\nPattern: %s\nHint: %s",
                     f->seed, f->size, f->cmp.where, f->cmp.expected, f->cmp.got, f->cmp.wrong, f->cmp.n, pat, hint);
    }
    if (!f->wrote_input) {
        snprintf(out, len, "%s", was);
        return;
    }
    char input[300];
    snprintf(input, sizeof input, "writes its input: %s changed at element %lld (inputs are read-only)",
             f->input_name[0] ? f->input_name : "an input", f->input_at);
    snprintf(out, len, "%s, seed %llu, size %s%s%s", input, f->input_seed, f->input_size, was[0] ? "\n" : "", was);
}

void gr_var_detail(const gr_var_result *r, char *out, size_t len)
{
    const gr_var_facts *f = &r->seen;
    out[0] = 0;
    if (r->verdict == GR_V_NOT_RUN || r->verdict == GR_V_PASS || r->verdict == GR_V_SELF_PASS) return;
    if (f->self) {
        char note[600] = "no verdict reported";
        if (f->self_row[0]) snprintf(note, sizeof note, "self-check: %s at size %s, seed %llu", f->self_row, f->size, f->seed);
        else if (f->lost == GR_LOST_RAN) gr_lost_text(f, note, sizeof note);
        snprintf(out, len, "%s", note);
    } else if (r->verdict == GR_V_TODO)
        snprintf(out, len, "not implemented: the output was never written (still the poison 0xA5A5A5A5) at any size.");
    else {
        char ended[300], first[1200], by[400];
        gr_lost_text(f, ended, sizeof ended);
        gr_first_text(f, r->ev.tile, first, sizeof first);
        gr_by_size(&r->ev, by, sizeof by);
        snprintf(out, len, "%s%s%s\nWrong at %d of %d runs (sizes: %s).\nBy size: %s", ended, ended[0] ? "\n" : "",
                 first, f->runs_bad, f->runs_total, f->sizes_bad, by);
    }
}
