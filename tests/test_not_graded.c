/* No grade that was not graded (issue 27). When the grader could not grade (no GPU, the reference
 * failed, the grader crashed on an entry, the output folder cannot be written), it exits non-zero with
 * one line on stderr and writes no score: results.json has none anywhere (Gradescope's way, report.c),
 * grading.json says "status" and why, grades.csv leaves the cell empty with the reason, and the next
 * class run grades that entry again without --force. An unwritable --out is refused before anything is
 * built. On the fake workbook of tests/test_grading_e2e.c; "no GPU" is its reference built with
 * -DFAKE_NO_GPU, which exits 3 as every real program does on a machine without one. Runs anywhere. */
#define _GNU_SOURCE 1
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "wbtest.h"

#include "gr_util.h"
#include "report.h"
#include "roster.h"

static char dir[64];
static char grade[PATH_MAX], course[PATH_MAX]; /* the judge, the class's program */
static void setup(void)
{
    wbt_tmpdir(dir, sizeof dir);
    chmod(dir, 0755); /* the programs run as other users when the tests run as root */
}
static void teardown(void)
{
    char out[256];
    if (dir[0]) wbt_run(out, "chmod -R u+w %s 2>/dev/null; rm -rf %s", dir, dir);
}
TestSuite(not_graded, .init = setup, .fini = teardown);

/* The fake workbook in dir; no_gpu: its reference as a machine without a GPU runs it. */
static void fake_workbook(int no_gpu)
{
    static char out[WBT_OUT_MAX];
    cr_assert_not_null(realpath("build/grade", grade), "build/grade is not built");
    cr_assert_not_null(realpath("build/course", course), "build/course is not built");
    int rc = wbt_run(out, "cp -r tests/grading/fake/. %s/ && cp common/*.h %s/common/ && make -s -C %s build/grading-flags.json && "
                          "make -s -B -C %s build/solution9 %s && mkdir %s/class && chmod -R a+rX %s",
                     dir, dir, dir, dir, no_gpu ? "NVCCFLAGS='-O1 -std=gnu11 -x c -Icommon -DFAKE_NO_GPU'" : "", dir, dir);
    cr_assert_eq(rc, 0, "%s", out);
}

/* Runs the grader in the fake workbook with ARGS (stdout to NAME.log, stderr to NAME.err); its exit code. */
static int run_grade(const char *name, const char *args)
{
    static char out[WBT_OUT_MAX];
    return wbt_run(out, "cd %s && export WB_GRADE_LOCK_DIR=$PWD && PATH=%s/bin:$PATH %s --rubric rubric.json --seeds 5 %s "
                        "> %s/%s.log 2> %s/%s.err",
                   dir, dir, strstr(args, "--class") ? course : grade, args, dir, name, dir, name);
}

static char *file_of(const char *name)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return gr_read_capped(p, 1 << 20, NULL);
}

static json_t *json_of(const char *name)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    json_error_t e;
    json_t *j = json_load_file(p, 0, &e);
    cr_assert_not_null(j, "%s: %s", p, e.text);
    return j;
}

static int lines_in(const char *s)
{
    int n = 0;
    for (; s && *s; s++) n += *s == '\n';
    return n;
}

/* NAME.err holds exactly one line, and it holds want. */
static void assert_one_line(const char *name, const char *want)
{
    char p[128];
    snprintf(p, sizeof p, "%s.err", name);
    char *err = file_of(p);
    cr_assert(err && lines_in(err) == 1 && strstr(err, want), "%s: want one line with \"%s\" on stderr, got:\n%s", name, want,
              err ? err : "(nothing)");
    free(err);
}

/* No score anywhere in a results.json: not at the top, not in a test (Gradescope's spec, report.c). */
static void assert_unscored(const char *path, const char *status)
{
    json_t *r = json_of(path);
    cr_expect_null(json_object_get(r, "score"), "%s: a top-level score", path);
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(r, "tests"), i, t)
    {
        cr_expect_null(json_object_get(t, "score"), "%s: test %zu has a score", path, i);
        cr_expect_null(json_object_get(t, "max_score"), "%s: test %zu has a max_score", path, i);
    }
    cr_expect(json_array_size(json_object_get(r, "tests")) > 0);
    cr_expect_str_eq(json_string_value(json_object_get(json_object_get(r, "extra_data"), "status")), status);
    const char *o = json_string_value(json_object_get(r, "output"));
    cr_expect(o && !strncmp(o, "Not graded: ", 12), "%s: output %s", path, o);
    json_decref(r);
}

/* The CSV row of one student, split into fields (RFC 4180: a quoted field may hold commas, "" is "). */
static int csv_row(const char *csv, const char *student, char fields[][400], int max)
{
    char key[64];
    snprintf(key, sizeof key, "\r\n%s,", student);
    const char *p = strstr(csv, key);
    if (!p) return 0;
    p += 2;
    int n = 0;
    while (n < max) {
        size_t k = 0;
        char *f = fields[n++];
        if (*p == '"')
            for (p++; *p && !(p[0] == '"' && p[1] != '"'); p++) {
                if (*p == '"') p++;
                if (k < 399) f[k++] = *p;
            }
        for (p += *p == '"'; *p && *p != ',' && *p != '\r'; p++)
            if (k < 399) f[k++] = *p;
        f[k] = 0;
        if (*p != ',') break;
        p++;
    }
    return n;
}

Test(not_graded, grade_and_check_without_a_gpu_write_no_score, .timeout = 300)
{
    wbt_skip_if_no_isolation();
    static char out[WBT_OUT_MAX];
    fake_workbook(1);
    /* one submission: the reference finds no GPU */
    cr_assert_eq(wbt_run(out, "cp -r build/cases/bugs/ch9/good %s/class/good && chmod -R a+rX %s/class", dir, dir), 0, "%s", out);
    int rc = run_grade("one", "--quiet --out out/one class/good/"); /* its name "good": POSIX basename */
    char *log = file_of("one.log");
    cr_assert_eq(rc, GR_EXIT_NO_GPU, "exit %d\n%s", rc, log ? log : "");
    free(log);
    assert_one_line("one", "not graded (no GPU");
    assert_one_line("one", "no CUDA device found");
    assert_unscored("out/one/results.json", "no GPU");
    json_t *g = json_of("out/one/grading.json");
    cr_expect_str_eq(json_string_value(json_object_get(g, "status")), "no GPU");
    const char *err = json_string_value(json_object_get(g, "error"));
    cr_expect(err && strstr(err, "no GPU"), "grading.json error: %s", err);
    cr_expect(json_is_null(json_object_get(g, "score")), "grading.json: a score that was not earned");
    cr_expect_str_eq(json_string_value(json_object_get(g, "student")), "good", "named by the path's last folder");
    json_decref(g);
    char *md = file_of("out/one/feedback.md");
    cr_expect(md && strstr(md, "**Not graded:**") && !strstr(md, "Score: 0"), "%s", md);
    free(md);
    /* the student's practice run: without a GPU it says what it did not check (tests/test_check.c) */
    rc = run_grade("check", "--quiet --check --out out/check");
    cr_assert_eq(rc, GR_EXIT_CHECK_CLEAN, "--check: exit %d", rc);
    char *said = file_of("check.log");
    cr_expect(said && strstr(said, "not checked here: correctness"), "--check said:\n%s", said ? said : "");
    free(said);
    assert_unscored("out/check/results.json", "no GPU");
}

Test(not_graded, a_class_without_a_gpu_gets_empty_cells_and_is_retried, .timeout = 300)
{
    wbt_skip_if_no_isolation();
    static char out[WBT_OUT_MAX];
    fake_workbook(1);
    cr_assert_eq(wbt_run(out, "for s in a b; do cp -r build/cases/bugs/ch9/good %s/class/$s; done && chmod -R a+rX %s/class", dir, dir), 0,
                 "%s", out);
    int rc = run_grade("c1", "--quiet --class class --out out --jobs 2");
    cr_assert_eq(rc, GR_EXIT_NO_GPU, "exit %d", rc);
    assert_one_line("c1", "2 of 2 entries not graded");
    char *csv = file_of("out/grades.csv");
    cr_assert_not_null(csv);
    char f[8][400];
    for (const char *s = "a"; *s; s = *s == 'a' ? "b" : "") {
        int n = csv_row(csv, s, f, 8);
        /* student, ch9, total, max, note */
        cr_assert_eq(n, 5, "row %s:\n%s", s, csv);
        cr_expect_str_empty(f[1], "%s: chapter cell %s, want empty\n%s", s, f[1], csv);
        cr_expect_str_empty(f[2], "%s: total %s, want empty\n%s", s, f[2], csv);
        cr_expect(strstr(f[4], "no GPU"), "%s: the reason column: %s", s, f[4]);
    }
    free(csv);
    assert_unscored("out/a/results.json", "no GPU");
    /* a GPU again (the reference as built normally): the next run grades both, without --force */
    cr_assert_eq(wbt_run(out, "make -s -B -C %s build/solution9", dir), 0, "%s", out);
    rc = run_grade("c2", "--quiet --class class --out out --jobs 2");
    char *err = file_of("c2.err");
    cr_assert_eq(rc, GR_EXIT_OK, "the retry: exit %d\n%s", rc, err);
    cr_expect_str_empty(err);
    free(err);
    csv = file_of("out/grades.csv");
    cr_assert_eq(csv_row(csv, "a", f, 8), 5, "%s", csv);
    cr_expect(f[1][0] && f[2][0] && !f[4][0], "graded on the retry:\n%s", csv);
    free(csv);
}

/* The grader's own process for one entry dies (SIGKILL, as the OOM killer would): that entry gets an
 * empty cell and the reason, the class exits non-zero in one line, and the next run grades it. */
Test(not_graded, a_grader_crash_leaves_an_empty_cell_and_is_retried, .timeout = 300)
{
    wbt_skip_if_no_isolation();
    static char out[WBT_OUT_MAX];
    fake_workbook(0);
    cr_assert_eq(wbt_run(out, "for s in a b; do cp -r build/cases/bugs/ch9/good %s/class/$s; done && chmod -R a+rX %s/class", dir, dir), 0,
                 "%s", out);
    /* --jobs 1: once out/a exists, the child of build/course named "course" grades entry a; kill it while it
     * works (before that, a child named "course" may be tool.c's, about to exec nvidia-smi). A grader
     * that ends before (a refusal) ends the wait at once, with its own reason. */
    int rc = wbt_run(out,
                     "cd %s && export WB_GRADE_LOCK_DIR=$PWD TMPDIR=$PWD && PATH=%s/bin:$PATH; "
                     "%s --rubric rubric.json --seeds 5 --quiet --class class --out out --jobs 1 > k.log 2> k.err & g=$!; "
                     "c=; for i in $(seq 400); do kill -0 $g 2>/dev/null || break; "
                     "  [ -d out/a ] || { sleep 0.05; continue; }; "
                     "  for s in /proc/[0-9]*/stat; do read -r pid comm st ppid rest < $s 2>/dev/null || continue; "
                     "    [ \"$ppid\" = $g ] && [ \"$comm\" = '(course)' ] && c=$pid && break; done; "
                     "  [ -n \"$c\" ] && break; sleep 0.05; done; "
                     "[ -n \"$c\" ] && kill -9 $c; wait $g; rc=$?; "
                     "[ -n \"$c\" ] || { echo \"no grading child found: the grader ended (exit $rc) first\"; cat k.err; exit 99; }; exit $rc",
                     dir, dir, course);
    cr_assert_eq(rc, GR_EXIT_NOT_GRADED, "exit %d\n%s", rc, out);
    assert_one_line("k", "1 of 2 entries not graded");
    assert_one_line("k", "a: the grader failed on this submission (signal 9)");
    char *csv = file_of("out/grades.csv");
    char f[8][400];
    cr_assert_eq(csv_row(csv, "a", f, 8), 5, "%s", csv);
    cr_expect(!f[1][0] && !f[2][0] && strstr(f[4], "signal 9"), "a crashed: empty cells and the reason:\n%s", csv);
    cr_assert_eq(csv_row(csv, "b", f, 8), 5, "%s", csv);
    cr_expect(f[1][0] && f[2][0], "b was graded:\n%s", csv);
    free(csv);
    json_t *g = json_of("out/a/grading.json");
    cr_expect_str_eq(json_string_value(json_object_get(g, "status")), "grader crashed");
    json_decref(g);
    /* the next run, without --force: a again, b kept */
    rc = run_grade("k2", "--class class --out out --jobs 1");
    char *err = file_of("k2.err");
    cr_assert_eq(rc, GR_EXIT_OK, "exit %d\n%s", rc, err);
    cr_expect(strstr(err, "1 graded in ") && strstr(err, "; skipped 1 already graded"), "%s", err);
    free(err);
    csv = file_of("out/grades.csv");
    cr_assert_eq(csv_row(csv, "a", f, 8), 5, "%s", csv);
    cr_expect(f[1][0] && f[2][0] && !f[4][0], "a graded on the retry:\n%s", csv);
    free(csv);
}

/* An --out that cannot be written: refused in under a second, before anything is built, with the path
 * and the error, exit GR_EXIT_IO; for one submission and for a class. As root permissions do not stop
 * a write, so the read-only folder is a read-only bind mount in a mount namespace of its own. */
Test(not_graded, an_unwritable_out_fails_at_once, .timeout = 120)
{
    static char out[WBT_OUT_MAX];
    fake_workbook(0);
    cr_assert_eq(wbt_run(out, "cp -r build/cases/bugs/ch9/good %s/class/good && touch %s/afile && mkdir %s/ro && chmod -R a+rX %s/class",
                         dir, dir, dir, dir),
                 0, "%s", out);
    char ro_prefix[600] = "";
    if (geteuid() != 0) wbt_run(out, "chmod 0555 %s/ro", dir);
    else if (wbt_run(out, "unshare -m true") == 0)
        snprintf(ro_prefix, sizeof ro_prefix, "unshare -m sh -c 'mount --bind %s/ro %s/ro && mount -o remount,bind,ro %s/ro %s/ro && exec \"$0\" \"$@\"' ",
                 dir, dir, dir, dir);
    else cr_log_warn("as root without unshare -m: only the file-in-the-way case");
    struct {
        const char *out, *want;
        int ro;
    } cases[] = {{"afile/sub", "Not a directory", 0}, {"ro", geteuid() ? "Permission denied" : "Read-only file system", 1}};
    const char *modes[] = {"class/good", "--class class"};
    for (int c = 0; c < 2; c++)
        for (int m = 0; m < 2; m++) {
            if (cases[c].ro && geteuid() == 0 && !ro_prefix[0]) continue;
            char args[900], name[16];
            snprintf(name, sizeof name, "io%d%d", c, m);
            double t0 = gr_now();
            int rc = wbt_run(out, "cd %s && %s%s --rubric rubric.json --out %s/%s %s > %s.log 2> %s.err", dir, cases[c].ro ? ro_prefix : "",
                             m ? course : grade, dir, cases[c].out, modes[m], name, name);
            double dt = gr_now() - t0;
            snprintf(args, sizeof args, "%s/%s: %s", dir, cases[c].out, cases[c].want);
            cr_expect_eq(rc, GR_EXIT_IO, "--out %s %s: exit %d\n%s", cases[c].out, modes[m], rc, out);
            cr_expect_lt(dt, 1.0, "--out %s %s took %.2f s", cases[c].out, modes[m], dt);
            assert_one_line(name, args);
        }
    cr_expect_eq(wbt_run(out, "ls -A %s/ro", dir), 0);
    cr_expect_str_empty(out, "nothing written where it could not be");
}

/* ---------------------------------------------------------------- the decisions, as pure functions */
static void sub_with(gr_sub_result *s, gr_ch_status a, gr_ch_status b)
{
    memset(s, 0, sizeof *s);
    s->n_ch = 2;
    s->ch[0] = (gr_ch_result){.number = 1, .status = a};
    s->ch[1] = (gr_ch_result){.number = 2, .status = b};
    snprintf(s->ch[1].reason, sizeof s->ch[1].reason, "the reason of chapter 2");
}

Test(not_graded, what_counts_as_graded)
{
    static gr_sub_result s;
    char why[1200];
    sub_with(&s, GR_CH_GRADED, GR_CH_BUILD_FAILED); /* the student's failure is a grade */
    cr_expect_eq(gr_sub_judge(&s, why, sizeof why), GR_SUB_GRADED);
    cr_expect_str_empty(why);
    sub_with(&s, GR_CH_MISSING, GR_CH_NOT_GRADABLE);
    cr_expect_eq(gr_sub_judge(&s, why, sizeof why), GR_SUB_GRADED);
    sub_with(&s, GR_CH_GRADED, GR_CH_NO_GPU);
    cr_expect_eq(gr_sub_judge(&s, why, sizeof why), GR_SUB_NO_GPU);
    cr_expect_str_eq(why, "chapter 2 no GPU: the reason of chapter 2");
    sub_with(&s, GR_CH_GRADER_ERROR, GR_CH_NO_GPU); /* the grader broke too: not only the GPU */
    cr_expect_eq(gr_sub_judge(&s, why, sizeof why), GR_SUB_NOT_GRADED);
    cr_expect(strstr(why, "chapter 1 grader error"), "%s", why);
    sub_with(&s, GR_CH_GRADED, GR_CH_GRADED);
    snprintf(s.error, sizeof s.error, "x.zip is neither a directory nor a .zip/.tar.gz");
    s.n_ch = 0;
    cr_expect_eq(gr_sub_judge(&s, why, sizeof why), GR_SUB_NOT_GRADED);
    cr_expect_str_eq(why, s.error);
    s.status = GR_SUB_GRADER_CRASHED;
    cr_expect_eq(gr_sub_judge(&s, why, sizeof why), GR_SUB_GRADER_CRASHED);
    s.error[0] = 0;
    cr_expect_str_eq((gr_sub_judge(&s, why, sizeof why), why), "grader crashed (no reason recorded)");
    for (int k = 0; k < GR_SUB_STATUS_N; k++) cr_expect_eq(gr_sub_status_parse(gr_sub_status_name((gr_sub_status)k)), k);
}

Test(not_graded, exit_codes)
{
    cr_expect_eq(gr_exit_of(GR_SUB_GRADED), GR_EXIT_OK);
    cr_expect_eq(gr_exit_of(GR_SUB_NO_GPU), GR_EXIT_NO_GPU);
    cr_expect_eq(gr_exit_of(GR_SUB_NOT_GRADED), GR_EXIT_NOT_GRADED);
    cr_expect_eq(gr_exit_of(GR_SUB_GRADER_CRASHED), GR_EXIT_NOT_GRADED);
    cr_expect_eq(gr_exit_class(0, 0, 0), GR_EXIT_OK);
    cr_expect_eq(gr_exit_class(3, 3, 0), GR_EXIT_NO_GPU);
    cr_expect_eq(gr_exit_class(3, 2, 0), GR_EXIT_NOT_GRADED);
    cr_expect_eq(gr_exit_class(0, 0, 1), GR_EXIT_IO);
    cr_expect_eq(gr_exit_class(3, 3, 1), GR_EXIT_IO);
    for (int e = 0; e < GR_EXIT_N; e++) cr_expect(strlen(gr_exit_meaning((gr_exit)e)) > 10, "code %d has no meaning", e);
}

/* grade --help, the README and the instructor guide show the one table of exit codes: every code of the
 * enum, row for row with gr_exit_meaning's words, and no other. */
Test(not_graded, every_exit_code_is_in_help_the_readme_and_the_guide)
{
    static char out[WBT_OUT_MAX];
    cr_assert_eq(wbt_run(out, "./build/grade --help"), 0, "%s", out);
    const char *docs[] = {"README.md", "handouts/instructor/guide.md"};
    for (int d = 0; d < 2; d++) {
        char *text = gr_read_capped(docs[d], 1 << 22, NULL);
        cr_assert_not_null(text);
        for (int e = 0; e < GR_EXIT_N; e++) {
            char line[600], row[600];
            snprintf(line, sizeof line, "  %d  %s\n", e, gr_exit_meaning((gr_exit)e));
            if (!d) cr_expect(strstr(out, line), "grade --help lacks \"%s\":\n%s", line, out);
            snprintf(row, sizeof row, "\n| %d | %s |\n", e, gr_exit_meaning((gr_exit)e));
            cr_expect(strstr(text, row), "%s has no row \"%s\" in its exit-code table (gr_exit_meaning's words)", docs[d], row + 1);
        }
        char row[16];
        snprintf(row, sizeof row, "\n| %d | ", GR_EXIT_N);
        cr_expect_null(strstr(text, row), "%s lists an exit code %d the grader does not have", docs[d], GR_EXIT_N);
        free(text);
    }
}

/* results.json of a submission not graded, written directly: no score, and the measured points are
 * kept out of the LMS's way in extra_data; a graded one keeps its scores. */
Test(not_graded, results_json_has_no_score_when_not_graded)
{
    static gr_sub_result s;
    sub_with(&s, GR_CH_GRADED, GR_CH_NO_GPU);
    s.ch[0].n_v = 1;
    snprintf(s.ch[0].v[0].name, sizeof s.ch[0].v[0].name, "global");
    s.ch[0].v[0].rub = (gr_variant_rubric){.name = "global", .correct = 2, .perf = 1, .sanitizer = 1};
    s.ch[0].v[0].correct_pts = 2;
    s.ch[0].v[0].verdict = GR_V_PASS;
    gr_sub_totals(&s);
    char p[128];
    snprintf(p, sizeof p, "%s/results.json", dir);
    cr_assert_eq(gr_write_results_json(p, &s, NULL), 0);
    assert_unscored("results.json", "no GPU");
    json_t *r = json_of("results.json");
    json_t *t = json_array_get(json_object_get(r, "tests"), 1);
    cr_expect_float_eq(json_number_value(json_object_get(json_object_get(t, "extra_data"), "points")), 2.0, 1e-9);
    json_decref(r);
    s.ch[1].status = GR_CH_BUILD_FAILED; /* now graded: the score is there */
    cr_assert_eq(gr_write_results_json(p, &s, NULL), 0);
    r = json_of("results.json");
    cr_expect_float_eq(json_number_value(json_object_get(r, "score")), 2.0, 1e-9);
    json_decref(r);
}

/* A submission's chapters run their shared-GPU steps at once, each in a process of its own, then the
 * benchmark one by one (pipeline.c): two copies of the fake chapter (8 and 9) graded together get what
 * either gets graded alone, each with its steps timed, and both build trees gone. */
Test(not_graded, chapters_at_once_grade_as_one_at_a_time, .timeout = 300)
{
    wbt_skip_if_no_isolation();
    static char out[WBT_OUT_MAX];
    char here[4096];
    cr_assert_not_null(getcwd(here, sizeof here));
    fake_workbook(0);
    int rc = wbt_run(out, "cd %s && cp -r chapters/09-fake chapters/08-fake && cp -r solutions/09-fake solutions/08-fake && "
                          "cp build/solution9 build/solution8 && touch build/solution8 && mkdir -p class/both/chapters && "
                          "for c in 08 09; do cp -r %s/build/cases/bugs/ch9/good/chapters/09-fake class/both/chapters/$c-fake; "
                          "done && chmod -R a+rX .",
                     dir, here);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert_eq(run_grade("both", "class/both --out out-both"), 0);
    cr_assert_eq(run_grade("one", "class/both --ch 9 --out out-one"), 0);
    json_t *both = json_of("out-both/grading.json"), *one = json_of("out-one/grading.json");
    json_t *chs = json_object_get(both, "chapters"), *alone = json_array_get(json_object_get(one, "chapters"), 0);
    cr_assert_eq(json_array_size(chs), 2, "%s", json_dumps(both, 0));
    double want = json_number_value(json_object_get(alone, "score"));
    cr_assert_gt(want, 0);
    size_t i;
    json_t *ch;
    json_array_foreach(chs, i, ch)
    {
        cr_expect_str_eq(json_string_value(json_object_get(ch, "status")), "graded");
        cr_expect_float_eq(json_number_value(json_object_get(ch, "score")), want, 1e-9, "chapter %zu", i);
        json_t *steps = json_object_get(ch, "steps");
        cr_expect(json_object_get(steps, "correctness") && json_object_get(steps, "performance"), "%s", json_dumps(ch, 0));
        cr_expect_gt(json_number_value(json_object_get(ch, "seconds")), 0);
    }
    cr_expect_float_eq(json_number_value(json_object_get(both, "score")), 2 * want, 1e-9);
    json_decref(both);
    json_decref(one);
}
