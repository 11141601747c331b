/* corpus.h — the region suites of tests/cases/ (tests/cases/README.md): a suite's cases gathered from every
 * chapter's folder tests/cases/NN-name/SUITE/, each a NAME.regions replacing regions of the reference,
 * written as submissions by build/case-gen. Shared by test_exploits.c and test_hostile.c. */
#ifndef WB_TEST_CORPUS_H
#define WB_TEST_CORPUS_H

#include "wbtest.h"

#include "gr_util.h"
#include "regions.h"
#include "rubric.h"

#include <glob.h>

/* The region of a case file (its first, of one or more): its name into reg, its text returned (malloc'd). */
static inline char *corpus_case_region(const char *path, wb_region *reg)
{
    size_t len;
    char *text = wb_read_file(path, &len), err[300];
    cr_assert_not_null(text, "cannot read %s", path);
    wb_region all[64];
    int n = wb_regions_parse(text, len, all, 64, err, sizeof err);
    cr_assert_geq(n, 1, "%s: %s", path, n < 0 ? err : "no region");
    *reg = all[0];
    return text;
}

/* Every case of the suite, over all chapters (a new reference), each entry given "chapter" (from its folder),
 * "file" (its NAME.regions) and "region" (the region that file replaces); asserts at least `min`. */
static inline json_t *corpus_entries(const char *suite, size_t min)
{
    char pat[PATH_MAX];
    snprintf(pat, sizeof pat, "tests/cases/[0-9]*-*/%s/expected.json", suite);
    glob_t g;
    cr_assert_eq(glob(pat, 0, NULL, &g), 0, "no %s", pat);
    json_t *all = json_object();
    for (size_t i = 0; i < g.gl_pathc; i++) {
        json_error_t je;
        json_t *doc = json_load_file(g.gl_pathv[i], 0, &je), *e;
        cr_assert(json_is_object(json_object_get(doc, "cases")), "%s: no \"cases\" (%s)", g.gl_pathv[i], je.text);
        const char *name, *folder = g.gl_pathv[i] + strlen("tests/cases/");
        json_object_foreach(json_object_get(doc, "cases"), name, e)
        {
            char file[PATH_MAX];
            snprintf(file, sizeof file, "%.*s/%s.regions", (int)(strrchr(g.gl_pathv[i], '/') - g.gl_pathv[i]),
                     g.gl_pathv[i], name);
            wb_region reg;
            free(corpus_case_region(file, &reg));
            json_t *c = json_deep_copy(e);
            json_object_set_new(c, "chapter", json_integer(atoi(folder)));
            json_object_set_new(c, "file", json_string(file));
            json_object_set_new(c, "region", json_string(reg.name));
            cr_assert_null(json_object_get(all, name), "%s: two cases named %s", suite, name);
            json_object_set_new(all, name, c);
        }
        json_decref(doc);
    }
    globfree(&g);
    cr_assert(json_object_size(all) >= min, "%s: fewer than %zu cases", pat, min);
    return all;
}

/* Generates the suite into dir (the generator's own output, one line per file); asserts it worked. */
static inline void corpus_generate(const char *suite, const char *dir)
{
    static char out[WBT_OUT_MAX];
    int rc = wbt_run(out, "rm -rf %s && ./build/case-gen %s %s", dir, suite, dir);
    cr_assert_eq(rc, 0, "build/case-gen failed (is it built? make build/case-gen):\n%s", out);
}

/* The generated file of one entry: its text (malloc'd), the reference it was made from in sol, and the
 * named region inside it. */
static inline char *corpus_submission(const char *dir, const char *name, json_t *e, char *sol, size_t sol_len,
                                      wb_region *reg)
{
    int ch = (int)json_integer_value(json_object_get(e, "chapter"));
    char pat[PATH_MAX];
    snprintf(pat, sizeof pat, "%s/ch%d/%s/chapters/*/*.cu", dir, ch, name);
    glob_t g;
    cr_assert_eq(glob(pat, 0, NULL, &g), 0, "%s: no submission %s", name, pat);
    size_t len;
    char *text = wb_read_file(g.gl_pathv[0], &len);
    cr_assert_not_null(text);
    snprintf(pat, sizeof pat, "solutions/%02d-*/*.cu", ch);
    globfree(&g);
    cr_assert_eq(glob(pat, 0, NULL, &g), 0);
    snprintf(sol, sol_len, "%s", g.gl_pathv[0]);
    globfree(&g);
    wb_region r[64];
    char err[300];
    int n = wb_regions_parse(text, len, r, 64, err, sizeof err), k = -1;
    cr_assert_geq(n, 1, "%s: %s", name, err);
    for (int i = 0; i < n; i++)
        if (!strcmp(r[i].name, json_string_value(json_object_get(e, "region")))) k = i;
    cr_assert_geq(k, 0, "%s: the submission has no region %s", name, json_string_value(json_object_get(e, "region")));
    *reg = r[k];
    return text;
}

/* The rubric's chapter `number`; asserts it is there. */
static inline const gr_chapter_rubric *corpus_chapter(const gr_rubric *rub, int number)
{
    for (int i = 0; i < rub->n_ch; i++)
        if (rub->ch[i].number == number) return &rub->ch[i];
    cr_assert_fail("the rubric has no chapter %d", number);
    return NULL;
}

#endif /* WB_TEST_CORPUS_H */
