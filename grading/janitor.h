/* janitor.h — the grading's scratch folders removed when it is stopped (Ctrl-C, SIGTERM, a Slurm scancel, a
 * crash): a process in a session of its own (a terminal's signals pass it by) holds the list of the folders in
 * use (a grading's work tree, a class's kept runs, the probes' folders) and removes them once every process that
 * could add to the list is gone (its socket's last writer closed); a folder its owner removed is off the list.
 * Without it a stopped class left its graders' work trees and kept runs in TMPDIR, on a shared server's disk. */
#ifndef GR_JANITOR_H
#define GR_JANITOR_H

#include <sys/types.h>

/* Starts the janitor: the handle (a socket, > 2, close-on-exec, inherited by the grading's own forks) to keep
 * in gr_config.janitor, or 0 where none could start (the folders are then left behind on a stop, as before). */
int gr_janitor_start(void);

/* The folder path (made by the caller) onto the janitor's list (handle 0: nothing). */
void gr_janitor_add(int janitor, const char *path);

/* The folder path removed now, then taken off the janitor's list. */
void gr_janitor_rm(int janitor, const char *path);

/* A run's process group on the list while it runs (live 1), off it once the run has ended (0): what is left of a
 * listed group when the grading is gone is killed, its processes that uid owns (as root a run has a uid of its own: a
 * group number taken again after a grader crashed before it took its run off is nobody else's). Its runs end with the
 * grading, but not what they started (a background process), nor bubblewrap's setup child when its parent was killed
 * before it let it go on (that child waits for it forever: a class stopped by Ctrl-C in CI left one). */
void gr_janitor_group(int janitor, pid_t group, uid_t uid, int live);

#endif /* GR_JANITOR_H */
