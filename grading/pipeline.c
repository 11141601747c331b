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
#include "sanitize.h"
#include "submission.h"

void gr_grade_one(const gr_config *x, const char *sub_in, const char *student, const char *out_dir, gr_sub_result *res)
{
    double t0 = gr_now();
    memset(res, 0, sizeof *res);
    gr_sub_state st = {.san = &x->san};
    {
        int fd = open("/dev/urandom", O_RDONLY);
        if (fd < 0 || read(fd, &st.salt, sizeof st.salt) != sizeof st.salt) st.salt = (unsigned)(gr_now() * 1e6) ^ (unsigned)getpid();
        if (fd >= 0) close(fd);
    }
    snprintf(res->student, sizeof res->student, "%s", student);
    res->mode = x->mode;
    memcpy(res->seeds, x->seeds, sizeof res->seeds);
    res->n_seeds = x->n_seeds;
    gr_mkdirs(out_dir, 0755);
    /* Runs happen in a private temporary tree, not in out_dir: the programs run as nobody and must be
     * able to reach their directories (0711 all the way), while the random names keep one run from
     * finding another's files where bubblewrap does not hide them. Reports go to out_dir. */
    char work[PATH_MAX], sub[PATH_MAX], closed[PATH_MAX];
    const char *tmp = getenv("TMPDIR");
    tmp = tmp && *tmp == '/' ? tmp : "/tmp";
    snprintf(work, sizeof work, "%s/wb-grade.XXXXXX", tmp);
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
        res->wall_s = gr_now() - t0;
        return;
    }
    if (base != tmp) snprintf(work, sizeof work, "%s/wb-grade.XXXXXX", base);
    if (!mkdtemp(work)) {
        snprintf(res->error, sizeof res->error, "cannot create a temporary directory: %s", strerror(errno));
        return;
    }
    snprintf(st.work, sizeof st.work, "%s", work);
    /* As root, this submission's runs share a group of their own (unique among live graders: the pid),
     * and only that group may enter its work tree (isolation.h). */
    st.sub_gid = geteuid() == 0 ? (gid_t)(GR_SUB_GID_BASE + ((unsigned)getpid() & 0x0fffffffu)) : 0;
    /* an isolation probe: what the sandbox will be */
    {
        gr_cmd c;
        gr_cmd_init(&c, x, &st, work, 10, 0);
        gr_arg(&c, "true");
        gr_run_result r;
        gr_run(&c.o, &r);
        snprintf(res->isolation, sizeof res->isolation, "%s (%s)", x->iso.line, r.how);
        gr_run_result_free(&r);
    }
    if (gr_iso_protect_work(work, st.sub_gid)) LOG(x, "cannot protect %s: %s", work, strerror(errno));
    if (gr_is_archive(sub_in)) {
        snprintf(sub, sizeof sub, "%s/submission", work);
        char why[600];
        if (gr_extract(x, sub_in, sub, why, sizeof why)) {
            snprintf(res->error, sizeof res->error, "%s", why);
            gr_rmtree(work);
            res->wall_s = gr_now() - t0;
            return;
        }
    } else if (!realpath(sub_in, sub) || !gr_is_dir(sub)) {
        snprintf(res->error, sizeof res->error, "%s is neither a directory nor an archive (.zip, .tar, .tar.gz or .tgz)", sub_in);
        gr_rmtree(work);
        res->wall_s = gr_now() - t0;
        return;
    }
    snprintf(st.hide_sub, sizeof st.hide_sub, "%s", sub);
    /* This submission's GPU lock (taken per run, sanitize and correctness; alone for perf) and budget. */
    gr_gpu_lock lock;
    gr_budget budget;
    {
        char id[32];
        gr_gpu_id(x->gpu, id, sizeof id);
        gr_gpu_lock_init(&lock, id);
        gr_budget_init(&budget, &x->rub);
        st.lock = &lock;
        st.budget = &budget;
    }
    /* How compute-sanitizer runs here, if no one decided it yet (a class decides it once, before its
     * entries): with the references, while the student's chapters build. */
    pid_t prober = 0;
    char probe_json[PATH_MAX];
    gr_san_host san; /* this grading's own decision, where none was made before it */
    snprintf(probe_json, sizeof probe_json, "%s/san-probe.json", work);
    if (!x->san.line[0] && !x->no_san && x->mode != GR_MODE_CHECK) {
        fflush(NULL);
        prober = fork();
        if (prober == 0) {
            gr_san_probe(x, &st, &san);
            gr_san_host_save(probe_json, &san);
            fflush(NULL);
            _exit(0);
        }
    }

    /* Which chapters: those of the rubric that this workbook has. */
    pid_t builders[GR_MAX_CH];
    int idx[GR_MAX_CH];
    for (int i = 0; i < x->rub.n_ch; i++) {
        const gr_chapter_rubric *ch = &x->rub.ch[i];
        char pristine[PATH_MAX];
        if (x->only_ch && ch->number != x->only_ch) continue;
        if (!gr_pristine_path(x, ch, pristine, sizeof pristine)) continue;
        gr_ch_result *cr = &res->ch[res->n_ch];
        idx[res->n_ch] = i;
        builders[res->n_ch] = 0;
        res->n_ch++;
        cr->number = ch->number;
        snprintf(cr->dir, sizeof cr->dir, "%s", ch->dir);
        cr->status = GR_CH_GRADED;
        cr->n_v = ch->n_var;
        for (int v = 0; v < ch->n_var; v++) {
            snprintf(cr->v[v].name, sizeof cr->v[v].name, "%s", ch->var[v].name);
            cr->v[v].rub = ch->var[v];
            cr->v[v].verdict = GR_V_NOT_RUN;
        }
        char stu[PATH_MAX];
        if (!gr_find_student_file(sub, ch, stu, sizeof stu, 0)) {
            cr->status = GR_CH_MISSING;
            if (gr_student_file_link(sub, ch, stu, sizeof stu)) /* say why it does not count */
                snprintf(cr->reason, sizeof cr->reason, "%s is a link out of the submission: only files inside it are graded", stu);
            else
                snprintf(cr->reason, sizeof cr->reason, "no %s/%s (nor chapters/%s/%s) in the submission", ch->dir, ch->file,
                         ch->dir, ch->file);
            continue;
        }
        /* Builds run in parallel, each in its own process (each its own subreaper). */
        char cw[PATH_MAX];
        snprintf(cw, sizeof cw, "%s/ch%d-%08x", work, ch->number, st.salt);
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            gr_build_chapter(x, &st, ch, stu, cw);
            fflush(NULL);
            _exit(0);
        }
        builders[res->n_ch - 1] = pid;
    }
    for (int c = 0; c < res->n_ch; c++)
        if (builders[c] > 0) waitpid(builders[c], NULL, 0);
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

    for (int c = 0; c < res->n_ch; c++) {
        gr_ch_result *cr = &res->ch[c];
        const gr_chapter_rubric *ch = &x->rub.ch[idx[c]];
        double tc = gr_now();
        if ((cr->status != GR_CH_GRADED)) continue;
        gr_budget_chapter(&budget);
        char cw[PATH_MAX], path[PATH_MAX], stu[PATH_MAX], ref[PATH_MAX];
        snprintf(cw, sizeof cw, "%s/ch%d-%08x", work, ch->number, st.salt);
        gr_build_report rep;
        snprintf(path, sizeof path, "%s/build.json", cw);
        if (gr_build_report_read(path, &rep)) {
            rep.status = GR_CH_BUILD_FAILED;
            snprintf(rep.reason, sizeof rep.reason, "the build process died");
        }
        snprintf(path, sizeof path, "%s/compile.log", cw);
        size_t ll;
        char *log = gr_read_capped(path, 1 << 20, &ll);
        cr->compile_log = log;
        snprintf(cr->outside, sizeof cr->outside, "%s", rep.outside);
        /* The region screen, on the student's own file (what was spliced), also when the build failed (a
         * library call that did not link is still named): its findings cost points once every step has
         * run (gr_caught_apply below) and are told to the student whatever the verdicts. */
        if (gr_find_student_file(sub, ch, stu, sizeof stu, 0)) {
            size_t sl;
            char *text = gr_read_capped(stu, 1 << 22, &sl);
            if (text) gr_honesty_screen(ch, text, sl, cr);
            free(text);
        }
        if (rep.status != GR_CH_GRADED) {
            cr->status = rep.status;
            snprintf(cr->reason, sizeof cr->reason, "%s", rep.reason);
            continue;
        }
        snprintf(stu, sizeof stu, "%s/build/prog", cw);
        int have_ref = gr_have_reference(x, st.work, ch, ref, sizeof ref);
        if (!have_ref && x->mode != GR_MODE_CHECK) {
            cr->status = GR_CH_GRADER_ERROR;
            snprintf(cr->reason, sizeof cr->reason, "no reference build/solution%d (is solutions/ here?)", ch->number);
            continue;
        }
        gr_prog_variant pv[GR_MAX_VAR];
        char why[600];
        const gr_chjob job = {.x = x, .s = &st, .ch = ch, .ref = have_ref ? ref : NULL, .stu = stu, .work = cw, .cr = cr};
        gr_gpu_probe(x, &st, have_ref ? ref : stu, ch, cw);
        int npv = gr_list_variants(x, &st, have_ref ? ref : stu, cw, pv, GR_MAX_VAR, why, sizeof why);
        for (int v = 0; v < npv; v++) /* variants the rubric does not list are graded for information */
            if (!gr_rubric_variant(ch, pv[v].name) && cr->n_v < GR_MAX_VAR) {
                gr_var_result *r = &cr->v[cr->n_v++];
                snprintf(r->name, sizeof r->name, "%s", pv[v].name);
                snprintf(r->rub.name, sizeof r->rub.name, "%s", pv[v].name);
                r->verdict = GR_V_NOT_RUN;
            }
        for (int v = 0; v < ch->n_var; v++) {
            int found = 0;
            for (int k = 0; k < npv; k++) found |= !strcmp(pv[k].name, ch->var[v].name);
            if (!found && npv) {
                cr->status = GR_CH_GRADER_ERROR;
                snprintf(cr->reason, sizeof cr->reason, "the rubric names variant '%s', which the program does not have",
                         ch->var[v].name);
            }
        }
        if (!npv) {
            cr->status = GR_CH_GRADER_ERROR;
            snprintf(cr->reason, sizeof cr->reason, "%s", why);
        }
        if ((cr->status == GR_CH_GRADED)) {
            if (have_ref) {
                int rc = gr_correctness(&job, why, sizeof why);
                if (rc) {
                    cr->status = rc == -3 ? GR_CH_NO_GPU : GR_CH_GRADER_ERROR;
                    snprintf(cr->reason, sizeof cr->reason, "%s", why);
                }
            } else {
                cr->self_check = 1;
                if (gr_self_check(&job, why, sizeof why)) {
                    cr->status = GR_CH_NO_GPU;
                    snprintf(cr->reason, sizeof cr->reason, "%s", why);
                }
            }
        }
        if ((cr->status == GR_CH_GRADED)) {
            if (!x->no_san) gr_sanitize(&job, pv, npv);
            char spent[300];
            if (!x->no_perf && gr_budget_spent(&budget, spent, sizeof spent))
                snprintf(cr->perf_note, sizeof cr->perf_note, "performance %s", spent);
            else if (!x->no_perf) {
                gr_gpu_alone(&lock); /* timed: nothing else on this GPU meanwhile */
                if (have_ref) gr_perf(&job);
                else gr_perf_self(&job);
                gr_gpu_release(&lock);
            }
            if (have_ref) gr_evidence(&job); /* the diagnosis: after perf, which it reads too */
        }
        for (int v = 0; v < cr->n_v; v++) gr_caught_apply(&cr->v[v]);
        cr->wall_s = gr_now() - tc;
        snprintf(path, sizeof path, "%s/build", cw);
        gr_rmtree(path);
    }
    if (st.gpu_way == GR_GPU_NO_BWRAP) {
        size_t l = strlen(res->isolation);
        snprintf(res->isolation + l, sizeof res->isolation - l, "; GPU runs without bubblewrap (it could not reach the GPU here)");
    }
    gr_sub_totals(res);
    gr_rmtree(work);
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
