/* The Slurm engine. The cluster does the scheduling; this file only decides what is left to grade,
 * writes the job scripts, and runs sbatch with --parsable (tool.h), checking every exit status. Paths in the
 * scripts are single-quoted; each task's arguments are a NUL-separated file handed to the grader by
 * `xargs -0`, so no student's name ever passes through a shell. */
#define _GNU_SOURCE 1
#pragma GCC diagnostic ignored "-Wformat-truncation" /* paths are bounded by PATH_MAX */
#include "slurm.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "class.h"
#include "report.h"
#include "roster.h"
#include "tool.h"

static void sq(FILE *f, const char *s) /* single-quoted for sh */
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'') fputs("'\\''", f);
        else fputc(*s, f);
    }
    fputc('\'', f);
}

/* sbatch --parsable (argv): the job's id ("id" or "id;cluster") into id, its messages passed on to stderr;
 * returns its exit status. Waited for (--wait), it runs as long as the class: a week at most. */
static int sbatch(char *const argv[], int wait, char *id, size_t len)
{
    gr_str out = {0}, err = {0};
    int rc = gr_tool_run(argv, NULL, &out, &err, wait ? 7 * 24 * 3600 : 300);
    fputs(gr_str_c(&err), stderr);
    snprintf(id, len, "%.*s", (int)strcspn(gr_str_c(&out), ";\r\n "), gr_str_c(&out));
    gr_str_free(&out);
    gr_str_free(&err);
    return rc;
}

/* This round: the options, and the class and output folders the command line named. */
typedef struct {
    const gr_slurm_opts *so;
    const char *subs, *out;
    int force;
} opts;

/* Job script <round>/file (its path into p) opened for writing, its header written: NULL if it cannot be. */
static FILE *script(const opts *o, const char *rd, const char *file, const char *name, const char *log, char *p, size_t len)
{
    snprintf(p, len, "%s/%s", rd, file);
    FILE *f = fopen(p, "w");
    if (!f) return NULL;
    fprintf(f, "#!/bin/bash\n#SBATCH --job-name=%s\n#SBATCH --output=", name);
    sq(f, log);
    fprintf(f, "\n#SBATCH --time=%d\n", o->so->minutes);
    if (o->so->partition) fprintf(f, "#SBATCH --partition=%s\n", o->so->partition);
    return f;
}

/* A job script's body starts in the workbook and replaces the shell with the grader's command. */
static void cd_exec(FILE *f, const char *root)
{
    fputs("cd ", f);
    sq(f, root);
    fputs(" || exit 2\nexec ", f);
}

/* This round's absolute paths: the course program (the merge), the judge beside it (the tasks), the
 * workbook, the class, the output and the round's folder. */
typedef struct {
    char self[PATH_MAX], judge[PATH_MAX + 8], root[PATH_MAX], subs[PATH_MAX], out[PATH_MAX], rd[PATH_MAX + 64];
} round_paths;

static int resolve(const opts *o, round_paths *r)
{
    ssize_t sl = readlink("/proc/self/exe", r->self, sizeof r->self - 1);
    if (sl <= 0 || !getcwd(r->root, sizeof r->root) || !realpath(o->subs, r->subs)) {
        fprintf(stderr, "grade: cannot resolve the grader, the workbook or %s\n", o->subs);
        return 2;
    }
    r->self[sl] = 0;
    snprintf(r->judge, sizeof r->judge, "%.*s/grade", (int)(strrchr(r->self, '/') - r->self), r->self);
    if (gr_mkdirs(o->out, 0755) || !realpath(o->out, r->out)) {
        fprintf(stderr, "grade: cannot create the output folder %s\n", o->out);
        return 2;
    }
    return 0;
}

/* this round's folder: scripts, task arguments, logs */
static int make_round_dir(round_paths *r)
{
    snprintf(r->rd, sizeof r->rd, "%s/slurm", r->out);
    mkdir(r->rd, 0755);
    snprintf(r->rd, sizeof r->rd, "%s/slurm/round-%ld-%d", r->out, (long)time(NULL), (int)getpid());
    if (mkdir(r->rd, 0755)) {
        fprintf(stderr, "grade: cannot create %s: %s\n", r->rd, strerror(errno));
        return 2;
    }
    return 0;
}

/* One NUL-separated argument file per submission left to grade; returns how many (or -1). */
static int write_tasks(const opts *o, const round_paths *r, const gr_roster_entry *e, int n)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (!o->force && !gr_roster_pending(r->out, e[i].folder)) continue;
        char p[PATH_MAX + 128];
        snprintf(p, sizeof p, "%s/task-%d.args", r->rd, m);
        FILE *f = fopen(p, "wb");
        if (!f) { fprintf(stderr, "grade: cannot write %s\n", p); return -1; }
        for (int k = 0; k < o->so->n_judge; k++) fprintf(f, "%s%c", o->so->judge[k], 0);
        if (o->force) fprintf(f, "--force%c", 0);
        fprintf(f, "--student%c%s%c--out%c%s/%s%c%s/%s%c", 0, e[i].student, 0, 0, r->out, e[i].folder, 0, r->subs,
                e[i].entry, 0);
        fclose(f);
        printf("slurm task %d: %s\n", m, e[i].student);
        m++;
    }
    return m;
}

/* The job array of m tasks; its id into id. Returns 0, 2 (cannot write) or 4 (sbatch failed). */
static int submit_array(const opts *o, const round_paths *r, int m, char *id, size_t len)
{
    char p[PATH_MAX + 64], log[PATH_MAX + 64];
    snprintf(log, sizeof log, "%s/task-%%a.log", r->rd);
    FILE *f = script(o, r->rd, "array.sh", "wb-grade", log, p, sizeof p);
    if (!f) return 2;
    fprintf(f, "#SBATCH --array=0-%d\n", m - 1);
    if (o->so->gres) fprintf(f, "#SBATCH --gres=%s\n", o->so->gres);
    fputs("# one submission, the grader's single-submission mode, the same sandbox\n", f);
    cd_exec(f, r->root);
    fputs("xargs -0 -a ", f);
    sq(f, r->rd);
    fputs("/task-\"$SLURM_ARRAY_TASK_ID\".args ", f);
    sq(f, r->judge);
    fputs("\n", f);
    fclose(f);
    char *av[] = {"sbatch", "--parsable", p, NULL};
    int rc = sbatch(av, 0, id, len);
    if (rc || !*id) {
        fprintf(stderr, "grade: sbatch failed for the job array (exit %d)\n", rc);
        return 4;
    }
    printf("slurm: job array %s, %d task(s)\n", id, m);
    return 0;
}

/* The merge: grades.csv and the summary from every folder, afterany the array (array_id "": none) so
 * that failures are listed; waited for unless --no-wait. Returns 0, 2 or 4. */
static int submit_merge(const opts *o, const round_paths *r, const char *array_id)
{
    char p[PATH_MAX + 64], log[PATH_MAX + 64], merge_id[64] = "";
    snprintf(log, sizeof log, "%s/merge.log", r->rd);
    FILE *f = script(o, r->rd, "merge.sh", "wb-grade-merge", log, p, sizeof p);
    if (!f) return 2;
    cd_exec(f, r->root);
    sq(f, r->self);
    for (int k = 0; k < o->so->n_judge + o->so->n_course; k++) {
        fputc(' ', f);
        sq(f, k < o->so->n_judge ? o->so->judge[k] : o->so->course[k - o->so->n_judge]);
    }
    fputs(" --merge --class ", f);
    sq(f, r->subs);
    fputs(" --out ", f);
    sq(f, r->out);
    fputs("\n", f);
    fclose(f);
    char dep[96];
    snprintf(dep, sizeof dep, "--dependency=afterany:%s", array_id);
    char *av[6] = {"sbatch", "--parsable"}, **a = av + 2;
    if (o->so->wait) *a++ = "--wait";
    if (array_id[0]) *a++ = dep;
    *a = p;
    /* Waited for, sbatch exits as the merge job did: not 0 also when entries were not graded, so the
     * class's own verdict is read from the output folder rather than taken from sbatch. */
    int rc = sbatch(av, o->so->wait, merge_id, sizeof merge_id);
    if (!merge_id[0] || (rc && !o->so->wait)) {
        fprintf(stderr, "grade: sbatch failed for the merge job (exit %d)\n", rc);
        return 4;
    }
    printf("slurm: merge job %s%s\n", merge_id, o->so->wait ? " done" : " submitted (--no-wait)");
    if (!o->so->wait) return 0;
    char g[PATH_MAX + 32];
    snprintf(g, sizeof g, "%s/grades.csv", r->out);
    if (access(g, R_OK)) { fprintf(stderr, "grade: the merge job wrote no grades.csv (see %s)\n", log); return 4; }
    printf("slurm: %s\n", g);
    return gr_class_verdict(r->subs, r->out, 0);
}

int gr_slurm_class(const gr_slurm_opts *so, const char *subs, const char *out, int force)
{
    opts o = {so, subs, out ? out : "build/grades", force};
    round_paths r = {0};
    char array_id[64] = "";
    int n, rc = resolve(&o, &r);
    if (rc) return rc;
    gr_roster_entry *e = gr_roster_record(r.subs, r.out, &n);
    if (!e) return 2;
    int m = make_round_dir(&r) ? -1 : write_tasks(&o, &r, e, n);
    free(e);
    if (m < 0) return 2;
    if (m > 0 && (rc = submit_array(&o, &r, m, array_id, sizeof array_id))) return rc;
    if (!m) printf("slurm: nothing left to grade (use --force to regrade)\n");
    return submit_merge(&o, &r, array_id);
}

int gr_slurm_merge(const gr_course *c, const char *subs)
{
    const char *out_dir = c->judge.out;
    int n;
    gr_roster_entry *e = gr_roster_record(subs, out_dir, &n);
    if (!e) return 2;
    /* every student accounted for: a task that never wrote its result is listed with the reason */
    for (int i = 0; i < n; i++) {
        char d[PATH_MAX], g[PATH_MAX + 32];
        snprintf(d, sizeof d, "%s/%s", out_dir, e[i].folder);
        snprintf(g, sizeof g, "%s/grading.json", d);
        if (!access(g, F_OK)) continue;
        gr_sub_result *r = calloc(1, sizeof *r);
        snprintf(r->student, sizeof r->student, "%s", e[i].student);
        r->mode = GR_MODE_GRADE;
        snprintf(r->error, sizeof r->error, "not graded: its Slurm task did not finish; the next run retries it");
        mkdir(d, 0755);
        gr_write_grading_json(g, r);
        free(r);
    }
    free(e);
    return gr_class_close(c, subs); /* as a class graded here: its pages, and not graded is not 0 */
}
