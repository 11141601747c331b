/*
 * test_makefile.c — the Makefile itself (issue 12): a tenth chapter builds and runs like the others,
 * reading the Makefile runs no tool (`make help` starts no nvidia-smi, no nvcc), and `make test` has its
 * prerequisites in one place. The chapter-10 case works on a copy of the repository in a temporary folder.
 * The build's structure (issue 32: mk/, scripts/): plain `make` is `make help`, each program links and
 * includes only the folders it uses, a new module joins its folder's library without an edit, and the
 * scripts of the recipes (make test's run among them) are strict and fail as they should.
 */
#include "wbtest.h"

#include "gr_util.h"

/* Sub-makes must not inherit the outer `make test`'s flags (jobserver, command-line variables). */
#define WBT_MAKE "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory"

static char out[WBT_OUT_MAX];

/* A copy of the Makefile (mk/ and scripts/ with it), common/ and chapter 1 (starter and, where present, reference), with chapter 1
 * copied again as chapter 10 (chapters/10-reversal2/reversal2.cu). */
static void copy_with_chapter10(char *dir, size_t len)
{
    wbt_tmpdir(dir, len);
    int rc = wbt_run(out,
                     "set -e; cp -r Makefile mk scripts common '%1$s'/ && mkdir -p '%1$s'/chapters/10-reversal2 && "
                     "cp -r chapters/01-reversal '%1$s'/chapters/ && "
                     "cp chapters/01-reversal/reversal.cu '%1$s'/chapters/10-reversal2/reversal2.cu && "
                     "if [ -d solutions/01-reversal ]; then mkdir -p '%1$s'/solutions/10-reversal2 && "
                     "cp -r solutions/01-reversal '%1$s'/solutions/ && "
                     "cp solutions/01-reversal/reversal.cu '%1$s'/solutions/10-reversal2/reversal2.cu; fi",
                     dir);
    cr_assert_eq(rc, 0, "copying the repository failed: %s", out);
}

Test(makefile, tenth_chapter_builds_and_runs_like_the_others, .timeout = 600)
{
    char dir[512];
    copy_with_chapter10(dir, sizeof dir);
    int has_solutions = access("solutions/01-reversal", F_OK) == 0;

    int rc = wbt_run(out, "cd '%s' && " WBT_MAKE " help", dir);
    cr_assert_eq(rc, 0, "make help: %s", out);
    cr_assert(strstr(out, "chapters here: 1 10"), "chapter 10 is not listed:\n%s", out);

    rc = wbt_run(out, "cd '%s' && " WBT_MAKE " -n chapter10 %s", dir, has_solutions ? "solution10" : "");
    cr_assert_eq(rc, 0, "make -n chapter10: %s", out);
    cr_assert(strstr(out, "chapters/10-reversal2/reversal2.cu") && strstr(out, "./build/chapter10"),
              "make -n chapter10 does not build and run chapter 10's own source:\n%s", out);
    if (has_solutions)
        cr_assert(strstr(out, "solutions/10-reversal2/reversal2.cu") && strstr(out, "./build/solution10"),
                  "make -n solution10 does not build and run chapter 10's reference:\n%s", out);

    /* nvcc compiles without a GPU. */
    rc = wbt_run(out, "cd '%s' && " WBT_MAKE " build/chapter10 %s", dir, has_solutions ? "build/solution10" : "");
    cr_assert_eq(rc, 0, "building chapter 10 failed:\n%s", out);
    /* quiet by default (issue 28): one line per file built, no compiler command */
    cr_assert(strstr(out, "  NVCC   build/chapter10\n") && !strstr(out, "-gencode"), "not a quiet build:\n%s", out);
    char path[600];
    snprintf(path, sizeof path, "%s/build/chapter10", dir);
    cr_assert_eq(access(path, X_OK), 0, "no %s after the build", path);

    /* `make chapter10` reaches the program: it runs it, which then exits 3 without a GPU (make says
     * "Error 3") or 1 with one (the starter's TODO variants). */
    rc = wbt_run(out, "cd '%s' && " WBT_MAKE " chapter10 ARGS='--size 1000'", dir);
    cr_assert(strstr(out, "./build/chapter10 --size 1000"), "make chapter10 did not run the program:\n%s", out);
    cr_assert(rc == 0 || strstr(out, "Error 3") || strstr(out, "Error 1"), "make chapter10 (exit %d):\n%s", rc, out);
    cr_assert_null(strstr(out, "No rule"), "%s", out);
    wbt_run(out, "rm -rf '%s'", dir);
}

/* ---------------------------------------------------------------- a chapter's own flags (issue 60) */

/* A make in the chapter-10 copy with a logging stand-in for nvcc (it writes the -o file and logs its
 * command) and ARCH given, so that the test is the same on any machine; the lines of the files built. */
#define FAKE_NVCC "printf '#!/bin/sh\\necho \"$*\" >> \"$(dirname \"$0\")/nvcc.log\"\\nwhile [ $# -gt 0 ]; do " \
                  "[ \"$1\" = -o ] && : > \"$2\"; shift; done\\n' > nvcc && chmod +x nvcc"
static const char *flags_make(const char *dir, const char *arch, const char *chapter_mk)
{
    int rc = wbt_run(out, "cd '%s' && rm -f nvcc.log && %s && " WBT_MAKE " NVCC=$PWD/nvcc ARCH=%s build/chapter1 "
                          "build/solution1 build/chapter10 build/solution10 && { cat nvcc.log 2>/dev/null || :; }",
                     dir, chapter_mk, arch);
    cr_assert_eq(rc, 0, "make (%s, ARCH=%s): %s", chapter_mk, arch, out);
    return out;
}

/* Each chapter's builds depend on a stamp of their own command (issue 60: after SOLFLAGS_6 was added,
 * `make solution6` did not rebuild): a flag in chapters/10-…/chapter.mk rebuilds chapter 10 only, a
 * SOLFLAGS its reference only; ARCH_FEATURES_10 := sm_90a adds sm_90a code to chapter 10's builds only
 * where ARCH is sm_90, and to nothing at ARCH=sm_80. */
Test(makefile, a_chapters_flags_rebuild_that_chapter_only, .timeout = 120)
{
    char dir[512];
    copy_with_chapter10(dir, sizeof dir);
    if (access("solutions/01-reversal", F_OK) != 0) cr_skip_test("student release: no references to build");
    const char *mk = "chapters/10-reversal2/chapter.mk";
    char set[256];
    const char *o = flags_make(dir, "sm_80", FAKE_NVCC);
    cr_assert_eq(wbt_count(o, "  NVCC   build/"), 4, "the first build:\n%s", o);
    o = flags_make(dir, "sm_80", "true");
    cr_assert_eq(wbt_count(o, "  NVCC   build/"), 0, "nothing changed, yet:\n%s", o);

    snprintf(set, sizeof set, "echo 'SOLFLAGS_10 := -DWB_TEN' > %s", mk);
    o = flags_make(dir, "sm_80", set);
    cr_assert(wbt_count(o, "  NVCC   build/") == 1 && strstr(o, "  NVCC   build/solution10\n") && strstr(o, "-DWB_TEN"),
              "SOLFLAGS_10 rebuilds chapter 10's reference only, with it:\n%s", o);
    snprintf(set, sizeof set, "echo 'LDLIBS_10 := -lm' >> %s", mk);
    o = flags_make(dir, "sm_80", set);
    cr_assert(wbt_count(o, "  NVCC   build/") == 2 && strstr(o, "  NVCC   build/chapter10\n") &&
              strstr(o, "  NVCC   build/solution10\n") && wbt_count(o, "reversal2.cu -lgomp -lm") == 2,
              "LDLIBS_10 rebuilds both of chapter 10's builds, linking it:\n%s", o);

    snprintf(set, sizeof set, "echo 'ARCH_FEATURES_10 := sm_90a' >> %s", mk);
    o = flags_make(dir, "sm_80", set);
    cr_assert_eq(wbt_count(o, "  NVCC   build/"), 0, "sm_80 runs no sm_90a code: nothing to rebuild:\n%s", o);
    o = flags_make(dir, "sm_90", "true");
    cr_assert_eq(wbt_count(o, "  NVCC   build/"), 4, "another ARCH rebuilds every chapter:\n%s", o);
    cr_assert_eq(wbt_count(o, "-gencode=arch=compute_90a,code=sm_90a"), 2, "sm_90a code in chapter 10's builds only:\n%s", o);
    for (const char *l = o; (l = strstr(l, "-gencode=arch=compute_90a")); l++) {
        const char *eol = strchr(l, '\n'), *src = strstr(l, "reversal2.cu");
        cr_assert(eol && src && src < eol, "sm_90a code in another chapter:\n%s", o);
    }
    o = flags_make(dir, "sm_90a", "true");
    cr_assert_eq(wbt_count(o, "compute_90a,code=sm_90a"), 4, "ARCH=sm_90a builds its code once per build:\n%s", o);

    snprintf(set, sizeof set, "rm %s", mk);
    o = flags_make(dir, "sm_90a", set);
    cr_assert(wbt_count(o, "  NVCC   build/") == 2 && !strstr(o, "build/chapter1\n") && !strstr(o, "-DWB_TEN"),
              "chapter.mk removed: chapter 10 rebuilt with the common flags:\n%s", o);
    snprintf(set, sizeof set, "echo 'ARCH_FEATURES_10 := 90a' > %s", mk);
    int rc = wbt_run(out, "cd '%s' && %s && " WBT_MAKE " NVCC=$PWD/nvcc ARCH=sm_90 build/chapter10", dir, set);
    cr_assert(rc != 0 && strstr(out, "ARCH_FEATURES_10 = '90a' is not of the form sm_NNa"), "a bad feature (exit %d):\n%s", rc, out);
    wbt_run(out, "rm -rf '%s'", dir);
}

/* In dir, after the shell command setup: build/grading-flags.json made with make's arguments first, then
 * with second, each read as JSON into *a and *b. */
static void grading_flags_twice(const char *dir, const char *setup, const char *first, const char *second, json_t **a,
                                json_t **b)
{
    int rc = wbt_run(out, "cd '%s' && %s && " WBT_MAKE " -s %s build/grading-flags.json && cat build/grading-flags.json && "
                          "echo && " WBT_MAKE " -s %s build/grading-flags.json && cat build/grading-flags.json",
                     dir, setup, first, second);
    cr_assert_eq(rc, 0, "%s", out);
    char *next = strchr(out, '\n');
    cr_assert_not_null(next, "%s", out);
    *next++ = 0;
    json_error_t e;
    *a = json_loads(out, 0, &e);
    cr_assert_not_null(*a, "not JSON (%s):\n%s", e.text, out);
    *b = json_loads(next, 0, &e);
    cr_assert_not_null(*b, "not JSON (%s):\n%s", e.text, next);
    next[-1] = '\n'; /* both in out again, for the messages */
}

/* The grader builds student code from build/grading-flags.json: a chapter's arch flags are recorded for this
 * ARCH (sm_90a on an H200), as the reference's build has them; none for a GPU that does not run them. */
Test(makefile, the_grader_records_a_chapters_arch_flags_for_this_gpu, .timeout = 120)
{
    char dir[512];
    copy_with_chapter10(dir, sizeof dir);
    int rc = wbt_run(out, "cd '%s' && echo 'ARCH_FEATURES_10 := sm_90a' > chapters/10-reversal2/chapter.mk && "
                          "echo 'LDLIBS_10 := -lm' >> chapters/10-reversal2/chapter.mk && "
                          WBT_MAKE " -s ARCH=sm_80 build/grading-flags.json && cat build/grading-flags.json && echo && "
                          WBT_MAKE " -s ARCH=sm_90 build/grading-flags.json && cat build/grading-flags.json",
                     dir);
    cr_assert_eq(rc, 0, "%s", out);
    char *second = strchr(out, '\n');
    cr_assert_not_null(second, "%s", out);
    *second++ = 0;
    json_error_t e;
    json_t *at80 = json_loads(out, 0, &e), *at90 = json_loads(second, 0, &e);
    cr_assert(at80 && at90, "not JSON (%s):\n%s\n%s", e.text, out, second);
    /* sm_80 runs no sm_90a code: chapter 10 is built with the common command there */
    cr_expect_null(json_object_get(json_object_get(at80, "chapter_nvcc"), "10-reversal2"), "sm_80: %s", out);
    const char *own = json_string_value(json_object_get(json_object_get(at90, "chapter_nvcc"), "10-reversal2"));
    const char *common = json_string_value(json_object_get(at90, "nvcc"));
    cr_assert(own && common && !strncmp(own, common, strlen(common)) &&
                  !strcmp(own + strlen(common), " -gencode=arch=compute_90a,code=sm_90a"),
              "sm_90: chapter 10's command is the common one and its sm_90a code: %s", second);
    cr_expect_null(json_object_get(json_object_get(at90, "chapter_nvcc"), "01-reversal"), "%s", second);
    cr_expect_str_eq(json_string_value(json_object_get(json_object_get(at90, "sol_libs"), "10")), "-lm", "%s", second);
    json_decref(at80);
    json_decref(at90);
    wbt_run(out, "rm -rf '%s'", dir);
}

/* Without a GPU (an nvidia-smi that answers nothing) and without ARCH, the grader's build of each chapter adds
 * what a grader's GPU builds beside sm_75: sm_80, sm_90 and the chapter's own features, each once (issue 65:
 * a `__CUDA_ARCH__ >= 800` path was never compiled on a laptop). ARCH given: that one only. */
Test(makefile, without_a_gpu_the_graders_build_adds_what_a_graders_gpu_builds, .timeout = 120)
{
    char dir[512];
    copy_with_chapter10(dir, sizeof dir);
    json_t *none, *given;
    grading_flags_twice(dir, "echo 'ARCH_FEATURES_10 := sm_90a' > chapters/10-reversal2/chapter.mk && mkdir bin && "
                             "printf '#!/bin/sh\\nexit 9\\n' > bin/nvidia-smi && chmod +x bin/nvidia-smi && "
                             "export PATH=\"$PWD/bin:$PATH\"",
                        "", "ARCH=sm_75", &none, &given);
    json_t *flags = json_object_get(none, "chapter_nvcc");
    const char *common = json_string_value(json_object_get(none, "nvcc")), *one = json_string_value(json_object_get(flags, "01-reversal")),
               *ten = json_string_value(json_object_get(flags, "10-reversal2"));
    cr_assert(common && one && ten && !strncmp(one, common, strlen(common)) && !strncmp(ten, common, strlen(common)), "%s", out);
    cr_expect_str_eq(one + strlen(common), " -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90,code=sm_90", "%s", out);
    cr_expect_str_eq(ten + strlen(common),
                     " -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90,code=sm_90 -gencode=arch=compute_90a,code=sm_90a",
                     "%s", out);
    cr_expect(strstr(common, "code=sm_75"), "sm_75 stays: %s", out);
    cr_expect_null(json_object_get(json_object_get(given, "chapter_nvcc"), "01-reversal"), "ARCH given: %s", out);
    cr_expect_null(json_object_get(json_object_get(given, "chapter_nvcc"), "10-reversal2"), "ARCH given: %s", out);
    json_decref(none);
    json_decref(given);
    wbt_run(out, "rm -rf '%s'", dir);
}

/* Reading the Makefile runs nothing: a logging nvidia-smi and nvcc first on PATH stay silent for targets
 * that need no GPU and no compiler. */
Test(makefile, parsing_runs_no_tool)
{
    char dir[512];
    wbt_tmpdir(dir, sizeof dir);
    int rc = wbt_run(out,
                     "set -e; for t in nvidia-smi nvcc; do printf '#!/bin/sh\\necho \"$0 $*\" >> %1$s/log\\nexit 1\\n' "
                     "> %1$s/$t; chmod +x %1$s/$t; done; "
                     "PATH='%1$s':$PATH " WBT_MAKE " -s help >/dev/null; "
                     "PATH='%1$s':$PATH " WBT_MAKE " -s -n clean >/dev/null; "
                     "PATH='%1$s':$PATH " WBT_MAKE " -s -n dist-student >/dev/null; "
                     "cat %1$s/log 2>/dev/null || true",
                     dir);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert_eq(out[0], 0, "reading the Makefile ran tools:\n%s", out);
    wbt_run(out, "rm -rf '%s'", dir);
}

/* V=1 shows the commands of a build (issue 28); the file built is the cheapest there is, in a build folder
 * of its own: rebuilt in build/, it made the library (then libwb.a) and build/inspect stale, and a test that ran make then
 * relinked build/inspect while another ran it ("Permission denied" on the H100). */
Test(makefile, v1_shows_the_commands, .timeout = 120)
{
    char b[128], want[512];
    wbt_tmpdir(b, sizeof b);
    int rc = wbt_run(out, WBT_MAKE " -B V=1 BUILD=%s %s/obj/common/jsonl.o 2>&1", b, b);
    cr_assert_eq(rc, 0, "%s", out);
    /* compiled under a temporary name and renamed (mk/toolchain.mk's ATMP and PUBLISH) */
    snprintf(want, sizeof want, "-c -o %1$s/obj/common/jsonl.o.tmp$$ common/jsonl.c && mv -f %1$s/obj/common/jsonl.o.tmp$$ %1$s/obj/common/jsonl.o", b);
    cr_assert(strstr(out, "gcc ") && strstr(out, want), "V=1 showed no command:\n%s", out);
    rc = wbt_run(out, WBT_MAKE " -B BUILD=%s %s/obj/common/jsonl.o 2>&1", b, b);
    cr_assert_eq(rc, 0, "%s", out);
    snprintf(want, sizeof want, "  CC     %s/obj/common/jsonl.o\n", b);
    cr_assert(strstr(out, want) && !strstr(out, "gcc "), "the quiet build says more than the file:\n%s", out);
    wbt_run(out, "rm -rf %s", b);
}

/* SUB and SUBS reach the grader as one word each, whatever they hold (issue 28: a space split them, a
 * quote was a shell syntax error). The grader's command line that make -n prints is run with printf. */
Test(makefile, sub_paths_with_spaces_and_quotes_reach_the_grader_whole, .timeout = 120)
{
    static const char *const paths[] = {"path with spaces", "it's \"quoted\"", "`x` ;y &z"}; /* a $ is make's own ($$) */
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
#ifdef WBT_STUDENT_RELEASE
        const int classes = 1; /* the release has no course/, hence no build/course and no class to grade */
#else
        const int classes = 2;
#endif
        for (int klass = 0; klass < classes; klass++) {
            char dir[256];
            wbt_tmpdir(dir, sizeof dir);
            char file[300];
            snprintf(file, sizeof file, "%s/sub", dir);
            FILE *f = fopen(file, "w");
            cr_assert_not_null(f);
            fputs(paths[i], f);
            fclose(f);
            int rc = wbt_run(out, WBT_MAKE " -n %s=\"$(cat '%s')\" %s 2>&1 | grep -E '^./build/(grade|course)' "
                                  "| sed -E 's@^./build/(grade|course)@printf \"<%%s>\\\\n\"@' | sh",
                             klass ? "SUBS" : "SUB", file, klass ? "grade-class" : "grade");
            char want[200];
            snprintf(want, sizeof want, "<%s>\n", paths[i]);
            cr_assert_eq(rc, 0, "%s", out);
            cr_assert(strstr(out, want), "make %s with %s='%s': the grader got\n%s", klass ? "grade-class" : "grade",
                      klass ? "SUBS" : "SUB", paths[i], out);
            wbt_run(out, "rm -rf '%s'", dir);
        }
    }
}

/* make help lists what this copy has (issue 28); make doctor: the student's section, the grader's, a
 * verdict, exit 0 (with or without a GPU). */
Test(makefile, help_lists_handouts_and_doctor_ends_with_a_verdict, .timeout = 120)
{
    int rc = wbt_run(out, WBT_MAKE " help");
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strstr(out, "make handouts") && strstr(out, "make check") && strstr(out, "make test"), "%s", out);
    if (access("solutions", F_OK) == 0)
        cr_assert(strstr(out, "make results") && strstr(out, "make grade") && strstr(out, "make solutionN"), "%s", out);
    rc = wbt_run(out, WBT_MAKE " -s doctor");
    cr_assert_eq(rc, 0, "make doctor exit %d:\n%s", rc, out);
    char *student = strstr(out, "chapters and tests:"), *grader = strstr(out, "the grader ("), *verdict = strstr(out, "\nverdict: ");
    cr_assert(student && grader && verdict && student < grader && grader < verdict, "sections out of order:\n%s", out);
    cr_assert_null(strchr(verdict + 1, '\n') ? strchr(strchr(verdict + 1, '\n') + 1, '\n') : NULL, "more after the verdict:\n%s", out);
    cr_assert_null(strstr(out, "Error"), "%s", out);
    /* what make test skips here, and why: the GPU tests without a GPU, the tests that grade with the grader's
     * own refusal where it refuses (issue 40: as a plain user, make doctor said make test runs) */
    cr_assert(strstr(out, "\nmake test as ") && strstr(out, "(what skips, and why):\n"), "no skips section:\n%s", out);
    if (!strstr(out, "verdict: ready")) cr_assert(strstr(out, "\n  the GPU tests: ") && strstr(verdict, "skips the GPU tests"), "%s", out);
    static char iso[WBT_OUT_MAX];
    if (access("solutions", F_OK) == 0 && wbt_run(iso, "./build/grade --isolation") == GR_EXIT_REFUSED) {
        char want[500], line[400];
        snprintf(want, sizeof want, "\n  the tests that grade: %s", wbt_first_line(iso, line, sizeof line));
        cr_assert(strstr(out, want) && strstr(verdict, "the tests that grade"), "no '%s' in\n%s", want, out);
    }
    /* With a GPU: the probes ran what they say. The counters line profiles build/doctor, which must launch
     * a kernel for ncu to measure; the sanitizer probe's runs reach the reference staged for them (as root
     * in a clone under a 0700 home they need the course group, as in a grading). Both failed on the H100. */
    if (strstr(out, "verdict: ready")) {
        cr_assert_null(strstr(out, "measured no kernel"), "%s", out);
        cr_assert_null(strstr(out, "Permission denied"), "%s", out);
    }
}

/* `make test`'s prerequisites are declared in one rule (of the Makefile and its sections in mk/). */
Test(makefile, test_prerequisites_in_one_place)
{
    int rc = wbt_run(out, "cat Makefile mk/*.mk | grep -c '^test *:'");
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert_eq(atoi(out), 1, "the Makefile has %d rules for `test:`, expected 1", atoi(out));
}

/* Without a GPU, the grading targets say so before anything is compiled for grading (issue: they used
 * to compile the references and the grader for half a minute first), after the grader has checked the
 * paths they name (issue 40: a missing path was "no CUDA device found"): a missing path is make's
 * "Error 2" with the path, no GPU the grader's own code for it, 6 (mk/grader.mk GR_EXIT_NO_GPU; the
 * chapter programs' 3 is doctor's). Runs on both kinds of machine. */
Test(makefile, grading_targets_without_a_gpu_stop_before_building, .timeout = 300)
{
    static char out[WBT_OUT_MAX];
    /* A GPU machine plays one without a GPU: CUDA_VISIBLE_DEVICES=-1 hides every device from the runtime
     * (the doctor make runs first inherits it), so the test runs on both kinds of machine. */
    int rc = wbt_run(out, WBT_MAKE " --no-print-directory build/doctor && CUDA_VISIBLE_DEVICES=-1 ./build/doctor");
    cr_assert_eq(rc, WB_EXIT_NO_DEVICE, "build/doctor: %s", out);
    static const struct {
        const char *goal, *says;
    } goals[] = {{"grade SUB=/nonexistent", "grade: /nonexistent does not exist"},
                 {"grade-class SUBS=/nonexistent", "grade: --class /nonexistent: No such file"},
                 {"grade SUB=solutions CH=1", "grade] Error 6"},
                 {"grade-class SUBS=build/cases/bugs/ch9", "grade-class] Error 6"}};
    size_t n_all = sizeof goals / sizeof goals[0];
    /* make check runs without a GPU what needs none (tests/test_check.c); the student release has no
     * grade or grade-class: they say so, before any GPU check or build */
    size_t n_goals = access("solutions", F_OK) == 0 ? n_all : 0;
    for (size_t g = n_goals; g < n_all; g++) {
        rc = wbt_run(out, WBT_MAKE " --no-print-directory %s", goals[g].goal);
        cr_assert_eq(rc, 2, "make %s: %s", goals[g].goal, out);
        cr_assert(strstr(out, "not in the student release"), "make %s: %s", goals[g].goal, out);
    }
    for (size_t g = 0; g < n_goals; g++) {
        rc = wbt_run(out, "CUDA_VISIBLE_DEVICES=-1 " WBT_MAKE " --no-print-directory %s", goals[g].goal);
        cr_assert_eq(rc, 2, "make %s: %s", goals[g].goal, out);
        cr_assert(strstr(out, goals[g].says), "make %s: no '%s' in\n%s", goals[g].goal, goals[g].says, out);
        if (strstr(goals[g].says, "Error 6")) cr_assert(strstr(out, "needs an NVIDIA GPU"), "make %s: %s", goals[g].goal, out);
        else {
            cr_assert_null(strstr(out, "needs an NVIDIA GPU"), "make %s asked for the GPU before the path: %s", goals[g].goal, out);
            /* the first line names the path, also where the grader had to be built first */
            cr_assert(strncmp(out, goals[g].says, strlen(goals[g].says)) == 0, "make %s: the first line is not '%s':\n%s", goals[g].goal, goals[g].says, out);
        }
        cr_assert_null(strstr(out, "build/grade "), "make %s ran the grader past its checks: %s", goals[g].goal, out);
        cr_assert_null(strstr(out, "solutions/"), "make %s built a reference: %s", goals[g].goal, out);
    }
    rc = wbt_run(out, WBT_MAKE " --no-print-directory -n grade-class SUBS=/x ENGINE=slurm");
    cr_assert_null(strstr(out, "build/doctor >/dev/null"), "ENGINE=slurm needs no GPU on the submitting host: %s", out);
}

/* make check's reports go where OUT= on make's command line says, and nowhere else: an OUT in the
 * environment (shells and CI set one; the GPU machine does) once sent them to that folder silently. */
Test(makefile, check_takes_out_only_from_the_command_line, .timeout = 120)
{
    static char out[WBT_OUT_MAX];
    int rc = wbt_run(out, "OUT=/from-the-environment " WBT_MAKE " -n check CH=1");
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strstr(out, "build/grade") && strstr(out, "--check"), "make -n check runs no grader:\n%s", out);
    cr_assert_null(strstr(out, "/from-the-environment"), "an environment OUT reached the grader:\n%s", out);
    rc = wbt_run(out, WBT_MAKE " -n check CH=1 OUT=/from-the-command-line");
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strstr(out, "--out '/from-the-command-line'"), "OUT= on the command line did not reach the grader:\n%s", out);
}

/* A starter's first build answers in seconds (issue 16): chapter 3's compiles without CUB, whose headers
 * alone take about 10 s; only the reference's build defines WB_CUB for its speed-of-light row. */
Test(makefile, chapter3_starter_builds_without_cub, .timeout = 120)
{
    static char out[WBT_OUT_MAX];
    int rc = wbt_run(out, WBT_MAKE " -B -n build/chapter3");
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strstr(out, "atomicsum.cu") && !strstr(out, "WB_CUB"), "the starter's build:\n%s", out);
#ifndef WBT_STUDENT_RELEASE
    rc = wbt_run(out, WBT_MAKE " -B -n build/solution3");
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strstr(out, "-DWB_CUB"), "the reference's build does not time CUB:\n%s", out);
#endif
}

/* ---------------------------------------------------------------- the build's structure (issue 32) */

/* Plain `make` is `make help`: it lists the targets and builds nothing (it used to write build/.flags, the
 * first rule of the file). */
Test(makefile, plain_make_is_help, .timeout = 60)
{
    static char help[WBT_OUT_MAX];
    int rc = wbt_run(help, WBT_MAKE " help");
    cr_assert_eq(rc, 0, "%s", help);
    rc = wbt_run(out, WBT_MAKE " -n");
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strstr(out, "sed -n '3,/^[^#]/p' Makefile") && !strstr(out, "build/"), "plain make does more than help:\n%s",
              out);
    rc = wbt_run(out, WBT_MAKE);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert_str_eq(out, help, "plain make is not make help");
}

/* Each program links the libraries it uses and no other, and each folder's objects see only the include
 * paths of the folders they use (mk/libs.mk): the results tool knows nothing of the grader, the grader
 * nothing of the tools nor of the course. Read from the commands `make -n -B` prints. */
Test(makefile, programs_link_and_include_only_what_they_use, .timeout = 120)
{
    static const struct {
        const char *target, *must, *must_not;
    } cases[] = {
        {"build/obj/common/jsonl.o", "-Icommon ", "-Igrading -Itools/"},
        {"build/obj/grading/rubric.o", "-Icommon -Igrading ", "-Itools/ -Icourse"},
        {"build/obj/course/class.o", "-Icommon -Igrading -Icourse ", "-Itools/"},
        {"build/obj/tools/results/main.o", "-Icommon -Itools/results ", "-Igrading -Itools/inspect -Itools/mutate"},
        {"build/obj/tools/inspect/names.o", "-Icommon -Igrading -Itools/inspect ", "-Itools/results -Itools/mutate"},
        {"build/grade", "build/lib/libgrading.a build/lib/libwbcommon.a", "libinspect libwbresults libmutate libcourse"},
        {"build/course", "build/lib/libcourse.a build/lib/libgrading.a build/lib/libwbcommon.a",
         "libinspect libwbresults libmutate"},
        {"build/handouts/wbresults", "build/lib/libwbresults.a build/lib/libwbcommon.a", "libgrading libinspect libmutate"},
        {"build/inspect", "build/lib/libinspect.a build/lib/libgrading.a build/lib/libwbcommon.a",
         "libwbresults libmutate"},
        {"build/obj/tools/starter/starter.o", "-Icommon -Igrading -Itools/starter ", "-Itools/mutate -Icourse"},
        {"build/starter", "build/lib/libstarter.a build/lib/libgrading.a build/lib/libwbcommon.a",
         "libinspect libwbresults libmutate libcourse"},
        {"build/mutate", "build/lib/libmutate.a build/lib/libgrading.a build/lib/libwbcommon.a",
         "libinspect libwbresults libcourse"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
#ifdef WBT_STUDENT_RELEASE
        if (strstr(cases[i].target, "course") || strstr(cases[i].target, "starter") || strstr(cases[i].target, "mutate"))
            continue; /* the release has no course/, tools/starter/ or tools/mutate/ */
#endif
        /* the last command printed is the target's own (compile or link) */
        int rc = wbt_run(out, WBT_MAKE " -n -B V=1 %s 2>&1 | tail -n 1", cases[i].target);
        cr_assert_eq(rc, 0, "make -n %s: %s", cases[i].target, out);
        cr_assert(strstr(out, cases[i].must), "%s: no '%s' in\n%s", cases[i].target, cases[i].must, out);
        char not[200];
        snprintf(not, sizeof not, "%s", cases[i].must_not);
        for (char *save, *w = strtok_r(not, " ", &save); w; w = strtok_r(NULL, " ", &save))
            cr_assert_null(strstr(out, w), "%s: '%s' in\n%s", cases[i].target, w, out);
    }
}

/* A new .c file in a library's folder is built into its library with no edit of the Makefile (other
 * changes add modules to grading/, common/ and tools/ while the build stays as it is). */
Test(makefile, a_new_module_joins_its_folders_library, .timeout = 120)
{
    char dir[512];
    wbt_tmpdir(dir, sizeof dir);
    int rc = wbt_run(out,
                     "set -e; cp -r Makefile mk scripts common grading tools '%1$s'/; cd '%1$s'; "
                     "touch grading/zz_new.c tools/inspect/zz_new.c tools/results/zz_new.c common/zz_new.c; "
                     WBT_MAKE " -n V=1 build/lib/libgrading.a build/lib/libinspect.a build/lib/libwbresults.a "
                     "build/lib/libwbcommon.a 2>&1",
                     dir);
    cr_assert_eq(rc, 0, "%s", out);
    static const char *const objs[] = {"grading", "tools/inspect", "tools/results", "common"};
    for (size_t i = 0; i < sizeof objs / sizeof *objs; i++) {
        char want[200];
        snprintf(want, sizeof want, "-c -o build/obj/%s/zz_new.o.tmp$$ %s/zz_new.c", objs[i], objs[i]);
        cr_assert(strstr(out, want), "%s/zz_new.c is not compiled:\n%s", objs[i], out);
    }
    cr_assert(strstr(out, "build/obj/grading/zz_new.o") && !strstr(out, "build/obj/grading/grade.o"),
              "libgrading.a: its new module, never the grader's main:\n%s", out);
    wbt_run(out, "rm -rf '%s'", dir);
}

/* The scripts of the recipes (each scripts/NAME.sh): strict mode, and a one-line usage with exit 2 when
 * called wrongly (with too many arguments; results.sh, which takes any number of chapters, with none). */
Test(makefile, scripts_are_strict_and_say_their_usage, .timeout = 60)
{
    int rc = wbt_run(out, "for f in scripts/*.sh; do grep -qx 'set -euo pipefail' \"$f\" || echo \"$f: no strict mode\"; "
                          "bash -n \"$f\" || echo \"$f: syntax\"; done");
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert_eq(out[0], 0, "%s", out);
    rc = wbt_run(out, "for f in scripts/*.sh; do case \"$f\" in */results.sh) a=;; *) a='a b c d e';; esac; "
                      "o=$(\"$f\" $a 2>&1 </dev/null); r=$?; "
                      "[ $r = 2 ] && [ $(printf '%%s\\n' \"$o\" | wc -l) = 1 ] && printf '%%s' \"$o\" | grep -q '^usage: ' "
                      "|| echo \"$f $a: exit $r, '$o'\"; done");
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert_eq(out[0], 0, "a script called wrongly:\n%s", out);
}

/* Two makes in one checkout (issue 40: two gradings at once, one ended with "build/doctor: Permission
 * denied" while the other relinked it). A program is relinked over and over by two makes at once while it
 * is run in a loop: every run must find the whole program (its own exit code), and every relink succeed.
 * The cheapest program (build/handouts/wbresults: two C files and a library), in a copy with its own
 * build folder. Fails when a link writes its output in place (the linker removes it, then writes it). */
Test(makefile, a_program_relinked_while_it_runs_is_always_whole, .timeout = 300)
{
    char dir[512];
    wbt_tmpdir(dir, sizeof dir);
    int rc = wbt_run(out,
                     "set -e; cp -r Makefile mk scripts common tools '%1$s'/; cd '%1$s'; "
                     WBT_MAKE " -s BUILD=b b/handouts/wbresults",
                     dir);
    cr_assert_eq(rc, 0, "%s", out);
    /* wbresults without arguments: its usage, exit 2, every time */
    rc = wbt_run(out,
                 "cd '%1$s'; p=b/handouts/wbresults; relink() { for i in $(seq 12); do "
                 WBT_MAKE " -s BUILD=b -W b/obj/tools/results/main.o $p || echo 'MAKE FAILED'; done; }; "
                 "{ relink & relink & wait; touch done; } > make.log 2>&1 & "
                 "n=0; bad=0; while [ ! -e done ]; do n=$((n+1)); $p > /dev/null 2> err; rc=$?; "
                 "  [ $rc = 2 ] || { bad=$((bad+1)); echo \"run $n: exit $rc: $(head -c 200 err)\"; }; done; wait; "
                 "cat make.log; ls b/handouts | grep -v '^wbresults$' || true; echo \"runs: $n, bad: $bad\"; "
                 "[ $bad = 0 ] && ! grep -q 'MAKE FAILED' make.log && [ -z \"$(ls b/handouts | grep -v '^wbresults$')\" ]",
                 dir);
    cr_assert_eq(rc, 0, "a run or a relink failed, or a temporary file was left:\n%s", out);
    wbt_run(out, "rm -rf '%s'", dir);
}

/* `make handouts` is quiet like the other targets (issue 40: it echoed 38 pandoc and gnuplot commands): a
 * line per file, and V=1 shows the commands. One chapter's page and one instructor page, in a build folder
 * of its own; where pandoc or gnuplot is missing (make handouts installs them) the test skips. */
Test(makefile, handouts_say_a_line_per_file, .timeout = 300)
{
    if (wbt_run(out, "command -v pandoc && command -v gnuplot") != 0) cr_skip_test("no pandoc or gnuplot here (make handouts installs them)");
    char b[256];
    wbt_tmpdir(b, sizeof b);
    /* the student release ships no instructor pages: there, the chapter's page alone */
    const char *pages = access("handouts/instructor/guide.md", F_OK) == 0
                            ? "%1$s/handouts/ch1.html %1$s/handouts/instructor/guide.html"
                            : "%1$s/handouts/ch1.html";
    char targets[600];
    snprintf(targets, sizeof targets, pages, b);
    int rc = wbt_run(out, WBT_MAKE " BUILD=%s %s 2>&1", b, targets);
    cr_assert_eq(rc, 0, "%s", out);
    int files = 0;
    for (char *line = out, *end; *line; line = end + 1) {
        end = strchr(line, '\n');
        cr_assert_not_null(end, "%s", out);
        *end = 0;
        char tag[16], path[512];
        cr_assert(sscanf(line, "  %15[A-Z] %511s", tag, path) == 2 && !strncmp(path, b, strlen(b)),
                  "not a line per file: '%s'", line);
        files++;
    }
    cr_assert_geq(files, 7, "want a line per file (objects, tool, pieces, pages)");
    rc = wbt_run(out, WBT_MAKE " -B V=1 BUILD=%s %s 2>&1", b, targets);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strstr(out, "pandoc --standalone") && strstr(out, "gnuplot "), "V=1 showed no pandoc or gnuplot command:\n%s", out);
    wbt_run(out, "rm -rf '%s'", b);
}

/* Two installs at once take turns (`make -j2 test` on a fresh machine: the tests' libraries and Slurm were installed
 * side by side, and the second apt-get failed on apt's lock). A fake apt-get (and sudo, for a user) notes when two
 * installs overlap; with ensure-packages.sh's lock (make sets WB_PACKAGES_LOCK) they must not, and each probe passes
 * after its own install; the same two runs without the lock are the control, and must overlap. */
Test(makefile, package_installs_take_turns, .timeout = 60)
{
    char dir[512], root[512];
    wbt_tmpdir(dir, sizeof dir);
    cr_assert_not_null(getcwd(root, sizeof root));
    int rc = wbt_run(out,
                     "set -e; cd '%s'; mkdir bin; cat > bin/apt-get <<'X'\n"
                     "#!/bin/sh\n"
                     "[ \"$1\" = install ] || exit 0\n"
                     "for p; do :; done; touch \"busy.$$\"\n"
                     "for i in $(seq 30); do [ $(ls busy.* | wc -l) -gt 1 ] && echo \"$p\" >> overlap; sleep 0.1; done\n"
                     "rm \"busy.$$\"; touch \"installed.$p\"\n"
                     "X\n"
                     "printf '#!/bin/sh\\n[ \"$1\" = -n ] && shift; exec \"$@\"\\n' > bin/sudo; chmod +x bin/apt-get bin/sudo",
                     dir);
    cr_assert_eq(rc, 0, "%s", out);
#define TWO_INSTALLS "cd '%1$s' && rm -f installed.* overlap && export PATH=\"$PWD/bin:$PATH\" && " \
                     "for p in a b; do %3$s '%2$s/scripts/ensure-packages.sh' \"pkg $p\" \"$p\" \"test -e installed.$p\" & done; " \
                     "wait %%1 && wait %%2 && ls installed.a installed.b >/dev/null && ! test -e overlap"
    rc = wbt_run(out, TWO_INSTALLS, dir, root, "WB_PACKAGES_LOCK=\"$PWD/lock\"");
    cr_expect_eq(rc, 0, "two installs under the lock overlapped or failed:\n%s", out);
    rc = wbt_run(out, TWO_INSTALLS, dir, root, "");
    cr_expect_neq(rc, 0, "the control: two installs without the lock did not overlap, so the test shows nothing:\n%s", out);
#undef TWO_INSTALLS
    wbt_run(out, "rm -rf '%s'", dir);
}

/* The README names every Debian package a target installs (issue 40: it listed 3 of 14), each as `name`,
 * from the Makefile's own lists (`make packages`). */
Test(makefile, the_readme_names_every_package_the_makefile_installs, .timeout = 60)
{
#ifdef WBT_STUDENT_RELEASE
    cr_skip_test("student release: its README sends the student to make test, which prints what it installs");
#endif
    int rc = wbt_run(out, WBT_MAKE " -s packages");
    cr_assert_eq(rc, 0, "%s", out);
    char *readme = gr_read_capped("README.md", 1 << 20, NULL);
    cr_assert_not_null(readme);
    int count = 0;
    for (char *save, *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *colon = strstr(line, ": ");
        cr_assert_not_null(colon, "make packages: '%s' is not 'what: packages'", line);
        for (char *s2, *w = strtok_r(colon + 2, " ", &s2); w; w = strtok_r(NULL, " ", &s2)) {
            char quoted[128];
            snprintf(quoted, sizeof quoted, "`%s`", w);
            cr_expect(strstr(readme, quoted), "README.md does not name %s (needed by %.*s)", quoted, (int)(colon - line), line);
            count++;
        }
    }
    cr_assert_geq(count, 10, "make packages listed only %d packages", count);
    free(readme);
}

/* Two gradings started at once in one fresh checkout (issue 40: two sections' `make grade-class` in one
 * clone, one ended at once with "build/doctor: Permission denied" while the other relinked it). Both build
 * the grader and the GPU probe from nothing at the same time; each must end as it ends alone: here, with
 * the GPU hidden, the grader's "no GPU" (Error 6) after its paths were checked, nothing else. */
Test(makefile, two_gradings_at_once_in_a_fresh_checkout_end_as_alone, .timeout = 900)
{
#ifdef WBT_STUDENT_RELEASE
    cr_skip_test("student release: it has no grade-class (the relink test above covers its programs)");
#endif
    char dir[512];
    wbt_tmpdir(dir, sizeof dir);
    int rc = wbt_run(out, "set -e; cp -r Makefile mk scripts common grading course chapters solutions tools '%1$s'/; "
                          "cp -r build/cases/bugs/ch9 '%1$s'/subs", dir);
    cr_assert_eq(rc, 0, "%s", out);
    rc = wbt_run(out,
                 "cd '%s'; for i in 1 2; do (CUDA_VISIBLE_DEVICES=-1 " WBT_MAKE " --no-print-directory grade-class "
                 "SUBS=subs OUT=out$i > log$i 2>&1; echo $? > rc$i) & done; wait; "
                 "for i in 1 2; do echo \"== $i: exit $(cat rc$i)\"; cat log$i; done",
                 dir);
    cr_assert_eq(rc, 0, "%s", out);
    char *second = strstr(out, "== 2:");
    cr_assert_not_null(second, "%s", out);
    for (int i = 0; i < 2; i++) {
        char one[WBT_OUT_MAX];
        const char *from = i ? second : out, *to = i ? out + strlen(out) : second;
        snprintf(one, sizeof one, "%.*s", (int)(to - from), from);
        cr_assert(strstr(one, "exit 2\n") && strstr(one, "grade-class] Error 6") && strstr(one, "needs an NVIDIA GPU"),
                  "grading %d did not end as alone (no GPU, Error 6):\n%s", i + 1, out);
        cr_assert(!strstr(one, "Permission denied") && !strstr(one, "Text file busy") && !strstr(one, "No such file"),
                  "grading %d met the other's build:\n%s", i + 1, out);
    }
    wbt_run(out, "rm -rf '%s'", dir);
}
