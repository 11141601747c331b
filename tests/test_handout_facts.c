/*
 * test_handout_facts.c — what a handout states that a chapter's chapter.json also holds is said once:
 * the size the grader times at. A handout that names it writes "against the reference at `SIZE`
 * (`perf_size` in `chapter.json`)", and SIZE is chapter.json's perf_size, so that changing one without
 * the other fails here.
 */
#include <glob.h>

#include "regions.h" /* wb_read_file */
#include "wbtest.h"

#include <jansson.h>

Test(handout_facts, the_timed_size_is_chapter_json_perf_size)
{
    glob_t g;
    cr_assert_eq(glob("chapters/[0-9][0-9]-*/chapter.json", 0, NULL, &g), 0, "no chapters (run from the repository root)");
    int named = 0;
    for (size_t k = 0; k < g.gl_pathc; k++) {
        int n = atoi(g.gl_pathv[k] + strlen("chapters/"));
        json_error_t e;
        json_t *ch = json_load_file(g.gl_pathv[k], 0, &e);
        cr_assert_not_null(ch, "%s: %s", g.gl_pathv[k], e.text);
        const char *perf = json_string_value(json_object_get(ch, "perf_size"));
        cr_assert_not_null(perf, "%s has no perf_size", g.gl_pathv[k]);
        char md[64];
        snprintf(md, sizeof md, "handouts/ch%d.md", n);
        size_t len;
        char *text = wb_read_file(md, &len);
        if (!text) {
            json_decref(ch);
            continue;
        }
        /* the handout's words wrap, so compare with every run of spaces and newlines as one space */
        for (char *w = text, *r = text;; r++) {
            if (*r == '\n' || *r == ' ') {
                if (w == text || w[-1] != ' ') *w++ = ' ';
            } else {
                *w++ = *r;
            }
            if (!*r) break;
        }
        const char *at = strstr(text, "against the reference at `");
        if (at) {
            char want[160];
            snprintf(want, sizeof want, "against the reference at `%s` (`perf_size` in `chapter.json`)", perf);
            cr_assert(strncmp(at, want, strlen(want)) == 0, "%s times at %.60s…, but %s's perf_size is %s", md,
                      at + strlen("against the reference at "), g.gl_pathv[k], perf);
            named++;
        }
        free(text);
        json_decref(ch);
    }
    globfree(&g);
    cr_assert_geq(named, 2, "chapters 4 and 5's handouts name the size they are timed at");
}
