/* Isolation of the course files from student code (grading/isolation.h), without a GPU: the decision
 * for every case, the closing of a world-readable course tree and the probe as a run uid, the course
 * group that only the reference's runs carry, the per-submission group, and the grader end to end on
 * the fake workbook (tests/grading/fake/) with a submission that tries to open the solution at run time
 * and looks for the grading seeds in its environment and its working directory. */
#define _GNU_SOURCE 1
#pragma GCC diagnostic ignored "-Wformat-truncation"
#pragma GCC diagnostic ignored "-Wunused-function" /* check.h: only load and variant_of here */
#include "wbtest.h"

#include "isolation.h"
#include "job.h"
#include "sandbox.h"

#include "grading/check.h"

Test(isolation, the_decision_for_every_case)
{
    /* {root, bwrap, insecure} → kind */
    static const struct { gr_iso_facts f; gr_iso_kind want; } cases[] = {
        {{0, 0, 0}, GR_ISO_NONE},  {{0, 0, 1}, GR_ISO_INSECURE}, {{0, 1, 0}, GR_ISO_BWRAP}, {{0, 1, 1}, GR_ISO_BWRAP},
        {{1, 0, 0}, GR_ISO_UID},   {{1, 0, 1}, GR_ISO_UID},      {{1, 1, 0}, GR_ISO_BWRAP}, {{1, 1, 1}, GR_ISO_BWRAP},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        cr_expect_eq(gr_iso_decide(&cases[i].f), cases[i].want, "root %d bwrap %d insecure %d: kind %d, expected %d",
                     cases[i].f.root, cases[i].f.bwrap_works, cases[i].f.insecure, (int)gr_iso_decide(&cases[i].f),
                     (int)cases[i].want);
}

/* The refusal names why bubblewrap does not work for this user, by what the host says, and its fix; every
 * cause is one line that offers running as root. */
Test(isolation, the_refusal_names_the_cause)
{
    /* {switched off, installed, apparmor restrict, userns clone, max userns} → cause, words of the line */
    static const struct { gr_bwrap_host h; gr_bwrap_why want; const char *says, *fix; } cases[] = {
        {{1, 1, 1, 1, 100}, GR_BWRAP_SWITCHED_OFF, "switched off by WB_GRADE_NO_BWRAP", "unset WB_GRADE_NO_BWRAP"},
        {{0, 0, 1, 0, 0}, GR_BWRAP_MISSING, "no bubblewrap installed", "sudo apt-get install bubblewrap"},
        {{0, 1, 1, -1, 100}, GR_BWRAP_APPARMOR, "kernel.apparmor_restrict_unprivileged_userns = 1", "AppArmor profile"},
        {{0, 1, 0, 0, 100}, GR_BWRAP_USERNS_CLONE_OFF, "kernel.unprivileged_userns_clone = 0", "unprivileged_userns_clone=1"},
        {{0, 1, -1, -1, 0}, GR_BWRAP_NO_USERNS, "user.max_user_namespaces = 0", "max_user_namespaces="},
        {{0, 1, 0, 1, 100}, GR_BWRAP_FAILS, "trial sandbox fails", "make bubblewrap work"},
        {{0, 1, -1, -1, -1}, GR_BWRAP_FAILS, "trial sandbox fails", "make bubblewrap work"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char line[500];
        gr_bwrap_why w = gr_bwrap_why_decide(&cases[i].h);
        cr_expect_eq(w, cases[i].want, "case %zu: cause %d, expected %d", i, w, cases[i].want);
        gr_iso_refusal(w, line, sizeof line);
        static const char head[] = "grade: cannot isolate the course files from student code (not root, and ";
        cr_expect(!strncmp(line, head, sizeof head - 1), "%s", line);
        cr_expect(strstr(line, cases[i].says) && strstr(line, cases[i].fix), "case %zu: %s", i, line);
        cr_expect(strstr(line, "(or run the grader as root)") && !strchr(line, '\n'), "%s", line);
    }
}

/* Bubblewrap is probed once, with the isolation, and every run the grader builds reads that answer
 * (gr_cmd_init → gr_run_opts.box): a run that probed for itself would get this host's answer for both
 * boxes below, not the one it was handed. */
Test(isolation, bubblewrap_is_probed_once_and_every_run_reads_the_answer)
{
    char rel[128], why[400];
    wbt_tmpdir(rel, sizeof rel);
    gr_iso iso;
    cr_assert_eq(gr_iso_setup(rel, 1, 1, NULL, &iso, why, sizeof why), 0, "%s", why);
    cr_expect_eq(iso.box, gr_sandbox_box(), "the isolation keeps what the probe said");
    cr_expect_neq(iso.box, GR_BOX_PROBE, "the isolation decided: no run needs to probe");
    int off = getenv("WB_GRADE_NO_BWRAP") != NULL;
    gr_config *x = calloc(1, sizeof *x);
    gr_sub_state s = {0};
    gr_cmd c;
    for (gr_box b = GR_BOX_NO_BWRAP; b <= GR_BOX_BWRAP; b++) {
        x->iso.box = b;
        gr_cmd_init(&c, x, &s, rel, 1, GR_RUN_GPU);
        cr_expect_eq(c.o.box, b, "gr_cmd_init hands the configuration's box to the run");
        gr_box want = b == GR_BOX_BWRAP && !off ? GR_BOX_BWRAP : GR_BOX_NO_BWRAP;
        cr_expect_eq(gr_run_box_here(&c.o), want, "box %d: the run's isolation is the kept answer", (int)b);
    }
    s.gpu_way = GR_GPU_NO_BWRAP; /* a submission whose GPU runs go without bubblewrap */
    gr_cmd_init(&c, x, &s, rel, 1, GR_RUN_GPU);
    cr_expect_eq(gr_run_box_here(&c.o), GR_BOX_NO_BWRAP, "a GPU run of a submission without bubblewrap");
    gr_cmd_init(&c, x, &s, rel, 1, GR_RUN_HOST);
    cr_expect_eq(gr_run_box_here(&c.o), off ? GR_BOX_NO_BWRAP : GR_BOX_BWRAP, "its build still goes under the kept box");
    free(x);
    rmdir(rel);
}

/* A world-readable course tree, as a fresh clone leaves it. */
static void make_course(const char *root)
{
    char out[WBT_OUT_MAX];
    int rc = wbt_run(out, "cd %s && mkdir -p solutions/01-x build tests/grading/subs/ok && echo 'secret kernel' > "
                          "solutions/01-x/x.cu && printf '#!/bin/sh\\ncat %s/solutions/01-x/x.cu\\n' > build/solution1 && "
                          "chmod 755 build/solution1 && echo copy > tests/grading/subs/ok/x.cu && chmod -R a+rX .",
                     root, root);
    cr_assert_eq(rc, 0, "%s", out);
}

static gr_run_result run_as(const char *dir, const char *const *argv, gid_t gid, gid_t extra)
{
    gr_run_opts o = {.argv = argv, .workdir = dir, .timeout_s = 10, .nproc = 64, .out_cap = 4096, .no_bwrap = 1,
                     .gid = gid, .extra_gid = extra};
    gr_run_result r;
    cr_assert_eq(gr_run(&o, &r), 0, "%s", r.err);
    return r;
}

Test(isolation, as_root_the_course_is_closed_and_the_run_uid_cannot_read_it, .timeout = 60)
{
    if (geteuid() != 0) cr_skip_test("needs root (the grader closes the course files only as root; here uid %u)", geteuid());
    char rel[128], root[PATH_MAX], why[400], p[PATH_MAX + 32];
    wbt_tmpdir_open(rel, sizeof rel);
    cr_assert_not_null(realpath(rel, root));
    chmod(root, 0755);
    make_course(root);
    uid_t probe = GR_RUN_UID_BASE + 12345;
    /* the control: before closing, the probe can read the solution (so it can tell) */
    cr_assert_neq(gr_iso_verify(root, probe, why, sizeof why), 0, "a world-readable solution passed the probe");
    cr_expect(strstr(why, "could still be opened"), "%s", why);
    cr_assert_eq(gr_iso_close(root, NULL, why, sizeof why), 0, "%s", why);
    cr_assert_eq(gr_iso_verify(root, probe, why, sizeof why), 0, "%s", why);
    struct stat st;
    snprintf(p, sizeof p, "%s/tests/grading/subs/ok/x.cu", root);
    cr_assert_eq(stat(p, &st), 0);
    cr_expect_eq(st.st_mode & 07, 0, "the graders' test submissions stay open to others (mode %o)", st.st_mode & 0777);
    cr_expect_eq(st.st_gid, GR_COURSE_GID);

    /* through the sandbox: a student run (a uid of its own) gets EACCES ... */
    char wd[PATH_MAX + 8];
    snprintf(wd, sizeof wd, "%s/run", root);
    mkdir(wd, 0755);
    snprintf(p, sizeof p, "%s/solutions/01-x/x.cu", root);
    const char *cat[] = {"/bin/cat", p, NULL};
    gr_run_result r = run_as(wd, cat, 0, 0);
    cr_expect(r.exited && r.code != 0 && strstr(r.err, "Permission denied"), "a run read the solution: %s%s", r.out, r.err);
    cr_expect(!strstr(r.out, "secret"));
    gr_run_result_free(&r);
    /* ... while a run of the reference, carrying the course group, reads itself */
    char ref[PATH_MAX + 32];
    snprintf(ref, sizeof ref, "%s/build/solution1", root);
    const char *refv[] = {ref, NULL};
    r = run_as(wd, refv, 0, GR_COURSE_GID);
    cr_expect(r.exited && r.code == 0 && strstr(r.out, "secret kernel"), "the reference could not run: %s", r.err);
    gr_run_result_free(&r);

    /* one submission's work tree is closed to another submission's runs (another group) */
    char work[PATH_MAX + 8];
    snprintf(work, sizeof work, "%s/work", root);
    mkdir(work, 0755);
    cr_assert_eq(gr_iso_protect_work(work, GR_SUB_GID_BASE + 1), 0);
    snprintf(p, sizeof p, "%s/work/other.cu", root);
    FILE *f = fopen(p, "w");
    fputs("another student's code\n", f);
    fclose(f);
    chmod(p, 0644);
    const char *cat2[] = {"/bin/cat", p, NULL};
    r = run_as(wd, cat2, GR_SUB_GID_BASE + 2, 0);
    cr_expect(r.exited && r.code != 0 && !strstr(r.out, "another"), "another submission's run read it: %s", r.out);
    gr_run_result_free(&r);
    r = run_as(wd, cat2, GR_SUB_GID_BASE + 1, 0);
    cr_expect(r.exited && r.code == 0 && strstr(r.out, "another"), "its own submission's run could not: %s", r.err);
    gr_run_result_free(&r);
    wbt_run(why, "rm -rf %s", root);
}

/* The fake chapter's two regions, spliced by the grader. plus: tries to read the reference solution at
 * run time (the name built at run time, fopen through a pointer, so no screen sees it) and looks for
 * the seeds in its environment, in the files under its working directory and on the grader's command
 * line (/proc/PID/cmdline: `--seeds A,B`, which its own command line never holds); any success turns its
 * answer wrong (in + 2), so PASS means nothing leaked. reverse: the control, reads a file every
 * sandbox leaves readable (/etc/passwd; bubblewrap hides the whole workbook, starter included) the same
 * way and finds the seeds where they may be (its own command line) the same way; if either fails, its
 * answer is wrong. */
static const char *const seed_a = "1999999937", *const seed_b = "1888888831";
static void write_sub(const char *sub, const char *root)
{
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/chapters/09-fake", sub);
    char out[WBT_OUT_MAX];
    cr_assert_eq(wbt_run(out, "mkdir -p %s", p), 0);
    snprintf(p, sizeof p, "%s/chapters/09-fake/fake.cu", sub);
    FILE *f = fopen(p, "w");
    cr_assert_not_null(f);
    fprintf(f,
            "#include \"wb.h\"\n#include \"fakedrv.h\"\n\n"
            "static void plus_kernel(const int32_t *in, int32_t *out, int n)\n{\n"
            "    // BEGIN TODO(plus)\n"
            "    static int leak = -1;\n"
            "    if (leak < 0) {\n"
            "        char path[4096]; const char *parts[] = {\"%s\", \"/sol\", \"utions/09-fake/fake.cu\"};\n"
            "        path[0] = 0; for (int k = 0; k < 3; k++) strcat(path, parts[k]);\n"
            "        FILE *(*op)(const char *, const char *) = fopen;\n"
            "        FILE *s = op(path, \"r\");\n"
            "        leak = s != NULL;\n"
            "        if (s) fclose(s);\n"
            "        leak |= system(\"env | grep -q -e %s -e %s || grep -rqs -e %s -e %s . \\\"$HOME\\\" \\\"$TMPDIR\\\"\") == 0;\n"
            /* the grader's own command line (--seeds A,B) is a file too: /proc/PID/cmdline; "[,]" so
             * that the pattern does not find the command line of the grep (or the shell) itself */
            "        leak |= system(\"cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\\\\0' ' ' | grep -q -e %s[,]%s\") == 0;\n"
            "    }\n"
            "    for (int i = 0; i < n; i++) out[i] = in[i] + 1 + leak;\n"
            "    // END TODO(plus)\n}\n\n"
            "static void reverse_kernel(const int32_t *in, int32_t *out, int n)\n{\n"
            "    // BEGIN TODO(reverse)\n"
            "    char path[4096]; const char *parts[] = {\"/et\", \"c/pa\", \"sswd\"};\n"
            "    path[0] = 0; for (int k = 0; k < 3; k++) strcat(path, parts[k]);\n"
            "    FILE *(*op)(const char *, const char *) = fopen;\n"
            "    FILE *s = op(path, \"r\");\n"
            "    int seen = system(\"tr '\\\\0' ' ' < /proc/$PPID/cmdline | grep -q -e %s -e %s\") == 0;\n"
            "    for (int i = 0; i < n; i++) out[n - 1 - i] = in[i] + (s && seen ? 0 : 5);\n"
            "    if (s) fclose(s);\n"
            "    // END TODO(reverse)\n}\n\n"
            "static const fake_variant variants[] = {{\"plus\", \"plus_kernel\", plus_kernel}, {\"reverse\", "
            "\"reverse_kernel\", reverse_kernel}};\n\n"
            "int main(int argc, char **argv)\n{\n    return fake_main(argc, argv, variants, 2);\n}\n",
            root, seed_a, seed_b, seed_a, seed_b, seed_a, seed_b, seed_a, seed_b);
    fclose(f);
}

/* A copy of the fake workbook (tests/grading/fake/) with its reference and grading flags built, in a fresh
 * folder `root` that other uids may enter (the runs go as other uids when the tests run as root); `grade`:
 * build/grade's absolute path. */
static void fake_course(char root[PATH_MAX], char grade[PATH_MAX])
{
    static char out[WBT_OUT_MAX];
    char rel[128];
    wbt_tmpdir_open(rel, sizeof rel);
    cr_assert_not_null(realpath(rel, root));
    chmod(root, 0755);
    cr_assert_not_null(realpath("build/grade", grade), "build/grade is not built");
    int rc = wbt_run(out, "cp -r tests/grading/fake/. %s/ && cp common/*.h %s/common/ && make -s -C %s "
                          "build/grading-flags.json build/solution9",
                     root, root, root);
    cr_assert_eq(rc, 0, "%s", out);
}

Test(isolation, the_grader_keeps_the_solution_and_the_seeds_from_a_student_run, .timeout = 300)
{
    wbt_skip_if_no_isolation(); /* its refusal itself: without_isolation_the_grader_refuses_unless_told_insecure */
    static char out[WBT_OUT_MAX];
    char root[PATH_MAX], grade[PATH_MAX], p[PATH_MAX + 64];
    fake_course(root, grade);
    int rc = wbt_run(out, "chmod -R a+rX %s", root);
    cr_assert_eq(rc, 0, "%s", out);
    snprintf(p, sizeof p, "%s/sub", root);
    write_sub(p, root);
    rc = wbt_run(out, "cd %s && WB_GRADE_LOCK_DIR=$PWD %s --seeds %s,%s --rubric rubric.json --no-perf --no-sanitizer --out %s/out %s/sub",
                 root, grade, seed_a, seed_b, root, root);
    cr_assert_eq(rc, 0, "build/grade exit %d\n%s", rc, out);
    snprintf(p, sizeof p, "%s/out", root);
    json_t *g = load("%s/grading.json", p);
    const char *iso = json_string_value(json_object_get(g, "isolation"));
    cr_assert_not_null(iso);
    cr_expect(strstr(iso, "bubblewrap") || strstr(iso, "course files closed"), "isolation: %s", iso);
    json_t *plus = variant_of(g, "plus"), *rev = variant_of(g, "reverse");
    cr_assert(plus && rev);
    cr_expect_str_eq(json_string_value(json_object_get(rev, "verdict")), "PASS",
                     "the control could not read /etc/passwd by the same means (so the test could not tell)");
    cr_expect_str_eq(json_string_value(json_object_get(plus, "verdict")), "PASS",
                     "the student run read the solution or found the seeds (isolation: %s)", iso);
    if (geteuid() == 0) {
        struct stat st;
        snprintf(p, sizeof p, "%s/solutions/09-fake/fake.cu", root);
        cr_assert_eq(stat(p, &st), 0);
        cr_expect_eq(st.st_mode & 07, 0, "as root the solution must be closed to others (mode %o)", st.st_mode & 0777);
    }
    json_decref(g);
    wbt_run(out, "rm -rf %s", root);
}

/* Not root and no bubblewrap: the grader refuses with the one line, and --insecure-sandbox grades with
 * "insecure" in the report. As root the test runs the grader as nobody (setpriv). */
Test(isolation, without_isolation_the_grader_refuses_unless_told_insecure, .timeout = 300)
{
    /* Where bubblewrap works, WB_GRADE_NO_BWRAP=1 makes the grader do without it, as on a host without. */
    static char out[WBT_OUT_MAX];
    const char *as = "";
    if (geteuid() == 0) {
        if (wbt_run(out, "command -v setpriv") != 0) cr_skip_test("root, and no setpriv to run the grader as nobody");
        as = "setpriv --reuid=65534 --regid=65534 --clear-groups";
    }
    char root[PATH_MAX], grade[PATH_MAX];
    fake_course(root, grade);
    int rc = wbt_run(out, "cp -r build/cases/bugs/ch9/good %s/sub && chmod -R a+rX %s && chown -R 65534:65534 %s",
                     root, root, geteuid() == 0 ? root : "/dev/null 2>/dev/null; true");
    cr_assert_eq(rc, 0, "%s", out);
    rc = wbt_run(out, "cd %s && WB_GRADE_NO_BWRAP=1 %s %s --rubric rubric.json --no-perf --no-sanitizer --out %s/out %s/sub",
                 root, as, grade, root, root);
    cr_expect_eq(rc, 3, "%s", out);
    cr_expect(strstr(out, "grade: cannot isolate the course files") && strstr(out, "WB_GRADE_NO_BWRAP") && strchr(out, '\n') == out + strlen(out) - 1,
              "want the refusal, naming WB_GRADE_NO_BWRAP, in one line:\n%s", out);
    char p[PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/out/grading.json", root);
    cr_expect(!gr_is_file(p), "the refusing grader wrote a report");
    rc = wbt_run(out, "cd %s && TMPDIR=$PWD WB_GRADE_NO_BWRAP=1 %s %s --insecure-sandbox --rubric rubric.json --no-perf --no-sanitizer --out %s/out %s/sub",
                 root, as, grade, root, root);
    cr_assert_eq(rc, 0, "%s", out);
    json_t *g = load("%s", p);
    const char *iso = json_string_value(json_object_get(g, "isolation"));
    cr_expect(iso && !strncmp(iso, "insecure", 8), "isolation: %s", iso ? iso : "(none)");
    json_t *plus = variant_of(g, "plus");
    cr_expect(plus && !strcmp(json_string_value(json_object_get(plus, "verdict")), "PASS"), "the good submission still passes");
    json_decref(g);
    wbt_run(out, "rm -rf %s", root);
}

/* gr_work_base, with a made-up set of folders the runs can pass. */
static int fake_reach(const char *path, char *blocked, size_t blen)
{
    int ok = !strcmp(path, "/open") || !strcmp(path, "/tmp");
    if (!ok) snprintf(blocked, blen, "%s", path);
    return ok;
}

Test(isolation, the_work_folder_goes_where_the_runs_can_reach)
{
    char b[64];
    static const char *const fb[] = {"/closed2", "/tmp", NULL}, *const none[] = {"/closed2", NULL};
    cr_expect_str_eq(gr_work_base("/open", fb, fake_reach, b, sizeof b), "/open", "a reachable TMPDIR is kept");
    cr_expect_str_eq(gr_work_base("/root/x/build/tmp", fb, fake_reach, b, sizeof b), "/tmp", "a closed one gives way");
    cr_expect_null(gr_work_base("/root/x/build/tmp", none, fake_reach, b, sizeof b), "nothing reachable: refused");
    cr_expect_str_eq(b, "/root/x/build/tmp", "the refusal names what stopped the runs on the way to TMPDIR");
    cr_expect_null(gr_work_base("/root/x", NULL, fake_reach, b, sizeof b));
}

/* As root the runs go as other users. A TMPDIR they cannot pass (a private ~/tmp at 0700) once made every
 * run fail with "Permission denied" (seen on the H100), then was refused: now the work tree goes in /tmp,
 * the grader's own and closed to all but the submission's runs, and nothing is left in the private TMPDIR. */
Test(isolation, a_tmpdir_closed_to_the_runs_gives_way_to_tmp, .timeout = 300)
{
    if (geteuid() != 0) cr_skip_test("not root: the runs go as the grader's own user, who can enter its TMPDIR");
    static char out[WBT_OUT_MAX];
    char root[PATH_MAX], grade[PATH_MAX];
    fake_course(root, grade);
    int rc = wbt_run(out, "cp -r build/cases/bugs/ch9/good %s/sub && mkdir -m 0700 %s/private && chmod -R a+rX %s/sub",
                     root, root, root);
    cr_assert_eq(rc, 0, "%s", out);
    rc = wbt_run(out, "cd %s && TMPDIR=%s/private WB_GRADE_LOCK_DIR=$PWD %s --rubric rubric.json --no-perf --no-sanitizer "
                      "--out %s/out %s/sub",
                 root, root, grade, root, root);
    cr_assert_eq(rc, 0, "%s", out);
    json_t *g = load("%s/out/grading.json", root), *plus = variant_of(g, "plus");
    cr_expect(plus && !strcmp(json_string_value(json_object_get(plus, "verdict")), "PASS"), "the good submission: %s", out);
    json_decref(g);
    wbt_run(out, "ls -A %s/private", root);
    cr_expect_eq(out[0], 0, "the grader left %s in the private TMPDIR", out);
    wbt_run(out, "rm -rf %s", root);
}

/* A clone under a home at 0700 (/root on a cloud VM), graded as root with TMPDIR inside the clone (what
 * `make test` sets): the reference (build/solution9) is out of the runs' reach, so it is copied into the
 * work tree for its runs; the good submission passes and the home stays 0700 (no one's access widened). */
Test(isolation, a_course_in_a_closed_home_grades_as_root, .timeout = 300)
{
    if (geteuid() != 0) cr_skip_test("not root: the runs go as the grader's own user, who reaches its own home");
    static char out[WBT_OUT_MAX];
    char root[PATH_MAX], grade[PATH_MAX], course[PATH_MAX + 32], here[PATH_MAX];
    cr_assert_not_null(getcwd(here, sizeof here));
    fake_course(root, grade);
    snprintf(course, sizeof course, "%s/home/clone", root);
    int rc = wbt_run(out, "set -e; cd %1$s; mkdir -m 0700 home; mkdir home/clone; "
                          "find . -mindepth 1 -maxdepth 1 ! -name home -exec mv -t home/clone {} +; "
                          "cp -r %2$s/build/cases/bugs/ch9/good home/clone/sub; mkdir -p home/clone/build/tmp",
                     root, here);
    cr_assert_eq(rc, 0, "%s", out);
    rc = wbt_run(out, "cd %1$s && TMPDIR=%1$s/build/tmp WB_GRADE_LOCK_DIR=$PWD %2$s --rubric rubric.json --no-perf "
                      "--no-sanitizer --out %1$s/out %1$s/sub",
                 course, grade);
    cr_assert_eq(rc, 0, "%s", out);
    json_t *g = load("%s/out/grading.json", course);
    json_t *ch = json_array_get(json_object_get(g, "chapters"), 0), *plus = variant_of(g, "plus");
    cr_expect(plus && !strcmp(json_string_value(json_object_get(plus, "verdict")), "PASS"),
              "the good submission did not pass (chapter: %s, %s)\n%s", json_string_value(json_object_get(ch, "status")),
              json_string_value(json_object_get(ch, "reason")), out);
    json_decref(g);
    struct stat st;
    char home[PATH_MAX + 8];
    snprintf(home, sizeof home, "%s/home", root);
    cr_assert_eq(stat(home, &st), 0);
    cr_expect_eq(st.st_mode & 0777, 0700, "the home was opened: mode %o", st.st_mode & 0777);
    wbt_run(out, "ls -A %s/build/tmp", course);
    cr_expect_eq(out[0], 0, "the grader left %s in TMPDIR", out);
    wbt_run(out, "rm -rf %s", root);
}
