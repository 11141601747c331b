/* corpus.h — the region corpora (tests/grading/exploits/, tests/grading/hostile/): each NAME.cu the text
 * of one TODO region, listed with its chapter, variant and region in the corpus's expected.json under
 * "exploits", spliced into the reference by build/exploit-gen. Shared by test_exploits.c and
 * test_hostile.c. */
#ifndef WB_TEST_CORPUS_H
#define WB_TEST_CORPUS_H

#include "wbtest.h"

#include "gr_util.h"
#include "regions.h"
#include "rubric.h"

#include <glob.h>

/* The corpus's "exploits" object (a new reference); asserts it has at least `min` entries. */
static inline json_t *corpus_entries(const char *corpus, size_t min)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/expected.json", corpus);
    json_error_t je;
    json_t *doc = json_load_file(p, 0, &je);
    cr_assert_not_null(doc, "%s: %s", p, je.text);
    json_t *ex = json_incref(json_object_get(doc, "exploits"));
    json_decref(doc);
    cr_assert(json_is_object(ex) && json_object_size(ex) >= min, "%s: \"exploits\" has fewer than %zu entries", p, min);
    return ex;
}

/* Generates the corpus into dir (the generator's own output, one line per file); asserts it worked. */
static inline void corpus_generate(const char *corpus, const char *dir)
{
    static char out[WBT_OUT_MAX];
    int rc = wbt_run(out, "rm -rf %s && ./build/exploit-gen %s %s", dir, corpus, dir);
    cr_assert_eq(rc, 0, "build/exploit-gen failed (is it built? make build/exploit-gen):\n%s", out);
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
