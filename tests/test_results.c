/*
 * test_results.c — the handouts' results tool (tools/results): made-up results through the make rules
 * the handouts use (what comes out must be what went in), bad results files, marker expansion, and
 * the `--claims` block under either heading, on made-up and on the recorded runs.
 */
#include <glob.h>

#include "regions.h" /* wb_read_file */
#include "wbtest.h"
#include "wbresults.h"

static char *read_text(const char *path)
{
    size_t n;
    char *t = wb_read_file(path, &n);
    cr_assert_not_null(t, "cannot read %s (run the tests from the repository root)", path);
    return t;
}

/* Made-up results, with numbers no real run gives, through the make targets the handouts use: what
 * comes out must be what went in. */
static void write_fake_results(const char *dir)
{
    char path[256];
    snprintf(path, sizeof path, "%s/ch1.json", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("{\"chapter\":\"1-fake\",\"variant\":\"copy-of-light\",\"size\":\"1000003\",\"dims\":[1000003],\"seed\":7,"
          "\"reps\":9,\"gpu\":\"Imaginary GPU 9000\",\"median_ms\":0.0123,\"prep_ms\":null,\"throughput\":4321.98,"
          "\"unit\":\"GB/s\",\"sol_pct\":100,\"speedup\":null,\"verdict\":\"REFERENCE\"}\n"
          "{\"chapter\":\"1-fake\",\"variant\":\"alpha\",\"size\":\"1000003\",\"dims\":[1000003],\"seed\":7,"
          "\"reps\":9,\"gpu\":\"Imaginary GPU 9000\",\"median_ms\":0.0765432,\"prep_ms\":null,\"throughput\":1234.5678,"
          "\"unit\":\"GB/s\",\"sol_pct\":28.5648,\"speedup\":1,\"verdict\":\"PASS\"}\n"
          "{\"chapter\":\"1-fake\",\"variant\":\"beta\",\"size\":\"1000003\",\"dims\":[1000003],\"seed\":7,"
          "\"reps\":9,\"gpu\":\"Imaginary GPU 9000\",\"median_ms\":0.0321,\"prep_ms\":null,\"throughput\":3210.77,"
          "\"unit\":\"GB/s\",\"sol_pct\":74.2892,\"speedup\":2.3845,\"verdict\":\"PASS\"}\n",
          f);
    fclose(f);
    snprintf(path, sizeof path, "%s/ch1.meta.json", dir);
    f = fopen(path, "w");
    fputs("{\"date\": \"1999-12-31\", \"command\": \"./fake --json\"}\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/ch1.txt", dir);
    f = fopen(path, "w");
    fputs("table...\n  the seeds' claims beside this GPU (Imaginary GPU 9000), size 1000003:\n"
          "    beta             claimed: 17 times faster\n    beta             measured here: 2.38x the speed of alpha\n"
          "PASS\n",
          f);
    fclose(f);
}

Test(results, make_generates_table_and_plot_from_the_results_file, .timeout = 120)
{
    static char out[WBT_OUT_MAX];
    char dir[64];
    wbt_tmpdir(dir, sizeof dir);
    write_fake_results(dir);
    /* The same rules `make handouts` uses, pointed at the made-up results. */
    int rc = wbt_run(out, "make --no-print-directory -s RESULTS_DIR=%s HANDOUT_GEN=%s/gen %s/gen/ch1-table.md "
                          "%s/gen/ch1-plot.gp %s/gen/ch1-claims.md",
                     dir, dir, dir, dir, dir);
    cr_assert_eq(rc, 0, "make failed (%d):\n%s", rc, out);
    char path[256];
    snprintf(path, sizeof path, "%s/gen/ch1-table.md", dir);
    char *table = read_text(path);
    const char *expect[] = {"Imaginary GPU 9000", "1999-12-31", "`./fake --json`", "copy-of-light", "`alpha`",
                            "`beta`", "4322.0", "1234.6", "3210.8", "0.0765", "28.6 %", "2.38×", "1000003"};
    for (size_t k = 0; k < sizeof expect / sizeof *expect; k++)
        cr_assert_not_null(strstr(table, expect[k]), "the generated table lacks '%s':\n%s", expect[k], table);
    snprintf(path, sizeof path, "%s/gen/ch1-plot.gp", dir);
    char *plot = read_text(path);
    const char *expect_plot[] = {"\"alpha\" 1234.57 28.5648", "\"beta\" 3210.77 74.2892", "4321.98 with lines",
                                 "Imaginary GPU 9000", "GB/s"};
    for (size_t k = 0; k < sizeof expect_plot / sizeof *expect_plot; k++)
        cr_assert_not_null(strstr(plot, expect_plot[k]), "the plot script lacks '%s':\n%s", expect_plot[k], plot);
    /* issue 28 (chapter 4's plot): slanted names, values on two lines in opaque boxes drawn after the
     * speed-of-light line, so that the line never crosses a value and long names do not run together */
    const char *sol_line = strstr(plot, "with lines"), *labels = strstr(plot, "with labels boxed");
    cr_assert(strstr(plot, "set xtics nomirror scale 0 rotate by") && strstr(plot, "set style textbox opaque") &&
                  strstr(plot, "\"%.0f\\n(%.0f%%)\"") && sol_line && labels && sol_line < labels,
              "the plot's labels can collide:\n%s", plot);
    snprintf(path, sizeof path, "%s/gen/ch1-claims.md", dir);
    char *claims = read_text(path);
    cr_assert_not_null(strstr(claims, "claimed: 17 times faster"), "%s", claims);
    cr_assert_null(strstr(claims, "table..."), "only the claims block is quoted:\n%s", claims);
    /* Where gnuplot is installed (make handouts installs it), the plot is drawn too. The probe keeps
     * its own messages ("sh: 1: gnuplot: not found") out of the test log: the braces take the
     * shell's stderr along. */
    if (wbt_run(out, "{ command -v gnuplot && gnuplot -e 'set terminal pngcairo'; } >/dev/null 2>&1") != 0) {
        cr_log_info("gnuplot is not installed here (make handouts installs it): the plot is not drawn");
    } else {
        rc = wbt_run(out, "make --no-print-directory -s RESULTS_DIR=%s HANDOUT_GEN=%s/gen %s/gen/ch1-plot.png", dir,
                     dir, dir);
        cr_assert_eq(rc, 0, "plot failed:\n%s", out);
        snprintf(path, sizeof path, "%s/gen/ch1-plot.png", dir);
        FILE *png = fopen(path, "rb");
        unsigned char sig[8] = {0};
        cr_assert(png && fread(sig, 1, 8, png) == 8 && memcmp(sig, "\x89PNG\r\n\x1a\n", 8) == 0, "%s is not a PNG", path);
        fclose(png);
    }
    free(table);
    free(plot);
    free(claims);
    wbt_run(out, "rm -rf %s", dir);
}

/* ------------------------------------------------------------------ the generator's own edge cases */
Test(results, bad_results_files_are_refused_with_the_reason)
{
    char dir[64], path[128], err[256];
    wbt_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/bad.json", dir);
    const char *cases[][2] = {
        {"not json\n", "line 1: "}, /* common/jsonl.c names the line */
        {"{\"chapter\":\"1-x\",\"variant\":\"a\",\"size\":\"1\",\"gpu\":\"g\",\"unit\":\"GB/s\",\"verdict\":\"PASS\","
         "\"median_ms\":1,\"throughput\":\"fast\",\"sol_pct\":1,\"speedup\":1}\n",
         "\"throughput\""},
        {"{\"chapter\":\"1-x\",\"size\":\"1\",\"gpu\":\"g\",\"unit\":\"GB/s\",\"verdict\":\"PASS\","
         "\"median_ms\":1,\"throughput\":1,\"sol_pct\":1,\"speedup\":1}\n",
         "\"variant\""},
        {"\n\n", "has no results"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        FILE *f = fopen(path, "w");
        fputs(cases[k][0], f);
        fclose(f);
        json_t *rows = wbr_load_lines(path, err, sizeof err);
        cr_assert_null(rows, "case %zu was accepted", k);
        cr_assert_not_null(strstr(err, cases[k][1]), "case %zu: '%s' does not say %s", k, err, cases[k][1]);
    }
    cr_assert_null(wbr_load_lines("/nonexistent/results.json", err, sizeof err));
    remove(path);
    rmdir(dir);
}

Test(results, expand_replaces_markers_and_notes_missing_pieces)
{
    char dir[64], md[128], table[128], outp[128];
    wbt_tmpdir(dir, sizeof dir);
    snprintf(md, sizeof md, "%s/h.md", dir);
    snprintf(table, sizeof table, "%s/t.md", dir);
    snprintf(outp, sizeof outp, "%s/out.md", dir);
    FILE *f = fopen(md, "w");
    fprintf(f, "# H\n%s\nmiddle\n%s\n%s\n  %s\nend\n", WBR_MARK_TABLE, WBR_MARK_PLOT, WBR_MARK_CLAIMS, WBR_MARK_TABLE);
    fclose(f);
    f = fopen(table, "w");
    fputs("| a | b |\n", f);
    fclose(f);
    f = fopen(outp, "w");
    int n = wbr_expand(f, md, table, "-", "alt", "-");
    fclose(f);
    cr_assert_eq(n, 3, "three marker lines (an indented marker is text, not a marker)");
    char *text = read_text(outp);
    cr_assert_not_null(strstr(text, "# H\n| a | b |\nmiddle\n*No plot yet"), "%s", text);
    cr_assert_not_null(strstr(text, "*No `--claims` output recorded yet.*"), "%s", text);
    cr_assert_not_null(strstr(text, "  " WBR_MARK_TABLE "\nend\n"), "%s", text);
    cr_assert_eq(wbr_expand(stdout, "/nonexistent.md", NULL, NULL, NULL, NULL), -1);
    free(text);
    remove(md);
    remove(table);
    remove(outp);
    rmdir(dir);
}

/* The --claims block under both headings (the programs print "sources'"; runs recorded before the
 * rename say "seeds'"), a run with no claims and a chapter with no recording. */
Test(results, claims_block_under_either_heading_or_none)
{
    char dir[64], txt[128], outp[128];
    wbt_tmpdir(dir, sizeof dir);
    snprintf(txt, sizeof txt, "%s/ch9.txt", dir);
    snprintf(outp, sizeof outp, "%s/claims.md", dir);
    const char *headings[] = {"  the sources' claims beside this GPU (GPU X), size 1000003:\n",
                              "  the seeds' claims beside this GPU (GPU X), size 1000003:\n"};
    for (size_t k = 0; k < 3; k++) {
        FILE *f = fopen(txt, "w");
        fprintf(f, "table...\n%s    beta             claimed: 17 times faster\nPASS\n", k < 2 ? headings[k] : "");
        fclose(f);
        f = fopen(outp, "w");
        wbr_claims(f, txt);
        fclose(f);
        char *md = read_text(outp);
        cr_assert_null(strstr(md, "\n: "), "no stray ': ' paragraph:\n%s", md);
        cr_assert(strncmp(md, ": ", 2) != 0, "%s", md);
        /* the old heading's word, not any "seed" (the recorded path may hold one) */
        cr_assert_null(strstr(md, "seeds'"), "the course's material is the source:\n%s", md);
        if (k < 2) {
            cr_assert(strstr(md, "```\n") == md && strstr(md, "claimed: 17 times faster"), "%s", md);
            cr_assert_null(strstr(md, "table..."), "%s", md);
        } else {
            cr_assert_not_null(strstr(md, "No variant of this chapter makes a claim"), "%s", md);
            cr_assert_null(strstr(md, "no `--claims` output yet"), "the file is there: %s", md);
        }
        free(md);
    }
    remove(txt);
    FILE *f = fopen(outp, "w");
    wbr_claims(f, txt);
    fclose(f);
    char *md = read_text(outp);
    cr_assert_not_null(strstr(md, "no `--claims` output yet"), "%s", md);
    free(md);
    remove(outp);
    rmdir(dir);
}

/* The recorded results as the handouts show them: chapters with claims quote them with no stray
 * caption, a chapter without says so (not that nothing was recorded). */
Test(results, recorded_claims_render_without_stray_paragraphs)
{
    glob_t g;
    if (glob("handouts/results/ch[0-9]*.txt", 0, NULL, &g) != 0) cr_skip_test("no results recorded yet");
    char dir[64], outp[128];
    wbt_tmpdir(dir, sizeof dir);
    snprintf(outp, sizeof outp, "%s/claims.md", dir);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        FILE *f = fopen(outp, "w");
        wbr_claims(f, g.gl_pathv[i]);
        fclose(f);
        char *md = read_text(outp), *txt = read_text(g.gl_pathv[i]);
        cr_assert_null(strstr(md, "\n: "), "%s:\n%s", g.gl_pathv[i], md);
        cr_assert_null(strstr(md, "no `--claims` output yet"), "%s exists: %s", g.gl_pathv[i], md);
        int has = strstr(txt, "claims beside this GPU") != NULL;
        cr_assert_eq(strstr(md, "```\n") == md, has, "%s: %s", g.gl_pathv[i], md);
        if (!has) cr_assert_not_null(strstr(md, "No variant of this chapter makes a claim"), "%s", md);
        free(md);
        free(txt);
    }
    globfree(&g);
    remove(outp);
    rmdir(dir);
}

/* The table and the claims live in the handout's own file between their markers (what a student opens
 * shows them): filling writes each block, replaces a stale one whole, keeps the plot marker; rendering
 * a filled handout replaces the block, never doubling it. */
Test(results, fill_writes_blocks_in_place_and_expand_replaces_them)
{
    char dir[64], md[128], table[128], outp[128], again[128];
    wbt_tmpdir(dir, sizeof dir);
    snprintf(md, sizeof md, "%s/h.md", dir);
    snprintf(table, sizeof table, "%s/t.md", dir);
    snprintf(outp, sizeof outp, "%s/out.md", dir);
    snprintf(again, sizeof again, "%s/again.md", dir);
    FILE *f = fopen(md, "w");
    fprintf(f, "# H\n%s\nstale row\n%s\nmiddle\n%s\n%s\nend\n", WBR_MARK_TABLE, WBR_END_TABLE, WBR_MARK_PLOT,
            WBR_MARK_CLAIMS);
    fclose(f);
    f = fopen(table, "w");
    fputs("| a | b |\n", f);
    fclose(f);
    f = fopen(outp, "w");
    cr_assert_eq(wbr_fill(f, md, table, "-"), 2);
    fclose(f);
    char *text = read_text(outp);
    cr_assert_str_eq(text, "# H\n" WBR_MARK_TABLE "\n| a | b |\n" WBR_END_TABLE "\nmiddle\n" WBR_MARK_PLOT "\n" WBR_MARK_CLAIMS
                           "\n*No `--claims` output recorded yet.*\n" WBR_END_CLAIMS "\nend\n");
    f = fopen(again, "w"); /* filling a filled handout changes nothing */
    wbr_fill(f, outp, table, "-");
    fclose(f);
    char *twice = read_text(again);
    cr_assert_str_eq(twice, text);
    f = fopen(again, "w");
    cr_assert_eq(wbr_expand(f, outp, table, "-", "alt", "-"), 3);
    fclose(f);
    free(twice);
    twice = read_text(again);
    cr_assert_str_eq(twice, "# H\n| a | b |\nmiddle\n*No plot yet: it is drawn from the recorded results.*\n"
                            "*No `--claims` output recorded yet.*\nend\n");
    free(text);
    free(twice);
    remove(md), remove(table), remove(outp), remove(again);
    rmdir(dir);
}

/* The first line where a and b differ, for a message that shows the difference. */
static void first_difference(const char *a, const char *b, char *buf, size_t len)
{
    int line = 1;
    const char *la = a, *lb = b;
    for (; *a && *a == *b; a++, b++)
        if (*a == '\n') line++, la = a + 1, lb = b + 1;
    snprintf(buf, len, "line %d:\n  handout:   %.*s\n  generated: %.*s", line, (int)strcspn(la, "\n"), la,
             (int)strcspn(lb, "\n"), lb);
}

/* Every handout shows the results recorded in handouts/results/ as they are now (make handouts-fill
 * after make results): the blocks in the .md equal what the generator makes of the recorded files. */
Test(results, handouts_hold_the_recorded_results)
{
    char dir[64];
    wbt_tmpdir(dir, sizeof dir);
    glob_t g;
    cr_assert_gt(wbt_glob_chapters("handouts/results", ".json", &g), 0, "no recorded results");
    for (size_t k = 0; k < g.gl_pathc; k++) {
        int n = wbt_chapter_of_path(g.gl_pathv[k]);
        char meta[64], txt[64], md[64], table[128], claims[128], err[256];
        snprintf(meta, sizeof meta, "handouts/results/ch%d.meta.json", n);
        snprintf(txt, sizeof txt, "handouts/results/ch%d.txt", n);
        snprintf(md, sizeof md, "handouts/ch%d.md", n);
        snprintf(table, sizeof table, "%s/t%d.md", dir, n);
        snprintf(claims, sizeof claims, "%s/c%d.md", dir, n);
        json_t *rows = wbr_load_lines(g.gl_pathv[k], err, sizeof err), *m = wbr_load_meta(meta);
        cr_assert_not_null(rows, "%s", err);
        FILE *f = fopen(table, "w");
        wbr_table(f, rows, m, g.gl_pathv[k]);
        fclose(f);
        f = fopen(claims, "w");
        wbr_claims(f, txt);
        fclose(f);
        json_decref(rows);
        json_decref(m);
        char *fresh = NULL;
        size_t len = 0;
        f = open_memstream(&fresh, &len);
        cr_assert_eq(wbr_fill(f, md, table, claims), 2, "%s: a table and a claims marker", md);
        fclose(f);
        char *text = read_text(md), why[1200];
        first_difference(text, fresh, why, sizeof why);
        cr_assert_str_eq(text, fresh, "%s does not show %s as recorded (make handouts-fill), first difference at %s",
                         md, g.gl_pathv[k], why);
        free(text);
        free(fresh);
        remove(table), remove(claims);
    }
    globfree(&g);
    rmdir(dir);
}
