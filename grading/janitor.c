/* janitor.c — see janitor.h. */
#define _GNU_SOURCE 1
#include "janitor.h"
#include "gr_util.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <sys/socket.h>

/* What is left of a run ("#pgid:uid"): its group's processes of its uid, killed until none but zombies is found. */
static void gr_janitor_kill(const char *run)
{
    long group, uid;
    char st[4096];
    if (sscanf(run, "#%ld:%ld", &group, &uid) != 2 || group < 2) return;
    for (int round = 0, found = 1; found && round < 50; round++) {
        DIR *d = opendir("/proc");
        found = 0;
        for (const char *pid; d && (pid = gr_proc_next(d, "status", st, sizeof st));) {
            if (gr_proc_field(st, "Uid") != uid || gr_proc_field(st, "NSpgid") != group || strstr(st, "\nState:\tZ"))
                continue;
            found |= kill((pid_t)atol(pid), SIGKILL) == 0;
        }
        if (d) closedir(d);
    }
}

/* The janitor's life: "+path" and "-path" messages (a seqpacket socket keeps each whole; a run is "#pgid:uid")
 * until the last writer is gone, then what is left of every run still listed killed and every folder removed. */
static void gr_janitor_serve(int fd)
{
    char m[PATH_MAX + 2], **list = NULL, **more;
    size_t n = 0;
    for (ssize_t got; (got = recv(fd, m, sizeof m - 1, 0)) != 0;) {
        if (got < 0 && errno != EINTR) return; /* the list is lost: nothing removed, rather than a live grading's */
        if (got < 2) continue;
        m[got] = 0;
        size_t k = 0;
        while (k < n && strcmp(list[k], m + 1)) k++;
        if (m[0] == '-' && k < n) {
            free(list[k]);
            list[k] = list[--n];
        } else if (m[0] == '+' && k == n && (more = realloc(list, (n + 1) * sizeof *list))) {
            list = more;
            list[n++] = strdup(m + 1);
        }
    }
    for (size_t k = 0; k < n; k++)
        if (list[k][0] == '#') gr_janitor_kill(list[k]);
    for (size_t k = 0; k < n; k++)
        if (list[k][0] != '#') gr_rmtree(list[k]);
}

int gr_janitor_start(void)
{
    int sv[2], sub = 0;
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) return 0;
    /* Not a child of ours: gr_run kills every child of its caller after a run. Its parent exits at once, and
     * we are no subreaper meanwhile, so it goes to init (or the session's own subreaper). */
    prctl(PR_GET_CHILD_SUBREAPER, &sub);
    prctl(PR_SET_CHILD_SUBREAPER, 0);
    pid_t pid = sv[0] > 2 && sv[1] > 2 ? fork() : -1;
    pid_t janitor = pid == 0 ? fork() : -1;
    if (pid == 0 && janitor == 0) {
        setsid(); /* a terminal's Ctrl-C and hangup are for the grading; Slurm's SIGTERM too: its SIGKILL comes later */
        signal(SIGINT, SIG_IGN), signal(SIGHUP, SIG_IGN), signal(SIGTERM, SIG_IGN);
        int null = open("/dev/null", O_RDWR); /* no pipe of the caller's (a `| tee`) held open */
        for (int f = 0; f < 3; f++) dup2(null, f);
        close_range(3, (unsigned)sv[0] - 1, 0);
        close_range((unsigned)sv[0] + 1, ~0U, 0);
        gr_janitor_serve(sv[0]);
        _exit(0);
    }
    if (pid == 0) _exit(janitor < 0);
    int st = 0, ok = pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !WEXITSTATUS(st);
    prctl(PR_SET_CHILD_SUBREAPER, sub);
    close(sv[0]);
    if (ok) return sv[1];
    close(sv[1]);
    return 0;
}

static void gr_janitor_say(int janitor, char op, const char *path)
{
    char m[PATH_MAX + 2];
    int n = snprintf(m, sizeof m, "%c%s", op, path);
    if (janitor > 2 && n > 1 && n < (int)sizeof m) send(janitor, m, (size_t)n, MSG_NOSIGNAL);
}

void gr_janitor_add(int janitor, const char *path) { gr_janitor_say(janitor, '+', path); }

void gr_janitor_group(int janitor, pid_t group, uid_t uid, int live)
{
    char name[48];
    snprintf(name, sizeof name, "#%ld:%lu", (long)group, (unsigned long)uid);
    gr_janitor_say(janitor, live ? '+' : '-', name);
}

void gr_janitor_rm(int janitor, const char *path)
{
    gr_rmtree(path);
    gr_janitor_say(janitor, '-', path);
}
