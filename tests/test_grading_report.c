/* The grader's writers and readers that need no GPU: the report writers (results.json against the Gradescope
 * schema, grades.csv against RFC 4180, feedback.md), compute-sanitizer's captured output read, and a
 * correctness line that names a written input. */
#define _GNU_SOURCE 1
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "wbrubric.h"

#include "correctness.h"
#include "grades.h"
#include "report.h"
#include "sanitizer.h"

/* ---------------------------------------------------------------- reports */
static void sample(gr_sub_result *s)
{
    memset(s, 0, sizeof *s);
    snprintf(s->student, sizeof s->student, "ada \"the\" lovelace, jr");
    s->mode = GR_MODE_GRADE;
    s->n_seeds = 2;
    s->seeds[0] = 11;
    s->seeds[1] = 12;
    snprintf(s->isolation, sizeof s->isolation, "bubblewrap, uid 65534");
    s->n_ch = 2;
    gr_ch_result *a = &s->ch[0], *b = &s->ch[1];
    a->number = 1;
    snprintf(a->dir, sizeof a->dir, "01-reversal");
    a->status = GR_CH_GRADED;
    a->n_v = 2;
    gr_var_result *v = &a->v[0];
    snprintf(v->name, sizeof v->name, "global");
    v->rub = (gr_variant_rubric){.name = "global", .correct = 2, .perf = 1, .sanitizer = 1};
    v->verdict = GR_V_PASS;
    v->correct_pts = 2;
    v->san_state = GR_SANV_CLEAN;
    v->san_pts = 1;
    v->perf_ran = 1;
    v->ratio = 1.5;
    v->perf_pts = 0.6;
    v = &a->v[1];
    snprintf(v->name, sizeof v->name, "vector");
    v->rub = (gr_variant_rubric){.name = "vector", .correct = 2, .perf = 2, .sanitizer = 1};
    v->verdict = GR_V_WRONG;
    /* student-controlled text (what the program printed on stderr): backticks, invalid UTF-8, quotes */
    v->seen.lost = GR_LOST_RAN;
    snprintf(v->seen.lost_how, sizeof v->seen.lost_how, "exited with code 1");
    snprintf(v->seen.lost_tail, sizeof v->seen.lost_tail, "first mismatch ```` \xff\xfe \"quoted\"\nHint: x");
    b->number = 2;
    snprintf(b->dir, sizeof b->dir, "02-adjdiff");
    b->status = GR_CH_BUILD_FAILED;
    snprintf(b->reason, sizeof b->reason, "nvcc exited with code 2");
    b->compile_log = strdup("adjdiff.cu(55): error: expected a \";\"\n");
    b->n_v = 1;
    snprintf(b->v[0].name, sizeof b->v[0].name, "naive");
    b->v[0].rub = (gr_variant_rubric){.name = "naive", .correct = 3, .perf = 0, .sanitizer = 0};
    gr_sub_totals(s);
}

/* The sample result, and the path of a file `name` in a fresh folder for a writer's output. */
static void sample_and_path(gr_sub_result *s, char *path, size_t len, const char *name)
{
    sample(s);
    char dir[64];
    wbt_tmpdir(dir, sizeof dir);
    snprintf(path, len, "%s/%s", dir, name);
}

Test(grading_report, results_json_follows_the_gradescope_schema)
{
    static gr_sub_result s;
    char path[128];
    sample_and_path(&s, path, sizeof path, "results.json");
    cr_assert_eq(gr_write_results_json(path, &s, NULL), 0);
    json_error_t e;
    json_t *root = json_load_file(path, 0, &e);
    cr_assert_not_null(root, "invalid JSON: %s", e.text);
    cr_assert(json_is_number(json_object_get(root, "score")));
    cr_assert(json_is_number(json_object_get(root, "execution_time")));
    json_t *tests = json_object_get(root, "tests");
    cr_assert(json_is_array(tests));
    double sum = 0, max = 0;
    size_t i;
    json_t *t;
    json_array_foreach(tests, i, t)
    {
        const char *keys[] = {"name", "score", "max_score", "status", "output", "visibility"};
        for (int k = 0; k < 6; k++) cr_assert_not_null(json_object_get(t, keys[k]), "test %zu lacks %s", i, keys[k]);
        cr_assert(json_is_string(json_object_get(t, "name")));
        cr_assert(json_is_number(json_object_get(t, "score")));
        cr_assert(json_is_number(json_object_get(t, "max_score")));
        const char *st = json_string_value(json_object_get(t, "status"));
        cr_assert(st && (!strcmp(st, "passed") || !strcmp(st, "failed")), "status %s", st);
        const char *vis = json_string_value(json_object_get(t, "visibility"));
        cr_assert(vis && (!strcmp(vis, "visible") || !strcmp(vis, "hidden") || !strcmp(vis, "after_due_date") ||
                          !strcmp(vis, "after_published")));
        sum += json_number_value(json_object_get(t, "score"));
        max += json_number_value(json_object_get(t, "max_score"));
    }
    cr_assert_float_eq(sum, json_number_value(json_object_get(root, "score")), 1e-9, "tests add up to the score");
    cr_assert_float_eq(max, s.max, 1e-9, "and to the maximum");
    cr_assert_float_eq(s.score, 2 + 1 + 0.6, 1e-9);
    /* the invalid UTF-8 became U+FFFD rather than breaking the file */
    char *text = gr_read_capped(path, 1 << 20, NULL);
    cr_assert(strstr(text, "\\ufffd") || strstr(text, "\xEF\xBF\xBD"), "%s", text);
    cr_assert(strstr(text, "expected a \\\";\\\""), "the compile log is in the build failure's output");
    free(text);
    json_decref(root);
    free(s.ch[1].compile_log);
}

/* The four reports of one grading, the feedback rendered once: results.json's output is feedback.md byte for
 * byte (after why, when not graded), feedback.html shows it, grading.json is the one gr_write_grading_json writes. */
Test(grading_report, report_files_carry_one_rendering_of_the_feedback)
{
    static gr_sub_result s;
    char dir[64], path[128];
    wbt_tmpdir(dir, sizeof dir);
    for (int graded = 1; graded >= 0; graded--) {
        sample(&s);
        if (!graded) snprintf(s.error, sizeof s.error, "cannot unpack, \"bad\" zip");
        cr_assert_eq(gr_write_report_files(dir, &s, "x", 0), 0);
        snprintf(path, sizeof path, "%s/feedback.md", dir);
        char *md = gr_read_capped(path, 1 << 20, NULL);
        cr_assert(md && strstr(md, "# Feedback: ada"), "%s", md);
        cr_expect(strstr(md, "Random seeds of this run: `11,12` (replay: `make grade SUB=x SEEDS=11,12`)"), "%s", md);
        snprintf(path, sizeof path, "%s/results.json", dir);
        json_t *r = json_load_file(path, 0, NULL);
        cr_assert_not_null(r);
        cr_expect_str_eq(json_string_value(json_object_get(r, "output_format")), "md");
        char want[1 << 14];
        snprintf(want, sizeof want, "%s%s", graded ? "" : "Not graded: cannot unpack, \"bad\" zip Seeds: 11,12. "
                                                          "Isolation: bubblewrap, uid 65534.\n\n", md);
        /* feedback.md's invalid UTF-8 is U+FFFD in JSON */
        json_t *clean = gr_jstr(want);
        cr_expect_str_eq(json_string_value(json_object_get(r, "output")), json_string_value(clean));
        cr_expect_eq(json_is_number(json_object_get(r, "score")), graded, "a score only where graded");
        json_decref(clean);
        json_decref(r);
        snprintf(path, sizeof path, "%s/grading.json", dir);
        char *g = gr_read_capped(path, 1 << 20, NULL);
        snprintf(path, sizeof path, "%s/alone.json", dir);
        cr_assert_eq(gr_write_grading_json(path, &s), 0);
        char *alone = gr_read_capped(path, 1 << 20, NULL);
        cr_expect_str_eq(g, alone, "grading.json as its own writer writes it");
        snprintf(path, sizeof path, "%s/feedback.html", dir);
        char *html = gr_read_capped(path, 1 << 20, NULL);
        cr_expect(html && strstr(html, "<title>Feedback: ada") && strstr(html, "<table>") &&
                      strstr(html, "Speed of light"), "%s", html);
        free(md);
        free(g);
        free(alone);
        free(html);
        free(s.ch[1].compile_log);
    }
    /* the practice run's replay: make check, its CH when one was named */
    for (int only = 0; only < 2; only++) {
        sample(&s);
        s.mode = GR_MODE_CHECK;
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        gr_write_feedback(f, &s, "ignored", only ? 3 : 0);
        fclose(f);
        cr_expect(strstr(text, only ? "(replay: `make check SEEDS=11,12 CH=…`)" : "(replay: `make check SEEDS=11,12`)"),
                  "%s", text);
        free(text);
        free(s.ch[1].compile_log);
    }
}

/* A small RFC 4180 reader: fields, quotes doubled inside quoted fields, CRLF records. */
/* A row of grades.csv: the student, a column per chapter (as many as the workbook has folders), total, max,
 * note. Sized by GR_MAX_CH, never by today's count: seven chapters overran a row of eight. */
#define CSV_COLS (GR_MAX_CH + 4)

static int csv_parse(const char *s, char fields[][CSV_COLS][128], int max_rows)
{
    int row = 0, col = 0;
    size_t k = 0;
    while (*s && row < max_rows) {
        if (*s == '"') {
            s++;
            while (*s && !(*s == '"' && s[1] != '"')) {
                if (*s == '"') s++;
                fields[row][col][k++] = *s++;
            }
            cr_assert_eq(*s, '"', "unterminated quoted field");
            s++;
        }
        while (*s && *s != ',' && *s != '\r' && *s != '\n') {
            cr_assert_neq(*s, '"', "a quote in an unquoted field");
            fields[row][col][k++] = *s++;
        }
        fields[row][col][k] = 0;
        k = 0;
        if (*s == ',') {
            cr_assert_lt(++col, CSV_COLS, "more than %d columns", CSV_COLS);
            s++;
        } else if (*s == '\r') {
            cr_assert_eq(s[1], '\n', "records end with CRLF");
            s += 2;
            row++;
            col = 0;
        } else if (*s) cr_assert_fail("bare LF");
    }
    return row;
}

Test(grading_report, grades_csv_is_rfc4180_and_the_summary_adds_up)
{
    static gr_sub_result s;
    static gr_rubric r;
    wbr_load_real(&r);
    char dir[64], sd[160], path[256];
    wbt_tmpdir(dir, sizeof dir);
    const char *who[] = {"ada \"the\" lovelace, jr", "bob\nnewline", "carl"};
    for (int k = 0; k < 3; k++) {
        sample(&s);
        snprintf(s.student, sizeof s.student, "%s", who[k]);
        if (k == 2) snprintf(s.error, sizeof s.error, "cannot unpack, \"bad\" zip");
        snprintf(sd, sizeof sd, "%s/s%d", dir, k);
        gr_mkdirs(sd, 0755);
        snprintf(path, sizeof path, "%s/grading.json", sd);
        cr_assert_eq(gr_write_grading_json(path, &s), 0);
        free(s.ch[1].compile_log);
    }
    cr_assert_eq(gr_write_class(dir, &r, NULL), 2, "carl, whose submission could not be read, was not graded");
    snprintf(path, sizeof path, "%s/grades.csv", dir);
    char *csv = gr_read_capped(path, 1 << 20, NULL);
    cr_assert_not_null(csv);
    static char f[8][CSV_COLS][128];
    int rows = csv_parse(csv, f, 8);
    cr_assert_eq(rows, 4, "header + 3 students:\n%s", csv);
    cr_assert_str_eq(f[0][0], "student");
    cr_assert_str_eq(f[0][1], "ch1");
    cr_assert_str_eq(f[1][0], "ada \"the\" lovelace, jr");
    cr_assert_str_eq(f[2][0], "bob\nnewline");
    cr_assert_str_eq(f[1][1], "3.60", "chapter 1's points");
    cr_assert_str_eq(f[1][2], "0.00", "chapter 2 failed to build");
    int total_col = 1 + r.n_ch;
    cr_assert_str_eq(f[1][total_col], "3.60");
    cr_assert_str_eq(f[3][total_col + 2], "cannot unpack, \"bad\" zip");
    cr_assert_str_eq(f[3][1], "", "not graded: no score, the reason beside it");
    cr_assert_str_eq(f[3][total_col], "");
    free(csv);
    snprintf(path, sizeof path, "%s/summary.md", dir);
    char *sum = gr_read_capped(path, 1 << 20, NULL);
    cr_assert(sum && strstr(sum, "3 entries; 1 could not be graded") && strstr(sum, "2 submissions graded") &&
                  strstr(sum, "3 with a chapter or more not graded"),
              "%s", sum);
    free(sum);
}

Test(grading_report, feedback_md_fences_student_text)
{
    static gr_sub_result s;
    char path[128];
    sample_and_path(&s, path, sizeof path, "feedback.md");
    FILE *f = fopen(path, "w");
    gr_write_feedback(f, &s, "x", 0);
    fclose(f);
    char *md = gr_read_capped(path, 1 << 20, NULL);
    cr_assert(strstr(md, "**Score: 3.6 / 12.0**"), "%s", md);
    cr_assert(strstr(md, "`11,12`"), "the seeds are recorded");
    cr_assert(strstr(md, "| vector | WRONG |"), "%s", md);
    cr_assert(strstr(md, "`````text\n"), "a fence longer than the student's ```` run");
    cr_assert(strstr(md, "**build failed**"));
    cr_assert(!strstr(md, "Sanitizer: not checked"), "every sanitizer run finished:\n%s", md);
    free(md);
    /* A sanitizer run that did not finish: the table says "not checked", the text below it why. */
    s.ch[0].v[0].san_state = GR_SANV_UNFINISHED;
    s.ch[0].v[0].san_pts = 0;
    snprintf(s.ch[0].v[0].san, sizeof s.ch[0].v[0].san,
             "compute-sanitizer --tool racecheck did not finish (killed after 120 s): ========= RACECHECK");
    f = fopen(path, "w");
    gr_write_feedback(f, &s, "x", 0);
    fclose(f);
    md = gr_read_capped(path, 1 << 20, NULL);
    cr_assert(strstr(md, "| global | PASS | 2.0 / 2.0 | not checked |"), "%s", md);
    cr_assert(strstr(md, "Sanitizer: not checked, so no sanitizer points") &&
              strstr(md, "--tool racecheck did not finish (killed after 120 s)"), "%s", md);
    free(md);
    free(s.ch[1].compile_log);
}

/* ---------------------------------------------------------------- compute-sanitizer's output */
struct captured {
    const char *file, *kernel, *first;
    int errors;
};
ParameterizedTestParameters(grading_sanitizer, reads_the_captured_outputs)
{
    static struct captured cases[] = {
        {"sanitizer_memcheck_clean.txt", NULL, NULL, 0},
        {"sanitizer_memcheck_oob.txt", "planted_out_of_bounds", "========= Invalid __global__ write", 2},
        {"sanitizer_racecheck_clean.txt", NULL, NULL, 0},
        {"sanitizer_racecheck_race.txt", "planted_race", "========= Error: Race reported", 2},
        {"sanitizer_synccheck_bad_syncwarp.txt", "planted_bad_syncwarp", "========= Barrier error", 1280},
        {"sanitizer_initcheck_uninit.txt", "planted_uninitialized", "========= Uninitialized __global__", 2062},
    };
    return cr_make_param_array(struct captured, cases, sizeof cases / sizeof cases[0]);
}
ParameterizedTest(struct captured *c, grading_sanitizer, reads_the_captured_outputs)
{
    char path[256];
    snprintf(path, sizeof path, "tests/captured/%s", c->file);
    char *text = gr_read_capped(path, 1 << 22, NULL);
    if (!text) cr_skip_test("%s is not here", path);
    gr_san_report rep;
    gr_san_parse(text, &rep);
    cr_assert(rep.found_summary, "%s: no summary line found", c->file);
    cr_assert_eq(rep.errors, c->errors, "%s: %ld errors", c->file, rep.errors);
    if (c->kernel) {
        char k[128];
        snprintf(k, sizeof k, "some_other_kernel,%s", c->kernel);
        cr_assert(gr_san_kernel_in(text, k), "%s names %s", c->file, c->kernel);
        cr_assert(!gr_san_kernel_in(text, "planted_race_free"), "a different kernel is not named");
        char first[600];
        gr_san_first_excerpt(text, first, sizeof first);
        cr_assert(strncmp(first, c->first, strlen(c->first)) == 0, "%s: first finding '%s'", c->file, first);
    }
    free(text);
}

Test(grading_sanitizer, no_summary_means_the_tool_did_not_finish)
{
    gr_san_report rep;
    gr_san_parse("========= COMPUTE-SANITIZER\n========= Error: Target application terminated\n", &rep);
    cr_assert_eq(gr_san_findings(&rep), 0);
    cr_assert_eq(rep.found_summary, 0);
}

/* The dump runs' JSON lines (grading/correctness.c): a line that says its variant wrote an input names it
 * and where; a clean line, another variant or size, or no lines give nothing. */
Test(grading_correctness, a_line_that_wrote_its_input_names_it)
{
    const char *text = "{\"variant\":\"global\",\"size\":\"257\",\"verdict\":\"FAIL\",\"" WB_JSON_INPUT_WRITTEN
                       "\":3,\"" WB_JSON_INPUT_WRITTEN_NAME "\":\"input 0\"}\n"
                       "{\"variant\":\"global\",\"size\":\"2\",\"verdict\":\"PASS\"}\n"
                       "{\"variant\":\"vector\",\"size\":\"257\",\"verdict\":\"PASS\"}\n";
    char err[200];
    wb_row row;
    json_t *lines = wb_jsonl_parse(text, strlen(text), err, sizeof err);
    cr_assert_not_null(lines, "%s", err);
    cr_assert_eq(gr_rows_input_written(lines, "global", "257", &row), 1);
    cr_assert_str_eq(row.input_written_name, "input 0");
    cr_assert_eq(row.input_written, 3);
    cr_assert_eq(gr_rows_input_written(lines, "global", "2", &row), 0, "a clean line");
    cr_assert_eq(gr_rows_input_written(lines, "vector", "257", &row), 0, "another variant");
    cr_assert_eq(gr_rows_input_written(lines, "global", "31", &row), 0, "no line of that size");
    cr_assert_eq(gr_rows_input_written(NULL, "global", "257", &row), 0, "no lines at all");
    json_decref(lines);
}
