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

/* ---------------------------------------------------------------- main */
static void gr_usage(FILE *f)
{
    fprintf(f, "usage: grade [options] SUB      grade one submission (directory, .zip or .tar.gz)\n"
               "       grade --class DIR        grade every entry of DIR (resumable)\n"
               "       grade --check            practice run of this workbook's chapters/\n"
               "options: --out DIR  --ch N  --seeds A,B  --rubric FILE  --jobs J  --force  --no-perf\n"
               "         --no-sanitizer  --student NAME  --quiet\n");
}

int main(int argc, char **argv)
{
    static gr_ctx x;
    const char *sub = NULL, *klass = NULL, *student = NULL, *seeds = NULL, *out = NULL;
    snprintf(x.rubric_path, sizeof x.rubric_path, "grading/rubric.json");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
#define TAKE(var)                                                                                                       \
    do {                                                                                                                \
        if (!val) {                                                                                                     \
            fprintf(stderr, "grade: %s needs a value\n", a);                                                            \
            return 2;                                                                                                   \
        }                                                                                                               \
        var = val;                                                                                                      \
        i++;                                                                                                            \
    } while (0)
        if (!strcmp(a, "--class")) TAKE(klass);
        else if (!strcmp(a, "--out")) TAKE(out);
        else if (!strcmp(a, "--student")) TAKE(student);
        else if (!strcmp(a, "--seeds")) TAKE(seeds);
        else if (!strcmp(a, "--rubric")) {
            const char *r;
            TAKE(r);
            snprintf(x.rubric_path, sizeof x.rubric_path, "%s", r);
        } else if (!strcmp(a, "--ch")) {
            const char *c;
            TAKE(c);
            x.only_ch = atoi(c);
        } else if (!strcmp(a, "--jobs")) {
            const char *j;
            TAKE(j);
            x.jobs = atoi(j);
        } else if (!strcmp(a, "--check")) x.check_mode = 1;
        else if (!strcmp(a, "--force")) x.force = 1;
        else if (!strcmp(a, "--no-perf")) x.no_perf = 1;
        else if (!strcmp(a, "--no-sanitizer")) x.no_san = 1;
        else if (!strcmp(a, "--quiet")) gr_verbose = 0;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            gr_usage(stdout);
            return 0;
        } else if (a[0] == '-') {
            fprintf(stderr, "grade: unknown option %s\n", a);
            gr_usage(stderr);
            return 2;
        } else if (!sub) sub = a;
        else {
            fprintf(stderr, "grade: one submission at a time (got %s and %s); use --class DIR\n", sub, a);
            return 2;
        }
    }
    if (!!sub + !!klass + x.check_mode != 1) {
        gr_usage(stderr);
        return 2;
    }
    if (!getcwd(x.root, sizeof x.root) || !gr_is_file("common/wb.h")) {
        fprintf(stderr, "grade: run me from the workbook's root (common/wb.h not found)\n");
        return 2;
    }
    char err[600];
    if (gr_rubric_load(x.rubric_path, &x.rub, err, sizeof err)) {
        fprintf(stderr, "grade: bad rubric: %s\n", err);
        return 2;
    }
    if (seeds && *seeds) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", seeds);
        char *save = NULL;
        for (char *t = strtok_r(buf, ",", &save); t && x.n_seeds < 8; t = strtok_r(NULL, ",", &save)) {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(t, &end, 10);
            if (errno || *end || t[0] == '-') {
                fprintf(stderr, "grade: bad seed '%s'\n", t);
                return 2;
            }
            x.seeds[x.n_seeds++] = v;
        }
    } else {
        /* fresh seeds each grading (recorded in the reports; --seeds replays them) */
        int fd = open("/dev/urandom", O_RDONLY);
        for (int i = 0; i < x.rub.seeds; i++) {
            uint32_t v = (uint32_t)time(NULL) * 2654435761u + (uint32_t)i;
            if (fd >= 0 && read(fd, &v, sizeof v) != sizeof v) v ^= (uint32_t)getpid();
            x.seeds[x.n_seeds++] = v & 0x7fffffff;
        }
        if (fd >= 0) close(fd);
    }
    if (!gr_which("compute-sanitizer", x.sanitizer, sizeof x.sanitizer)) {
        char cand[] = "/usr/local/cuda/bin/compute-sanitizer";
        if (access(cand, X_OK) == 0) snprintf(x.sanitizer, sizeof x.sanitizer, "%s", cand);
        else x.sanitizer[0] = 0;
    }
    char real_san[PATH_MAX]; /* without symbolic links, so that a bubblewrap bind of it can succeed */
    if (x.sanitizer[0] && realpath(x.sanitizer, real_san)) snprintf(x.sanitizer, sizeof x.sanitizer, "%s", real_san);
    x.gpu = 0; /* one submission: the first usable GPU (a class spreads over all of them) */
    if (klass) {
        snprintf(x.out, sizeof x.out, "%s", out ? out : "build/grades");
        gr_mkdirs(x.out, 0755);
        char abs[PATH_MAX];
        if (realpath(x.out, abs)) snprintf(x.out, sizeof x.out, "%s", abs);
        return gr_class(&x, klass);
    }
    char out_dir[PATH_MAX], who[128];
    if (x.check_mode) sub = ".";
    if (student) gr_sanitize_name(student, who, sizeof who);
    else {
        char tmp[PATH_MAX];
        snprintf(tmp, sizeof tmp, "%s", sub);
        size_t l = strlen(tmp);
        while (l > 1 && tmp[l - 1] == '/') tmp[--l] = 0;
        const char *b = strrchr(tmp, '/');
        gr_sanitize_name(x.check_mode ? "check" : b ? b + 1 : tmp, who, sizeof who);
    }
    snprintf(out_dir, sizeof out_dir, "%s", out ? out : x.check_mode ? "build/check" : "build/grade-out");
    if (!out) {
        size_t l = strlen(out_dir);
        if (!x.check_mode) snprintf(out_dir + l, sizeof out_dir - l, "/%s", who);
    }
    gr_mkdirs(out_dir, 0755);
    char abs[PATH_MAX];
    if (realpath(out_dir, abs)) snprintf(out_dir, sizeof out_dir, "%s", abs);
    gr_sub_result *res = calloc(1, sizeof *res);
    gr_grade_one(&x, sub, who, out_dir, res);
    int rc = gr_write_reports(&x, sub, out_dir, res, stdout);
    printf("reports: %s/feedback.md, results.json, grading.json\n", out_dir);
    int bad = res->error[0] != 0;
    for (int c = 0; c < res->n_ch; c++) bad |= !strcmp(res->ch[c].status, "grader error") || !strcmp(res->ch[c].status, "no GPU");
    free(res);
    return rc ? 5 : bad ? 3 : 0;
}
