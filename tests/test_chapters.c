/* Every chapter's common checks, one parameterised test per shape over the chapters found on disk
 * (chapters/NN-name/ with a chapter.json): its facts against its program's --list, the untouched
 * starter, the JSON table's reference row and numbers, bad command lines (the contract's and the
 * chapter's own), --help and --list, compute-sanitizer on each variant. What only one chapter has (its
 * independent oracle, its own table columns) stays in tests/test_chN.c. A new chapter is tested here
 * from its folder alone: the fake chapter of tests/grading/fake/ shows it. */
#include "wbrubric.h"

/* One case of a parameterised test: plain arrays, no pointers (Criterion copies the parameters). */
typedef struct {
    int number;
    char dir[128];
    char variant[64];
    char tool[16];
    char args[96];
} wbc_case;

#define WBC_MAX 512

/* Bad command lines every chapter refuses (common/wb.h's parser); a chapter adds its own (tests.bad_usage). */
static const char *const wbc_bad_common[] = {"--frobnicate", "--reps 0", "--size", "--variant nope", "--dump /nonexistent/dir",
                                             /* issue 28: paths are checked before the GPU probe (no GPU: exit 2, not 3) */
                                             "--json /nonexistent/r.json", "--json /", "--dump /etc/passwd"};
#define WBC_N_BAD_COMMON (int)(sizeof wbc_bad_common / sizeof wbc_bad_common[0])

/* The chapters of the workbook at root, facts loaded (at most max); -1 with err when one does not load. */
static int wbc_chapters(const char *root, gr_chapter_rubric *ch, int max, char *err, size_t elen)
{
    char dirs[GR_MAX_CH][128];
    int n = gr_chapters_scan(root, dirs, max < GR_MAX_CH ? max : GR_MAX_CH);
    for (int c = 0; c < n; c++)
        if (gr_chapter_load(root, dirs[c], &ch[c], err, elen)) return -1;
    return n;
}

static gr_chapter_rubric wbc_ch[GR_MAX_CH];

/* The chapters of this workbook (no assertion may run while parameters are made: a chapter that does not
 * load gives no cases here, and facts_are_valid_and_match_the_program fails on it). */
static int wbc_here(void)
{
    char err[400];
    int n = wbc_chapters(".", wbc_ch, GR_MAX_CH, err, sizeof err);
    return n < 0 ? 0 : n;
}

static wbc_case wbc_of(const gr_chapter_rubric *ch)
{
    wbc_case k;
    memset(&k, 0, sizeof k);
    k.number = ch->number;
    snprintf(k.dir, sizeof k.dir, "%s", ch->dir);
    return k;
}

/* The program paths of chapter n in the workbook at root: its starter and the program the variant tests
 * check (the reference; the student's own in the student release). */
static void wbc_programs(const char *root, int n, char *starter, char *solution, size_t len)
{
    snprintf(starter, len, "%s/build/chapter%d", root, n);
    snprintf(solution, len, "%s/%s%d", root, WBT_SOLUTION + 2, n);
}

/* The chapter's "tests" section, checked: known keys, sizes the program takes, lists of the right shape. */
static json_t *wbc_tests_section(json_t *facts, const gr_chapter_rubric *ch)
{
    json_t *t = json_object_get(facts, "tests");
    cr_assert(json_is_object(t), "chapters/%s/chapter.json: no \"tests\" object", ch->dir);
    const char *known[] = {"comment",   "starter_size",   "json_size",    "unit",
                           "bad_usage", "sanitizer",      "sanitizer_size", "grading_sizes"};
    const char *k;
    json_t *v;
    json_object_foreach(t, k, v)
    {
        int ok = 0;
        for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) ok |= !strcmp(k, known[i]);
        cr_assert(ok, "chapters/%s/chapter.json: tests: unknown key '%s'", ch->dir, k);
    }
    const char *sizes[] = {"starter_size", "json_size"};
    gr_size z;
    for (int i = 0; i < 2; i++)
        cr_assert(wbt_fact_str(t, sizes[i]) && gr_size_parse(wbt_fact_str(t, sizes[i]), &z) == 0,
                  "chapters/%s/chapter.json: tests.%s", ch->dir, sizes[i]);
    cr_assert(!json_object_get(t, "sanitizer_size") || gr_size_parse(wbt_fact_str(t, "sanitizer_size"), &z) == 0,
              "chapters/%s/chapter.json: tests.sanitizer_size", ch->dir);
    cr_assert(wbt_fact_str(t, "unit"), "chapters/%s/chapter.json: tests.unit", ch->dir);
    json_t *bad = json_object_get(t, "bad_usage"), *san = json_object_get(t, "sanitizer"), *gs = json_object_get(t, "grading_sizes");
    size_t i;
    cr_assert(!gs || (json_is_array(gs) && json_array_size(gs) >= 1), "chapters/%s/chapter.json: tests.grading_sizes is a list",
              ch->dir);
    json_array_foreach(gs, i, v) cr_assert(json_is_string(v) && gr_size_parse(json_string_value(v), &z) == 0,
                                           "chapters/%s/chapter.json: tests.grading_sizes[%zu]", ch->dir, i);
    json_array_foreach(bad, i, v) cr_assert(json_is_string(v), "chapters/%s/chapter.json: tests.bad_usage[%zu]", ch->dir, i);
    json_array_foreach(san, i, v)
    {
        const char *tool = json_string_value(json_array_get(v, 0)), *var = json_string_value(json_array_get(v, 1));
        cr_assert(json_array_size(v) == 2 && tool && var && gr_rubric_variant(ch, var),
                  "chapters/%s/chapter.json: tests.sanitizer[%zu] must be [tool, one of its variants]", ch->dir, i);
    }
    return t;
}

/* The facts load, their tests section is sound, and the variants are the program's, in its order, each
 * with the idea the program names for it. */
static void wbc_check_facts(const char *root, const char *dir)
{
    char err[400], starter[512], solution[512];
    static gr_chapter_rubric ch;
    cr_assert_eq(gr_chapter_load(root, dir, &ch, err, sizeof err), 0, "%s", err);
    json_t *facts = wbt_chapter_json(root, ch.number, NULL, 0);
    cr_assert_not_null(facts);
    wbc_tests_section(facts, &ch);
    json_decref(facts);
    wbc_programs(root, ch.number, starter, solution, sizeof starter);
    static char out[WBT_OUT_MAX];
    cr_assert_eq(wbt_run(out, "%s --list --json -", starter), 0, "%s", out);
    char msg[300];
    json_t *listed = wb_jsonl_parse(out, strlen(out), msg, sizeof msg);
    cr_assert_not_null(listed, "%s --list --json: %s", starter, msg);
    cr_assert_eq(json_array_size(listed), (size_t)ch.n_var, "%s lists %zu variants, chapters/%s/chapter.json %d", starter,
                 json_array_size(listed), dir, ch.n_var);
    for (int v = 0; v < ch.n_var; v++) {
        json_t *o = json_array_get(listed, (size_t)v);
        cr_expect_str_eq(json_string_value(json_object_get(o, "variant")), ch.var[v].name, "chapter %d, variant %d", ch.number, v);
        const char *idea = json_string_value(json_object_get(o, "idea"));
        cr_expect(idea && idea[0], "chapter %d, %s: --list names no idea", ch.number, ch.var[v].name);
    }
    json_decref(listed);
}

/* The untouched starter: every variant TODO but a given one (the worked example), which passes. */
static void wbc_check_starter(const char *root, const gr_chapter_rubric *ch)
{
    char starter[512], solution[512], cmd[700];
    static char out[WBT_OUT_MAX];
    int rc;
    json_t *facts = wbt_chapter_json(root, ch->number, NULL, 0);
    wbc_programs(root, ch->number, starter, solution, sizeof starter);
    snprintf(cmd, sizeof cmd, "%s --size %s --reps 1 --warmup 0", starter, wbt_fact_str(facts, "tests.starter_size"));
    json_decref(facts);
    json_t *lines = wbt_run_json(out, &rc, cmd);
    cr_assert_eq(rc, WB_EXIT_WRONG, "the untouched starter must exit %d, got %d\n%s", WB_EXIT_WRONG, rc, out);
    for (int v = 0; v < ch->n_var; v++) {
        const char *verdict = wbt_verdict_of(lines, ch->var[v].name);
        cr_assert_not_null(verdict, "no JSON line for %s", ch->var[v].name);
        cr_assert_str_eq(verdict, ch->var[v].given ? "PASS" : "TODO", "%s is %s\n%s", ch->var[v].name, verdict, out);
    }
    cr_assert(strstr(out, "TODO") && strstr(out, "FAIL"), "%s", out);
    json_decref(lines);
}

/* The table as JSON lines: the speed-of-light row first, then every variant, with sane numbers. */
static void wbc_check_json(const char *root, const gr_chapter_rubric *ch)
{
    static char out[WBT_OUT_MAX];
    int rc;
    json_t *facts = wbt_chapter_json(root, ch->number, NULL, 0);
    const char *size = wbt_fact_str(facts, "tests.json_size"), *unit = wbt_fact_str(facts, "tests.unit");
    json_t *lines = wbt_table_json(root, ch->number, out, &rc);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert_eq(json_array_size(lines), 1u + ch->n_var, "speed-of-light row + %d variants\n%s", ch->n_var, out);
    size_t i;
    json_t *o;
    json_array_foreach(lines, i, o)
    {
        cr_assert_gt(json_number_value(json_object_get(o, "median_ms")), 0.0, "row %zu", i);
        cr_assert_gt(json_number_value(json_object_get(o, "throughput")), 0.0, "row %zu", i);
        cr_assert_str_eq(json_string_value(json_object_get(o, "unit")), unit);
        cr_assert_str_eq(json_string_value(json_object_get(o, "size")), size);
    }
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(lines, 0), "verdict")), "REFERENCE");
    json_decref(lines);
    json_decref(facts);
}

/* ---------------------------------------------------------------- one case per chapter */
static struct criterion_test_params wbc_per_chapter(void)
{
    static wbc_case cases[GR_MAX_CH];
    int n = wbc_here();
    for (int c = 0; c < n; c++) cases[c] = wbc_of(&wbc_ch[c]);
    return cr_make_param_array(wbc_case, cases, n);
}

ParameterizedTestParameters(chapters, facts_are_valid_and_match_the_program)
{
    return wbc_per_chapter();
}
ParameterizedTest(wbc_case *k, chapters, facts_are_valid_and_match_the_program)
{
    wbc_check_facts(".", k->dir);
}

/* Every chapter folder of this workbook has facts that load (a broken one would give no cases above). */
Test(chapters, every_chapter_folder_has_facts_that_load)
{
    char err[400];
    cr_assert_geq(wbc_chapters(".", wbc_ch, GR_MAX_CH, err, sizeof err), 1, "%s", err);
    DIR *d = opendir("chapters");
    cr_assert_not_null(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        int num;
        char file[128], p[512];
        if (gr_chapter_dir_split(e->d_name, &num, file, sizeof file)) continue;
        snprintf(p, sizeof p, "chapters/%s/chapter.json", e->d_name);
        cr_expect_eq(access(p, R_OK), 0, "chapters/%s has no chapter.json: the grader and the tests skip it", e->d_name);
    }
    closedir(d);
}

ParameterizedTestParameters(chapters, starter_reports_todo_and_fails)
{
    return wbc_per_chapter();
}
ParameterizedTest(wbc_case *k, chapters, starter_reports_todo_and_fails, .timeout = 120)
{
    WBT_SKIP_IN_STUDENT_RELEASE();
    char err[400];
    static gr_chapter_rubric ch;
    cr_assert_eq(gr_chapter_load(".", k->dir, &ch, err, sizeof err), 0, "%s", err);
    wbc_check_starter(".", &ch);
}

ParameterizedTestParameters(chapters, WBT_WHOSE(json_has_reference_row_and_sane_numbers))
{
    return wbc_per_chapter();
}
ParameterizedTest(wbc_case *k, chapters, WBT_WHOSE(json_has_reference_row_and_sane_numbers), .timeout = 120)
{
    char err[400];
    static gr_chapter_rubric ch;
    cr_assert_eq(gr_chapter_load(".", k->dir, &ch, err, sizeof err), 0, "%s", err);
    wbc_check_json(".", &ch);
}

ParameterizedTestParameters(chapters, help_and_list_work_without_gpu)
{
    return wbc_per_chapter();
}
ParameterizedTest(wbc_case *k, chapters, help_and_list_work_without_gpu)
{
    char err[400], starter[512], solution[512];
    static gr_chapter_rubric ch;
    cr_assert_eq(gr_chapter_load(".", k->dir, &ch, err, sizeof err), 0, "%s", err);
    const char *names[GR_MAX_VAR];
    for (int v = 0; v < ch.n_var; v++) names[v] = ch.var[v].name;
    wbc_programs(".", ch.number, starter, solution, sizeof starter);
    wbt_assert_help_and_list(starter, names, (size_t)ch.n_var);
}

/* ---------------------------------------------------------------- one case per chapter and command line */
/* Cases of every chapter: each chapter's (from its facts and their tests section) by `of`. */
typedef int (*wbc_of_chapter)(const gr_chapter_rubric *ch, json_t *tests, wbc_case *cases, int max);
static int wbc_cases(wbc_case *cases, int max, wbc_of_chapter of)
{
    int n = 0, nc = wbc_here();
    for (int c = 0; c < nc; c++) {
        json_t *facts = wbt_chapter_json(".", wbc_ch[c].number, NULL, 0);
        n += of(&wbc_ch[c], json_object_get(facts, "tests"), cases + n, max - n);
        json_decref(facts);
    }
    return n;
}

/* The contract's bad command lines and the chapter's own (tests.bad_usage). */
static int wbc_bad_of(const gr_chapter_rubric *ch, json_t *tests, wbc_case *cases, int max)
{
    json_t *own = json_object_get(tests, "bad_usage");
    int n = 0;
    for (int i = 0; i < WBC_N_BAD_COMMON + (int)json_array_size(own) && n < max; i++) {
        cases[n] = wbc_of(ch);
        const char *a = i < WBC_N_BAD_COMMON ? wbc_bad_common[i]
                                             : json_string_value(json_array_get(own, (size_t)(i - WBC_N_BAD_COMMON)));
        snprintf(cases[n++].args, sizeof cases[0].args, "%s", a ? a : "");
    }
    return n;
}

/* Bad command lines are refused before any GPU work, so these run without a GPU too. */
ParameterizedTestParameters(chapters, WBT_WHOSE(bad_usage))
{
    static wbc_case cases[WBC_MAX];
    return cr_make_param_array(wbc_case, cases, wbc_cases(cases, WBC_MAX, wbc_bad_of));
}
ParameterizedTest(wbc_case *k, chapters, WBT_WHOSE(bad_usage))
{
    char starter[512], solution[512];
    wbc_programs(".", k->number, starter, solution, sizeof starter);
    wbt_assert_bad_usage(solution, k->args);
}

/* ---------------------------------------------------------------- one case per chapter, tool and variant */
/* The chapter's tests.sanitizer pairs, or every tool on every variant. */
static int wbc_san_of(const gr_chapter_rubric *ch, json_t *tests, wbc_case *cases, int max)
{
    static const char *const tools[] = {"memcheck", "racecheck", "synccheck"};
    json_t *pairs = json_object_get(tests, "sanitizer");
    int n = 0, np = pairs ? (int)json_array_size(pairs) : 3 * ch->n_var;
    for (int i = 0; i < np && n < max; i++) {
        cases[n] = wbc_of(ch);
        json_t *pr = json_array_get(pairs, (size_t)i);
        const char *tool = pairs ? json_string_value(json_array_get(pr, 0)) : tools[i / ch->n_var];
        const char *var = pairs ? json_string_value(json_array_get(pr, 1)) : ch->var[i % ch->n_var].name;
        snprintf(cases[n].tool, sizeof cases[n].tool, "%s", tool ? tool : "");
        snprintf(cases[n++].variant, sizeof cases[0].variant, "%s", var ? var : "");
    }
    return n;
}

ParameterizedTestParameters(chapters, WBT_WHOSE(sanitizer_clean))
{
    static wbc_case cases[WBC_MAX];
    return cr_make_param_array(wbc_case, cases, wbc_cases(cases, WBC_MAX, wbc_san_of));
}
/* At the chapter's tests.sanitizer_size where it has one (a shape chosen for the test), else the size
 * the grader's sanitizer runs use. */
ParameterizedTest(wbc_case *k, chapters, WBT_WHOSE(sanitizer_clean), .timeout = 300)
{
    char cmd[700], starter[512], solution[512];
    json_t *facts = wbt_chapter_json(".", k->number, NULL, 0);
    const char *size = wbt_fact_str(facts, "tests.sanitizer_size");
    if (!size) size = wbt_fact_str(facts, "sanitizer_size");
    cr_assert_not_null(size);
    wbc_programs(".", k->number, starter, solution, sizeof starter);
    snprintf(cmd, sizeof cmd, "%s --size %s --variant %s --reps 1 --warmup 0", solution, size, k->variant);
    json_decref(facts);
    wbt_sanitize(k->tool, cmd);
}

/* ---------------------------------------------------------------- --grading, every chapter */
/* The sizes the reference is run at under --grading: the chapter's tests.grading_sizes, else its json_size. */
static int wbc_grading_of(const gr_chapter_rubric *ch, json_t *tests, wbc_case *cases, int max)
{
    json_t *sizes = json_object_get(tests, "grading_sizes");
    int n = 0, ns = sizes ? (int)json_array_size(sizes) : 1;
    for (int i = 0; i < ns && n < max; i++) {
        const char *size = json_string_value(sizes ? json_array_get(sizes, (size_t)i) : json_object_get(tests, "json_size"));
        cases[n] = wbc_of(ch);
        snprintf(cases[n++].args, sizeof cases[0].args, "%s", size ? size : "");
    }
    return n;
}

ParameterizedTestParameters(chapters, WBT_WHOSE(grading_run_passes_every_check))
{
    static wbc_case cases[WBC_MAX];
    return cr_make_param_array(wbc_case, cases, wbc_cases(cases, WBC_MAX, wbc_grading_of));
}
/* --grading (CONTRACT.md, "Grading runs"): every variant that runs passes the checks of its timed and rotated
 * runs, reports its CPU time and leaves its inputs as generated, with the hardware's CEILING line. One case
 * per chapter and size, from the folders: a new chapter's --grading path is tested like the others'. */
ParameterizedTest(wbc_case *k, chapters, WBT_WHOSE(grading_run_passes_every_check), .timeout = 300)
{
    static char out[WBT_OUT_MAX];
    char cmd[700], starter[512], solution[512];
    int rc;
    wbc_programs(".", k->number, starter, solution, sizeof starter);
    snprintf(cmd, sizeof cmd, "%s --size %s --grading --reps 3 --warmup 1", solution, k->args);
    json_t *lines = wbt_run_json(out, &rc, cmd);
    WBT_SKIP_IF_NO_GPU(rc, out);
    cr_assert_eq(rc, WB_EXIT_PASS, "ch%d: exit %d\n%s", k->number, rc, out);
    cr_assert(!strstr(out, "writes its input"), "ch%d\n%s", k->number, out);
    size_t i, ceilings = 0, refs = 0, ran = 0;
    json_t *o;
    json_array_foreach(lines, i, o)
    {
        const char *verdict = json_string_value(json_object_get(o, WB_JSON_VERDICT)), *v = json_string_value(json_object_get(o, WB_JSON_VARIANT));
        cr_assert_not_null(verdict, "ch%d: a line without a verdict\n%s", k->number, out);
        if (!strcmp(verdict, "CEILING")) {
            ceilings++;
            cr_assert_gt(json_number_value(json_object_get(o, WB_JSON_THROUGHPUT)), 0.0, "ch%d: CEILING", k->number);
        }
        refs += !strcmp(verdict, "REFERENCE");
        if (strcmp(verdict, "PASS")) continue;
        ran++;
        cr_assert_str_eq(json_string_value(json_object_get(o, WB_JSON_TIMED_CHECK)), "PASS", "ch%d %s", k->number, v);
        cr_assert_str_eq(json_string_value(json_object_get(o, WB_JSON_ROTATED_CHECK)), "PASS", "ch%d %s", k->number, v);
        cr_assert(json_is_number(json_object_get(o, WB_JSON_CPU_MS)), "ch%d %s: no cpu_ms", k->number, v);
    }
    cr_assert_eq(ceilings, 1u, "ch%d: one CEILING line\n%s", k->number, out);
    cr_assert_geq(refs, 1u, "ch%d: no speed-of-light row\n%s", k->number, out);
    cr_assert_geq(ran, 1u, "ch%d: no variant passed\n%s", k->number, out);
    json_decref(lines);
}

/* ---------------------------------------------------------------- a chapter from its folder alone */
/* The fake workbook (tests/grading/fake/: host C, "nvcc" is gcc, no GPU) has a chapter that no test file
 * and no rubric names (tests/test_grading_e2e.c grades it, tests/test_mutate.c mutates it): the checks
 * above run on it from its folder, as on a new chapter of the workbook. Its fake
 * harness is not the contract's whole command line (no --help text, output paths unchecked), so the
 * contract's bad command lines are not asked of it: its own (tests.bad_usage) are. */
Test(chapters, the_fake_chapter_is_tested_from_its_folder_alone, .timeout = 120)
{
    static char out[WBT_OUT_MAX];
    char root[256], err[400];
    if (access("tests/grading/fake/rubric.json", R_OK)) cr_skip_test("no tests/grading/fake/ here (the student release)");
    wbt_tmpdir(root, sizeof root);
    int rc = wbt_run(out, "cp -r tests/grading/fake/. %s/ && cp common/*.h %s/common/ && make -s -C %s build/solution9 build/chapter9",
                     root, root, root);
    cr_assert_eq(rc, 0, "the fake workbook does not build:\n%s", out);
    /* tests/test_grading_e2e.c grades it as a class with this rubric: one that names no chapter */
    json_t *rubric = json_load_file("tests/grading/fake/rubric.json", 0, NULL);
    cr_assert(json_is_object(rubric) && !json_object_get(rubric, "chapters"), "the fake rubric names a chapter");
    json_decref(rubric);
    static gr_chapter_rubric ch[GR_MAX_CH];
    int n = wbc_chapters(root, ch, GR_MAX_CH, err, sizeof err);
    cr_assert_eq(n, 1, "the fake workbook's chapters: %d (%s)", n, err);
    cr_assert_eq(ch[0].number, 9);
    wbc_check_facts(root, ch[0].dir);
    wbc_check_starter(root, &ch[0]);
    wbc_check_json(root, &ch[0]);
    json_t *facts = wbt_chapter_json(root, 9, NULL, 0);
    json_t *own = json_object_get(json_object_get(facts, "tests"), "bad_usage");
    cr_assert_geq(json_array_size(own), 1u);
    char starter[512], solution[512];
    wbc_programs(root, 9, starter, solution, sizeof starter);
    size_t i;
    json_t *a;
    json_array_foreach(own, i, a) wbt_assert_bad_usage(solution, json_string_value(a));
    json_decref(facts);
    wbt_run(out, "rm -rf %s", root);
}

/* ---------------------------------------------------------------- the grader reads the facts from the folder */
#define WBC_FACTS "{\"dump\": \"int32\", \"tile\": 32, \"edge_sizes\": [\"1\", \"33\"], \"sanitizer_size\": \"65\", " \
                  "\"perf_size\": \"2^20\", \"variants\": [{\"name\": \"v0\", \"given\": true}, {\"name\": \"v1\"}]}"

#define CH7(vars) "{\"chapters\": [{\"number\": 7, \"variants\": [" vars "]}]}"
#define TINY(dump, more)                                                                                    \
    "{\"dump\": \"" dump "\", \"edge_sizes\": [\"1\"], \"sanitizer_size\": \"1\", \"perf_size\": \"1\", " more \
    "\"variants\": [{\"name\": \"v\"}]}"
#define V0 "{\"name\": \"v0\", \"correct\": 0}, "

/* A chapter folder the rubric does not name is graded with the default points (none for a given
 * variant); a rubric entry gives points by name; a fact in the rubric, a bad fact, a variant the facts
 * lack: one line naming the file and the field. */
Test(chapters, the_grader_takes_a_chapter_from_its_folder)
{
    char root[256], err[600];
    static gr_rubric r;
    wbt_tmpdir(root, sizeof root);
    wbr_write(root, "chapters/07-tiny/chapter.json", WBC_FACTS);
    const char *points = "{\"points\": {\"correct\": 3, \"sanitizer\": 1, \"perf\": 2}}";
    cr_assert_eq(wbr_load_at(root, points, &r, err, sizeof err), 0, "%s", err);
    cr_assert_eq(r.n_ch, 1);
    cr_expect_eq(r.ch[0].number, 7);
    cr_expect_str_eq(r.ch[0].dir, "07-tiny");
    cr_expect_str_eq(r.ch[0].file, "tiny.cu");
    cr_expect_eq(r.ch[0].tile, 32);
    cr_expect(r.ch[0].var[0].correct == 0 && r.ch[0].var[0].perf == 0, "a given variant earns nothing");
    cr_expect(r.ch[0].var[1].correct == 3 && r.ch[0].var[1].sanitizer == 1 && r.ch[0].var[1].perf == 2);
    cr_assert_eq(wbr_load_at(root, CH7(V0 "{\"name\": \"v1\", \"correct\": 5}"), &r, err, sizeof err), 0, "%s", err);
    cr_expect(r.ch[0].var[1].correct == 5 && r.ch[0].var[1].perf == 0, "the entry's points, not the defaults");
    cr_assert_eq(wbr_load_at(root, "{\"unlisted_chapters\": \"skip\"}", &r, err, sizeof err), 0, "%s", err);
    cr_expect_eq(r.n_ch, 0, "unlisted_chapters: skip grades only the named chapters");
    cr_expect_neq(wbr_load_at(root, "{\"chapters\": [{\"number\": 7, \"tile\": 16}]}", &r, err, sizeof err), 0);
    cr_expect(strstr(err, "rubric.json: chapters[0]: 'tile' is a fact of the chapter"), "%s", err);
    cr_expect_neq(wbr_load_at(root, CH7(V0 "{\"name\": \"v9\", \"correct\": 5}"), &r, err, sizeof err), 0);
    cr_expect(strstr(err, "chapters/07-tiny/chapter.json has no variant 'v9'"), "%s", err);
    cr_expect_neq(wbr_load_at(root, CH7("{\"name\": \"v1\", \"correct\": 5}"), &r, err, sizeof err), 0);
    cr_expect(strstr(err, "must give the points of each"), "%s", err);
    wbr_write(root, "chapters/07-tiny/chapter.json", TINY("int16", ""));
    cr_expect_neq(wbr_load_at(root, "{}", &r, err, sizeof err), 0);
    cr_expect(strstr(err, "chapters/07-tiny/chapter.json.dump: 'int16' is not int32"), "%s", err);
    wbr_write(root, "chapters/07-tiny/chapter.json", TINY("int32", "\"points\": 3, "));
    cr_expect_neq(wbr_load_at(root, "{}", &r, err, sizeof err), 0);
    cr_expect(strstr(err, "chapters/07-tiny/chapter.json: unknown key 'points'"), "%s", err);
    static char out[WBT_OUT_MAX];
    wbt_run(out, "rm -rf %s", root);
}
