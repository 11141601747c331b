/*
 * test_diagnose.c — the rule table of grading/diagnose.c on synthetic evidence: each class from the
 * evidence that should name it, nothing for a passing variant, "unclear" (what was seen, no guess)
 * where no rule fits, and the raw-data scan (transposed, uniform, repeated first block).
 */
#include <math.h>

#include "diagnose.h"
#include "wbtest.h"

static gr_rubric rub;

static const gr_chapter_rubric *chapter(int number)
{
    static int loaded;
    char err[300];
    if (!loaded) cr_assert_eq(gr_rubric_load_at(".", "grading/rubric.json", &rub, err, sizeof err), 0, "%s", err);
    loaded = 1;
    for (int i = 0; i < rub.n_ch; i++)
        if (rub.ch[i].number == number) return &rub.ch[i];
    cr_assert_fail("no chapter %d in grading/rubric.json", number);
    return NULL;
}

/* Evidence of variant `var` of chapter ch (NULL: the chapter's default) where every size passed. */
static void all_pass_of(gr_diag_ev *e, int ch, const char *var)
{
    const gr_chapter_rubric *c = chapter(ch);
    int v = -1;
    for (int i = 0; var && i < c->n_var; i++)
        if (!strcmp(c->var[i].name, var)) v = i;
    if (var) cr_assert_geq(v, 0, "no variant %s in chapter %d", var, ch);
    gr_diag_ev_init(e, c, v);
    for (int s = 0; s < e->n_sizes; s++) e->size[s].out = GR_SZ_PASS;
}

static void all_pass(gr_diag_ev *e, int ch) { all_pass_of(e, ch, NULL); }

static void set(gr_diag_ev *e, const char *size, gr_size_outcome out, gr_pattern pat)
{
    for (int s = 0; s < e->n_sizes; s++)
        if (!strcmp(e->size_name[s], size)) {
            e->size[s].out = out;
            e->size[s].pat = pat;
            return;
        }
    cr_assert_fail("no edge size %s", size);
}

/* set() for each of a NULL-terminated list of sizes. */
static void set_each(gr_diag_ev *e, gr_size_outcome out, gr_pattern pat, const char *const *sizes)
{
    for (; *sizes; sizes++) set(e, *sizes, out, pat);
}

static void expect(const gr_diag_ev *e, gr_bug want)
{
    gr_diag d;
    gr_diagnose(e, &d);
    cr_assert_eq(d.bug, want, "named %s (%s), expected %s", gr_bug_name(d.bug), d.evidence, gr_bug_name(want));
    if (want != GR_BUG_NONE) cr_assert(d.evidence[0], "a diagnosis says what it saw");
}

Test(diagnose, names_round_trip)
{
    for (int b = 0; b < GR_BUG_COUNT; b++) {
        cr_assert_eq(gr_bug_parse(gr_bug_name(b)), b, "%s", gr_bug_name(b));
        if (b != GR_BUG_NONE) cr_assert(gr_bug_hint(b)[0], "%s has a hint", gr_bug_name(b));
    }
    cr_assert_eq(gr_bug_parse("no-such-class"), -1);
}

Test(diagnose, passing_variant_gets_none)
{
    gr_diag_ev e;
    all_pass(&e, 1);
    expect(&e, GR_BUG_NONE);
}

Test(diagnose, unwritten)
{
    gr_diag_ev e;
    all_pass(&e, 1);
    for (int s = 0; s < e.n_sizes; s++) e.size[s].out = GR_SZ_WRONG, e.size[s].pat = GR_PAT_UNWRITTEN;
    expect(&e, GR_BUG_UNWRITTEN);
}

Test(diagnose, tail_only_at_non_multiples_with_poison)
{
    gr_diag_ev e;
    all_pass(&e, 1);
    set_each(&e, GR_SZ_WRONG, GR_PAT_POISON, (const char *[]){"257", "1000003", NULL});
    set_each(&e, GR_SZ_WRONG, GR_PAT_UNWRITTEN, (const char *[]){"31", "255", "1", "2", NULL});
    expect(&e, GR_BUG_TAIL);
}

Test(diagnose, tile_edge_garbage_at_non_multiples)
{
    gr_diag_ev e;
    all_pass(&e, 4);
    set(&e, "17x33x5", GR_SZ_WRONG, GR_PAT_SCATTERED);
    set(&e, "129x130x131", GR_SZ_WRONG, GR_PAT_SCATTERED);
    /* 64x64x64, a multiple of the tile in every extent, passes */
    expect(&e, GR_BUG_TILE_EDGE);
}

Test(diagnose, single_block_rest_never_written)
{
    gr_diag_ev e;
    all_pass(&e, 1);
    set_each(&e, GR_SZ_WRONG, GR_PAT_POISON, (const char *[]){"257", "4096", "1000003", NULL});
    expect(&e, GR_BUG_SINGLE_BLOCK);
}

Test(diagnose, thread_index_in_the_sum_is_not_the_identity)
{
    /* threadIdx.x for the global index in the sum: right while one block covers the input, wrong
     * beyond, and off by a constant there (which once read as "accumulator not at the identity"). */
    gr_diag_ev e;
    all_pass(&e, 3);
    cr_assert(e.scalar);
    set(&e, "257", GR_SZ_WRONG, GR_PAT_CONSTANT);
    set(&e, "4096", GR_SZ_WRONG, GR_PAT_CONSTANT);
    set(&e, "1000003", GR_SZ_WRONG, GR_PAT_CONSTANT);
    expect(&e, GR_BUG_THREAD_INDEX);
}

Test(diagnose, thread_index_by_repeated_first_block)
{
    gr_diag_ev e;
    all_pass(&e, 2);
    set(&e, "257", GR_SZ_WRONG, GR_PAT_SCATTERED);
    set(&e, "4096", GR_SZ_WRONG, GR_PAT_SCATTERED);
    set(&e, "1000003", GR_SZ_WRONG, GR_PAT_SCATTERED);
    e.size[7].first_tile_repeated = 1;
    expect(&e, GR_BUG_THREAD_INDEX);
}

Test(diagnose, row_col_swap_transposed)
{
    gr_diag_ev e;
    all_pass(&e, 5);
    set(&e, "65", GR_SZ_WRONG, GR_PAT_SCATTERED);
    e.size[4].transposed = 1;
    expect(&e, GR_BUG_ROW_COL_SWAP);
}

Test(diagnose, row_col_swap_rectangular_only)
{
    gr_diag_ev e;
    all_pass(&e, 4);
    /* right at 1x1x1 and 64x64x64, wrong at every rectangular shape */
    const char *rect[] = {"17x33x5", "1000x1x1000", "129x130x131", "300x200x257", "1x700x9", "511x257x1000"};
    for (int i = 0; i < 6; i++) set(&e, rect[i], i % 2 ? GR_SZ_CRASH : GR_SZ_WRONG, i % 2 ? GR_PAT_LENGTH : GR_PAT_SCATTERED);
    expect(&e, GR_BUG_ROW_COL_SWAP);
}

Test(diagnose, off_by_one_shift)
{
    gr_diag_ev e;
    all_pass(&e, 1);
    set(&e, "31", GR_SZ_WRONG, GR_PAT_SHIFT);
    set(&e, "1000003", GR_SZ_WRONG, GR_PAT_SHIFT);
    expect(&e, GR_BUG_OFF_BY_ONE);
}

Test(diagnose, race_from_differing_repeats)
{
    gr_diag_ev e;
    all_pass(&e, 2);
    set(&e, "4096", GR_SZ_WRONG, GR_PAT_BOUNDARY);
    e.repeats = 1;
    expect(&e, GR_BUG_RACE);
}

Test(diagnose, race_from_racecheck_on_a_passing_variant)
{
    gr_diag_ev e;
    all_pass(&e, 2);
    e.san = gr_san_kind_of("Error: Race reported between Write access at adjdiff_shared+0x90");
    snprintf(e.san_first, sizeof e.san_first, "Race reported between Write access ...");
    expect(&e, GR_BUG_RACE);
}

Test(diagnose, lost_updates_in_the_sum)
{
    gr_diag_ev e;
    all_pass(&e, 3);
    set(&e, "4096", GR_SZ_WRONG, GR_PAT_SCATTERED);
    set(&e, "1000003", GR_SZ_WRONG, GR_PAT_SCATTERED);
    e.repeats = 1;
    expect(&e, GR_BUG_LOST_UPDATES);
}

Test(diagnose, identity_constant_at_every_size)
{
    gr_diag_ev e;
    all_pass(&e, 3);
    for (int s = 0; s < e.n_sizes; s++) e.size[s].out = GR_SZ_WRONG, e.size[s].pat = GR_PAT_CONSTANT;
    expect(&e, GR_BUG_IDENTITY);
    gr_diag_ev m;
    all_pass(&m, 5); /* min with a 0 start: every wrong element is 0 */
    for (int s = 1; s < m.n_sizes; s++) m.size[s].out = GR_SZ_WRONG, m.size[s].pat = GR_PAT_SCATTERED, m.size[s].uniform = 1;
    m.size[0].out = GR_SZ_WRONG, m.size[0].pat = GR_PAT_CONSTANT, m.size[0].uniform = 1;
    expect(&m, GR_BUG_IDENTITY);
}

Test(diagnose, index_overflow_large_only)
{
    gr_diag_ev e;
    all_pass(&e, 1);
    set(&e, "1000003", GR_SZ_CRASH, GR_PAT_LENGTH);
    expect(&e, GR_BUG_INDEX_OVERFLOW);
}

Test(diagnose, out_of_bounds_from_memcheck)
{
    gr_diag_ev e;
    all_pass(&e, 1);
    set(&e, "257", GR_SZ_CRASH, GR_PAT_LENGTH);
    e.san = gr_san_kind_of("Invalid __global__ write of size 4 bytes");
    cr_assert_eq(e.san, GR_SAN_OOB);
    snprintf(e.san_first, sizeof e.san_first, "Invalid __global__ write of size 4 bytes");
    expect(&e, GR_BUG_OOB);
}

Test(diagnose, tile_edge_from_boundary_pattern)
{
    gr_diag_ev e;
    all_pass(&e, 2);
    set(&e, "256", GR_SZ_WRONG, GR_PAT_BOUNDARY);
    set(&e, "4096", GR_SZ_WRONG, GR_PAT_BOUNDARY);
    expect(&e, GR_BUG_TILE_EDGE);
}

Test(diagnose, slow_variants)
{
    gr_diag_ev e;
    all_pass(&e, 1);
    e.slow = 1, e.stu_ms = 4.0, e.ref_ms = 1.0;
    /* no counters: the time ratio and that counters were not available, no cause named */
    gr_diag d;
    gr_diagnose(&e, &d);
    cr_assert_eq(d.bug, GR_BUG_SLOW, "%s", gr_bug_name(d.bug));
    cr_assert(strstr(d.evidence, "4.0x") && strstr(d.evidence, "counters were not available"), "%s", d.evidence);
    e.cpu_ms = 3.5;
    expect(&e, GR_BUG_HOST_WORK);
}

/* Issue 64: counters measured but no rule of the table fits: the evidence says what was measured, the student's
 * beside the reference's, within the evidence's length, never only "no cause". */
Test(diagnose, a_slowdown_no_rule_names_says_what_it_measured)
{
    gr_diag_ev e;
    all_pass(&e, 1);
    e.slow = 1, e.stu_ms = 1.28, e.ref_ms = 1.0;
    e.ctr = GR_CTR_OK;
    gr_ctr *r = &e.ref_ctr, *s = &e.stu_ctr;
    r->n_kernels = 2, r->time_ns = 1.0e6, r->inst = 3.0e8, r->occupancy = 60, r->ld_sectors = 4e6, r->ld_requests = 1e6;
    r->st_sectors = 1e6, r->st_requests = 2.5e5, r->dram_bytes = 1e8, r->shared_requests = 1e6;
    *s = *r;
    s->time_ns = 1.28e6, s->inst = 3.9e8, s->occupancy = 45; /* 1.3x the instructions, 1.33x less occupancy */
    gr_diag d;
    gr_diagnose(&e, &d);
    cr_assert_eq(d.bug, GR_BUG_SLOW, "%s: %s", gr_bug_name(d.bug), d.evidence);
    cr_assert(strstr(d.evidence, "1.3x the reference's time") && strstr(d.evidence, "measured, yours vs the reference's") &&
              strstr(d.evidence, "occupancy % 45 vs 60") && strstr(d.evidence, "instructions 3.9e+08 vs 3e+08"),
              "%s", d.evidence);
    cr_assert_lt(strlen(d.evidence), sizeof d.evidence - 1, "cut at the evidence's end: %s", d.evidence);
    cr_assert_null(strstr(d.evidence, "no single cause"), "%s", d.evidence);
}

Test(diagnose, weak_evidence_is_unclear_and_says_what_was_seen)
{
    gr_diag_ev e;
    all_pass(&e, 1);
    set(&e, "31", GR_SZ_WRONG, GR_PAT_SCATTERED);
    set(&e, "4096", GR_SZ_WRONG, GR_PAT_SCATTERED);
    gr_diag d;
    gr_diagnose(&e, &d);
    cr_assert_eq(d.bug, GR_BUG_UNCLEAR, "%s", gr_bug_name(d.bug));
    cr_assert(strstr(d.evidence, "31") && strstr(d.evidence, "4096") && strstr(d.evidence, "right at"), "%s", d.evidence);
}

Test(diagnose, scan_raw_results)
{
    int ref[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, tr[9] = {1, 4, 7, 2, 5, 8, 3, 6, 9};
    gr_size_ev s = {0};
    gr_diag_scan(ref, tr, 9, 3, GR_I32, 0, 64, &s);
    cr_assert(s.transposed && !s.first_tile_repeated);
    int zeros[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    gr_diag_scan(ref, zeros, 9, 3, GR_I32, 0, 64, &s);
    cr_assert(s.uniform && !s.transposed);
    gr_diag_scan(ref, ref, 9, 3, GR_I32, 0, 64, &s);
    cr_assert(!s.uniform && !s.transposed, "a correct result shows nothing");
    int big_ref[8], rep[8];
    for (int i = 0; i < 8; i++) big_ref[i] = 10 + i, rep[i] = 10 + i % 4;
    gr_diag_scan(big_ref, rep, 8, 8, GR_I32, 0, 4, &s);
    cr_assert(s.first_tile_repeated);
}

Test(diagnose, unguarded_tile_load_is_a_tile_edge_not_just_out_of_bounds)
{
    gr_diag_ev e;
    all_pass(&e, 4);
    set_each(&e, GR_SZ_WRONG, GR_PAT_SCATTERED,
             (const char *[]){"1x1x1", "17x33x5", "1000x1x1000", "129x130x131", "300x200x257", "1x700x9", "511x257x1000", NULL});
    e.san = GR_SAN_OOB;
    snprintf(e.san_first, sizeof e.san_first, "Invalid __global__ read of size 4 bytes");
    expect(&e, GR_BUG_TILE_EDGE);
    snprintf(e.san_first, sizeof e.san_first, "Invalid __global__ write of size 4 bytes");
    expect(&e, GR_BUG_OOB);
}

Test(diagnose, a_shift_is_named_before_its_stray_store)
{
    gr_diag_ev e;
    all_pass(&e, 1);
    for (int s = 0; s < e.n_sizes; s++) e.size[s].out = GR_SZ_WRONG, e.size[s].pat = GR_PAT_SHIFT;
    e.san = GR_SAN_OOB;
    snprintf(e.san_first, sizeof e.san_first, "Invalid __global__ write of size 4 bytes");
    expect(&e, GR_BUG_OFF_BY_ONE);
}

/* The size of a slowdown names nothing: 1.28x in a tiled chapter was once called bank conflicts (seen on
 * the H100: a 1-D reversal launched with 128-thread blocks, which has none). Each reason the counters
 * could not be read is said in one line. */
Test(diagnose, a_slowdown_without_counters_names_no_cause)
{
    gr_diag_ev e;
    all_pass(&e, 4);
    e.slow = 1, e.stu_ms = 1.28, e.ref_ms = 1.0;
    for (int st = GR_CTR_NOT_TRIED; st < GR_CTR_STATUS_COUNT; st++) {
        if (st == GR_CTR_OK) continue;
        e.ctr = (gr_ctr_status)st;
        gr_diag d;
        gr_diagnose(&e, &d);
        cr_assert_eq(d.bug, GR_BUG_SLOW, "%s: %s", gr_ctr_status_name(e.ctr), gr_bug_name(d.bug));
        cr_assert(strstr(d.evidence, "1.3x") && strstr(d.evidence, "counters") && !strstr(d.evidence, "bank"), "%s",
                  d.evidence);
    }
}

Test(diagnose, float_offset_at_every_size_is_the_identity)
{
    float ref[4] = {1.0f, -2.0f, 3.5f, 0.25f}, got[4] = {2.0f, -1.0000001f, 4.5f, 1.25f};
    gr_size_ev s = {0};
    gr_diag_scan(ref, got, 4, 2, GR_F32, 1, 16, &s);
    cr_assert(s.offset);
    gr_diag_ev e;
    all_pass(&e, 4);
    for (int i = 0; i < e.n_sizes; i++) e.size[i].out = GR_SZ_WRONG, e.size[i].pat = GR_PAT_SCATTERED, e.size[i].offset = 1;
    expect(&e, GR_BUG_IDENTITY);
}

Test(diagnose, the_sum_tells_one_block_from_every_block_doing_block_0s_work)
{
    gr_diag_ev e;
    all_pass(&e, 3);
    const long long at256 = 1000;
    const char *big[] = {"257", "4096", "1000003"};
    const long long n[] = {257, 4096, 1000003};
    for (int s = 0; s < e.n_sizes; s++) e.have1[s] = 1, e.ref1[s] = e.got1[s] = s == 4 ? at256 : 7;
    for (int i = 0; i < 3; i++) {
        set(&e, big[i], GR_SZ_WRONG, GR_PAT_CONSTANT);
        for (int s = 0; s < e.n_sizes; s++)
            if (!strcmp(e.size_name[s], big[i])) e.got1[s] = (n[i] + 255) / 256 * at256, e.ref1[s] = 5;
    }
    expect(&e, GR_BUG_THREAD_INDEX);
    for (int s = 5; s < e.n_sizes; s++) e.got1[s] = at256;
    expect(&e, GR_BUG_SINGLE_BLOCK);
}

/* The evidence of tools/mutate's mutants as graded on the H100 (make diagnose-mutants, 2026-11-23). */
Test(diagnose, min_started_at_zero_is_the_identity_though_one_element_comes_out_right)
{
    gr_diag_ev e;
    all_pass(&e, 5); /* ch5-v2-39a: right at 1 (the diagonal's 0), every other element 0 at every other size */
    for (int s = 1; s < e.n_sizes; s++) e.size[s].out = GR_SZ_WRONG, e.size[s].pat = GR_PAT_SCATTERED, e.size[s].uniform = 1;
    expect(&e, GR_BUG_IDENTITY);
    e.size[3].uniform = 0; /* values that differ are not one start value */
    expect(&e, GR_BUG_UNCLEAR);
}

Test(diagnose, swapped_block_indices_are_right_exactly_where_the_grid_of_tiles_is_square)
{
    gr_diag_ev e;
    all_pass(&e, 4); /* ch4-tiled-32a: 16x16 tiles; 129x130 makes 9x9 of them and comes out right */
    set_each(&e, GR_SZ_WRONG, GR_PAT_POISON, (const char *[]){"17x33x5", "1000x1x1000", "300x200x257", "1x700x9", "511x257x1000", NULL});
    expect(&e, GR_BUG_ROW_COL_SWAP);
    set(&e, "17x33x5", GR_SZ_PASS, GR_PAT_NONE); /* ch4-reg-block-32a: 128x128 block tiles, 17x33 is one */
    expect(&e, GR_BUG_ROW_COL_SWAP);
    /* A grid rounded down: wrong at every size but the multiples of 16, at square grids too: the tail. */
    set(&e, "129x130x131", GR_SZ_WRONG, GR_PAT_TAIL);
    set(&e, "17x33x5", GR_SZ_WRONG, GR_PAT_TAIL);
    set(&e, "1x1x1", GR_SZ_WRONG, GR_PAT_UNWRITTEN);
    expect(&e, GR_BUG_TAIL);
}

Test(diagnose, one_block_covering_less_than_the_tile_is_still_a_single_block)
{
    gr_diag_ev e;
    all_pass(&e, 5); /* ch5-v4-launch-05a: one block of 32 rows; right at 1 and 2, poison beyond row 32 */
    set_each(&e, GR_SZ_WRONG, GR_PAT_POISON, (const char *[]){"63", "64", "65", "128", "129", "1000", NULL});
    expect(&e, GR_BUG_SINGLE_BLOCK);
    set(&e, "128", GR_SZ_WRONG, GR_PAT_SCATTERED); /* garbage, not only unwritten elements: no such claim */
    expect(&e, GR_BUG_UNCLEAR);
}

Test(diagnose, a_read_past_the_data_with_a_right_result_is_a_tile_edge_in_a_tiled_2d_chapter)
{
    gr_diag_ev e;
    all_pass(&e, 4); /* ch4-tiled-27a: the A tile loaded without its bounds check */
    e.san = GR_SAN_OOB;
    snprintf(e.san_first, sizeof e.san_first, "Invalid __global__ read of size 4 bytes");
    expect(&e, GR_BUG_TILE_EDGE);
    snprintf(e.san_first, sizeof e.san_first, "Invalid __global__ write of size 4 bytes");
    expect(&e, GR_BUG_OOB); /* a stray store is out of bounds wherever it lands */
    all_pass(&e, 2); /* a 1-D chapter's read past the end: out of bounds */
    e.san = GR_SAN_OOB;
    snprintf(e.san_first, sizeof e.san_first, "Invalid __global__ read of size 4 bytes");
    expect(&e, GR_BUG_OOB);
}

Test(diagnose, wrong_only_at_tile_boundaries_beyond_one_block_is_a_tile_edge)
{
    gr_diag_ev e;
    all_pass(&e, 2); /* ch2-shared-19a: the neighbour across the tile edge left out */
    set_each(&e, GR_SZ_WRONG, GR_PAT_BOUNDARY, (const char *[]){"257", "4096", "1000003", NULL});
    expect(&e, GR_BUG_TILE_EDGE);
    set(&e, "4096", GR_SZ_WRONG, GR_PAT_POISON); /* not only the edges: the blocks beyond the first */
    expect(&e, GR_BUG_THREAD_INDEX);
}

Test(diagnose, a_stray_read_at_ragged_sizes_is_a_tile_edge_only_where_the_variant_stages_tiles)
{
    /* ch5-v1-40a/41a: v1's bounds check removed; v1 reads A and B straight from global memory */
    static const char *const vars[] = {"v1", "v3"};
    for (int i = 0; i < 2; i++) {
        gr_diag_ev e;
        all_pass_of(&e, 5, vars[i]);
        set_each(&e, GR_SZ_WRONG, GR_PAT_SCATTERED, (const char *[]){"63", "65", "129", "1000", NULL});
        e.san = GR_SAN_OOB;
        snprintf(e.san_first, sizeof e.san_first, "Invalid __global__ read of size 4 bytes");
        expect(&e, i == 0 ? GR_BUG_OOB : GR_BUG_TILE_EDGE);
        e.san = GR_SAN_NONE, e.san_first[0] = 0; /* garbage at ragged sizes, no sanitizer: the grid or a tile */
        expect(&e, i == 0 ? GR_BUG_TAIL : GR_BUG_TILE_EDGE);
    }
}

Test(diagnose, every_size_wrong_on_one_side_is_a_bound_off_by_one)
{
    /* ch5-v1-44a, v2-44a: the last k left out; each min misses a term, so every wrong element is above */
    gr_diag_ev e;
    all_pass_of(&e, 5, "v2");
    for (int s = 0; s < e.n_sizes; s++) e.size[s].out = GR_SZ_WRONG, e.size[s].pat = GR_PAT_SCATTERED, e.size[s].side = 1;
    expect(&e, GR_BUG_OFF_BY_ONE);
    e.size[1].uniform = 1; /* size 2 with one wrong element: one value there, not the identity's everywhere */
    expect(&e, GR_BUG_OFF_BY_ONE);
    e.size[4].side = 0; /* some above, some below: nothing one-sided */
    expect(&e, GR_BUG_UNCLEAR);
    e.size[4].side = 1, e.size[0].out = GR_SZ_PASS; /* right at a size: not at every size */
    expect(&e, GR_BUG_UNCLEAR);
}

Test(diagnose, scan_tells_the_side_of_exact_results)
{
    gr_size_ev s = {0};
    int ref[4] = {1, 2, 3, 4}, up[4] = {1, 5, 3, 9}, mixed[4] = {0, 5, 3, 4};
    gr_diag_scan(ref, up, 4, 4, GR_I32, 0, 64, &s);
    cr_assert_eq(s.side, 1);
    gr_diag_scan(up, ref, 4, 4, GR_I32, 0, 64, &s);
    cr_assert_eq(s.side, -1);
    gr_diag_scan(ref, mixed, 4, 4, GR_I32, 0, 64, &s);
    cr_assert_eq(s.side, 0);
    float fr[3] = {0.5f, INFINITY, 2.0f}, fg[3] = {0.5f, INFINITY, 3.0f}, fn[3] = {0.5f, NAN, 3.0f};
    gr_diag_scan(fr, fg, 3, 3, GR_F32, 0, 64, &s);
    cr_assert_eq(s.side, 1, "a min over too few terms, +inf included");
    gr_diag_scan(fr, fn, 3, 3, GR_F32, 0, 64, &s);
    cr_assert_eq(s.side, 0, "NaN is on no side");
    gr_diag_scan(fr, fg, 3, 3, GR_F32, 1, 64, &s);
    cr_assert_eq(s.side, 0, "within a tolerance the side of a near miss means nothing");
    long long lr[2] = {1LL << 60, 5}, lg[2] = {(1LL << 60) + 1, 5};
    gr_diag_scan(lr, lg, 2, 2, GR_I64, 0, 1, &s);
    cr_assert_eq(s.side, 1, "64-bit values compare exactly");
}

Test(diagnose, the_same_single_element_wrong_at_every_size_is_off_by_one)
{
    /* ch2-naive-17a: i > 1 for i > 0 leaves element 1 without its neighbour, at every size from 2 */
    gr_diag_ev e;
    all_pass_of(&e, 2, "naive");
    for (int s = 0; s < e.n_sizes; s++)
        if (e.size[s].dims[0] > 1)
            e.size[s].out = GR_SZ_WRONG, e.size[s].pat = GR_PAT_SCATTERED, e.size[s].n_wrong = 1, e.size[s].first_wrong = 1;
    expect(&e, GR_BUG_OFF_BY_ONE);
    for (int s = 0; s < e.n_sizes; s++) e.size[s].first_wrong = e.size[s].first_wrong == 1 ? 256 : -1;
    expect(&e, GR_BUG_UNCLEAR); /* the first element of the second block: a tile edge, not this rule */
}

Test(diagnose, one_wrong_element_is_not_one_value_everywhere)
{
    gr_size_ev s = {0};
    int ref[4] = {1, 2, 3, 4}, one[4] = {1, 7, 3, 4}, two[4] = {0, 2, 0, 4};
    gr_diag_scan(ref, one, 4, 4, GR_I32, 0, 64, &s);
    cr_assert(!s.uniform && s.n_wrong == 1 && s.first_wrong == 1);
    gr_diag_scan(ref, two, 4, 4, GR_I32, 0, 64, &s);
    cr_assert(s.uniform && s.n_wrong == 2 && s.first_wrong == 0);
}
