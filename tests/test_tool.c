/* grading/tool.h: the one way to run a trusted command (gnuplot, sbatch, nvidia-smi, sim_c): the text given on
 * its stdin, both outputs captured, a time limit; no descriptor left behind when it cannot start. No GPU. */
#define _GNU_SOURCE 1
#include "wbtest.h"

#include <dirent.h>
#include <sys/resource.h>

#include "tool.h"

Test(tool, the_text_given_is_its_stdin_and_both_outputs_are_captured)
{
    char *argv[] = {"sh", "-c", "cat; echo oops >&2; exit 3", NULL};
    gr_str out = {0}, err = {0};
    cr_expect_eq(gr_tool_run(argv, "set terminal svg\n", &out, &err, 30), 3);
    cr_expect_str_eq(gr_str_c(&out), "set terminal svg\n");
    cr_expect_str_eq(gr_str_c(&err), "oops\n");
    gr_str_free(&out);
    gr_str_free(&err);
    char *none[] = {"wb-no-such-tool", NULL};
    cr_expect_eq(gr_tool_run(none, NULL, NULL, NULL, 30), 127, "a tool that is not there");
    char *slow[] = {"sleep", "30", NULL};
    cr_expect_eq(gr_tool_run(slow, NULL, NULL, NULL, 1), 124, "past its time limit");
}

/* The descriptors open, and the highest of them (*top). */
static int open_fds(int *top)
{
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    int n = 0, self = d ? dirfd(d) : -1;
    *top = 0;
    while (d && (e = readdir(d))) {
        int fd = atoi(e->d_name);
        if (e->d_name[0] == '.' || fd == self) continue;
        n++;
        *top = fd > *top ? fd : *top;
    }
    if (d) closedir(d);
    return n;
}

/* Out of descriptors half-way (its stdin made, its pipes not): 127, and what it opened is closed again (a class
 * runs it once per entry). In a child: the limit is the child's alone. */
Test(tool, a_tool_that_cannot_get_its_pipes_leaves_no_descriptor_open)
{
    pid_t pid = fork();
    if (pid == 0) {
        int top, before = open_fds(&top);
        for (int fd = 0; fd <= top; fd++) /* no gap below the limit: the next three descriptors are the last */
            if (fcntl(fd, F_GETFD) < 0) dup2(0, fd);
        before = open_fds(&top);
        struct rlimit rl = {(rlim_t)top + 4, (rlim_t)top + 4};
        char *argv[] = {"true", NULL};
        int rc = setrlimit(RLIMIT_NOFILE, &rl) == 0 ? gr_tool_run(argv, "x", NULL, NULL, 10) : -1;
        _exit(rc != 127 ? 2 : open_fds(&top) == before ? 0 : 1);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s", WEXITSTATUS(st) == 2 ? "it started" : "a descriptor was left open");
}
