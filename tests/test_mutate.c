/*
 * test_mutate.c — tools/mutate without a GPU: the operators on small texts, at least 60 mutants of the
 * reference solutions, each different from its solution only inside the TODO regions and labelled
 * with a class the diagnosis knows, a sample of them compiled with the course's nvcc command, and the
 * confusion table on made-up grading results. Grading the mutants is `make diagnose-mutants` (GPU).
 */
#include "diagnose.h"
#include "gr_util.h"
#include "mutate.h"
#include "regions.h"
#include "wbtest.h"

/* An operator of every chapter (chapter 0) or chapter `chapter`'s own (its solutions/NN-name/mutants.json). */
static const mu_op *op_of(mu_kind kind, int chapter)
{
    static mu_own_ops own[GR_MAX_CH];
    char err[300], dirs[GR_MAX_CH][128];
    if (!chapter) {
        for (int i = 0; i < mu_n_ops; i++)
            if (mu_ops[i].kind == kind) return &mu_ops[i];
        cr_assert_fail("no operator of kind %d", kind);
    }
    int n = gr_chapters_scan(".", dirs, GR_MAX_CH), c = 0, number = -1;
    for (; c < n && number != chapter; c++) cr_assert_eq(gr_chapter_dir_split(dirs[c], &number, err, sizeof err), 0);
    cr_assert_eq(number, chapter, "chapters/ has no chapter %d", chapter);
    mu_own_ops *o = &own[c - 1];
    if (!o->doc) cr_assert_eq(mu_own_load(".", dirs[c - 1], o, err, sizeof err), 0, "%s", err);
    for (int i = 0; i < o->n; i++)
        if (o->op[i].kind == kind) return &o->op[i];
    cr_assert_fail("chapter %d has no operator of kind %d", chapter, kind);
    return NULL;
}

/* The workbook's chapters, found from their folders (never a count written here: a new chapter is a folder):
 * each one's number and how many TODO regions its reference has. How many. */
typedef struct {
    int number, regions;
} tm_chapter;

static int tm_chapters(tm_chapter *out)
{
    char dirs[GR_MAX_CH][128], file[128], p[400];
    int n = gr_chapters_scan(".", dirs, GR_MAX_CH);
    for (int c = 0; c < n; c++) {
        cr_assert_eq(gr_chapter_dir_split(dirs[c], &out[c].number, file, sizeof file), 0, "%s", dirs[c]);
        snprintf(p, sizeof p, "solutions/%s/%s", dirs[c], file);
        size_t len;
        char *text = wb_read_file(p, &len);
        cr_assert_not_null(text, "%s", p);
        out[c].regions = wbt_count(text, "BEGIN TODO(");
        free(text);
    }
    cr_assert_geq(n, 1, "no chapter folder under chapters/");
    return n;
}

/* Where chapter number sits in cs (n of them); fails when it is none of them. */
static int tm_index(const tm_chapter *cs, int n, int number)
{
    for (int c = 0; c < n; c++)
        if (cs[c].number == number) return c;
    cr_assert_fail("a mutant of chapter %d, which has no folder", number);
    return -1;
}

/* Each chapter's floor: a lesson's ladder (three regions or more) gets at least `ladder` mutants, a smaller
 * chapter (a new one from make new-chapter) at least `small`, so the mutator reaches every chapter. */
static void tm_floors(const tm_chapter *cs, int n, const int *per_ch, int ladder, int small, const char *what)
{
    for (int c = 0; c < n; c++) {
        int floor = cs[c].regions >= 3 ? ladder : small;
        cr_expect_geq(per_ch[c], floor, "chapter %d (%d regions) has only %d %s (at least %d)", cs[c].number, cs[c].regions,
                      per_ch[c], what, floor);
    }
}

static char *apply_first(const mu_op *op, const char *text)
{
    size_t at[2];
    cr_assert_eq(mu_find(op, text, strlen(text), at, 2), 1, "op %d finds one occurrence in %s", op->id, text);
    char *m = mu_apply(op, text, strlen(text), at[0]);
    cr_assert_not_null(m);
    return m;
}

Test(mutate, operators_rewrite_one_occurrence)
{
    char *m = apply_first(op_of(MU_CEIL_FLOOR, 0), "k<<<wb_ceil_div(s->n, BLOCK), BLOCK>>>(x);");
    cr_assert_str_eq(m, "k<<<(s->n) / (BLOCK), BLOCK>>>(x);");
    free(m);
    m = apply_first(op_of(MU_CEIL_ONE, 0), "grid(wb_ceil_div(f(a, b), 16))");
    cr_assert_str_eq(m, "grid(1)");
    free(m);
    m = apply_first(op_of(MU_ATOMIC_PLAIN, 3), "if (i < n) atomicAdd(&partial, input[i]);");
    cr_assert_str_eq(m, "if (i < n) partial += input[i];");
    free(m);
    m = apply_first(op_of(MU_ATOMIC_PLAIN, 3), "atomicAdd(result, (unsigned long long)v);");
    cr_assert_str_eq(m, "*result += (unsigned long long)v;");
    free(m);
    m = apply_first(op_of(MU_DELETE_LINE, 0), "a = 1;\n    __syncthreads();\nb = 2;\n");
    cr_assert_str_eq(m, "a = 1;\nb = 2;\n");
    free(m);
    m = apply_first(op_of(MU_SWAP, 4), "r = blockIdx.y * 16; c = blockIdx.x * 16;");
    cr_assert_str_eq(m, "r = blockIdx.x * 16; c = blockIdx.y * 16;");
    free(m);
    const mu_op *ceil = op_of(MU_CEIL_FLOOR, 0);
    cr_assert_null(mu_apply(ceil, "wb_ceil_div(n", 13, 0), "an unbalanced call is not mutated");
}

static json_t *all_mutants(const char *out)
{
    cr_assert_eq(mu_write_all(".", out, 0, NULL), 0, "mutate failed (run from the repository root)");
    char p[512];
    snprintf(p, sizeof p, "%s/mutants.json", out);
    json_t *list = json_load_file(p, 0, NULL);
    cr_assert(json_is_array(list), "%s is not a JSON array", p);
    return list;
}

/* Where a mutant's file is: its chapter's folder and program from the workbook at root. */
static char *mutant_path_in(const char *root, const char *out, json_t *m, char *p, size_t len)
{
    char err[300], dirs[GR_MAX_CH][128];
    int chn = (int)json_integer_value(json_object_get(m, "chapter")), n = gr_chapters_scan(root, dirs, GR_MAX_CH);
    for (int c = 0; c < n; c++) {
        gr_chapter_rubric ch;
        cr_assert_eq(gr_chapter_load(root, dirs[c], &ch, err, sizeof err), 0, "%s", err);
        if (ch.number == chn) {
            snprintf(p, len, "%s/%s/%s/chapters/%s/%s", out, json_is_true(json_object_get(m, "perf")) ? "subs-perf" : "subs",
                     json_string_value(json_object_get(m, "id")), ch.dir, ch.file);
            return p;
        }
    }
    cr_assert_fail("chapter %d has no folder under %s/chapters", chn, root);
    return NULL;
}

static char *mutant_path(const char *out, json_t *m, char *p, size_t len)
{
    return mutant_path_in(".", out, m, p, len);
}

Test(mutate, sixty_mutants_inside_the_regions_with_valid_labels, .timeout = 120)
{
    char out[256];
    wbt_tmpdir(out, sizeof out);
    json_t *list = all_mutants(out);
    cr_assert_geq(json_array_size(list), 60, "only %zu mutants", json_array_size(list));
    tm_chapter cs[GR_MAX_CH];
    int per_ch[GR_MAX_CH] = {0}, n_ch = tm_chapters(cs);
    size_t i;
    json_t *m;
    json_array_foreach(list, i, m)
    {
        const char *label = json_string_value(json_object_get(m, "label"));
        cr_assert(gr_bug_parse(label) >= 0, "mutant %s: '%s' is not a diagnose class", json_string_value(json_object_get(m, "id")),
                  label);
        per_ch[tm_index(cs, n_ch, (int)json_integer_value(json_object_get(m, "chapter")))]++;
        char p[1024], sp[512];
        mutant_path(out, m, p, sizeof p);
        snprintf(sp, sizeof sp, "solutions/%s", strstr(p, "/chapters/") + strlen("/chapters/"));
        size_t ml, sl, mol, sol;
        char *mt = wb_read_file(p, &ml), *st = wb_read_file(sp, &sl), err[200];
        cr_assert_not_null(mt, "%s not written", p);
        cr_assert_not_null(st, "%s", sp);
        cr_assert(ml != sl || memcmp(mt, st, sl), "%s is the solution unchanged", p);
        char *mo = wb_regions_outside(mt, ml, &mol, err, sizeof err), *so = wb_regions_outside(st, sl, &sol, err, sizeof err);
        cr_assert(mo && so && mol == sol && !memcmp(mo, so, sol), "%s differs from %s outside the regions", p, sp);
        free(mt), free(st), free(mo), free(so);
    }
    tm_floors(cs, n_ch, per_ch, 5, 1, "mutants");
    json_decref(list);
}

/* The slow mutants (issue 30): at least 25 with a cause, every chapter with some, and correct
 * alternatives graded with perf; each one's edit is what its label says (counted in the whole file: the
 * rest is the solution's). That they compile for sm_90 was checked by hand (tools/mutate/README.md); the
 * H100 says whether the counters name them. */
Test(mutate, slow_mutants_edit_what_their_label_says, .timeout = 120)
{
    char out[256];
    wbt_tmpdir(out, sizeof out);
    json_t *list = all_mutants(out);
    tm_chapter cs[GR_MAX_CH];
    int slow = 0, alternatives = 0, per_ch[GR_MAX_CH] = {0}, n_ch = tm_chapters(cs);
    size_t i;
    json_t *m;
    json_array_foreach(list, i, m)
    {
        const char *id = json_string_value(json_object_get(m, "id")), *label = json_string_value(json_object_get(m, "label"));
        int b = gr_bug_parse(label), perf = json_is_true(json_object_get(m, "perf"));
        if (!perf) continue;
        cr_assert(b == GR_BUG_NONE || gr_bug_is_perf((gr_bug)b), "%s: %s graded with perf", id, label);
        char p[1024], sp[512];
        mutant_path(out, m, p, sizeof p);
        snprintf(sp, sizeof sp, "solutions/%s", strstr(p, "/chapters/") + strlen("/chapters/"));
        size_t ml, sl;
        char *mt = wb_read_file(p, &ml), *st = wb_read_file(sp, &sl);
        cr_assert(mt && st);
        int ok = 1;
#define MORE(w) (wbt_count(mt, w) > wbt_count(st, w))
        switch (b) {
        case GR_BUG_BARRIER: ok = MORE("__syncthreads()"); break;
        case GR_BUG_ATOMICS: ok = MORE("atomicAdd(result"); break;
        case GR_BUG_SCALAR_LOADS: ok = wbt_count(mt, "__ldcs") + wbt_count(mt, "__stcs") < wbt_count(st, "__ldcs") + wbt_count(st, "__stcs"); break;
        case GR_BUG_SPILLS: ok = MORE("#pragma unroll 1") || MORE("volatile float"); break;
        case GR_BUG_OCCUPANCY: ok = strstr(id, "-launch-") != NULL; break;
        case GR_BUG_PADDING: ok = MORE("* 32]") || MORE("* 8]") || MORE("% 32 *") || MORE("Bs[tx]") || wbt_count(mt, "A_PAD") < wbt_count(st, "A_PAD"); break;
        case GR_BUG_EXTRA_INSTR: ok = MORE("__shfl_sync"); break;
        case GR_BUG_UNCOALESCED: ok = MORE("threadIdx.x * gridDim.x") || MORE("threadIdx.x + blockIdx.x") || MORE("+ threadIdx.x;\n    int col") || MORE("d[nn * i + k]") || MORE("int i = threadIdx.x"); break;
        default: break;
        }
#undef MORE
        cr_assert(ok, "%s (%s): the edit is not what the label says", id, label);
        free(mt), free(st);
        if (b == GR_BUG_NONE) alternatives++;
        else if (b != GR_BUG_HOST_WORK) slow++, per_ch[tm_index(cs, n_ch, (int)json_integer_value(json_object_get(m, "chapter")))]++;
    }
    cr_assert_geq(slow, 25, "only %d slow mutants", slow);
    cr_assert_geq(alternatives, 4, "only %d correct alternatives graded with perf", alternatives);
    tm_floors(cs, n_ch, per_ch, 3, 0, "slow mutants");
    json_decref(list);
}

/* A chapter is mutated from its folders alone: the fake workbook's chapter (tests/grading/fake/, named by
 * no rubric and no table of this tool) gets the mutants of its own operators (solutions/09-fake/
 * mutants.json), each a submission of that chapter that differs from the reference inside a region. */
Test(mutate, the_fake_chapter_is_mutated_from_its_folders, .timeout = 60)
{
    char out[256], p[1024];
    wbt_tmpdir(out, sizeof out);
    cr_assert_eq(mu_write_all("tests/grading/fake", out, 0, NULL), 0);
    snprintf(p, sizeof p, "%s/mutants.json", out);
    json_t *list = json_load_file(p, 0, NULL);
    cr_assert(json_is_array(list), "%s is not a JSON array", p);
    int own = 0;
    size_t i;
    json_t *m;
    json_array_foreach(list, i, m)
    {
        const char *id = json_string_value(json_object_get(m, "id"));
        cr_expect_eq(json_integer_value(json_object_get(m, "chapter")), 9, "%s", id);
        own += !strcmp(json_string_value(json_object_get(m, "label")), "off-by-one");
        mutant_path_in("tests/grading/fake", out, m, p, sizeof p);
        size_t ml, sl;
        char *mt = wb_read_file(p, &ml), *st = wb_read_file("tests/grading/fake/solutions/09-fake/fake.cu", &sl);
        cr_assert(mt && st, "%s not written", p);
        cr_expect(strstr(p, "/chapters/09-fake/fake.cu"), "%s", p);
        cr_expect(ml != sl || memcmp(mt, st, sl), "%s is the solution unchanged", p);
        free(mt), free(st);
    }
    cr_assert_geq(json_array_size(list), 2u, "the fake chapter's own operators made %zu mutants", json_array_size(list));
    cr_expect_geq(own, 1, "no mutant of the chapter's own off-by-one operator");
    json_decref(list);
}

/* One mutant per chapter, each from a different kind of operator, compiled with the course's command. */
Test(mutate, a_sample_compiles, .timeout = 300)
{
    size_t fl;
    char *flags = wb_read_file("build/grading-flags.json", &fl);
    if (!flags) cr_skip_test("build/grading-flags.json is not built (make build/grading-flags.json)");
    json_t *f = json_loads(flags, 0, NULL);
    free(flags);
    const char *nvcc = json_string_value(json_object_get(f, "nvcc"));
    cr_assert_not_null(nvcc);
    static char o[WBT_OUT_MAX];
    if (wbt_run(o, "command -v %.*s", (int)strcspn(nvcc, " "), nvcc) != 0) cr_skip_test("no nvcc on this machine");
    char out[256];
    wbt_tmpdir(out, sizeof out);
    json_t *list = all_mutants(out);
    const char *want[] = {"ch1-shared-dynamic-launch", "ch2-shared-0", "ch3-global-atomic", "ch4-naive-3", "ch5-v1-4"};
    for (int w = 0; w < 5; w++) {
        size_t i;
        json_t *m, *pick = NULL;
        json_array_foreach(list, i, m) if (!pick && !strncmp(json_string_value(json_object_get(m, "id")), want[w], strlen(want[w])))
            pick = m;
        cr_assert_not_null(pick, "no mutant %s*", want[w]);
        char p[1024];
        mutant_path(out, pick, p, sizeof p);
        int rc = wbt_run(o, "%s -c -o %s/m.o %s", nvcc, out, p);
        cr_assert_eq(rc, 0, "%s does not compile:\n%s", p, o);
    }
    json_decref(list);
    json_decref(f);
}

/* A grading.json of one mutant (under out-perf/ when graded with perf): the region's variant with its
 * verdict, score and diagnosis (named), and a second, untouched variant that lost only what its grading
 * withholds from every variant. A variant's 4 points: correctness 2, sanitizer 1, performance 1. Graded
 * with perf means without the sanitizer (as `gpu-check.sh slow` grades): 3.0 is every point that grading
 * gives, less than 3.0 a lost performance point. Graded without perf: 3.0 is full marks. */
static void fake_grading(const char *dir, const char *id, int perf, int chapter, const char *variant,
                         const char *verdict, double score, const char *named)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s/%s", dir, perf ? "out-perf" : "out", id);
    gr_mkdirs(p, 0755);
    strcat(p, "/grading.json");
    json_t *d = named ? json_pack("{s:s, s:s}", "class", named, "evidence", "made up") : json_null();
    double perf_pts = perf && score > 3.0 - 1e-9 ? 1.0 : 0.0;
    json_t *g = json_pack("{s:[{s:i, s:s, s:f, s:f, s:[{s:s, s:s, s:f, s:f, s:f, s:f, s:b, s:[], s:o}, "
                          "{s:s, s:s, s:f, s:f, s:f, s:f, s:b, s:[], s:n}]}]}",
                          "chapters", "number", chapter, "status", "graded", "score", score + 3.0, "max_score", 8.0,
                          "variants", "variant", variant, "verdict", verdict, "score", score, "max_score", 4.0,
                          "perf_points", perf_pts, "perf_max_points", 1.0, "sanitizer_finding", 0, "caught", "diagnosis", d,
                          "variant", "other", "verdict", "PASS", "score", 3.0, "max_score", 4.0, "perf_points",
                          perf ? 1.0 : 0.0, "perf_max_points", 1.0, "sanitizer_finding", 0, "caught", "diagnosis");
    cr_assert(g);
    cr_assert_eq(json_dump_file(g, p, 0), 0);
    json_decref(g);
}

Test(mutate, confusion_table_from_made_up_results)
{
    char dir[256], p[512];
    wbt_tmpdir(dir, sizeof dir);
    snprintf(p, sizeof p, "%s/mutants.json", dir);
    json_t *list = json_pack("[{s:s, s:i, s:s, s:s, s:s, s:b}, {s:s, s:i, s:s, s:s, s:s, s:b}, {s:s, s:i, s:s, s:s, s:s, s:b},"
                             " {s:s, s:i, s:s, s:s, s:s, s:b}, {s:s, s:i, s:s, s:s, s:s, s:b}]",
                             "id", "m1", "chapter", 1, "region", "global", "label", "tail", "what", "floor", "perf", 0,
                             "id", "m2", "chapter", 1, "region", "global-launch", "label", "race", "what", "no barrier", "perf", 0,
                             "id", "m3", "chapter", 1, "region", "global", "label", "off-by-one", "what", "n - i", "perf", 0,
                             "id", "m4", "chapter", 1, "region", "global", "label", "uncoalesced", "what", "strided", "perf", 1,
                             "id", "m5", "chapter", 1, "region", "global", "label", "none", "what", "same code", "perf", 0);
    cr_assert_eq(json_dump_file(list, p, 0), 0);
    json_decref(list);
    fake_grading(dir, "m1", 0, 1, "global", "WRONG", 1.0, "tail");      /* caught, named right */
    fake_grading(dir, "m2", 0, 1, "global", "WRONG", 1.0, "tile-edge"); /* caught, named wrong */
    /* A survivor, though below full marks: graded without perf, no variant gets its perf point. */
    fake_grading(dir, "m3", 0, 1, "global", "PASS", 3.0, NULL);
    fake_grading(dir, "m4", 1, 1, "global", "PASS", 2.0, NULL); /* graded with perf: a lost perf point is caught */
    fake_grading(dir, "m5", 0, 1, "global", "WRONG", 1.0, NULL); /* equivalent, yet flagged: a false alarm */
    snprintf(p, sizeof p, "%s/report.txt", dir);
    FILE *f = fopen(p, "w");
    cr_assert_eq(mu_report(dir, f), 0);
    fclose(f);
    size_t n;
    char *t = wb_read_file(p, &n);
    cr_assert(strstr(t, "accuracy (named == intended): 2/5"), "%s", t);
    cr_assert(strstr(t, "caught (something detected):  3/4 = 75% of the non-equivalent"), "%s", t);
    cr_assert(strstr(t, "False alarms (equivalent mutants where something was detected):\n  m5"), "%s", t);
    cr_assert(strstr(t, "named right, of the caught:   1/3"), "%s", t);
    cr_assert(strstr(t, "m3") && strstr(t, "n - i"), "the survivor is listed:\n%s", t);
    free(t);
}

/* The report of dir's mutants (mu_report into dir/report.txt), as text. */
static char *report_text(const char *dir)
{
    char p[512];
    snprintf(p, sizeof p, "%s/report.txt", dir);
    FILE *f = fopen(p, "w");
    cr_assert_eq(mu_report(dir, f), 0);
    fclose(f);
    size_t n;
    return wb_read_file(p, &n);
}

/* The slow mutants' own table: a cause named right, a slow one where nothing was named ("slow"), and a
 * correct alternative where a cause was invented (counted) or not. */
/* The diagnosis of mutant id's first variant gets counters of the given status. */
static void set_counters(const char *dir, const char *id, const char *status)
{
    char p[512];
    snprintf(p, sizeof p, "%s/out-perf/%s/grading.json", dir, id);
    json_t *g = json_load_file(p, 0, NULL);
    cr_assert_not_null(g);
    json_t *v = json_array_get(json_object_get(json_array_get(json_object_get(g, "chapters"), 0), "variants"), 0);
    cr_assert_not_null(json_object_get(v, "diagnosis"));
    json_object_set_new(json_object_get(v, "diagnosis"), "counters", json_pack("{s:s}", "status", status));
    cr_assert_eq(json_dump_file(g, p, 0), 0);
    json_decref(g);
}

Test(mutate, slow_table_counts_causes_and_inventions)
{
    static const struct {
        const char *id, *label, *named;
        int perf;
        double score;
    } rows[] = {{"s1", "bank-conflicts", "bank-conflicts", 1, 3.0}, {"s2", "occupancy", "slow", 1, 3.0},
                /* an alternative with every point its grading gives: the sanitizer's, withheld from every
                 * variant graded without it, is no detection (on the H100 all four alternatives were listed
                 * as false alarms for it) */
                {"s3", "none", NULL, 1, 3.0}, {"s4", "none", "uncoalesced", 1, 3.0}, {"w1", "tail", "tail", 0, 1.0},
                /* a slow mutant this GPU does not punish: no diagnosis, so not in the rate, but listed */
                {"s5", "scalar-loads", NULL, 1, 3.0},
                /* slow here, but the profiler ran past its limit: nothing named, counted apart from a
                 * measurement that named nothing (s2) */
                {"s6", "serialized-atomics", "slow", 1, 3.0}};
    char dir[256], p[512];
    wbt_tmpdir(dir, sizeof dir);
    json_t *list = json_array();
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        json_array_append_new(list, json_pack("{s:s, s:i, s:s, s:s, s:s, s:b}", "id", rows[r].id, "chapter", 1, "region",
                                              "global", "label", rows[r].label, "what", "made up", "perf", rows[r].perf));
        fake_grading(dir, rows[r].id, rows[r].perf, 1, "global", rows[r].perf ? "PASS" : "WRONG", rows[r].score, rows[r].named);
    }
    snprintf(p, sizeof p, "%s/mutants.json", dir);
    cr_assert_eq(json_dump_file(list, p, 0), 0);
    json_decref(list);
    set_counters(dir, "s2", "ok");
    set_counters(dir, "s6", "timeout");
    char *t = report_text(dir);
    cr_assert(strstr(t, "Slow mutants") && strstr(t, "graded 6 of 6)"), "%s", t);
    cr_assert(strstr(t, "cause named right:               1/3 = 33% of the mutants slow on this GPU"), "%s", t);
    cr_assert(strstr(t, "counters not measured:           1 of those 3"), "%s", t);
    cr_assert(strstr(t, "named right where measured:      1/2 = 50%"), "%s", t);
    const char *unm = strstr(t, "Slow mutants whose counters were not measured");
    cr_assert(unm && strstr(unm, "s6") && strstr(unm, "timeout") && !strstr(unm, "s2 "), "%s", t);
    cr_assert(strstr(t, "not slower here:                 1 of 4"), "%s", t);
    const char *flat = strstr(t, "Slow mutants not slower on this GPU");
    cr_assert(flat && strstr(flat, "s5") && !strstr(flat, "s2"), "%s", t);
    cr_assert(strstr(t, "causes invented on alternatives: 1 of 2"), "%s", t);
    const char *alarms = strstr(t, "False alarms");
    cr_assert(alarms && strstr(alarms, "s4") && !strstr(alarms, "s3"), "s4 named a cause, s3 nothing:\n%s", t);
    free(t);
    /* a submission graded without a GPU says nothing of its mutant: not graded, not caught */
    snprintf(p, sizeof p, "%s/out-perf/s1/grading.json", dir);
    json_t *g = json_load_file(p, 0, NULL);
    cr_assert_not_null(g);
    json_object_set_new(g, "status", json_string("no GPU"));
    cr_assert_eq(json_dump_file(g, p, 0), 0);
    json_decref(g);
    t = report_text(dir);
    cr_assert(strstr(t, "graded 5 of 6)") && strstr(t, "cause named right:               0/2 = 0%"), "%s", t);
    free(t);
}

/* Bad command lines: a chapter the workbook lacks, and an --out folder that is not the tool's own (it is
 * replaced whole, so anything else there would be lost). */
Test(mutate, bad_usage_is_refused_and_a_foreign_folder_is_kept, .timeout = 60)
{
    static char o[WBT_OUT_MAX];
    char dir[64];
    wbt_tmpdir(dir, sizeof dir);
    cr_expect_eq(wbt_run(o, "./build/mutate --ch 99 --out %s/m", dir), 2, "%s", o);
    cr_expect(strstr(o, "no chapter 99"), "%s", o);
    cr_expect_eq(wbt_run(o, "./build/mutate --ch seven --out %s/m", dir), 2, "%s", o);
    cr_expect_eq(wbt_run(o, "mkdir -p %s/mine && touch %s/mine/notes.txt && ./build/mutate --out %s/mine", dir, dir, dir), 2, "%s", o);
    cr_expect(strstr(o, "not replacing it"), "%s", o);
    cr_expect_eq(wbt_run(o, "test -f %s/mine/notes.txt", dir), 0, "the foreign folder lost its file");
    wbt_run(o, "rm -rf %s", dir);
}
