/* The house's measures (issue 42's "Done when"), on the tree as it is: the judge (grading/) includes nothing
 * of course/; the two together within a line budget; no function over 80 lines in grading/, course/,
 * common/, tools/; no mutable file-scope state in the objects of grading/ and course/; no include cycle
 * between their modules; a bounded number of .cu files under tests/. Each check is a function over a root
 * folder, so that each is also shown failing on a planted tree; each names what exceeds, so that a failure
 * says what to fix. */
#include "wbtest.h"

#include "gr_util.h"

#include <regex.h>

/* Issue 42 asks for 11,000 lines of grading/ and course/ together; its restructuring left them at 13,312,
 * the line-budget round at 12,175, then 11,648, where it ended blocked on which feature leaves. The test holds
 * that as a ratchet: lower it with every cut. Raised for issue 43's features, not a restructuring's growth: by
 * 193 lines for the shared reference runs (refkeep.c, the class's one GPU probe) and for hiding a grading's work
 * tree from its runs, by 99 for the janitor (a stopped grading's scratch folders removed), by 12 for a run's kind
 * (job.h: untimed GPU runs on one work queue); a class's staggered start (--stagger, 19 lines) measured no faster
 * and was removed. Raised by 13 where lines had been packed past 120 columns and into comma expressions to stay
 * under it (janitor.c, perf.c, refkeep.c, sandbox.c): a line saved that way is no cut. Raised by 133 for the class
 * page's similarity groups (course/similarity.c, classpage.c: a class of 100 alike showed 4,950 passages). Raised
 * by 43 for the janitor's runs (a killed grading's runs leave no process: CI saw bubblewrap's setup child outlive a
 * class stopped by Ctrl-C; gr_proc_next moved to gr_util for it), and by 10 for one reader of a /proc status field
 * (gr_proc_field) in place of the sandbox's and the janitor's own. Raised by 165 for issue 60's grade --validate
 * of each built chapter program against its facts (grading/validate.c: a misspelt variant was accepted). */
#define HOUSE_MAX_LINES 12313
#define HOUSE_MAX_FUNCTION 80
#define HOUSE_MAX_TESTS_CU 30
#define HOUSE_MAX_FILES 1024
#define HOUSE_MAX_MODULES 256

/* What a check found: a line each, the first few kilobytes of them, and how many in all. */
typedef struct {
    int n;
    size_t used;
    char text[6144];
} house_found;

__attribute__((format(printf, 2, 3))) static void found(house_found *f, const char *fmt, ...)
{
    f->n++;
    size_t room = sizeof f->text - f->used;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(f->text + f->used, room, fmt, ap);
    va_end(ap);
    if (w > 0) f->used += (size_t)w < room ? (size_t)w : room - 1;
}

/* The files under a folder whose names end in one of the suffixes, recursively (none where it is absent). */
typedef struct {
    const char *const *suffixes;
    int n;
    char path[HOUSE_MAX_FILES][PATH_MAX];
} house_files;

static int has_suffix(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static void collect(const char *path, const struct stat *st, void *ctx)
{
    house_files *fs = ctx;
    if (!S_ISREG(st->st_mode) || fs->n == HOUSE_MAX_FILES) return;
    for (const char *const *s = fs->suffixes; *s; s++)
        if (has_suffix(path, *s)) {
            snprintf(fs->path[fs->n++], PATH_MAX, "%s", path);
            return;
        }
}

static const char *const c_and_h[] = {".c", ".h", NULL};
static const char *const c_h_cu[] = {".c", ".h", ".cu", ".cuh", NULL};

static house_files *files_under(const char *root, const char *dir, const char *const *suffixes)
{
    house_files *fs = calloc(1, sizeof *fs);
    cr_assert_not_null(fs);
    fs->suffixes = suffixes;
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", root, dir);
    if (gr_is_dir(p)) gr_walk(p, collect, fs);
    cr_assert_lt(fs->n, HOUSE_MAX_FILES, "more than %d files under %s", HOUSE_MAX_FILES, p);
    return fs;
}

static char *slurp(const char *path)
{
    size_t len;
    char *s = gr_read_capped(path, 1 << 24, &len);
    cr_assert_not_null(s, "cannot read %s", path);
    return s;
}

static int count_lines(const char *path)
{
    char *s = slurp(path);
    int n = 0;
    for (const char *c = s; *c; c++) n += *c == '\n';
    free(s);
    return n;
}

/* ---------------------------------------------------------------- function length */

/* Where the scanner is in the text: skips comments, string and character literals and preprocessor lines,
 * so that only the braces of code count. */
typedef struct {
    const char *s;
    int line;
} house_cursor;

static void skip_to(house_cursor *c, const char *end_mark)
{
    const char *e = strstr(c->s, end_mark);
    const char *stop = e ? e + strlen(end_mark) : c->s + strlen(c->s);
    for (; c->s < stop; c->s++) c->line += *c->s == '\n';
}

static void skip_literal(house_cursor *c)
{
    char q = *c->s++;
    for (; *c->s && *c->s != q && *c->s != '\n'; c->s++)
        if (*c->s == '\\' && c->s[1]) c->line += *++c->s == '\n';
    if (*c->s == q) c->s++;
}

static void skip_directive(house_cursor *c)
{
    for (; *c->s && *c->s != '\n'; c->s++)
        if (*c->s == '\\' && c->s[1] == '\n') {
            c->s++;
            c->line++;
        }
}

/* 1 where the cursor was on something to skip (and is now past it). */
static int skip_noncode(house_cursor *c, int line_start)
{
    if (c->s[0] == '/' && c->s[1] == '/') skip_to(c, "\n");
    else if (c->s[0] == '/' && c->s[1] == '*') skip_to(c, "*/");
    else if (c->s[0] == '"' || c->s[0] == '\'') skip_literal(c);
    else if (c->s[0] == '#' && line_start) skip_directive(c);
    else return 0;
    return 1;
}

static int is_ident(char ch)
{
    return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

/* The identifier that ends just before p (spaces skipped), into name; "" where there is none. */
static void name_before(const char *text, const char *p, char *name, size_t len)
{
    while (p > text && (p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n')) p--;
    const char *e = p;
    while (p > text && is_ident(p[-1])) p--;
    snprintf(name, len, "%.*s", (int)(e - p), p);
}

/* Every function defined at file scope in text whose lines, from the one holding its name to its closing
 * brace, number more than max: "file:line name() N lines > max". A function is a brace at file scope whose
 * code before it ends with the ')' of a parameter list (an initializer's or a struct's does not). */
static void long_functions(const char *file, const char *text, int max, house_found *f)
{
    house_cursor c = {text, 1};
    int depth = 0, parens = 0, line_start = 1, start = 0, extern_c = 0;
    char last = ';', name[128] = "", pending[128] = "", fn[128] = "";
    int name_line = 0, pending_line = 0;
    while (*c.s) {
        const char *before = c.s;
        if (skip_noncode(&c, line_start)) {
            line_start = line_start || c.s[-1] == '\n';
            if (depth == 0 && *before == '"') last = '"'; /* extern "C" */
            continue;
        }
        char ch = *c.s;
        if (ch == '\n') c.line++;
        line_start = ch == '\n' || (line_start && (ch == ' ' || ch == '\t'));
        if (ch == ' ' || ch == '\t' || ch == '\n') {
            c.s++;
            continue;
        }
        if (depth == 0 && ch == '(' && parens++ == 0) {
            name_before(text, c.s, pending, sizeof pending);
            pending_line = c.line;
        } else if (depth == 0 && ch == ')' && parens > 0 && --parens == 0 && strncmp(pending, "__", 2) != 0) {
            /* a name's parameter list; __attribute__((…)) after it keeps the name */
            snprintf(name, sizeof name, "%s", pending);
            name_line = pending_line;
        } else if (ch == '{' && depth == 0 && last == '"') {
            extern_c++; /* its braces hold file scope */
        } else if (ch == '}' && depth == 0 && extern_c > 0) {
            extern_c--;
        } else if (ch == '{' && depth++ == 0 && last == ')') {
            snprintf(fn, sizeof fn, "%s", name);
            start = name_line;
        } else if (ch == '}' && depth > 0 && --depth == 0 && start) {
            int n = c.line - start + 1;
            if (n > max) found(f, "%s:%d %s() %d lines > %d\n", file, start, fn, n, max);
            start = 0;
        }
        if (depth == 0) last = ch;
        c.s++;
    }
}

static void long_functions_under(const char *root, const char *dir, int max, house_found *f)
{
    house_files *fs = files_under(root, dir, c_h_cu);
    for (int i = 0; i < fs->n; i++) {
        char *s = slurp(fs->path[i]);
        long_functions(fs->path[i] + strlen(root) + 1, s, max, f);
        free(s);
    }
    free(fs);
}

/* ---------------------------------------------------------------- the judge apart from course/ */

/* The header an #include line names (its path as written), or NULL where the line is not an #include. */
static const char *included(const char *line, char *name, size_t len)
{
    while (*line == ' ' || *line == '\t') line++;
    if (*line++ != '#') return NULL;
    while (*line == ' ' || *line == '\t') line++;
    if (strncmp(line, "include", 7) != 0) return NULL;
    line += 7;
    while (*line == ' ' || *line == '\t') line++;
    char close = *line == '"' ? '"' : *line == '<' ? '>' : 0;
    const char *end = close ? strchr(line + 1, close) : NULL;
    const char *eol = strchr(line, '\n');
    if (!end || (eol && eol < end)) return NULL;
    snprintf(name, len, "%.*s", (int)(end - line - 1), line + 1);
    return name;
}

static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

/* Every #include in grading/ of a header of course/: by a path through course/, or by the name of a header
 * that course/ has and grading/ has not. course/'s headers are read from the folder (none while it does not
 * exist). */
static void judge_includes_course(const char *root, house_found *f)
{
    char p[PATH_MAX], name[256];
    house_files *gr = files_under(root, "grading", c_and_h);
    for (int i = 0; i < gr->n; i++) {
        char *s = slurp(gr->path[i]);
        for (const char *line = s; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
            if (!included(line, name, sizeof name)) continue;
            snprintf(p, sizeof p, "%s/course/%s", root, base_name(name));
            int course_has = gr_is_file(p);
            snprintf(p, sizeof p, "%s/grading/%s", root, base_name(name));
            if (strstr(name, "course/") || (course_has && !gr_is_file(p)))
                found(f, "%s includes \"%s\" of course/\n", gr->path[i] + strlen(root) + 1, name);
        }
        free(s);
    }
    free(gr);
}

/* ---------------------------------------------------------------- lines */

static void lines_over(const char *root, int max, house_found *f)
{
    const char *dirs[] = {"grading", "course"};
    int per[2] = {0, 0};
    for (int d = 0; d < 2; d++) {
        house_files *fs = files_under(root, dirs[d], c_and_h);
        for (int i = 0; i < fs->n; i++) per[d] += count_lines(fs->path[i]);
        free(fs);
    }
    if (per[0] + per[1] > max)
        found(f, "grading/ %d + course/ %d = %d lines of .c and .h > %d (%d over)\n", per[0], per[1], per[0] + per[1],
              max, per[0] + per[1] - max);
}

/* ---------------------------------------------------------------- mutable file-scope state */

/* The writable data symbols of one object (objdump -t: .data or .bss, not .data.rel.ro). */
static void writable_symbols(const char *obj, const char *shown, house_found *f)
{
    char cmd[PATH_MAX + 32], line[1024];
    snprintf(cmd, sizeof cmd, "objdump -t '%s' 2>&1", obj);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p, "cannot run objdump");
    while (fgets(line, sizeof line, p)) {
        const char *o = strstr(line, " O ");
        if (!o || strstr(o, "rel.ro")) continue;
        const char *sec = o + 3;
        size_t n = strncmp(sec, ".data", 5) == 0 ? 5 : strncmp(sec, ".bss", 4) == 0 ? 4 : 0;
        int common = strncmp(sec, "*COM*", 5) == 0; /* gcc before 10 without -fno-common: .bss at link */
        if (!common && (!n || is_ident(sec[n]))) continue;
        line[strcspn(line, "\n")] = 0;
        const char *sym = strrchr(line, ' ') ? strrchr(line, ' ') + 1 : line;
        found(f, "%s: %s (writable: %.*s)\n", shown, sym, (int)strcspn(sec, " \t"), sec);
    }
    int rc = pclose(p);
    cr_assert_eq(rc, 0, "objdump -t %s failed (exit %d)", obj, rc);
}

/* Each .c of grading/ and course/ has its object in build/obj/ (make builds them before the test runner);
 * a missing one is a finding too, or the check would pass on nothing. */
static void mutable_state(const char *root, house_found *f)
{
    const char *dirs[] = {"grading", "course"};
    const char *const only_c[] = {".c", NULL};
    char obj[PATH_MAX];
    for (int d = 0; d < 2; d++) {
        house_files *fs = files_under(root, dirs[d], only_c);
        for (int i = 0; i < fs->n; i++) {
            const char *rel = fs->path[i] + strlen(root) + 1;
            snprintf(obj, sizeof obj, "%s/build/obj/%.*s.o", root, (int)strlen(rel) - 2, rel);
            if (gr_is_file(obj)) writable_symbols(obj, obj + strlen(root) + 1, f);
            else found(f, "%s: no object %s (make all builds it)\n", rel, obj + strlen(root) + 1);
        }
        free(fs);
    }
}

/* ---------------------------------------------------------------- include cycles */

/* The #include "y.h" graph of grading/ and course/ by module (x.c and x.h; diagnose_scan.c is diagnose's),
 * as grading/README.md's tsort recipe reads it. */
typedef struct {
    int n;
    char name[HOUSE_MAX_MODULES][64];
    unsigned char edge[HOUSE_MAX_MODULES][HOUSE_MAX_MODULES];
    unsigned char color[HOUSE_MAX_MODULES]; /* 0 unseen, 1 on the path, 2 done */
    int path[HOUSE_MAX_MODULES];
} house_graph;

static int module_of(house_graph *g, const char *file)
{
    char m[64];
    snprintf(m, sizeof m, "%.*s", (int)strcspn(base_name(file), "."), base_name(file));
    if (has_suffix(m, "_scan")) m[strlen(m) - 5] = 0;
    for (int i = 0; i < g->n; i++)
        if (strcmp(g->name[i], m) == 0) return i;
    cr_assert_lt(g->n, HOUSE_MAX_MODULES, "more than %d modules", HOUSE_MAX_MODULES);
    snprintf(g->name[g->n], sizeof g->name[0], "%s", m);
    return g->n++;
}

static void add_edges(house_graph *g, const char *root, const char *dir)
{
    char name[PATH_MAX];
    house_files *fs = files_under(root, dir, c_and_h);
    for (int i = 0; i < fs->n; i++) {
        int from = module_of(g, fs->path[i]);
        char *s = slurp(fs->path[i]);
        for (const char *line = s; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
            if (*line == '#' && included(line, name, sizeof name) && line[strcspn(line, "\"<")] == '"') {
                int to = module_of(g, name);
                if (to != from) g->edge[from][to] = 1;
            }
        free(s);
    }
    free(fs);
}

static void cycles_from(house_graph *g, int v, int depth, house_found *f)
{
    g->color[v] = 1;
    g->path[depth] = v;
    for (int w = 0; w < g->n; w++) {
        if (!g->edge[v][w]) continue;
        if (g->color[w] == 0) cycles_from(g, w, depth + 1, f);
        else if (g->color[w] == 1) {
            char cycle[1024] = "";
            size_t used = 0;
            int k = depth;
            while (g->path[k] != w) k--;
            for (; k <= depth && used < sizeof cycle; k++)
                used += (size_t)snprintf(cycle + used, sizeof cycle - used, "%s -> ", g->name[g->path[k]]);
            found(f, "include cycle: %s%s\n", cycle, g->name[w]);
        }
    }
    g->color[v] = 2;
}

static void include_cycles(const char *root, house_found *f)
{
    house_graph *g = calloc(1, sizeof *g);
    cr_assert_not_null(g);
    add_edges(g, root, "grading");
    add_edges(g, root, "course");
    for (int v = 0; v < g->n; v++)
        if (g->color[v] == 0) cycles_from(g, v, 0, f);
    free(g);
}

/* ---------------------------------------------------------------- .cu files under tests/ */

static void tests_cu_over(const char *root, int max, house_found *f)
{
    const char *const cu[] = {".cu", NULL};
    house_files *fs = files_under(root, "tests", cu);
    if (fs->n > max) {
        found(f, "%d .cu files under tests/ > %d (%d over):\n", fs->n, max, fs->n - max);
        for (int i = 0; i < fs->n; i++) found(f, "  %s\n", fs->path[i] + strlen(root) + 1);
        f->n -= fs->n;
    }
    free(fs);
}

/* ---------------------------------------------------------------- the tree as it is */

/* ---------------------------------------------------------------- chapters found from their folders */
/* A chapter is a folder (README, "A new chapter"): a test or a build file that loops to a literal chapter count,
 * sizes an array by one, or globs one-digit chapter files misses a sixth or a tenth chapter, silently or with a
 * failure nobody can trace (issue 60: tests/test_mutate.c asserted chn <= 5 and sized per_ch[6]). The files of
 * tests/, scripts/, mk/ and tools/ and the Makefile, line by line; this file's own patterns are its plants. */
static const char *const chapter_count_patterns[] = {
    "(^|[^A-Za-z0-9_])(ch|chn|chapter|nch)[[:space:]]*<=?[[:space:]]*[0-9]+", /* for (ch = 1; ch <= 5; ch++) */
    "_ch\\[[0-9]+\\]",                                                        /* int per_ch[6] */
    "ch\\[0-9\\][.]",                                                         /* handouts/ch[0-9].md alone */
};

static void chapter_counts_in(const char *path, house_found *f)
{
    if (has_suffix(path, "tests/test_house.c")) return;
    regex_t re[3];
    for (int i = 0; i < 3; i++) cr_assert_eq(regcomp(&re[i], chapter_count_patterns[i], REG_EXTENDED | REG_NOSUB), 0);
    char *text = slurp(path), *save = NULL;
    int line = 0;
    for (char *l = text, *nl; l && *l; l = nl) {
        nl = strchr(l, '\n');
        if (nl) *nl++ = 0;
        line++;
        int hit = !regexec(&re[0], l, 0, NULL, 0) || !regexec(&re[1], l, 0, NULL, 0);
        hit |= !regexec(&re[2], l, 0, NULL, 0) && !strstr(l, "ch[0-9][0-9]"); /* with the two-digit glob beside it: fine */
        if (hit) found(f, "%s:%d: %.100s\n", path, line, l + strspn(l, " \t"));
    }
    (void)save;
    free(text);
    for (int i = 0; i < 3; i++) regfree(&re[i]);
}

static void literal_chapter_counts(const char *root, house_found *f)
{
    static const char *const kinds[] = {".c", ".h", ".sh", ".mk", NULL};
    const char *dirs[] = {"tests", "scripts", "mk", "tools"};
    for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
        house_files *fs = files_under(root, dirs[d], kinds);
        for (int i = 0; i < fs->n; i++) chapter_counts_in(fs->path[i], f);
        free(fs);
    }
    char mf[PATH_MAX];
    snprintf(mf, sizeof mf, "%s/Makefile", root);
    if (gr_is_file(mf)) chapter_counts_in(mf, f);
}

static void expect_none(const house_found *f, const char *what)
{
    cr_expect_eq(f->n, 0, "%d %s:\n%s", f->n, what, f->text);
}

Test(house, the_judge_includes_nothing_of_course)
{
    house_found f = {0};
    judge_includes_course(".", &f);
    expect_none(&f, "includes of course/ in grading/");
}

Test(house, grading_and_course_within_the_line_budget)
{
    house_found f = {0};
    lines_over(".", HOUSE_MAX_LINES, &f);
    expect_none(&f, "line budget exceeded (a ratchet: issue 42's mark is 11,000)");
}

Test(house, no_function_over_80_lines)
{
    house_found f = {0};
    const char *dirs[] = {"grading", "course", "common", "tools"};
    for (int d = 0; d < 4; d++) long_functions_under(".", dirs[d], HOUSE_MAX_FUNCTION, &f);
    expect_none(&f, "functions over 80 lines");
}

Test(house, no_mutable_file_scope_state)
{
    house_found f = {0};
    mutable_state(".", &f);
    expect_none(&f, "writable data symbols in grading/ and course/");
}

Test(house, no_include_cycle)
{
    house_found f = {0};
    include_cycles(".", &f);
    expect_none(&f, "include cycles in grading/ and course/");
}

Test(house, chapters_are_found_from_their_folders_not_counted)
{
    house_found f = {0};
    literal_chapter_counts(".", &f);
    expect_none(&f, "lines that count chapters with a number (find them from their folders: gr_chapters_scan, "
                    "wbt_glob_chapters, $(CHAPTERS))");
}

Test(house, at_most_30_cu_files_under_tests)
{
    house_found f = {0};
    tests_cu_over(".", HOUSE_MAX_TESTS_CU, &f);
    expect_none(&f, ".cu budget exceeded");
}

/* ---------------------------------------------------------------- each check on a planted fault */

static void plant(const char *dir, const char *rel, const char *text)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    char *slash = strrchr(p, '/');
    *slash = 0;
    cr_assert_eq(gr_mkdirs(p, 0755), 0, "mkdir %s", p);
    *slash = '/';
    cr_assert_eq(gr_write_file(p, text, strlen(text)), 0, "cannot write %s", p);
}

/* A function of `lines` lines from its name's line to its closing brace, with braces in a string, a
 * character, comments and a macro that must not count. */
static void add_function(gr_str *b, const char *name, int lines)
{
    gr_str_addf(b, "static int\n%s(const char *s) __attribute__((unused));\nstatic int\n%s(const char *s)\n{\n", name,
                name);
    const char *body[] = {"    int a = '{';\n", "    /* } */ a++;\n", "    s = \"}}\";\n", "    // }\n",
                          "#define NOT_A_BRACE }\n"};
    for (int i = 0; i < lines - 4; i++) gr_str_add(b, body[i % 5]);
    gr_str_add(b, "    return a + (s != 0);\n}\n");
}

Test(house, the_scanner_finds_a_planted_81_line_function)
{
    gr_str b = {0};
    gr_str_add(&b, "static const int table[] = {\n");
    for (int i = 0; i < 100; i++) gr_str_add(&b, "    1,\n");
    gr_str_add(&b, "};\nstruct s {\n    int x;\n};\n");
    gr_str_add(&b, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n");
    add_function(&b, "planted", 81);
    add_function(&b, "fits", 80);
    gr_str_add(&b, "#ifdef __cplusplus\n}\n#endif\n");
    gr_str_add(&b, "__attribute__((format(printf, 1, 2))) int printish(const char *fmt, ...) { return fmt != 0; }\n");
    house_found f = {0};
    long_functions("planted.c", gr_str_c(&b), 80, &f);
    cr_expect_eq(f.n, 1, "one function over 80 lines, found %d:\n%s", f.n, f.text);
    cr_expect(strstr(f.text, "planted.c:112 planted() 81 lines > 80"), "%s", f.text);
    house_found none = {0};
    long_functions("planted.c", gr_str_c(&b), 81, &none);
    cr_expect_eq(none.n, 0, "%s", none.text);
    gr_str_free(&b);
}

Test(house, a_planted_include_of_course_is_found)
{
    char dir[64];
    wbt_tmpdir(dir, sizeof dir);
    plant(dir, "grading/judge.c", "#include \"html.h\"\n#include \"../course/plot.h\"\n  # include \"gr_util.h\"\n");
    house_found before = {0};
    judge_includes_course(dir, &before);
    cr_expect_eq(before.n, 1, "without course/ only the path through it counts:\n%s", before.text);
    plant(dir, "course/html.h", "\n");
    plant(dir, "course/gr_util.h", "\n");
    plant(dir, "grading/gr_util.h", "\n");
    house_found f = {0};
    judge_includes_course(dir, &f);
    cr_expect_eq(f.n, 2, "html.h and ../course/plot.h (gr_util.h is the judge's own):\n%s", f.text);
    cr_expect(strstr(f.text, "grading/judge.c includes \"html.h\" of course/"), "%s", f.text);
    gr_rmtree(dir);
}

Test(house, a_planted_line_over_the_budget_is_found)
{
    char dir[64];
    wbt_tmpdir(dir, sizeof dir);
    plant(dir, "grading/a.c", "1\n2\n3\n4\n5\n6\n");
    plant(dir, "course/sub/b.h", "1\n2\n3\n4\n5\n");
    plant(dir, "course/notes.md", "1\n2\n3\n");
    house_found f = {0}, fits = {0};
    lines_over(dir, 10, &f);
    lines_over(dir, 11, &fits);
    cr_expect_eq(f.n, 1, "%s", f.text);
    cr_expect(strstr(f.text, "grading/ 6 + course/ 5 = 11 lines of .c and .h > 10 (1 over)"), "%s", f.text);
    cr_expect_eq(fits.n, 0, "%s", fits.text);
    gr_rmtree(dir);
}

Test(house, planted_chapter_counts_are_found)
{
    char dir[64];
    wbt_tmpdir(dir, sizeof dir);
    plant(dir, "tests/test_x.c", "int per_ch[6] = {0};\nfor (int ch = 1; ch <= 5; ch++) f(ch);\nfor (int c = 0; c < 3; c++) g(c);\n"
                                 "cr_assert(chn >= 1 && chn<5);\n");
    plant(dir, "mk/x.mk", "A := $(wildcard handouts/ch[0-9].md)\nB := $(wildcard handouts/ch[0-9].md handouts/ch[0-9][0-9].md)\n");
    plant(dir, "scripts/y.sh", "for f in handouts/ch[0-9]*.md; do :; done\n");
    house_found f = {0};
    literal_chapter_counts(dir, &f);
    cr_expect_eq(f.n, 4, "the array, two loops' bounds and the one-digit glob:\n%s", f.text);
    cr_expect(strstr(f.text, "tests/test_x.c:1: int per_ch[6]") && strstr(f.text, "tests/test_x.c:2: for (int ch = 1;")
                  && strstr(f.text, "tests/test_x.c:4: ") && strstr(f.text, "mk/x.mk:1: A :="),
              "%s", f.text);
    gr_rmtree(dir);
}

Test(house, planted_mutable_state_is_found)
{
    char dir[64], out[4096];
    wbt_tmpdir(dir, sizeof dir);
    plant(dir, "grading/state.c",
          "int counter;\nstatic double last = 1.0;\nstatic const int table[] = {1, 2};\n"
          "static const char *const names[] = {\"a\"};\n"
          "int f(void) { static int calls; return ++calls + counter + table[0] + (int)last + names[0][0]; }\n");
    plant(dir, "grading/clean.c", "static const int t[] = {1};\nint g(int i) { return t[i]; }\n");
    plant(dir, "course/unbuilt.c", "int h(void) { return 0; }\n");
    const char *objs[] = {"state", "clean"};
    for (int i = 0; i < 2; i++) {
        int rc = wbt_run(out, "mkdir -p %s/build/obj/grading && cc -O0 -c -o %s/build/obj/grading/%s.o %s/grading/%s.c",
                         dir, dir, objs[i], dir, objs[i]);
        cr_assert_eq(rc, 0, "%s", out);
    }
    house_found f = {0};
    mutable_state(dir, &f);
    cr_expect_eq(f.n, 4, "counter, last, calls and the missing object:\n%s", f.text);
    cr_expect(strstr(f.text, "grading/state.o: counter (writable: .bss)"), "%s", f.text);
    cr_expect(strstr(f.text, "grading/state.o: last (writable: .data)"), "%s", f.text);
    cr_expect(strstr(f.text, "calls"), "%s", f.text);
    cr_expect(strstr(f.text, "course/unbuilt.c: no object"), "%s", f.text);
    cr_expect(!strstr(f.text, ": table "), "%s", f.text);
    cr_expect(!strstr(f.text, ": names "), "%s", f.text);
    cr_expect(!strstr(f.text, "clean.o"), "%s", f.text);
    gr_rmtree(dir);
}

Test(house, a_planted_include_cycle_is_found)
{
    char dir[64];
    wbt_tmpdir(dir, sizeof dir);
    plant(dir, "grading/a.h", "#include <stdio.h>\n#include \"b.h\"\n");
    plant(dir, "grading/a_scan.c", "#include \"a.h\"\n");
    plant(dir, "grading/b.c", "#include \"b.h\"\n#include \"c.h\"\n");
    plant(dir, "course/d.c", "#include \"a.h\"\n");
    house_found none = {0};
    include_cycles(dir, &none);
    cr_expect_eq(none.n, 0, "a module including its own header, a -> b -> c and d -> a are no cycle:\n%s", none.text);
    plant(dir, "course/c.h", "#include \"a.h\"\n");
    house_found f = {0};
    include_cycles(dir, &f);
    cr_expect_eq(f.n, 1, "%s", f.text);
    cr_expect(strstr(f.text, "a -> b -> c -> a") || strstr(f.text, "b -> c -> a -> b") ||
                  strstr(f.text, "c -> a -> b -> c"),
              "%s", f.text);
    gr_rmtree(dir);
}

Test(house, a_planted_31st_cu_file_is_found)
{
    char dir[64], rel[64];
    wbt_tmpdir(dir, sizeof dir);
    for (int i = 0; i < 30; i++) {
        snprintf(rel, sizeof rel, "tests/%s/k%d.cu", i % 2 ? "planted" : "grading/subs", i);
        plant(dir, rel, "\n");
    }
    plant(dir, "tests/notes.cu.md", "\n");
    house_found fits = {0};
    tests_cu_over(dir, 30, &fits);
    cr_expect_eq(fits.n, 0, "%s", fits.text);
    plant(dir, "tests/k30.cu", "\n");
    house_found f = {0};
    tests_cu_over(dir, 30, &f);
    cr_expect_eq(f.n, 1, "%s", f.text);
    cr_expect(strstr(f.text, "31 .cu files under tests/ > 30 (1 over)"), "%s", f.text);
    cr_expect(strstr(f.text, "tests/k30.cu"), "%s", f.text);
    gr_rmtree(dir);
}
