/* counters.c — see counters.h. */
#define _GNU_SOURCE 1
#include "counters.h"
#include "gr_util.h"

#include <jansson.h>
#include <math.h>

static const char *const gr_ctr_status_names[GR_CTR_STATUS_COUNT] = {
    "not-tried", "ok", "no-ncu", "no-permission", "budget", "timeout", "failed"};
static const char *const gr_ctr_status_lines[GR_CTR_STATUS_COUNT] = {
    "",
    "",
    "Hardware counters were not available (no Nsight Compute on the grading host), so no cause is named.",
    "Hardware counters were not available (the GPU driver lets only administrators read them), so no cause is named.",
    "Hardware counters were not measured (the chapter's GPU time budget was spent), so no cause is named.",
    "Hardware counters were not measured (the profiler ran past its time limit), so no cause is named.",
    "Hardware counters could not be read for this variant, so no cause is named.",
};

const char *gr_ctr_status_name(gr_ctr_status s) { return s >= 0 && s < GR_CTR_STATUS_COUNT ? gr_ctr_status_names[s] : "?"; }
const char *gr_ctr_status_line(gr_ctr_status s) { return s >= 0 && s < GR_CTR_STATUS_COUNT ? gr_ctr_status_lines[s] : ""; }

/* The plan: one small fixed set that answers every cause of diagnose.c's perf rules, so one ncu pass
 * group serves every chapter (the chapter's question decides which rule fires, not which metric is read). */
const char *const gr_ctr_metrics[] = {
    "gpu__time_duration.sum",
    "dram__bytes_read.sum", "dram__bytes_write.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_shared_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
    "smsp__inst_executed.sum",
    "sm__warps_active.avg.pct_of_peak_sustained_active", "sm__maximum_warps_per_active_cycle_pct",
    "launch__occupancy_limit_registers", "launch__occupancy_limit_shared_mem",
    "launch__occupancy_limit_warps", "launch__occupancy_limit_blocks",
    "launch__registers_per_thread", "launch__block_size",
    "launch__shared_mem_per_block_static", "launch__shared_mem_per_block_dynamic",
    "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_membar_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_wait_per_issue_active.ratio",
    NULL,
};

int gr_ctr_metric_list(char *buf, size_t len)
{
    size_t k = 0;
    for (int i = 0; gr_ctr_metrics[i]; i++) {
        int n = snprintf(buf + k, len - k, "%s%s", i ? "," : "", gr_ctr_metrics[i]);
        if (n < 0 || (size_t)n >= len - k) return -1;
        k += (size_t)n;
    }
    return (int)k;
}

/* ncu's sections that hold every metric of the plan (repeatable --section options: each argument stays
 * short, as gr_cmd's arguments must). */
const char *const gr_ctr_sections[] = {"SpeedOfLight", "LaunchStats", "Occupancy", "MemoryWorkloadAnalysis_Chart",
                                       "MemoryWorkloadAnalysis_Tables", "WarpStateStats", "InstructionStats", NULL};

int gr_ctr_argv(const gr_ctr_req *q, char args[][GR_CTR_ARG], int max)
{
    /* --clock-control none: the clocks the timings were taken at; --print-units base: bytes, not MB;
     * one repetition, no warm-up: ncu replays each kernel itself, the program's repetitions only cost time.
     * The count is of launches the filter admits, all kernels together: a variant of two kernels (chapter
     * 5's pad_transpose, then its own) launches the first in its preparation and its check before the
     * second, so 8 reaches both in every run of one repetition (the student's and the reference's alike). */
    const char *const head[] = {q->ncu, "--csv", "--page", "raw", "--print-units", "base", "--clock-control", "none",
                                "--launch-count", "8"};
    const char *const tail[] = {q->prog, "--variant", q->variant, "--size", q->size, "--reps", "1", "--warmup", "0"};
    /* only the variant's own kernels (make profile's filter): a name, or a name with its template
     * arguments or parameter list */
    char filter[GR_CTR_ARG + 1];
    int at = snprintf(filter, sizeof filter, "regex:^(");
    for (const char *k = q->kernels ? q->kernels : ""; *k && at < (int)sizeof filter;) {
        size_t len = strcspn(k, ",");
        at += snprintf(filter + at, sizeof filter - (size_t)at, "%s%.*s", filter[at - 1] == '(' ? "" : "|", (int)len, k);
        k += len + (k[len] == ',');
    }
    if (at <= 8 || at >= (int)sizeof filter) return -1;
    at += snprintf(filter + at, sizeof filter - (size_t)at, ")([<(].*)?$");
    const char *a[GR_CTR_ARGS];
    int n = 0;
    for (size_t i = 0; i < sizeof head / sizeof head[0]; i++) a[n++] = head[i];
    a[n++] = "--kernel-name";
    a[n++] = filter;
    for (int i = 0; gr_ctr_sections[i]; i++) a[n++] = "--section", a[n++] = gr_ctr_sections[i];
    for (size_t i = 0; i < sizeof tail / sizeof tail[0]; i++) a[n++] = tail[i];
    if (n > max) return -1;
    for (int i = 0; i < n; i++) {
        if (!a[i] || strlen(a[i]) >= GR_CTR_ARG) return -1;
        snprintf(args[i], GR_CTR_ARG, "%s", a[i]);
    }
    return n;
}

/* A metric of row r, 0 when ncu did not report it (a kernel without shared memory has no conflicts). */
static double gr_ctr_get(const tp_csv *t, int r, const char *name)
{
    const char *const names[] = {name, NULL};
    double v = tp_csv_metric(t, r, names, NULL);
    return isnan(v) ? 0 : v;
}

static void gr_ctr_add_row(const tp_csv *t, int r, gr_ctr *c, double *longest)
{
    double ns = gr_ctr_get(t, r, "gpu__time_duration.sum");
    c->time_ns += ns;
    c->dram_bytes += gr_ctr_get(t, r, "dram__bytes_read.sum") + gr_ctr_get(t, r, "dram__bytes_write.sum");
    c->ld_sectors += gr_ctr_get(t, r, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
    c->ld_requests += gr_ctr_get(t, r, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
    c->st_sectors += gr_ctr_get(t, r, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum");
    c->st_requests += gr_ctr_get(t, r, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum");
    c->shared_requests += gr_ctr_get(t, r, "smsp__sass_inst_executed_op_shared_ld.sum") +
                          gr_ctr_get(t, r, "smsp__sass_inst_executed_op_shared_st.sum");
    c->bank_conflicts += gr_ctr_get(t, r, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") +
                         gr_ctr_get(t, r, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum");
    c->local_sectors += gr_ctr_get(t, r, "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum") +
                        gr_ctr_get(t, r, "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum");
    c->atomics += gr_ctr_get(t, r, "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum") +
                  gr_ctr_get(t, r, "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum");
    c->inst += gr_ctr_get(t, r, "smsp__inst_executed.sum");
    if (ns < *longest) return;
    *longest = ns; /* the longest kernel's launch: what sets the pace */
    c->occupancy = gr_ctr_get(t, r, "sm__warps_active.avg.pct_of_peak_sustained_active");
    c->occupancy_max = gr_ctr_get(t, r, "sm__maximum_warps_per_active_cycle_pct");
    c->lim_regs = gr_ctr_get(t, r, "launch__occupancy_limit_registers");
    c->lim_smem = gr_ctr_get(t, r, "launch__occupancy_limit_shared_mem");
    c->lim_warps = gr_ctr_get(t, r, "launch__occupancy_limit_warps");
    c->lim_blocks = gr_ctr_get(t, r, "launch__occupancy_limit_blocks");
    c->regs = gr_ctr_get(t, r, "launch__registers_per_thread");
    c->block = gr_ctr_get(t, r, "launch__block_size");
    c->smem = gr_ctr_get(t, r, "launch__shared_mem_per_block_static") +
              gr_ctr_get(t, r, "launch__shared_mem_per_block_dynamic");
    c->stall_barrier = gr_ctr_get(t, r, "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio");
    c->n_top = tp_ncu_top_stalls(t, r, c->top);
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
        gr_ctr_add_row(&t, r, c, &longest);
        c->n_kernels++;
    }
    tp_csv_free(&t);
    return c->n_kernels ? GR_CTR_OK : GR_CTR_FAILED;
}

gr_ctr_limiter gr_ctr_limiter_of(const gr_ctr *c)
{
    const double lim[] = {c->lim_regs, c->lim_smem, c->lim_warps, c->lim_blocks};
    const gr_ctr_limiter who[] = {GR_LIM_REGISTERS, GR_LIM_SHARED, GR_LIM_BLOCK_SIZE, GR_LIM_BLOCKS};
    gr_ctr_limiter best = GR_LIM_NONE;
    double bv = INFINITY;
    for (int i = 0; i < 4; i++)
        if (lim[i] > 0 && lim[i] < bv) bv = lim[i], best = who[i];
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
    if (sanitizer && *sanitizer) {
        const char *slash = strrchr(sanitizer, '/');
        if (slash) {
            snprintf(out, len, "%.*sncu", (int)(slash - sanitizer + 1), sanitizer);
            if (access(out, X_OK) == 0) return 0;
        }
    }
    if (gr_which("ncu", out, len)) return 0;
    out[0] = 0;
    return -1;
}

json_t *gr_ctr_json(const gr_ctr *c)
{
    const struct {
        const char *name;
        double v;
    } f[] = {{"kernels", c->n_kernels},          {"time_ns", c->time_ns},
             {"dram_bytes", c->dram_bytes},      {"ld_sectors", c->ld_sectors},
             {"ld_requests", c->ld_requests},    {"st_sectors", c->st_sectors},
             {"st_requests", c->st_requests},    {"shared_requests", c->shared_requests},
             {"bank_conflicts", c->bank_conflicts}, {"local_sectors", c->local_sectors},
             {"atomics", c->atomics},            {"inst", c->inst},
             {"occupancy", c->occupancy},        {"occupancy_max", c->occupancy_max},
             {"registers", c->regs},             {"block", c->block},
             {"shared_bytes", c->smem},          {"stall_barrier", c->stall_barrier}};
    json_t *o = json_object();
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) json_object_set_new(o, f[i].name, json_real(f[i].v));
    json_object_set_new(o, "limiter", json_string(gr_ctr_limiter_name(gr_ctr_limiter_of(c))));
    return o;
}
