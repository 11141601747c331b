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
    const char *size = o->size ? o->size : probe_size(o->program);
    const char *logs = o->logs ? o->logs : "build/sanitize";
    shell_safe("log folder", logs);
    char mk[1100];
    snprintf(mk, sizeof mk, "mkdir -p %s", logs);
    int st;
    free(run_capture(mk, &st));

    char toolbuf[256];
    snprintf(toolbuf, sizeof toolbuf, "%s", o->tools ? o->tools : "memcheck,racecheck,synccheck,initcheck");
    const char *tools[8];
    int n_tools = 0;
    for (char *save = NULL, *t = strtok_r(toolbuf, ",", &save); t && n_tools < 8; t = strtok_r(NULL, ",", &save)) {
        if (strcmp(t, "memcheck") && strcmp(t, "racecheck") && strcmp(t, "synccheck") && strcmp(t, "initcheck"))
            die(EXIT_USAGE, "unknown sanitizer tool '%s' (memcheck, racecheck, synccheck, initcheck)", t);
        tools[n_tools++] = t;
    }

    san_job jobs[TP_MAX_VARIANTS * 8];
    int n_jobs = 0;
    for (int v = 0; v < vs.n; v++)
        if (vs.selected >> v & 1)
            for (int t = 0; t < n_tools; t++) jobs[n_jobs++] = (san_job){.variant = v, .tool = tools[t]};

    const char *label = o->label ? o->label : o->program;
    char base[256];
    snprintf(base, sizeof base, "%s", strrchr(o->program, '/') ? strrchr(o->program, '/') + 1 : o->program);
    printf("compute-sanitizer on %s, size %s, one run per tool and variant (logs in %s/)\n", label, size, logs);
    fflush(stdout);

    /* Run up to `jobs` at once: each is mostly CPU work of the sanitizer; the GPU is shared. */
    int next = 0, running = 0, jobs_max = o->jobs > 0 ? o->jobs : 1;
    while (next < n_jobs || running > 0) {
        while (running < jobs_max && next < n_jobs) {
            san_job *j = &jobs[next++];
            snprintf(j->log, sizeof j->log, "%s/%s-%s-%s.log", logs, base, vs.v[j->variant].name, j->tool);
            char cmd[3000], pc[1024];
            snprintf(cmd, sizeof cmd,
                     "timeout %d compute-sanitizer --tool %s --error-exitcode 86 --print-limit 20 %s "
                     "--variant %s --size %s --reps 1 --warmup 0 > %s 2>&1",
                     o->timeout_s, j->tool, program_cmd(o->program, pc, sizeof pc), vs.v[j->variant].name, size,
                     j->log);
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

    int problems = 0, not_supported = 0;
    for (int k = 0; k < n_jobs; k++) {
        san_job *j = &jobs[k];
        char *text = read_file(j->log);
        gr_san_report s;
        gr_san_parse(text, &s);
        free(text);
        char verdict[1024];
        int bad;
        if (s.not_supported || (s.tool_error[0] && !s.found_summary)) {
            snprintf(verdict, sizeof verdict, "SANITIZER FAILED: %s", s.tool_error);
            bad = 1;
            not_supported += s.not_supported;
        } else if (!s.found_summary) {
            snprintf(verdict, sizeof verdict, "NO SUMMARY (exit %d%s%s): see the log", j->status,
                     j->status == 124 ? ", timed out after " : "", j->status == 124 ? "the limit" : "");
            bad = 1;
        } else if (gr_san_findings(&s) > 0) {
            snprintf(verdict, sizeof verdict, "FOUND %ld error%s%s: %s%s%s", s.errors, s.errors == 1 ? "" : "s",
                     s.warnings ? " + warnings" : "", s.first, s.where[0] ? " | " : "", s.where);
            bad = 1;
        } else if (j->status == 2 || j->status == 4 || j->status > 5) {
            snprintf(verdict, sizeof verdict, "clean, but %s (exit %d)", program_verdict(j->status), j->status);
            bad = 1;
        } else {
            snprintf(verdict, sizeof verdict, "clean   %s", program_verdict(j->status));
            bad = 0;
        }
        problems += bad;
        printf("  %-10s %-20s %s\n", j->tool, vs.v[j->variant].name, verdict);
        if (bad) printf("  %-10s %-20s log: %s\n", "", "", j->log);
    }
    if (not_supported) printf("compute-sanitizer could not instrument this GPU/driver (see the logs)\n");
    printf("%s: %d of %d runs %s\n", label, problems ? problems : n_jobs, n_jobs,
           problems ? "with findings" : "clean");
    return problems ? EXIT_FINDINGS : 0;
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

    /* the kernels to profile: the variant's own, else every kernel the chapter's source defines */
    char regex[1024] = "";
    size_t at = 0;
    int n_k = vs.v[v].n_kernels;
    for (int k = 0; k < n_k; k++)
        at += (size_t)snprintf(regex + at, sizeof regex - at, "%s%s", k ? "|" : "", vs.v[v].kernels[k]);
    if (!n_k) {
        if (!o->ptxas) die(EXIT_USAGE, "variant %s names no kernels and no --ptxas file lists the chapter's", vs.v[v].name);
        char *text = read_file(o->ptxas);
        tp_resources res[128];
        int n = tp_parse_ptxas(text, res, 128);
        free(text);
        for (int k = 0; k < n; k++) {
            char base[TP_NAME];
            tp_base_name(res[k].name, base, sizeof base);
            at += (size_t)snprintf(regex + at, sizeof regex - at, "%s%s", k ? "|" : "", base);
        }
        printf("note: variant %s does not name its kernels (wb_variant_info.kernels); profiling every kernel of the "
               "chapter it launches: %s\n", vs.v[v].name, regex);
    }
    tp_gpu g;
    char why[256];
    if (gpu_present(&g, why, sizeof why) != 0) {
        fprintf(stderr, "make profile needs an NVIDIA GPU (ncu reads its hardware counters): %s\n", why);
        return EXIT_NEEDS;
    }
    if (!on_path("ncu")) die(EXIT_NEEDS, "ncu (Nsight Compute) is not on PATH; it comes with the CUDA toolkit");

    char cmd[4096], pc[1024], sizearg[128] = "";
    if (o->size) snprintf(sizearg, sizeof sizearg, "--size %s", o->size);
    /* --clock-control none: measure at the clocks the programs run at, not at base clocks.
     * --set full: every section, so the report file is complete for the Nsight Compute GUI. */
    snprintf(cmd, sizeof cmd,
             "ncu --set full --import-source no --clock-control none -f -o %s -k 'regex:^(%s)([<(].*)?$' "
             "%s --variant %s %s --reps 1 --warmup 0",
             o->report, regex, program_cmd(o->program, pc, sizeof pc), vs.v[v].name, sizearg);
    printf("profiling: %s\n", cmd);
    fflush(stdout);
    int st;
    char *log = run_capture(cmd, &st);
    char logpath[1100];
    snprintf(logpath, sizeof logpath, "%s.log", o->report);
    FILE *lf = fopen(logpath, "w");
    if (lf) fputs(log, lf), fclose(lf);
    const char *fail = ncu_failure(log);
    char rep[1100];
    snprintf(rep, sizeof rep, "%s.ncu-rep", o->report);
    struct stat sb;
    if (fail || stat(rep, &sb) != 0) {
        fprintf(stderr, "%s\n", fail ? fail : "ncu wrote no report (exit status below; full output in the log)");
        fprintf(stderr, "ncu exit %d; log: %s\n", st, logpath);
        free(log);
        return 1;
    }
    /* the program's own table, for the time and throughput it measured outside the profiler */
    free(log);

    snprintf(cmd, sizeof cmd, "ncu --import %s --csv --page raw --print-units base", rep);
    char *csvtext = run_capture(cmd, &st);
    char csvpath[1100];
    snprintf(csvpath, sizeof csvpath, "%s.csv", o->report);
    FILE *cf = fopen(csvpath, "w");
    if (cf) fputs(csvtext, cf), fclose(cf);
    if (st != 0) {
        fprintf(stderr, "could not read the report back (ncu --import exit %d): %.300s\n", st, csvtext);
        free(csvtext);
        return 1;
    }
    char title[512];
    snprintf(title, sizeof title, "%s, variant %s (%s) on %s", o->program, vs.v[v].name, vs.v[v].idea, g.name);
    int rc = profile_summary(csvtext, title);
    free(csvtext);
    if (rc == 0)
        printf("\nfull report: %s (open it in the Nsight Compute GUI: ncu-ui %s); raw metrics: %s\n", rep, rep,
               csvpath);
    return rc;
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

        const char *unit;
        char line[512];
        static const char *const t_dur[] = {"gpu__time_duration.sum", NULL};
        static const char *const t_blk[] = {"launch__block_size", NULL};
        static const char *const t_grid[] = {"launch__grid_size", NULL};
        static const char *const t_reg[] = {"launch__registers_per_thread", NULL};
        double dur = tp_csv_metric(&c, r, t_dur, &unit) * tp_unit_scale(unit);
        double blk = tp_csv_metric(&c, r, t_blk, NULL), grid = tp_csv_metric(&c, r, t_grid, NULL);
        double regs = tp_csv_metric(&c, r, t_reg, NULL);
        printf("\n== kernel %s\n", kname);
        snprintf(line, sizeof line, "%.4f ms   (%.0f blocks x %.0f threads, %.0f registers/thread)", dur * 1e3, grid,
                 blk, regs);
        metric_line("time (profiled)", line);

        static const char *const m_dram[] = {"dram__bytes.sum.per_second", NULL};
        static const char *const m_dram_pct[] = {"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
                                                 "dram__throughput.avg.pct_of_peak_sustained_elapsed", NULL};
        double dram = tp_csv_metric(&c, r, m_dram, &unit) * tp_unit_scale(unit);
        double dram_pct = tp_csv_metric(&c, r, m_dram_pct, NULL);
        snprintf(line, sizeof line, "%.0f GB/s = %.1f%% of the DRAM's peak", dram / 1e9, dram_pct);
        metric_line("DRAM throughput", isnan(dram) ? "n/a (not in the report)" : line);

        static const char *const m_ach[] = {"sm__warps_active.avg.pct_of_peak_sustained_active", NULL};
        static const char *const m_theo[] = {"sm__maximum_warps_per_active_cycle_pct", NULL};
        double ach = tp_csv_metric(&c, r, m_ach, NULL), theo = tp_csv_metric(&c, r, m_theo, NULL);
        snprintf(line, sizeof line, "achieved %.1f%% of the SM's warp slots (theoretical %.1f%%)", ach, theo);
        metric_line("occupancy", isnan(ach) ? "n/a (not in the report)" : line);

        static const char *const m_gs[] = {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", NULL};
        static const char *const m_gr[] = {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", NULL};
        static const char *const m_ss[] = {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", NULL};
        static const char *const m_sr[] = {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", NULL};
        double gs = tp_csv_metric(&c, r, m_gs, NULL), gr = tp_csv_metric(&c, r, m_gr, NULL);
        double ss = tp_csv_metric(&c, r, m_ss, NULL), sr = tp_csv_metric(&c, r, m_sr, NULL);
        if (isnan(gs) || isnan(gr)) snprintf(line, sizeof line, "n/a (not in the report)");
        else if (gr == 0) snprintf(line, sizeof line, "no global loads");
        else {
            char st_part[32] = "-";
            if (!isnan(ss) && !isnan(sr) && sr > 0) snprintf(st_part, sizeof st_part, "%.2f", ss / sr);
            snprintf(line, sizeof line, "%.2f sectors/request on loads, %s on stores (a coalesced warp: 4 per 4-byte access)",
                     gs / gr, st_part);
        }
        metric_line("global memory", line);

        static const char *const m_bl[] = {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", NULL};
        static const char *const m_bs[] = {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", NULL};
        static const char *const m_wl[] = {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", NULL};
        static const char *const m_ws[] = {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", NULL};
        double bl = tp_csv_metric(&c, r, m_bl, NULL), bs = tp_csv_metric(&c, r, m_bs, NULL);
        double wl = tp_csv_metric(&c, r, m_wl, NULL), wsf = tp_csv_metric(&c, r, m_ws, NULL);
        /* Source-level counters: wavefronts the shared accesses took vs the ideal for their addresses;
         * the excess is what bank conflicts in the code cost. The hardware counter l1tex__data_bank_
         * conflicts also counts collisions with other L1 traffic, so it is shown second. */
        static const char *const m_wf[] = {"memory_l1_wavefronts_shared", NULL};
        static const char *const m_wi[] = {"memory_l1_wavefronts_shared_ideal", NULL};
        double wf = tp_csv_metric(&c, r, m_wf, NULL), wi = tp_csv_metric(&c, r, m_wi, NULL);
        if (isnan(bl) && isnan(bs)) snprintf(line, sizeof line, "n/a (not in the report)");
        else if ((isnan(wl) || wl == 0) && (isnan(wsf) || wsf == 0))
            snprintf(line, sizeof line, "no shared-memory accesses");
        else if (!isnan(wf) && !isnan(wi) && wi > 0)
            snprintf(line, sizeof line,
                     "%.0f wavefronts where %.0f are ideal: %s; hardware conflict counter %.0f ld + %.0f st "
                     "(it also counts L1 traffic collisions)",
                     wf, wi, wf > wi * 1.001 ? "bank conflicts cost the excess" : "no bank conflicts in the code",
                     bl, bs);
        else
            snprintf(line, sizeof line, "bank conflicts: %.0f on loads (of %.0f wavefronts), %.0f on stores (of %.0f)",
                     bl, wl, bs, wsf);
        metric_line("shared memory", line);

        tp_stall top[3];
        int nt = tp_ncu_top_stalls(&c, r, top);
        if (!nt) metric_line("top warp stalls", "n/a (not in the report)");
        else metric_line("top warp stalls", "(warps waiting, per issued instruction, for:)");
        for (int s = 0; s < nt; s++) {
            snprintf(line, sizeof line, "%-18s %6.2f  %s", top[s].reason, top[s].value, tp_stall_meaning(top[s].reason));
            metric_line("", line);
        }
    }
    printf("note: ncu replays each kernel many times with caches flushed: its times are slightly off the table's.\n");
    tp_csv_free(&c);
    return 0;
}
