/* counters.c — see counters.h. */
#define _GNU_SOURCE 1
#include "counters.h"
#include "gr_util.h"

#include <jansson.h>
#include <math.h>

static const char *const gr_ctr_status_names[GR_CTR_STATUS_COUNT] = {
    "not-tried", "ok", "no-ncu", "no-permission", "budget", "timeout", "failed"};
static const char *const gr_ctr_status_lines[GR_CTR_STATUS_COUNT] = {
    "hardware counters were not available",
    "",
    "hardware counters were not available (no Nsight Compute on the grading host), so no cause is named",
    "hardware counters were not available (the GPU driver lets only administrators read them), so no cause is named",
    "hardware counters were not measured (the profile did not fit in the GPU time budget left), so no cause is named",
    "hardware counters were not measured (the profiler ran past its time limit), so no cause is named",
    "hardware counters could not be read for this variant, so no cause is named",
};

const char *gr_ctr_status_name(gr_ctr_status s) { return s >= 0 && s < GR_CTR_STATUS_COUNT ? gr_ctr_status_names[s] : "?"; }
const char *gr_ctr_status_line(gr_ctr_status s) { return s >= 0 && s < GR_CTR_STATUS_COUNT ? gr_ctr_status_lines[s] : ""; }

/* The metric plan: a gr_ctr field is the sum of one or two metrics (longest: the longest launch's, which sets
 * the pace); key: its name in grading.json (NULL: not kept). One small fixed set answers every rule of
 * diagnose_perf.c, so one ncu pass group serves every chapter (the question decides the rule, not the metric). */
typedef struct {
    const char *key;
    size_t at;
    int longest;
    const char *metric[2];
} gr_ctr_field;

#define AT(field) offsetof(gr_ctr, field)
static const gr_ctr_field gr_ctr_fields[] = {
    {"time_ns", AT(time_ns), 0, {"gpu__time_duration.sum"}},
    {"dram_bytes", AT(dram_bytes), 0, {"dram__bytes_read.sum", "dram__bytes_write.sum"}},
    {"ld_sectors", AT(ld_sectors), 0, {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"}},
    {"ld_requests", AT(ld_requests), 0, {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"}},
    {"st_sectors", AT(st_sectors), 0, {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"}},
    {"st_requests", AT(st_requests), 0, {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"}},
    {"shared_requests", AT(shared_requests), 0,
     {"smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_shared_st.sum"}},
    {"bank_conflicts", AT(bank_conflicts), 0,
     {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"}},
    {"local_sectors", AT(local_sectors), 0,
     {"l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"}},
    {"atomics", AT(atomics), 0,
     {"l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"}},
    {"inst", AT(inst), 0, {"smsp__inst_executed.sum"}},
    {"occupancy", AT(occupancy), 1, {"sm__warps_active.avg.pct_of_peak_sustained_active"}},
    {"occupancy_max", AT(occupancy_max), 1, {"sm__maximum_warps_per_active_cycle_pct"}},
    {NULL, AT(lim_regs), 1, {"launch__occupancy_limit_registers"}},
    {NULL, AT(lim_smem), 1, {"launch__occupancy_limit_shared_mem"}},
    {NULL, AT(lim_warps), 1, {"launch__occupancy_limit_warps"}},
    {NULL, AT(lim_blocks), 1, {"launch__occupancy_limit_blocks"}},
    {"registers", AT(regs), 1, {"launch__registers_per_thread"}},
    {"block", AT(block), 1, {"launch__block_size"}},
    {"shared_bytes", AT(smem), 1, {"launch__shared_mem_per_block_static", "launch__shared_mem_per_block_dynamic"}},
    {"stall_barrier", AT(stall_barrier), 1, {"smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio"}},
};
#undef AT
enum { GR_CTR_FIELDS = sizeof gr_ctr_fields / sizeof gr_ctr_fields[0] };

static double *gr_ctr_at(const gr_ctr *c, const gr_ctr_field *f) { return (double *)((char *)c + f->at); }

const char *gr_ctr_metric(int i)
{
    for (int f = 0; f < GR_CTR_FIELDS; f++)
        for (int m = 0; m < 2 && gr_ctr_fields[f].metric[m]; m++)
            if (!i--) return gr_ctr_fields[f].metric[m];
    return NULL;
}

int gr_ctr_launches(const char *kernels)
{
    if (!kernels || !*kernels) return 0;
    int n = 1;
    for (const char *c = kernels; *c; c++) n += *c == ',';
    return n;
}

int gr_ctr_argv(const gr_ctr_req *q, gr_ctr_cmd *c)
{
    memset(c, 0, sizeof *c);
    /* only the variant's own kernels, the list's commas the regex's alternatives (make profile's filter): a
     * name, or a name with its template arguments or parameter list */
    int at = snprintf(c->filter, sizeof c->filter, "regex:^(%s)([<(].*)?$", q->kernels ? q->kernels : "");
    if (!gr_ctr_launches(q->kernels) || at >= GR_CTR_ARG) return -1;
    for (char *f = c->filter; *f; f++)
        if (*f == ',') *f = '|';
    snprintf(c->launches, sizeof c->launches, "%d", gr_ctr_launches(q->kernels));
    for (int i = 0, n = 0; gr_ctr_metric(i); i++) {
        n += snprintf(c->metrics + n, sizeof c->metrics - (size_t)n, "%s%s", i ? "," : "", gr_ctr_metric(i));
        if (n >= (int)sizeof c->metrics) return -1;
    }
    /* --clock-control none: the clocks the timings were taken at; --print-units base: bytes, not MB;
     * one repetition, no warm-up: ncu replays each kernel itself, the program's repetitions only cost time.
     * The count is of launches the filter admits, the check's first of each kernel (gr_ctr_launches); the
     * metrics alone, not the sections that hold them (each section adds passes of its own). */
    const char *const a[] = {q->ncu, "--csv", "--page", "raw", "--print-units", "base", "--clock-control", "none",
                             "--launch-count", c->launches, "--kernel-name", c->filter, "--metrics", c->metrics,
                             q->prog, "--variant", q->variant, "--size", q->size, "--reps", "1", "--warmup", "0"};
    int n = sizeof a / sizeof a[0];
    for (int i = 0; i < n; i++) {
        if (!a[i] || (a[i] != c->metrics && strlen(a[i]) >= GR_CTR_ARG)) return -1;
        c->argv[i] = a[i];
    }
    return c->argc = n;
}

int gr_ctr_limit(double ref_s, double ratio, double left_s, double *limit_s, char *why, size_t len)
{
    *limit_s = 0;
    if (!(ref_s > 0) || !isfinite(ref_s)) return snprintf(why, len, "the reference's profile time is unknown"), 0;
    if (!(ratio > 0) || !isfinite(ratio)) return snprintf(why, len, "the variant's time ratio is unknown"), 0;
    double need = GR_CTR_MARGIN * ref_s * (ratio > 1 ? ratio : 1) + GR_CTR_SLACK_S;
    if (!(need <= left_s)) {
        snprintf(why, len, "the profile needs %.0f s (the reference's %.2f s x %.2f, the time ratio), the GPU budget "
                 "has %.0f s left", need, ref_s, ratio > 1 ? ratio : 1, left_s > 0 ? left_s : 0);
        return 0;
    }
    *limit_s = need;
    snprintf(why, len, "%.2f s: the reference's %.2f s x %.2f, the time ratio, x %.1f + %.0f s", need, ref_s,
             ratio > 1 ? ratio : 1, GR_CTR_MARGIN, GR_CTR_SLACK_S);
    return 1;
}

/* Field f of row r: its metrics' sum, a metric ncu did not report as 0 (a kernel without shared memory
 * has no conflicts). */
static double gr_ctr_get(const tp_csv *t, int r, const gr_ctr_field *f)
{
    double sum = 0;
    for (int m = 0; m < 2 && f->metric[m]; m++) {
        const char *const names[] = {f->metric[m], NULL};
        double v = tp_csv_metric(t, r, names, NULL);
        sum += isnan(v) ? 0 : v;
    }
    return sum;
}

gr_ctr_status gr_ctr_parse(const char *text, gr_ctr *c)
{
    memset(c, 0, sizeof *c);
    if (!text) return GR_CTR_FAILED;
    if (strstr(text, "ERR_NVGPUCTRPERM")) return GR_CTR_NO_PERM;
    tp_csv t;
    if (tp_parse_csv(text, &t) < 0) return GR_CTR_FAILED;
    double longest = -1;
    for (int r = 0; r < t.n_rows; r++) {
        /* ncu's raw page: one row per kernel launch; a row without a kernel name is not one */
        int k = tp_csv_col(&t, "Kernel Name");
        if (k >= 0 && !t.rows[r][k][0]) continue;
        double ns = gr_ctr_get(&t, r, &gr_ctr_fields[0]);
        for (int f = 0; f < GR_CTR_FIELDS; f++)
            if (!gr_ctr_fields[f].longest) *gr_ctr_at(c, &gr_ctr_fields[f]) += gr_ctr_get(&t, r, &gr_ctr_fields[f]);
            else if (ns >= longest) *gr_ctr_at(c, &gr_ctr_fields[f]) = gr_ctr_get(&t, r, &gr_ctr_fields[f]);
        if (ns >= longest) longest = ns;
        c->n_kernels++;
    }
    tp_csv_free(&t);
    return c->n_kernels ? GR_CTR_OK : GR_CTR_FAILED;
}

gr_ctr_limiter gr_ctr_limiter_of(const gr_ctr *c)
{
    const double lim[] = {c->lim_regs, c->lim_smem, c->lim_warps, c->lim_blocks};
    gr_ctr_limiter best = GR_LIM_NONE;
    double bv = INFINITY;
    for (int i = 0; i < 4; i++) /* in the enum's order, after GR_LIM_NONE */
        if (lim[i] > 0 && lim[i] < bv) bv = lim[i], best = (gr_ctr_limiter)(GR_LIM_REGISTERS + i);
    return best;
}

const char *gr_ctr_limiter_name(gr_ctr_limiter l)
{
    static const char *const names[] = {"nothing", "registers per thread", "shared memory per block",
                                        "the block size", "the number of blocks an SM holds"};
    return l >= GR_LIM_NONE && l <= GR_LIM_BLOCKS ? names[l] : "?";
}

int gr_ctr_find_ncu(const char *sanitizer, char *out, size_t len)
{
    const char *slash = sanitizer ? strrchr(sanitizer, '/') : NULL;
    if (slash) {
        snprintf(out, len, "%.*sncu", (int)(slash - sanitizer + 1), sanitizer);
        if (access(out, X_OK) == 0) return 0;
    }
    if (gr_which("ncu", out, len)) return 0;
    out[0] = 0;
    return -1;
}

json_t *gr_ctr_json(const gr_ctr *c)
{
    json_t *o = json_object();
    json_object_set_new(o, "kernels", json_real(c->n_kernels));
    for (int f = 0; f < GR_CTR_FIELDS; f++)
        if (gr_ctr_fields[f].key)
            json_object_set_new(o, gr_ctr_fields[f].key, json_real(*gr_ctr_at(c, &gr_ctr_fields[f])));
    json_object_set_new(o, "limiter", json_string(gr_ctr_limiter_name(gr_ctr_limiter_of(c))));
    return o;
}
