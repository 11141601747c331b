/*
 * test_starters.c — the starters made from the references (tools/starter, `make starters`): every committed
 * starter is what its reference makes; the per-region transform (st_starter_of) and each of its errors on
 * small texts; a workbook's chapters written, checked and refused in a scratch folder, through the
 * library and through build/starter. No GPU.
 */
#include "gr_util.h"
#include "regions.h"
#include "rubric.h"
#include "starter.h"
#include "wbtest.h"

static char out[WBT_OUT_MAX];

/* st_starters with what it prints on out and err captured (each at most WBT_OUT_MAX). */
typedef struct {
    int rc;
    char *out, *err;
    size_t olen, elen;
} st_result;

static st_result starters(const char *root, st_mode mode)
{
    st_result r = {0};
    FILE *o = open_memstream(&r.out, &r.olen), *e = open_memstream(&r.err, &r.elen);
    cr_assert(o && e);
    r.rc = st_starters(root, mode, o, e);
    fclose(o);
    fclose(e);
    return r;
}

static void result_free(st_result *r)
{
    free(r->out);
    free(r->err);
}

/* The committed starters, the test that fails when one is edited by hand or its reference changes without
 * `make starters`. */
Test(starters, committed_starters_are_what_the_references_make)
{
    char dirs[GR_MAX_CH][128];
    int n = gr_chapters_scan(".", dirs, GR_MAX_CH);
    cr_assert_geq(n, 5, "only %d chapters found (run from the root)", n);
    st_result r = starters(".", ST_CHECK);
    cr_assert_eq(r.rc, 0, "a committed starter is not what its reference makes (run make starters):\n%s%s", r.err, r.out);
    char want[64];
    snprintf(want, sizeof want, "starters: 0 of %d differ", n);
    cr_assert(strstr(r.out, want), "%s", r.out);
    result_free(&r);
}

/* ---------------------------------------------------------------- the transform */
static char *starter_of(const char *ref, char *err, size_t errlen)
{
    size_t n = 0;
    char *s = st_starter_of(ref, strlen(ref), &n, err, errlen);
    if (s) cr_assert_eq(n, strlen(s), "the length returned is the starter's");
    return s;
}

/* The brief's own example: the hint kept without `//| `, the code dropped, the rest byte for byte. */
Test(starters, a_region_becomes_its_hint_lines)
{
    const char *ref = "__global__ void k(const int *in, int *out, int n)\n{\n"
                      "    // BEGIN TODO(global)\n"
                      "    //| /* One thread per element: i = the global index; where i < n, write in[i] to out[n-1-i]. */\n"
                      "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                      "    if (i < n) out[n - 1 - i] = in[i];\n"
                      "    // END TODO(global)\n}\n";
    char err[300];
    char *s = starter_of(ref, err, sizeof err);
    cr_assert_not_null(s, "%s", err);
    cr_assert_str_eq(s, "__global__ void k(const int *in, int *out, int n)\n{\n"
                        "    // BEGIN TODO(global)\n"
                        "    /* One thread per element: i = the global index; where i < n, write in[i] to out[n-1-i]. */\n"
                        "    // END TODO(global)\n}\n");
    free(s);
}

/* Indentation before `//|` kept, a bare `//|` an empty line, `//| ` alone the indentation, hint lines
 * between code lines in their order, a region at column 0, text outside the regions untouched (a `//|`
 * there is not a hint), no newline at the end of the file. */
Test(starters, hint_lines_keep_their_indentation_and_order)
{
    const char *ref = "//| outside\n"
                      "// BEGIN TODO(file-level)\n"
                      "//| /* A helper goes here,\n"
                      "__device__ int h(int x) { return x; }\n"
                      "//|  * and this is its hint. */\n"
                      "// END TODO(file-level)\n"
                      "\tint f() {\n"
                      "\t// BEGIN TODO(b)\n"
                      "\t//| int x = 0;\n"
                      "\t\treturn 1;\n"
                      "\t//|\n"
                      "\t\t//| \t/* deeper */\n"
                      "  //| \n"
                      "\t// END TODO(b)\n"
                      "\t}";
    char err[300];
    char *s = starter_of(ref, err, sizeof err);
    cr_assert_not_null(s, "%s", err);
    cr_assert_str_eq(s, "//| outside\n"
                        "// BEGIN TODO(file-level)\n"
                        "/* A helper goes here,\n"
                        " * and this is its hint. */\n"
                        "// END TODO(file-level)\n"
                        "\tint f() {\n"
                        "\t// BEGIN TODO(b)\n"
                        "\tint x = 0;\n"
                        "\n"
                        "\t\t\t/* deeper */\n"
                        "  \n"
                        "\t// END TODO(b)\n"
                        "\t}");
    free(s);
}

/* st_hint_line: a reference's hint line is white space, then `//|`; every reader of a reference's regions
 * asks it (the generator, the mutator, the leak check). */
Test(starters, a_hint_line_is_white_space_then_the_bar)
{
    const char *yes[] = {"//|", "//| x", "  \t//|  y", "//|x"}, *no[] = {"", "// | x", "x //| y", "/|", "//"};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
        cr_expect_geq(st_hint_line(yes[i], strlen(yes[i])), 0, "'%s' is a hint line", yes[i]);
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        cr_expect_eq(st_hint_line(no[i], strlen(no[i])), -1, "'%s' is not a hint line", no[i]);
    cr_expect_eq(st_hint_line("  \t//| y", 8), 3, "the indentation's length");
    cr_expect_eq(st_hint_line("  //| y", 3), -1, "only the first len bytes are the line");
}

/* A reference the generator refuses: one line naming the line and what is wrong. */
struct bad_ref {
    const char *text, *says;
};
ParameterizedTestParameters(starters, bad_references_are_refused_with_their_line)
{
    static struct bad_ref cases[] = {
        {"a\n// BEGIN TODO(r)\nx = 1;\n// END TODO(r)\n", "line 2: TODO region 'r' has no hint line"},
        {"// BEGIN TODO(r)\n// END TODO(r)\n", "line 1: TODO region 'r' has no hint line"},
        {"// BEGIN TODO(r)\n//| ok\n// END TODO(r)\n// BEGIN TODO(q)\nq();\n// END TODO(q)\n",
         "line 4: TODO region 'q' has no hint line"},
        {"// BEGIN TODO(r)\n//| ok\n  //|no space\n// END TODO(r)\n", "line 3: a hint line is `//| ` and the text"},
        {"// BEGIN TODO(r)\n//| #define M(x) \\\nx = 1;\n// END TODO(r)\n", "line 2: a hint line must not end in a backslash"},
        {"// BEGIN TODO(r)\n//| // BEGIN TODO(s)\n// END TODO(r)\n", "line 2: a hint line must not be a TODO marker"},
        {"// BEGIN TODO(r)\n//| hint\n", "TODO region 'r' (line 1) is never closed"},
        {"//| hint\n// END TODO(r)\n", "line 2: END TODO(r) without a matching BEGIN"},
        {"// BEGIN TODO(r)\n//| a\n// BEGIN TODO(s)\n", "line 3: BEGIN TODO(s) inside region 'r'"},
        {"// BEGIN TODO(r)\n//| a\n// END TODO(r)\n// BEGIN TODO(r)\n//| b\n// END TODO(r)\n",
         "line 4: TODO region 'r' appears twice"},
        {"// BEGIN TODO(r x)\n", "line 1: malformed TODO marker"},
    };
    return cr_make_param_array(struct bad_ref, cases, sizeof cases / sizeof cases[0]);
}
ParameterizedTest(struct bad_ref *b, starters, bad_references_are_refused_with_their_line)
{
    char err[300] = "";
    size_t n = 7;
    cr_assert_null(st_starter_of(b->text, strlen(b->text), &n, err, sizeof err), "accepted: %s", b->text);
    cr_assert(strstr(err, b->says), "the reason '%s' should say '%s'", err, b->says);
    cr_assert(!strchr(err, '\n'), "one line: %s", err);
}

/* ---------------------------------------------------------------- a workbook's chapters */
#define GOOD_A "int a;\n    // BEGIN TODO(ra)\n    //| /* hint a */\n    a = 1;\n    // END TODO(ra)\nend\n"
#define STARTER_A "int a;\n    // BEGIN TODO(ra)\n    /* hint a */\n    // END TODO(ra)\nend\n"
#define GOOD_B "// BEGIN TODO(rb)\n//| /* hint b */\nb();\n// END TODO(rb)\n"

static void put(const char *root, const char *rel, const char *text)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    *strrchr(p, '/') = 0;
    cr_assert_eq(gr_mkdirs(p, 0755), 0, "%s", p);
    snprintf(p, sizeof p, "%s/%s", root, rel);
    cr_assert_eq(gr_write_file(p, text, strlen(text)), 0, "%s", p);
}

static char *get(const char *root, const char *rel)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    return gr_read_capped(p, 1 << 20, NULL);
}

/* Two chapters: written, then found up to date; a starter edited by hand is named with its line by the
 * check, which writes nothing, and written back; the CLI says the same with its exit codes. */
Test(starters, a_workbook_is_written_then_checked, .timeout = 60)
{
    char root[256];
    wbt_tmpdir(root, sizeof root);
    put(root, "chapters/01-a/chapter.json", "{}\n");
    put(root, "chapters/02-b/chapter.json", "{}\n");
    put(root, "solutions/01-a/a.cu", GOOD_A);
    put(root, "solutions/02-b/b.cu", GOOD_B);
    st_result r = starters(root, ST_WRITE);
    cr_assert_eq(r.rc, 0, "%s", r.err);
    cr_assert(strstr(r.out, "wrote") && strstr(r.out, "chapters/01-a/a.cu") && strstr(r.out, "2 written, 0 already"),
              "%s", r.out);
    result_free(&r);
    char *a = get(root, "chapters/01-a/a.cu");
    cr_assert_str_eq(a, STARTER_A);
    free(a);
    r = starters(root, ST_WRITE);
    cr_assert(r.rc == 0 && strstr(r.out, "0 written, 2 already"), "%s%s", r.out, r.err);
    result_free(&r);

    put(root, "chapters/01-a/a.cu", "int a;\n    // BEGIN TODO(ra)\n    /* hint a, edited */\n    // END TODO(ra)\nend\n");
    r = starters(root, ST_CHECK);
    cr_assert_eq(r.rc, 1, "%s%s", r.out, r.err);
    cr_assert(strstr(r.err, "/chapters/01-a/a.cu:3: differs from what ") && strstr(r.err, "/solutions/01-a/a.cu makes"),
              "%s", r.err);
    cr_assert(!strstr(r.err, "02-b") && strstr(r.out, "1 of 2 differ"), "%s%s", r.out, r.err);
    result_free(&r);
    a = get(root, "chapters/01-a/a.cu");
    cr_assert(strstr(a, "edited"), "the check wrote the starter:\n%s", a);
    free(a);

    int rc = wbt_run(out, "./build/starter --check --root '%s'", root);
    cr_assert_eq(rc, 1, "build/starter --check (is it built? make build/starter):\n%s", out);
    cr_assert(strstr(out, "chapters/01-a/a.cu:3: differs"), "%s", out);
    rc = wbt_run(out, "./build/starter --root '%s' && ./build/starter --check --root '%s'", root, root);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strstr(out, "wrote ") && strstr(out, "0 of 2 differ"), "%s", out);
    cr_assert_eq(wbt_run(out, "./build/starter --root"), 2, "%s", out);
    cr_assert_eq(wbt_run(out, "./build/starter stray"), 2, "%s", out);
    cr_assert(strstr(out, "unexpected argument 'stray'"), "%s", out);
    wbt_run(out, "rm -rf '%s'", root);
}

/* Bad input anywhere: one line each naming the file (and line), exit 2, and no starter written, not even
 * the good chapter's stale one. */
Test(starters, bad_input_writes_nothing, .timeout = 60)
{
    char root[256];
    wbt_tmpdir(root, sizeof root);
    put(root, "chapters/01-a/chapter.json", "{}\n");
    put(root, "chapters/01-a/a.cu", "stale\n");
    put(root, "solutions/01-a/a.cu", GOOD_A);
    put(root, "chapters/02-b/chapter.json", "{}\n");
    put(root, "solutions/02-b/b.cu", "x\n// BEGIN TODO(rb)\nb();\n// END TODO(rb)\n");
    put(root, "chapters/03-c/chapter.json", "{}\n");
    put(root, "solutions/04-d/d.cu", GOOD_B);
    st_result r = starters(root, ST_WRITE);
    cr_assert_eq(r.rc, 2, "%s%s", r.out, r.err);
    cr_assert(strstr(r.err, "/solutions/02-b/b.cu: line 2: TODO region 'rb' has no hint line"), "%s", r.err);
    cr_assert(strstr(r.err, "/chapters/03-c/c.cu: no reference ") && strstr(r.err, "/solutions/03-c/c.cu"), "%s", r.err);
    cr_assert(strstr(r.err, "solutions/04-d: a reference without its chapter folder chapters/04-d/"), "%s", r.err);
    cr_assert(strstr(r.err, "nothing written (3 problems above)"), "%s", r.err);
    cr_assert_eq(wbt_count(r.err, "\n"), 4, "one line per problem, one to close:\n%s", r.err);
    result_free(&r);
    char *a = get(root, "chapters/01-a/a.cu");
    cr_assert_str_eq(a, "stale\n", "a starter was written though a reference is bad");
    free(a);
    wbt_run(out, "rm -rf '%s'", root);
}
