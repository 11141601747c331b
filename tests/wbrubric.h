/* wbrubric.h — a rubric loaded the way the grader loads it (gr_rubric_load_at): a workbook root with
 * chapter folders holding a chapter.json each, and a rubric.json beside them. Tests that need a rubric
 * of their own write one here instead of writing a chapter's facts inside the rubric. */
#ifndef WBRUBRIC_H
#define WBRUBRIC_H

#include "wbtest.h"

#include "rubric.h"

/* A small chapter's facts: 1-D int32, one variant "v". */
#define WBR_FACTS                                                                                        \
    "{\"dump\": \"int32\", \"edge_sizes\": [\"1\"], \"sanitizer_size\": \"1\", \"perf_size\": \"1000\", " \
    "\"variants\": [{\"name\": \"v\"}]}"
/* The rubric's entry for it (inside a rubric's braces): v earns 1 correctness and 1 performance point. */
#define WBR_ENTRY "\"chapters\": [{\"number\": 1, \"variants\": [{\"name\": \"v\", \"correct\": 1, \"perf\": 1}]}]"

/* root/rel with text, its folders made. */
static inline void wbr_write(const char *root, const char *rel, const char *text)
{
    char p[4096];
    cr_assert_lt(snprintf(p, sizeof p, "%s/%s", root, rel), (int)sizeof p, "%s/%s: too long", root, rel);
    char *slash = strrchr(p, '/');
    *slash = 0;
    gr_mkdirs(p, 0755);
    *slash = '/';
    cr_assert_eq(gr_write_file(p, text, strlen(text)), 0, "%s", p);
}

/* Loads root's workbook with the rubric text; the error (or "") in err. */
static inline int wbr_load_at(const char *root, const char *rubric, gr_rubric *r, char *err, size_t elen)
{
    wbr_write(root, "rubric.json", rubric);
    char p[4096];
    cr_assert_lt(snprintf(p, sizeof p, "%s/rubric.json", root), (int)sizeof p, "%s: too long", root);
    err[0] = 0;
    return gr_rubric_load_at(root, p, r, err, elen);
}

/* A workbook of one chapter, chapters/01-d/ with facts (WBR_FACTS where NULL), graded by the rubric text,
 * in a temporary folder removed afterwards. Returns gr_rubric_load_at's result. */
static inline int wbr_load(const char *facts, const char *rubric, gr_rubric *r, char *err, size_t elen)
{
    char root[512];
    wbt_tmpdir(root, sizeof root);
    wbr_write(root, "chapters/01-d/chapter.json", facts ? facts : WBR_FACTS);
    int rc = wbr_load_at(root, rubric, r, err, elen);
    static char out[WBT_OUT_MAX];
    wbt_run(out, "rm -rf '%s'", root);
    return rc;
}

/* The workbook's own grading/rubric.json (run from the workbook's root). */
static inline void wbr_load_real(gr_rubric *r)
{
    char err[600];
    cr_assert_eq(gr_rubric_load_at(".", "grading/rubric.json", r, err, sizeof err), 0, "%s", err);
}

#endif /* WBRUBRIC_H */
