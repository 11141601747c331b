/* grade.c — the judge's CLI (build/grade; `make grade`, `make check`, each entry of a class build/course grades on
 * a cluster): one submission, or the student's practice run. A grading's steps are pipeline.c's; a class course/'s. */
#define _GNU_SOURCE 1
#include "check.h"
#include "pipeline.h"
#include "report.h"
#include "sanitize.h"
#include "setup.h"
#include "submission.h"
#include "validate.h"

#include <libgen.h> /* POSIX basename: a trailing slash does not count; "/" is refused first (gr_sub_path_check) */

static void gr_usage(FILE *f)
{
    fprintf(f, "usage: grade [options] SUB      grade one submission (directory, .zip, .tar, .tar.gz or .tgz)\n"
               "       grade --check            practice run of this workbook's chapters/\n"
               "options: --out DIR  --ch N  --seeds A,B  --rubric FILE  --force  --no-perf\n"
               "         --no-sanitizer  --student NAME  --quiet  --insecure-sandbox\n"
               "       grade --isolation        say how student code is kept from the course files, and exit\n"
               "       grade --validate ...     check the command line, the rubric and the paths it names, and each\n"
               "                                built chapter program's --list against its chapter.json (no GPU,\n"
               "                                nothing built or written); say ok, and exit: make runs it before the GPU\n"
               "                                check\n"
               "a class (a folder of submissions, an LMS's download): build/course --class DIR (make grade-class)\n");
    gr_usage_exits(f);
}

typedef struct {
    gr_shared_cli s;
    const char *sub, *student;
    int isolation; /* --isolation: print the isolation in force and exit */
} gr_cli;

enum { O_STUDENT = GR_O_OWN, O_CHECK, O_ISOLATION };

/* grade's own options (gr_own_opt). */
static int gr_own(int c, const char *arg, char **argv, void *own, gr_config *x)
{
    (void)argv;
    gr_cli *cli = own;
    if (c == O_STUDENT) cli->student = arg;
    else if (c == O_CHECK) x->mode = GR_MODE_CHECK;
    else if (c == O_ISOLATION) cli->isolation = 1;
    return -1;
}

/* Parses argv into *cli and *x; returns -1 to go on, else the exit code. */
static int gr_parse_cli(int argc, char **argv, gr_cli *cli, gr_config *x)
{
    static const struct option longopts[] = {GR_SHARED_OPTS,
                                             {"student", required_argument, 0, O_STUDENT},
                                             {"check", no_argument, 0, O_CHECK},
                                             {"isolation", no_argument, 0, O_ISOLATION},
                                             {0, 0, 0, 0}};
    int rc = gr_parse_opts(argc, argv, longopts, gr_usage, gr_own, cli, &cli->s, x);
    if (rc >= 0) return rc;
    if (optind < argc) cli->sub = argv[optind++];
    if (optind < argc)
        return gr_stop(GR_EXIT_USAGE, "grade: one submission at a time (got %s and %s); use build/course --class DIR",
                       cli->sub, argv[optind]);
    int given = !!cli->sub + (x->mode == GR_MODE_CHECK); /* exactly one of SUB and --check (--isolation: or none) */
    if (given == 1 || (cli->isolation && !given)) return -1;
    gr_usage(stderr);
    return GR_EXIT_USAGE;
}

/* make doctor (--isolation): decide the isolation and say it, changing nothing; and how compute-sanitizer
 * runs here, probed on chapter 1's reference as a grading would. */
static int gr_doctor(gr_config *x)
{
    char err[600];
    /* x->iso: the sanitizer probe's runs get bubblewrap as just probed, the references' course group */
    int rc = gr_iso_setup(x->root, x->insecure, 1, NULL, &x->iso, err, sizeof err);
    printf("%s\n", rc ? err : x->iso.line);
    if (!rc && !gr_rubric_load_at(".", x->rubric_path, &x->rub, err, sizeof err) && x->rub.n_ch) {
        gr_find_sanitizer(x->sanitizer, sizeof x->sanitizer);
        x->only_ch = x->rub.ch[0].number;
        gr_san_probe(x, NULL, &x->san);
        printf("sanitizer: %s\n", x->san.line);
    }
    return rc;
}

/* Who the reports are about and where they go: --student (a class's entry) or the submission's name,
 * --out or build/grade-out/<who> (build/check for the practice run). -1 to go on, else the exit code. */
static int gr_single_paths(const gr_config *x, const gr_cli *cli, const char *sub, char *who, char *out_dir)
{
    const char *student = cli->student, *out = cli->s.out;
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s", sub);
    const char *name = student ? student : x->mode == GR_MODE_CHECK ? "check" : basename(tmp);
    if (!gr_safe_name(who, 128, name, "-_.") || who[0] == '.') snprintf(who, 128, "_%s", name[0] ? "x" : "empty");
    if (out) snprintf(out_dir, PATH_MAX, "%s", out);
    else if (x->mode == GR_MODE_CHECK) snprintf(out_dir, PATH_MAX, "build/check");
    else snprintf(out_dir, PATH_MAX, "build/grade-out/%s", who);
    int rc = gr_setup_out(out_dir, PATH_MAX); /* before anything is built */
    if (rc >= 0) return rc;
    if (student && out) snprintf(who, 128, "%s", student); /* the LMS name as the id (course/roster.c) */
    return -1;
}

/* One submission (or the practice run) on the first usable GPU, its reports; the exit code. */
static int gr_grade_single(gr_config *x, const gr_cli *cli)
{
    const char *sub = x->mode == GR_MODE_CHECK ? "." : cli->sub;
    char out_dir[PATH_MAX], who[128];
    int rc = gr_single_paths(x, cli, sub, who, out_dir);
    if (rc >= 0) return rc;
    const char *extra[] = {out_dir, NULL};
    if ((rc = gr_setup_isolate(x, extra)) >= 0) return rc;
    gr_sub_result *res = calloc(1, sizeof *res);
    x->chapters_at_once = 1; /* the only grading here */
    int keep = gr_gpu_keep(x->root);
    gr_grade_one(x, sub, who, out_dir, res);
    if (keep >= 0) close(keep);
    gr_check_score_perf(x, res); /* make check without a reference: its performance points, or none */
    char why[sizeof res->error + 700];
    gr_sub_status st = gr_sub_judge(res, why, sizeof why);
    gr_check_outcome co = gr_check_outcome_of(res, x->mode); /* make check without a GPU: its own conclusion */
    if (gr_check_no_gpu(co)) gr_check_print_static(stdout, res, why);
    errno = 0;
    rc = gr_write_reports(x, sub, out_dir, res, gr_check_no_gpu(co) ? NULL : stdout);
    free(res);
    if (rc)
        return gr_stop(GR_EXIT_IO, "grade: the reports could not all be written in %s: %s", out_dir,
                       errno ? strerror(errno) : "write error");
    printf("reports: %s/feedback.md, results.json, grading.json\n", out_dir);
    if (gr_check_no_gpu(co)) return gr_check_exit(co, st);
    if (st == GR_SUB_GRADED) return gr_exit_of(st);
    /* The one line that says a grading did not happen: the reason may hold a program's stderr. */
    for (char *p = why; *p; p++)
        if (*p == '\n' || *p == '\r') *p = ' ';
    fprintf(stderr, "grade: %s not graded (%s, no score written): %.599s\n",
            x->mode == GR_MODE_CHECK ? "chapters/" : sub, gr_sub_status_name(st), why);
    return gr_exit_of(st);
}

/* --validate, after the paths: each built chapter program's variants against its facts; "ok: …" unless --quiet. */
static int gr_validate(const gr_config *x)
{
    gr_validate_summary sum;
    char why[700], line[400];
    if (gr_validate_programs(&x->rub, x->root, &sum, why, sizeof why)) return gr_stop(GR_EXIT_USAGE, "grade: %s", why);
    gr_validate_say(&sum, line, sizeof line);
    if (!x->quiet) printf("grade: %s\n", line);
    return GR_EXIT_OK;
}

int main(int argc, char **argv)
{
    gr_config *x = calloc(1, sizeof *x); /* large (the rubric): not on the stack; freed with the process */
    gr_cli cli = {0};
    int rc = gr_parse_cli(argc, argv, &cli, x);
    if (rc >= 0 || (rc = gr_setup_root(x)) >= 0) return rc;
    if (cli.isolation) return gr_doctor(x);
    if ((rc = gr_setup_rubric(x, cli.s.seeds)) >= 0) return rc;
    /* Before the GPU, any build or any report: the submission exists and holds a chapter's file. A class's
     * entry graded alone (--student: a Slurm task) is graded even when empty, as the local engine grades it. */
    char why[PATH_MAX + 700];
    x->janitor = gr_janitor_start(); /* before the precheck's folder */
    if (cli.sub && (cli.student ? gr_sub_path_check(cli.sub, why, sizeof why)
                                : gr_sub_precheck(&x->rub, cli.sub, x->janitor, why, sizeof why)))
        return gr_stop(GR_EXIT_USAGE, "%s", why);
    if (cli.s.validate) return gr_validate(x);
    gr_find_sanitizer(x->sanitizer, sizeof x->sanitizer);
    return gr_grade_single(x, &cli);
}
