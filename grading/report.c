/* report.c — see report.h. */
#define _GNU_SOURCE 1
#include "report.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include "check.h"
#include "html.h"

json_t *gr_jstr(const char *s)
{
    char *c = gr_utf8_clean(s ? s : "");
    json_t *j = json_string(c);
    free(c);
    return j;
}

int gr_report_dir_ready(const char *dir, char *why, size_t len)
{
    char probe[PATH_MAX];
    /* a name no report uses, unique to this process: two graders probing one folder do not collide */
    snprintf(probe, sizeof probe, "%s/.grade-probe-%ld", dir, (long)getpid());
    int fd = gr_mkdirs(dir, 0755) ? -1 : open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(why, len, "%s: %s", dir, strerror(errno));
        return -1;
    }
    close(fd);
    if (!unlink(probe)) return 0;
    snprintf(why, len, "%s: cannot remove %s: %s", dir, probe, strerror(errno));
    return -1;
}

/* ---------------------------------------------------------------- the sentences of correctness */
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
    if (!f->wrote_input) snprintf(out, len, "%s", was);
    else
        snprintf(out, len, "writes its input: %s changed at element %lld (inputs are read-only), seed %llu, "
                           "size %s%s%s",
                 f->input_name[0] ? f->input_name : "an input", f->input_at, f->input_seed, f->input_size,
                 was[0] ? "\n" : "", was);
}

void gr_var_detail(const gr_var_result *r, char *out, size_t len)
{
    const gr_var_facts *f = &r->seen;
    out[0] = 0;
    if (r->verdict == GR_V_NOT_RUN || r->verdict == GR_V_PASS || r->verdict == GR_V_SELF_PASS) return;
    if (r->verdict == GR_V_UNAVAILABLE)
        snprintf(out, len, "not available on this GPU (%s): not graded; its points are left out of the maximum.",
                 f->unavailable);
    else if (f->avail == GR_AVAIL_DODGED)
        snprintf(out, len, "your program said it is not available on this GPU (%s), but the reference runs it on this "
                           "GPU: only the reference's run decides that, so the variant failed.\nWrong at %d of %d runs "
                           "(sizes: %s).", f->unavailable, f->runs_bad, f->runs_total, f->sizes_bad);
    else if (f->self) {
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

static void gr_seeds_str(const gr_sub_result *s, char *buf, size_t len)
{
    int at = 0;
    buf[0] = 0;
    for (int i = 0; i < s->n_seeds && at >= 0 && (size_t)at < len; i++)
        at += snprintf(buf + at, len - (size_t)at, "%s%llu", i ? "," : "", s->seeds[i]);
}

void gr_print_table(FILE *f, const gr_sub_result *s)
{
    char seeds[200];
    gr_seeds_str(s, seeds, sizeof seeds);
    fprintf(f, "%s: %s (seeds %s; isolation: %s)\n", gr_mode_name(s->mode), s->student, seeds, s->isolation);
    char why[sizeof s->error + 700];
    int graded = gr_sub_judge(s, why, sizeof why) == GR_SUB_GRADED;
    if (!graded) fprintf(f, "  NOT GRADED: %s\n", why);
    fprintf(f, "  %-3s %-18s %-10s %-9s %-11s %-12s %s\n", "ch", "variant", "result", "correct", "sanitizer",
            "time/ref", "points");
    for (int c = 0; c < s->n_ch; c++) {
        const gr_ch_result *ch = &s->ch[c];
        if (ch->status != GR_CH_GRADED) {
            fprintf(f, "  %-3d %-18s %-10s %s\n", ch->number, "(all)", gr_ch_status_name(ch->status), ch->reason);
            for (int v = 0; v < ch->n_v; v++)
                fprintf(f, "  %-3d %-18s %-10s %-9s %-11s %-12s %s/%.1f\n", ch->number, ch->v[v].name, "-", "-", "-",
                        "-", gr_ch_not_graded(ch->status) ? "-" : "0.0", gr_var_max(&ch->v[v]));
            continue;
        }
        for (int v = 0; v < ch->n_v; v++) {
            const gr_var_result *r = &ch->v[v];
            if (!gr_var_graded(r)) {
                fprintf(f, "  %-3d %-18s %-10s not available on this GPU (%s): not graded\n", ch->number, r->name,
                        "N/A", r->seen.unavailable);
                continue;
            }
            char corr[24], san[24] = "-", perf[24] = "-";
            snprintf(corr, sizeof corr, "%.1f/%.1f", r->correct_pts, r->rub.correct);
            const char *sw = gr_sanv_found(r->san_state) ? "FOUND" : r->san_state == GR_SANV_UNFINISHED ? "n/a" : "ok";
            if (gr_sanv_ran(r->san_state)) snprintf(san, sizeof san, "%s %.1f/%.1f", sw, r->san_pts, r->rub.sanitizer);
            if (gr_var_ratio(r) > 0) snprintf(perf, sizeof perf, "%.2fx", r->ratio);
            fprintf(f, "  %-3d %-18s %-10s %-9s %-11s %-12s %.1f/%.1f\n", ch->number, r->name, gr_verdict_name(r->verdict), corr, san,
                    perf, gr_var_score(r), gr_var_max(r));
            if (r->caught) fprintf(f, "      CAUGHT %s: %s\n", r->name, r->caught_note);
        }
        if (ch->outside[0]) fprintf(f, "      note: %s\n", ch->outside);
        if (ch->perf_note[0]) fprintf(f, "      note: %s\n", ch->perf_note);
    }
    if (graded) fprintf(f, "  total %.1f / %.1f   (%.1f s, %.1f s holding the GPU)\n", s->score, s->max, s->wall_s, s->budget_s);
    else fprintf(f, "  total -  / %.1f   not graded (%.1f s)\n", s->max, s->wall_s);
}

/* ---------------------------------------------------------------- feedback.md */
/* text fenced, after head and before tail: a fence longer than any run of backticks inside, so student text
 * cannot end the block */
static void gr_md_block(FILE *f, const char *head, const char *text, const char *tail)
{
    int longest = 0, run = 0;
    for (const char *p = text; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        if (run > longest) longest = run;
    }
    gr_str fence = {0};
    for (int i = 0; i < (longest < 3 ? 3 : longest + 1); i++) gr_str_add(&fence, "`");
    const char *nl = *text && text[strlen(text) - 1] != '\n' ? "\n" : "";
    fprintf(f, "%s%stext\n%s%s%s\n%s", head, fence.s, text, nl, fence.s, tail);
    gr_str_free(&fence);
}

/* "Likely bug" only where a rule named one; where the evidence was weak, what was seen. */
static void gr_write_diagnosis(FILE *f, const gr_diag *d)
{
    gr_diag_claim claim = gr_diag_claim_of(d->bug);
    if (claim == GR_DIAG_SEEN) fprintf(f, "Seen: %s.\n\n", d->evidence);
    else if (claim != GR_DIAG_SAYS_NOTHING)
        fprintf(f, "%s: %s — %s. Hint: %s\n\n", claim == GR_DIAG_MEASURED ? "Why it is slow (measured)" : "Likely bug",
                gr_bug_name(d->bug), d->evidence, gr_bug_hint(d->bug));
}

/* A graded chapter's table: a row per variant. */
static void gr_md_table(FILE *f, const gr_ch_result *ch)
{
    fprintf(f, "| variant | result | correctness | sanitizer | time vs reference | points |\n");
    fprintf(f, "|---|---|---|---|---|---|\n");
    for (int v = 0; v < ch->n_v; v++) {
        const gr_var_result *r = &ch->v[v];
        char perf[64] = "-";
        if (gr_var_ratio(r) > 0) snprintf(perf, sizeof perf, "%.2fx (%.4f ms vs %.4f ms)", r->ratio, r->stu_ms, r->ref_ms);
        else if (r->perf_ran && r->stu_ms > 0) snprintf(perf, sizeof perf, "%.4f ms", r->stu_ms);
        static const char *const san[] = {"-", "clean", "not checked", "finding", "-"}; /* by gr_san_verdict */
        if (!gr_var_graded(r)) {
            fprintf(f, "| %s | N/A: not available on this GPU | - | - | - | not graded |\n", r->name);
            continue;
        }
        fprintf(f, "| %s | %s%s | %.1f / %.1f | %s | %s | %.1f / %.1f |\n", r->name, gr_verdict_name(r->verdict),
                r->caught ? " (caught)" : "", r->correct_pts, r->rub.correct, san[r->san_state], perf, gr_var_score(r),
                gr_var_max(r));
    }
    fputc('\n', f);
}

/* What there is to tell of a variant beyond its row, under its name. */
static void gr_md_variant(FILE *f, const gr_var_result *r)
{
    char detail[GR_DETAIL_MAX];
    gr_var_detail(r, detail, sizeof detail);
    if (!gr_var_has_notes(r, detail)) return;
    fprintf(f, "### %s\n\n", r->name);
    if (detail[0]) gr_md_block(f, "", detail, "");
    gr_write_diagnosis(f, &r->diag);
    if (gr_sanv_found(r->san_state)) gr_md_block(f, "compute-sanitizer:\n\n", r->san, "");
    if (r->perf_note[0]) fprintf(f, "\n%s\n", r->perf_note);
    if (r->caught) fprintf(f, "\nCaught: %s\n", r->caught_note);
    fputc('\n', f);
}

void gr_write_feedback(FILE *f, const gr_sub_result *s, const char *sub, int only_ch)
{
    char seeds[200], replay[PATH_MAX + 300];
    gr_seeds_str(s, seeds, sizeof seeds);
    if (s->mode == GR_MODE_CHECK)
        snprintf(replay, sizeof replay, "make check SEEDS=%s%s", seeds, only_ch ? " CH=…" : "");
    else snprintf(replay, sizeof replay, "make grade SUB=%s SEEDS=%s", sub, seeds);
    fprintf(f, "# Feedback: %s\n\n", s->student);
    if (s->mode == GR_MODE_CHECK)
        fprintf(f, "_This is `make check`, a practice run. Where no reference solution is available, correctness "
                   "comes from **your program's own CPU check** (marked \"self-check\"); grading compares your "
                   "raw results with the reference instead._\n\n");
    char why[sizeof s->error + 700];
    if (gr_sub_judge(s, why, sizeof why) != GR_SUB_GRADED) { /* no score that was not earned, here either */
        fprintf(f, "**Not graded:** %s\n\n**Score: none** (out of %.1f): this run is not a grade; it is graded again.\n\n", why, s->max);
        if (gr_check_no_gpu(gr_check_outcome_of(s, s->mode))) { /* the lines make check printed, as printed */
            fprintf(f, "```text\n");
            gr_check_print_static(f, s, why);
            fprintf(f, "```\n\n");
        }
    } else fprintf(f, "**Score: %.1f / %.1f**\n\n", s->score, s->max);
    fprintf(f, "Random seeds of this run: `%s` (replay: `%s`).\n\n", seeds, replay);
    for (int c = 0; c < s->n_ch; c++) {
        const gr_ch_result *ch = &s->ch[c];
        if (gr_ch_not_graded(ch->status)) fprintf(f, "## Chapter %d (%s): not graded (out of %.1f)\n\n", ch->number, ch->dir, ch->max);
        else fprintf(f, "## Chapter %d (%s): %.1f / %.1f\n\n", ch->number, ch->dir, ch->score, ch->max);
        if (ch->outside[0]) fprintf(f, "> Note: %s\n\n", ch->outside);
        if (ch->status != GR_CH_GRADED) {
            fprintf(f, "**%s**: %s\n\n", gr_ch_status_name(ch->status), ch->reason);
            for (int v = 0; v < ch->n_v; v++)
                if (ch->v[v].caught) fprintf(f, "Caught (%s): %s\n\n", ch->v[v].name, ch->v[v].caught_note);
            if (ch->compile_log && *ch->compile_log)
                gr_md_block(f, "Compiler output (start and end):\n\n", ch->compile_log, "\n");
            continue;
        }
        if (ch->self_check) fprintf(f, "> Correctness here is your program's own check (no reference available).\n\n");
        gr_md_table(f, ch);
        if (ch->perf_note[0]) fprintf(f, "Performance: %s\n\n", ch->perf_note);
        int unfinished = gr_ch_san_unfinished(ch); /* costs its points: say why, once */
        if (unfinished >= 0)
            gr_md_block(f, "Sanitizer: not checked, so no sanitizer points (what was not checked is not awarded):\n\n",
                        ch->v[unfinished].san, "\n");
        for (int v = 0; v < ch->n_v; v++) gr_md_variant(f, &ch->v[v]);
    }
}

/* ---------------------------------------------------------------- results.json (Gradescope) */
/* One Gradescope test. Not graded: no score anywhere, which the autograder spec allows (a top-level "score" is
 * optional where each test has one, a test's where the top level has one; a test without one is informational:
 * gradescope-autograders.readthedocs.io/en/latest/specs/). What was measured stays in "output" and "extra_data". */
static json_t *gr_gs_test(const char *name, double score, double max, const char *output, int scored)
{
    json_t *unscored = scored ? NULL : json_pack("{s:f, s:f}", "points", score, "max_points", max);
    return json_pack("{s:s, s:o*, s:o*, s:s, s:o, s:s, s:o*}", "name", name, "score", scored ? json_real(score) : NULL,
                     "max_score", scored ? json_real(max) : NULL, "status", score >= max ? "passed" : "failed",
                     "output", gr_jstr(output), "visibility", "visible", "extra_data", unscored);
}

/* Not graded: the top-level "output" and a first informational test say why, "extra_data" the status. */
static void gr_gs_unscored(json_t *root, json_t *tests, gr_sub_status st, const char *why)
{
    char text[700];
    snprintf(text, sizeof text, "Not graded (%s): %s. No score is recorded for this run; it is graded again.",
             gr_sub_status_name(st), why);
    json_array_insert_new(tests, 0, json_pack("{s:s, s:s, s:o, s:s}", "name", "Not graded", "status", "failed",
                                              "output", gr_jstr(text), "visibility", "visible"));
    json_object_set_new(root, "extra_data", json_pack("{s:s, s:o}", "status", gr_sub_status_name(st), "error", gr_jstr(why)));
}

/* j into path, indented as every report, then freed: 0, or -1. */
static int gr_json_save(json_t *j, const char *path)
{
    int rc = json_dump_file(j, path, JSON_INDENT(2));
    json_decref(j);
    return rc;
}

int gr_write_results_json(const char *path, const gr_sub_result *s, const char *md)
{
    char why[sizeof s->error + 700];
    gr_sub_status st = gr_sub_judge(s, why, sizeof why);
    int scored = st == GR_SUB_GRADED;
    char seeds[200], out[sizeof why + 400];
    gr_seeds_str(s, seeds, sizeof seeds);
    snprintf(out, sizeof out, "%s%s%sSeeds: %s. Isolation: %s.", scored ? "" : "Not graded: ", scored ? "" : why,
             scored ? "" : " ", seeds, s->isolation);
    json_t *root = json_pack("{s:o*, s:f, s:o}", "score", scored ? json_real(s->score) : NULL, "execution_time",
                             s->wall_s, "output", gr_jstr(out));
    json_t *tests = json_array();
    for (int c = 0; c < s->n_ch; c++) {
        const gr_ch_result *ch = &s->ch[c];
        char name[200];
        if (ch->status != GR_CH_GRADED) {
            gr_str o = {0};
            gr_str_addf(&o, "%s: %s", gr_ch_status_name(ch->status), ch->reason);
            if (ch->compile_log && *ch->compile_log) gr_str_addf(&o, "\n\n%s", ch->compile_log);
            for (int v = 0; v < ch->n_v; v++) {
                snprintf(name, sizeof name, "Chapter %d / %s", ch->number, ch->v[v].name);
                json_array_append_new(tests, gr_gs_test(name, 0, gr_var_max(&ch->v[v]), gr_str_c(&o), scored));
            }
            gr_str_free(&o);
            continue;
        }
        for (int v = 0; v < ch->n_v; v++) {
            const gr_var_result *r = &ch->v[v];
            char detail[GR_DETAIL_MAX];
            gr_var_detail(r, detail, sizeof detail);
            if (!gr_var_graded(r)) { /* one informational test: no score, none lost */
                snprintf(name, sizeof name, "Chapter %d / %s", ch->number, r->name);
                json_array_append_new(tests, gr_gs_test(name, 0, 0, detail, 0));
                continue;
            }
            static const char *const what[3] = {"correctness", "sanitizer", "performance"};
            const double got[3] = {r->correct_pts, r->san_pts, r->perf_pts};
            const double max[3] = {r->rub.correct, r->rub.sanitizer, r->rub.perf};
            for (int k = GR_PART_CORRECT; k <= GR_PART_PERF; k++) {
                if (max[k] <= 0) continue;
                snprintf(name, sizeof name, "Chapter %d / %s / %s", ch->number, r->name, what[k]);
                gr_str o = {0};
                if (k == GR_PART_CORRECT && ch->outside[0]) gr_str_addf(&o, "Note: %s\n", ch->outside);
                gr_str_add(&o, gr_var_part_why(r, (gr_part)k, detail));
                json_array_append_new(tests, gr_gs_test(name, got[k], max[k], gr_str_c(&o), scored));
                gr_str_free(&o);
            }
        }
    }
    if (!scored) gr_gs_unscored(root, tests, st, why);
    json_object_set_new(root, "tests", tests);
    if (md) { /* the whole feedback as Gradescope's output, in its Markdown format; an ungraded run's why first */
        gr_str o = {0};
        if (!scored) gr_str_addf(&o, "%s\n\n", json_string_value(json_object_get(root, "output")));
        gr_str_add(&o, md);
        json_object_set_new(root, "output", gr_jstr(gr_str_c(&o)));
        gr_str_free(&o);
        json_object_set_new(root, "output_format", json_string("md"));
    }
    return gr_json_save(root, path);
}

/* grading.json's data. */
static json_t *gr_grading_json(const gr_sub_result *s)
{
    char why[sizeof s->error + 700];
    gr_sub_status st = gr_sub_judge(s, why, sizeof why);
    /* "score": none not earned; "status": gr_grading_not_run reads it */
    json_t *root = json_pack("{s:o, s:s, s:o, s:f, s:f, s:f, s:f, s:o, s:s, s:o}", "student", gr_jstr(s->student),
                             "mode", gr_mode_name(s->mode), "score", st == GR_SUB_GRADED ? json_real(s->score)
                                                                                         : json_null(),
                             "max_score", s->max, "gpu_seconds", s->budget_s, "execution_time", s->wall_s,
                             "prepare_seconds", s->prepare_s, "isolation", gr_jstr(s->isolation), "status",
                             gr_sub_status_name(st), "error", gr_jstr(why));
    json_t *chs = json_array(), *seeds = json_array();
    for (int i = 0; i < s->n_seeds; i++) json_array_append_new(seeds, json_integer((json_int_t)s->seeds[i]));
    json_object_set_new(root, "seeds", seeds);
    for (int c = 0; c < s->n_ch; c++) {
        const gr_ch_result *ch = &s->ch[c];
        json_t *o = json_pack("{s:i, s:s, s:f, s:f, s:f}", "number", ch->number, "status",
                              gr_ch_status_name(ch->status), "score", ch->score, "max_score", ch->max, "seconds",
                              ch->wall_s);
        json_t *vs = json_array(), *steps = json_object();
        for (int k = 0; k < ch->n_step; k++) json_object_set_new(steps, ch->step[k].name, json_real(ch->step[k].s));
        json_object_set_new(o, "steps", steps);
        for (int v = 0; v < ch->n_v; v++) {
            const gr_var_result *r = &ch->v[v];
            double sol = gr_var_sol_pct(r);
            /* % of the speed of light, the reference's and the student's (same work: its times' ratio) */
            json_t *x = json_pack(
                "{s:s, s:s, s:f, s:f, s:f, s:f, s:f, s:f, s:b, s:o, s:o, s:o, s:o}", "variant", r->name, "verdict",
                gr_verdict_name(r->verdict), "score", gr_var_score(r), "max_score", gr_var_max(r), "correct_points",
                r->correct_pts, "perf_points", r->perf_pts, "perf_max_points", r->rub.perf, "sanitizer_points",
                r->san_pts, "sanitizer_finding", gr_sanv_found(r->san_state), "sanitizer", gr_jstr(r->san),
                "time_ratio", gr_var_ratio(r) > 0 ? json_real(r->ratio) : json_null(), "ref_sol_pct",
                r->ref_sol_pct > 0 ? json_real(r->ref_sol_pct) : json_null(), "sol_pct",
                sol > 0 ? json_real(sol) : json_null());
            json_t *dg = NULL;
            if (r->diag.bug != GR_BUG_NONE)
                dg = json_pack("{s:s, s:o}", "class", gr_bug_name(r->diag.bug), "evidence", gr_jstr(r->diag.evidence));
            if (dg && r->ev.ctr != GR_CTR_NOT_TRIED) /* what a slow variant's cause was drawn from */
                json_object_set_new(dg, "counters", r->ev.ctr == GR_CTR_OK
                                    ? json_pack("{s:s, s:o, s:o}", "status", gr_ctr_status_name(r->ev.ctr), "student",
                                                gr_ctr_json(&r->ev.stu_ctr), "reference", gr_ctr_json(&r->ev.ref_ctr))
                                    : json_pack("{s:s}", "status", gr_ctr_status_name(r->ev.ctr)));
            json_object_set_new(x, "diagnosis", dg ? dg : json_null());
            json_t *caught = json_array(); /* names of results.h's gr_caught: tests and tools read them */
            for (int k = 0; k < GR_CAUGHT_N; k++)
                if (r->caught & 1u << k) json_array_append_new(caught, json_string(gr_caught_name((gr_caught)k)));
            json_object_set_new(x, "caught", caught);
            if (r->seen.avail != GR_AVAIL_RUNS) /* not graded here, or the student's program said so: why */
                json_object_set_new(x, WB_JSON_UNAVAILABLE_REASON, gr_jstr(r->seen.unavailable));
            json_array_append_new(vs, x);
        }
        json_object_set_new(o, "variants", vs);
        json_array_append_new(chs, o);
    }
    json_object_set_new(root, "chapters", chs);
    return root;
}

int gr_write_grading_json(const char *path, const gr_sub_result *s) { return gr_json_save(gr_grading_json(s), path); }

int gr_grading_not_run(const json_t *g)
{
    /* the grader's own word (grading.json "status"); the rules below for files written before it had one */
    int st = gr_sub_status_parse(json_string_value(json_object_get(g, "status")));
    if (st >= 0) return st != GR_SUB_GRADED;
    const char *err = json_string_value(json_object_get(g, "error"));
    json_t *chs = json_object_get(g, "chapters");
    int not_run = err && *err && json_array_size(chs) == 0;
    size_t i;
    json_t *c;
    json_array_foreach(chs, i, c)
        not_run |= gr_ch_not_graded(gr_ch_status_parse(json_string_value(json_object_get(c, "status"))));
    return not_run;
}

/* ---------------------------------------------------------------- feedback.html */
char *gr_md_to_html(const char *md, size_t len)
{
    cmark_gfm_core_extensions_ensure_registered();
    cmark_parser *p = cmark_parser_new(CMARK_OPT_DEFAULT);
    cmark_syntax_extension *table = cmark_find_syntax_extension("table");
    if (!p || !table) return NULL;
    cmark_parser_attach_syntax_extension(p, table);
    cmark_parser_feed(p, md, len);
    cmark_node *doc = cmark_parser_finish(p);
    char *html = doc ? cmark_render_html(doc, CMARK_OPT_DEFAULT, cmark_parser_get_syntax_extensions(p)) : NULL;
    if (doc) cmark_node_free(doc);
    cmark_parser_free(p);
    return html;
}

char *gr_sol_plot_data(const json_t *chapter, int *cols)
{
    gr_str d = {0};
    gr_str_add(&d, "");
    int any = 0;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(chapter, "variants"), i, v)
    {
        json_t *s = json_object_get(v, "sol_pct"), *r = json_object_get(v, "ref_sol_pct");
        any |= json_is_number(s) | json_is_number(r) << 1;
        gr_str_addf(&d, "\"%s\" ", json_string_value(json_object_get(v, "variant")) ?: "?");
        gr_str_addf(&d, json_is_number(s) ? "%.3f " : "NaN ", json_number_value(s));
        gr_str_addf(&d, json_is_number(r) ? "%.3f\n" : "NaN\n", json_number_value(r));
    }
    if (!any) d.s[0] = 0; /* d goes: its length no longer matters */
    if (cols) *cols = any;
    return d.s;
}

/* The % of the speed of light plot of every chapter that measured one; a column with no number at all is left out
 * (gnuplot refuses an empty histogram column). */
static void sol_plots(gr_str *b, const json_t *g)
{
    size_t i;
    json_t *c;
    int shown = 0;
    json_array_foreach(json_object_get(g, "chapters"), i, c)
    {
        int cols;
        char *data = gr_sol_plot_data(c, &cols), cap[200];
        int mine = cols & 1, ref = cols & 2;
        if (data && *data) {
            int n = (int)json_integer_value(json_object_get(c, "number"));
            snprintf(cap, sizeof cap, "Chapter %d: each variant's throughput as %% of this GPU's speed of light, "
                                      "yours beside the reference's (same GPU, same run).", n);
            gr_str sc = {0};
            gr_str_add(&sc, "set style data histogram\nset style histogram clustered gap 1\n"
                            "set style fill solid 0.85 border -1\nset ylabel '% of the speed of light'\n"
                            "set yrange [0:*]\nset grid ytics\nset key top left\nplot ");
            if (mine) gr_str_add(&sc, "$D using 2:xtic(1) title 'yours' lc rgb '#4a7ebb'");
            if (ref)
                gr_str_addf(&sc, "%s$D using 3%s title 'reference' lc rgb '#bbbbbb'", mine ? ", " : "",
                            mine ? "" : ":xtic(1)");
            gr_str_add(&sc, mine ? "\n" : "\n# none of your variants was timed: the reference's alone\n");
            gr_html_plot(b, sc.s, data, 760, 320, cap);
            gr_str_free(&sc);
            shown++;
        }
        free(data);
    }
    if (!shown)
        gr_str_add(b, "<p class=\"note\">No variant's speed was measured (nothing correct to time, or the run did "
                      "not time it).</p>\n");
}

/* feedback.html: the feedback's Markdown as HTML, then the speed of light plots of grading.json's data g. */
static void gr_student_page(const char *dir, const char *md, size_t len, const json_t *g)
{
    char *body = gr_md_to_html(md, len), title[300], p[PATH_MAX];
    const char *who = json_string_value(json_object_get(g, "student"));
    gr_str b = {0};
    snprintf(title, sizeof title, "Feedback: %s", who ? who : "student");
    gr_html_head(&b, title);
    gr_str_add(&b, body ? body : "");
    gr_str_add(&b, "<h2>Speed of light</h2>\n");
    sol_plots(&b, g);
    gr_html_foot(&b);
    snprintf(p, sizeof p, "%s/feedback.html", dir);
    if (!body || gr_write_file(p, b.s, b.len)) fprintf(stderr, "grade: could not write %s\n", p);
    gr_str_free(&b);
    free(body);
}

int gr_write_report_files(const char *dir, const gr_sub_result *s, const char *sub, int only_ch)
{
    char p[PATH_MAX], *md = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&md, &len);
    if (!f) return -1;
    gr_write_feedback(f, s, sub, only_ch);
    int rc = fclose(f);
    snprintf(p, sizeof p, "%s/feedback.md", dir);
    rc |= gr_write_file(p, md, len);
    snprintf(p, sizeof p, "%s/results.json", dir);
    rc |= gr_write_results_json(p, s, md);
    json_t *g = gr_grading_json(s);
    gr_student_page(dir, md, len, g);
    snprintf(p, sizeof p, "%s/grading.json", dir); /* last: a grading stopped before it is graded again */
    rc |= gr_json_save(g, p);
    free(md);
    return rc;
}
