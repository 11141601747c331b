/* The handouts tell the truth about the code and the measurements: every quoted excerpt is the current
 * source, every variant and TODO region a handout names exists, no measured number is typed in by
 * hand, and the tables and plots are what `make handouts` generates from a results file. No GPU needed
 * (the programs' --list works without one). */
#include <ctype.h>
#include <glob.h>

#include "regions.h"
#include "wbtest.h"
#include "wbresults.h"

/* ------------------------------------------------------------------ helpers */
typedef struct {
    char **items;
    size_t n;
} strlist;

static void strlist_add(strlist *l, const char *s, size_t len)
{
    l->items = realloc(l->items, (l->n + 1) * sizeof *l->items);
    l->items[l->n] = strndup(s, len);
    l->n++;
}

static int strlist_has(const strlist *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i], s) == 0) return 1;
    return 0;
}

static void strlist_free(strlist *l)
{
    for (size_t i = 0; i < l->n; i++) free(l->items[i]);
    free(l->items);
    memset(l, 0, sizeof *l);
}

/* The lines of a text, each without its newline (the text is modified). */
static strlist split_lines(char *text)
{
    strlist l = {0};
    char *at = text;
    while (*at) {
        char *nl = strchr(at, '\n');
        size_t len = nl ? (size_t)(nl - at) : strlen(at);
        strlist_add(&l, at, len);
        at += len + (nl != NULL);
    }
    return l;
}

static char *read_text(const char *path)
{
    size_t n;
    char *t = wb_read_file(path, &n);
    cr_assert_not_null(t, "cannot read %s (run the tests from the repository root)", path);
    return t;
}

/* Chapter handouts: handouts/chN.md, N of one or two digits (chapter 10 is a chapter like the others). */
static size_t chapter_handouts(glob_t *g)
{
    size_t n = wbt_glob_chapters("handouts", ".md", g);
    cr_assert(n > 0, "no handouts/chN.md found (run from the repository root)");
    return n;
}

static int handout_chapter(const char *path) { return wbt_chapter_of_path(path); }

/* The names written as `name`{.CLASS} in a handout (pandoc's inline-code attribute). */
static strlist tagged(const char *text, const char *cls)
{
    strlist l = {0};
    char tag[32];
    snprintf(tag, sizeof tag, "`{.%s}", cls);
    for (const char *p = strstr(text, tag); p; p = strstr(p + 1, tag)) {
        const char *open = p - 1;
        while (open >= text && *open != '`' && *open != '\n') open--;
        cr_assert(open >= text && *open == '`', "a {.%s} tag without its `name` before it", cls);
        strlist_add(&l, open + 1, (size_t)(p - open - 1));
    }
    return l;
}

/* ------------------------------------------------------------------ excerpts */
/* Which file a handout's quote of chapters/ is checked against: the starter as the course ships it. In the
 * course repository that is chapters/ itself. In the student release chapters/ holds the student's own
 * work (a filled region is no longer what the handout quotes), and the release ships the pristine starters
 * in grading/pristine/ (scripts/dist-student.sh): those are what the handouts quote. */
typedef struct {
    const char *from, *to; /* a quoted path that starts with `from` is read with `to` in its place */
} quote_root;

#ifdef WBT_STUDENT_RELEASE
static const quote_root QUOTED = {"chapters/", "grading/pristine/"};
#else
static const quote_root QUOTED = {NULL, NULL};
#endif

static void quoted_path(quote_root root, const char *file, char *path, size_t len)
{
    if (root.from && strncmp(file, root.from, strlen(root.from)) == 0)
        snprintf(path, len, "%s%s", root.to, file + strlen(root.from));
    else
        snprintf(path, len, "%s", file);
}

/* The starter of chapter n (chapters/0n-*\/\*.cu), as the handouts quote it (see quoted_path). */
static void starter_of(int n, char *path, size_t len)
{
    char pat[64];
    glob_t g;
    snprintf(pat, sizeof pat, "chapters/%02d-*/*.cu", n);
    cr_assert(glob(pat, 0, NULL, &g) == 0 && g.gl_pathc == 1, "chapter %d has no single starter %s", n, pat);
    quoted_path(QUOTED, g.gl_pathv[0], path, len);
    globfree(&g);
}

/* An excerpt is announced by a comment line, followed at once by a fenced code block:
 *   <!-- excerpt: FILE region NAME -->             the region's lines, BEGIN and END markers included
 *   <!-- excerpt: FILE from "A" to "B" -->         from the one line that starts with A to the first
 *                                                  line after it that starts with B
 * FILE is read where `root` says. Returns the source lines the excerpt quotes, as one string (lines ending
 * in '\n'), with the 1-based number of its first line in *first and the file read in path; or NULL with the
 * reason in err. */
static char *excerpt_source(const char *spec, quote_root root, char *path, size_t pathlen, size_t *first_line,
                            char *err, size_t errlen)
{
    char file[256], kind[16];
    int used = 0;
    if (sscanf(spec, "%255s %15s %n", file, kind, &used) != 2) {
        snprintf(err, errlen, "cannot parse excerpt '%s'", spec);
        return NULL;
    }
    quoted_path(root, file, path, pathlen);
    size_t src_len;
    char *src = wb_read_file(path, &src_len), *out = NULL;
    if (!src) {
        snprintf(err, errlen, "excerpt of %s, which cannot be read (as %s)", file, path);
        return NULL;
    }
    if (strcmp(kind, "region") == 0) {
        char name[WB_REGION_NAME] = "";
        wb_region r[64];
        char why[256];
        int n = wb_regions_parse(src, src_len, r, 64, why, sizeof why);
        if (sscanf(spec + used, "%63s", name) != 1 || n < 0)
            snprintf(err, errlen, "excerpt '%.200s': %.200s", spec, n < 0 ? why : "no region name");
        for (int k = 0; k < n; k++) {
            if (strcmp(r[k].name, name) != 0) continue;
            size_t b = r[k].begin - 1; /* the BEGIN line's newline */
            while (b > 0 && src[b - 1] != '\n') b--;
            const char *e = strchr(src + r[k].end, '\n');
            size_t end = e ? (size_t)(e - src) + 1 : src_len;
            out = strndup(src + b, end - b);
            *first_line = (size_t)r[k].line;
        }
        if (!out && n >= 0) snprintf(err, errlen, "excerpt of region '%s', which %s does not have", name, path);
    } else if (strcmp(kind, "from") == 0) {
        const char *a0 = strchr(spec + used, '"'), *a1 = a0 ? strchr(a0 + 1, '"') : NULL;
        const char *to = a1 ? strstr(a1, " to \"") : NULL;
        const char *b0 = to ? to + 4 : NULL, *b1 = b0 ? strchr(b0 + 1, '"') : NULL;
        if (!(a0 && a1 && b0 && b1)) {
            snprintf(err, errlen, "excerpt '%.200s' is not: FILE from \"A\" to \"B\"", spec);
        } else {
            char *a = strndup(a0 + 1, (size_t)(a1 - a0 - 1)), *b = strndup(b0 + 1, (size_t)(b1 - b0 - 1));
            strlist lines = split_lines(src);
            size_t first = lines.n, count = 0, last;
            for (size_t i = 0; i < lines.n; i++)
                if (strncmp(lines.items[i], a, strlen(a)) == 0 && !count++) first = i;
            for (last = first + 1; last < lines.n && strncmp(lines.items[last], b, strlen(b)) != 0; last++) continue;
            if (count != 1) {
                snprintf(err, errlen, "%zu lines of %s start with \"%s\" (an excerpt needs exactly one)", count, path, a);
            } else if (last >= lines.n) {
                snprintf(err, errlen, "no line after \"%s\" in %s starts with \"%s\"", a, path, b);
            } else {
                size_t len = 0;
                for (size_t i = first; i <= last; i++) len += strlen(lines.items[i]) + 1;
                out = malloc(len + 1);
                out[0] = 0;
                for (size_t i = first; i <= last; i++) strcat(strcat(out, lines.items[i]), "\n");
                *first_line = first + 1;
            }
            strlist_free(&lines);
            free(a);
            free(b);
        }
    } else {
        snprintf(err, errlen, "excerpt kind '%.15s' (expected region or from)", kind);
    }
    free(src);
    return out;
}

/* Where two texts of lines first differ: the 1-based line number (0 when they are equal), with each
 * side's line at that number in a and b (cut at alen/blen; "(the text ends here)" where one is shorter). */
static size_t first_difference(const char *x, const char *y, char *a, size_t alen, char *b, size_t blen)
{
    size_t line = 1;
    while (*x || *y) {
        size_t nx = strcspn(x, "\n"), ny = strcspn(y, "\n");
        int x_end = !*x, y_end = !*y;
        if (x_end || y_end || nx != ny || memcmp(x, y, nx) != 0) {
            snprintf(a, alen, x_end ? "(the text ends here)" : "%.*s", (int)nx, x);
            snprintf(b, blen, y_end ? "(the text ends here)" : "%.*s", (int)ny, y);
            return line;
        }
        x += nx + (x[nx] == '\n');
        y += ny + (y[ny] == '\n');
        line++;
    }
    return 0;
}

/* Checks every excerpt of one Markdown file, its quotes read where `root` says. Returns how many it found,
 * or -1 with the first problem (file:line and what is wrong; for a quote that differs, the first line
 * that differs on each side with its line number) in err. */
static int check_excerpts(const char *md_path, quote_root root, char *err, size_t errlen)
{
    size_t tlen;
    char *text = wb_read_file(md_path, &tlen);
    if (!text) {
        snprintf(err, errlen, "cannot read %s", md_path);
        return -1;
    }
    strlist lines = split_lines(text);
    int found = 0;
    const char *open = "<!-- excerpt: ";
    for (size_t i = 0; i < lines.n && found >= 0; i++) {
        const char *l = lines.items[i], *close = strstr(l, " -->");
        if (strncmp(l, open, strlen(open)) != 0) continue;
        char spec[256], why[1536], path[512];
        size_t first_line = 1;
        snprintf(spec, sizeof spec, "%.*s", close ? (int)(close - l - strlen(open)) : 0, l + strlen(open));
        size_t len = 0, j = i + 2;
        for (; j < lines.n && strcmp(lines.items[j], "```") != 0; j++) len += strlen(lines.items[j]) + 1;
        char *source = NULL;
        if (!close) snprintf(why, sizeof why, "excerpt comment without ' -->'");
        else if (i + 1 >= lines.n || strncmp(lines.items[i + 1], "```", 3) != 0)
            snprintf(why, sizeof why, "the excerpt comment must be followed at once by a ``` code block");
        else if (j >= lines.n) snprintf(why, sizeof why, "the code block is not closed");
        else source = excerpt_source(spec, root, path, sizeof path, &first_line, why, sizeof why);
        if (source) {
            char *quoted = malloc(len + 1), qline[400], sline[400];
            quoted[0] = 0;
            for (size_t k = i + 2; k < j; k++) strcat(strcat(quoted, lines.items[k]), "\n");
            size_t k = first_difference(quoted, source, qline, sizeof qline, sline, sizeof sline);
            if (k)
                snprintf(why, sizeof why,
                         "the quoted code differs from the source (%.200s), first at the excerpt's line %zu:\n"
                         "  %.100s:%zu: %.300s\n  %.200s:%zu: %.300s",
                         spec, k, md_path, i + 2 + k, qline, path, first_line + k - 1, sline);
            else found++;
            free(quoted);
            free(source);
            if (!k) {
                i = j;
                continue;
            }
        }
        snprintf(err, errlen, "%.100s:%zu: %.1900s", md_path, i + 1, why);
        found = -1;
    }
    strlist_free(&lines);
    free(text);
    return found;
}

/* Every chapter handout is checked and each one's first problem reported (an assertion that stopped at
 * the first handout hid the later ones: a student's ch1 failing hid what ch5 said). */
Test(handouts, chapter_excerpts_match_the_source)
{
    glob_t g;
    chapter_handouts(&g);
    char err[2048];
    for (size_t i = 0; i < g.gl_pathc; i++) {
        int n = check_excerpts(g.gl_pathv[i], QUOTED, err, sizeof err);
        cr_expect_geq(n, 0, "%s", err);
        cr_expect_neq(n, 0, "%s quotes no code (an excerpt names its file and range)", g.gl_pathv[i]);
    }
    globfree(&g);
}

/* Whitespace runs become one space, so that a quote wrapped in prose matches the source's lines. */
static char *squeeze_space(const char *s)
{
    char *out = malloc(strlen(s) + 1), *o = out;
    for (; *s; s++) {
        if (isspace((unsigned char)*s)) {
            if (o > out && o[-1] != ' ') *o++ = ' ';
        } else {
            *o++ = *s;
        }
    }
    *o = 0;
    return out;
}

/* Quotes of the source in prose ("the comment says \"...\"") are not excerpts, so nothing else checks
 * them: each must still be in a chapter or solution file. Returns how many it checked, or -1 with the
 * first quote that is not there in err. */
static int check_prose_quotes(const char *md_path, const char *sources, char *err, size_t errlen)
{
    size_t len;
    char *text = wb_read_file(md_path, &len);
    if (!text) {
        snprintf(err, errlen, "cannot read %s", md_path);
        return -1;
    }
    int n = 0;
    for (const char *p = text; (p = strstr(p, "says \"")) != NULL;) {
        const char *a = p + 6, *b = strchr(a, '"');
        if (!b) break;
        char *raw = strndup(a, (size_t)(b - a)), *q = squeeze_space(raw);
        int found = strstr(sources, q) != NULL;
        if (!found) {
            int line = 1;
            for (const char *c = text; c < p; c++) line += *c == '\n';
            snprintf(err, errlen, "%.100s:%d quotes \"%.200s\", which no chapter or solution file contains", md_path,
                     line, q);
        }
        free(raw);
        free(q);
        if (!found) {
            n = -1;
            break;
        }
        n++;
        p = b + 1;
    }
    free(text);
    return n;
}

/* Every chapter and solution file, whitespace squeezed, as one string. */
static char *all_sources(void)
{
    glob_t g;
    size_t cap = 1, used = 0;
    char *all = calloc(1, 1);
    const char *pats[] = {"chapters/*/*.cu", "solutions/*/*.cu"};
    for (size_t k = 0; k < 2; k++) {
        if (glob(pats[k], 0, NULL, &g) != 0) continue;
        for (size_t i = 0; i < g.gl_pathc; i++) {
            size_t len;
            char *src = wb_read_file(g.gl_pathv[i], &len), *sq = src ? squeeze_space(src) : NULL;
            if (sq) {
                size_t n = strlen(sq);
                cap = used + n + 2;
                all = realloc(all, cap);
                memcpy(all + used, sq, n);
                used += n;
                all[used++] = '\n';
                all[used] = 0;
            }
            free(src);
            free(sq);
        }
        globfree(&g);
    }
    return all;
}

Test(handouts, instructor_excerpts_match_the_source)
{
    glob_t g;
    char err[1024];
    if (glob("handouts/instructor/*.md", 0, NULL, &g) != 0)
        cr_skip_test("this copy has no instructor notes (handouts/instructor/; the student release leaves them out)");
    char *sources = all_sources();
    for (size_t i = 0; i < g.gl_pathc; i++) {
        int n = check_excerpts(g.gl_pathv[i], QUOTED, err, sizeof err);
        cr_assert_geq(n, 0, "%s", err);
        if (strstr(g.gl_pathv[i], "answers.md"))
            cr_assert_gt(n, 0, "%s quotes no code through an excerpt (the answers discuss the references)", g.gl_pathv[i]);
        cr_assert_geq(check_prose_quotes(g.gl_pathv[i], sources, err, sizeof err), 0, "%s", err);
    }
    free(sources);
    globfree(&g);
}

/* The prose-quote check itself: a quote that the source no longer has is caught, a wrapped one is found. */
Test(handouts, a_prose_quote_of_a_comment_that_is_gone_is_caught)
{
    char dir[64], md[128], err[1024];
    wbt_tmpdir(dir, sizeof dir);
    snprintf(md, sizeof md, "%s/a.md", dir);
    FILE *f = fopen(md, "w");
    fputs("The comment says \"a warp's transposing\nstores\", fine.\n", f);
    fclose(f);
    char *sources = squeeze_space("/* a warp's transposing   stores then hit 16 banks */\n");
    cr_assert_eq(check_prose_quotes(md, sources, err, sizeof err), 1, "%s", err);
    f = fopen(md, "w");
    fputs("line one\nThe comment on `A_PAD` says \"32 different banks\"; the computation says 16.\n", f);
    fclose(f);
    cr_assert_eq(check_prose_quotes(md, sources, err, sizeof err), -1);
    cr_assert(strstr(err, "a.md:2 quotes \"32 different banks\""), "%s", err);
    free(sources);
    remove(md);
    rmdir(dir);
}

/* The checker itself: a quote that no longer matches, or a range that is not there, is caught; a quote
 * that differs names its first differing line on each side, with both line numbers. */
Test(handouts, a_stale_or_dangling_excerpt_is_caught)
{
    char dir[64], md[128], src[128], err[2048];
    const quote_root as_named = {NULL, NULL};
    wbt_tmpdir(dir, sizeof dir);
    snprintf(src, sizeof src, "%s/a.cu", dir);
    snprintf(md, sizeof md, "%s/h.md", dir);
    const char *code = "int x;\nstatic void f(void)\n{\n    // BEGIN TODO(r)\n    x = 1;\n    // END TODO(r)\n}\n";
    FILE *f = fopen(src, "w");
    fputs(code, f);
    fclose(f);
    f = fopen(md, "w");
    fprintf(f, "text\n<!-- excerpt: %s from \"static void f\" to \"}\" -->\n```c\nstatic void f(void)\n{\n"
               "    // BEGIN TODO(r)\n    x = 1;\n    // END TODO(r)\n}\n```\n"
               "<!-- excerpt: %s region r -->\n```c\n    // BEGIN TODO(r)\n    x = 1;\n    // END TODO(r)\n```\n",
            src, src);
    fclose(f);
    cr_assert_eq(check_excerpts(md, as_named, err, sizeof err), 2, "%s", err);
    /* The source changes under the handout: the message shows the two lines, not both texts cut short. */
    f = fopen(src, "w");
    fputs("int x;\nstatic void f(void)\n{\n    // BEGIN TODO(r)\n    x = 2;\n    // END TODO(r)\n}\n", f);
    fclose(f);
    cr_assert_eq(check_excerpts(md, as_named, err, sizeof err), -1);
    char want[700];
    snprintf(want, sizeof want, "h.md:2: the quoted code differs from the source (%s from \"static void f\" to \"}\"), "
             "first at the excerpt's line 4:\n  %s:7:     x = 1;\n  %s:5:     x = 2;", src, md, src);
    cr_assert(strstr(err, want), "expected\n%s\nin\n%s", want, err);
    /* A source that grew a line inside the quoted range: the quote ends where the source goes on. */
    f = fopen(src, "w");
    fputs("int x;\nstatic void f(void)\n{\n    // BEGIN TODO(r)\n    x = 1;\n    // END TODO(r)\n    x++;\n}\n", f);
    fclose(f);
    cr_assert_eq(check_excerpts(md, as_named, err, sizeof err), -1);
    cr_assert(strstr(err, ":9: }\n") && strstr(err, "a.cu:7:     x++;"), "%s", err);
    /* The quoted function or region disappears. */
    f = fopen(src, "w");
    fputs("int x;\n", f);
    fclose(f);
    cr_assert_eq(check_excerpts(md, as_named, err, sizeof err), -1);
    cr_assert(strstr(err, "0 lines of") && strstr(err, "start with \"static void f\""), "%s", err);
    remove(src);
    remove(md);
    rmdir(dir);
}

/* In the student release the handouts' quotes of chapters/ are read from the pristine starters: a student's
 * filled region (and a function whose first `}` now lies inside the student's code) is not a stale
 * handout. The same handout read against the working file fails, as it must in the course repository. */
Test(handouts, quotes_are_checked_against_the_pristine_starter_where_one_is_named)
{
    char dir[64], md[256], err[2048];
    wbt_tmpdir(dir, sizeof dir);
    static char out[WBT_OUT_MAX];
    int rc = wbt_run(out, "mkdir -p '%1$s/chapters/01-x' '%1$s/pristine/01-x' && cd '%1$s' && "
                          "printf 'int x;\\nvoid f(void)\\n{\\n    // BEGIN TODO(r)\\n    /* hint */\\n    // END TODO(r)\\n}\\n' "
                          "> pristine/01-x/x.cu && "
                          "printf 'int x;\\nvoid f(void)\\n{\\n    // BEGIN TODO(r)\\n    if (x) {\\n        x = 1;\\n    }\\n"
                          "    // END TODO(r)\\n}\\n' > chapters/01-x/x.cu",
                     dir);
    cr_assert_eq(rc, 0, "%s", out);
    snprintf(md, sizeof md, "%s/h.md", dir);
    FILE *f = fopen(md, "w");
    fprintf(f, "<!-- excerpt: %1$s/chapters/01-x/x.cu from \"void f\" to \"}\" -->\n```c\nvoid f(void)\n{\n"
               "    // BEGIN TODO(r)\n    /* hint */\n    // END TODO(r)\n}\n```\n"
               "<!-- excerpt: %1$s/chapters/01-x/x.cu region r -->\n```c\n    // BEGIN TODO(r)\n    /* hint */\n"
               "    // END TODO(r)\n```\n",
            dir);
    fclose(f);
    char from[128], to[128];
    snprintf(from, sizeof from, "%s/chapters/", dir);
    snprintf(to, sizeof to, "%s/pristine/", dir);
    const quote_root release = {from, to}, as_named = {NULL, NULL};
    cr_expect_eq(check_excerpts(md, release, err, sizeof err), 2, "%s", err);
    cr_expect_eq(check_excerpts(md, as_named, err, sizeof err), -1, "the student's file matched the starter's quote");
    cr_expect(strstr(err, "chapters/01-x/x.cu:5:     if (x) {"), "%s", err);
    wbt_run(out, "rm -rf '%s'", dir);
}

/* ------------------------------------------------------------------ variants and regions */
Test(handouts, every_variant_named_exists_and_every_variant_is_named, .timeout = 60)
{
    glob_t g;
    chapter_handouts(&g);
    for (size_t h = 0; h < g.gl_pathc; h++) {
        int n = handout_chapter(g.gl_pathv[h]);
        /* The starter lists the same variants as the solution (the two differ only inside regions),
         * and it exists in the student release too. */
        static char out[WBT_OUT_MAX];
        int rc = wbt_run(out, "./build/chapter%d --list --json - 2>/dev/null", n);
        cr_assert_eq(rc, 0, "build/chapter%d --list --json failed (%d; built by make all?):\n%s", n, rc, out);
        strlist program = {0};
        strlist lines = split_lines(out);
        for (size_t i = 0; i < lines.n; i++) {
            json_error_t e;
            json_t *obj = json_loads(lines.items[i], 0, &e);
            cr_assert_not_null(obj, "chapter%d --list --json: not JSON: %s (%s)", n, lines.items[i], e.text);
            const char *v = json_string_value(json_object_get(obj, "variant"));
            cr_assert_not_null(v, "chapter%d --list --json: no \"variant\" in %s", n, lines.items[i]);
            strlist_add(&program, v, strlen(v));
            json_decref(obj);
        }
        strlist_free(&lines);
        cr_assert_gt(program.n, 0, "chapter%d lists no variants", n);

        char *text = read_text(g.gl_pathv[h]);
        strlist named = tagged(text, "variant");
        for (size_t i = 0; i < named.n; i++)
            cr_assert(strlist_has(&program, named.items[i]), "%s names variant '%s', which chapter%d does not have",
                      g.gl_pathv[h], named.items[i], n);
        for (size_t i = 0; i < program.n; i++)
            cr_assert(strlist_has(&named, program.items[i]), "%s never names chapter%d's variant `%s`{.variant}",
                      g.gl_pathv[h], n, program.items[i]);
        strlist_free(&named);
        strlist_free(&program);
        free(text);
    }
    globfree(&g);
}

Test(handouts, every_region_named_exists_and_every_region_is_described)
{
    glob_t g;
    chapter_handouts(&g);
    for (size_t h = 0; h < g.gl_pathc; h++) {
        char starter[256];
        starter_of(handout_chapter(g.gl_pathv[h]), starter, sizeof starter);
        size_t len = 0;
        char *src = wb_read_file(starter, &len), err[256];
        wb_region r[64];
        int nr = wb_regions_parse(src, len, r, 64, err, sizeof err);
        cr_assert_gt(nr, 0, "%s: %s", starter, err);
        char *text = read_text(g.gl_pathv[h]);
        strlist named = tagged(text, "region");
        for (size_t i = 0; i < named.n; i++) {
            int found = 0;
            for (int k = 0; k < nr; k++) found |= strcmp(r[k].name, named.items[i]) == 0;
            cr_assert(found, "%s names TODO region '%s', which %s does not have", g.gl_pathv[h], named.items[i], starter);
        }
        for (int k = 0; k < nr; k++)
            cr_assert(strlist_has(&named, r[k].name), "%s does not describe TODO region `%s`{.region} of %s",
                      g.gl_pathv[h], r[k].name, starter);
        strlist_free(&named);
        free(text);
        free(src);
    }
    globfree(&g);
}

/* ------------------------------------------------------------------ results: from the file, never typed */
Test(handouts, chapter_handouts_have_the_generated_pieces_and_no_typed_results)
{
    glob_t g;
    chapter_handouts(&g);
    for (size_t h = 0; h < g.gl_pathc; h++) {
        int n = handout_chapter(g.gl_pathv[h]);
        char *text = read_text(g.gl_pathv[h]);
        const char *marks[] = {WBR_MARK_TABLE, WBR_MARK_PLOT, WBR_MARK_CLAIMS};
        for (int k = 0; k < 3; k++) {
            char line[64];
            snprintf(line, sizeof line, "\n%s\n", marks[k]);
            cr_assert_not_null(strstr(text, line), "%s has no line %s", g.gl_pathv[h], marks[k]);
        }
        char results[64], err[256];
        snprintf(results, sizeof results, "handouts/results/ch%d.json", n);
        /* the generated blocks (make handouts-fill; tests/test_results.c checks them) are not typed */
        for (const char *const *m = (const char *const[]){WBR_MARK_TABLE, WBR_END_TABLE, WBR_MARK_CLAIMS, WBR_END_CLAIMS, NULL};
             *m; m += 2) {
            char *from = strstr(text, m[0]), *to = from ? strstr(from, m[1]) : NULL;
            if (to) memmove(from + strlen(m[0]), to, strlen(to) + 1);
        }
        if (access(results, R_OK) == 0) {
            json_t *rows = wbr_load_lines(results, err, sizeof err);
            cr_assert_not_null(rows, "%s", err);
            size_t i;
            json_t *r;
            json_array_foreach(rows, i, r)
            {
                char typed[3][32];
                double tp = wbr_num(r, "throughput"), ms = wbr_num(r, "median_ms");
                snprintf(typed[0], sizeof typed[0], "%.1f", tp);
                snprintf(typed[1], sizeof typed[1], "%.4f", ms);
                snprintf(typed[2], sizeof typed[2], tp >= 1000 ? "%.0f" : "%.1f", tp);
                for (int k = 0; k < 3; k++)
                    cr_assert(!isfinite(tp) || !strstr(text, typed[k]),
                              "%s contains %s, a number of %s (%s): tables are generated, never typed", g.gl_pathv[h],
                              typed[k], results, wbr_str(r, "variant"));
            }
            json_decref(rows);
        }
        free(text);
    }
    globfree(&g);
}

/* Every recorded results file is a complete run of its chapter's reference: each size has its
 * speed-of-light row, every variant passed, and the GPU and date are recorded. */
Test(handouts, recorded_results_are_complete, .timeout = 60)
{
    glob_t g;
    if (!wbt_glob_chapters("handouts/results", ".json", &g)) cr_skip_test("no results recorded yet");
    for (size_t f = 0; f < g.gl_pathc; f++) {
        const char *path = g.gl_pathv[f];
        int n = wbt_chapter_of_path(path);
        char err[256], meta_path[64], prefix[8];
        json_t *rows = wbr_load_lines(path, err, sizeof err);
        cr_assert_not_null(rows, "%s", err);
        snprintf(meta_path, sizeof meta_path, "handouts/results/ch%d.meta.json", n);
        json_t *meta = wbr_load_meta(meta_path);
        cr_assert(*wbr_str(meta, "date") && *wbr_str(meta, "command"), "%s must record date and command", meta_path);
        snprintf(prefix, sizeof prefix, "%d-", n);
        size_t i;
        json_t *r;
        int refs = 0, passes = 0;
        json_array_foreach(rows, i, r)
        {
            cr_assert(strncmp(wbr_str(r, "chapter"), prefix, strlen(prefix)) == 0, "%s: a row of chapter %s", path,
                      wbr_str(r, "chapter"));
            cr_assert(*wbr_str(r, "gpu"), "%s: a row without its GPU", path);
            if (wbr_is_reference(r)) refs++;
            else {
                cr_assert_str_eq(wbr_str(r, "verdict"), "PASS", "%s: %s did not pass", path, wbr_str(r, "variant"));
                passes++;
            }
            cr_assert(isfinite(wbr_num(r, "throughput")), "%s: %s has no throughput", path, wbr_str(r, "variant"));
        }
        cr_assert(refs > 0 && passes > 0, "%s: no speed-of-light row or no variant", path);
        json_decref(rows);
        json_decref(meta);
    }
    globfree(&g);
}

/* Long code lines must stay readable: pandoc's own styles set .sourceCode { overflow: visible }, so the
 * handouts' style sheet has to make code blocks scroll on screen (and wrap on paper). */
Test(handouts, long_code_lines_scroll_or_wrap)
{
    char *css = read_text("handouts/style.css");
    cr_assert_not_null(css);
    const char *rule = strstr(css, "pre.sourceCode");
    cr_assert_not_null(rule, "style.css has no rule for pandoc's highlighted blocks (pre.sourceCode)");
    const char *body = strchr(rule, '{'), *end = body ? strchr(body, '}') : NULL;
    cr_assert(body && end, "%s", rule);
    char decl[256];
    snprintf(decl, sizeof decl, "%.*s", (int)(end - body), body);
    cr_assert_not_null(strstr(decl, "overflow-x: auto"), "pre.sourceCode does not scroll: %s", decl);
    const char *print = strstr(css, "@media print");
    cr_assert(print && strstr(print, "pre-wrap"), "code does not wrap in print");
    free(css);
}
