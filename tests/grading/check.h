/*
 * check.h — shared by tests/test_grading_gpu.c and tests/test_grading_e2e.c: checks one graded
 * submission (grading.json and feedback.md) against its entry in an expected-verdicts file.
 */
#ifndef GRADING_CHECK_H
#define GRADING_CHECK_H

#include "report.h"
#include "../wbtest.h"

static json_t *load(const char *fmt, const char *a)
{
    char p[512];
    snprintf(p, sizeof p, fmt, a);
    json_error_t e;
    json_t *j = json_load_file(p, 0, &e);
    cr_assert_not_null(j, "%s: %s", p, e.text);
    return j;
}

static char *feedback_of(const char *dir)
{
    char p[512];
    snprintf(p, sizeof p, "%s/feedback.md", dir);
    char *t = gr_read_capped(p, 1 << 22, NULL);
    cr_assert_not_null(t, "no %s", p);
    return t;
}

static json_t *variant_of(json_t *g, const char *name)
{
    json_t *ch = json_array_get(json_object_get(g, "chapters"), 0), *v;
    size_t i;
    json_array_foreach(json_object_get(ch, "variants"), i, v) if (!strcmp(json_string_value(json_object_get(v, "variant")), name)) return v;
    return NULL;
}

static int verdict_ok(const char *got, const char *want)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", want);
    for (char *t = strtok(buf, "|"); t; t = strtok(NULL, "|"))
        if (!strcmp(t, got)) return 1;
    return 0;
}

/* Checks one graded submission (grading.json + feedback.md in dir) against its expectations. */
static void check_case(const char *name, json_t *want, const char *dir, int with_sanitizer, int with_perf)
{
    char p[512];
    snprintf(p, sizeof p, "%s/grading.json", dir);
    json_error_t e;
    json_t *g = json_load_file(p, 0, &e);
    cr_assert_not_null(g, "%s: not graded (%s)", name, e.text);
    json_t *ch = json_array_get(json_object_get(g, "chapters"), 0);
    const char *status = json_string_value(json_object_get(ch, "status"));
    const char *wstatus = json_string_value(json_object_get(want, "status"));
    cr_expect_str_eq(status, wstatus, "%s: status", name);
    const char *iso = json_string_value(json_object_get(g, "isolation"));
    const char *k;
    json_t *v;
    json_object_foreach(json_object_get(want, "verdicts"), k, v)
    {
        json_t *got = variant_of(g, k);
        cr_expect_not_null(got, "%s: no variant %s", name, k);
        if (!got) continue;
        const char *gv = json_string_value(json_object_get(got, "verdict"));
        cr_expect(verdict_ok(gv, json_string_value(v)), "%s: %s is %s, expected %s", name, k, gv, json_string_value(v));
    }
    /* "caught": {variant: [names]}: exactly those findings (grading/honesty.h), none for a variant not named */
    json_t *wc = json_object_get(want, "caught");
    if (wc) {
        size_t q;
        json_array_foreach(json_object_get(ch, "variants"), q, v)
        {
            const char *vn = json_string_value(json_object_get(v, "variant"));
            json_t *exp = json_object_get(wc, vn), *got = json_object_get(v, "caught"), *e;
            cr_expect(json_is_array(got), "%s: %s has no \"caught\" list", name, vn);
            cr_expect_eq(json_array_size(got), json_array_size(exp), "%s: %s caught %zu findings, expected %zu", name, vn,
                         json_array_size(got), json_array_size(exp));
            size_t a, b;
            json_array_foreach(exp, a, e)
            {
                int found = 0;
                json_t *gk;
                json_array_foreach(got, b, gk) found |= json_equal(gk, e);
                cr_expect(found, "%s: %s was not caught at %s", name, vn, json_string_value(e));
            }
        }
    }
    /* "if_bubblewrap": expected wherever the course is isolated (bubblewrap, or as root the closed course files) */
    if (iso && (strstr(iso, "bubblewrap") || strstr(iso, "course files closed"))) json_object_foreach(json_object_get(want, "if_bubblewrap"), k, v)
        {
            json_t *got = variant_of(g, k);
            const char *gv = got ? json_string_value(json_object_get(got, "verdict")) : "?";
            cr_expect(verdict_ok(gv, json_string_value(v)), "%s (bubblewrap): %s is %s, expected %s", name, k, gv,
                      json_string_value(v));
        }
    json_t *score = json_object_get(want, "score");
    if (score) cr_expect_float_eq(json_number_value(json_object_get(g, "score")), json_number_value(score), 1e-9, "%s: score", name);
    if (json_is_true(json_object_get(want, "full")) && with_sanitizer && with_perf)
        cr_expect_float_eq(json_number_value(json_object_get(g, "score")), json_number_value(json_object_get(g, "max_score")),
                           1e-9, "%s: full marks", name);
    size_t i;
    json_t *x;
    if (with_sanitizer) {
        json_array_foreach(json_object_get(want, "findings"), i, x)
        {
            json_t *got = variant_of(g, json_string_value(x));
            cr_expect(got && json_is_true(json_object_get(got, "sanitizer_finding")), "%s: %s should have a sanitizer finding",
                      name, json_string_value(x));
        }
        json_array_foreach(json_object_get(want, "not_full"), i, x)
        {
            json_t *got = variant_of(g, json_string_value(x));
            cr_expect(got && json_number_value(json_object_get(got, "score")) < json_number_value(json_object_get(got, "max_score")),
                      "%s: %s must not get full points", name, json_string_value(x));
        }
    }
    char *md = feedback_of(dir);
    json_array_foreach(json_object_get(want, "feedback"), i, x)
    {
        const char *s = json_string_value(x);
        if (!strcmp(s, "memcheck") && !with_sanitizer) continue;
        cr_expect(strstr(md, s), "%s: feedback.md lacks '%s'", name, s);
    }
    const char *pn = json_string_value(json_object_get(want, "perf_note"));
    if (pn && with_perf) cr_expect(strstr(md, pn), "%s: feedback.md lacks '%s'", name, pn);
    free(md);
    json_decref(g);
}

#endif /* GRADING_CHECK_H */
