/* perf.c — see perf.h. */
#define _GNU_SOURCE 1
#include "perf.h"
#include "honesty.h"
#include "refkeep.h"
#include "wb_inputs.h"

typedef struct { /* one quantity over the runs: its positive values */
    double x[64];
    int n;
} gr_samples;

static void gr_push(gr_samples *s, double v) { if (v > 0 && s->n < 64) s->x[s->n++] = v; }

static double gr_med(gr_samples *s) { return gr_median(s->x, s->n); }

typedef struct {
    gr_samples ms[GR_MAX_VAR], prep[GR_MAX_VAR], sol;
    gr_samples pct[GR_MAX_VAR];      /* the run's own % of the speed of light (the reference's is trusted) */
    gr_samples rep_wall[GR_MAX_VAR]; /* the run's wall clock per repetition (rep_wall_ms: fresh inputs) */
    double wall_lo, wall_hi;       /* the smallest wall time seen at each repetition count */
    int failed;
    char why[300];
    gr_honesty *hon;               /* graded runs: --grading, every line to honesty.h; else NULL */
    double limit;                  /* the next run's time limit; 0: timeouts_s.perf */
    double last_wall;              /* the last run's wall time */
    int hi;                        /* the high repetition count */
    int trusted;                   /* the reference's side: its CEILING and work per run are believed */
    int round;                     /* the rubric's round it is in: a kept run is another entry's of the same round */
    int kept;                      /* its runs were another entry's, kept (refkeep.h) kept_s seconds before */
    double kept_s;
} gr_perf_side;

/* Which variants a benchmark run times: their names for --variant, and their indices in the results. */
typedef struct {
    char list[1024];
    int sel[GR_MAX_VAR], nsel;
} gr_perf_plan;

/* The side failed; its first reason is the one told. */
__attribute__((format(printf, 2, 3))) static void gr_side_fail(gr_perf_side *side, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (!side->failed) vsnprintf(side->why, sizeof side->why, fmt, ap);
    va_end(ap);
    side->failed = 1;
}

/* A benchmark run's JSON lines (dir/t.json): all to honesty (graded runs), each selected variant's times,
 * the speed-of-light rows; a variant that reported no PASS, or no time at all, fails the side. */
static void gr_perf_read(const gr_chjob *j, const gr_perf_plan *plan, const char *dir, gr_perf_side *side)
{
    gr_ch_result *cr = j->cr;
    char jp[PATH_MAX];
    snprintf(jp, sizeof jp, "%s/t.json", dir);
    int got[GR_MAX_VAR] = {0};
    char jerr[200];
    json_t *lines = gr_is_file(jp) ? wb_jsonl_load(jp, jerr, sizeof jerr) : NULL, *o;
    size_t li;
    if (side->hon && lines) gr_honesty_add(side->hon, lines, side->trusted);
    json_array_foreach(lines, li, o)
    {
        wb_row row;
        if (wb_row_get(o, &row, jerr, sizeof jerr) || strcmp(row.size, j->ch->perf_size.canon) || !(row.median_ms > 0))
            continue;
        if (row.verdict == WB_REFERENCE) gr_push(&side->sol, row.median_ms);
        /* Not a variant. Its measurement (chapters 3 and 4; the others restate the speed of light) is
         * not predicted: the reference pays it too, and the cross-check's calibration absorbs it. */
        if (row.verdict == WB_CEILING) continue;
        /* A student's variant that --grading's own checks failed is judged by honesty.h (it costs that
         * variant's points), not counted as a failed run that would cost every variant's. */
        int caught = !side->trusted && row.verdict == WB_FAIL &&
                     (row.timed_check == WB_CHECKED_FAIL || row.rotated_check == WB_CHECKED_FAIL);
        for (int i = 0; i < plan->nsel; i++) {
            int k = plan->sel[i];
            if (strcmp(cr->v[k].name, row.variant) || got[k]) continue;
            got[k] = 1;
            if (row.verdict != WB_PASS && !caught) {
                gr_side_fail(side, "%s reported %s at the benchmark size", row.variant, wb_verdict_name(row.verdict));
                continue;
            }
            gr_push(&side->ms[k], row.median_ms);
            gr_push(&side->pct[k], row.sol_pct);
            gr_push(&side->prep[k], row.prep_ms);
            gr_push(&side->rep_wall[k], row.rep_wall_ms);
        }
    }
    json_decref(lines);
    for (int i = 0; i < plan->nsel; i++)
        if (!got[plan->sel[i]]) gr_side_fail(side, "no time reported for %s", cr->v[plan->sel[i]].name);
}

/* One benchmark run of prog in dir (made afresh); a failed run is the side's failure. Returns its wall time. */
static double gr_perf_exec(const gr_chjob *j, const char *prog, const char *who, int reps, const gr_perf_plan *plan,
                           gr_perf_side *side, const char *dir)
{
    const gr_config *x = j->x;
    gr_rmtree(dir);
    gr_mkdirs(dir, 0755);
    gr_cmd c;
    gr_cmd_init(&c, x, j->s, dir, side->limit > 0 ? side->limit : x->rub.t_perf, GR_RUN_MEASURED);
    char nreps[16], nwarm[16], what[96];
    snprintf(nreps, sizeof nreps, "%d", reps);
    snprintf(nwarm, sizeof nwarm, "%d", x->rub.warmup);
    const char *const argv[] = {prog, "--variant", plan->list, "--size", j->ch->perf_size.text, "--reps", nreps,
                                "--warmup", nwarm, "--json", "t.json"};
    for (size_t a = 0; a < sizeof argv / sizeof argv[0]; a++) gr_arg(&c, "%s", argv[a]);
    if (side->hon) gr_arg(&c, "--grading");
    gr_cmd_ro(&c, prog);
    gr_run_result r;
    snprintf(what, sizeof what, "ch%d perf %s reps %d", j->ch->number, who, reps);
    gr_exec(&c, &r, what);
    if (side->trusted && r.exited && r.code == WB_EXIT_NO_MEMORY) {
        /* alone on the GPU, yet its memory is held (by a process outside the grader's lock, or one still
         * ending): the GPU's state, never the entry's result; the student's own failure alone counts */
        gr_run_result_free(&r);
        gr_exec(&c, &r, what);
    }
    if (!(r.exited && (r.code == 0 || r.code == 1))) {
        char d[200];
        gr_run_describe(&r, &c.o, d, sizeof d);
        side->failed = 1;
        snprintf(side->why, sizeof side->why, "the benchmark run %s", d);
    }
    double wall = r.wall_s;
    gr_run_result_free(&r);
    return wall;
}

/* One run's times into side; the reference's, kept on this GPU by another entry a short while ago, is read
 * (refkeep.h). */
static void gr_perf_run(const gr_chjob *j, const char *prog, const char *who, int reps, const gr_perf_plan *plan,
                        gr_perf_side *side)
{
    const gr_config *x = j->x;
    char dir[PATH_MAX], name[96], kept[PATH_MAX];
    int share = side->trusted && x->rub.reference_reuse_s > 0;
    double wall;
    snprintf(name, sizeof name, "perf-gpu%d-ch%d-round%d-reps%d-%016llx", x->gpu, j->ch->number, side->round, reps,
             (unsigned long long)wb_checksum64(plan->list, strlen(plan->list)));
    int found = share && !gr_keep_find(x, name, x->rub.reference_reuse_s, dir, sizeof dir, &side->kept_s, &wall);
    if (found) side->kept = 1;
    else {
        snprintf(dir, sizeof dir, "%s/perf-%s", j->work, who);
        wall = gr_perf_exec(j, prog, who, reps, plan, side, dir);
    }
    side->last_wall = wall;
    /* the smallest wall time at each count: a slow start must not count */
    double *slot = reps == x->rub.reps_lo ? &side->wall_lo : &side->wall_hi;
    if (!side->failed && wall > 0 && (*slot <= 0 || wall < *slot)) *slot = wall;
    gr_perf_read(j, plan, dir, side);
    int kept_now = !found && share && !side->failed && !gr_keep_put(x, dir, name, side->last_wall, kept, sizeof kept);
    if (!found && !kept_now) gr_rmtree(dir);
}

/* Milliseconds one more repetition adds to the run (every selected variant): by the reported times (wall 0:
 * each variant and its preprocessing; gr_wall_predicted adds the speed of light), or by the harness's wall
 * clock per repetition (wall 1, rep_wall_ms: fresh inputs are made and checked between the timed intervals),
 * which sizes the cross-check on the reference's runs: the high count's extra repetitions take about
 * cross_check_s. */
static double gr_per_rep_ms(gr_perf_side *s, const gr_perf_plan *plan, int wall)
{
    double sum = 0;
    for (int i = 0; i < plan->nsel; i++) {
        int k = plan->sel[i];
        if (wall && !s->rep_wall[k].n) return gr_per_rep_ms(s, plan, 0);
        if (wall) sum += gr_med(&s->rep_wall[k]);
        else sum += gr_med(&s->ms[k]) + (s->prep[k].n ? gr_med(&s->prep[k]) : 0);
    }
    return sum;
}

/* Seconds the high run's extra repetitions must have taken by the reported medians: the wall clock that
 * the cross-check holds the reported kernel times to. */
static double gr_wall_predicted(const gr_config *x, gr_perf_side *s, const gr_perf_plan *plan)
{
    int lo = x->rub.reps_lo;
    int sol_extra = (s->hi < WB_SOL_REPS ? s->hi : WB_SOL_REPS) - (lo < WB_SOL_REPS ? lo : WB_SOL_REPS);
    double sol = gr_med(&s->sol);
    return ((s->hi - lo) * gr_per_rep_ms(s, plan, 0) + (sol > 0 ? sol_extra * sol : 0)) * 1e-3;
}

double gr_perf_calibration(int high_ran, double d_r, double p_r, double per_ms, double per_wall_ms)
{
    double loop = per_ms > 0 ? per_wall_ms / per_ms : 1.0; /* its repetitions' own wall clock: the floor */
    double calib = high_ran && p_r > 0 && d_r / p_r > loop ? d_r / p_r : loop;
    return calib < 1 ? 1 : calib > 5 ? 5 : calib;
}

static void gr_plan_add(gr_perf_plan *plan, int v, const char *name)
{
    plan->sel[plan->nsel++] = v;
    size_t l = strlen(plan->list);
    snprintf(plan->list + l, sizeof plan->list - l, "%s%s", l ? "," : "", name);
}

/* The variants with this verdict that earn performance points. */
static void gr_perf_select(const gr_ch_result *cr, gr_verdict verdict, gr_perf_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    for (int v = 0; v < cr->n_v; v++) {
        const gr_var_result *r = &cr->v[v];
        if (r->verdict != verdict || (verdict == GR_V_PASS && r->rub.perf <= 0)) continue;
        gr_plan_add(plan, v, r->name);
    }
}

/* A student's repetition's time: the reference's, plus what the student's low-count run took beyond it. */
static double gr_perf_student_per_ms(const gr_rubric *rub, double ref_per_ms, double ref_wall_lo_s, double stu_wall_lo_s)
{
    double extra_ms = (stu_wall_lo_s - ref_wall_lo_s) * 1e3 / rub->reps_lo; /* beyond the reference, per repetition */
    return ref_per_ms + (extra_ms > 0 ? extra_ms : 0);
}

int gr_perf_student_hi(const gr_rubric *rub, double ref_per_ms, double ref_wall_lo_s, double stu_wall_lo_s, int hi)
{
    double per_ms = gr_perf_student_per_ms(rub, ref_per_ms, ref_wall_lo_s, stu_wall_lo_s);
    double budget_ms = 0.5 * rub->t_perf * 1e3 - stu_wall_lo_s * 1e3;
    if (per_ms <= 0 || (hi - rub->reps_lo) * per_ms <= budget_ms) return hi;
    int fit = budget_ms > per_ms ? (int)(budget_ms / per_ms) : 1;
    return rub->reps_lo + fit;
}

/* The alternating runs of one pass (reference, student, … for the rubric's rounds) at the low and the high
 * repetition counts. The high count comes from the reference's times (never the student's): its extra
 * repetitions take about cross_check_s; the student's is fewer where its repetitions are slow. */
static void gr_perf_rounds(const gr_chjob *j, const gr_perf_plan *plan, gr_perf_side *rs, gr_perf_side *ss)
{
    const gr_config *x = j->x;
    rs->hi = ss->hi = x->rub.reps_hi;
    for (int round = 0; round < x->rub.rounds; round++) {
        rs->round = round;
        for (int k = round < x->rub.low_rounds ? 0 : 1; k < 2; k++) { /* alternate: reference, student … */
            int reps = k == 0 ? x->rub.reps_lo : rs->hi;
            /* without its own wall clock per repetition the reference's high run is what calibrates */
            if (k == 0 || x->rub.reference_high || gr_per_rep_ms(rs, plan, 1) == gr_per_rep_ms(rs, plan, 0))
                gr_perf_run(j, j->ref, "ref", reps, plan, rs);
            if (round == 0 && k == 0) {
                double per = gr_per_rep_ms(rs, plan, 1);
                if (per > 0) {
                    double want = x->rub.reps_lo + ceil(x->rub.cross_check_s * 1e3 / per);
                    rs->hi = want > x->rub.reps_hi       ? x->rub.reps_hi
                             : want < x->rub.reps_lo + 1 ? x->rub.reps_lo + 1
                                                         : (int)want;
                }
                ss->hi = rs->hi;
            }
            if (ss->failed) continue; /* a failed run is not repeated at full limits */
            /* A hang shows in the low run: within what a variant slower than the last band would take. */
            ss->limit = k == 0 ? gr_perf_limit(&x->rub, rs->last_wall) : 0;
            gr_perf_run(j, j->stu, "stu", k == 0 ? reps : ss->hi, plan, ss);
            if (round == 0 && k == 0 && !ss->failed && !rs->failed) {
                double ref_per = gr_per_rep_ms(rs, plan, 1);
                ss->hi = gr_perf_student_hi(&x->rub, ref_per, rs->wall_lo, ss->wall_lo, rs->hi);
                if (ss->hi != rs->hi)
                    LOG(x, "student's repetitions take about %.1f ms each: %d high repetitions instead of %d",
                        gr_perf_student_per_ms(&x->rub, ref_per, rs->wall_lo, ss->wall_lo), ss->hi, rs->hi);
            }
        }
    }
}

/* The pass's outcome: the chapter's note, each variant's times and points. The reference calibrates the
 * wall-clock check (its wall clock per reported millisecond: launch overhead, a busy machine); the student
 * may take wall_factor times that plus wall_slack_s, a forged time cannot. Returns 1 when forged. */
static int gr_perf_score(const gr_chjob *j, const gr_perf_plan *plan, gr_perf_side *rs, gr_perf_side *ss)
{
    const gr_config *x = j->x;
    gr_ch_result *cr = j->cr;
    const int *sel = plan->sel;
    double d_s = ss->wall_hi - ss->wall_lo;
    double p_s = gr_wall_predicted(x, ss, plan);
    double d_r = rs->wall_hi - rs->wall_lo;
    double p_r = gr_wall_predicted(x, rs, plan);
    double calib =
        gr_perf_calibration(rs->wall_hi > 0, d_r, p_r, gr_per_rep_ms(rs, plan, 0), gr_per_rep_ms(rs, plan, 1));
    int forged = !ss->failed && !rs->failed && d_s > x->rub.wall_factor * calib * p_s + x->rub.wall_slack_s;
    if (rs->failed) snprintf(cr->perf_note, sizeof cr->perf_note, "reference benchmark failed (%s): no performance points", rs->why);
    else if (ss->failed) snprintf(cr->perf_note, sizeof cr->perf_note, "%s: no performance points", ss->why);
    else if (forged)
        snprintf(cr->perf_note, sizeof cr->perf_note,
                 "the reported kernel times do not account for the process's wall clock (%d more repetitions took "
                 "%.2f s more; the reported times predict %.3f s, x%.2f as measured on the reference): times not "
                 "credible, no performance points",
                 ss->hi - x->rub.reps_lo, d_s, p_s, calib);
    else {
        char when[96] = "alternating with the reference";
        if (rs->kept) snprintf(when, sizeof when, "the reference's runs on this GPU %.0f s before, another entry's", rs->kept_s);
        snprintf(cr->perf_note, sizeof cr->perf_note,
                 "size %s, median of %d runs (the reference's of %d; reps %d and %d, %s); wall-clock cross-check: %d "
                 "extra repetitions took %.3f s, reported times predict %.3f s (x%.2f as measured on the reference)",
                 j->ch->perf_size.text, ss->ms[sel[0]].n, rs->ms[sel[0]].n, x->rub.reps_lo, ss->hi, when,
                 ss->hi - x->rub.reps_lo, d_s, p_s, calib);
    }
    for (int i = 0; i < plan->nsel; i++) {
        gr_var_result *r = &cr->v[sel[i]];
        r->perf_ran = 1;
        r->stu_ms = gr_med(&ss->ms[sel[i]]);
        r->ref_ms = gr_med(&rs->ms[sel[i]]);
        /* the reference's % of the speed of light (its own report, else its speed-of-light row's time over
         * its variant's: the same work); the student's follows from the times (report.h, class pages) */
        double sol = gr_med(&rs->sol);
        r->ref_sol_pct = rs->pct[sel[i]].n                ? gr_med(&rs->pct[sel[i]])
                         : sol > 0 && r->ref_ms > 0 ? 100 * sol / r->ref_ms
                                                    : 0;
        if (rs->failed || ss->failed || forged || r->stu_ms <= 0 || r->ref_ms <= 0) continue;
        gr_perf_points(&x->rub, r, r->ref_ms, "the reference's");
    }
    return forged;
}

void gr_perf_points(const gr_rubric *rub, gr_var_result *r, double ref_ms, const char *ref_what)
{
    r->ref_ms = ref_ms;
    r->ratio = r->stu_ms / r->ref_ms;
    double frac = gr_band_fraction(rub, r->ratio);
    r->perf_pts = frac * r->rub.perf;
    snprintf(r->perf_note, sizeof r->perf_note, "Speed: %.4f ms vs %s %.4f ms (%.2fx): %.0f%% of the performance points.",
             r->stu_ms, ref_what, r->ref_ms, r->ratio, 100 * frac);
}

/* The variants a failed student run timed, into timed; the others are told so. Returns 1 when some were not. */
static int gr_perf_timed(gr_ch_result *cr, const gr_perf_plan *plan, const gr_perf_side *ss, gr_perf_plan *timed)
{
    int retry = 0;
    for (int i = 0; i < plan->nsel; i++) {
        int k = plan->sel[i];
        gr_var_result *r = &cr->v[k];
        if (ss->ms[k].n > 0) gr_plan_add(timed, k, r->name);
        else {
            snprintf(r->perf_note, sizeof r->perf_note, "the benchmark run stopped at this variant (%s): no "
                     "performance points", ss->why);
            retry = 1;
        }
    }
    return retry;
}

/* One pass over the plan's variants. Returns 1 when the student's run failed (a time limit, a crash) with
 * some variants timed: once more without the others (their failure must not cost these their points). */
static int gr_perf_pass(const gr_chjob *j, const gr_perf_plan *plan_in, gr_perf_plan *timed)
{
    const gr_perf_plan copy = *plan_in, *plan = &copy; /* timed may be where the caller keeps plan_in */
    gr_ch_result *cr = j->cr;
    gr_perf_side *rs = calloc(1, sizeof *rs), *ss = calloc(1, sizeof *ss);
    gr_honesty *hon = calloc(1, sizeof *hon);
    gr_honesty_init(hon, j->ch->perf_size.canon);
    rs->hon = ss->hon = hon;
    rs->trusted = 1;
    gr_perf_rounds(j, plan, rs, ss);
    int forged = gr_perf_score(j, plan, rs, ss);
    if (forged && !gr_budget_spent(j->s->budget, NULL, 0)) { /* a slow start must not accuse: the quicker of two */
        gr_perf_run(j, j->stu, "stu", ss->hi, plan, ss);
        forged = gr_perf_score(j, plan, rs, ss);
    }
    int retry = 0;
    memset(timed, 0, sizeof *timed);
    if (ss->failed && !rs->failed && !forged) retry = gr_perf_timed(cr, plan, ss, timed);
    /* were the credited times real work, whatever the wall clock said? (gr_caught_apply takes the points) */
    for (int i = 0; i < plan->nsel && !rs->failed && !(retry && timed->nsel); i++) { /* judged in the next pass */
        gr_var_result *r = &cr->v[plan->sel[i]];
        char note[600];
        unsigned m = gr_honesty_judge(hon, &j->x->rub, r->name, r->stu_ms, note, sizeof note);
        if (m) gr_caught_add(r, m, note);
    }
    free(hon);
    free(rs);
    free(ss);
    return retry && timed->nsel > 0;
}

void gr_perf(const gr_chjob *j)
{
    gr_perf_plan plan, timed;
    gr_perf_select(j->cr, GR_V_PASS, &plan);
    if (!plan.nsel) return;
    char spent[300];
    if (gr_perf_pass(j, &plan, &timed) && !gr_budget_spent(j->s->budget, spent, sizeof spent)) {
        LOG(j->x, "ch%d perf: once more without the variants the failed run did not time (%s)", j->ch->number, timed.list);
        gr_perf_pass(j, &timed, &plan);
    }
}

void gr_perf_self(const gr_chjob *j)
{
    gr_ch_result *cr = j->cr;
    gr_perf_plan plan;
    gr_perf_select(cr, GR_V_SELF_PASS, &plan);
    if (!plan.nsel) return;
    gr_perf_side *ss = calloc(1, sizeof *ss);
    gr_perf_run(j, j->stu, "self", j->x->rub.reps_hi, &plan, ss);
    for (int i = 0; i < plan.nsel; i++) {
        gr_var_result *r = &cr->v[plan.sel[i]];
        r->perf_ran = 1;
        r->stu_ms = gr_med(&ss->ms[plan.sel[i]]);
        snprintf(r->perf_note, sizeof r->perf_note, "Your time at size %s: %.4f ms (no reference here: performance "
                                                    "points are given when graded).",
                 j->ch->perf_size.text, r->stu_ms);
    }
    snprintf(cr->perf_note, sizeof cr->perf_note, "check mode: times only; the grader compares them with the reference "
                                                  "on the same GPU");
    free(ss);
}
