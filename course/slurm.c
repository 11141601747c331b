/* The cluster schedules; this file decides what is left, writes the scripts and runs sbatch --parsable.
 * Paths in scripts are single-quoted; a task's arguments are a NUL-separated file for `xargs -0`, so no
 * student's name ever passes through a shell. */
#define _GNU_SOURCE 1
#include "slurm.h"

#include "class.h"
#include "report.h"
#include "roster.h"
#include "tool.h"

static void sq(gr_str *b, const char *s) /* single-quoted for sh */
{
    gr_str_add(b, "'");
    for (; *s; s++) {
        if (*s == '\'') gr_str_add(b, "'\\''");
        else gr_str_addn(b, s, 1);
    }
    gr_str_add(b, "'");
}

/* This round: the options, and its absolute paths: the course program (the merge), the judge beside it
 * (the tasks), the workbook, the class, the output and the round's folder. */
typedef struct {
    const gr_slurm_opts *so;
    int force;
    char self[PATH_MAX], judge[PATH_MAX + 8], root[PATH_MAX], subs[PATH_MAX], out[PATH_MAX], rd[PATH_MAX + 64];
} job_round;

static int resolve(job_round *r, const char *subs, const char *out)
{
    ssize_t sl = readlink("/proc/self/exe", r->self, sizeof r->self - 1);
    if (sl <= 0 || !getcwd(r->root, sizeof r->root) || !realpath(subs, r->subs)) {
        fprintf(stderr, "grade: cannot resolve the grader, the workbook or %s\n", subs);
        return 2;
    }
    r->self[sl] = 0;
    snprintf(r->judge, sizeof r->judge, "%.*s/grade", (int)(strrchr(r->self, '/') - r->self), r->self);
    if (gr_mkdirs(out, 0755) || !realpath(out, r->out)) {
        fprintf(stderr, "grade: cannot create the output folder %s\n", out);
        return 2;
    }
    return 0;
}

/* This round's folder (scripts, task arguments, logs), and in it one NUL-separated argument file per
 * submission left to grade; returns how many (or -1). */
static int write_tasks(job_round *r, const gr_roster_entry *e, int n)
{
    int m = 0;
    snprintf(r->rd, sizeof r->rd, "%s/slurm", r->out);
    mkdir(r->rd, 0755);
    snprintf(r->rd, sizeof r->rd, "%s/slurm/round-%ld-%d", r->out, (long)time(NULL), (int)getpid());
    if (mkdir(r->rd, 0755)) {
        fprintf(stderr, "grade: cannot create %s: %s\n", r->rd, strerror(errno));
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (!r->force && !gr_roster_pending(r->out, e[i].folder)) continue;
        char p[PATH_MAX + 128];
        snprintf(p, sizeof p, "%s/task-%d.args", r->rd, m);
        FILE *f = fopen(p, "wb");
        if (!f) { fprintf(stderr, "grade: cannot write %s\n", p); return -1; }
        for (int k = 0; k < r->so->n_judge; k++) fprintf(f, "%s%c", r->so->judge[k], 0);
        if (r->force) fprintf(f, "--force%c", 0);
        fprintf(f, "--student%c%s%c--out%c%s/%s%c%s/%s%c", 0, e[i].student, 0, 0, r->out, e[i].folder, 0, r->subs,
                e[i].entry, 0);
        fclose(f);
        printf("slurm task %d: %s\n", m, e[i].student);
        m++;
    }
    return m;
}

/* A job script: its #SBATCH lines (name, log, time limit, partition, then extra), then a body that starts
 * in the workbook and replaces the shell with the command the caller adds. */
static void script(gr_str *s, const job_round *r, const char *name, const char *log, const char *extra)
{
    gr_str_addf(s, "#!/bin/bash\n#SBATCH --job-name=%s\n#SBATCH --output=", name);
    sq(s, log);
    gr_str_addf(s, "\n#SBATCH --time=%d\n", r->so->minutes);
    if (r->so->partition) gr_str_addf(s, "#SBATCH --partition=%s\n", r->so->partition);
    gr_str_add(s, extra);
    gr_str_add(s, "cd ");
    sq(s, r->root);
    gr_str_add(s, " || exit 2\nexec ");
}

/* Writes script s (freed) to <round>/file and runs `sbatch --parsable FLAGS… file` (flags NULL-terminated;
 * stderr passed on), the job's id into id. Returns 0, 2 (cannot write) or 4 (sbatch failed, said as the
 * job `what`). Waited for (--wait), it runs as long as the class, a week at most, and exits as the job did:
 * not 0 also when entries were not graded, so only its id counts then (the class's verdict is read from the
 * output folder). */
static int submit(const job_round *r, const char *file, const char *what, gr_str *s, char *const *flags, int wait,
                  char *id, size_t len)
{
    char p[PATH_MAX + 64], *av[8] = {"sbatch", "--parsable"};
    int n = 2;
    snprintf(p, sizeof p, "%s/%s", r->rd, file);
    int bad = gr_write_file(p, s->s, s->len);
    gr_str_free(s);
    if (bad) return 2;
    for (; *flags; flags++) av[n++] = *flags;
    av[n] = p;
    gr_str out = {0}, err = {0};
    int rc = gr_tool_run(av, NULL, &out, &err, wait ? 7 * 24 * 3600 : 300);
    fputs(gr_str_c(&err), stderr);
    snprintf(id, len, "%.*s", (int)strcspn(gr_str_c(&out), ";\r\n "), gr_str_c(&out));
    gr_str_free(&out);
    gr_str_free(&err);
    if (*id && (!rc || wait)) return 0;
    fprintf(stderr, "grade: sbatch failed for %s (exit %d)\n", what, rc);
    return 4;
}

/* The references' counters on a GPU node, once, before the array's tasks (issue 64): `grade --reference-counters`
 * with the judge's options; its id into id. Returns 0, 2 or 4 (submit). */
static int submit_counters(const job_round *r, char *id, size_t len)
{
    char log[PATH_MAX + 64];
    gr_str s = {0}, extra = {0};
    snprintf(log, sizeof log, "%s/counters.log", r->rd);
    if (r->so->gres) gr_str_addf(&extra, "#SBATCH --gres=%s\n", r->so->gres);
    script(&s, r, "wb-grade-counters", log, extra.s ? extra.s : "");
    gr_str_free(&extra);
    sq(&s, r->judge);
    for (int k = 0; k < r->so->n_judge; k++) gr_str_add(&s, " "), sq(&s, r->so->judge[k]);
    gr_str_add(&s, " --reference-counters\n");
    char *none[] = {NULL};
    int rc = submit(r, "counters.sh", "the reference counters job", &s, none, 0, id, len);
    if (!rc) printf("slurm: reference counters job %s\n", id);
    return rc;
}

/* The job array of m tasks, after the counters job (afterany: a task whose GPU found none kept makes its own);
 * its id into id. Returns 0, 2 or 4 (submit). */
static int submit_array(const job_round *r, int m, const char *ctr_id, char *id, size_t len)
{
    char log[PATH_MAX + 64], dep[96];
    gr_str s = {0}, extra = {0};
    snprintf(log, sizeof log, "%s/task-%%a.log", r->rd);
    gr_str_addf(&extra, "#SBATCH --array=0-%d\n", m - 1);
    if (r->so->gres) gr_str_addf(&extra, "#SBATCH --gres=%s\n", r->so->gres);
    gr_str_add(&extra, "# one submission, the grader's single-submission mode, the same sandbox\n");
    script(&s, r, "wb-grade", log, extra.s);
    gr_str_free(&extra);
    gr_str_add(&s, "xargs -0 -a ");
    sq(&s, r->rd);
    gr_str_add(&s, "/task-\"$SLURM_ARRAY_TASK_ID\".args ");
    sq(&s, r->judge);
    gr_str_add(&s, "\n");
    snprintf(dep, sizeof dep, "--dependency=afterany:%s", ctr_id);
    char *flags[] = {ctr_id[0] ? dep : NULL, NULL};
    int rc = submit(r, "array.sh", "the job array", &s, flags, 0, id, len);
    if (!rc) printf("slurm: job array %s, %d task(s)\n", id, m);
    return rc;
}

/* The merge: grades.csv and the summary from every folder, afterany the array (array_id "": none) so
 * that failures are listed; waited for unless --no-wait. Returns 0, 2 or 4. */
static int submit_merge(const job_round *r, const char *array_id)
{
    char log[PATH_MAX + 64], merge_id[64] = "", dep[96];
    gr_str s = {0};
    snprintf(log, sizeof log, "%s/merge.log", r->rd);
    script(&s, r, "wb-grade-merge", log, "");
    sq(&s, r->self);
    for (int k = 0; k < r->so->n_judge + r->so->n_course; k++) {
        gr_str_add(&s, " ");
        sq(&s, k < r->so->n_judge ? r->so->judge[k] : r->so->course[k - r->so->n_judge]);
    }
    gr_str_add(&s, " --merge --class ");
    sq(&s, r->subs);
    gr_str_add(&s, " --out ");
    sq(&s, r->out);
    gr_str_add(&s, "\n");
    snprintf(dep, sizeof dep, "--dependency=afterany:%s", array_id);
    char *flags[3] = {NULL}, **f = flags;
    if (r->so->wait) *f++ = "--wait";
    if (array_id[0]) *f = dep;
    int rc = submit(r, "merge.sh", "the merge job", &s, flags, r->so->wait, merge_id, sizeof merge_id);
    if (rc) return rc;
    printf("slurm: merge job %s%s\n", merge_id, r->so->wait ? " done" : " submitted (--no-wait)");
    if (!r->so->wait) return 0;
    char g[PATH_MAX + 32];
    snprintf(g, sizeof g, "%s/grades.csv", r->out);
    if (access(g, R_OK)) { fprintf(stderr, "grade: the merge job wrote no grades.csv (see %s)\n", log); return 4; }
    printf("slurm: %s\n", g);
    return gr_class_verdict(r->subs, r->out, 0);
}

int gr_slurm_class(const gr_slurm_opts *so, const char *subs, const char *out, int force)
{
    job_round r = {.so = so, .force = force};
    char array_id[64] = "";
    int n, rc = resolve(&r, subs, out ? out : "build/grades");
    if (rc) return rc;
    gr_roster_entry *e = gr_roster_record(r.subs, r.out, &n);
    if (!e) return 2;
    int m = write_tasks(&r, e, n);
    free(e);
    if (m < 0) return 2;
    char ctr_id[64] = "";
    if (m > 0 && (rc = submit_counters(&r, ctr_id, sizeof ctr_id))) return rc;
    if (m > 0 && (rc = submit_array(&r, m, ctr_id, array_id, sizeof array_id))) return rc;
    if (!m) printf("slurm: nothing left to grade (use --force to regrade)\n");
    return submit_merge(&r, array_id);
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
