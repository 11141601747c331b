/* The grader end to end without a GPU: a fake workbook (tests/grading/fake/: "nvcc" is gcc, the
 * chapter is host C with the same command line, --dump files and JSON lines, and a stand-in
 * compute-sanitizer) graded as a class of hostile and buggy submissions (tests/cases/09-fake/bugs/,
 * written by make as build/cases/bugs/ch9/), each checked against its expected.json. It exercises everything the GPU run does:
 * splicing, the sandboxed build, the grader's own comparison and its patterns, isolated re-runs of a
 * variant that crashed or hung, sanitizer attribution by kernel name, the alternating benchmark and its
 * wall-clock cross-check (a forged time is caught), --grading's findings (grading/honesty.h: a cached or
 * stale result, a time beyond the ceiling, host work) and the region screen, the reports and the class CSV. */
#define _GNU_SOURCE 1
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "wbtest.h"

#include "grading/check.h"

Test(grading_e2e, a_fake_chapter_graded_as_a_class, .timeout = 600)
{
    wbt_skip_if_no_isolation();
    static char out[WBT_OUT_MAX];
    char root[64], grade[PATH_MAX], subs[PATH_MAX], expect[PATH_MAX];
    wbt_tmpdir_open(root, sizeof root);
    chmod(root, 0755); /* the programs run as nobody when the tests run as root */
    cr_assert_not_null(realpath("build/course", grade), "build/course is not built");
    cr_assert_not_null(realpath("build/cases/bugs/ch9", subs));
    cr_assert_not_null(realpath("tests/cases/09-fake/bugs/expected.json", expect));
    int rc = wbt_run(out, "cp -r tests/grading/fake/. %s/ && cp common/*.h %s/common/ && make -s -C %s build/grading-flags.json build/solution9 && chmod -R a+rX %s", root, root, root,
                     root);
    cr_assert_eq(rc, 0, "%s", out);
    /* The fake programs never touch the GPU: a lock folder of their own (also in the roster, isolation and
     * Slurm tests), so that on a GPU machine they do not queue behind the real gradings' exclusive runs. */
    rc = wbt_run(out, "cd %s && export WB_GRADE_LOCK_DIR=$PWD && PATH=%s/bin:$PATH %s --class %s --out %s/out --seeds 5,6 --jobs 2 --rubric rubric.json "
                      "> %s/class.log 2>&1",
                 root, root, grade, subs, root, root);
    char log[256];
    snprintf(log, sizeof log, "%s/class.log", root);
    char *text = gr_read_capped(log, 1 << 20, NULL);
    cr_assert_eq(rc, 0, "build/course --class exit %d\n%s", rc, text ? text : "");
    /* A class draws its seeds once: one entry runs the reference on each seed, the others read what it kept
     * (refkeep.h); its benchmark runs are shared too (the rubric's reference_reuse_s), fewer than the students'. */
    cr_expect_eq(wbt_count(text, "] ch9 reference seed 5 "), 1, "the reference ran more than once on seed 5:\n%s", text);
    cr_expect_eq(wbt_count(text, "] ch9 reference seed 6 "), 1, "the reference ran more than once on seed 6:\n%s", text);
    int ref_perf = wbt_count(text, "] ch9 perf ref "), stu_perf = wbt_count(text, "] ch9 perf stu ");
    cr_expect(ref_perf > 0 && 2 * ref_perf < stu_perf, "reference benchmark runs %d, students' %d:\n%s", ref_perf,
              stu_perf, text);
    /* whether the runs reach the GPU is the host's answer: asked once for the class, not per entry */
    cr_expect_leq(wbt_count(text, "] GPU probe "), 2, "the GPU probe ran per entry:\n%s", text);
    free(text);
    json_t *doc = load("%s", expect), *want = json_object_get(doc, "cases");
    const char *name;
    json_t *w;
    int n = 0;
    json_object_foreach(want, name, w)
    {
        if (!json_is_object(w)) continue;
        char dir[512];
        snprintf(dir, sizeof dir, "%s/out/%s", root, name);
        check_case(name, w, dir, 1, 1);
        n++;
    }
    cr_assert_geq(n, 10);
    /* the forged times earned no ratio; the honest ones did */
    char p[512];
    snprintf(p, sizeof p, "%s/out/forged/grading.json", root);
    json_t *g = load("%s", p);
    json_t *v;
    size_t i;
    json_array_foreach(json_object_get(json_array_get(json_object_get(g, "chapters"), 0), "variants"), i, v)
        cr_expect(json_is_null(json_object_get(v, "time_ratio")), "a forged time must earn no ratio");
    json_decref(g);
    snprintf(p, sizeof p, "%s/out/good/grading.json", root);
    g = load("%s", p);
    json_array_foreach(json_object_get(json_array_get(json_object_get(g, "chapters"), 0), "variants"), i, v)
        cr_expect(json_is_number(json_object_get(v, "time_ratio")), "an honest time earns a ratio");
    json_decref(g);
    snprintf(p, sizeof p, "%s/out/grades.csv", root);
    char *csv = gr_read_capped(p, 1 << 20, NULL);
    int rows = 0;
    for (char *c = csv; c && *c; c++) rows += *c == '\n';
    cr_expect_eq(rows, n + 1, "%s", csv);
    free(csv);
    json_decref(doc);
    wbt_run(out, "rm -rf %s", root);
}
