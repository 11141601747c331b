/* pipeline.c — see pipeline.h. */
#define _GNU_SOURCE 1
#include "pipeline.h"
#include "evidence.h"
#include "build.h"
#include "children.h"
#include "correctness.h"
#include "honesty.h"
#include "perf.h"
#include "report.h"
#include "sanitize.h"
#include "submission.h"

#include <sys/random.h>

/* ---------------------------------------------------------------- one chapter: a table of steps */
/* What a chapter's steps leave its later steps; no pointers: handed back from the process of its first steps. */
typedef struct {
    char stu[PATH_MAX];             /* the student's file, then (from the reference step on) its build */
    char ref[PATH_MAX];             /* the reference to hold the student to, or "" (check mode: own verdicts) */
    gr_prog_variant pv[GR_MAX_VAR]; /* the program's variants and their kernels */
    int npv;
} gr_chapter_state;

/* One chapter as its steps go: the job they work on (its stu and ref point into k); s, which the GPU probe sets. */
typedef struct {
    gr_sub_state *s;
    gr_chapter_state k;
    gr_chjob job;
} gr_chapter_run;

/* What a step leaves: go on, or the chapter ends here (its status says why). */
typedef enum { GR_STEP_GO, GR_STEP_STOP } gr_step_end;

typedef struct {
    const char *name;
    int (*when)(const gr_chapter_run *r); /* from what the earlier steps left; NULL: always */
    gr_step_end (*run)(gr_chapter_run *r);
    void (*on_variants)(const gr_chjob *j, const gr_prog_variant *pv, int npv); /* a step that only calls it */
} gr_step;

static int gr_when_graded(const gr_chapter_run *r) { return r->job.cr->status == GR_CH_GRADED; }
static int gr_when_ref(const gr_chapter_run *r) { return gr_when_graded(r) && r->job.ref; }
static int gr_when_self(const gr_chapter_run *r) { return gr_when_graded(r) && !r->job.ref; }
static int gr_when_san(const gr_chapter_run *r) { return gr_when_graded(r) && !r->job.x->no_san; }
static int gr_when_perf(const gr_chapter_run *r) { return gr_when_graded(r) && !r->job.x->no_perf; }

/* The region screen on the student's file, also after a failed build (a library call that did not link is named). */
static gr_step_end gr_step_build(gr_chapter_run *r)
{
    size_t sl;
    char *text = gr_read_capped(r->k.stu, 1 << 22, &sl);
    if (text) gr_honesty_screen(r->job.ch, text, sl, r->job.cr);
    free(text);
    return r->job.cr->status == GR_CH_GRADED ? GR_STEP_GO : GR_STEP_STOP;
}

/* The reference to hold the student to; without one only the practice run (--check) goes on. */
static gr_step_end gr_step_reference(gr_chapter_run *r)
{
    snprintf(r->k.stu, sizeof r->k.stu, "%s/build/prog", r->job.work);
    if (!gr_have_reference(r->job.x, r->s->work, r->job.ch, r->k.ref, sizeof r->k.ref)) r->k.ref[0] = 0;
    r->job.ref = r->k.ref[0] ? r->k.ref : NULL;
    if (r->job.ref || r->job.x->mode == GR_MODE_CHECK) return GR_STEP_GO;
    GR_FAIL(r->job.cr, GR_CH_GRADER_ERROR, "no reference build/solution%d (is solutions/ here?)", r->job.ch->number);
    return GR_STEP_STOP;
}

/* Whether the GPU is reached, then the program's variants: those the rubric does not list are graded for
 * information; one the rubric lists that the program lacks is the grader's error. */
static gr_step_end gr_step_variants(gr_chapter_run *r)
{
    const gr_chapter_rubric *ch = r->job.ch;
    gr_ch_result *cr = r->job.cr;
    const char *prog = r->job.ref ? r->job.ref : r->k.stu;
    char why[600];
    gr_gpu_probe(r->job.x, r->s, prog, ch, r->job.work);
    r->k.npv = gr_list_variants(r->job.x, r->s, prog, r->job.work, r->k.pv, GR_MAX_VAR, why, sizeof why);
    const char *listed[GR_MAX_VAR];
    for (int v = 0; v < r->k.npv; v++) {
        listed[v] = r->k.pv[v].name;
        if (!gr_rubric_variant(ch, r->k.pv[v].name) && cr->n_v < GR_MAX_VAR) {
            gr_var_result *vr = &cr->v[cr->n_v++];
            snprintf(vr->name, sizeof vr->name, "%s", r->k.pv[v].name);
            snprintf(vr->rub.name, sizeof vr->rub.name, "%s", r->k.pv[v].name);
            vr->verdict = GR_V_NOT_RUN;
        }
    }
    if (!r->k.npv || gr_variants_check(ch, listed, r->k.npv, why, sizeof why))
        GR_FAIL(cr, GR_CH_GRADER_ERROR, "%s", why);
    return GR_STEP_GO;
}

/* Every variant's verdict (without a reference, the practice run's own); a reference that cannot run is the
 * grader's error, or no GPU. */
static gr_step_end gr_step_correctness(gr_chapter_run *r)
{
    char why[600];
    r->job.cr->self_check = !r->job.ref;
    int rc = gr_correctness(&r->job, why, sizeof why);
    if (rc) GR_FAIL(r->job.cr, rc == -3 ? GR_CH_NO_GPU : GR_CH_GRADER_ERROR, "%s", why);
    return GR_STEP_GO;
}

/* The benchmark, alone on the GPU; skipped with the reason once the GPU time is spent. */
static gr_step_end gr_step_perf(gr_chapter_run *r)
{
    char spent[300];
    if (gr_budget_spent(r->s->budget, spent, sizeof spent)) {
        snprintf(r->job.cr->perf_note, sizeof r->job.cr->perf_note, "performance %s", spent);
        return GR_STEP_GO;
    }
    gr_gpu_take_for_run(r->s->lock, GR_LOCK_ALONE); /* timed: nothing else on this GPU meanwhile */
    if (r->job.ref) gr_perf(&r->job);
    else gr_perf_self(&r->job);
    gr_gpu_release(r->s->lock);
    return GR_STEP_GO;
}

/* What the region screen and honesty caught costs its points, once every step has run. */
static gr_step_end gr_step_caught(gr_chapter_run *r)
{
    for (int v = 0; v < r->job.cr->n_v; v++) gr_caught_apply(&r->job.cr->v[v]);
    return GR_STEP_GO;
}

/* A chapter's steps, first those that share the GPU (chapters may run them at once). Each bounds its cost in its
 * own module from what earlier steps left per variant (gr_isolate, gr_var_sanitized, budget.h). */
static const gr_step gr_shared_steps[] = {
    {"build", NULL, gr_step_build, NULL},
    {"reference", NULL, gr_step_reference, NULL},
    {"variants", NULL, gr_step_variants, NULL},
    {"correctness", gr_when_ref, gr_step_correctness, NULL},
    {"self-check", gr_when_self, gr_step_correctness, NULL},
    {"sanitizer", gr_when_san, NULL, gr_sanitize},
};

/* Then the steps that take the GPU alone (the benchmark times kernels): one chapter at a time. */
static const gr_step gr_alone_steps[] = {
    {"performance", gr_when_perf, gr_step_perf, NULL},
    {"evidence", gr_when_ref, NULL, gr_evidence}, /* after perf, which it reads too */
    {"caught", NULL, gr_step_caught, NULL},
};

#define GR_STEPS(table) (table), sizeof(table) / sizeof(table)[0]

/* The steps of one table, each one's time kept; GR_STEP_STOP when one ended the chapter. */
static gr_step_end gr_run_steps(gr_chapter_run *r, const gr_step *steps, size_t n)
{
    gr_ch_result *cr = r->job.cr;
    for (const gr_step *st = steps; st < steps + n; st++) {
        if (st->when && !st->when(r)) continue;
        double ts = gr_now();
        gr_step_end end = GR_STEP_GO;
        if (st->run) end = st->run(r);
        else st->on_variants(&r->job, r->k.pv, r->k.npv);
        if (cr->n_step < (int)(sizeof cr->step / sizeof cr->step[0]))
            cr->step[cr->n_step++] = (typeof(cr->step[0])){st->name, gr_now() - ts};
        if (end == GR_STEP_STOP) return end;
    }
    return GR_STEP_GO;
}

/* A submission's chapters as they are graded: what each chapter's run starts from. */
typedef struct {
    const gr_config *x;
    gr_sub_state st;
    gr_gpu_lock lock;                 /* st's: taken per run (sanitize and correctness), alone for perf */
    gr_budget budget;                 /* st's */
    gr_san_host san;                  /* this grading's own sanitizer probe, where none was made before it */
    char sub[PATH_MAX];               /* the submission's root */
    gr_sub_result *res;
    const gr_chapter_rubric *ch[GR_MAX_CH]; /* result c's chapter */
    char cw[GR_MAX_CH][PATH_MAX];     /* result c's work tree (its build goes in cw/build) */
    char stu[GR_MAX_CH][PATH_MAX];    /* result c's file in the submission */
    int n, c[GR_MAX_CH];              /* the results being built and graded */
    int probing;                      /* the preparation probes the sanitizer too (gr_prepare) */
} gr_sub_run;

static void gr_chapter_start(gr_chapter_run *r, const gr_sub_run *g, gr_sub_state *s, int c, gr_ch_result *cr)
{
    *r = (gr_chapter_run){.s = s,
                          .job = {.x = g->x, .s = s, .ch = g->ch[c], .stu = r->k.stu, .work = g->cw[c], .cr = cr}};
    snprintf(r->k.stu, sizeof r->k.stu, "%s", g->stu[c]);
}

/* What a chapter's shared-GPU steps hand back from their process (the compile log, a pointer, stays the parent's). */
typedef struct {
    gr_ch_result cr;
    gr_chapter_state k;
    gr_step_end end;
    gr_gpu_way gpu_way;
    gr_budget budget;  /* its GPU-holding seconds: its chapter's share, the submission's */
    double seconds;    /* its wall time */
} gr_ch_back;

/* In the chapter's process: its own hold on the GPU lock (a lock is per open file: a copy of the parent's would
 * be the parent's), its own share of the budget, and the submission's as the parent left it plus its runs. */
static void gr_chapter_shared_steps(int i, void *ctx, void *slot)
{
    const gr_sub_run *g = ctx;
    gr_ch_back *b = slot;
    double t = gr_now();
    gr_gpu_lock lock;
    gr_gpu_lock_init(&lock, g->x->gpu);
    gr_budget budget = g->budget;
    gr_budget_chapter(&budget);
    gr_sub_state s = g->st;
    s.lock = &lock;
    s.budget = &budget;
    b->cr = g->res->ch[g->c[i]];
    b->cr.compile_log = NULL;
    gr_chapter_run r;
    gr_chapter_start(&r, g, &s, g->c[i], &b->cr);
    b->end = gr_run_steps(&r, GR_STEPS(gr_shared_steps));
    gr_gpu_release(&lock);
    b->k = r.k;
    b->gpu_way = s.gpu_way;
    b->budget = budget;
    b->seconds = gr_now() - t;
}

/* Back in the grading's process: the chapter's result, then its steps that take the GPU alone; a chapter that
 * ran to the end gets its time and loses its build tree. */
static void gr_chapter_alone_steps(gr_sub_run *g, int c, const gr_ch_back *b)
{
    gr_ch_result *cr = &g->res->ch[c];
    char *log = cr->compile_log;
    *cr = b->cr;
    cr->compile_log = log;
    if (g->st.gpu_way == GR_GPU_UNASKED) g->st.gpu_way = b->gpu_way;
    if (b->end == GR_STEP_STOP) return;
    double t = gr_now();
    gr_chapter_run r;
    gr_chapter_start(&r, g, &g->st, c, cr);
    r.k = b->k;
    r.job.ref = r.k.ref[0] ? r.k.ref : NULL;
    g->budget.chapter = b->budget.chapter;
    if (gr_run_steps(&r, GR_STEPS(gr_alone_steps)) == GR_STEP_STOP) return;
    char path[PATH_MAX + 8];
    cr->wall_s = b->seconds + gr_now() - t;
    snprintf(path, sizeof path, "%s/build", r.job.work);
    gr_rmtree(path);
}

/* The chapters built (g->c): their shared-GPU steps at once, each in a process of its own (one after the other
 * they were a fifth of a grading on the H100, 19 of 106 s), then one by one the steps that take the GPU alone.
 * Where other gradings share the GPU (a class of several graders), one chapter after the other, here. */
static void gr_grade_chapters(gr_sub_run *g)
{
    gr_ch_back *back = calloc((size_t)g->n + 1, sizeof *back);
    if (!back) abort();
    if (!g->x->chapters_at_once || g->res->n_ch < 2) {
        for (int i = 0; i < g->n; i++) {
            gr_chapter_shared_steps(i, g, back);
            g->budget.submission = back->budget.submission;
            gr_chapter_alone_steps(g, g->c[i], back);
        }
        free(back);
        return;
    }
    gr_child_outcome how[GR_MAX_CH];
    double t = gr_now();
    gr_children_run(&(gr_children){.n = g->n, .size = sizeof *back, .fn = gr_chapter_shared_steps, .ctx = g}, back,
                    how);
    gr_budget_charge_span(&g->budget, gr_now() - t);
    for (int i = 0; i < g->n; i++) {
        char d[100];
        gr_child_describe(&how[i], d, sizeof d);
        if (how[i].end == GR_CHILD_DONE) gr_chapter_alone_steps(g, g->c[i], &back[i]);
        else GR_FAIL(&g->res->ch[g->c[i]], GR_CH_GRADER_ERROR, "the process grading this chapter died (it %s)", d);
    }
    free(back);
}

/* ---------------------------------------------------------------- one submission */
/* This grading's state: a random salt, a private work tree, its group, the submission unpacked there (or
 * its folder) and hidden from the runs. 0, or -1 with the reason in res->error (and no work tree left). */
static int gr_sub_open(gr_sub_run *g, const char *sub_in)
{
    gr_sub_state *st = &g->st;
    if (getrandom(&st->salt, sizeof st->salt, 0) != (ssize_t)sizeof st->salt)
        st->salt = (unsigned)(gr_now() * 1e6) ^ (unsigned)getpid();
    /* Not in out_dir: as root the runs go as other users, who must pass every folder down to it (a private
     * TMPDIR gives way to /tmp: gr_runs_base); the random names keep one run from finding another's files
     * where bubblewrap does not hide them. Where no folder will do, say so rather than fail every run. */
    char closed[PATH_MAX], why[600];
    int rc = gr_runs_mkdtemp(g->x->janitor, "wb-grade", 0700, st->work, sizeof st->work, closed, sizeof closed);
    if (rc == -1)
        snprintf(g->res->error, sizeof g->res->error,
                 "the runs cannot reach the work folder in %s: %s lets no other user through (mode o-x), nor "
                 "do /tmp and /var/tmp; point TMPDIR at a folder others may pass",
                 gr_tmpdir(), closed);
    else if (rc) snprintf(g->res->error, sizeof g->res->error, "cannot create a temporary directory: %s", strerror(errno));
    if (rc) return -1;
    /* As root, its runs share a group of their own (the pid: unique among live graders), alone to enter. */
    st->sub_gid = geteuid() == 0 ? (gid_t)(GR_SUB_GID_BASE + ((unsigned)getpid() & 0x0fffffffu)) : 0;
    gr_cmd c; /* an isolation probe: what the sandbox will be */
    gr_cmd_init(&c, g->x, st, st->work, 10, GR_RUN_HOST);
    gr_arg(&c, "true");
    gr_run_result r;
    gr_run(&c.o, &r);
    snprintf(g->res->isolation, sizeof g->res->isolation, "%s (%s)", g->x->iso.line, r.how);
    gr_run_result_free(&r);
    if (gr_iso_protect_work(st->work, st->sub_gid)) LOG(g->x, "cannot protect %s: %s", st->work, strerror(errno));
    char into[PATH_MAX + 16];
    snprintf(into, sizeof into, "%s/submission", st->work);
    if (gr_sub_folder(sub_in, into, g->sub, why, sizeof why)) {
        snprintf(g->res->error, sizeof g->res->error, "%s", why);
        gr_janitor_rm(g->x->janitor, st->work);
        return -1;
    }
    snprintf(st->hide_sub, sizeof st->hide_sub, "%s", g->sub);
    return 0;
}

/* What a child that prepares the submission hands back: a chapter's build, or the sanitizer probe's decision. */
typedef union {
    gr_build_report build;
    gr_san_host san;
} gr_prep_back;

/* Child 0 probes the sanitizer where g->probing; the others build the chapters of results g->c. */
static void gr_prep_child(int i, void *ctx, void *slot)
{
    const gr_sub_run *g = ctx;
    gr_prep_back *b = slot;
    if (g->probing && i == 0) {
        gr_san_probe(g->x, &g->st, &b->san);
        return;
    }
    int c = g->c[i - g->probing];
    gr_build_chapter(g->x, &g->st, g->ch[c], g->stu[c], g->cw[c], &b->build);
}

/* The next result, for the rubric's chapter i: 1 when it is to be built, else missing and why. */
static int gr_chapter_open(gr_sub_run *g, int i)
{
    const gr_chapter_rubric *ch = &g->x->rub.ch[i];
    int c = g->res->n_ch++;
    gr_ch_result *cr = &g->res->ch[c];
    char *stu = g->stu[c];
    g->ch[c] = ch;
    snprintf(g->cw[c], PATH_MAX, "%s/ch%d-%08x", g->st.work, ch->number, g->st.salt);
    cr->number = ch->number;
    snprintf(cr->dir, sizeof cr->dir, "%s", ch->dir);
    cr->status = GR_CH_GRADED;
    cr->n_v = ch->n_var;
    for (int v = 0; v < ch->n_var; v++) {
        snprintf(cr->v[v].name, sizeof cr->v[v].name, "%s", ch->var[v].name);
        cr->v[v].rub = ch->var[v];
        cr->v[v].verdict = GR_V_NOT_RUN;
    }
    if (gr_find_student_file(g->sub, ch, stu, PATH_MAX, 0)) return 1;
    if (gr_student_file_link(g->sub, ch, stu, PATH_MAX)) /* say why it does not count */
        GR_FAIL(cr, GR_CH_MISSING, "%s is a link out of the submission: only files inside it are graded", stu);
    else
        GR_FAIL(cr, GR_CH_MISSING, "no %s/%s (nor chapters/%s/%s) in the submission", ch->dir, ch->file, ch->dir,
                ch->file);
    return 0;
}

/* The rubric's chapters that this workbook has, each one's build in a process of its own, and beside them, where
 * no one decided it before (a class does once), the sanitizer probe; each build's outcome becomes its chapter's. */
static void gr_prepare(gr_sub_run *g)
{
    const gr_config *x = g->x;
    g->probing = !(x->san.line[0] || x->no_san || x->mode == GR_MODE_CHECK);
    for (int i = 0; i < x->rub.n_ch; i++) {
        char pristine[PATH_MAX];
        if (x->only_ch && x->rub.ch[i].number != x->only_ch) continue;
        if (gr_pristine_path(x, &x->rub.ch[i], pristine, sizeof pristine) && gr_chapter_open(g, i))
            g->c[g->n++] = g->res->n_ch - 1;
    }
    gr_prep_back *back = calloc((size_t)g->n + 1, sizeof *back);
    gr_child_outcome how[GR_MAX_CH + 1];
    gr_children_run(&(gr_children){.n = g->n + g->probing, .size = sizeof *back, .fn = gr_prep_child, .ctx = g},
                    back, how);
    for (int i = 0; i < g->n; i++) {
        gr_build_report *b = &back[g->probing + i].build;
        gr_ch_result *cr = &g->res->ch[g->c[i]];
        if (how[g->probing + i].end != GR_CHILD_DONE) GR_FAIL(b, GR_CH_BUILD_FAILED, "the build process died");
        if (b->status != GR_CH_GRADED) GR_FAIL(cr, b->status, "%s", b->reason);
        snprintf(cr->outside, sizeof cr->outside, "%s", b->outside);
        snprintf(cr->untouched, sizeof cr->untouched, "%s", b->untouched);
        cr->n_regions = b->n_regions, cr->n_untouched = b->n_untouched;
        if (b->log[0]) cr->compile_log = strdup(b->log);
    }
    if (g->probing) {
        g->san = back[0].san;
        if (how[0].end != GR_CHILD_DONE)
            snprintf(g->san.line, sizeof g->san.line,
                     "the sanitizer probe failed: runs as every run, limits not derived");
        g->st.san = &g->san;
    }
    free(back);
}

void gr_grade_one(const gr_config *x, const char *sub_in, const char *student, const char *out_dir, gr_sub_result *res)
{
    double t0 = gr_now();
    memset(res, 0, sizeof *res);
    snprintf(res->student, sizeof res->student, "%s", student);
    res->mode = x->mode;
    memcpy(res->seeds, x->seeds, sizeof res->seeds);
    res->n_seeds = x->n_seeds;
    gr_mkdirs(out_dir, 0755);
    gr_sub_run *g = calloc(1, sizeof *g);
    if (!g) abort();
    g->x = x;
    g->res = res;
    g->st = (gr_sub_state){.san = &x->san, .lock = &g->lock, .budget = &g->budget, .gpu_way = x->gpu_way};
    if (gr_sub_open(g, sub_in) == 0) {
        gr_gpu_lock_init(&g->lock, x->gpu);
        gr_budget_init(&g->budget, &x->rub);
        gr_prepare(g);
        res->prepare_s = gr_now() - t0;
        gr_grade_chapters(g);
        int san = g->st.san->line[0] && !x->no_san;
        const char *unboxed = "; GPU runs without bubblewrap (it could not reach the GPU here)";
        size_t l = strlen(res->isolation);
        snprintf(res->isolation + l, sizeof res->isolation - l, "%s%s%s", san ? "; sanitizer: " : "",
                 san ? g->st.san->line : "", g->st.gpu_way == GR_GPU_NO_BWRAP ? unboxed : "");
        gr_sub_totals(res);
        gr_janitor_rm(x->janitor, g->st.work);
        res->budget_s = g->budget.submission;
    }
    free(g);
    res->wall_s = gr_now() - t0;
}

int gr_write_reports(const gr_config *x, const char *sub, const char *out_dir, gr_sub_result *res, FILE *term)
{
    int rc = gr_write_report_files(out_dir, res, sub, x->only_ch); /* one not written: an I/O failure (GR_EXIT_IO) */
    if (term) gr_print_table(term, res);
    for (int c = 0; c < res->n_ch; c++) free(res->ch[c].compile_log);
    return rc;
}
