/* The course around the grader (course/class.h): LMS file names, the roster, the similarity's inputs and
 * parser, Markdown to HTML; then the fake workbook's class (tests/test_grading_e2e.c's, no GPU) graded
 * through Canvas's, Moodle's and Gradescope's bulk downloads with a roster, the CSVs and pages checked, and
 * class.html and a feedback.html rendered in headless Chromium: a screenshot that is not blank, and the
 * page's text as Chromium's DOM has it. */
#define _GNU_SOURCE 1
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "wbtest.h"

#include <csv.h>
#include <math.h>
#include <png.h>
#include <sys/stat.h>

#include "classpage.h"
#include "grades.h"
#include "gr_util.h"
#include "lms.h"
#include "similarity.h"

/* ---------------------------------------------------------------- pure parts */
Test(course, canvas_and_moodle_names_are_taken_apart)
{
    gr_lms_file f;
    cr_assert_eq(gr_lms_parse_name(GR_LMS_CANVAS, "smithjohn_12345_678901_fake.cu", &f), 0);
    cr_expect_str_eq(f.name, "smithjohn");
    cr_expect_str_eq(f.id, "12345");
    cr_expect_str_eq(f.file, "fake.cu");
    cr_expect(!f.late);
    cr_assert_eq(gr_lms_parse_name(GR_LMS_CANVAS, "leeann_LATE_22_33_my_work.zip", &f), 0);
    cr_expect(f.late);
    cr_expect_str_eq(f.id, "22");
    cr_expect_str_eq(f.file, "my_work.zip");
    cr_expect_neq(gr_lms_parse_name(GR_LMS_CANVAS, "good", &f), 0);
    cr_expect_neq(gr_lms_parse_name(GR_LMS_CANVAS, "x_notanumber_1_f.cu", &f), 0);
    cr_assert_eq(gr_lms_parse_name(GR_LMS_MOODLE, "Zoë Ångström_4711_assignsubmission_file_", &f), 0);
    cr_expect_str_eq(f.name, "Zoë Ångström");
    cr_expect_str_eq(f.id, "4711");
    cr_expect_str_eq(f.file, "");
    cr_assert_eq(gr_lms_parse_name(GR_LMS_MOODLE, "Ann Lee_12_assignsubmission_file_fake.cu", &f), 0);
    cr_expect_str_eq(f.file, "fake.cu");
    cr_expect_neq(gr_lms_parse_name(GR_LMS_MOODLE, "smithjohn_12345_678901_fake.cu", &f), 0);
    const char *want[] = {"reversal.cu", "fake.cu"};
    char o[256];
    gr_lms_canvas_original("fake-1.cu", want, 2, o, sizeof o);
    cr_expect_str_eq(o, "fake.cu");
    gr_lms_canvas_original("notes-2.txt", want, 2, o, sizeof o);
    cr_expect_str_eq(o, "notes-2.txt", "only a chapter's file name loses Canvas's suffix");
    cr_expect_eq(gr_lms_parse_kind("canvas"), GR_LMS_CANVAS);
    cr_expect_eq(gr_lms_parse_kind("auto"), -2);
    cr_expect_eq(gr_lms_parse_kind("blackboard"), -1);
}

/* Every CSV cell the grader writes goes through grades.h: text that a spreadsheet would run as a formula
 * (OWASP: = + - @ TAB CR first) is behind an apostrophe; a score is a number, "-3.00" included. */
static char *cell(const char *s)
{
    gr_str b = {0};
    gr_csv_text(&b, s);
    return b.s ? b.s : strdup("");
}

Test(course, a_csv_cell_is_never_a_formula_and_a_score_stays_a_number)
{
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"=1+1", "'=1+1"},
        {"@SUM(1+1)", "'@SUM(1+1)"},
        {"+1", "'+1"},
        {"-3", "'-3"}, /* a student named -3 is text; a score is never written as text */
        {"\tx", "'\tx"},
        {"\r=1", "\"'\r=1\""},
        {"=HYPERLINK(\"http://evil/\",\"x\")", "\"'=HYPERLINK(\"\"http://evil/\"\",\"\"x\"\")\""},
        {"Smith, John", "\"Smith, John\""},
        {"a=b", "a=b"},
        {"Ann Lee", "Ann Lee"},
        {"", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *c = cell(cases[i].in);
        cr_expect_str_eq(c, cases[i].out, "cell of [%s]", cases[i].in);
        free(c);
    }
    cr_expect(gr_csv_is_formula("-x") && gr_csv_is_formula("@") && !gr_csv_is_formula("x-") && !gr_csv_is_formula(""));
    gr_str b = {0};
    gr_csv_number(&b, -3);
    gr_str_add(&b, ",");
    gr_csv_number(&b, NAN);
    gr_str_add(&b, ",");
    gr_csv_number(&b, 7.5);
    cr_expect_str_eq(gr_str_c(&b), "-3.00,,7.50", "a score is a number cell, a missing one an empty cell");
    gr_str_free(&b);
}

static char dir[PATH_MAX];
static void setup(void)
{
    char rel[PATH_MAX];
    wbt_tmpdir_open(rel, sizeof rel);
    cr_assert_not_null(realpath(rel, dir));
    chmod(dir, 0755); /* the programs run as nobody when the tests run as root */
}
static void teardown(void)
{
    char out[256];
    if (dir[0]) wbt_run(out, "rm -rf %s", dir);
}

static void put(const char *name, const char *text)
{
    char p[PATH_MAX], out[WBT_OUT_MAX];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    char *slash = strrchr(p, '/');
    *slash = 0;
    cr_assert_eq(wbt_run(out, "mkdir -p '%s'", p), 0, "%s", out);
    *slash = '/';
    cr_assert_eq(gr_write_file(p, text, strlen(text)), 0, "%s", p);
}

Test(course, a_roster_is_read_by_its_headers_and_matches_people_every_way, .init = setup, .fini = teardown)
{
    put("r.csv", "\xef\xbb\xbfStudent,ID,SIS User ID,SIS Login ID,Section,Other\r\n"
                 "    Points Possible,,,,,10\r\n"
                 "\"Smith, John\",101,S101,jsmith,A,x\r\n"
                 "Ann Lee,102,,alee@uni.edu,B,\r\n");
    char p[PATH_MAX], why[600] = "";
    snprintf(p, sizeof p, "%s/r.csv", dir);
    int n;
    gr_person *r = gr_lms_roster_read(p, &n, why, sizeof why);
    cr_assert_not_null(r, "%s", why);
    cr_assert_eq(n, 2, "Points Possible is no person");
    cr_expect_str_eq(r[0].name, "Smith, John");
    cr_expect_str_eq(r[0].sid, "S101");
    cr_expect_str_eq(r[1].section, "B");
    gr_person who = {0};
    snprintf(who.name, sizeof who.name, "smithjohn"); /* Canvas's lastfirst */
    cr_expect_eq(gr_lms_roster_match(r, n, &who), 0);
    memset(&who, 0, sizeof who);
    snprintf(who.name, sizeof who.name, "Lee, Ann");
    cr_expect_eq(gr_lms_roster_match(r, n, &who), 1);
    memset(&who, 0, sizeof who);
    snprintf(who.email, sizeof who.email, "ALee@uni.edu");
    cr_expect_eq(gr_lms_roster_match(r, n, &who), 1, "an email against the login column, case-folded");
    memset(&who, 0, sizeof who);
    snprintf(who.id, sizeof who.id, "101");
    cr_expect_eq(gr_lms_roster_match(r, n, &who), 0);
    snprintf(who.id, sizeof who.id, "999");
    cr_expect_eq(gr_lms_roster_match(r, n, &who), -1);
    free(r);
    put("bad.csv", "foo,bar\r\n1,2\r\n");
    snprintf(p, sizeof p, "%s/bad.csv", dir);
    cr_expect_null(gr_lms_roster_read(p, &n, why, sizeof why));
    cr_expect(strstr(why, "names no id, name or email column") && !strchr(why, '\n'), "%s", why);
    put("broken.csv", "name\r\n\"unterminated\r\n");
    snprintf(p, sizeof p, "%s/broken.csv", dir);
    cr_expect_null(gr_lms_roster_read(p, &n, why, sizeof why));
    cr_expect(strstr(why, "not valid CSV"), "%s", why);
}

Test(course, similarity_sees_only_changed_regions_and_reads_sim_lines)
{
    const char *pristine = "int a;\n// BEGIN TODO(x)\n    return 0;\n// END TODO(x)\n// BEGIN TODO(y)\n// END TODO(y)\n";
    const char *student = "int a;\n// BEGIN TODO(x)\n    return 0;\n// END TODO(x)\n// BEGIN TODO(y)\n  y = 42;\n// END TODO(y)\n";
    char *t = gr_sim_regions(student, strlen(student), pristine, strlen(pristine));
    cr_assert_not_null(t);
    cr_expect(strstr(t, "y = 42;") != NULL, "%s", t);
    cr_expect(strstr(t, "return 0;") == NULL, "an untouched region is the starter's code: %s", t);
    free(t);
    t = gr_sim_regions(pristine, strlen(pristine), pristine, strlen(pristine));
    cr_expect_str_eq(t, "", "the starter itself has nothing of its own");
    free(t);
    cr_expect_null(gr_sim_regions("// BEGIN TODO(x)\n", 17, pristine, strlen(pristine)));
    char a[256], b[256];
    int pct;
    cr_assert_eq(gr_sim_parse_line("/o/.similarity/ch9/x y.cu consists for 87 % of /o/.similarity/ch9/z.cu material", a, sizeof a, b,
                                   sizeof b, &pct), 0);
    cr_expect_str_eq(a, "/o/.similarity/ch9/x y.cu");
    cr_expect_str_eq(b, "/o/.similarity/ch9/z.cu");
    cr_expect_eq(pct, 87);
    cr_expect_neq(gr_sim_parse_line("File a.cu: 74 tokens, 6 lines", a, sizeof a, b, sizeof b, &pct), 0);
}

/* A class's pairs become groups: each student once, the pairs that first join two groups shown (the strongest),
 * the rest only listed: 100 copies show 99 passages, not 4,950. */
Test(course, similar_pairs_form_groups_and_show_one_pair_a_student)
{
    json_t *pairs = json_pack("[{s:s, s:s, s:i}, {s:s, s:s, s:i}, {s:s, s:s, s:i}, {s:s, s:s, s:i}]", "a", "ann", "b",
                              "bo", "percent", 90, "a", "dee", "b", "eve", "percent", 80, "a", "ann", "b", "cy",
                              "percent", 100, "a", "bo", "b", "cy", "percent", 95);
    json_t *groups = gr_sim_groups(pairs);
    cr_assert_eq(json_array_size(groups), 2, "%s", json_dumps(groups, 0));
    json_t *g0 = json_array_get(groups, 0), *g1 = json_array_get(groups, 1);
    cr_expect_eq(json_array_size(json_object_get(g0, "students")), 3);
    cr_expect_eq(json_integer_value(json_object_get(g0, "pairs")), 3);
    cr_expect_eq(json_array_size(json_object_get(g1, "students")), 2);
    cr_expect_str_eq(json_string_value(json_array_get(json_object_get(g1, "students"), 1)), "eve");
    int shown[4], group[4];
    for (size_t i = 0; i < 4; i++) {
        json_t *q = json_array_get(pairs, i);
        shown[i] = json_is_true(json_object_get(q, "shown"));
        group[i] = (int)json_integer_value(json_object_get(q, "group"));
    }
    cr_expect(!shown[0] && shown[1] && shown[2] && shown[3], "ann-cy (100) and bo-cy (95) join ann, bo, cy; ann-bo "
              "(90) is only listed; dee-eve is shown: %d %d %d %d", shown[0], shown[1], shown[2], shown[3]);
    cr_expect(group[0] == 0 && group[1] == 1 && group[2] == 0 && group[3] == 0);
    json_decref(groups);
    json_decref(pairs);
    pairs = json_pack("[{s:s, s:s, s:i}]", "a", "ref10", "b", "ref2", "percent", 70);
    groups = gr_sim_groups(pairs); /* its students as people sort them */
    json_t *st = json_object_get(json_array_get(groups, 0), "students");
    cr_expect_str_eq(json_string_value(json_array_get(st, 0)), "ref2");
    cr_expect_str_eq(json_string_value(json_array_get(st, 1)), "ref10");
    json_decref(groups);
    json_decref(pairs);
    json_t *none = json_array(), *no_groups = gr_sim_groups(none);
    cr_expect_eq(json_array_size(no_groups), 0);
    json_decref(none);
    json_decref(no_groups);
}

Test(course, feedback_markdown_becomes_html_with_its_tables)
{
    const char *md = "# Feedback: ann\n\n| variant | result |\n|---|---|\n| plus | PASS |\n\n<script>alert(1)</script>\n";
    char *h = gr_md_to_html(md, strlen(md));
    cr_assert_not_null(h);
    cr_expect(strstr(h, "<table>") && strstr(h, "<td>PASS</td>") && strstr(h, "<h1>Feedback: ann</h1>"), "%s", h);
    cr_expect_null(strstr(h, "<script>"), "raw HTML from the Markdown is left out: %s", h);
    free(h);
    json_t *c = json_pack("{s:[{s:s, s:f, s:f}, {s:s, s:n, s:n}]}", "variants", "variant", "plus", "sol_pct", 40.5, "ref_sol_pct",
                          81.0, "variant", "reverse", "sol_pct", "ref_sol_pct");
    char *d = gr_sol_plot_data(c, NULL);
    cr_expect_str_eq(d, "\"plus\" 40.500 81.000\n\"reverse\" NaN NaN\n");
    free(d);
    json_decref(c);
}

/* ---------------------------------------------------------------- the fake class through each LMS */
/* The Canvas import from lms.json and each entry's grading.json: a row per person (a group's members share its
 * score, one not graded gets an empty cell), the largest maximum as Points Possible; a class not staged and a file
 * that cannot be written are one line each. */
Test(course, canvas_grades_have_a_row_per_person_and_say_why_not, .init = setup, .fini = teardown)
{
    char why[600] = "", p[PATH_MAX];
    cr_expect_eq(gr_write_canvas(dir, "HW 1", why, sizeof why), -1);
    snprintf(p, sizeof p, "no %s/lms.json: the class was not staged", dir);
    cr_expect_str_eq(why, p);
    put("lms.json", "{\"entries\": [{\"folder\": \"g1\", \"people\": [{\"name\": \"Lee, Ann\", \"id\": \"1\"}, "
                    "{\"name\": \"Bo\", \"id\": \"2\"}]}, {\"folder\": \"g2\", \"people\": [{\"name\": \"Cy\", "
                    "\"id\": \"3\", \"section\": \"L2\"}]}], \"no_submission\": [{\"name\": \"Di\", \"id\": \"4\"}]}");
    put("g1/grading.json", "{\"status\": \"graded\", \"score\": 7.5, \"max_score\": 12}");
    put("g2/grading.json", "{\"status\": \"no GPU\", \"score\": null, \"max_score\": 10}");
    put("canvas-grades.csv/x", "a folder where the file goes");
    cr_expect_eq(gr_write_canvas(dir, "HW 1", why, sizeof why), -1);
    snprintf(p, sizeof p, "cannot write %s/canvas-grades.csv", dir);
    cr_expect_str_eq(why, p);
    char out[256];
    wbt_run(out, "rm -r %s/canvas-grades.csv", dir);
    cr_assert_eq(gr_write_canvas(dir, "HW 1", why, sizeof why), 4, "%s", why);
    snprintf(p, sizeof p, "%s/canvas-grades.csv", dir);
    char *csv = gr_read_capped(p, 1 << 20, NULL);
    cr_expect_str_eq(csv, "Student,ID,SIS User ID,SIS Login ID,Section,HW 1\r\nPoints Possible,,,,,12.00\r\n"
                          "\"Lee, Ann\",1,,,,7.50\r\nBo,2,,,,7.50\r\nCy,3,,,L2,\r\nDi,4,,,,\r\n");
    free(csv);
}

TestSuite(course_class, .init = setup, .fini = teardown);

/* The fake workbook in dir (as tests/test_grading_e2e.c makes it) and an empty folder dir/export. */
static void fake_workbook(void)
{
    static char out[WBT_OUT_MAX];
    int rc = wbt_run(out, "cp -r tests/grading/fake/. %s/ && cp common/*.h %s/common/ && make -s -C %s build/grading-flags.json "
                          "build/solution9 && mkdir %s/export",
                     dir, dir, dir, dir);
    cr_assert_eq(rc, 0, "%s", out);
}

static void copy_sub(const char *sub, const char *to)
{
    char out[WBT_OUT_MAX];
    cr_assert_eq(wbt_run(out, "mkdir -p \"$(dirname '%s/%s')\" && cp build/cases/bugs/ch9/%s/chapters/09-fake/fake.cu '%s/%s'", dir, to,
                         sub, dir, to), 0, "%s", out);
}

/* Grades dir/export into dir/out with extra options; returns the grader's exit code, its log in log. */
static int grade_class(const char *extra, char **log)
{
    static char out[WBT_OUT_MAX];
    char grade[PATH_MAX], p[PATH_MAX];
    cr_assert_not_null(realpath("build/course", grade), "build/course is not built");
    wbt_run(out, "chmod -R a+rX %s", dir);
    int rc = wbt_run(out, "cd %s && export WB_GRADE_LOCK_DIR=$PWD && PATH=%s/bin:$PATH %s --class %s/export --out %s/out --seeds 5 "
                          "--jobs 2 --rubric rubric.json %s > %s/class.log 2>&1",
                     dir, dir, grade, dir, dir, extra, dir);
    snprintf(p, sizeof p, "%s/class.log", dir);
    *log = gr_read_capped(p, 1 << 20, NULL);
    return rc;
}

static char *out_file(const char *name)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/out/%s", dir, name);
    char *t = gr_read_capped(p, 1 << 24, NULL);
    cr_assert_not_null(t, "%s was not written", p);
    return t;
}

#define EXPECT_HAS(text, needle) cr_expect(strstr((text), (needle)) != NULL, "missing \"%s\" in:\n%.3000s", (needle), (text))

/* The grey-level spread of a PNG (standard deviation, 0-255) and the share of pixels that are not white. */
static double png_spread(const char *path, double *ink)
{
    png_image im;
    memset(&im, 0, sizeof im);
    im.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&im, path)) return -1;
    im.format = PNG_FORMAT_GRAY;
    png_bytep px = malloc(PNG_IMAGE_SIZE(im));
    if (!png_image_finish_read(&im, NULL, px, 0, NULL)) return free(px), -1;
    double sum = 0, sq = 0;
    size_t n = (size_t)im.width * im.height, dark = 0;
    for (size_t i = 0; i < n; i++) sum += px[i], sq += (double)px[i] * px[i], dark += px[i] < 200;
    free(px);
    *ink = (double)dark / n;
    return sqrt(sq / n - (sum / n) * (sum / n));
}

/* Renders dir/out/<page> in headless Chromium: the screenshot must not be blank; the DOM's text comes back. */
static char *render(const char *page, const char *shot)
{
    static char out[WBT_OUT_MAX];
    char tool[PATH_MAX], png[PATH_MAX], dom[PATH_MAX];
    if (!gr_which("chromium", tool, sizeof tool))
        cr_skip_test("headless Chromium is not installed (make test installs it: apt-get install chromium)");
    snprintf(png, sizeof png, "%s/%s", dir, shot);
    snprintf(dom, sizeof dom, "%s/%s.dom", dir, shot);
    const char *flags = "--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --disable-crash-reporter "
                        "--window-size=1100,1500";
    int rc = wbt_run(out, "cd %s && HOME=%s timeout 120 %s %s --user-data-dir=%s/chrome --screenshot=%s 'file://%s/out/%s'", dir, dir,
                     tool, flags, dir, png, dir, page);
    cr_assert_eq(rc, 0, "chromium --screenshot failed (%d): %s", rc, out);
    double ink = 0, sd = png_spread(png, &ink);
    cr_assert_geq(sd, 0, "%s is not a PNG", png);
    cr_expect_gt(sd, 20, "%s looks blank: grey-level spread %.1f", shot, sd);
    cr_expect_gt(ink, 0.01, "%s looks blank: %.4f of its pixels are not white", shot, ink);
    rc = wbt_run(out, "cd %s && HOME=%s timeout 120 %s %s --user-data-dir=%s/chrome --dump-dom 'file://%s/out/%s' > %s 2>/dev/null", dir,
                 dir, tool, flags, dir, dir, page, dom);
    cr_assert_eq(rc, 0, "chromium --dump-dom failed (%d): %s", rc, out);
    char *text = gr_read_capped(dom, 1 << 24, NULL);
    cr_assert_not_null(text);
    /* kept outside the test's folder, to be looked at: build/test-screens/ */
    wbt_run(out, "mkdir -p build/test-screens && cp %s build/test-screens/%s", png, shot);
    cr_log_info("%s: grey-level spread %.1f, %.1f %% ink (a copy in build/test-screens/)", shot, sd, 100 * ink);
    return text;
}

/* Canvas: loose files named lastfirst[_LATE]_<user id>_<attachment id>_<file>, a re-upload "fake-1.cu", an
 * archive, a near-copy of another student, a roster in Canvas's own export format with a student who
 * handed in nothing. Graded with perf: the pages get every plot. */
Test(course_class, a_canvas_download_with_a_roster_is_graded_paged_and_exported, .timeout = 600)
{
    wbt_skip_if_no_isolation();
    fake_workbook();
    copy_sub("good", "export/smithjohn_101_9001_fake.cu");
    copy_sub("off-by", "export/leeann_LATE_102_9002_fake-1.cu");
    copy_sub("good", "export/kimbo_105_9005_fake.cu");
    char out[WBT_OUT_MAX];
    /* the near-copy: good with its loops' variable renamed */
    cr_assert_eq(wbt_run(out, "sed -i 's/\\bi\\b/k/g' '%s/export/kimbo_105_9005_fake.cu'", dir), 0, "%s", out);
    copy_sub("starter", "z/fake.cu");
    cr_assert_eq(wbt_run(out, "cd %s/z && zip -q ../export/doejane_103_9003_work.zip fake.cu || tar -cf ../export/doejane_103_9003_work.tar fake.cu", dir), 0, "%s", out);
    put("roster.csv", "Student,ID,SIS User ID,SIS Login ID,Section\r\n\"Smith, John\",101,S101,jsmith,A\r\n\"Lee, Ann\",102,S102,alee,B\r\n"
                      "\"Doe, Jane\",103,S103,jdoe,A\r\n\"Kim, Bo\",105,S105,bkim,B\r\n\"Roe, Rich\",104,S104,rroe,A\r\n");
    char *log, extra[PATH_MAX + 64];
    snprintf(extra, sizeof extra, "--roster %s/roster.csv --assignment 'Workbook 1'", dir);
    int rc = grade_class(extra, &log);
    cr_assert_eq(rc, 0, "exit %d\n%s", rc, log ? log : "");
    free(log);
    char *csv = out_file("grades.csv");
    EXPECT_HAS(csv, "\r\nsmithjohn_101,"); /* its performance points depend on this busy CPU's timings */
    EXPECT_HAS(csv, "\r\nleeann_102,0.00,");
    EXPECT_HAS(csv, "\r\ndoejane_103,0.00,");
    free(csv);
    char *cv = out_file("canvas-grades.csv");
    EXPECT_HAS(cv, "Student,ID,SIS User ID,SIS Login ID,Section,Workbook 1\r\nPoints Possible,,,,,8.00\r\n");
    EXPECT_HAS(cv, "\"Smith, John\",101,S101,jsmith,A,");
    EXPECT_HAS(cv, "\"Lee, Ann\",102,S102,alee,B,0.00\r\n");
    EXPECT_HAS(cv, "\"Roe, Rich\",104,S104,rroe,A,\r\n"); /* no submission: an empty cell, Canvas keeps its grade */
    free(cv);
    json_error_t je;
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/out/lms.json", dir);
    json_t *lms = json_load_file(p, 0, &je);
    cr_assert_not_null(lms, "%s", je.text);
    cr_expect_str_eq(json_string_value(json_object_get(lms, "lms")), "canvas");
    cr_expect_eq(json_array_size(json_object_get(lms, "entries")), 4);
    json_decref(lms);
    /* the near-copy pair is listed; the untouched starter is compared with no one */
    snprintf(p, sizeof p, "%s/out/similarity.json", dir);
    json_t *sim = json_load_file(p, 0, &je), *ch = json_array_get(json_object_get(sim, "chapters"), 0), *q;
    cr_assert_not_null(ch, "%s", je.text);
    cr_expect_eq(json_integer_value(json_object_get(ch, "compared")), 3, "the starter's untouched regions are left out");
    int near = 0;
    size_t i;
    json_array_foreach(json_object_get(ch, "pairs"), i, q)
    {
        const char *a = json_string_value(json_object_get(q, "a")), *b = json_string_value(json_object_get(q, "b"));
        near |= !strcmp(a, "kimbo_105") && !strcmp(b, "smithjohn_101") && json_integer_value(json_object_get(q, "percent")) == 100;
        cr_expect(strcmp(a, "doejane_103") && strcmp(b, "doejane_103"));
    }
    cr_expect(near, "the near-copy pair kimbo_105 / smithjohn_101 at 100 %% is missing:\n%s", json_dumps(ch, JSON_INDENT(1)));
    json_t *g = json_array_get(json_object_get(ch, "groups"), 0); /* with leeann_102 (85 %), one group of three */
    cr_expect_eq(json_array_size(json_object_get(ch, "groups")), 1, "%s", json_dumps(ch, JSON_INDENT(1)));
    cr_expect_eq(json_array_size(json_object_get(g, "students")), 3, "%s", json_dumps(ch, JSON_INDENT(1)));
    q = json_array_get(json_object_get(ch, "pairs"), 0);
    const char *shown = json_string_value(json_object_get(q, "passages"));
    cr_expect(json_is_true(json_object_get(q, "shown")) && shown && strstr(shown, "|"), "%s", json_dumps(q, 0));
    json_decref(sim);
    /* the class page as written, then as Chromium renders it */
    char *html = out_file("class.html");
    char gp[PATH_MAX];
    int plots = gr_which("gnuplot", gp, sizeof gp) != 0; /* the GPU machines may have no gnuplot */
    if (plots) EXPECT_HAS(html, "<svg");
    else EXPECT_HAS(html, "gnuplot is not installed (apt-get install gnuplot-nox): plots left out");
    EXPECT_HAS(html, "href=\"smithjohn_101/feedback.html\"");
    EXPECT_HAS(html, "Roe, Rich</td><td>roster</td><td>no submission");
    EXPECT_HAS(html, "off-by-one");
    EXPECT_HAS(html, "Chapter 9: 3 students alike, 3 pairs at or above the threshold");
    free(html);
    char *dom = render("class.html", "class.png");
    EXPECT_HAS(dom, "Score distribution of the graded entries");
    EXPECT_HAS(dom, "Chapter 9 (09-fake)");
    EXPECT_HAS(dom, "full performance points");
    EXPECT_HAS(dom, "speed relative to the reference");
    EXPECT_HAS(dom, "Bug classes named");
    EXPECT_HAS(dom, "Similarity between students");
    EXPECT_HAS(dom, "kimbo_105</a> and <a href=\"smithjohn_101/feedback.html\">smithjohn_101</a>: <span class=\"bad\">100 %");
    EXPECT_HAS(dom, "Kim, Bo");
    free(dom);
    char *fb = out_file("smithjohn_101/feedback.html");
    EXPECT_HAS(fb, "<table>");
    free(fb);
    dom = render("smithjohn_101/feedback.html", "feedback.png");
    EXPECT_HAS(dom, "Feedback: smithjohn_101");
    EXPECT_HAS(dom, "Score: ");
    EXPECT_HAS(dom, "% of this GPU's speed of light");
    if (plots) EXPECT_HAS(dom, "<svg");
    free(dom);
    snprintf(p, sizeof p, "%s/out/smithjohn_101/results.json", dir);
    json_t *res = json_load_file(p, 0, &je);
    cr_assert_not_null(res, "%s", je.text);
    cr_expect_str_eq(json_string_value(json_object_get(res, "output_format")), "md");
    cr_expect(strstr(json_string_value(json_object_get(res, "output")) ?: "", "# Feedback: smithjohn_101"), "results.json carries feedback.md");
    json_decref(res);
}

/* Moodle: a folder per student (its download's "in folders" option) and a loose file with the same prefix.
 * --no-similarity: the page says it was not run. */
Test(course_class, a_moodle_download_is_graded_by_participant, .timeout = 300)
{
    wbt_skip_if_no_isolation();
    fake_workbook();
    copy_sub("good", "export/John Smith_201_assignsubmission_file_/fake.cu");
    copy_sub("off-by", "export/Ann Lee_202_assignsubmission_file_fake.cu");
    put("roster.csv", "Identifier,Full name,Email address,Section\nParticipant 201,John Smith,js@uni.edu,L1\nParticipant 202,Ann Lee,al@uni.edu,L2\n");
    char *log, extra[PATH_MAX + 64];
    snprintf(extra, sizeof extra, "--no-perf --no-sanitizer --no-similarity --roster %s/roster.csv", dir);
    int rc = grade_class(extra, &log);
    cr_assert_eq(rc, 0, "exit %d\n%s", rc, log ? log : "");
    free(log);
    char *csv = out_file("grades.csv");
    EXPECT_HAS(csv, "\r\nJohn Smith_201,4.00,");
    EXPECT_HAS(csv, "\r\nAnn Lee_202,0.00,");
    free(csv);
    char *cv = out_file("canvas-grades.csv");
    EXPECT_HAS(cv, "John Smith,201,,,L1,4.00\r\n"); /* correctness points only: --no-perf --no-sanitizer */
    EXPECT_HAS(cv, "Ann Lee,202,,,L2,0.00\r\n");
    free(cv);
    char *html = out_file("class.html");
    EXPECT_HAS(html, "Not run (turned off with --no-similarity");
    EXPECT_HAS(html, "<td>L2</td>");
    free(html);
}

/* Gradescope: submission_<id> folders and submission_metadata.yml; a group submission of two is one
 * entry and two rows of the Canvas import. */
Test(course_class, a_gradescope_export_is_graded_with_its_submitters, .timeout = 300)
{
    wbt_skip_if_no_isolation();
    fake_workbook();
    copy_sub("good", "export/assignment_1_export/submission_301/chapters/09-fake/fake.cu");
    copy_sub("starter", "export/assignment_1_export/submission_302/fake.cu");
    put("export/assignment_1_export/submission_metadata.yml",
        "submission_301:\n  :submitters:\n  - :name: Solo Student\n    :sid: '100'\n    :email: solo@uni.edu\n  :score: 0.0\n"
        "submission_302:\n  :submitters:\n  - :name: Pair One\n    :sid: '200'\n    :email: one@uni.edu\n  - :name: Pair Two\n"
        "    :sid: '201'\n    :email: two@uni.edu\n");
    char *log;
    int rc = grade_class("--no-perf --no-sanitizer --lms gradescope", &log);
    cr_assert_eq(rc, 0, "exit %d\n%s", rc, log ? log : "");
    free(log);
    char *csv = out_file("grades.csv");
    EXPECT_HAS(csv, "\r\nSolo Student_301,4.00,");
    EXPECT_HAS(csv, "\r\nPair One_302,0.00,");
    free(csv);
    char *cv = out_file("canvas-grades.csv");
    EXPECT_HAS(cv, "Solo Student,301,100,,,4.00\r\n");
    EXPECT_HAS(cv, "Pair One,302,200,,,0.00\r\n");
    EXPECT_HAS(cv, "Pair Two,302,201,,,0.00\r\n");
    free(cv);
}

/* Every cell of a CSV file (libcsv, as a spreadsheet reads it) that would run as a formula: one line each,
 * "" when none. A cell may begin with = + - @ TAB CR only behind an apostrophe, or as a plain number. */
typedef struct {
    gr_str bad;
    int row, col;
    char **ids;   /* the Canvas file's ID column, row by row */
    int n_ids;
} csv_scan;

static void scan_field(void *f, size_t n, void *data)
{
    csv_scan *sc = data;
    char *v = strndup(f ? f : "", f ? n : 0), *end;
    int number = *v && (strtod(v, &end), *end == 0);
    if (*v && strchr("=+-@\t\r", *v) && !number) /* OWASP's list, not the grader's own predicate */ gr_str_addf(&sc->bad, "row %d cell %d: [%s]\n", sc->row, sc->col, v);
    if (sc->col == 1 && sc->n_ids < 64) sc->ids[sc->n_ids++] = strdup(v);
    free(v);
    sc->col++;
}

static void scan_row(int c, void *data)
{
    (void)c;
    csv_scan *sc = data;
    sc->row++, sc->col = 0;
}

static void csv_check(const char *text, csv_scan *sc)
{
    struct csv_parser p;
    cr_assert_eq(csv_init(&p, CSV_STRICT | CSV_STRICT_FINI), 0);
    size_t n = strlen(text);
    cr_expect(csv_parse(&p, text, n, scan_field, scan_row, sc) == n && csv_fini(&p, scan_field, scan_row, sc) == 0,
              "not valid CSV: %s\n%s", csv_strerror(csv_error(&p)), text);
    csv_free(&p);
}

/* Entries named as formulas (issue 40: seen as they are in grades.csv and the Canvas file): no cell of
 * either CSV runs as one, and the Canvas import still finds every student by its ID column. */
Test(course_class, entries_named_as_formulas_are_text_in_every_csv, .timeout = 300)
{
    wbt_skip_if_no_isolation();
    fake_workbook();
    const char *names[] = {"=1+1", "@SUM(1+1)", "=HYPERLINK(\"evil.example\",\"x\")", "-3"};
    for (int i = 0; i < 4; i++) {
        char to[256];
        snprintf(to, sizeof to, "export/%s/fake.cu", names[i]);
        copy_sub("good", to);
    }
    put("roster.csv", "Student,ID,SIS User ID,SIS Login ID,Section\r\n=1+1,301,S301,a,+A\r\n@SUM(1+1),302,S302,b,A\r\n"
                      "\"=HYPERLINK(\"\"evil.example\"\",\"\"x\"\")\",303,S303,c,A\r\n-3,304,S304,d,A\r\n");
    char *log, extra[PATH_MAX + 64];
    snprintf(extra, sizeof extra, "--no-perf --no-sanitizer --no-similarity --lms plain --roster %s/roster.csv", dir);
    int rc = grade_class(extra, &log);
    cr_assert_eq(rc, 0, "exit %d\n%s", rc, log ? log : "");
    /* its progress on stderr: a line per entry, no screen-control code (the log is no terminal) */
    EXPECT_HAS(log, "grade: 1/4 entries done, ");
    EXPECT_HAS(log, "grade: all 4 entries done in ");
    cr_expect_null(strchr(log, '\033'), "an escape sequence in a log:\n%s", log);
    free(log);
    const char *files[] = {"grades.csv", "canvas-grades.csv"};
    for (int f = 0; f < 2; f++) {
        char *text = out_file(files[f]), *ids[64];
        csv_scan sc = {.ids = ids};
        csv_check(text, &sc);
        cr_expect_str_eq(gr_str_c(&sc.bad), "", "%s has cells that run as formulas:\n%s", files[f], text);
        if (f == 0) {
            EXPECT_HAS(text, "\r\n'=1+1,4.00,"); /* the name as text, the scores as numbers */
            EXPECT_HAS(text, "\r\n'-3,4.00,");
        } else { /* Canvas matches by ID: every student's, unchanged, with a score */
            const char *want[] = {"301", "302", "303", "304"};
            for (int i = 0; i < 4; i++) {
                int found = 0;
                for (int k = 0; k < sc.n_ids; k++) found |= !strcmp(ids[k], want[i]);
                cr_expect(found, "ID %s is not in the Canvas file:\n%s", want[i], text);
            }
            EXPECT_HAS(text, "\"'=HYPERLINK(\"\"evil.example\"\",\"\"x\"\")\",303,S303,c,A,4.00\r\n");
            EXPECT_HAS(text, "'-3,304,S304,d,A,4.00\r\n");
            EXPECT_HAS(text, "'=1+1,301,S301,a,'+A,4.00\r\n");
        }
        for (int k = 0; k < sc.n_ids; k++) free(ids[k]);
        gr_str_free(&sc.bad);
        free(text);
    }
}

/* The scratch folders (wb-*) in dir/tmp, their names in names. */
static int scratch_left(const char *tmp, char *names, size_t len)
{
    DIR *d = opendir(tmp);
    struct dirent *e;
    int n = 0;
    names[0] = 0;
    while (d && (e = readdir(d)))
        if (!strncmp(e->d_name, "wb-", 3) && ++n) snprintf(names + strlen(names), len - strlen(names), " %s", e->d_name);
    if (d) closedir(d);
    return n;
}

/* Ctrl-C midway through a class (its process group interrupted, as a terminal does): its graders' work trees and
 * its kept runs go with it (grading/janitor.h) rather than stay in TMPDIR on a shared server. */
Test(course_class, a_class_stopped_midway_leaves_no_scratch_folder, .timeout = 180)
{
    wbt_skip_if_no_isolation();
    fake_workbook();
    copy_sub("hang", "export/ann/fake.cu"); /* its time limit keeps the class going */
    copy_sub("good", "export/bob/fake.cu");
    copy_sub("hang", "export/cy/fake.cu");
    char tmp[PATH_MAX + 8], grade[PATH_MAX], path[PATH_MAX * 2], names[1024], out[256];
    cr_assert_not_null(realpath("build/course", grade), "build/course is not built");
    snprintf(tmp, sizeof tmp, "%s/tmp", dir);
    mkdir(tmp, 0755);
    wbt_run(out, "chmod -R a+rX %s", dir);
    snprintf(path, sizeof path, "%s/bin:%s", dir, getenv("PATH"));
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        signal(SIGINT, SIG_DFL); /* a test runner started in the background ignores it, and so would its children */
        int log = chdir(dir) ? -1 : open("class.log", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (log < 0 || dup2(log, 1) < 0 || dup2(log, 2) < 0) _exit(126);
        setenv("TMPDIR", tmp, 1), setenv("WB_GRADE_LOCK_DIR", dir, 1), setenv("PATH", path, 1);
        execl(grade, grade, "--class", "export", "--out", "out", "--seeds", "5", "--jobs", "2", "--rubric", "rubric.json",
              "--no-similarity", "--lms", "plain", (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);
    int seen = 0;
    for (int i = 0; i < 600 && !(seen = scratch_left(tmp, names, sizeof names) >= 2); i++) usleep(100 * 1000);
    cr_assert(seen, "no grader's work tree appeared in %s within a minute:%s", tmp, names);
    usleep(500 * 1000);
    kill(-pid, SIGINT);
    int st;
    waitpid(pid, &st, 0);
    cr_expect(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT, "the class was not stopped by Ctrl-C (status %d)", st);
    int left = 1;
    for (int i = 0; i < 100 && (left = scratch_left(tmp, names, sizeof names)); i++) usleep(100 * 1000);
    cr_expect_eq(left, 0, "left in TMPDIR 10 s after the class was stopped:%s", names);
}

/* Bad input: one line and exit 2, before anything is graded. */
Test(course_class, a_bad_roster_or_layout_is_one_line_and_exit_2, .timeout = 120)
{
    /* no isolation needed: the command line and the roster are refused before the grader asks for it */
    fake_workbook();
    copy_sub("good", "export/good/fake.cu");
    put("roster.csv", "what,ever\n1,2\n");
    char *log, extra[PATH_MAX + 64];
    snprintf(extra, sizeof extra, "--roster %s/roster.csv", dir);
    int rc = grade_class(extra, &log);
    cr_expect_eq(rc, 2, "%s", log);
    cr_expect(log && strstr(log, "names no id, name or email column"), "%s", log);
    free(log);
    rc = grade_class("--lms blackboard", &log);
    cr_expect_eq(rc, 2, "%s", log);
    cr_expect(log && strstr(log, "--lms is auto, canvas, moodle, gradescope or plain, not blackboard"), "%s", log);
    free(log);
    rc = grade_class("--similarity 0", &log);
    cr_expect_eq(rc, 2, "%s", log);
    free(log);
}

/* A class graded in one chapter (make grade-class CH=1): the page says so for the others in one line,
 * with no empty tables or plots (on the H100 the class-demo page showed four empty chapters). */
Test(course, a_chapter_no_entry_was_graded_in_is_one_line, .init = setup, .fini = teardown)
{
    put("out/roster.json", "[{\"student\": \"a\", \"entry\": \"a\", \"folder\": \"a\"}]\n");
    put("out/a/grading.json",
        "{\"student\":\"a\",\"mode\":\"grade\",\"status\":\"graded\",\"score\":4,\"max_score\":17,\"gpu_seconds\":1,"
        "\"execution_time\":1,\"isolation\":\"x\",\"error\":\"\",\"seeds\":[1],\"chapters\":[{\"number\":1,\"status\":\"graded\","
        "\"score\":4,\"max_score\":17,\"seconds\":1,\"variants\":[{\"variant\":\"global\",\"verdict\":\"PASS\",\"score\":4,"
        "\"max_score\":4,\"correct_points\":2,\"perf_points\":1,\"sanitizer_points\":1,\"sanitizer_finding\":false,"
        "\"sanitizer\":\"clean\",\"time_ratio\":1.0,\"diagnosis\":null,\"caught\":[]}]}]}\n");
    static gr_rubric rub;
    char err[300];
    cr_assert_eq(gr_rubric_load_at(".", "grading/rubric.json", &rub, err, sizeof err), 0, "%s", err);
    char out[PATH_MAX];
    snprintf(out, sizeof out, "%s/out", dir);
    cr_assert_geq(gr_class_page(out, &rub), 0);
    char *html = out_file("class.html");
    int empty = 0;
    for (const char *p = html; (p = strstr(p, "No entry was graded in this chapter")); p++) empty++;
    cr_expect_eq(empty, rub.n_ch - 1, "every chapter but the graded one in one line:\n%s", html);
    char *c1 = strstr(html, "<h3>Chapter 1 ");
    cr_assert_not_null(c1);
    cr_expect(!strncmp(strchr(c1, '\n') + 1, "<table>", 7), "chapter 1 keeps its table");
    free(html);
}
