/*
 * grade.c — the workbook's autograder (build/grade; `make grade`, `make grade-class`, `make check`).
 *
 *   build/grade [options] SUB        grade one submission: a directory laid out like the workbook (or
 *                                    like solutions/ or chapters/), or a .zip / .tar.gz of one
 *   build/grade --class DIR          grade every entry of DIR (one per student), resumable
 *   build/grade --check              the student's practice run of this workbook's chapters/
 * options: --out DIR  --ch N  --seeds A,B  --rubric FILE  --jobs J  --force  --no-perf  --no-sanitizer
 *
 * Per chapter (rubric: grading/rubric.json): take only the TODO regions of the student's file and
 * splice them into the pristine starter (edits outside are ignored and reported), compile with the
 * Makefile's own nvcc flags in the sandbox with a time limit; run the student build and the reference
 * (build/solutionN) with --dump on fresh seeds and the chapter's edge sizes and compare the raw result
 * files here (never the program's verdict, exit code or stdout); compute-sanitizer on the correct
 * variants; then, holding a lock per GPU, alternate reference and student benchmark runs, take medians,
 * cross-check the reported kernel times against the process wall clock, and score by the rubric's bands.
 * Every run of student code goes through sandbox.h.
 */
#define _GNU_SOURCE 1
#include "job.h"
#include "class.h"
#include "pipeline.h"
#include "submission.h"
#include "slurm.h"
#include "sanitize.h"
#include "lms.h"
#include "check.h"
#include "report.h"

#include <getopt.h>
#include <sys/random.h>

/* ---------------------------------------------------------------- main */
static void gr_usage(FILE *f)
{
    fprintf(f, "usage: grade [options] SUB      grade one submission (directory, .zip, .tar, .tar.gz or .tgz)\n"
               "       grade --class DIR        grade every entry of DIR (resumable)\n"
               "       grade --check            practice run of this workbook's chapters/\n"
               "options: --out DIR  --ch N  --seeds A,B  --rubric FILE  --jobs J  --force  --no-perf\n"
               "         --no-sanitizer  --student NAME  --quiet  --insecure-sandbox\n"
               "class:   --roster CSV  --lms auto|canvas|moodle|gradescope|plain  --similarity PCT  --no-similarity\n"
               "         --assignment NAME (its column in canvas-grades.csv)\n"
               "       grade --isolation        say how student code is kept from the course files, and exit\n"
               "       grade --validate ...     check the command line, the rubric and the paths it names (no GPU,\n"
               "                                nothing built or written), and exit: make runs it before the GPU check\n"
               "exit codes (make passes them on as \"Error N\"):\n");
    for (int e = 0; e < GR_EXIT_N; e++) fprintf(f, "  %d  %s\n", e, gr_exit_meaning((gr_exit)e));
}

/* The one line that says a grading did not happen: the reason may hold a program's stderr. */
static void gr_say_not_graded(const char *who, gr_sub_status st, const char *why)
{
    char line[600];
    snprintf(line, sizeof line, "%s", why);
    for (char *p = line; *p; p++)
        if (*p == '\n' || *p == '\r') *p = ' ';
    fprintf(stderr, "grade: %s not graded (%s, no score written): %s\n", who, gr_sub_status_name(st), line);
}

/* Before anything is built: the reports' folder exists and takes a file, or exit GR_EXIT_IO. */
static int gr_out_ready(const char *dir)
{
    char why[PATH_MAX + 200];
    if (!gr_report_dir_ready(dir, why, sizeof why)) return -1;
    fprintf(stderr, "grade: cannot write the reports (--out): %s\n", why);
    return GR_EXIT_IO;
}

/* What the command line asked for. */
typedef struct {
    const char *sub, *klass, *student, *seeds, *out;
    long long ch, jobs;
    int merge;                /* the Slurm engine's merge job (grading/slurm.c) */
    int isolation;            /* --isolation: print the isolation in force and exit */
    int validate;             /* --validate: check the command line and its paths, then exit */
} gr_cli;

/* A whole number in [lo, hi] and nothing else ("seven", "3x", "" and "-1" are refused). */
static int gr_strict_int(const char *s, long long lo, long long hi, long long *out)
{
    return wb_parse_count(s, hi, out) == 0 && *out >= lo ? 0 : -1;
}

enum { O_CLASS = 256, O_OUT, O_STUDENT, O_SEEDS, O_RUBRIC, O_CH, O_JOBS, O_CHECK, O_FORCE, O_NO_PERF, O_NO_SAN, O_QUIET,
       O_ENGINE, O_MERGE, O_INSECURE, O_ISOLATION, O_ROSTER, O_LMS, O_SIM, O_NO_SIM, O_ASSIGNMENT, O_VALIDATE };

/* One option c (getopt_long's answer) into *cli and *x; returns -1 to go on, else the exit code. */
static int gr_parse_opt(int c, char **argv, gr_cli *cli, gr_config *x)
{
    switch (c) {
    case O_CLASS: cli->klass = optarg; return -1;
    case O_OUT: cli->out = optarg; return -1;
    case O_STUDENT: cli->student = optarg; return -1;
    case O_SEEDS: cli->seeds = optarg; return -1;
    case O_RUBRIC: snprintf(x->rubric_path, sizeof x->rubric_path, "%s", optarg); return -1;
    case O_CH:
        if (gr_strict_int(optarg, 1, 99, &cli->ch)) {
            fprintf(stderr, "grade: --ch '%s' is not a chapter number (1 to 99)\n", optarg);
            return GR_EXIT_USAGE;
        }
        return -1;
    case O_JOBS:
        if (gr_strict_int(optarg, 1, 256, &cli->jobs)) {
            fprintf(stderr, "grade: --jobs '%s' must be a whole number from 1 to 256\n", optarg);
            return GR_EXIT_USAGE;
        }
        return -1;
    case O_CHECK: x->mode = GR_MODE_CHECK; return -1;
    case O_FORCE: x->force = 1; return -1;
    case O_NO_PERF: x->no_perf = 1; return -1;
    case O_NO_SAN: x->no_san = 1; return -1;
    case O_QUIET: x->quiet = 1; return -1;
    case O_ENGINE: /* slurm is taken before this parser (gr_slurm_wanted): only local reaches here */
        if (strcmp(optarg, "local")) {
            fprintf(stderr, "grade: --engine is local or slurm, not %s\n", optarg);
            return GR_EXIT_USAGE;
        }
        return -1;
    case O_MERGE: cli->merge = 1; return -1;
    case O_INSECURE: x->insecure = 1; return -1;
    case O_ISOLATION: cli->isolation = 1; return -1;
    case O_VALIDATE: cli->validate = 1; return -1;
    case O_ROSTER: snprintf(x->roster, sizeof x->roster, "%s", optarg); return -1;
    case O_LMS:
        if ((x->lms = gr_lms_parse_kind(optarg)) == -1) {
            fprintf(stderr, "grade: --lms is auto, canvas, moodle, gradescope or plain, not %s\n", optarg);
            return GR_EXIT_USAGE;
        }
        return -1;
    case O_SIM: {
        long long pct;
        if (gr_strict_int(optarg, 1, 100, &pct)) {
            fprintf(stderr, "grade: --similarity '%s' must be a percentage from 1 to 100 (--no-similarity: off)\n", optarg);
            return GR_EXIT_USAGE;
        }
        x->sim_threshold = (int)pct;
        return -1;
    }
    case O_NO_SIM: x->sim_threshold = 0; return -1;
    case O_ASSIGNMENT: snprintf(x->assignment, sizeof x->assignment, "%s", optarg); return -1;
    case 'h': gr_usage(stdout); return GR_EXIT_OK;
    case ':': fprintf(stderr, "grade: %s needs a value\n", argv[optind - 1]); return GR_EXIT_USAGE;
    default:
        fprintf(stderr, "grade: unknown option %s\n", argv[optind - 1]);
        gr_usage(stderr);
        return GR_EXIT_USAGE;
    }
    return -1;
}

/* Parses argv with getopt_long into *cli and *x; returns -1 to go on, else the exit code. */
static int gr_parse_cli(int argc, char **argv, gr_cli *cli, gr_config *x)
{
    static const struct option longopts[] = {
        {"class", required_argument, 0, O_CLASS},     {"out", required_argument, 0, O_OUT},
        {"student", required_argument, 0, O_STUDENT}, {"seeds", required_argument, 0, O_SEEDS},
        {"rubric", required_argument, 0, O_RUBRIC},   {"ch", required_argument, 0, O_CH},
        {"jobs", required_argument, 0, O_JOBS},       {"check", no_argument, 0, O_CHECK},
        {"force", no_argument, 0, O_FORCE},           {"no-perf", no_argument, 0, O_NO_PERF},
        {"no-sanitizer", no_argument, 0, O_NO_SAN},   {"quiet", no_argument, 0, O_QUIET},
        {"engine", required_argument, 0, O_ENGINE},   {"merge", no_argument, 0, O_MERGE},
        {"insecure-sandbox", no_argument, 0, O_INSECURE}, {"isolation", no_argument, 0, O_ISOLATION},
        {"roster", required_argument, 0, O_ROSTER},   {"lms", required_argument, 0, O_LMS},
        {"similarity", required_argument, 0, O_SIM},  {"no-similarity", no_argument, 0, O_NO_SIM},
        {"assignment", required_argument, 0, O_ASSIGNMENT}, {"validate", no_argument, 0, O_VALIDATE},
        {"help", no_argument, 0, 'h'},                {0, 0, 0, 0}};
    memset(cli, 0, sizeof *cli);
    x->lms = -2, x->sim_threshold = 50; /* detect the LMS layout; pairs sharing half their code */
    opterr = 0;
    int c, rc;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if ((rc = gr_parse_opt(c, argv, cli, x)) >= 0) return rc;
    }
    if (optind < argc) cli->sub = argv[optind++];
    if (optind < argc) {
        fprintf(stderr, "grade: one submission at a time (got %s and %s); use --class DIR\n", cli->sub, argv[optind]);
        return GR_EXIT_USAGE;
    }
    if (cli->isolation && !cli->sub && !cli->klass && x->mode != GR_MODE_CHECK) return -1;
    if (!!cli->sub + !!cli->klass + (x->mode == GR_MODE_CHECK) != 1) {
        gr_usage(stderr);
        return GR_EXIT_USAGE;
    }
    x->only_ch = (int)cli->ch;
    x->jobs = (int)cli->jobs;
    return -1;
}

/* The seeds of this grading: --seeds replays recorded ones; otherwise fresh ones from the kernel's
 * random source, drawn here and never written where a student's program could read them first.
 * Returns -1 to go on, else the exit code. */
static int gr_seeds(gr_config *x, const char *seeds)
{
    if (seeds && *seeds) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", seeds);
        char *save = NULL;
        for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            long long v;
            if (x->n_seeds == 8 || gr_strict_int(t, 0, 0x7fffffff, &v)) {
                fprintf(stderr, "grade: bad seed '%s' (at most 8, each from 0 to 2147483647)\n", t);
                return GR_EXIT_USAGE;
            }
            x->seeds[x->n_seeds++] = (unsigned long long)v;
        }
        return -1;
    }
    for (int i = 0; i < x->rub.seeds; i++) {
        uint32_t v;
        if (getrandom(&v, sizeof v, 0) != (ssize_t)sizeof v) {
            fprintf(stderr, "grade: no random seed from the kernel (getrandom: %s)\n", strerror(errno));
            return GR_EXIT_REFUSED;
        }
        x->seeds[x->n_seeds++] = v & 0x7fffffff;
    }
    return -1;
}

/* Before any student code is built or run: isolate the course files or refuse (isolation.h). The
 * practice run (--check) grades the student's own code on their own machine: never refused there.
 * Returns -1 to go on, else the exit code. */
static int gr_isolate(gr_config *x, const char *const *extra)
{
    char why[700];
    if (gr_iso_setup(x->root, x->insecure || x->mode == GR_MODE_CHECK, 0, extra, &x->iso, why, sizeof why)) {
        fprintf(stderr, "%s\n", why);
        return GR_EXIT_REFUSED;
    }
    LOG(x, "isolation: %s", x->iso.line);
    return -1;
}

/* compute-sanitizer on PATH or in the toolkit's usual place, without symbolic links (so that a bubblewrap
 * bind of it can succeed); "" when there is none. */
static void gr_find_sanitizer(char *out, size_t len)
{
    if (!gr_which("compute-sanitizer", out, len)) {
        const char *cand = "/usr/local/cuda/bin/compute-sanitizer";
        snprintf(out, len, "%s", access(cand, X_OK) == 0 ? cand : "");
    }
    char real[PATH_MAX];
    if (out[0] && realpath(out, real)) snprintf(out, len, "%s", real);
}

/* make doctor (--isolation): decide the isolation and say it, changing nothing; and how compute-sanitizer
 * runs here, probed on chapter 1's reference as a grading would. */
static int gr_doctor(gr_config *x)
{
    char err[600];
    gr_iso iso;
    int rc = gr_iso_setup(x->root, x->insecure, 1, NULL, &iso, err, sizeof err);
    printf("%s\n", rc ? err : iso.line);
    x->iso = iso; /* the sanitizer probe's runs: bubblewrap as just probed, the references' course group */
    if (!rc && !gr_rubric_load(x->rubric_path, &x->rub, err, sizeof err) && x->rub.n_ch) {
        gr_find_sanitizer(x->sanitizer, sizeof x->sanitizer);
        x->only_ch = x->rub.ch[0].number;
        gr_san_probe(x, NULL, &x->san);
        printf("sanitizer: %s\n", x->san.line);
    }
    return rc;
}

/* Before the GPU, any build or any report: the paths of the command line are what they must be (a
 * submission that exists and holds a chapter's file, a class folder with an entry, a roster), else one
 * line naming the path and GR_EXIT_USAGE. A class's entry graded alone (--student: a Slurm task) is
 * graded even when empty, as the local engine grades it (every chapter missing). Returns -1 to go on. */
static int gr_precheck(const gr_config *x, const gr_cli *cli)
{
    char why[PATH_MAX + 700];
    if (cli->sub && (cli->student ? gr_sub_path_check(cli->sub, why, sizeof why)
                                  : gr_sub_precheck(&x->rub, cli->sub, why, sizeof why)) == 0)
        return -1;
    if (cli->klass && !cli->merge && gr_class_precheck(x, cli->klass, why, sizeof why) == 0) return -1;
    if (!cli->sub && (!cli->klass || cli->merge)) return -1; /* the practice run; the Slurm merge reads its reports */
    fprintf(stderr, "%s\n", why);
    return GR_EXIT_USAGE;
}

/* One submission (or the practice run): its name and report folder, the isolation, the grading, the
 * reports; the exit code. */
static int gr_grade_single(gr_config *x, const gr_cli *cli)
{
    const char *sub = cli->sub, *student = cli->student, *out = cli->out;
    int rc;
    char out_dir[PATH_MAX], who[128];
    if (x->mode == GR_MODE_CHECK) sub = ".";
    if (student) gr_sanitize_name(student, who, sizeof who);
    else {
        char tmp[PATH_MAX];
        snprintf(tmp, sizeof tmp, "%s", sub);
        size_t l = strlen(tmp);
        while (l > 1 && tmp[l - 1] == '/') tmp[--l] = 0;
        const char *b = strrchr(tmp, '/');
        gr_sanitize_name((x->mode == GR_MODE_CHECK) ? "check" : b ? b + 1 : tmp, who, sizeof who);
    }
    snprintf(out_dir, sizeof out_dir, "%s", out ? out : x->mode == GR_MODE_CHECK ? "build/check" : "build/grade-out");
    if (!out) {
        size_t l = strlen(out_dir);
        if (x->mode != GR_MODE_CHECK) snprintf(out_dir + l, sizeof out_dir - l, "/%s", who);
    }
    if ((rc = gr_out_ready(out_dir)) >= 0) return rc; /* before anything is built */
    char abs[PATH_MAX];
    if (realpath(out_dir, abs)) snprintf(out_dir, sizeof out_dir, "%s", abs);
    if (student && out) snprintf(who, sizeof who, "%s", student); /* the LMS name as the id (roster.c) */
    const char *extra[] = {out_dir, NULL};
    if ((rc = gr_isolate(x, extra)) >= 0) return rc;
    gr_sub_result *res = calloc(1, sizeof *res);
    x->chapters_at_once = 1; /* the only grading here */
    gr_grade_one(x, sub, who, out_dir, res);
    gr_check_score_perf(x, res); /* make check without a reference: its performance points, or none */
    char why[sizeof res->error + 700];
    gr_sub_status st = gr_sub_judge(res, why, sizeof why);
    gr_check_outcome co = gr_check_outcome_of(res, x->mode); /* make check without a GPU: its own conclusion */
    if (gr_check_no_gpu(co)) gr_check_print_static(stdout, res, why);
    errno = 0;
    rc = gr_write_reports(x, sub, out_dir, res, gr_check_no_gpu(co) ? NULL : stdout);
    free(res);
    if (rc) {
        fprintf(stderr, "grade: the reports could not all be written in %s: %s\n", out_dir, errno ? strerror(errno) : "write error");
        return GR_EXIT_IO;
    }
    printf("reports: %s/feedback.md, results.json, grading.json\n", out_dir);
    if (gr_check_no_gpu(co)) return gr_check_exit(co, st);
    if (st != GR_SUB_GRADED) gr_say_not_graded((x->mode == GR_MODE_CHECK) ? "chapters/" : sub, st, why);
    return gr_exit_of(st);
}

int main(int argc, char **argv)
{
    gr_config *x = calloc(1, sizeof *x); /* large (the rubric): not on the stack; freed with the process */
    gr_cli cli;
    if (gr_slurm_wanted(argc, argv)) return gr_slurm_main(argc, argv); /* the class on a Slurm cluster */
    snprintf(x->rubric_path, sizeof x->rubric_path, "grading/rubric.json");
    int rc = gr_parse_cli(argc, argv, &cli, x);
    if (rc >= 0) return rc;
    const char *klass = cli.klass, *out = cli.out;
    if (!getcwd(x->root, sizeof x->root) || !gr_is_file("common/wb.h")) {
        fprintf(stderr, "grade: run me from the workbook's root (common/wb.h not found)\n");
        return GR_EXIT_USAGE;
    }
    char err[600];
    if (cli.isolation) return gr_doctor(x);
    if (gr_rubric_load(x->rubric_path, &x->rub, err, sizeof err)) {
        fprintf(stderr, "grade: bad rubric: %s\n", err);
        return GR_EXIT_USAGE;
    }
    if (x->only_ch && !gr_rubric_has_chapter(&x->rub, x->only_ch)) {
        fprintf(stderr, "grade: --ch %d: the rubric has no chapter %d\n", x->only_ch, x->only_ch);
        return GR_EXIT_USAGE;
    }
    if ((rc = gr_seeds(x, cli.seeds)) >= 0) return rc;
    if ((rc = gr_precheck(x, &cli)) >= 0 || cli.validate) return rc >= 0 ? rc : GR_EXIT_OK;
    gr_find_sanitizer(x->sanitizer, sizeof x->sanitizer);
    x->gpu = 0; /* one submission: the first usable GPU (a class spreads over all of them) */
    if (klass) {
        snprintf(x->out, sizeof x->out, "%s", out ? out : "build/grades");
        if ((rc = gr_out_ready(x->out)) >= 0) return rc; /* before the references are built */
        char abs[PATH_MAX];
        if (realpath(x->out, abs)) snprintf(x->out, sizeof x->out, "%s", abs);
        if (cli.merge) return gr_slurm_merge(x, klass);
        const char *extra[] = {klass, x->out, NULL}; /* the other students' submissions and reports */
        if ((rc = gr_isolate(x, extra)) >= 0) return rc;
        return gr_class(x, klass);
    }
    return gr_grade_single(x, &cli);
}
