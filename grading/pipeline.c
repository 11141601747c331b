/* pipeline.c — see pipeline.h. */
#define _GNU_SOURCE 1
#include "pipeline.h"
#include "studentpage.h"
#include "evidence.h"
#include "build.h"
#include "correctness.h"
#include "gpu.h"
#include "honesty.h"
#include "perf.h"
#include "report.h"
#include "sanitize.h"
#include "submission.h"

#include <sys/mman.h>

/* ---------------------------------------------------------------- one chapter: a table of steps */
/* One chapter of one submission as its steps go: what each step leaves for the next. */
typedef struct {
    const gr_config *x;
    gr_sub_state *s;
    const gr_chapter_rubric *ch;
    gr_ch_result *cr;
    const char *sub;                /* the submission's root */
    char cw[PATH_MAX];              /* the chapter's work tree (its build is in cw/build) */
    char stu[PATH_MAX], ref[PATH_MAX];
    int have_ref;                   /* a reference to hold the student to (else: check mode, own verdicts) */
    gr_prog_variant pv[GR_MAX_VAR]; /* the program's variants and their kernels */
    int npv;
    gr_chjob job;
} gr_chapter_run;

/* The job every step works on, from the run's own fields (again after the run is moved between processes). */
static void gr_chapter_job(gr_chapter_run *r)
{
    r->job = (gr_chjob){.x = r->x, .s = r->s, .ch = r->ch, .ref = r->have_ref ? r->ref : NULL, .stu = r->stu,
                        .work = r->cw, .cr = r->cr};
}

/* What a step leaves: go on, or the chapter ends here (its status says why). */
typedef enum { GR_STEP_GO, GR_STEP_STOP } gr_step_end;

typedef struct {
    const char *name;
    int (*when)(const gr_chapter_run *r); /* from what the earlier steps left; NULL: always */
    gr_step_end (*run)(gr_chapter_run *r);
} gr_step;

static int gr_when_graded(const gr_chapter_run *r) { return r->cr->status == GR_CH_GRADED; }
static int gr_when_ref(const gr_chapter_run *r) { return gr_when_graded(r) && r->have_ref; }
static int gr_when_self(const gr_chapter_run *r) { return gr_when_graded(r) && !r->have_ref; }
static int gr_when_san(const gr_chapter_run *r) { return gr_when_graded(r) && !r->x->no_san; }
static int gr_when_perf(const gr_chapter_run *r) { return gr_when_graded(r) && !r->x->no_perf; }

/* What the build child left (build.json, compile.log), and the region screen on the student's own file
 * (what was spliced), also when the build failed (a library call that did not link is still named): its
 * findings cost points once every step has run (gr_step_caught) and are told whatever the verdicts. */
static gr_step_end gr_step_build(gr_chapter_run *r)
{
    gr_ch_result *cr = r->cr;
    char path[PATH_MAX];
    gr_build_report rep;
    snprintf(path, sizeof path, "%s/build.json", r->cw);
    if (gr_build_report_read(path, &rep)) {
        rep.status = GR_CH_BUILD_FAILED;
        snprintf(rep.reason, sizeof rep.reason, "the build process died");
    }
    snprintf(path, sizeof path, "%s/compile.log", r->cw);
    size_t ll;
    cr->compile_log = gr_read_capped(path, 1 << 20, &ll);
    snprintf(cr->outside, sizeof cr->outside, "%s", rep.outside);
    if (gr_find_student_file(r->sub, r->ch, r->stu, sizeof r->stu, 0)) {
        size_t sl;
        char *text = gr_read_capped(r->stu, 1 << 22, &sl);
        if (text) gr_honesty_screen(r->ch, text, sl, cr);
        free(text);
    }
    if (rep.status == GR_CH_GRADED) return GR_STEP_GO;
    cr->status = rep.status;
    snprintf(cr->reason, sizeof cr->reason, "%s", rep.reason);
    return GR_STEP_STOP;
}

/* The reference to hold the student to; without one only the practice run (--check) goes on. */
static gr_step_end gr_step_reference(gr_chapter_run *r)
{
    snprintf(r->stu, sizeof r->stu, "%s/build/prog", r->cw);
    r->have_ref = gr_have_reference(r->x, r->s->work, r->ch, r->ref, sizeof r->ref);
    gr_chapter_job(r);
    if (r->have_ref || r->x->mode == GR_MODE_CHECK) return GR_STEP_GO;
    r->cr->status = GR_CH_GRADER_ERROR;
    snprintf(r->cr->reason, sizeof r->cr->reason, "no reference build/solution%d (is solutions/ here?)", r->ch->number);
    return GR_STEP_STOP;
}

/* Whether the GPU is reached, then the program's variants: those the rubric does not list are graded for
 * information; one the rubric lists that the program lacks is the grader's error. */
static gr_step_end gr_step_variants(gr_chapter_run *r)
{
    const gr_chapter_rubric *ch = r->ch;
    gr_ch_result *cr = r->cr;
    const char *prog = r->have_ref ? r->ref : r->stu;
    char why[600];
    gr_gpu_probe(r->x, r->s, prog, ch, r->cw);
    r->npv = gr_list_variants(r->x, r->s, prog, r->cw, r->pv, GR_MAX_VAR, why, sizeof why);
    for (int v = 0; v < r->npv; v++)
        if (!gr_rubric_variant(ch, r->pv[v].name) && cr->n_v < GR_MAX_VAR) {
            gr_var_result *vr = &cr->v[cr->n_v++];
            snprintf(vr->name, sizeof vr->name, "%s", r->pv[v].name);
            snprintf(vr->rub.name, sizeof vr->rub.name, "%s", r->pv[v].name);
            vr->verdict = GR_V_NOT_RUN;
        }
    for (int v = 0; v < ch->n_var; v++) {
        int found = 0;
        for (int k = 0; k < r->npv; k++) found |= !strcmp(r->pv[k].name, ch->var[v].name);
        if (!found && r->npv) {
            cr->status = GR_CH_GRADER_ERROR;
            snprintf(cr->reason, sizeof cr->reason, "the rubric names variant '%s', which the program does not have",
                     ch->var[v].name);
        }
    }
    if (!r->npv) {
        cr->status = GR_CH_GRADER_ERROR;
        snprintf(cr->reason, sizeof cr->reason, "%s", why);
    }
    return GR_STEP_GO;
}

/* Every variant's verdict against the reference (correctness.h); a reference that cannot run is the
 * grader's error, or no GPU. */
static gr_step_end gr_step_correctness(gr_chapter_run *r)
{
    char why[600];
    int rc = gr_correctness(&r->job, why, sizeof why);
    if (rc) {
        r->cr->status = rc == -3 ? GR_CH_NO_GPU : GR_CH_GRADER_ERROR;
        snprintf(r->cr->reason, sizeof r->cr->reason, "%s", why);
    }
    return GR_STEP_GO;
}

/* The practice run without a reference: the program's own verdicts. */
static gr_step_end gr_step_self_check(gr_chapter_run *r)
{
    char why[600];
    r->cr->self_check = 1;
    if (gr_self_check(&r->job, why, sizeof why)) {
        r->cr->status = GR_CH_NO_GPU;
        snprintf(r->cr->reason, sizeof r->cr->reason, "%s", why);
    }
    return GR_STEP_GO;
}

/* compute-sanitizer on the variants that came out correct (gr_var_sanitized), while the budget lasts. */
static gr_step_end gr_step_sanitize(gr_chapter_run *r)
{
    gr_sanitize(&r->job, r->pv, r->npv);
    return GR_STEP_GO;
}

/* The benchmark, alone on the GPU; skipped with the reason once the GPU time is spent. */
static gr_step_end gr_step_perf(gr_chapter_run *r)
{
    char spent[300];
    if (gr_budget_spent(r->s->budget, spent, sizeof spent)) {
        snprintf(r->cr->perf_note, sizeof r->cr->perf_note, "performance %s", spent);
        return GR_STEP_GO;
    }
    gr_gpu_alone(r->s->lock); /* timed: nothing else on this GPU meanwhile */
    if (r->have_ref) gr_perf(&r->job);
    else gr_perf_self(&r->job);
    gr_gpu_release(r->s->lock);
    return GR_STEP_GO;
}

/* The diagnosis of failing variants: after perf, which it reads too. */
static gr_step_end gr_step_evidence(gr_chapter_run *r)
{
    gr_evidence(&r->job, r->pv, r->npv);
    return GR_STEP_GO;
}

/* What the region screen and honesty caught costs its points, once every step has run. */
static gr_step_end gr_step_caught(gr_chapter_run *r)
{
    for (int v = 0; v < r->cr->n_v; v++) gr_caught_apply(&r->cr->v[v]);
    return GR_STEP_GO;
}

/* A chapter's steps, in order. The bounded-cost rules live in the steps' own modules, each reading the
 * per-variant state earlier steps left: correctness never re-runs a hung variant at the full limits
 * (gr_isolate, correctness.c); the sanitizer runs on correct variants only (gr_var_sanitized) and the
 * feedback's run skips a variant that timed out (gr_var_feedback_sanitized); once the budget is spent
 * (budget.h) a step is skipped and the feedback says why. */
static const gr_step gr_steps[] = {
    {"build", NULL, gr_step_build},
    {"reference", NULL, gr_step_reference},
    {"variants", NULL, gr_step_variants},
    {"correctness", gr_when_ref, gr_step_correctness},
    {"self-check", gr_when_self, gr_step_self_check},
    {"sanitizer", gr_when_san, gr_step_sanitize},
    {"performance", gr_when_perf, gr_step_perf},
    {"evidence", gr_when_ref, gr_step_evidence},
    {"caught", NULL, gr_step_caught},
};

enum { GR_N_STEPS = sizeof gr_steps / sizeof gr_steps[0] };

/* The first step that times kernels and takes the GPU alone: the steps before it share the GPU, so the
 * chapters of one submission may run them at once (gr_grade_chapters_at_once). */
static size_t gr_first_alone_step(void)
{
    size_t i = 0;
    while (i < GR_N_STEPS && strcmp(gr_steps[i].name, "performance")) i++;
    return i;
}

/* Steps [from, to) of one chapter, each one's time kept; GR_STEP_STOP when one ended the chapter. */
static gr_step_end gr_run_steps(gr_chapter_run *r, size_t from, size_t to)
{
    gr_ch_result *cr = r->cr;
    for (size_t i = from; i < to; i++) {
        if (gr_steps[i].when && !gr_steps[i].when(r)) continue;
        double ts = gr_now();
        gr_step_end end = gr_steps[i].run(r);
        if (cr->n_step < (int)(sizeof cr->step / sizeof cr->step[0]))
            cr->step[cr->n_step++] = (typeof(cr->step[0])){gr_steps[i].name, gr_now() - ts};
        if (end == GR_STEP_STOP) return end;
    }
    return GR_STEP_GO;
}

/* A chapter whose steps all ran: its time, and its build tree removed. */
static void gr_chapter_done(gr_chapter_run *r, double seconds)
{
    char path[PATH_MAX + 8];
    r->cr->wall_s = seconds;
    snprintf(path, sizeof path, "%s/build", r->cw);
    gr_rmtree(path);
}

/* One chapter whose build was started: its steps, then its time, and its build tree removed. A step
 * that stops the chapter (its status says why) ends it there, as it is. */
static void gr_grade_chapter(const gr_config *x, gr_sub_state *s, const char *sub, const gr_chapter_rubric *ch,
                             gr_ch_result *cr)
{
    double tc = gr_now();
    gr_budget_chapter(s->budget);
    gr_chapter_run r = {.x = x, .s = s, .ch = ch, .cr = cr, .sub = sub};
    snprintf(r.cw, sizeof r.cw, "%s/ch%d-%08x", s->work, ch->number, s->salt);
    if (gr_run_steps(&r, 0, GR_N_STEPS) == GR_STEP_STOP) return;
    gr_chapter_done(&r, gr_now() - tc);
}

/* One chapter's shared-GPU steps done in a process of its own, handed back through shared memory: its
 * result (the compile log copied in: the process's heap goes with it) and what its later steps need. */
#define GR_SLOT_LOG (1 << 20)
typedef struct {
    int ran, stopped, has_log;
    gr_ch_result cr;
    char cw[PATH_MAX], stu[PATH_MAX], ref[PATH_MAX];
    int have_ref, npv;
    gr_prog_variant pv[GR_MAX_VAR];
    gr_gpu_way gpu_way;
    double chapter_s, seconds; /* its GPU-holding seconds so far; its wall time */
    char log[GR_SLOT_LOG];
} gr_ch_slot;

/* In the chapter's process: its own hold on the GPU lock (a lock is per open file, so a copy of the
 * parent's would be the parent's), its own chapter share of the budget, and the submission's as the parent
 * left it plus this chapter's own runs (the parent charges the chapters' span once they are all back). */
static void gr_chapter_shared_steps(const gr_config *x, const gr_sub_state *st, const char *sub,
                                    const gr_chapter_rubric *ch, const char *gpu_id, gr_ch_slot *sl)
{
    double t = gr_now();
    gr_gpu_lock lock;
    gr_gpu_lock_init(&lock, gpu_id);
    gr_budget b = *st->budget;
    gr_budget_chapter(&b);
    gr_sub_state s = *st;
    s.lock = &lock;
    s.budget = &b;
    gr_chapter_run r = {.x = x, .s = &s, .ch = ch, .cr = &sl->cr, .sub = sub};
    snprintf(r.cw, sizeof r.cw, "%s/ch%d-%08x", s.work, ch->number, s.salt);
    sl->stopped = gr_run_steps(&r, 0, gr_first_alone_step()) == GR_STEP_STOP;
    gr_gpu_release(&lock);
    memcpy(sl->cw, r.cw, sizeof sl->cw);
    memcpy(sl->stu, r.stu, sizeof sl->stu);
    memcpy(sl->ref, r.ref, sizeof sl->ref);
    memcpy(sl->pv, r.pv, sizeof sl->pv);
    sl->have_ref = r.have_ref, sl->npv = r.npv, sl->gpu_way = s.gpu_way, sl->chapter_s = b.chapter;
    if (sl->cr.compile_log) snprintf(sl->log, sizeof sl->log, "%s", sl->cr.compile_log), sl->has_log = 1;
    free(sl->cr.compile_log);
    sl->cr.compile_log = NULL;
    sl->seconds = gr_now() - t;
    sl->ran = 1;
}

/* Back in the grading's process: the chapter's result, then its steps that take the GPU alone. */
static void gr_chapter_alone_steps(const gr_config *x, gr_sub_state *st, const char *sub, const gr_chapter_rubric *ch,
                                   const gr_ch_slot *sl, gr_ch_result *cr)
{
    *cr = sl->cr;
    cr->compile_log = sl->has_log ? strdup(sl->log) : NULL;
    if (st->gpu_way == GR_GPU_UNASKED) st->gpu_way = sl->gpu_way;
    if (sl->stopped) return;
    double t = gr_now();
    gr_chapter_run r = {.x = x, .s = st, .ch = ch, .cr = cr, .sub = sub, .have_ref = sl->have_ref, .npv = sl->npv};
    memcpy(r.cw, sl->cw, sizeof r.cw);
    memcpy(r.stu, sl->stu, sizeof r.stu);
    memcpy(r.ref, sl->ref, sizeof r.ref);
    memcpy(r.pv, sl->pv, sizeof r.pv);
    gr_chapter_job(&r);
    st->budget->chapter = sl->chapter_s;
    if (gr_run_steps(&r, gr_first_alone_step(), GR_N_STEPS) == GR_STEP_STOP) return;
    gr_chapter_done(&r, sl->seconds + gr_now() - t);
}

/* The graded chapters: their shared-GPU steps (builds read, correctness, the sanitizer) at once, each in
 * a process of its own, then one by one the steps that take the GPU alone (the benchmark, its evidence).
 * One after the other the shared steps were a fifth of a grading on the H100 (19 of 106 s). Without
 * shared memory, or where other gradings share the GPU (a class of several graders), one by one. */
static void gr_grade_chapters(const gr_config *x, gr_sub_state *st, const char *sub, gr_sub_result *res, const int *idx,
                              const char *gpu_id)
{
    size_t bytes = (size_t)res->n_ch * sizeof(gr_ch_slot);
    gr_ch_slot *sl = MAP_FAILED;
    if (x->chapters_at_once && res->n_ch > 1)
        sl = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sl == MAP_FAILED) {
        for (int c = 0; c < res->n_ch; c++)
            if (res->ch[c].status == GR_CH_GRADED) gr_grade_chapter(x, st, sub, &x->rub.ch[idx[c]], &res->ch[c]);
        return;
    }
    pid_t pid[GR_MAX_CH] = {0};
    double t = gr_now();
    for (int c = 0; c < res->n_ch; c++) {
        if (res->ch[c].status != GR_CH_GRADED) continue;
        sl[c].cr = res->ch[c];
        fflush(NULL);
        pid[c] = fork();
        if (pid[c] == 0) {
            gr_chapter_shared_steps(x, st, sub, &x->rub.ch[idx[c]], gpu_id, &sl[c]);
            fflush(NULL);
            _exit(0);
        }
        if (pid[c] < 0) gr_chapter_shared_steps(x, st, sub, &x->rub.ch[idx[c]], gpu_id, &sl[c]); /* here, in turn */
    }
    for (int c = 0; c < res->n_ch; c++)
        if (pid[c] > 0) waitpid(pid[c], NULL, 0);
    gr_budget_charge_span(st->budget, gr_now() - t);
    for (int c = 0; c < res->n_ch; c++) {
        if (res->ch[c].status != GR_CH_GRADED) continue;
        if (!sl[c].ran) { /* its process died before it handed anything back */
            res->ch[c].status = GR_CH_GRADER_ERROR;
            snprintf(res->ch[c].reason, sizeof res->ch[c].reason, "the process grading this chapter died");
            continue;
        }
        gr_chapter_alone_steps(x, st, sub, &x->rub.ch[idx[c]], &sl[c], &res->ch[c]);
    }
    munmap(sl, bytes);
}

/* ---------------------------------------------------------------- one submission */
/* This grading's state: a random salt, a private work tree (the runs, as other users, must pass every
 * folder down to it), its group, the submission unpacked there (or its folder) and hidden from the runs.
 * 0, or -1 with the reason in res->error (and no work tree left). */
static int gr_sub_open(const gr_config *x, gr_sub_state *st, const char *sub_in, char *sub, gr_sub_result *res)
{
    int fd = open("/dev/urandom", O_RDONLY);
    if (fd < 0 || read(fd, &st->salt, sizeof st->salt) != sizeof st->salt) st->salt = (unsigned)(gr_now() * 1e6) ^ (unsigned)getpid();
    if (fd >= 0) close(fd);
    /* Runs happen in a private temporary tree, not in out_dir: the programs run as nobody and must be
     * able to reach their directories (0711 all the way), while the random names keep one run from
     * finding another's files where bubblewrap does not hide them. Reports go to out_dir. */
    char *work = st->work, closed[PATH_MAX];
    const char *tmp = getenv("TMPDIR");
    tmp = tmp && *tmp == '/' ? tmp : "/tmp";
    snprintf(work, sizeof st->work, "%s/wb-grade.XXXXXX", tmp);
    /* As root the runs go as other users (sandbox.h), who must pass every folder down to the work tree:
     * /tmp lets them; a private TMPDIR (~/tmp at 0700, or build/tmp of a clone under /root) does not, and
     * every run would fail with "Permission denied". The work tree then goes in /tmp (it is the grader's
     * own, closed to all but this submission's runs); only where no such folder exists, say so up front. */
    const char *base = gr_runs_base(tmp, closed, sizeof closed);
    if (!base) {
        snprintf(res->error, sizeof res->error,
                 "the runs cannot reach the work folder in %s: %s lets no other user through (mode o-x), nor "
                 "do /tmp and /var/tmp; point TMPDIR at a folder others may pass",
                 tmp, closed);
        return -1;
    }
    if (base != tmp) snprintf(work, sizeof st->work, "%s/wb-grade.XXXXXX", base);
    if (!mkdtemp(work)) {
        snprintf(res->error, sizeof res->error, "cannot create a temporary directory: %s", strerror(errno));
        return -1;
    }
    /* As root, this submission's runs share a group of their own (unique among live graders: the pid),
     * and only that group may enter its work tree (isolation.h). */
    st->sub_gid = geteuid() == 0 ? (gid_t)(GR_SUB_GID_BASE + ((unsigned)getpid() & 0x0fffffffu)) : 0;
    gr_cmd c; /* an isolation probe: what the sandbox will be */
    gr_cmd_init(&c, x, st, work, 10, 0);
    gr_arg(&c, "true");
    gr_run_result r;
    gr_run(&c.o, &r);
    snprintf(res->isolation, sizeof res->isolation, "%s (%s)", x->iso.line, r.how);
    gr_run_result_free(&r);
    if (gr_iso_protect_work(work, st->sub_gid)) LOG(x, "cannot protect %s: %s", work, strerror(errno));
    if (gr_is_archive(sub_in)) {
        snprintf(sub, PATH_MAX, "%s/submission", work);
        char why[600];
        if (gr_extract(x, sub_in, sub, why, sizeof why)) {
            snprintf(res->error, sizeof res->error, "%s", why);
            gr_rmtree(work);
            return -1;
        }
    } else if (!realpath(sub_in, sub) || !gr_is_dir(sub)) {
        snprintf(res->error, sizeof res->error, "%s is neither a directory nor an archive (.zip, .tar, .tar.gz or .tgz)", sub_in);
        gr_rmtree(work);
        return -1;
    }
    snprintf(st->hide_sub, sizeof st->hide_sub, "%s", sub);
    return 0;
}

/* How compute-sanitizer runs here, if no one decided it before this grading (a class decides it once,
 * before its entries): probed with the references in a child process, while the chapters build. Returns
 * the child's pid, or 0 when nothing is probed. */
static pid_t gr_san_probe_start(const gr_config *x, const gr_sub_state *st, const char *probe_json)
{
    if (x->san.line[0] || x->no_san || x->mode == GR_MODE_CHECK) return 0;
    fflush(NULL);
    pid_t prober = fork();
    if (prober == 0) {
        gr_san_host san;
        gr_san_probe(x, st, &san);
        gr_san_host_save(probe_json, &san);
        fflush(NULL);
        _exit(0);
    }
    return prober;
}

/* The chapters of the rubric that this workbook has: each one's result prepared, its build started in a
 * process of its own (each its own subreaper); a chapter whose file is missing says why. Returns when
 * every build has ended; idx[c] is result c's chapter in the rubric. */
static void gr_build_chapters(const gr_config *x, const gr_sub_state *st, const char *sub, gr_sub_result *res, int *idx)
{
    pid_t builders[GR_MAX_CH];
    for (int i = 0; i < x->rub.n_ch; i++) {
        const gr_chapter_rubric *ch = &x->rub.ch[i];
        char pristine[PATH_MAX], stu[PATH_MAX], cw[PATH_MAX];
        if (x->only_ch && ch->number != x->only_ch) continue;
        if (!gr_pristine_path(x, ch, pristine, sizeof pristine)) continue;
        gr_ch_result *cr = &res->ch[res->n_ch];
        idx[res->n_ch] = i;
        builders[res->n_ch++] = 0;
        cr->number = ch->number;
        snprintf(cr->dir, sizeof cr->dir, "%s", ch->dir);
        cr->status = GR_CH_GRADED;
        cr->n_v = ch->n_var;
        for (int v = 0; v < ch->n_var; v++) {
            snprintf(cr->v[v].name, sizeof cr->v[v].name, "%s", ch->var[v].name);
            cr->v[v].rub = ch->var[v];
            cr->v[v].verdict = GR_V_NOT_RUN;
        }
        if (!gr_find_student_file(sub, ch, stu, sizeof stu, 0)) {
            cr->status = GR_CH_MISSING;
            if (gr_student_file_link(sub, ch, stu, sizeof stu)) /* say why it does not count */
                snprintf(cr->reason, sizeof cr->reason, "%s is a link out of the submission: only files inside it are graded", stu);
            else
                snprintf(cr->reason, sizeof cr->reason, "no %s/%s (nor chapters/%s/%s) in the submission", ch->dir, ch->file,
                         ch->dir, ch->file);
            continue;
        }
        snprintf(cw, sizeof cw, "%s/ch%d-%08x", st->work, ch->number, st->salt);
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            gr_build_chapter(x, st, ch, stu, cw);
            fflush(NULL);
            _exit(0);
        }
        builders[res->n_ch - 1] = pid;
    }
    for (int c = 0; c < res->n_ch; c++)
        if (builders[c] > 0) waitpid(builders[c], NULL, 0);
}

void gr_grade_one(const gr_config *x, const char *sub_in, const char *student, const char *out_dir, gr_sub_result *res)
{
    double t0 = gr_now();
    memset(res, 0, sizeof *res);
    gr_sub_state st = {.san = &x->san};
    snprintf(res->student, sizeof res->student, "%s", student);
    res->mode = x->mode;
    memcpy(res->seeds, x->seeds, sizeof res->seeds);
    res->n_seeds = x->n_seeds;
    gr_mkdirs(out_dir, 0755);
    char sub[PATH_MAX];
    if (gr_sub_open(x, &st, sub_in, sub, res)) {
        res->wall_s = gr_now() - t0;
        return;
    }
    /* This submission's GPU lock (taken per run, sanitize and correctness; alone for perf) and budget. */
    gr_gpu_lock lock;
    gr_budget budget;
    char id[32], probe_json[PATH_MAX];
    gr_gpu_id(x->gpu, id, sizeof id);
    gr_gpu_lock_init(&lock, id);
    gr_budget_init(&budget, &x->rub);
    st.lock = &lock;
    st.budget = &budget;
    snprintf(probe_json, sizeof probe_json, "%s/san-probe.json", st.work);
    pid_t prober = gr_san_probe_start(x, &st, probe_json);
    int idx[GR_MAX_CH];
    gr_build_chapters(x, &st, sub, res, idx);
    gr_san_host san; /* this grading's own decision, where none was made before it */
    if (prober > 0) {
        waitpid(prober, NULL, 0);
        if (gr_san_host_load(probe_json, &san))
            snprintf(san.line, sizeof san.line, "the sanitizer probe failed: runs as every run, limits not derived");
        st.san = &san;
    }
    if (st.san->line[0] && !x->no_san) {
        size_t l = strlen(res->isolation);
        snprintf(res->isolation + l, sizeof res->isolation - l, "; sanitizer: %s", st.san->line);
    }
    res->prepare_s = gr_now() - t0;
    gr_grade_chapters(x, &st, sub, res, idx, id);
    if (st.gpu_way == GR_GPU_NO_BWRAP) {
        size_t l = strlen(res->isolation);
        snprintf(res->isolation + l, sizeof res->isolation - l, "; GPU runs without bubblewrap (it could not reach the GPU here)");
    }
    gr_sub_totals(res);
    gr_rmtree(st.work);
    res->budget_s = budget.submission;
    res->wall_s = gr_now() - t0;
}

static void gr_replay_cmd(const gr_config *x, const char *sub, char *buf, size_t len)
{
    char seeds[200];
    int at = 0;
    seeds[0] = 0;
    for (int i = 0; i < x->n_seeds; i++) at += snprintf(seeds + at, sizeof seeds - (size_t)at, "%s%llu", i ? "," : "", x->seeds[i]);
    if (x->mode == GR_MODE_CHECK) snprintf(buf, len, "make check SEEDS=%s%s", seeds, x->only_ch ? " CH=…" : "");
    else snprintf(buf, len, "make grade SUB=%s SEEDS=%s", sub, seeds);
}

int gr_write_reports(const gr_config *x, const char *sub, const char *out_dir, gr_sub_result *res, FILE *term)
{
    char path[PATH_MAX], replay[PATH_MAX + 300];
    gr_replay_cmd(x, sub, replay, sizeof replay);
    snprintf(path, sizeof path, "%s/feedback.md", out_dir);
    FILE *f = fopen(path, "w");
    int rc = f ? 0 : -1; /* a report not written is an I/O failure (grade.c: exit GR_EXIT_IO) */
    if (f) {
        gr_write_feedback(f, res, replay);
        rc |= fclose(f);
    }
    snprintf(path, sizeof path, "%s/results.json", out_dir);
    rc |= gr_write_results_json(path, res);
    snprintf(path, sizeof path, "%s/grading.json", out_dir);
    rc |= gr_write_grading_json(path, res);
    gr_student_page(out_dir); /* feedback.html; results.json carries feedback.md (studentpage.h) */
    if (term) gr_print_table(term, res);
    for (int c = 0; c < res->n_ch; c++) free(res->ch[c].compile_log);
    return rc;
}
