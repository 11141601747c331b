/* The janitor (grading/janitor.h): a grading stopped midway leaves none of its scratch folders behind. */
#define _GNU_SOURCE 1
#include "wbtest.h"

#include "gr_util.h"
#include "janitor.h"
#include "sandbox.h"

#include <sys/wait.h>

/* Waits up to 5 s for path to go; whether it went. */
static int gone_within_5s(const char *path)
{
    for (int i = 0; i < 100 && gr_is_dir(path); i++) usleep(50 * 1000);
    return !gr_is_dir(path);
}

/* The owner killed (SIGKILL: no handler of its own runs) with a folder listed, one it removed itself, and one it
 * never listed; a fork of the owner (a class's grader) holds the list open until it ends too. */
Test(janitor, a_killed_owner_s_listed_folders_go_and_nothing_else)
{
    char root[64], listed[PATH_MAX], own[PATH_MAX], other[PATH_MAX], flag[PATH_MAX];
    wbt_tmpdir_open(root, sizeof root);
    snprintf(listed, sizeof listed, "%s/listed", root);
    snprintf(own, sizeof own, "%s/own", root);
    snprintf(other, sizeof other, "%s/other", root);
    snprintf(flag, sizeof flag, "%s/fork-ended", root);
    int ready[2];
    cr_assert_eq(pipe(ready), 0);
    pid_t owner = fork();
    if (owner == 0) {
        int j = gr_janitor_start();
        if (j <= 2) _exit(3);
        mkdir(listed, 0700), mkdir(own, 0700), mkdir(other, 0700);
        char f[PATH_MAX + 8]; /* a file inside: removed as a tree */
        snprintf(f, sizeof f, "%s/result", listed);
        gr_write_file(f, "x", 1);
        gr_janitor_add(j, listed);
        gr_janitor_add(j, own);
        gr_janitor_rm(j, own);
        if (fork() == 0) { /* a grader: it still uses the listed folder after the owner is gone */
            sleep(1);
            gr_write_file(flag, "1", 1);
            _exit(0);
        }
        if (write(ready[1], "r", 1) != 1) _exit(4);
        pause();
    }
    char c;
    close(ready[1]);
    cr_assert_eq(read(ready[0], &c, 1), 1, "the owner did not start a janitor");
    cr_expect(gr_is_dir(listed), "removed while its owner runs");
    cr_expect(!gr_is_dir(own), "gr_janitor_rm removes the folder");
    kill(owner, SIGKILL);
    waitpid(owner, NULL, 0);
    usleep(300 * 1000);
    cr_expect(gr_is_dir(listed) || gr_is_file(flag), "removed while a fork of its owner still ran");
    cr_expect(gone_within_5s(listed), "%s is still there after its owner and the owner's fork ended", listed);
    cr_expect(gr_is_dir(other), "a folder never listed was removed");
    wbt_run((char[256]){0}, "rm -rf %s", root);
}

/* What is left of a listed run is killed: its group's processes of its uid. A group taken off the list (its run
 * ended; the number may be another's by the time the grading is gone) is left alone, and so is a process of the
 * group that another uid owns (tests/test_grading_sandbox.c: a killed grader's run). */
Test(janitor, a_listed_run_s_processes_of_its_uid_are_killed_and_nothing_else, .timeout = 30)
{
    pid_t g[3]; /* killed, taken off the list, listed under another uid */
    for (int i = 0; i < 3; i++) {
        g[i] = fork();
        if (g[i] == 0) {
            setpgid(0, 0);
            pause();
            _exit(0);
        }
        cr_assert(g[i] > 0);
        setpgid(g[i], g[i]);
    }
    pid_t owner = fork();
    if (owner == 0) {
        int j = gr_janitor_start();
        gr_janitor_group(j, g[0], getuid(), 1);
        gr_janitor_group(j, g[1], getuid(), 1);
        gr_janitor_group(j, g[1], getuid(), 0);
        gr_janitor_group(j, g[2], getuid() + 1, 1);
        _exit(j > 2 ? 0 : 3);
    }
    int st, how = 0;
    waitpid(owner, &st, 0);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the owner did not start a janitor");
    for (int i = 0; i < 100 && !(how = waitpid(g[0], &st, WNOHANG)); i++) usleep(50 * 1000);
    cr_expect(how == g[0] && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "the listed run was not killed");
    usleep(300 * 1000); /* the janitor's scan of /proc may reach the others after that one */
    cr_expect_eq(waitpid(g[1], &st, WNOHANG), 0, "a group taken off the list was killed");
    cr_expect_eq(waitpid(g[2], &st, WNOHANG), 0, "a process of another uid than the run's was killed");
    for (int i = 0; i < 3; i++) {
        kill(g[i], SIGKILL);
        waitpid(g[i], NULL, 0);
    }
}

/* No janitor (0: a test's configuration, or one that could not start): the calls do only the removal. */
Test(janitor, without_one_a_folder_is_only_removed)
{
    char root[64], p[PATH_MAX];
    wbt_tmpdir_open(root, sizeof root);
    snprintf(p, sizeof p, "%s/w", root);
    mkdir(p, 0700);
    gr_janitor_add(0, p);
    cr_expect(gr_is_dir(p));
    gr_janitor_rm(0, p);
    cr_expect(!gr_is_dir(p));
    wbt_run((char[256]){0}, "rm -rf %s", root);
}

/* `grade` on an archive unpacks it to look inside before anything else (gr_sub_precheck): killed while it
 * unpacks (180 MiB of zeros, a few tenths of a second), its folder goes too. */
Test(janitor, a_grade_killed_while_it_unpacks_the_submission_leaves_no_folder, .timeout = 60)
{
    static char out[WBT_OUT_MAX];
    char root[64], seen[PATH_MAX];
    wbt_tmpdir_open(root, sizeof root);
    int rc = wbt_run(out, "cd %s && mkdir -p t s/chapters/01-reverse && for i in 1 2 3; do head -c 60M /dev/zero > "
                          "s/chapters/01-reverse/z$i; done && tar -czf sub.tar.gz -C s . && rm -rf s", root);
    cr_assert_eq(rc, 0, "%s", out);
    rc = wbt_run(out, "TMPDIR=%s/t ./build/grade --validate %s/sub.tar.gz > /dev/null 2>&1 & g=$!; "
                      "for i in $(seq 2000); do ls -d %s/t/grade-precheck-* 2> /dev/null && break; sleep 0.005; done; "
                      "kill -9 $g; wait $g",
                 root, root, root);
    cr_assert(sscanf(out, "%4095s", seen) == 1 && strstr(seen, "grade-precheck-"),
              "the precheck's folder was never seen (the unpack ended first?): %s", out);
    cr_expect(gone_within_5s(seen), "%s is still there after grade was killed", seen);
    wbt_run(out, "rm -rf %s", root);
}

/* gr_runs_mkdtemp (sandbox.h): a folder of the mode asked for (the probes' 0711: their runs pass through it),
 * on the list; gr_janitor_rm removes it. */
Test(janitor, a_runs_folder_has_the_mode_asked_for)
{
    char root[64], p[PATH_MAX], closed[PATH_MAX];
    wbt_tmpdir_open(root, sizeof root);
    chmod(root, 0755); /* as root, the runs' base must let other users through */
    char *old = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
    setenv("TMPDIR", root, 1);
    const mode_t modes[] = {0700, 0711};
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(gr_runs_mkdtemp(0, "wb-test", modes[i], p, sizeof p, closed, sizeof closed), 0, "%s", closed);
        struct stat st = {0};
        cr_expect(!strncmp(p, root, strlen(root)) && !stat(p, &st) && (st.st_mode & 07777) == modes[i],
                  "%s: mode %o, not %o", p, st.st_mode & 07777, modes[i]);
        gr_janitor_rm(0, p);
        cr_expect(!gr_is_dir(p));
    }
    if (old) setenv("TMPDIR", old, 1), free(old);
    else unsetenv("TMPDIR");
    wbt_run((char[256]){0}, "rm -rf %s", root);
}
