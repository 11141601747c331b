/* gr_util.h — small helpers of the grader: a growing string, files and directories, time. */
#ifndef GR_UTIL_H
#define GR_UTIL_H

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    char *s;
    size_t len, cap;
} gr_str;

void gr_str_addn(gr_str *b, const char *p, size_t n);
static inline void gr_str_add(gr_str *b, const char *p) { gr_str_addn(b, p, strlen(p)); }
void gr_str_addf(gr_str *b, const char *fmt, ...);
static inline const char *gr_str_c(const gr_str *b) { return b->s ? b->s : ""; }
void gr_str_free(gr_str *b);

/* A copy of s (malloc) in which every byte that is not valid UTF-8 is U+FFFD: student output is arbitrary bytes. */
char *gr_utf8_clean(const char *s);

/* The median of a[0..n) (sorts a); -1 when n is 0. */
double gr_median(double *a, int n);

double gr_now(void);

int gr_mkdirs(const char *path, mode_t mode);

/* rm -rf; refuses "", "/" and relative paths shorter than 2 characters. */
void gr_rmtree(const char *path);

/* Bytes of disk used under path (st_blocks, so sparse files count what they really take). */
unsigned long long gr_du(const char *path);

/* The next process of the /proc listing d (its pid's name) with the text of its FILE in buf; NULL after the last. */
const char *gr_proc_next(DIR *d, const char *file, char *buf, size_t len);
/* The first number of field name ("Uid": the real uid, "NSpgid", "Threads") in a /proc status text; -1: none. */
long gr_proc_field(const char *status, const char *name);

int gr_is_dir(const char *p);
long long gr_file_size(const char *p);
static inline int gr_is_file(const char *p) { return gr_file_size(p) >= 0; }

/* Reads at most max bytes of a regular file (not following a final symlink); NULL if it cannot. */
char *gr_read_capped(const char *path, size_t max, size_t *len);

/* src as a name safe for a file: each byte not an ASCII letter, digit or in keep as _ (dst may be src); its length. */
size_t gr_safe_name(char *dst, size_t len, const char *src, const char *keep);

int gr_write_file(const char *path, const char *data, size_t len);
int gr_copy_file(const char *from, const char *to);

/* The first executable `name` on PATH (or name itself when it has a slash); 0 if none. */
int gr_which(const char *name, char *out, size_t len);

/* Whether uid (with groups gid and extra, 0: none) can walk down to path: every folder on the way,
 * path included, searchable by it. If not, the first folder that stops it goes to blocked (may be NULL). */
int gr_reachable_by(const char *path, uid_t uid, gid_t gid, gid_t extra, char *blocked, size_t blen);

/* TMPDIR where it is an absolute path, else /tmp: the one reading of TMPDIR for the grader's own folders. */
const char *gr_tmpdir(void);

/* Where a grading's work tree goes: `tmpdir` when the runs can reach it, else the first of the NULL-terminated
 * `fallbacks` they can (a TMPDIR in a home at 0700 gives way to /tmp: the work tree is the grader's own, 0710,
 * nothing of the home is opened); NULL when none will do, what stopped them on the way to `tmpdir` in `blocked`. */
const char *gr_work_base(const char *tmpdir, const char *const *fallbacks,
                         int (*reach)(const char *path, char *blocked, size_t blen), char *blocked, size_t blen);

/* Calls fn on path and, depth first, on everything under it, without following symbolic links (fn gets
 * the lstat of each; a folder is given before what it holds). ctx is the caller's, handed to fn. */
typedef void (*gr_walk_fn)(const char *path, const struct stat *st, void *ctx);
void gr_walk(const char *path, gr_walk_fn fn, void *ctx);

#endif /* GR_UTIL_H */
