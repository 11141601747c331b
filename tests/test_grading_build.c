/* build/grade as a program, without a GPU: what it says about a submission it cannot build or grade,
 * and its command line. (The grader's library modules are tested in test_grading.c.) */
#include "wbtest.h"

#include "gr_util.h"
#include "regions.h"
#include "report.h"
#include "submission.h"

/* ---------------------------------------------------------------- build/grade without a GPU */
static void write_sub(const char *dir, const char *text)
{
    char d[256], p[320];
    snprintf(d, sizeof d, "%s/chapters/01-reversal", dir);
    gr_mkdirs(d, 0755);
    snprintf(p, sizeof p, "%s/reversal.cu", d);
    cr_assert_eq(gr_write_file(p, text, strlen(text)), 0);
}

static json_t *grade(const char *sub, const char *out, char *log)
{
    wbt_skip_if_no_isolation();
    int rc = wbt_run(log, "./build/grade --quiet --ch 1 --no-perf --no-sanitizer --seeds 5 --out %s %s", out, sub);
    /* without a GPU, a submission that builds is not graded (exit GR_EXIT_NO_GPU, no score written) */
    cr_assert(rc == GR_EXIT_OK || rc == GR_EXIT_NO_GPU, "build/grade exit %d\n%s", rc, log);
    char p[256];
    snprintf(p, sizeof p, "%s/grading.json", out);
    json_error_t e;
    json_t *g = json_load_file(p, 0, &e);
    cr_assert_not_null(g, "%s: %s\n%s", p, e.text, log);
    return g;
}

static const char *ch1_status(json_t *g)
{
    return json_string_value(json_object_get(json_array_get(json_object_get(g, "chapters"), 0), "status"));
}

Test(grading_build, mangled_markers_are_not_gradable, .timeout = 120)
{
    static char log[WBT_OUT_MAX];
    char dir[64], out[128];
    wbt_tmpdir(dir, sizeof dir);
    snprintf(out, sizeof out, "%s/out", dir);
    size_t n;
    char *text = wb_read_file("solutions/01-reversal/reversal.cu", &n);
    char *end = strstr(text, "    // END TODO(vector)\n");
    memmove(end, end + strlen("    // END TODO(vector)\n"), strlen(end + strlen("    // END TODO(vector)\n")) + 1);
    char sub[96];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    write_sub(sub, text);
    free(text);
    json_t *g = grade(sub, out, log);
    cr_assert_str_eq(ch1_status(g), "not gradable", "%s", log);
    cr_assert_float_eq(json_number_value(json_object_get(g, "score")), 0.0, 0);
    char p[256];
    snprintf(p, sizeof p, "%s/feedback.md", out);
    char *md = gr_read_capped(p, 1 << 20, NULL);
    cr_assert(strstr(md, "region 'vector'"), "%s", md);
    free(md);
    json_decref(g);
}

Test(grading_build, a_missing_file_is_reported, .timeout = 120)
{
    static char log[WBT_OUT_MAX];
    char dir[64], out[128], sub[96];
    wbt_tmpdir(dir, sizeof dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(sub, sizeof sub, "%s/empty", dir);
    gr_mkdirs(sub, 0755);
    json_t *g = grade(sub, out, log);
    cr_assert_str_eq(ch1_status(g), "missing", "%s", log);
    json_decref(g);
}

Test(grading_build, a_symlink_to_the_solution_is_refused, .timeout = 120)
{
    static char log[WBT_OUT_MAX];
    char dir[64], out[128], sub[128], link[256], target[PATH_MAX];
    wbt_tmpdir(dir, sizeof dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(sub, sizeof sub, "%s/sub/chapters/01-reversal", dir);
    gr_mkdirs(sub, 0755);
    snprintf(link, sizeof link, "%s/reversal.cu", sub);
    cr_assert_not_null(realpath("solutions/01-reversal/reversal.cu", target));
    cr_assert_eq(symlink(target, link), 0);
    snprintf(sub, sizeof sub, "%s/sub", dir);
    json_t *g = grade(sub, out, log);
    cr_assert_str_eq(ch1_status(g), "missing", "a link out of the submission is not the student's file\n%s", log);
    json_decref(g);
}

Test(grading_build, a_compile_error_keeps_the_compiler_log, .timeout = 300)
{
    static char log[WBT_OUT_MAX];
    char dir[64], out[128], sub[96];
    wbt_tmpdir(dir, sizeof dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(sub, sizeof sub, "%s/sub", dir);
    size_t n;
    char *text = wb_read_file("solutions/01-reversal/reversal.cu", &n);
    char *at = strstr(text, "if (i < n) out[n - 1 - i] = in[i];");
    at[strlen("if (i < n) out[n - 1 - i] = in[i]")] = ' '; /* drop the semicolon */
    write_sub(sub, text);
    free(text);
    json_t *g = grade(sub, out, log);
    cr_assert_str_eq(ch1_status(g), "build failed", "%s", log);
    char p[256];
    snprintf(p, sizeof p, "%s/feedback.md", out);
    char *md = gr_read_capped(p, 1 << 20, NULL);
    cr_assert(strstr(md, "Compiler output") && strstr(md, "error"), "%s", md);
    free(md);
    snprintf(p, sizeof p, "%s/results.json", out);
    json_error_t e;
    json_t *r = json_load_file(p, 0, &e);
    cr_assert_not_null(r, "%s", e.text);
    json_decref(r);
    json_decref(g);
}

/* Student code is compiled in the sandbox: where bubblewrap works, it cannot #include the solution. */
Test(grading_build, compilation_cannot_read_the_solution_under_bubblewrap, .timeout = 300)
{
    static char log[WBT_OUT_MAX];
    char dir[64], out[128], sub[96], sol[PATH_MAX];
    wbt_tmpdir(dir, sizeof dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(sub, sizeof sub, "%s/sub", dir);
    cr_assert_not_null(realpath("solutions/01-reversal/reversal.cu", sol));
    size_t n;
    char *text = wb_read_file("chapters/01-reversal/reversal.cu", &n);
    const char *marker = "    // BEGIN TODO(global)\n";
    char *at = strstr(text, marker) + strlen(marker);
    gr_str s = {0};
    gr_str_addn(&s, text, (size_t)(at - text));
    gr_str_addf(&s, "#if __has_include(\"%s\")\n#error THE SOLUTION IS READABLE\n#endif\n", sol);
    gr_str_add(&s, at);
    write_sub(sub, gr_str_c(&s));
    gr_str_free(&s);
    free(text);
    json_t *g = grade(sub, out, log);
    const char *iso = json_string_value(json_object_get(g, "isolation"));
    if (!strstr(iso, "bubblewrap")) cr_skip_test("no working bubblewrap here (isolation: %s)", iso);
    cr_assert_str_neq(ch1_status(g), "build failed", "the solution was readable during compilation\n%s", log);
    json_decref(g);
}

/* ---------------------------------------------------------------- the command line */
/* getopt_long with strict numbers: a usage error is exit 2 and one line saying what is wrong. */
Test(grading_cli, bad_options_are_usage_errors, .timeout = 30)
{
    static const struct {
        const char *args, *says;
    } cases[] = {
        {"--ch seven x", "--ch 'seven' is not a chapter number"},
        {"--ch 99 x", "the rubric has no chapter 99"},
        {"--ch 3x x", "--ch '3x' is not a chapter number"},
        {"--jobs 0 --class x", "--jobs '0' must be a whole number"},
        {"--jobs many --class x", "--jobs 'many' must be a whole number"},
        {"--seeds 1,-2 x", "bad seed '-2'"},
        {"--bogus x", "unknown option --bogus"},
        {"--ch", "--ch needs a value"},
        {"a b", "one submission at a time"},
        /* issue 28: a missing path says so and lists every accepted form (it was exit 3, "no GPU") */
        {"/nonexistent/sub", "/nonexistent/sub does not exist (a submission is a directory, .zip, .tar, .tar.gz or .tgz)"},
        {"Makefile", "Makefile is neither a directory nor an archive (.zip, .tar, .tar.gz or .tgz)"},
        {"", "usage: grade"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[8192];
        int rc = wbt_run(out, "./build/grade %s", cases[i].args);
        cr_expect_eq(rc, GR_EXIT_USAGE, "grade %s: exit %d\n%s", cases[i].args, rc, out);
        cr_expect(strstr(out, cases[i].says) != NULL, "grade %s: '%s' not in\n%s", cases[i].args, cases[i].says, out);
    }
}

/* A chapter file that is a symbolic link (or under a linked folder) points out of the submission: it is
 * not graded, and the reason says so instead of "missing" (issue 28). */
Test(grading_cli, a_linked_chapter_file_is_named_a_link_out_of_the_submission)
{
    char dir[256], sub[300], out[PATH_MAX], why[512];
    wbt_tmpdir(dir, sizeof dir);
    snprintf(sub, sizeof sub, "%s/sub", dir);
    gr_chapter_rubric ch;
    memset(&ch, 0, sizeof ch);
    snprintf(ch.dir, sizeof ch.dir, "01-reversal");
    snprintf(ch.file, sizeof ch.file, "reversal.cu");
    int rc = wbt_run(why, "mkdir -p %1$s/chapters/01-reversal && ln -s \"$PWD/solutions/01-reversal/reversal.cu\" "
                          "%1$s/chapters/01-reversal/reversal.cu", sub);
    cr_assert_eq(rc, 0, "%s", why);
    cr_expect_eq(gr_find_student_file(sub, &ch, out, sizeof out, 0), 0, "a link was taken as the student's file");
    cr_expect_eq(gr_student_file_link(sub, &ch, out, sizeof out), 1);
    cr_expect_str_eq(out, "chapters/01-reversal/reversal.cu");
    /* a linked folder */
    rc = wbt_run(why, "rm -r %1$s/chapters && ln -s \"$PWD/solutions\" %1$s/chapters", sub);
    cr_assert_eq(rc, 0, "%s", why);
    cr_expect_eq(gr_student_file_link(sub, &ch, out, sizeof out), 1, "under a linked folder");
    /* a plain file: no link */
    rc = wbt_run(why, "rm %1$s/chapters && mkdir -p %1$s/chapters/01-reversal && cp chapters/01-reversal/reversal.cu %1$s/chapters/01-reversal/", sub);
    cr_assert_eq(rc, 0, "%s", why);
    cr_expect_eq(gr_student_file_link(sub, &ch, out, sizeof out), 0);
    cr_expect_eq(gr_find_student_file(sub, &ch, out, sizeof out, 0), 1);
    wbt_run(why, "rm -rf %s", dir);
}
