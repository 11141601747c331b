/* tool.c — see tool.h. */
#define _GNU_SOURCE 1
#include "tool.h"

#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

/* Reads both pipes until they close or the time is up (-1); closes them either way. */
static int drain(int fo, int fe, gr_str *out, gr_str *err, double deadline)
{
    struct pollfd p[2] = {{fo, POLLIN, 0}, {fe, POLLIN, 0}};
    int open = 2;
    char buf[65536];
    while (open) {
        int ms = (int)((deadline - gr_now()) * 1e3);
        if (ms <= 0 || (poll(p, 2, ms) < 0 && errno != EINTR)) break; /* late: a pipe is still open */
        for (int k = 0; k < 2; k++) {
            if (p[k].fd < 0 || !(p[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            ssize_t n = read(p[k].fd, buf, sizeof buf);
            if (n <= 0) {
                close(p[k].fd), p[k].fd = -1, open--;
                continue;
            }
            gr_str *dst = k ? err : out;
            if (dst && dst->len < (64u << 20)) gr_str_addn(dst, buf, (size_t)n);
        }
    }
    for (int k = 0; k < 2; k++)
        if (p[k].fd >= 0) close(p[k].fd);
    return open ? -1 : 0;
}

int gr_tool_run(char *const argv[], const char *in, gr_str *out, gr_str *err, int timeout_s)
{
    int po[2] = {-1, -1}, pe[2] = {-1, -1};
    size_t n = in ? strlen(in) : 0;
    int fi = memfd_create("gr-tool-stdin", MFD_CLOEXEC); /* stdin as a file: no pipe to keep fed */
    int ready = fi >= 0 && write(fi, in, n) == (ssize_t)n && !lseek(fi, 0, SEEK_SET) && !pipe2(po, O_CLOEXEC) &&
                !pipe2(pe, O_CLOEXEC);
    fflush(NULL);
    pid_t pid = ready ? fork() : -1;
    if (pid < 0) { /* not started: nothing of it left open */
        const int fds[] = {fi, po[0], po[1], pe[0], pe[1]};
        for (size_t i = 0; i < sizeof fds / sizeof *fds; i++)
            if (fds[i] >= 0) close(fds[i]);
        return 127;
    }
    if (pid == 0) {
        setpgid(0, 0);
        dup2(fi, 0), dup2(po[1], 1), dup2(pe[1], 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(fi), close(po[1]), close(pe[1]);
    int late = drain(po[0], pe[0], out, err, gr_now() + timeout_s);
    if (late) kill(-pid, SIGKILL), kill(pid, SIGKILL);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    return late ? 124 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
