/* setup.h — what every program that grades (build/grade, build/course) does before the first submission:
 * the options they share (getopt_long: one table a program extends with its own), the workbook's root
 * and the rubric, the seeds, compute-sanitizer's path, the reports' folder, the isolation. Each function
 * that may stop the program returns -1 to go on, else the exit code (gr_exit), its line said on stderr. */
#ifndef GR_SETUP_H
#define GR_SETUP_H
#include <getopt.h>

#include "job.h"

/* The options both programs take; a program's own start at GR_O_OWN. */
enum { GR_O_OUT = 256, GR_O_SEEDS, GR_O_RUBRIC, GR_O_CH, GR_O_JOBS, GR_O_FORCE, GR_O_NO_PERF, GR_O_NO_SAN,
       GR_O_QUIET, GR_O_INSECURE, GR_O_VALIDATE, GR_O_OWN };
#define GR_SHARED_OPTS                                                                                                  \
    {"out", required_argument, 0, GR_O_OUT}, {"seeds", required_argument, 0, GR_O_SEEDS},                               \
        {"rubric", required_argument, 0, GR_O_RUBRIC}, {"ch", required_argument, 0, GR_O_CH},                           \
        {"jobs", required_argument, 0, GR_O_JOBS}, {"force", no_argument, 0, GR_O_FORCE},                               \
        {"no-perf", no_argument, 0, GR_O_NO_PERF}, {"no-sanitizer", no_argument, 0, GR_O_NO_SAN},                       \
        {"quiet", no_argument, 0, GR_O_QUIET}, {"insecure-sandbox", no_argument, 0, GR_O_INSECURE},                     \
        {"validate", no_argument, 0, GR_O_VALIDATE}, {"help", no_argument, 0, 'h'}

/* What the shared options asked for beyond the configuration. */
typedef struct {
    const char *seeds, *out;
    int validate; /* --validate: check the command line and its paths, then exit */
} gr_shared_cli;

/* The line that stops the program, on stderr; code, its exit code. */
int gr_stop(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A whole number in [lo, hi] and nothing else ("seven", "3x", "" and "-1" are refused). */
int gr_strict_int(const char *s, long long lo, long long hi, long long *out);

/* Called with every option taken, shared ones too (course records them for Slurm): -1 to go on, else the exit code. */
typedef int gr_own_opt(int c, const char *arg, char **argv, void *own, gr_config *x);

/* argv's options (longopts: GR_SHARED_OPTS and the program's own) with getopt_long, the shared ones into *cli
 * and *x, the others to own_opt; --help and a wrong option said with usage. -1 to go on, else the exit code. */
int gr_parse_opts(int argc, char **argv, const struct option *longopts, void (*usage)(FILE *), gr_own_opt *own_opt,
                  void *own, gr_shared_cli *cli, gr_config *x);

/* The exit codes' table, for a usage text. */
void gr_usage_exits(FILE *f);

/* The workbook: the current folder, which holds common/wb.h. */
int gr_setup_root(gr_config *x);

/* The rubric, --ch a chapter of it, and the seeds of this grading: --seeds replays recorded ones; otherwise fresh ones
 * from the kernel's random source, drawn here and never written where a student's program could read them first. */
int gr_setup_rubric(gr_config *x, const char *seeds);

/* compute-sanitizer on PATH or in the toolkit's usual place, without symbolic links (so that a bubblewrap
 * bind of it can succeed); "" when there is none. */
void gr_find_sanitizer(char *out, size_t len);

/* Before anything is built: the reports' folder exists and takes a file (dir made absolute), or GR_EXIT_IO. */
int gr_setup_out(char *dir, size_t len);

/* Before any student code is built or run: isolate the course files or refuse (isolation.h); extra: the
 * paths (NULL-terminated) the runs must not reach besides the course's. The practice run (--check)
 * grades the student's own code on their own machine: never refused there. */
int gr_setup_isolate(gr_config *x, const char *const *extra);
#endif
