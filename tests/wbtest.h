/*
 * wbtest.h — helpers shared by the Criterion tests.
 *
 * GPU tests never touch CUDA themselves (Criterion forks per test): they run the chapter programs as
 * child processes. A program that exits with WB_EXIT_NO_DEVICE turns the test into a skip with the
 * program's own reason, so the suite passes cleanly on machines without a GPU.
 */
#ifndef WBTEST_H
#define WBTEST_H

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <ctype.h>
#include <dirent.h>
#include <glob.h>
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jsonl.h"
#include "report.h"
#include "wb.h"

#define WBT_OUT_MAX (1 << 16)

/* The programs whose variants the tests check: the reference solutions in the full workbook; in the
 * student release (no solutions/, built with -DWBT_STUDENT_RELEASE by the Makefile) the student's own
 * chapters, so that `make test` there checks the student's work with the same tests. */
/* WBT_WHOSE(name): the name of a test that runs WBT_SOLUTION says whose code it runs (chapter_… in the
 * release, reference_… here), so that a skipped or failed `ch2::chapter_variant_is_exact` is read as the
 * student's own code. */
#ifdef WBT_STUDENT_RELEASE
#define WBT_SOLUTION "./build/chapter"
#define WBT_WHOSE(name) chapter_##name
#define WBT_SKIP_IN_STUDENT_RELEASE() cr_skip_test("student release: this test is about the untouched starter")
#else
#define WBT_SOLUTION "./build/solution"
#define WBT_WHOSE(name) reference_##name
#define WBT_SKIP_IN_STUDENT_RELEASE() ((void)0)
#endif

/* Runs a shell command, captures stdout and stderr (at most WBT_OUT_MAX-1 bytes) into out and returns
 * its exit status, or 128+signal if it was killed. */
static inline int wbt_run(char *out, const char *fmt, ...)
{
    /* Room for a command that names a temporary folder ten times at an unpack path of 200 characters
     * or more; a longer one fails the test (it was cut silently, and the shell ran half a command). */
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    int n_cmd = vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    cr_assert_lt(n_cmd, (int)sizeof cmd, "a test's command is too long (%d bytes): %.200s…", n_cmd, cmd);
    char full[sizeof cmd + 32];
    snprintf(full, sizeof full, "{ %s ; } 2>&1", cmd); /* the shell's own messages too (command not found) */
    FILE *p = popen(full, "r");
    cr_assert_not_null(p, "popen failed for: %s", cmd);
    size_t n = 0, got;
    char sink[4096];
    while ((got = fread(n < WBT_OUT_MAX - 1 ? out + n : sink, 1,
                        n < WBT_OUT_MAX - 1 ? WBT_OUT_MAX - 1 - n : sizeof sink, p)) > 0)
        if (n < WBT_OUT_MAX - 1) n += got;
    out[n] = 0;
    int st = pclose(p);
    if (WIFEXITED(st)) return WEXITSTATUS(st);
    return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/* How many times what occurs in s (not overlapping). */
static inline int wbt_count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; p && (p = strstr(p, what)); p += strlen(what)) n++;
    return n;
}

/* The first line of s, for messages. */
static inline const char *wbt_first_line(const char *s, char *buf, size_t len)
{
    size_t k = strcspn(s, "\n");
    if (k >= len) k = len - 1;
    memcpy(buf, s, k);
    buf[k] = 0;
    return buf;
}

#define WBT_SKIP_IF_NO_GPU(rc, out)                                                     \
    do {                                                                                \
        if ((rc) == WB_EXIT_NO_DEVICE) {                                                \
            char line_[256];                                                            \
            wbt_first_line((out), line_, sizeof line_);                                 \
            /* a program whose stderr the test threw away has said nothing: say its exit */ \
            cr_skip_test("needs a CUDA GPU: %s", line_[0] ? line_ : "the program exited 3, no CUDA device"); \
        }                                                                               \
    } while (0)

/* A test that grades (not --check, not --insecure-sandbox) needs the isolation the grader would use here:
 * bubblewrap that works, or run uids as root. Asked of the grader itself (`build/grade --isolation`, from
 * the workbook's root), so that where it would refuse the test skips with the grader's own line (what is
 * missing and why: no bubblewrap, or a kernel that denies it user namespaces) and never fails on it. */
static inline void wbt_skip_if_no_isolation(void)
{
    static char out[WBT_OUT_MAX];
    char line[400];
    int rc = wbt_run(out, "./build/grade --isolation");
    if (rc == GR_EXIT_REFUSED) cr_skip_test("the grader refuses here: %s", wbt_first_line(out, line, sizeof line));
    cr_assert_eq(rc, GR_EXIT_OK, "build/grade --isolation: exit %d\n%s", rc, out);
}

#define WBT_TMP_LEAF "/wbtest.XXXXXX"

/* Where a test's temporary directory goes: the first `*n` bytes of the returned string (TMPDIR `tmp`,
 * or, when TMPDIR + WBT_TMP_LEAF and its NUL would not fit in `len` bytes, TMPDIR relative to `cwd` when it is
 * below it). NULL when neither fits. One predicate decides both the fallback and the failure: the release
 * unpacked where TMPDIR was exactly len - 15 characters long once failed every test (the fallback asked
 * `>` where the check asked `<`). Pure, so that tests/test_common.c tries it at many path lengths. */
static inline const char *wbt_tmp_base(const char *tmp, const char *cwd, size_t len, size_t *n)
{
    if (!tmp || *tmp != '/') tmp = "/tmp";
    *n = strlen(tmp);
    while (*n > 1 && tmp[*n - 1] == '/') (*n)--;
    size_t c = cwd ? strlen(cwd) : 0;
    if (*n + sizeof WBT_TMP_LEAF > len && c && strncmp(tmp, cwd, c) == 0 && tmp[c] == '/') {
        tmp += c + 1;
        *n -= c + 1;
    }
    return *n + sizeof WBT_TMP_LEAF <= len ? tmp : NULL;
}

/* A fresh temporary directory for one test's files, under $TMPDIR: `make test` points TMPDIR at a
 * directory of its own under build/ and removes it after the run, whatever the tests did, so a test
 * that fails before its own cleanup leaves nothing behind (and nothing lands in /tmp). Outside
 * `make test` TMPDIR falls back to /tmp as usual. Where the absolute path would not fit in `len`
 * (callers use small buffers), the path relative to the current directory is used when it is below it. */
static inline void wbt_tmpdir(char *dir, size_t len)
{
    char cwd[4096];
    size_t n;
    const char *tmp = wbt_tmp_base(getenv("TMPDIR"), getcwd(cwd, sizeof cwd) ? cwd : NULL, len, &n);
    cr_assert_not_null(tmp, "TMPDIR '%s' is too long for a test's directory", getenv("TMPDIR"));
    snprintf(dir, len, "%.*s" WBT_TMP_LEAF, (int)n, tmp);
    cr_assert_not_null(mkdtemp(dir), "mkdtemp %s failed: %s", dir, strerror(errno));
}
/* Like wbt_tmpdir, for a folder that other users must be able to pass into (a fake course whose programs
 * and tools run as other uids when the tests run as root): where TMPDIR lies under a folder closed to
 * others (a clone under /root at 0700), the folder is made in /tmp instead (as the tests' own cleanup
 * removes it). The grader's own handling of a closed home is tested on purpose in tests/test_isolation.c. */
static inline void wbt_tmpdir_open(char *dir, size_t len)
{
    wbt_tmpdir(dir, len);
    char p[4096];
    cr_assert_not_null(realpath(dir, p));
    *strrchr(p, '/') = 0; /* its parents (the folder itself is the caller's to open) */
    for (char *s = p + 1;; s++) {
        s = strchr(s, '/');
        if (s) *s = 0;
        struct stat st;
        if (stat(p[0] ? p : "/", &st) != 0 || !(st.st_mode & S_IXOTH)) break;
        if (!s) return; /* every folder down to it lets others through */
        *s = '/';
    }
    rmdir(dir);
    cr_assert_gt(len, sizeof "/tmp/wbtest.XXXXXX");
    snprintf(dir, len, "/tmp/wbtest.XXXXXX");
    cr_assert_not_null(mkdtemp(dir), "mkdtemp %s failed: %s", dir, strerror(errno));
}

/* Reads a whole binary file; asserts it exists and has exactly `expect` bytes. */
static inline void *wbt_read_exact(const char *path, size_t expect)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "missing output file %s", path);
    void *buf = malloc(expect + 1);
    size_t got = fread(buf, 1, expect + 1, f);
    fclose(f);
    cr_assert_eq(got, expect, "%s has %zu bytes, expected %zu", path, got, expect);
    return buf;
}

/* Parses a file of JSON lines (the chapters' --json output) into an array, with common/jsonl.c (the one
 * JSON-lines reader); a line that is not a JSON object fails the test. */
static inline json_t *wbt_json_lines(const char *path)
{
    char err[512];
    json_t *all = wb_jsonl_load(path, err, sizeof err);
    cr_assert_not_null(all, "bad JSON lines in %s: %s", path, err);
    return all;
}

/* Runs `command --json FILE` with FILE in a fresh temporary directory and returns the JSON lines it
 * wrote (an empty array if none; the caller json_decref's them), the exit status in *rc. Skips the test
 * when the program finds no GPU. */
static inline json_t *wbt_run_json(char *out, int *rc, const char *command)
{
    char dir[256], json[300];
    wbt_tmpdir(dir, sizeof dir);
    snprintf(json, sizeof json, "%s/r.json", dir);
    *rc = wbt_run(out, "%s --json %s", command, json);
    json_t *lines = access(json, R_OK) == 0 ? wbt_json_lines(json) : json_array();
    remove(json);
    rmdir(dir);
    WBT_SKIP_IF_NO_GPU(*rc, out);
    return lines;
}

/* The verdict recorded for `variant` in a JSON-lines array, or NULL. */
static inline const char *wbt_verdict_of(json_t *lines, const char *variant)
{
    return json_string_value(json_object_get(wb_jsonl_find(lines, variant, NULL), WB_JSON_VERDICT));
}

/* The fake workbook of tests/test_grading_e2e.c (host C, no GPU) in dir, its reference built with ref_flag and
 * the student's builds with stu_flag (the grader's recorded nvcc command), graded with the ch9 corpus's entry
 * "good" into dir/out (made afresh): grade's exit status, its output in log. */
static inline int wbt_grade_fake(const char *dir, const char *ref_flag, const char *stu_flag, char *log)
{
    char grade[PATH_MAX];
    cr_assert_not_null(realpath("build/grade", grade), "build/grade is not built");
    const char *cc = "-O1 -std=gnu11 -x c -Icommon";
    int rc = wbt_run(log, "cp -r tests/grading/fake/. %1$s/ && cp common/*.h %1$s/common/ && "
                          "make -s -B -C %1$s build/grading-flags.json NVCCFLAGS='%2$s %3$s' && "
                          "make -s -B -C %1$s build/solution9 NVCCFLAGS='%2$s %4$s' && rm -rf %1$s/class %1$s/out && "
                          "mkdir -p %1$s/class && cp -r build/cases/bugs/ch9/good %1$s/class/good && chmod -R a+rX %1$s",
                     dir, cc, stu_flag, ref_flag);
    cr_assert_eq(rc, 0, "%s", log);
    return wbt_run(log, "cd %s && export WB_GRADE_LOCK_DIR=$PWD && PATH=$PWD/bin:$PATH %s --rubric rubric.json "
                        "--seeds 5 --out out class/good 2>&1",
                   dir, grade);
}

/* Skips the test unless a usable GPU is present (asks build/doctor, which exits 3 without one). */
static inline void wbt_require_gpu(void)
{
    static char out[WBT_OUT_MAX];
    int rc = wbt_run(out, "./build/doctor");
    WBT_SKIP_IF_NO_GPU(rc, out);
    cr_assert_eq(rc, 0, "build/doctor failed (%d): %s", rc, out);
}

/* Runs `compute-sanitizer --tool TOOL` on a command line; asserts no finding. Skips without a GPU or
 * without compute-sanitizer. */
static inline void wbt_sanitize(const char *tool, const char *cmdline)
{
    static char out[WBT_OUT_MAX];
    wbt_require_gpu();
    if (wbt_run(out, "command -v compute-sanitizer") != 0) cr_skip_test("compute-sanitizer is not on PATH");
    int rc = wbt_run(out, "compute-sanitizer --tool %s --error-exitcode 86 %s", tool, cmdline);
    cr_assert_eq(rc, 0, "compute-sanitizer --tool %s %s: exit %d\n%s", tool, cmdline, rc, out);
    /* memcheck/synccheck/initcheck end with "ERROR SUMMARY: 0 errors", racecheck with
     * "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)". */
    cr_assert(strstr(out, "ERROR SUMMARY: 0 errors") || strstr(out, "(0 errors, 0 warnings)"),
              "%s: no clean summary\n%s", tool, out);
}

/* A bad command line: the usage exit code and exactly one line, before any GPU work (runs anywhere). */
static inline void wbt_assert_bad_usage(const char *program, const char *args)
{
    static char out[WBT_OUT_MAX];
    int rc = wbt_run(out, "%s %s", program, args);
    cr_assert_eq(rc, WB_EXIT_USAGE, "'%s %s' gave exit %d:\n%s", program, args, rc, out);
    size_t lines = 0;
    for (const char *c = out; *c; c++) lines += *c == '\n';
    cr_assert_eq(lines, 1u, "'%s %s' should print exactly one line:\n%s", program, args, out);
}

/* --help names the options and exit codes, and --list names every variant (no GPU needed). */
static inline void wbt_assert_help_and_list(const char *program, const char *const *variants, size_t n)
{
    static char out[WBT_OUT_MAX];
    cr_assert_eq(wbt_run(out, "%s --help", program), 0);
    cr_assert(strstr(out, "--variant") && strstr(out, "exit codes"), "%s", out);
    cr_assert_eq(wbt_run(out, "%s --list", program), 0);
    for (size_t v = 0; v < n; v++) cr_assert(strstr(out, variants[v]), "--list lacks %s", variants[v]);
}

/* The facts of chapter `number` of the workbook at root, its chapters/NN-name/chapter.json (NULL if it has
 * none; the caller json_decref's it), and the folder's name in dir. A chapter's tests read its sizes,
 * variants and tolerances there rather than restating them (tests/test_chapters.c checks the file). */
static inline json_t *wbt_chapter_json(const char *root, int number, char *dir, size_t dirlen)
{
    char p[4096], prefix[8];
    snprintf(p, sizeof p, "%s/chapters", root);
    snprintf(prefix, sizeof prefix, "%02d-", number);
    DIR *d = opendir(p);
    struct dirent *e;
    json_t *facts = NULL;
    while (d && !facts && (e = readdir(d)))
        if (!strncmp(e->d_name, prefix, 3)) {
            snprintf(p, sizeof p, "%s/chapters/%s/chapter.json", root, e->d_name);
            facts = json_load_file(p, 0, NULL);
            if (facts && dir) snprintf(dir, dirlen, "%s", e->d_name);
        }
    if (d) closedir(d);
    return facts;
}

/* A chapter's files in dir named ch<N><suffix> ("handouts", ".md": handouts/ch1.md … handouts/ch12.md), N of one
 * or two digits, into g (globfree it); how many. Never ch[0-9] alone: chapter 10 is a folder like the others. */
static inline size_t wbt_glob_chapters(const char *dir, const char *suffix, glob_t *g)
{
    char one[512], two[512];
    snprintf(one, sizeof one, "%s/ch[0-9]%s", dir, suffix);
    snprintf(two, sizeof two, "%s/ch[0-9][0-9]%s", dir, suffix);
    memset(g, 0, sizeof *g);
    int a = glob(one, 0, NULL, g), b = glob(two, a == 0 ? GLOB_APPEND : 0, NULL, g);
    return a == 0 || b == 0 ? g->gl_pathc : 0;
}

/* The chapter number of such a file: "handouts/results/ch12.json" -> 12 (the digits after the last "/ch"). */
static inline int wbt_chapter_of_path(const char *path)
{
    const char *slash = strrchr(path, '/');
    return atoi((slash ? slash + 1 : path) + 2);
}

/* A string of a chapter's facts by path ("tests.json_size"), or NULL. */
static inline const char *wbt_fact_str(json_t *facts, const char *path)
{
    char key[64];
    const char *dot = strchr(path, '.');
    if (!dot) return json_string_value(json_object_get(facts, path));
    snprintf(key, sizeof key, "%.*s", (int)(dot - path), path);
    return wbt_fact_str(json_object_get(facts, key), dot + 1);
}

/* The table of chapter `number`'s program in the workbook at root (the reference; the student's own in the
 * student release) as JSON lines, at its chapter.json's tests.json_size (3 timed repetitions after 1
 * warm-up); the exit status in *rc, as wbt_run_json. */
static inline json_t *wbt_table_json(const char *root, int number, char *out, int *rc)
{
    json_t *facts = wbt_chapter_json(root, number, NULL, 0);
    const char *size = wbt_fact_str(facts, "tests.json_size");
    cr_assert_not_null(size, "chapter %d: no chapter.json with tests.json_size under %s", number, root);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s/%s%d --size %s --reps 3 --warmup 1", root, WBT_SOLUTION + 2, number, size);
    json_decref(facts);
    return wbt_run_json(out, rc, cmd);
}

/* The names of chapter `number`'s variants, in its chapter.json's order (the program's); how many (0
 * if the file is missing: tests/test_chapters.c fails on that). */
#define WBT_MAX_VARIANTS 16
static inline int wbt_variants(int number, char names[][64], int max)
{
    json_t *facts = wbt_chapter_json(".", number, NULL, 0), *v;
    size_t i;
    int n = 0;
    json_array_foreach(json_object_get(facts, "variants"), i, v) if (n < max)
        snprintf(names[n++], 64, "%s", json_string_value(json_object_get(v, "name")) ? json_string_value(json_object_get(v, "name")) : "");
    json_decref(facts);
    return n;
}

/* A chapter's oracle runs: every variant at every size of the test's own table (size: its index). */
typedef struct {
    char variant[64];
    int size;
} wbt_case;
#define WBT_MAX_CASES 256

static inline int wbt_variant_cases(int number, int n_sizes, wbt_case *cases, int max)
{
    char names[WBT_MAX_VARIANTS][64];
    int nv = wbt_variants(number, names, WBT_MAX_VARIANTS), n = 0;
    for (int v = 0; v < nv; v++)
        for (int s = 0; s < n_sizes && n < max; s++) {
            snprintf(cases[n].variant, sizeof cases[n].variant, "%.63s", names[v]);
            cases[n++].size = s;
        }
    return n;
}

/* A line compared as code: line[0..len) copied into out (NUL-terminated, cut at outlen - 1) with every run
 * of white space made one space and none at either end. Returns the number of C tokens in it (a name or
 * number, or a member access such as threadIdx.x, counts one; any other non-space character one): how
 * telling a line is, so that the leak check of tests/test_release.c can skip `}` or `__syncthreads();`, which
 * every file has. A test's helper (tests/test_regions.c tests it), not the grader's. */
static inline size_t wb_norm_line(const char *line, size_t len, char *out, size_t outlen)
{
    size_t k = 0, tokens = 0;
    int space = 0, word = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if (isspace(c)) {
            space = k > 0;
            word = 0;
            continue;
        }
        int w = isalnum(c) || c == '_' || c == '.';
        if (!(w && word)) tokens++; /* a new name/number, or one punctuation character */
        word = w;
        if (space && k + 1 < outlen) out[k++] = ' ';
        space = 0;
        if (k + 1 < outlen) out[k++] = (char)c;
    }
    if (outlen) out[k < outlen ? k : outlen - 1] = 0;
    return tokens;
}

#endif /* WBTEST_H */
