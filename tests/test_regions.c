/* The TODO-region contract: every starter equals its solution outside the regions, and the splicer
 * the grader uses takes exactly the regions. No GPU needed. */
#include <glob.h>

#include "regions.h"
#include "wbtest.h"

static char *outside_of(const char *path, size_t *len)
{
    size_t n;
    char *text = wb_read_file(path, &n);
    cr_assert_not_null(text, "cannot read %s", path);
    char err[256];
    char *out = wb_regions_outside(text, n, len, err, sizeof err);
    cr_assert_not_null(out, "%s: %s", path, err);
    free(text);
    return out;
}

Test(regions, starters_match_solutions_outside_regions)
{
    glob_t g;
    cr_assert_eq(glob("chapters/[0-9][0-9]-*/*.cu", 0, NULL, &g), 0, "no chapters found (run from the root)");
    for (size_t i = 0; i < g.gl_pathc; i++) {
        const char *starter = g.gl_pathv[i];
        char solution[512];
#ifdef WBT_STUDENT_RELEASE /* no solutions: your chapter must still equal the pristine starter outside its regions */
        snprintf(solution, sizeof solution, "grading/pristine/%s", starter + strlen("chapters/"));
#else
        snprintf(solution, sizeof solution, "solutions/%s", starter + strlen("chapters/"));
#endif
        cr_assert_eq(access(solution, R_OK), 0, "%s has no counterpart at %s", starter, solution);
        size_t a_len, b_len;
        char *a = outside_of(starter, &a_len), *b = outside_of(solution, &b_len);
        size_t k = 0;
        while (k < a_len && k < b_len && a[k] == b[k]) k++;
        int line = 1;
        for (size_t j = 0; j < k; j++) line += a[j] == '\n';
        cr_assert(a_len == b_len && k == a_len,
                  "%s and %s differ outside the TODO regions (first at line %d of the regions-stripped text)",
                  starter, solution, line);
        wb_region r[64];
        char err[256];
        size_t n = 0;
        char *text = wb_read_file(starter, &n);
        cr_assert_not_null(text, "cannot read %s", starter);
        cr_assert_gt(wb_regions_parse(text, n, r, 64, err, sizeof err), 0, "%s has no TODO region", starter);
        free(text);
        free(a);
        free(b);
    }
    globfree(&g);
}

static const char *pristine = "head\n  // BEGIN TODO(a)\n  old a\n  // END TODO(a)\nmid\n"
                              "// BEGIN TODO(b-2)\n// END TODO(b-2)\ntail\n";

Test(regions, splice_takes_only_regions)
{
    const char *student = "EDITED head\n  // BEGIN TODO(a)\nnew a\n  // END TODO(a)\nEDITED mid\n"
                          "// BEGIN TODO(b-2)\nnew b\nmore b\n// END TODO(b-2)\n";
    char err[256];
    size_t n;
    char *out = wb_regions_splice(pristine, strlen(pristine), student, strlen(student), &n, err, sizeof err);
    cr_assert_not_null(out, "%s", err);
    cr_assert_str_eq(out, "head\n  // BEGIN TODO(a)\nnew a\n  // END TODO(a)\nmid\n"
                          "// BEGIN TODO(b-2)\nnew b\nmore b\n// END TODO(b-2)\ntail\n");
    free(out);
}

struct mangled {
    const char *text, *why;
};
ParameterizedTestParameters(regions, mangled_markers)
{
    static struct mangled cases[] = {
        {"// BEGIN TODO(a)\nx\n", "never closed"},
        {"x\n// END TODO(a)\n", "without a matching BEGIN"},
        {"// BEGIN TODO(a)\n// BEGIN TODO(b)\n// END TODO(b)\n// END TODO(a)\n", "inside region"},
        {"// BEGIN TODO(a)\n// END TODO(b)\n", "without a matching BEGIN"},
        {"// BEGIN TODO(a)\n// END TODO(a)\n// BEGIN TODO(a)\n// END TODO(a)\n", "twice"},
        {"// BEGIN TODO()\n", "malformed"},
        {"// BEGIN TODO(a b)\n// END TODO(a b)\n", "malformed"},
        {"// BEGIN TODO(a) trailing\n", "malformed"},
    };
    return cr_make_param_array(struct mangled, cases, sizeof cases / sizeof cases[0]);
}
ParameterizedTest(struct mangled *m, regions, mangled_markers)
{
    wb_region r[8];
    char err[256] = "";
    cr_assert_eq(wb_regions_parse(m->text, strlen(m->text), r, 8, err, sizeof err), -1);
    cr_assert(strstr(err, m->why), "reason '%s' should mention '%s'", err, m->why);
}

Test(regions, splice_missing_region_is_not_gradable)
{
    const char *student = "// BEGIN TODO(a)\nx\n// END TODO(a)\n";
    char err[256];
    size_t n;
    cr_assert_null(wb_regions_splice(pristine, strlen(pristine), student, strlen(student), &n, err, sizeof err));
    cr_assert(strstr(err, "'b-2' is missing"), "%s", err);
}

/* wb_norm_line: white space made single, none at the ends; C tokens counted (the leak check's measure). */
Test(regions, norm_line_collapses_space_and_counts_tokens)
{
    char o[64];
    const char *l = "\t\tsum  +=  As[ty][k] *\tBs[k][tx];  ";
    cr_assert_eq(wb_norm_line(l, strlen(l), o, sizeof o), 19u); /* sum + = As [ ty ] [ k ] * Bs [ k ] [ tx ] ; */
    cr_assert_str_eq(o, "sum += As[ty][k] * Bs[k][tx];");
    cr_assert_eq(wb_norm_line("   }", 4, o, sizeof o), 1u);
    cr_assert_str_eq(o, "}");
    cr_assert_eq(wb_norm_line("__syncthreads();", 16, o, sizeof o), 4u);
    cr_assert_eq(wb_norm_line("long q = gridDim.z * blockDim.z + lane;", 39, o, sizeof o), 9u);
    cr_assert_eq(wb_norm_line("", 0, o, sizeof o), 0u);
    cr_assert_str_eq(o, "");
    char small[8];
    wb_norm_line("abcdefghijkl", 12, small, sizeof small);
    cr_assert_str_eq(small, "abcdefg", "cut at the buffer");
}
