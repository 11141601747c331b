/* build/grade as a program, without a GPU: what it says about a submission it cannot build or grade,
 * and its command line. (The grader's library modules are tested in test_grading.c and test_grading_report.c.) */
#include "wbtest.h"

#include "gr_util.h"
#include "regions.h"
#include "report.h"
#include "submission.h"

/* ---------------------------------------------------------------- build/grade without a GPU */
static void write_sub(const char *dir, const char *text)
{
    char d[256], p[320];
    snprintf(d, sizeof d, "%s/chapters/01-reversal", dir);
    gr_mkdirs(d, 0755);
    snprintf(p, sizeof p, "%s/reversal.cu", d);
    cr_assert_eq(gr_write_file(p, text, strlen(text)), 0);
}

static json_t *grade(const char *sub, const char *out, char *log)
{
    wbt_skip_if_no_isolation();
    int rc = wbt_run(log, "./build/grade --quiet --ch 1 --no-perf --no-sanitizer --seeds 5 --out %s %s", out, sub);
    /* without a GPU, a submission that builds is not graded (exit GR_EXIT_NO_GPU, no score written) */
    cr_assert(rc == GR_EXIT_OK || rc == GR_EXIT_NO_GPU, "build/grade exit %d\n%s", rc, log);
    char p[256];
    snprintf(p, sizeof p, "%s/grading.json", out);
    json_error_t e;
    json_t *g = json_load_file(p, 0, &e);
    cr_assert_not_null(g, "%s: %s\n%s", p, e.text, log);
    return g;
}

static const char *ch1_status(json_t *g)
{
    return json_string_value(json_object_get(json_array_get(json_object_get(g, "chapters"), 0), "status"));
}

Test(grading_build, mangled_markers_are_not_gradable, .timeout = 120)
{
    static char log[WBT_OUT_MAX];
    char dir[64], out[128];
    wbt_tmpdir(dir, sizeof dir);
    snprintf(out, sizeof out, "%s/out", dir);
    size_t n;
    char *text = wb_read_file("solutions/01-reversal/reversal.cu", &n);
    char *end = strstr(text, "    // END TODO(vector)\n");
    memmove(end, end + strlen("    // END TODO(vector)\n"), strlen(end + strlen("    // END TODO(vector)\n")) + 1);
    char sub[96];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    write_sub(sub, text);
    free(text);
    json_t *g = grade(sub, out, log);
    cr_assert_str_eq(ch1_status(g), "not gradable", "%s", log);
    cr_assert_float_eq(json_number_value(json_object_get(g, "score")), 0.0, 0);
    char p[256];
    snprintf(p, sizeof p, "%s/feedback.md", out);
    char *md = gr_read_capped(p, 1 << 20, NULL);
    cr_assert(strstr(md, "region 'vector'"), "%s", md);
    free(md);
    json_decref(g);
}

Test(grading_build, a_missing_file_is_reported, .timeout = 120)
{
    static char log[WBT_OUT_MAX];
    char dir[64], out[128], sub[96];
    wbt_tmpdir(dir, sizeof dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(sub, sizeof sub, "%s/only-ch2", dir); /* chapter 2's file, not chapter 1's: not empty */
    char ch2[160];
    snprintf(ch2, sizeof ch2, "%s/chapters/02-adjdiff", sub);
    gr_mkdirs(ch2, 0755);
    cr_assert_eq(wbt_run(log, "cp chapters/02-adjdiff/adjdiff.cu %s/", ch2), 0, "%s", log);
    json_t *g = grade(sub, out, log);
    cr_assert_str_eq(ch1_status(g), "missing", "%s", log);
    json_decref(g);
}

Test(grading_build, a_symlink_to_the_solution_is_refused, .timeout = 120)
{
    static char log[WBT_OUT_MAX];
    char dir[64], out[128], sub[128], link[256], target[PATH_MAX];
    wbt_tmpdir(dir, sizeof dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(sub, sizeof sub, "%s/sub/chapters/01-reversal", dir);
    gr_mkdirs(sub, 0755);
    snprintf(link, sizeof link, "%s/reversal.cu", sub);
    cr_assert_not_null(realpath("solutions/01-reversal/reversal.cu", target));
    cr_assert_eq(symlink(target, link), 0);
    snprintf(sub, sizeof sub, "%s/sub", dir);
    json_t *g = grade(sub, out, log);
    cr_assert_str_eq(ch1_status(g), "missing", "a link out of the submission is not the student's file\n%s", log);
    json_decref(g);
}

Test(grading_build, a_compile_error_keeps_the_compiler_log, .timeout = 300)
{
    static char log[WBT_OUT_MAX];
    char dir[64], out[128], sub[96];
    wbt_tmpdir(dir, sizeof dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(sub, sizeof sub, "%s/sub", dir);
    size_t n;
    char *text = wb_read_file("solutions/01-reversal/reversal.cu", &n);
    char *at = strstr(text, "if (i < n) out[n - 1 - i] = in[i];");
    at[strlen("if (i < n) out[n - 1 - i] = in[i]")] = ' '; /* drop the semicolon */
    write_sub(sub, text);
    free(text);
    json_t *g = grade(sub, out, log);
    cr_assert_str_eq(ch1_status(g), "build failed", "%s", log);
    char p[256];
    snprintf(p, sizeof p, "%s/feedback.md", out);
    char *md = gr_read_capped(p, 1 << 20, NULL);
    cr_assert(strstr(md, "Compiler output") && strstr(md, "error"), "%s", md);
    free(md);
    snprintf(p, sizeof p, "%s/results.json", out);
    json_error_t e;
    json_t *r = json_load_file(p, 0, &e);
    cr_assert_not_null(r, "%s", e.text);
    json_decref(r);
    json_decref(g);
}

/* Student code is compiled in the sandbox: where bubblewrap works, it cannot #include the solution. */
Test(grading_build, compilation_cannot_read_the_solution_under_bubblewrap, .timeout = 300)
{
    static char log[WBT_OUT_MAX];
    char dir[64], out[128], sub[96], sol[PATH_MAX];
    wbt_tmpdir(dir, sizeof dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(sub, sizeof sub, "%s/sub", dir);
    cr_assert_not_null(realpath("solutions/01-reversal/reversal.cu", sol));
    size_t n;
    char *text = wb_read_file("chapters/01-reversal/reversal.cu", &n);
    const char *marker = "    // BEGIN TODO(global)\n";
    char *at = strstr(text, marker) + strlen(marker);
    gr_str s = {0};
    gr_str_addn(&s, text, (size_t)(at - text));
    gr_str_addf(&s, "#if __has_include(\"%s\")\n#error THE SOLUTION IS READABLE\n#endif\n", sol);
    gr_str_add(&s, at);
    write_sub(sub, gr_str_c(&s));
    gr_str_free(&s);
    free(text);
    json_t *g = grade(sub, out, log);
    const char *iso = json_string_value(json_object_get(g, "isolation"));
    if (!strstr(iso, "bubblewrap")) cr_skip_test("no working bubblewrap here (isolation: %s)", iso);
    cr_assert_str_neq(ch1_status(g), "build failed", "the solution was readable during compilation\n%s", log);
    json_decref(g);
}

/* ---------------------------------------------------------------- the command line */
/* getopt_long with strict numbers: a usage error is exit 2 and one line saying what is wrong. */
Test(grading_cli, bad_options_are_usage_errors, .timeout = 30)
{
    static const struct {
        const char *args, *says;
    } cases[] = {
        {"--ch seven x", "--ch 'seven' is not a chapter number"},
        {"--ch 99 x", "the rubric has no chapter 99"},
        {"--ch 3x x", "--ch '3x' is not a chapter number"},
        {"--jobs 0 --class x", "--jobs '0' must be a whole number"},
        {"--jobs many --class x", "--jobs 'many' must be a whole number"},
        {"--seeds 1,-2 x", "bad seed '-2'"},
        {"--bogus x", "unknown option --bogus"},
        {"--ch", "--ch needs a value"},
        {"a b", "one submission at a time"},
        /* issue 28: a missing path says so and lists every accepted form (it was exit 3, "no GPU") */
        {"/nonexistent/sub", "/nonexistent/sub does not exist (a submission is a directory, .zip, .tar, .tar.gz or .tgz)"},
        {"Makefile", "Makefile is neither a directory nor an archive (.zip, .tar, .tar.gz or .tgz)"},
        /* the root names no one: its reports would have no name of their own ("_") */
        {"/", "grade: / is the root folder, not a submission"},
        {"--student ann --validate //", "grade: // is the root folder, not a submission"},
        {"", "usage: grade"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[8192];
        int rc = wbt_run(out, "./build/grade %s", cases[i].args);
        cr_expect_eq(rc, GR_EXIT_USAGE, "grade %s: exit %d\n%s", cases[i].args, rc, out);
        cr_expect(strstr(out, cases[i].says) != NULL, "grade %s: '%s' not in\n%s", cases[i].args, cases[i].says, out);
    }
}

/* Refusals before work (issue 40): a path that holds nothing to grade is refused in one line naming it,
 * exit 2, before the GPU, any build or any file written (it was "total 0.0 / 107.0", exit 0). */
Test(grading_cli, an_empty_submission_or_class_is_refused_and_nothing_is_written, .timeout = 60)
{
    static char out[WBT_OUT_MAX];
    char dir[256];
    wbt_tmpdir(dir, sizeof dir);
    int rc = wbt_run(out, "cd %1$s && mkdir empty class-empty class-dots class-dots/.git notes && touch class-dots/.hidden "
                          "notes/README.txt && echo junk > bogus.zip && (cd notes && tar -czf ../notes.tar.gz README.txt)", dir);
    cr_assert_eq(rc, 0, "%s", out);
    static const struct {
        const char *args, *says;
    } cases[] = {
        {"%s/empty", "empty holds no chapter file (looked for reversal.cu"},
        {"%s/notes", "notes holds no chapter file"},
        {"%s/notes.tar.gz", "notes.tar.gz holds no chapter file"},
        {"%s/bogus.zip", "bogus.zip cannot be graded: bogus.zip: not a readable"},
        {"--class %s/class-empty", "--class %s/class-empty holds no submission"},
        {"--class %s/class-dots", "--class %s/class-dots holds no submission"},
        {"--class %s/nowhere", "--class %s/nowhere: No such file or directory"},
        {"--class %s/bogus.zip", "--class %s/bogus.zip is not a folder"},
        {"--class ''", "--class '': no folder named"},
        {"--validate %s/empty", "empty holds no chapter file"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char args[600], says[600];
        snprintf(args, sizeof args, cases[i].args, dir, dir);
        snprintf(says, sizeof says, cases[i].says, dir, dir);
        rc = wbt_run(out, "./build/%s --quiet --seeds 5 --out %s/out %s", strncmp(args, "--class", 7) ? "grade" : "course", dir, args);
        cr_expect_eq(rc, GR_EXIT_USAGE, "grade %s: exit %d\n%s", args, rc, out);
        cr_expect(strstr(out, says) != NULL, "grade %s: '%s' not in\n%s", args, says, out);
        cr_expect(strchr(out, '\n') == strrchr(out, '\n'), "grade %s: more than one line\n%s", args, out);
        char o[300];
        snprintf(o, sizeof o, "%s/out", dir);
        cr_expect(!gr_is_dir(o), "grade %s wrote %s", args, o);
    }
    /* --validate on what can be graded: exit 0, nothing written, no GPU asked; a class's entry graded alone
     * (--student, a Slurm task) is graded even when empty, as the local engine grades it */
    rc = wbt_run(out, "./build/grade --validate --out %s/out solutions && ./build/course --validate --out %s/out --class build/cases/bugs/ch9"
                      " && ./build/grade --validate --student ann --out %s/out %s/empty", dir, dir, dir, dir);
    cr_expect_eq(rc, 0, "%s", out);
    cr_expect(!strncmp(out, "grade: ok: ", 11) && wbt_count(out, "grade: ok: ") == 2 && wbt_count(out, "\n") == 2,
              "each grade --validate says ok in one line, course --validate nothing:\n%s", out);
    char o[300];
    snprintf(o, sizeof o, "%s/out", dir);
    cr_expect(!gr_is_dir(o), "grade --validate wrote %s", o);
}

/* The make targets check their arguments before the GPU and before building anything but the grader, and
 * end with make's "Error N", N the code of the one table (the grader's, README.md): a missing path is
 * Error 2 with the path in the first line, no GPU is Error GR_EXIT_NO_GPU (it was Error 3, the chapter
 * programs' code, before the path was looked at). */
#define GB_MAKE "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory "
Test(grading_cli, make_targets_refuse_bad_arguments_first_and_pass_the_graders_code_on, .timeout = 120)
{
    static char out[WBT_OUT_MAX];
    static const struct {
        const char *args, *first, *error;
    } cases[] = {
        {"grade SUB=/nonexistent/sub", "grade: /nonexistent/sub does not exist", "] Error 2"},
        {"grade-class SUBS=/nonexistent/class", "grade: --class /nonexistent/class: No such file", "] Error 2"},
        {"grade-class SUBS=/nonexistent/class ENGINE=slurm", "grade: --class /nonexistent/class: No such file", "] Error 2"},
        {"grade SUB=Makefile CH=1", "grade: Makefile is neither a directory nor an archive", "] Error 2"},
        {"grade SUB=solutions CH=77", "grade: --ch 77: the rubric has no chapter 77", "] Error 2"},
        {"sanitize CH=x", "CH='x' is not a chapter", "] Error 2"},
        {"sanitize CH=1 V=global,nope", "V='nope' is not a variant of chapter 1", "] Error 2"},
        {"resources CH=1 V=nope", "V='nope' is not a variant of chapter 1", "] Error 2"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = wbt_run(out, GB_MAKE "%s", cases[i].args);
        cr_expect_eq(rc, 2, "make %s: exit %d\n%s", cases[i].args, rc, out);
        cr_expect(!strncmp(out, cases[i].first, strlen(cases[i].first)), "make %s: the first line is not '%s…':\n%s",
                  cases[i].args, cases[i].first, out);
        cr_expect(strstr(out, cases[i].error), "make %s: no '%s' in\n%s", cases[i].args, cases[i].error, out);
        cr_expect_null(strstr(out, "no CUDA device"), "make %s asked for the GPU first:\n%s", cases[i].args, out);
    }
    /* the make files' number for "no GPU" is the grader's */
    char *mk = gr_read_capped("mk/grader.mk", 1 << 20, NULL), want[64];
    cr_assert_not_null(mk);
    snprintf(want, sizeof want, "\nGR_EXIT_NO_GPU := %d\n", GR_EXIT_NO_GPU);
    cr_expect(strstr(mk, want), "mk/grader.mk does not say '%s'", want + 1);
    free(mk);
    if (wbt_run(out, "./build/doctor") == 0) return; /* a GPU here: the grading would run */
    char e[32];
    snprintf(e, sizeof e, "] Error %d\n", GR_EXIT_NO_GPU);
    int rc = wbt_run(out, GB_MAKE "grade SUB=solutions CH=1");
    cr_expect_eq(rc, 2, "%s", out);
    cr_expect(strstr(out, "no CUDA device found") && strstr(out, e), "make grade without a GPU: no '%s' in\n%s", e, out);
}

/* Whether a submission is empty: not one chapter's file, nor a link in its place. */
Test(grading_cli, a_submission_is_empty_only_without_any_chapter_file)
{
    cr_expect(gr_sub_is_empty(&(gr_sub_content){0, 0}));
    cr_expect(!gr_sub_is_empty(&(gr_sub_content){1, 0}), "one chapter's file is a submission (the others: missing)");
    cr_expect(!gr_sub_is_empty(&(gr_sub_content){0, 1}), "a link in a chapter file's place is graded (and refused there)");
}

/* A chapter file that is a symbolic link (or under a linked folder) points out of the submission: it is
 * not graded, and the reason says so instead of "missing" (issue 28). */
Test(grading_cli, a_linked_chapter_file_is_named_a_link_out_of_the_submission)
{
    char dir[256], sub[300], out[PATH_MAX], why[512];
    wbt_tmpdir(dir, sizeof dir);
    snprintf(sub, sizeof sub, "%s/sub", dir);
    gr_chapter_rubric ch;
    memset(&ch, 0, sizeof ch);
    snprintf(ch.dir, sizeof ch.dir, "01-reversal");
    snprintf(ch.file, sizeof ch.file, "reversal.cu");
    int rc = wbt_run(why, "mkdir -p %1$s/chapters/01-reversal && ln -s \"$PWD/solutions/01-reversal/reversal.cu\" "
                          "%1$s/chapters/01-reversal/reversal.cu", sub);
    cr_assert_eq(rc, 0, "%s", why);
    cr_expect_eq(gr_find_student_file(sub, &ch, out, sizeof out, 0), 0, "a link was taken as the student's file");
    cr_expect_eq(gr_student_file_link(sub, &ch, out, sizeof out), 1);
    cr_expect_str_eq(out, "chapters/01-reversal/reversal.cu");
    /* a linked folder */
    rc = wbt_run(why, "rm -r %1$s/chapters && ln -s \"$PWD/solutions\" %1$s/chapters", sub);
    cr_assert_eq(rc, 0, "%s", why);
    cr_expect_eq(gr_student_file_link(sub, &ch, out, sizeof out), 1, "under a linked folder");
    /* a plain file: no link */
    rc = wbt_run(why, "rm %1$s/chapters && mkdir -p %1$s/chapters/01-reversal && cp chapters/01-reversal/reversal.cu %1$s/chapters/01-reversal/", sub);
    cr_assert_eq(rc, 0, "%s", why);
    cr_expect_eq(gr_student_file_link(sub, &ch, out, sizeof out), 0);
    cr_expect_eq(gr_find_student_file(sub, &ch, out, sizeof out, 0), 1);
    wbt_run(why, "rm -rf %s", dir);
}

/* A chapter's build runs in a process of its own (children.h) that hands its report back: killed while
 * nvcc works, it leaves no report, and the chapter is a build that failed, saying so, not a crash of the
 * grading nor a report of garbage. */
Test(grading_build, a_build_process_killed_is_a_build_that_failed, .timeout = 300)
{
    static char log[WBT_OUT_MAX];
    char dir[64], p[256];
    wbt_skip_if_no_isolation();
    wbt_tmpdir(dir, sizeof dir);
    snprintf(p, sizeof p, "%s/sub", dir);
    size_t n;
    char *text = wb_read_file("solutions/01-reversal/reversal.cu", &n);
    write_sub(p, text);
    free(text);
    /* the build's process: the grader's child named grade that has a child of its own (nvcc's run in the
     * sandbox; a run's own process is named after what it executes) */
    int rc = wbt_run(log,
                     "kid() { for t in /proc/[0-9]*/stat; do read -r p2 c2 s2 pp2 r2 < $t 2>/dev/null && "
                     "[ \"$pp2\" = $1 ] && return 0; done; return 1; }; "
                     "d=%s; ./build/grade --quiet --ch 1 --no-perf --no-sanitizer --seeds 5 --out $d/out $d/sub "
                     "> $d/g.log 2>&1 & g=$!; c=; for i in $(seq 1200); do kill -0 $g 2>/dev/null || break; "
                     "  for s in /proc/[0-9]*/stat; do read -r pid comm st ppid rest < $s 2>/dev/null || continue; "
                     "    [ \"$ppid\" = $g ] && [ \"$comm\" = '(grade)' ] && kid $pid && c=$pid && break; done; "
                     "  [ -n \"$c\" ] && break; sleep 0.05; done; "
                     "[ -n \"$c\" ] && kill -9 $c; wait $g; rc=$?; cat $d/g.log; "
                     "[ -n \"$c\" ] || { echo \"no build process found: the grader ended (exit $rc) first\"; exit 99; }; exit $rc",
                     dir);
    cr_assert(rc == GR_EXIT_OK || rc == GR_EXIT_NO_GPU, "exit %d\n%s", rc, log);
    snprintf(p, sizeof p, "%s/out/feedback.md", dir);
    char *md = gr_read_capped(p, 1 << 20, NULL);
    cr_assert_not_null(md, "%s", log);
    cr_expect(strstr(md, "**build failed**: the build process died"), "%s", md);
    free(md);
}

/* A submission's chapters run their shared steps at once, each in a process of its own that hands its state
 * back whole (pipeline.c, children.h): on the fake workbook with its chapter twice (8 and 9, no GPU), the
 * two chapters get their verdicts as one alone would; the process of one killed while it works makes that
 * chapter the grader's error, saying how it ended, and the other is graded. */
Test(grading_build, chapters_at_once_hand_back_their_results, .timeout = 300)
{
    static char log[WBT_OUT_MAX];
    char d[64], grade[PATH_MAX], root[PATH_MAX], p[256];
    wbt_skip_if_no_isolation();
    wbt_tmpdir_open(d, sizeof d);
    chmod(d, 0755);
    cr_assert_not_null(realpath("build/grade", grade));
    cr_assert_not_null(realpath(".", root));
    /* build/solution8 copied after its source: a reference older than its source is refused (a second's race) */
    int rc = wbt_run(log, "cd %s && cp -r %s/tests/grading/fake/. . && cp %s/common/*.h common/ && make -s build/grading-flags.json "
                          "build/solution9 && cp -r chapters/09-fake chapters/08-fake && cp -r solutions/09-fake solutions/08-fake && "
                          "cp build/solution9 build/solution8 && mkdir sub && cp -r solutions sub/chapters && chmod -R a+rX .",
                     d, root, root);
    cr_assert_eq(rc, 0, "%s", log);
    rc = wbt_run(log, "cd %s && export WB_GRADE_LOCK_DIR=$PWD PATH=$PWD/bin:$PATH; %s --quiet --no-perf --rubric rubric.json "
                      "--seeds 5 --out out sub; %s --no-perf --rubric rubric.json --seeds 5 --out k sub > k.log 2>&1 & g=$!; "
                      "for i in $(seq 1000); do grep -q 'ch8 reference seed' k.log && break; sleep 0.01; done; "
                      "for s in /proc/[0-9]*/stat; do read -r pid comm st ppid rest < $s 2>/dev/null || continue; "
                      "  [ \"$ppid\" = $g ] && [ \"$comm\" = '(grade)' ] && kill -9 $pid && break; done; wait $g",
                 d, grade, grade);
    cr_assert_eq(rc, GR_EXIT_NOT_GRADED, "exit %d\n%s", rc, log);
    snprintf(p, sizeof p, "%s/out/feedback.md", d);
    char *md = gr_read_capped(p, 1 << 20, NULL);
    cr_assert_not_null(md, "%s", log);
    cr_expect(strstr(md, "## Chapter 8 (08-fake): 6.0 / 8.0") && strstr(md, "## Chapter 9 (09-fake): 6.0 / 8.0"), "%s", md);
    free(md);
    snprintf(p, sizeof p, "%s/k/feedback.md", d);
    md = gr_read_capped(p, 1 << 20, NULL);
    cr_assert_not_null(md, "%s", log);
    cr_expect(strstr(md, "**grader error**: the process grading this chapter died (it was killed by signal 9"), "%s", md);
    cr_expect(strstr(md, ": 6.0 / 8.0"), "the other chapter was graded:\n%s", md);
    free(md);
}
