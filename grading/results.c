/* results.c — see results.h. */
#define _GNU_SOURCE 1
#include "results.h"

static const char *const gr_verdict_names[] = {"NOT-RUN", "PASS", "WRONG", "TODO", "CRASH", "TIMEOUT", "ERROR", "SELF-PASS", "SELF-FAIL", "UNAVAILABLE"};
/* NULL-terminated for gr_word_index */
static const char *const gr_ch_status_names[] = {"graded", "missing", "not gradable", "build failed", "grader error",
                                                 "no GPU", NULL};
static const char *const gr_sub_status_names[] = {"graded", "not graded", "no GPU", "grader crashed", NULL};

const char *gr_verdict_name(gr_verdict v) { return gr_verdict_names[v]; }
const char *gr_ch_status_name(gr_ch_status s) { return gr_ch_status_names[s]; }
const char *gr_sub_status_name(gr_sub_status s) { return s >= 0 && s < GR_SUB_STATUS_N ? gr_sub_status_names[s] : "?"; }

static int gr_word_index(const char *const *words, const char *s)
{
    for (int k = 0; s && words[k]; k++)
        if (!strcmp(s, words[k])) return k;
    return -1;
}

int gr_ch_status_parse(const char *s) { return gr_word_index(gr_ch_status_names, s); }
int gr_sub_status_parse(const char *s) { return gr_word_index(gr_sub_status_names, s); }

static const char *const gr_exit_meanings[GR_EXIT_N] = {
    [GR_EXIT_OK] = "every submission graded (what a student got wrong is part of the grade)",
    [GR_EXIT_NOT_GRADED] = "a submission (or a class entry) could not be graded: the reference failed, the grader "
                           "broke or crashed, the submission could not be read; no score is written for it, the "
                           "reason is in its reports, and the next class run retries it",
    [GR_EXIT_USAGE] = "bad command line or rubric, a path that does not exist or holds nothing to grade (a submission "
                      "without any chapter's file, a class folder without an entry), or not run from the workbook's "
                      "root; nothing graded, nothing written",
    [GR_EXIT_REFUSED] = "refused before any student code ran: the course files cannot be isolated (see "
                        "--isolation, --insecure-sandbox), or no random seed",
    [GR_EXIT_CLUSTER] = "ENGINE=slurm: sbatch failed, or the merge job wrote no grades.csv",
    [GR_EXIT_IO] = "the output folder (--out) or a report could not be written",
    [GR_EXIT_NO_GPU] = "no usable GPU: what needs one was not graded and no score is written for it (make grade "
                       "and grade-class ask before the references are built)",
    [GR_EXIT_CHECK_FINDINGS] = "make check without a GPU: the checks that need none (the build, the markers, edits "
                               "outside the regions, the region screen) found something, each on its line; "
                               "correctness, sanitizer and speed not checked",
    [GR_EXIT_CHECK_CLEAN] = "make check without a GPU: the checks that need none found nothing; correctness, "
                            "sanitizer and speed not checked",
};

const char *gr_exit_meaning(gr_exit e) { return e >= 0 && e < GR_EXIT_N ? gr_exit_meanings[e] : "?"; }

gr_exit gr_exit_of(gr_sub_status s)
{
    return s == GR_SUB_GRADED ? GR_EXIT_OK : s == GR_SUB_NO_GPU ? GR_EXIT_NO_GPU : GR_EXIT_NOT_GRADED;
}

gr_exit gr_exit_class(int not_graded, int no_gpu, int io_failed)
{
    if (io_failed) return GR_EXIT_IO;
    if (!not_graded) return GR_EXIT_OK;
    return no_gpu == not_graded ? GR_EXIT_NO_GPU : GR_EXIT_NOT_GRADED;
}

gr_sub_status gr_sub_judge(const gr_sub_result *s, char *why, size_t len)
{
    const gr_ch_result *first = NULL;
    int no_gpu = 0, broke = 0;
    for (int c = 0; c < s->n_ch; c++) {
        if (!gr_ch_not_graded(s->ch[c].status)) continue;
        if (!first) first = &s->ch[c];
        no_gpu |= s->ch[c].status == GR_CH_NO_GPU;
        broke |= s->ch[c].status == GR_CH_GRADER_ERROR;
    }
    gr_sub_status st = s->status == GR_SUB_GRADER_CRASHED     ? GR_SUB_GRADER_CRASHED
                       : broke || (s->error[0] && !no_gpu) ? GR_SUB_NOT_GRADED
                       : no_gpu                            ? GR_SUB_NO_GPU
                                                           : GR_SUB_GRADED;
    /* the reason where every report shows it: never an empty one for a grading that did not happen */
    if (st == GR_SUB_GRADED || s->error[0]) snprintf(why, len, "%s", s->error);
    else if (first)
        snprintf(why, len, "chapter %d %s: %s", first->number, gr_ch_status_name(first->status),
                 first->reason[0] ? first->reason : "no reason recorded");
    else snprintf(why, len, "%s (no reason recorded)", gr_sub_status_name(st));
    return st;
}

gr_avail gr_avail_decide(int have_ref, wb_verdict ref, wb_verdict stu)
{
    if (have_ref) return ref == WB_UNAVAILABLE ? GR_AVAIL_NOT_HERE : stu == WB_UNAVAILABLE ? GR_AVAIL_DODGED : GR_AVAIL_RUNS;
    return stu == WB_UNAVAILABLE ? GR_AVAIL_NOT_HERE : GR_AVAIL_RUNS; /* the practice run on the student's own GPU */
}

gr_verdict gr_verdict_decide(const gr_verdict_facts *f)
{
    if (f->avail == GR_AVAIL_NOT_HERE) return GR_V_UNAVAILABLE;
    if (f->avail == GR_AVAIL_DODGED) return GR_V_WRONG;
    if (f->self) {
        if (f->runs_total == f->runs_expected && !f->runs_bad) return GR_V_SELF_PASS;
        return f->runs_todo == f->runs_total && f->runs_total ? GR_V_TODO : GR_V_SELF_FAIL;
    }
    if (!f->runs_bad) return GR_V_PASS;
    if (f->runs_todo == f->runs_bad && f->runs_bad == f->runs_total) return GR_V_TODO;
    if (f->failed) return f->timed_out ? GR_V_TIMEOUT : f->crashed ? GR_V_CRASH : GR_V_ERROR;
    return GR_V_WRONG;
}

int gr_var_failed(const gr_var_result *r)
{
    return r->verdict == GR_V_WRONG || r->verdict == GR_V_CRASH || r->verdict == GR_V_TIMEOUT || r->verdict == GR_V_ERROR;
}

int gr_var_sanitized(const gr_var_result *r) { return r->verdict == GR_V_PASS || r->verdict == GR_V_SELF_PASS; }

int gr_var_feedback_sanitized(const gr_var_result *r)
{
    return gr_var_failed(r) && r->verdict != GR_V_TIMEOUT && !gr_sanv_found(r->san_state);
}

void gr_sub_totals(gr_sub_result *s)
{
    s->score = s->max = 0;
    for (int c = 0; c < s->n_ch; c++) {
        gr_ch_result *ch = &s->ch[c];
        ch->score = ch->max = 0;
        for (int v = 0; v < ch->n_v; v++) {
            ch->score += gr_var_score(&ch->v[v]);
            ch->max += gr_var_max(&ch->v[v]);
        }
        s->score += ch->score;
        s->max += ch->max;
    }
}

double gr_var_sol_pct(const gr_var_result *v) { return v->ref_sol_pct > 0 && v->ratio > 0 ? v->ref_sol_pct / v->ratio : 0; }

gr_diag_claim gr_diag_claim_of(gr_bug b)
{
    if (b == GR_BUG_NONE) return GR_DIAG_SAYS_NOTHING;
    if (b == GR_BUG_UNCLEAR || b == GR_BUG_SLOW) return GR_DIAG_SEEN;
    /* a slow variant's cause other than the host's CPU time comes from the counters */
    return gr_bug_is_perf(b) && b != GR_BUG_HOST_WORK ? GR_DIAG_MEASURED : GR_DIAG_LIKELY;
}

const char *gr_var_part_why(const gr_var_result *r, gr_part p, const char *detail)
{
    if (p == GR_PART_SANITIZER) return r->san;
    if (p == GR_PART_PERF) return r->caught ? r->caught_note : r->perf_note;
    return gr_caught_costs_correct(r->caught) ? r->caught_note : detail[0] ? detail : gr_verdict_name(r->verdict);
}

int gr_var_has_notes(const gr_var_result *r, const char *detail)
{
    return detail[0] || gr_sanv_found(r->san_state) || r->perf_note[0] || r->caught || r->diag.bug;
}

int gr_ch_san_unfinished(const gr_ch_result *ch)
{
    for (int v = 0; v < ch->n_v; v++)
        if (ch->v[v].san_state == GR_SANV_UNFINISHED) return v;
    return -1;
}
