/* main.c — the course's program (build/course; `make grade-class`): a class graded on the judge's public
 * interface (gr_grade_one, gr_write_reports), on this host's GPUs or on a Slurm cluster (its merge job:
 * `--merge --class DIR --out OUT`), with the course around it (an LMS's download and the roster, similarity,
 * canvas-grades.csv, class.html). */
#define _GNU_SOURCE 1
#include "class.h"
#include "lms.h"
#include "setup.h"
#include "slurm.h"

static void co_usage(FILE *f)
{
    fprintf(f, "usage: course --class DIR [options]   grade every entry of DIR (resumable)\n"
               "options: --out DIR  --ch N  --seeds A,B  --rubric FILE  --jobs J  --force  --no-perf\n"
               "         --no-sanitizer  --quiet  --insecure-sandbox  --validate\n"
               "course:  --roster CSV  --lms auto|canvas|moodle|gradescope|plain  --similarity PCT  --no-similarity\n"
               "         --assignment NAME (its column in canvas-grades.csv)\n"
               "cluster: --engine local|slurm  --partition P  --gres G  --time MINUTES  --no-wait\n"
               "one submission: build/grade SUB (make grade)\n");
    gr_usage_exits(f);
}

typedef struct {
    gr_shared_cli s;
    const char *klass;
    int merge; /* the Slurm engine's merge job (slurm.h) */
    int slurm; /* --engine slurm */
    gr_slurm_opts so;
    gr_course *co;
} co_cli;

enum { O_CLASS = GR_O_OWN, O_ENGINE, O_MERGE, O_ROSTER, O_LMS, O_SIM, O_NO_SIM, O_ASSIGNMENT, O_PARTITION, O_GRES,
       O_TIME, O_WAIT, O_NO_WAIT };

/* Keeps option c as the user gave it (its one or two words of argv, which end at argv[optind - 1]) for
 * the cluster's jobs (slurm.h): the judge's, and the course's. */
static void co_keep(gr_slurm_opts *so, int c, char **argv, const char *arg)
{
    int judge = c < GR_O_OWN && c != GR_O_OUT && c != GR_O_JOBS && c != GR_O_FORCE && c != GR_O_VALIDATE;
    int course = c >= O_ROSTER && c <= O_ASSIGNMENT;
    const char **list = judge ? so->judge : so->course;
    int *n = judge ? &so->n_judge : &so->n_course, two = arg && arg == argv[optind - 1];
    if ((!judge && !course) || *n + 2 > (judge ? 32 : 16)) return;
    if (two) list[(*n)++] = argv[optind - 2];
    list[(*n)++] = argv[optind - 1];
}

/* One of the course's options into the co_cli own and its course, and each option taken kept for the
 * cluster's jobs (gr_own_opt); -1 to go on, else the exit code. */
static int co_opt(int c, const char *arg, char **argv, void *own, gr_config *x)
{
    (void)x;
    co_cli *cli = own;
    gr_course *co = cli->co;
    long long v;
    const char *bad = NULL; /* what is wrong with arg */
    switch (c) {
    case O_CLASS: cli->klass = arg; break;
    case O_MERGE: cli->merge = 1; break;
    case O_ENGINE:
        if (strcmp(arg, "local") && strcmp(arg, "slurm")) bad = "grade: --engine is local or slurm, not %s";
        cli->slurm = !strcmp(arg, "slurm");
        break;
    case O_ROSTER: snprintf(co->roster, sizeof co->roster, "%s", arg); break;
    case O_LMS:
        if ((co->lms = gr_lms_parse_kind(arg)) == -1)
            bad = "grade: --lms is auto, canvas, moodle, gradescope or plain, not %s";
        break;
    case O_SIM:
        if (gr_strict_int(arg, 1, 100, &v))
            bad = "grade: --similarity '%s' must be a percentage from 1 to 100 (--no-similarity: off)";
        else co->sim_threshold = (int)v;
        break;
    case O_NO_SIM: co->sim_threshold = 0; break;
    case O_ASSIGNMENT: snprintf(co->assignment, sizeof co->assignment, "%s", arg); break;
    case O_PARTITION: cli->so.partition = arg; break;
    case O_GRES: cli->so.gres = arg; break;
    case O_TIME:
        if (gr_strict_int(arg, 1, 525600, &v)) bad = "grade: --time '%s' must be a whole number of minutes (1 or more)";
        else cli->so.minutes = (int)v;
        break;
    case O_WAIT: cli->so.wait = 1; break;
    case O_NO_WAIT: cli->so.wait = 0; break;
    }
    if (!bad) {
        co_keep(&cli->so, c, argv, arg);
        return -1;
    }
    return gr_stop(GR_EXIT_USAGE, bad, arg);
}

/* Parses argv into *cli and *co; returns -1 to go on, else the exit code. */
static int co_parse_cli(int argc, char **argv, co_cli *cli, gr_course *co)
{
    static const struct option longopts[] = {
        GR_SHARED_OPTS,
        {"class", required_argument, 0, O_CLASS},           {"engine", required_argument, 0, O_ENGINE},
        {"merge", no_argument, 0, O_MERGE},                 {"roster", required_argument, 0, O_ROSTER},
        {"lms", required_argument, 0, O_LMS},               {"similarity", required_argument, 0, O_SIM},
        {"no-similarity", no_argument, 0, O_NO_SIM},        {"assignment", required_argument, 0, O_ASSIGNMENT},
        {"partition", required_argument, 0, O_PARTITION},   {"gres", required_argument, 0, O_GRES},
        {"time", required_argument, 0, O_TIME},             {"wait", no_argument, 0, O_WAIT},
        {"no-wait", no_argument, 0, O_NO_WAIT},             {0, 0, 0, 0}};
    memset(cli, 0, sizeof *cli);
    cli->co = co;
    cli->so.minutes = 60, cli->so.wait = 1;
    co->lms = -2, co->sim_threshold = 50; /* detect the LMS layout; pairs sharing half their code */
    int rc = gr_parse_opts(argc, argv, longopts, co_usage, co_opt, cli, &cli->s, &co->judge);
    if (rc >= 0) return rc;
    if (optind < argc) return gr_stop(GR_EXIT_USAGE, "grade: one class at a time (--class DIR), not %s", argv[optind]);
    if (cli->klass) return -1;
    co_usage(stderr);
    return GR_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    gr_course *co = calloc(1, sizeof *co); /* large (the rubric): not on the stack; freed with the process */
    gr_config *x = &co->judge;
    co_cli cli;
    int rc = co_parse_cli(argc, argv, &cli, co);
    if (rc >= 0) return rc;
    if (cli.slurm && !cli.merge && !cli.s.validate) /* the cluster grades: each task as the judge would */
        return gr_slurm_class(&cli.so, cli.klass, cli.s.out, x->force);
    if ((rc = gr_setup_root(x)) >= 0 || (rc = gr_setup_rubric(x, cli.s.seeds)) >= 0) return rc;
    char why[PATH_MAX + 700]; /* before the GPU, a build or a file written; the merge reads the tasks' reports */
    if (!cli.merge && gr_class_precheck(co, cli.klass, why, sizeof why)) return gr_stop(GR_EXIT_USAGE, "%s", why);
    if (cli.s.validate) return GR_EXIT_OK;
    gr_find_sanitizer(x->sanitizer, sizeof x->sanitizer);
    snprintf(x->out, sizeof x->out, "%s", cli.s.out ? cli.s.out : "build/grades");
    if ((rc = gr_setup_out(x->out, sizeof x->out)) >= 0) return rc; /* before the references are built */
    if (cli.merge) return gr_slurm_merge(co, cli.klass);
    const char *extra[] = {cli.klass, x->out, NULL}; /* the other students' submissions and reports */
    if ((rc = gr_setup_isolate(x, extra)) >= 0) return rc;
    return gr_class(co, cli.klass);
}
