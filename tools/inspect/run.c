/* run.c — `make sanitize` and `make profile`: running the kernels under compute-sanitizer and Nsight Compute. */
#define _GNU_SOURCE 1
#include "inspect.h"

typedef struct {
    int variant;
    const char *tool;
    char log[1024];
    pid_t pid;
    int status;
} san_job;

/* The tools of --tools (default: all four), checked; returns how many (at most 8). */
static int sanitizer_tools(const char *list, char *buf, size_t len, const char **tools)
{
    snprintf(buf, len, "%s", list ? list : "memcheck,racecheck,synccheck,initcheck");
    int n = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t && n < 8; t = strtok_r(NULL, ",", &save)) {
        if (strcmp(t, "memcheck") && strcmp(t, "racecheck") && strcmp(t, "synccheck") && strcmp(t, "initcheck"))
            die(EXIT_USAGE, "unknown sanitizer tool '%s' (memcheck, racecheck, synccheck, initcheck)", t);
        tools[n++] = t;
    }
    return n;
}

/* What one run is called and where it logs. */
typedef struct {
    const opts *o;
    const variants *vs;
    const char *size, *logs, *base;
} san_plan;

/* Runs up to o->jobs at once: each is mostly CPU work of the sanitizer; the GPU is shared. */
static void run_san_jobs(const san_plan *p, san_job *jobs, int n_jobs)
{
    const opts *o = p->o;
    int next = 0, running = 0, jobs_max = o->jobs > 0 ? o->jobs : 1;
    while (next < n_jobs || running > 0) {
        while (running < jobs_max && next < n_jobs) {
            san_job *j = &jobs[next++];
            const char *vname = p->vs->v[j->variant].name;
            snprintf(j->log, sizeof j->log, "%s/%s-%s-%s.log", p->logs, p->base, vname, j->tool);
            char cmd[3000], pc[1024];
            snprintf(cmd, sizeof cmd,
                     "timeout %d compute-sanitizer --tool %s --error-exitcode 86 --print-limit 20 %s "
                     "--variant %s --size %s --reps 1 --warmup 0 > %s 2>&1",
                     o->timeout_s, j->tool, program_cmd(o->program, pc, sizeof pc), vname, p->size, j->log);
            j->pid = spawn_shell(cmd);
            running++;
        }
        int wst;
        pid_t done = wait(&wst);
        if (done < 0) break;
        for (int k = 0; k < next; k++)
            if (jobs[k].pid == done) {
                jobs[k].status = WIFEXITED(wst) ? WEXITSTATUS(wst) : 128 + WTERMSIG(wst);
                jobs[k].pid = 0;
            }
        running--;
    }
}

/* The verdict on one run from its log's report and its exit status; 1 if it is a problem. */
static int san_verdict(const gr_san_report *s, int status, char *verdict, size_t len)
{
    if (s->not_supported || (s->tool_error[0] && !s->found_summary)) {
        snprintf(verdict, len, "SANITIZER FAILED: %s", s->tool_error);
        return 1;
    }
    if (!s->found_summary) {
        snprintf(verdict, len, "NO SUMMARY (exit %d%s%s): see the log", status, status == 124 ? ", timed out after " : "",
                 status == 124 ? "the limit" : "");
        return 1;
    }
    if (gr_san_findings(s) > 0) {
        snprintf(verdict, len, "FOUND %ld error%s%s: %s%s%s", s->errors, s->errors == 1 ? "" : "s",
                 s->warnings ? " + warnings" : "", s->first, s->where[0] ? " | " : "", s->where);
        return 1;
    }
    if (status == 2 || status == 4 || status > 5) {
        snprintf(verdict, len, "clean, but %s (exit %d)", program_verdict(status), status);
        return 1;
    }
    snprintf(verdict, len, "clean   %s", program_verdict(status));
    return 0;
}

/* One line per run (and its log where it is a problem); returns the number of problems. */
static int report_san_jobs(const variants *vs, const san_job *jobs, int n_jobs, const char *label)
{
    int problems = 0, not_supported = 0;
    for (int k = 0; k < n_jobs; k++) {
        const san_job *j = &jobs[k];
        char *text = read_file(j->log);
        gr_san_report s;
        gr_san_parse(text, &s);
        free(text);
        char verdict[1024];
        int bad = san_verdict(&s, j->status, verdict, sizeof verdict);
        not_supported += s.not_supported;
        problems += bad;
        printf("  %-10s %-20s %s\n", j->tool, vs->v[j->variant].name, verdict);
        if (bad) printf("  %-10s %-20s log: %s\n", "", "", j->log);
    }
    if (not_supported) printf("compute-sanitizer could not instrument this GPU/driver (see the logs)\n");
    printf("%s: %d of %d runs %s\n", label, problems ? problems : n_jobs, n_jobs, problems ? "with findings" : "clean");
    return problems;
}

int cmd_sanitize(const opts *o)
{
    if (!o->program) die(EXIT_USAGE, "sanitize needs --program");
    variants vs;
    load_variants(o->program, o->variant, &vs);
    tp_gpu g;
    char why[256];
    if (gpu_present(&g, why, sizeof why) != 0) {
        fprintf(stderr, "make sanitize needs an NVIDIA GPU (compute-sanitizer runs the kernels): %s\n", why);
        return EXIT_NEEDS;
    }
    if (!on_path("compute-sanitizer"))
        die(EXIT_NEEDS, "compute-sanitizer is not on PATH (it comes with the CUDA toolkit, in its bin/ folder)");
    char base[256], toolbuf[256], mk[1100];
    san_plan p = {.o = o, .vs = &vs, .size = o->size ? o->size : probe_size(o->program),
                  .logs = o->logs ? o->logs : "build/sanitize", .base = base};
    shell_safe("log folder", p.logs);
    snprintf(mk, sizeof mk, "mkdir -p %s", p.logs);
    int st;
    free(run_capture(mk, &st));
    const char *tools[8];
    int n_tools = sanitizer_tools(o->tools, toolbuf, sizeof toolbuf, tools);
    san_job jobs[TP_MAX_VARIANTS * 8];
    int n_jobs = 0;
    for (int v = 0; v < vs.n; v++)
        if (vs.selected >> v & 1)
            for (int t = 0; t < n_tools; t++) jobs[n_jobs++] = (san_job){.variant = v, .tool = tools[t]};
    const char *label = o->label ? o->label : o->program;
    snprintf(base, sizeof base, "%s", strrchr(o->program, '/') ? strrchr(o->program, '/') + 1 : o->program);
    printf("compute-sanitizer on %s, size %s, one run per tool and variant (logs in %s/)\n", label, p.size, p.logs);
    fflush(stdout);
    run_san_jobs(&p, jobs, n_jobs);
    return report_san_jobs(&vs, jobs, n_jobs, label) ? EXIT_FINDINGS : 0;
}

/* ---------------------------------------------------------------- profile */
/* One line that says why ncu produced nothing usable, from its output. */
static const char *ncu_failure(const char *log)
{
    if (strstr(log, "ERR_NVGPUCTRPERM"))
        return "ncu may not read the GPU's performance counters here (ERR_NVGPUCTRPERM: profiling is restricted "
               "to admin users; see NVIDIA's ERR_NVGPUCTRPERM page)";
    if (strstr(log, "LibraryNotLoaded") || strstr(log, "Failed to initialize the profiler"))
        return "ncu could not initialise the profiler on this machine (the driver's profiling library did not load)";
    if (strstr(log, "No kernels were profiled"))
        return "ncu profiled no kernel: the variant's kernels did not run (see the log)";
    if (strstr(log, "not supported") || strstr(log, "Unsupported"))
        return "ncu does not support this GPU or driver (see the log)";
    return NULL;
}

static void metric_line(const char *label, const char *text) { printf("  %-22s %s\n", label, text); }

static int profile_summary(const char *csvtext, const char *title);

/* The kernels to profile, as ncu's regex alternatives: the variant's own, else every kernel the
 * chapter's source defines (from --ptxas). */
static void kernel_regex(const opts *o, const tp_variant *var, char *regex, size_t len)
{
    size_t at = 0;
    regex[0] = 0;
    for (int k = 0; k < var->n_kernels; k++)
        at += (size_t)snprintf(regex + at, len - at, "%s%s", k ? "|" : "", var->kernels[k]);
    if (var->n_kernels) return;
    if (!o->ptxas) die(EXIT_USAGE, "variant %s names no kernels and no --ptxas file lists the chapter's", var->name);
    char *text = read_file(o->ptxas);
    tp_resources res[128];
    int n = tp_parse_ptxas(text, res, 128);
    free(text);
    for (int k = 0; k < n; k++) {
        char base[TP_NAME];
        tp_base_name(res[k].name, base, sizeof base);
        at += (size_t)snprintf(regex + at, len - at, "%s%s", k ? "|" : "", base);
    }
    printf("note: variant %s does not name its kernels (wb_variant_info.kernels); profiling every kernel of the "
           "chapter it launches: %s\n", var->name, regex);
}

/* Writes text to path (best effort: a copy for the student to read). */
static void keep_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) fputs(text, f), fclose(f);
}

/* ncu with every section into <report>.ncu-rep (its output into <report>.log). 0, or 1 with why. */
static int run_ncu(const opts *o, const tp_variant *var, const char *regex, const char *rep)
{
    char cmd[4096], pc[1024], sizearg[128] = "", logpath[1100];
    if (o->size) snprintf(sizearg, sizeof sizearg, "--size %s", o->size);
    /* --clock-control none: measure at the clocks the programs run at, not at base clocks.
     * --set full: every section, so the report file is complete for the Nsight Compute GUI. */
    snprintf(cmd, sizeof cmd,
             "ncu --set full --import-source no --clock-control none -f -o %s -k 'regex:^(%s)([<(].*)?$' "
             "%s --variant %s %s --reps 1 --warmup 0",
             o->report, regex, program_cmd(o->program, pc, sizeof pc), var->name, sizearg);
    printf("profiling: %s\n", cmd);
    fflush(stdout);
    int st;
    char *log = run_capture(cmd, &st);
    snprintf(logpath, sizeof logpath, "%s.log", o->report);
    keep_text(logpath, log);
    const char *fail = ncu_failure(log);
    free(log);
    struct stat sb;
    if (!fail && stat(rep, &sb) == 0) return 0;
    fprintf(stderr, "%s\n", fail ? fail : "ncu wrote no report (exit status below; full output in the log)");
    fprintf(stderr, "ncu exit %d; log: %s\n", st, logpath);
    return 1;
}

/* The report read back as CSV (kept in <report>.csv) and summarised. */
static int import_and_summarise(const opts *o, const char *rep, const char *title)
{
    char cmd[1200], csvpath[1100];
    int st;
    snprintf(cmd, sizeof cmd, "ncu --import %s --csv --page raw --print-units base", rep);
    char *csvtext = run_capture(cmd, &st);
    snprintf(csvpath, sizeof csvpath, "%s.csv", o->report);
    keep_text(csvpath, csvtext);
    if (st != 0) {
        fprintf(stderr, "could not read the report back (ncu --import exit %d): %.300s\n", st, csvtext);
        free(csvtext);
        return 1;
    }
    int rc = profile_summary(csvtext, title);
    free(csvtext);
    if (rc == 0)
        printf("\nfull report: %s (open it in the Nsight Compute GUI: ncu-ui %s); raw metrics: %s\n", rep, rep,
               csvpath);
    return rc;
}

int cmd_profile(const opts *o)
{
    if (o->csv) { /* summarise a CSV that ncu --import wrote before (no GPU needed) */
        char *text = read_file(o->csv);
        int rc = profile_summary(text, o->csv);
        free(text);
        return rc;
    }
    if (!o->program || !o->report) die(EXIT_USAGE, "profile needs --program and --report");
    variants vs;
    if (!o->variant || strchr(o->variant, ',') || !strcmp(o->variant, "all")) {
        load_variants(o->program, NULL, &vs);
        fprintf(stderr, "%s: profile needs one variant (V=...); valid:", prog_name);
        for (int i = 0; i < vs.n; i++) fprintf(stderr, " %s", vs.v[i].name);
        fputc('\n', stderr);
        return EXIT_USAGE;
    }
    load_variants(o->program, o->variant, &vs);
    shell_safe("report", o->report);
    int v = 0;
    while (!(vs.selected >> v & 1)) v++;
    char regex[1024];
    kernel_regex(o, &vs.v[v], regex, sizeof regex);
    tp_gpu g;
    char why[256];
    if (gpu_present(&g, why, sizeof why) != 0) {
        fprintf(stderr, "make profile needs an NVIDIA GPU (ncu reads its hardware counters): %s\n", why);
        return EXIT_NEEDS;
    }
    if (!on_path("ncu")) die(EXIT_NEEDS, "ncu (Nsight Compute) is not on PATH; it comes with the CUDA toolkit");
    char rep[1100], title[512];
    snprintf(rep, sizeof rep, "%s.ncu-rep", o->report);
    if (run_ncu(o, &vs.v[v], regex, rep)) return 1;
    snprintf(title, sizeof title, "%s, variant %s (%s) on %s", o->program, vs.v[v].name, vs.v[v].idea, g.name);
    return import_and_summarise(o, rep, title);
}

/* ---------------------------------------------------------------- the summary's lines */
#define NA "n/a (not in the report)"

/* The metric `name` of row r (NAN where the report lacks it); `scaled`: in base units (s, bytes/s). */
static double metric(const tp_csv *c, int r, const char *name, int scaled)
{
    const char *const names[] = {name, NULL};
    const char *unit = "";
    double x = tp_csv_metric(c, r, names, scaled ? &unit : NULL);
    return scaled ? x * tp_unit_scale(unit) : x;
}

static void line_time(const tp_csv *c, int r)
{
    char line[512];
    double dur = metric(c, r, "gpu__time_duration.sum", 1);
    double blk = metric(c, r, "launch__block_size", 0), grid = metric(c, r, "launch__grid_size", 0);
    double regs = metric(c, r, "launch__registers_per_thread", 0);
    snprintf(line, sizeof line, "%.4f ms   (%.0f blocks x %.0f threads, %.0f registers/thread)", dur * 1e3, grid, blk,
             regs);
    metric_line("time (profiled)", line);
}

static void line_dram_and_occupancy(const tp_csv *c, int r)
{
    char line[512];
    static const char *const m_dram_pct[] = {"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
                                             "dram__throughput.avg.pct_of_peak_sustained_elapsed", NULL};
    double dram = metric(c, r, "dram__bytes.sum.per_second", 1);
    double dram_pct = tp_csv_metric(c, r, m_dram_pct, NULL);
    snprintf(line, sizeof line, "%.0f GB/s = %.1f%% of the DRAM's peak", dram / 1e9, dram_pct);
    metric_line("DRAM throughput", isnan(dram) ? NA : line);
    double ach = metric(c, r, "sm__warps_active.avg.pct_of_peak_sustained_active", 0);
    double theo = metric(c, r, "sm__maximum_warps_per_active_cycle_pct", 0);
    snprintf(line, sizeof line, "achieved %.1f%% of the SM's warp slots (theoretical %.1f%%)", ach, theo);
    metric_line("occupancy", isnan(ach) ? NA : line);
}

static void line_global(const tp_csv *c, int r)
{
    char line[512];
    double gs = metric(c, r, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 0);
    double gr = metric(c, r, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 0);
    double ss = metric(c, r, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 0);
    double sr = metric(c, r, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", 0);
    if (isnan(gs) || isnan(gr)) snprintf(line, sizeof line, NA);
    else if (gr == 0) snprintf(line, sizeof line, "no global loads");
    else {
        char st_part[32] = "-";
        if (!isnan(ss) && !isnan(sr) && sr > 0) snprintf(st_part, sizeof st_part, "%.2f", ss / sr);
        snprintf(line, sizeof line, "%.2f sectors/request on loads, %s on stores (a coalesced warp: 4 per 4-byte access)",
                 gs / gr, st_part);
    }
    metric_line("global memory", line);
}

static void line_shared(const tp_csv *c, int r)
{
    char line[512];
    double bl = metric(c, r, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 0);
    double bs = metric(c, r, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", 0);
    double wl = metric(c, r, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 0);
    double wsf = metric(c, r, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 0);
    /* Source-level counters: wavefronts the shared accesses took vs the ideal for their addresses;
     * the excess is what bank conflicts in the code cost. The hardware counter l1tex__data_bank_
     * conflicts also counts collisions with other L1 traffic, so it is shown second. */
    double wf = metric(c, r, "memory_l1_wavefronts_shared", 0), wi = metric(c, r, "memory_l1_wavefronts_shared_ideal", 0);
    if (isnan(bl) && isnan(bs)) snprintf(line, sizeof line, NA);
    else if ((isnan(wl) || wl == 0) && (isnan(wsf) || wsf == 0))
        snprintf(line, sizeof line, "no shared-memory accesses");
    else if (!isnan(wf) && !isnan(wi) && wi > 0)
        snprintf(line, sizeof line,
                 "%.0f wavefronts where %.0f are ideal: %s; hardware conflict counter %.0f ld + %.0f st "
                 "(it also counts L1 traffic collisions)",
                 wf, wi, wf > wi * 1.001 ? "bank conflicts cost the excess" : "no bank conflicts in the code", bl, bs);
    else
        snprintf(line, sizeof line, "bank conflicts: %.0f on loads (of %.0f wavefronts), %.0f on stores (of %.0f)", bl,
                 wl, bs, wsf);
    metric_line("shared memory", line);
}

static void line_stalls(const tp_csv *c, int r)
{
    char line[512];
    tp_stall top[3];
    int nt = tp_ncu_top_stalls(c, r, top);
    if (!nt) metric_line("top warp stalls", NA);
    else metric_line("top warp stalls", "(warps waiting, per issued instruction, for:)");
    for (int s = 0; s < nt; s++) {
        snprintf(line, sizeof line, "%-18s %6.2f  %s", top[s].reason, top[s].value, tp_stall_meaning(top[s].reason));
        metric_line("", line);
    }
}

/* The student-readable summary of `ncu --import R --csv --page raw --print-units base`: one block per
 * kernel (its first launch; later launches are in the report). */
static int profile_summary(const char *csvtext, const char *title)
{
    tp_csv c;
    if (tp_parse_csv(csvtext, &c) != 0 || c.n_rows == 0) {
        fprintf(stderr, "no kernel rows in ncu's CSV: %.300s\n", csvtext);
        return 1;
    }
    int name_col = tp_csv_col(&c, "Kernel Name");
    printf("\nNsight Compute summary: %s\n", title);
    char seen[16][TP_NAME];
    int n_seen = 0;
    for (int r = 0; r < c.n_rows; r++) {
        const char *kname = name_col >= 0 ? c.rows[r][name_col] : "?";
        char base[TP_NAME];
        tp_base_name(kname, base, sizeof base);
        int dup = 0;
        for (int s = 0; s < n_seen; s++) dup |= !strcmp(seen[s], base);
        if (dup) continue; /* later launches of the same kernel: in the report */
        if (n_seen < 16) snprintf(seen[n_seen++], TP_NAME, "%s", base);
        printf("\n== kernel %s\n", kname);
        line_time(&c, r);
        line_dram_and_occupancy(&c, r);
        line_global(&c, r);
        line_shared(&c, r);
        line_stalls(&c, r);
    }
    printf("note: ncu replays each kernel many times with caches flushed: its times are slightly off the table's.\n");
    tp_csv_free(&c);
    return 0;
}
