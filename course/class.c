#define _GNU_SOURCE 1
#include "class.h"
#include "classpage.h"
#include "gpu.h"
#include "grades.h"
#include "lms.h"
#include "pipeline.h"
#include "refctr.h"
#include "refkeep.h"
#include "report.h"
#include "roster.h"
#include "sandbox.h"
#include "sanitize.h"
#include "setup.h"
#include "similarity.h"
#include "submission.h"

int gr_class_verdict(const char *subs, const char *out, int io_failed)
{
    char why[600], first[800] = "";
    int n, not_graded = 0, no_gpu = 0;
    gr_roster_entry *e = gr_roster_scan(subs, &n, why, sizeof why);
    for (int i = 0; e && i < n; i++) {
        if (!gr_roster_pending(out, e[i].folder)) continue;
        char p[PATH_MAX];
        snprintf(p, sizeof p, "%s/%s/grading.json", out, e[i].folder);
        json_t *g = json_load_file(p, 0, NULL);
        const char *st = json_string_value(json_object_get(g, "status"));
        const char *err = json_string_value(json_object_get(g, "error"));
        not_graded++;
        no_gpu += st && gr_sub_status_parse(st) == GR_SUB_NO_GPU;
        if (!first[0]) snprintf(first, sizeof first, "%s: %s", e[i].student, err && *err ? err : g ? "no reason recorded" : "no grading.json");
        json_decref(g);
    }
    free(e);
    for (char *c = first; *c; c++)
        if (*c == '\n' || *c == '\r') *c = ' ';
    if (not_graded)
        fprintf(stderr, "grade: %d of %d entries not graded (no score written: an empty cell and the reason in grades.csv; "
                        "the next run grades them again); first: %s\n", not_graded, n, first);
    return gr_exit_class(not_graded, no_gpu, io_failed);
}

/* The entries of subs (roster.h gr_roster_is_entry), or -1 if it cannot be read. */
static int gr_class_count(const char *subs, int loose)
{
    DIR *d = opendir(subs);
    if (!d) return -1;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        char p[PATH_MAX];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", subs, de->d_name);
        if (!stat(p, &st)) n += gr_roster_is_entry(de->d_name, S_ISDIR(st.st_mode), S_ISREG(st.st_mode), loose);
    }
    closedir(d);
    return n;
}

int gr_class_precheck(const gr_course *c, const char *subs, char *why, size_t len)
{
    struct stat st;
    int kind = c->lms == -2 ? (int)gr_lms_detect(subs, NULL, 0) : c->lms, n;
    if (!subs[0]) snprintf(why, len, "grade: --class '': no folder named (the class is a folder of submissions: SUBS=dir)");
    else if (stat(subs, &st)) snprintf(why, len, "grade: --class %s: %s (the class is a folder of submissions)", subs, strerror(errno));
    else if (!S_ISDIR(st.st_mode)) snprintf(why, len, "grade: --class %s is not a folder (the class is a folder of submissions)", subs);
    else if ((n = gr_class_count(subs, kind != GR_LMS_PLAIN)) < 0) snprintf(why, len, "grade: --class %s cannot be read: %s", subs, strerror(errno));
    else if (!n)
        snprintf(why, len, "grade: --class %s holds no submission (a folder or an archive per student, or an LMS's "
                           "download): nothing graded, nothing written", subs);
    else if (c->roster[0]) {
        char err[600];
        gr_person *r = gr_lms_roster_read(c->roster, &n, err, sizeof err);
        if (r) return free(r), 0;
        snprintf(why, len, "grade: %s", err);
    } else return 0;
    return -1;
}

/* A grader running (pid 0: a free slot): its GPU (index among the visible ones), where its reports go and whose
 * they are. */
typedef struct {
    pid_t pid;
    int gpu;
    char out[PATH_MAX], who[128];
} gr_slot;

/* Whether the runs reach the GPU under bubblewrap (gr_gpu_probe), asked once on chapter ch's reference for every
 * entry: the host's answer, not a submission's. Left to each grading where no scratch folder can be made. */
static void gr_class_gpu_probe(gr_config *x, const gr_chapter_rubric *ch)
{
    char closed[PATH_MAX], ref[PATH_MAX];
    gr_sub_state s = {.san = &x->san};
    if (gr_runs_mkdtemp(x->janitor, "wb-gpu-probe", 0711, s.work, sizeof s.work, closed, sizeof closed)) return;
    if (gr_have_reference(x, s.work, ch, ref, sizeof ref)) {
        gr_gpu_probe(x, &s, ref, ch, s.work);
        x->gpu_way = s.gpu_way;
    }
    gr_janitor_rm(x->janitor, s.work);
}

/* Before any entry (the configuration's last fill): the references built once (graders would race to build
 * them), then with them whether runs reach the GPU under bubblewrap, how compute-sanitizer runs here, and the
 * references' counters on this GPU (issue 64: on a fresh machine a slow variant's feedback named no cause). */
static void gr_class_prepare(gr_config *x)
{
    const gr_chapter_rubric *first = NULL;
    for (int i = 0; i < x->rub.n_ch; i++) {
        char ref[PATH_MAX], pristine[PATH_MAX];
        if ((!x->only_ch || x->rub.ch[i].number == x->only_ch) && gr_pristine_path(x, &x->rub.ch[i], pristine, sizeof pristine) &&
            gr_have_reference(x, NULL, &x->rub.ch[i], ref, sizeof ref) && !first)
            first = &x->rub.ch[i];
    }
    if (first) gr_class_gpu_probe(x, first); /* whether the runs reach the GPU under bubblewrap: the host's answer */
    if (!x->no_san && x->mode != GR_MODE_CHECK) {
        gr_san_probe(x, NULL, &x->san);
        LOG(x, "sanitizer: %s", x->san.line);
    }
    if (!x->no_perf) gr_refctr_make(x);
}

int gr_class_pick_gpu(const int *busy, int ngpu)
{
    int best = 0;
    for (int g = 1; g < ngpu; g++)
        if (busy[g] < busy[best]) best = g;
    return best;
}

int gr_class_default_jobs(int ngpu, long ncpu)
{
    long cpu_cap = ncpu * 3 / 4 > 0 ? ncpu * 3 / 4 : 1;
    long want = ngpu == 1 ? 12 : ngpu > 1 ? 8L * ngpu : ncpu / 4;
    return (int)(want < 1 ? 1 : want > cpu_cap ? cpu_cap : want);
}

/* Entry e of the class subs graded in a process of its own, in slot k, on the GPU with the fewest graders running. */
static void gr_class_start(const gr_config *x, gr_slot *sl, int jobs, int ngpu, int k, const char *subs,
                           const gr_roster_entry *e)
{
    ngpu = ngpu > 0 ? ngpu : 1;
    int busy[ngpu]; /* graders running per GPU */
    memset(busy, 0, sizeof busy);
    for (int s = 0; s < jobs; s++)
        if (sl[s].pid) busy[sl[s].gpu]++;
    sl[k].gpu = gr_class_pick_gpu(busy, ngpu);
    snprintf(sl[k].out, sizeof sl[k].out, "%s/%s", x->out, e->folder);
    snprintf(sl[k].who, sizeof sl[k].who, "%s", e->student);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        char entry[PATH_MAX];
        gr_config mine = *x; /* this grading child's configuration: its GPU */
        mine.gpu = sl[k].gpu;
        mine.chapters_at_once = jobs <= ngpu; /* one grader per GPU: nothing else shares it */
        snprintf(entry, sizeof entry, "%s/%s", subs, e->entry);
        gr_sub_result *res = calloc(1, sizeof *res);
        gr_grade_one(&mine, entry, sl[k].who, sl[k].out, res);
        int wrc = gr_write_reports(&mine, entry, sl[k].out, res, stdout);
        fflush(NULL);
        _exit(wrc ? GR_EXIT_IO : GR_EXIT_OK); /* anything else: the grader broke on it */
    }
    sl[k].pid = pid;
}

/* Seconds as "42s", "3m05s" or "1h02m". */
static void gr_duration(double s, char *out, size_t len)
{
    long t = s > 0 ? (long)(s + 0.5) : 0;
    if (t < 60) snprintf(out, len, "%lds", t);
    else if (t < 3600) snprintf(out, len, "%ldm%02lds", t / 60, t % 60);
    else snprintf(out, len, "%ldh%02ldm", t / 3600, (t % 3600) / 60);
}

void gr_class_progress(int done, int total, double elapsed_s, char *out, size_t len)
{
    char so_far[32], left[32];
    gr_duration(elapsed_s, so_far, sizeof so_far);
    if (done >= total) snprintf(out, len, "all %d entries done in %s", total, so_far);
    else if (done <= 0) snprintf(out, len, "0/%d entries done, %s so far", total, so_far);
    else {
        gr_duration(elapsed_s / done * (total - done), left, sizeof left);
        snprintf(out, len, "%d/%d entries done, %s so far, about %s left", done, total, so_far, left);
    }
}

void gr_class_rate(int graded, double wall_s, int ngpu, char *out, size_t len)
{
    char took[32];
    int g = ngpu > 0 ? ngpu : 1;
    gr_duration(wall_s, took, sizeof took);
    if (graded <= 0 || wall_s <= 0) snprintf(out, len, "nothing graded in %s", took);
    else
        snprintf(out, len, "%d graded in %s on %d GPU%s: %.1f submissions per GPU-hour", graded, took, g,
                 g == 1 ? "" : "s", graded * 3600.0 / (wall_s * g));
}

/* A grader ended (pid w, status st): its slot is free; if it failed on its entry, that is recorded and
 * the class goes on. Returns the slot, or -1 if w was none of the class's graders. */
static int gr_class_reap(gr_slot *sl, int jobs, pid_t w, int st)
{
    for (int s = 0; s < jobs; s++) {
        if (sl[s].pid != w) continue;
        sl[s].pid = 0;
        char done[PATH_MAX + 16];
        snprintf(done, sizeof done, "%s/grading.json", sl[s].out);
        if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && gr_is_file(done)) return s;
        gr_sub_result *res = calloc(1, sizeof *res);
        snprintf(res->student, sizeof res->student, "%s", sl[s].who);
        res->mode = GR_MODE_GRADE;
        res->status = GR_SUB_GRADER_CRASHED;
        snprintf(res->error, sizeof res->error, "the grader failed on this submission (%s %d); "
                                                "the next run grades it again",
                 WIFSIGNALED(st) ? "signal" : "exit", WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
        gr_mkdirs(sl[s].out, 0755);
        gr_write_grading_json(done, res);
        free(res);
        return s;
    }
    return -1;
}

int gr_class(gr_course *c, const char *subs)
{
    gr_config *x = &c->judge;
    const char *files[GR_MAX_CH]; /* the chapters' files: a Canvas upload "reversal-1.cu" is graded as reversal.cu */
    char staged[PATH_MAX], why[700]; /* subs itself, or the LMS's bulk download staged one entry a student (lms.h) */
    for (int k = 0; k < x->rub.n_ch; k++) files[k] = x->rub.ch[k].file;
    if (gr_lms_stage(subs, x->out, c->roster, c->lms, files, x->rub.n_ch, staged, sizeof staged, why, sizeof why))
        return gr_stop(2, "grade: %s", why);
    if (strcmp(staged, subs)) LOG(x, "LMS export staged one entry a student in %s (who is who: %s/lms.json)", staged, x->out);
    int n, todo = 0;
    gr_roster_entry *e = gr_roster_record(staged, x->out, &n); /* <out>/roster.json: the LMS name of every folder */
    if (!e) return GR_EXIT_USAGE; /* entries that collide, or roster.json not written (said on stderr) */
    for (int i = 0; i < n; i++) /* what this run grades: what was not graded (all with --force) */
        if (x->force || gr_roster_pending(x->out, e[i].folder)) e[todo++] = e[i];
    int ngpu = gr_gpu_count();
    gr_class_prepare(x);
    int jobs = x->jobs > 0 ? x->jobs : gr_class_default_jobs(ngpu, sysconf(_SC_NPROCESSORS_ONLN));
    if (ngpu) LOG(x, "%d entries, %d GPU(s), %d parallel graders", n, ngpu, jobs);
    else LOG(x, "%d entries, no GPU listed by nvidia-smi, %d parallel graders", n, jobs);
    gr_slot *sl = calloc((size_t)jobs, sizeof *sl);
    int finished = 0, keep = gr_gpu_keep(x->root);
    gr_keep_open(x); /* the reference's runs, shared by the entries */
    double t0 = gr_now();
    for (int i = 0, running = 0; i < todo || running;) {
        int k = 0;
        while (k < jobs && sl[k].pid) k++; /* a free slot, else wait for a grader to end */
        if (i < todo && k < jobs) {
            gr_class_start(x, sl, jobs, ngpu, k, staged, &e[i++]);
            running++;
            continue;
        }
        int st;
        pid_t w = waitpid(-1, &st, 0);
        if ((k = gr_class_reap(sl, jobs, w, st)) < 0) continue;
        running--;
        char line[200];
        gr_class_progress(++finished, todo, gr_now() - t0, line, sizeof line);
        if (!x->quiet) fprintf(stderr, "grade: %s (%s)\n", line, sl[k].who);
    }
    if (keep >= 0) close(keep);
    gr_keep_close(x);
    free(sl);
    free(e);
    char rate[160];
    gr_class_rate(todo, gr_now() - t0, ngpu, rate, sizeof rate);
    LOG(x, "%s; skipped %d already graded (use --force to regrade)", rate, n - todo);
    return gr_class_close(c, staged);
}

int gr_class_close(const gr_course *c, const char *subs)
{
    const gr_config *x = &c->judge;
    int io_failed = gr_write_class(x->out, &x->rub, stdout) < 0;
    if (io_failed) fprintf(stderr, "grade: cannot write %s/grades.csv: %s\n", x->out, strerror(errno));
    char why[700], p[PATH_MAX]; /* the course's pages: never a failure of the class, what cannot be made is said */
    if (c->sim_threshold > 0) {
        if (gr_similarity(x, subs, c->sim_threshold)) fprintf(stderr, "grade: could not write %s/similarity.json\n", x->out);
    } else {
        snprintf(p, sizeof p, "%s/similarity.json", x->out);
        unlink(p); /* turned off: the page must not show an old run's pairs */
    }
    if (gr_write_canvas(x->out, c->assignment, why, sizeof why) < 0)
        fprintf(stderr, "grade: no canvas-grades.csv: %s\n", why);
    int n = gr_class_page(x->out, &x->rub);
    if (n >= 0) LOG(x, "class page: %s/class.html (%d entries); Canvas import: %s/canvas-grades.csv", x->out, n, x->out);
    return gr_class_verdict(subs, x->out, io_failed);
}
