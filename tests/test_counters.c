/*
 * test_counters.c — grading/counters.c (the metric plan, ncu's argv, ncu's CSV into a gr_ctr) and the
 * rule table of a correct but slow variant (gr_perf_cause, grading/diagnose_perf.c), without a GPU: the
 * plan checked against a real capture of `ncu --set full` on the H100 (tests/captured/ncu_ch1_global.csv),
 * the parser on CSV text written by hand in ncu's --csv --page raw format, the causes on metric structs
 * with the numbers such kernels give.
 */
#include <math.h>

#include "counters.h"
#include "diagnose.h"
#include "evidence.h"
#include "gr_util.h"
#include "wbtest.h"

/* Every metric the plan reads is one ncu reports on the H100 (a name ncu does not know would read as 0
 * and hide a cause). */
Test(counters, the_plan_names_metrics_ncu_reports)
{
    size_t len = 0;
    char *text = gr_read_capped("tests/captured/ncu_ch1_global.csv", 1 << 24, &len);
    cr_assert_not_null(text);
    tp_csv c;
    cr_assert_eq(tp_parse_csv(text, &c), 0);
    for (int i = 0; gr_ctr_metric(i); i++)
        cr_assert_geq(tp_csv_col(&c, gr_ctr_metric(i)), 0, "%s is not in ncu's raw page", gr_ctr_metric(i));
    tp_csv_free(&c);
    /* and read through the grader's parser: chapter 1's global, 2^26 ints reversed */
    gr_ctr k;
    cr_assert_eq(gr_ctr_parse(text, &k), GR_CTR_OK);
    cr_assert_eq(k.n_kernels, 2, "the capture holds two launches of reverse_global");
    cr_assert(fabs(k.ld_sectors / k.ld_requests - 4.0) < 0.1, "%g", k.ld_sectors / k.ld_requests);
    cr_assert(k.dram_bytes / 2 > 1e8 && k.dram_bytes / 2 < 4e9, "%g bytes per launch", k.dram_bytes / 2);
    cr_assert(k.occupancy > 10 && k.occupancy <= 100, "%g", k.occupancy);
    cr_assert_eq(k.regs, 16);
    free(text);
}

Test(counters, argv_is_data_each_argument_fits_the_sandbox)
{
    char args[GR_CTR_ARGS][GR_CTR_ARG];
    const gr_ctr_req q = {"/usr/local/cuda/bin/ncu", "/w/reversal", "shared-dynamic", "2^26", "reverse_shared_dynamic"};
    int n = gr_ctr_argv(&q, args, GR_CTR_ARGS);
    cr_assert_gt(n, 10);
    /* the variant's kernels alone: the harness's speed-of-light sweep launches first */
    int k = 0;
    while (k < n && strcmp(args[k], "--kernel-name")) k++;
    cr_assert_lt(k + 1, n, "no kernel filter");
    cr_assert_str_eq(args[k + 1], "regex:^(reverse_shared_dynamic)([<(].*)?$");
    const gr_ctr_req two = {q.ncu, q.prog, q.variant, q.size, "matmul_tiled,matmul_naive"};
    cr_assert_gt(gr_ctr_argv(&two, args, GR_CTR_ARGS), 10);
    for (k = 0; strcmp(args[k], "--kernel-name"); k++) {}
    cr_assert_str_eq(args[k + 1], "regex:^(matmul_tiled|matmul_naive)([<(].*)?$");
    const gr_ctr_req none = {q.ncu, q.prog, q.variant, q.size, ""};
    cr_assert_eq(gr_ctr_argv(&none, args, GR_CTR_ARGS), -1, "no kernel named: nothing to measure, not everything");
    char longer[400];
    memset(longer, 'k', sizeof longer - 1);
    longer[sizeof longer - 1] = 0;
    const gr_ctr_req too_long = {q.ncu, q.prog, q.variant, q.size, longer};
    cr_assert_eq(gr_ctr_argv(&too_long, args, GR_CTR_ARGS), -1, "a filter longer than one argument: refused, not cut");
    n = gr_ctr_argv(&q, args, GR_CTR_ARGS);
    cr_assert_str_eq(args[0], q.ncu);
    int prog = -1, sections = 0;
    for (int i = 0; i < n; i++) {
        if (!strcmp(args[i], q.prog)) prog = i;
        sections += !strcmp(args[i], "--section");
    }
    cr_assert_geq(prog, 0);
    cr_assert_eq(sections, 7);
    cr_assert_str_eq(args[prog + 1], "--variant");
    cr_assert_str_eq(args[prog + 2], "shared-dynamic");
    cr_assert_str_eq(args[prog + 4], "2^26");
    cr_assert_eq(gr_ctr_argv(&q, args, 5), -1, "too few slots: refused, not cut");
}

/* Written by hand in the format of `ncu --csv --page raw --print-units base` run live: the program's own
 * lines and ncu's ==PROF== lines around the table, a units row, numbers with thousands separators, two
 * kernels (the occupancy and the limiter are the longer one's). */
static const char two_kernels[] =
    "==PROF== Connected to process 4242 (/w/matmul)\n"
    "{\"variant\":\"tiled\",\"size\":\"1024x1024x1024\"}\n"
    "==PROF== Profiling \"fill\" - 0: 0%....50%....100% - 9 passes\n"
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"gpu__time_duration.sum\","
    "\"dram__bytes_read.sum\",\"dram__bytes_write.sum\",\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\","
    "\"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\",\"smsp__inst_executed.sum\","
    "\"sm__warps_active.avg.pct_of_peak_sustained_active\",\"launch__occupancy_limit_registers\","
    "\"launch__occupancy_limit_warps\",\"launch__registers_per_thread\","
    "\"smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio\","
    "\"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio\"\n"
    "\"\",\"\",\"\",\"\",\"\",\"ns\",\"byte\",\"byte\",\"sector\",\"\",\"inst\",\"%\",\"block\",\"block\","
    "\"register/thread\",\"\",\"\"\n"
    "\"0\",\"4242\",\"matmul\",\"127.0.0.1\",\"fill(float *, int)\",\"10,000\",\"0\",\"4,194,304\",\"0\",\"0\","
    "\"65,536\",\"90.5\",\"16\",\"8\",\"16\",\"0.01\",\"0.2\"\n"
    "\"1\",\"4242\",\"matmul\",\"127.0.0.1\",\"matmul_tiled(const float *, const float *, float *, int, int, int)\","
    "\"1,250,000\",\"8,388,608\",\"4,194,304\",\"33,554,432\",\"8,388,608\",\"150,000,000\",\"45.2\",\"2\",\"8\","
    "\"168\",\"0.8\",\"3.5\"\n"
    "==PROF== Disconnected from process 4242\n";

Test(counters, parse_sums_kernels_and_keeps_the_longest_launch)
{
    gr_ctr c;
    cr_assert_eq(gr_ctr_parse(two_kernels, &c), GR_CTR_OK);
    cr_assert_eq(c.n_kernels, 2);
    cr_assert_float_eq(c.time_ns, 1260000, 1e-6);
    cr_assert_float_eq(c.dram_bytes, 8388608.0 + 2 * 4194304.0, 1e-6);
    cr_assert_float_eq(c.inst, 150065536, 1e-6);
    cr_assert_float_eq(c.occupancy, 45.2, 1e-9);
    cr_assert_float_eq(c.regs, 168, 1e-9);
    cr_assert_eq(gr_ctr_limiter_of(&c), GR_LIM_REGISTERS);
    cr_assert_float_eq(c.stall_barrier, 0.8, 1e-9);
    cr_assert_float_eq(c.bank_conflicts, 0, 1e-9, "a metric not reported reads as none");
}

Test(counters, no_table_is_a_reason_not_a_zero)
{
    gr_ctr c;
    cr_assert_eq(gr_ctr_parse("==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU "
                              "Performance Counters on the target device 0.\n",
                              &c),
                 GR_CTR_NO_PERM);
    cr_assert_eq(gr_ctr_parse("==PROF== Disconnected\n==WARNING== No kernels were profiled.\n", &c), GR_CTR_FAILED);
    cr_assert_eq(gr_ctr_parse(NULL, &c), GR_CTR_FAILED);
    for (int s = GR_CTR_NO_NCU; s < GR_CTR_STATUS_COUNT; s++)
        cr_assert(strstr(gr_ctr_status_line((gr_ctr_status)s), "no cause is named"), "%d", s);
}

/* ---------------------------------------------------------------- the cause */
/* A reference kernel of 2^26 ints in, 2^26 out: coalesced 4-byte accesses, full occupancy. */
static gr_ctr reference(void)
{
    gr_ctr r;
    memset(&r, 0, sizeof r);
    r.n_kernels = 1;
    r.dram_bytes = 536870912;
    r.ld_sectors = 8388608, r.ld_requests = 2097152;
    r.st_sectors = 8388608, r.st_requests = 2097152;
    r.shared_requests = 4194304, r.bank_conflicts = 0;
    r.inst = 5.0e7;
    r.occupancy = 92, r.occupancy_max = 100;
    r.lim_regs = 10, r.lim_smem = 12, r.lim_warps = 8, r.lim_blocks = 32;
    r.regs = 16, r.block = 256, r.smem = 1024;
    r.stall_barrier = 0.2;
    return r;
}

static gr_bug cause(const gr_ctr *s, const gr_ctr *r, char *why)
{
    return gr_perf_cause(s, r, why, 300);
}

Test(perf_cause, the_reference_against_itself_names_nothing)
{
    gr_ctr r = reference();
    char why[300];
    cr_assert_eq(cause(&r, &r, why), GR_BUG_SLOW, "%s", why);
    cr_assert(strstr(why, "no single cause"), "%s", why);
}

Test(perf_cause, strided_loads_are_uncoalesced_with_both_numbers)
{
    gr_ctr r = reference(), s = r;
    s.ld_sectors = 32.0 * s.ld_requests; /* a sector per thread */
    s.dram_bytes *= 3;                    /* its consequence, not a second cause */
    char why[300];
    cr_assert_eq(cause(&s, &r, why), GR_BUG_UNCOALESCED, "%s", why);
    cr_assert(strstr(why, "32.0 sectors") && strstr(why, "4.0 in the reference"), "%s", why);
}

Test(perf_cause, occupancy_names_its_limiter)
{
    gr_ctr r = reference(), s = r;
    s.occupancy = 45, s.occupancy_max = 50, s.regs = 168, s.lim_regs = 1;
    char why[300];
    cr_assert_eq(cause(&s, &r, why), GR_BUG_OCCUPANCY, "%s", why);
    cr_assert(strstr(why, "45 %") && strstr(why, "168 registers") && strstr(why, "92 %"), "%s", why);
    /* a limiter that does not bind (theoretical 100 %) is not named: 128-thread blocks on the H100 */
    s.occupancy = 54, s.occupancy_max = 100, s.block = 128, s.lim_regs = 10;
    cr_assert_eq(cause(&s, &r, why), GR_BUG_OCCUPANCY, "%s", why);
    cr_assert(strstr(why, "54 %") && strstr(why, "theoretical maximum is 100 %") && !strstr(why, "limited by"), "%s", why);
    s = r;
    s.occupancy = 70; /* 92 / 70 < 1.5: not enough to name */
    cr_assert_eq(cause(&s, &r, why), GR_BUG_SLOW, "%s", why);
}

/* Cases measured on the H100 (make diagnose-mutants), each once named nothing for a second rule that fired
 * as the first one's consequence. */
Test(perf_cause, measured_cases_name_their_one_cause)
{
    gr_ctr r = reference(), s;
    char why[300];
    /* chapter 4's naive kernel in 4 x 4 blocks: half-empty warps, twice the warp instructions */
    r.occupancy = 93, r.inst = 3.09e8, r.ld_sectors = 2.0 * r.ld_requests;
    s = r, s.occupancy = 49, s.inst = 6.19e8, s.ld_sectors = 2.5 * s.ld_requests, s.block = 16;
    cr_assert_eq(cause(&s, &r, why), GR_BUG_OCCUPANCY, "%s", why);
    /* chapter 3's grid-stride with scattered int4 loads: 32 sectors per request where the reference has 16 */
    r = reference(), r.occupancy = 98, r.ld_sectors = 16.0 * r.ld_requests;
    s = r, s.occupancy = 78, s.ld_sectors = 32.0 * s.ld_requests;
    cr_assert_eq(cause(&s, &r, why), GR_BUG_UNCOALESCED, "%s", why);
    cr_assert(strstr(why, "32.0 sectors") && strstr(why, "16.0 in the reference"), "%s", why);
    /* one global atomic per thread: the SMs idle while they queue (occupancy 64 % vs 98 %) */
    r.atomics = 4096;
    s = r, s.atomics = 4194304, s.occupancy = 64;
    cr_assert_eq(cause(&s, &r, why), GR_BUG_ATOMICS, "%s", why);
    /* a spill that makes warps wait at the barriers for the slowest */
    s = r, s.local_sectors = 2.0 * (s.ld_sectors + s.st_sectors), s.inst *= 2, s.stall_barrier = 3.0;
    cr_assert_eq(cause(&s, &r, why), GR_BUG_SPILLS, "%s", why);
}

Test(perf_cause, bank_conflicts_spills_atomics_barriers_scalar_loads)
{
    gr_ctr r = reference(), s;
    char why[300];
    s = r, s.bank_conflicts = 31.0 * s.shared_requests, s.stall_barrier = 2.0;
    cr_assert_eq(cause(&s, &r, why), GR_BUG_PADDING, "%s", why);
    cr_assert(strstr(why, "31.0 shared-memory bank conflicts") && strstr(why, "0.0 in"), "%s", why);
    s = r, s.local_sectors = 0.5 * (s.ld_sectors + s.st_sectors), s.inst *= 2;
    cr_assert_eq(cause(&s, &r, why), GR_BUG_SPILLS, "%s", why);
    r.atomics = 65536;
    s = r, s.atomics = 67108864, s.inst *= 1.6;
    cr_assert_eq(cause(&s, &r, why), GR_BUG_ATOMICS, "%s", why);
    s = r, s.stall_barrier = 1.5, s.inst *= 1.2;
    cr_assert_eq(cause(&s, &r, why), GR_BUG_BARRIER, "%s", why);
    /* float4 in the reference: 16 sectors per request; scalar: 4 per request, four times the requests */
    r = reference(), r.ld_requests /= 4, r.st_requests /= 4;
    s = reference(), s.inst *= 1.8;
    cr_assert_eq(cause(&s, &r, why), GR_BUG_SCALAR_LOADS, "%s", why);
}

Test(perf_cause, two_unrelated_departures_name_nothing)
{
    gr_ctr r = reference(), s = r;
    s.ld_sectors = 32.0 * s.ld_requests;
    s.occupancy = 30;
    char why[300];
    cr_assert_eq(cause(&s, &r, why), GR_BUG_SLOW, "%s", why);
    cr_assert(strstr(why, "measured"), "%s", why);
}

Test(perf_cause, slow_variant_with_counters_goes_through_the_diagnosis)
{
    gr_diag_ev e;
    gr_diag_ev_init(&e, NULL, -1);
    e.slow = 1, e.stu_ms = 4.1, e.ref_ms = 1.0;
    e.ctr = GR_CTR_OK;
    e.ref_ctr = reference(), e.stu_ctr = e.ref_ctr;
    e.stu_ctr.ld_sectors = 32.0 * e.stu_ctr.ld_requests;
    gr_diag d;
    gr_diagnose(&e, &d);
    cr_assert_eq(d.bug, GR_BUG_UNCOALESCED, "%s", gr_bug_name(d.bug));
    cr_assert(strstr(d.evidence, "4.1x") && strstr(d.evidence, "32.0 sectors"), "%s", d.evidence);
    cr_assert(gr_bug_is_perf(d.bug) && !gr_bug_is_perf(GR_BUG_RACE));
}

/* Two profiled runs fit the budget or none is tried (the feedback then says the budget was spent). */
Test(counters, profiling_waits_for_room_in_the_budget)
{
    cr_assert(gr_ctr_room(NULL));
    gr_budget b = {.cap_chapter = 120, .cap_submission = 600, .chapter = 100, .submission = 100};
    cr_assert(gr_ctr_room(&b));
    b.chapter = 110;
    cr_assert(!gr_ctr_room(&b), "10 s left in the chapter: not enough for two runs of %.1f s", GR_CTR_RUN_S);
    b.chapter = 0, b.submission = 590;
    cr_assert(!gr_ctr_room(&b));
}

/* The reference's counters are kept per GPU model, build, chapter, variant and size: any one differing is
 * another file, and the name is a plain file name whatever the GPU calls itself. */
Test(counters, the_kept_reference_counters_are_named_by_all_they_depend_on)
{
    char a[256], b[256];
    cr_assert_eq(gr_ctr_cache_name("NVIDIA H100 80GB HBM3", 0xabcull, 4, "tiled", "4096x4096x4096", a, sizeof a), 0);
    cr_expect_str_eq(a, "NVIDIA_H100_80GB_HBM3_0000000000000abc_ch4_tiled_4096x4096x4096.csv");
    const struct {
        const char *gpu;
        unsigned long long build;
        int ch;
        const char *var, *size;
    } other[] = {{"NVIDIA H200", 0xabc, 4, "tiled", "4096x4096x4096"},
                 {"NVIDIA H100 80GB HBM3", 0xabd, 4, "tiled", "4096x4096x4096"},
                 {"NVIDIA H100 80GB HBM3", 0xabc, 3, "tiled", "4096x4096x4096"},
                 {"NVIDIA H100 80GB HBM3", 0xabc, 4, "naive", "4096x4096x4096"},
                 {"NVIDIA H100 80GB HBM3", 0xabc, 4, "tiled", "2048x2048x2048"}};
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        cr_assert_eq(gr_ctr_cache_name(other[i].gpu, other[i].build, other[i].ch, other[i].var, other[i].size, b,
                                       sizeof b),
                     0);
        cr_expect_str_neq(a, b);
    }
    cr_assert_eq(gr_ctr_cache_name("../../etc/x", 1, 1, "a/b", "1", b, sizeof b), 0);
    cr_expect_null(strchr(b, '/'), "%s", b);
    cr_expect_eq(gr_ctr_cache_name("NVIDIA H100", 1, 1, "v", "1", b, 16), -1, "too long: no name rather than a cut one");
}

/* On a GPU: the grader's own ncu command (gr_ctr_argv) for q, with ncu found here, after `make target`; its
 * output whole (*len bytes), ncu's exit in *rc. Skips where ncu is missing or the driver keeps the counters to
 * admins (the grader then says so in the feedback, tested above). */
static char *graders_ncu_run(gr_ctr_req q, const char *target, size_t *len, int *rc)
{
    wbt_require_gpu();
    static char ncu[4096], o[WBT_OUT_MAX];
    if (gr_ctr_find_ncu(NULL, ncu, sizeof ncu) < 0) cr_skip_test("no ncu on PATH");
    cr_assert_eq(wbt_run(o, "make -s %s", target), 0, "%s", o);
    q.ncu = ncu;
    char args[GR_CTR_ARGS][GR_CTR_ARG], dir[256], cmd[8192] = "", csv[512];
    int n = gr_ctr_argv(&q, args, GR_CTR_ARGS);
    cr_assert_gt(n, 0);
    for (int i = 0; i < n; i++) snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd), "'%s' ", args[i]);
    wbt_tmpdir(dir, sizeof dir);
    snprintf(csv, sizeof csv, "%s/ncu.csv", dir);
    /* 150 s: what is checked is what ncu collects, not how fast; beside part a's other GPU suites (and the
     * memory hog) chapter 5's two-kernel run went past 60 s twice on the H100 */
    *rc = wbt_run(o, "timeout 150 %s > %s 2>&1", cmd, csv);
    char *text = gr_read_capped(csv, 1 << 26, len);
    cr_assert_not_null(text);
    if (strstr(text, "ERR_NVGPUCTRPERM")) cr_skip_test("ERR_NVGPUCTRPERM: the driver keeps the counters to admins here");
    return text;
}

/* On a GPU: the grader's own ncu command (gr_ctr_argv, its sections) on chapter 1's reference delivers
 * every metric of the plan, and reads back as counters (skipped where ncu is missing or the driver keeps
 * the counters to admins: the grader then says so in the feedback, tested above). */
Test(counters_gpu, the_graders_ncu_run_reads_every_metric, .timeout = 180)
{
    size_t len = 0;
    int rc = 0;
    char *text = graders_ncu_run((gr_ctr_req){NULL, "./build/solution1", "shared-static", "2^26", "reverse_shared_static"},
                                 "build/solution1", &len, &rc);
    gr_ctr c;
    gr_ctr_status st = gr_ctr_parse(text, &c);
    cr_assert_eq(st, GR_CTR_OK, "ncu exit %d:\n%.2000s", rc, text);
    tp_csv t;
    cr_assert_eq(tp_parse_csv(text, &t), 0);
    for (int i = 0; gr_ctr_metric(i); i++)
        cr_assert_geq(tp_csv_col(&t, gr_ctr_metric(i)), 0, "the sections did not collect %s", gr_ctr_metric(i));
    tp_csv_free(&t);
    cr_assert(c.inst > 0 && c.ld_requests > 0 && c.shared_requests > 0 && c.occupancy > 0, "%g %g %g %g", c.inst,
              c.ld_requests, c.shared_requests, c.occupancy);
    /* what the grader reads is the variant's kernel alone, within the output cap of its counters run (the
     * first H100 run read the harness's speed-of-light launches, past a 64 KB cap: "could not be read") */
    cr_assert_eq(tp_parse_csv(text, &t), 0);
    int name = tp_csv_col(&t, "Kernel Name");
    cr_assert_geq(name, 0);
    for (int r = 0; r < t.n_rows; r++)
        cr_assert(!t.rows[r][name][0] || !strncmp(t.rows[r][name], "reverse_shared_static", 21), "%s", t.rows[r][name]);
    tp_csv_free(&t);
    cr_assert_lt(len, (size_t)GR_CTR_OUT_CAP, "%zu bytes", len);
    free(text);
}

/* grading.json keeps a slow variant's counters: every number the rules read, by name. */
Test(counters, as_json_every_number_the_rules_read)
{
    gr_ctr c = reference();
    c.local_sectors = 7, c.atomics = 65536;
    json_t *o = gr_ctr_json(&c);
    cr_assert_not_null(o);
    cr_assert_float_eq(json_number_value(json_object_get(o, "ld_sectors")), c.ld_sectors, 1e-9);
    cr_assert_float_eq(json_number_value(json_object_get(o, "local_sectors")), 7, 1e-9);
    cr_assert_float_eq(json_number_value(json_object_get(o, "atomics")), 65536, 1e-9);
    cr_assert_float_eq(json_number_value(json_object_get(o, "occupancy")), 92, 1e-9);
    cr_assert_float_eq(json_number_value(json_object_get(o, "stall_barrier")), 0.2, 1e-9);
    cr_assert_str_eq(json_string_value(json_object_get(o, "limiter")), "the block size");
    json_decref(o);
}

/* On a GPU: a variant of two kernels (chapter 5's v5: pad_transpose, then minplus_v5) gets its own kernel
 * profiled, not only the preparation's (the launch count covers the filter's kernels together). */
Test(counters_gpu, a_two_kernel_variant_reaches_its_own_kernel, .timeout = 180)
{
    size_t len = 0;
    int rc = 0;
    char *text = graders_ncu_run((gr_ctr_req){NULL, "./build/solution5", "v5", "1500", "pad_transpose,minplus_v5"},
                                 "build/solution5", &len, &rc);
    tp_csv t;
    cr_assert_eq(tp_parse_csv(text, &t), 0, "ncu exit %d:\n%.2000s", rc, text);
    int name = tp_csv_col(&t, "Kernel Name"), own = 0;
    cr_assert_geq(name, 0);
    for (int r = 0; r < t.n_rows; r++) own += !strncmp(t.rows[r][name], "minplus_v5", 10);
    tp_csv_free(&t);
    cr_assert_gt(own, 0, "only the preparation's kernel was profiled:\n%.2000s", text);
    free(text);
}

/* The fake workbook of tests/test_grading_e2e.c with a stand-in ncu (it prints the H100 capture) and a
 * stand-in nvidia-smi (a GPU model's name): a class of two entries whose plus is 40 times too slow. The
 * reference's counters are profiled by the first entry's grading and read back by the second's (the log
 * says which), kept in build/counters/ under the GPU model's name. */
Test(counters, a_class_profiles_the_reference_once, .timeout = 300)
{
    wbt_skip_if_no_isolation();
    static char out[WBT_OUT_MAX];
    char dir[512], grade[PATH_MAX];
    cr_assert_not_null(realpath("build/course", grade), "build/course is not built");
    wbt_tmpdir(dir, sizeof dir);
    chmod(dir, 0755); /* the programs run as other users when the tests run as root */
    int rc = wbt_run(out, "cp -r tests/grading/fake/. %1$s/ && cp common/*.h %1$s/common/ && "
                          "make -s -C %1$s build/grading-flags.json build/solution9 && "
                          "(printf '#!/bin/sh\\ncat <<\"CSV\"\\n'; cat tests/captured/ncu_ch1_global.csv; echo CSV) > %1$s/bin/ncu && "
                          "printf '#!/bin/sh\\ncase \"$*\" in *--query-gpu=name*) echo \"Fake GPU\";; esac\\n' > %1$s/bin/nvidia-smi && "
                          "for e in a b; do mkdir -p %1$s/class/$e && cp -r build/cases/bugs/ch9/good/. %1$s/class/$e/ && "
                          "sed -i 's|^    for (int i = 0; i < n; i++) out\\[i\\] = in\\[i\\] + 1;|"
                          "    for (int k = 0; k < 40; k++) for (int i = 0; i < n; i++) out[i] = in[i] + 1;|' "
                          "%1$s/class/$e/chapters/09-fake/fake.cu; done && chmod -R a+rX %1$s && chmod a+x %1$s/bin/*",
                     dir);
    cr_assert_eq(rc, 0, "%s", out);
    rc = wbt_run(out, "cd %s && export WB_GRADE_LOCK_DIR=$PWD && PATH=$PWD/bin:$PATH %s --rubric rubric.json --seeds 5 "
                      "--class class --out out --jobs 1 2>&1",
                 dir, grade);
    int ran = 0, kept = 0;
    for (const char *p = out; (p = strstr(p, "ch9 ref counters plus")); p++) {
        const char *rest = p + strlen("ch9 ref counters plus");
        if (strstr(rest, ": kept from an earlier grading") == rest) kept++;
        else if (strspn(rest, " ") > 1) ran++;
    }
    cr_expect_eq(ran, 1, "the reference profiled once in the class:\n%s", out);
    cr_expect_eq(kept, 1, "the second entry reads the kept counters:\n%s", out);
    cr_expect_eq(wbt_run(out, "ls %s/build/counters/Fake_GPU_*_ch9_plus_*.csv", dir), 0, "%s", out);
    wbt_run(out, "chmod -R u+w %s; rm -rf %s", dir, dir);
}
