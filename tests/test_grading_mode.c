/* --grading (CONTRACT.md, "Grading runs"): its fields and the CEILING line appear under --grading only (every
 * chapter's reference under --grading is tests/test_chapters.c's, one case per chapter folder); the timing
 * exploits of tests/planted/grading_mode.cu are caught by the harness itself. Inputs are read-only (any run):
 * the variants of tests/planted/input_writes.cu that write theirs are told so, and the variant after them
 * gets its inputs as generated. GPU only. */
#include "wbtest.h"

#define PLANTED "./build/planted/grading_mode"

static json_t *ceiling_line(json_t *lines)
{
    size_t i;
    json_t *o, *found = NULL;
    json_array_foreach(lines, i, o) if (!strcmp(json_string_value(json_object_get(o, WB_JSON_VERDICT)), "CEILING"))
    {
        cr_assert_null(found, "more than one CEILING line");
        found = o;
    }
    return found;
}

/* Every chapter's reference under --grading at its own sizes: tests/test_chapters.c
 * (grading_run_passes_every_check), one case per chapter folder. */

Test(grading_mode, fields_absent_without_grading, .timeout = 120)
{
    static char out[WBT_OUT_MAX];
    int rc;
    json_t *lines = wbt_run_json(out, &rc, "./build/solution1 --size 1000 --reps 1 --warmup 0");
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert_null(ceiling_line(lines));
    size_t i;
    json_t *o;
    json_array_foreach(lines, i, o)
    {
        cr_assert_null(json_object_get(o, WB_JSON_TIMED_CHECK));
        cr_assert_null(json_object_get(o, WB_JSON_ROTATED_CHECK));
        cr_assert_null(json_object_get(o, WB_JSON_CPU_MS));
    }
    json_decref(lines);
}

static const char *field(json_t *lines, const char *variant, const char *name)
{
    return json_string_value(json_object_get(wb_jsonl_find(lines, variant, NULL), name));
}

Test(grading_mode, a_launcher_that_stops_working_is_caught, .timeout = 120)
{
    static char out[WBT_OUT_MAX];
    int rc;
    const char *run = PLANTED " --variant honest,first-call-only,cached-copy,content-cache,stale-by-one --reps 5";
    /* Without --grading the exploits pass: that is why the grader passes it. */
    json_t *plain = wbt_run_json(out, &rc, run);
    cr_assert_eq(rc, WB_EXIT_PASS, "%s", out);
    json_decref(plain);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "%s --grading", run);
    json_t *lines = wbt_run_json(out, &rc, cmd);
    cr_assert_eq(rc, WB_EXIT_WRONG, "%s", out);
    cr_assert_str_eq(field(lines, "honest", WB_JSON_VERDICT), "PASS", "%s", out);
    cr_assert_null(field(lines, "honest", WB_JSON_TIMED_FAULT), "%s", out);
    /* every timed repetition has inputs of its own and is checked: the first one left wrong is named */
    cr_assert_str_eq(field(lines, "first-call-only", WB_JSON_TIMED_CHECK), "FAIL", "%s", out);
    cr_assert_str_eq(field(lines, "first-call-only", WB_JSON_VERDICT), "FAIL", "%s", out);
    cr_assert_str_eq(field(lines, "first-call-only", WB_JSON_TIMED_FAULT), "repetition 1 of 5 wrong at [0]", "%s", out);
    cr_assert_str_eq(field(lines, "cached-copy", WB_JSON_TIMED_CHECK), "FAIL", "%s", out);
    cr_assert_str_eq(field(lines, "cached-copy", WB_JSON_ROTATED_CHECK), "FAIL", "%s", out);
    cr_assert_str_eq(field(lines, "cached-copy", WB_JSON_VERDICT), "FAIL", "%s", out);
    cr_assert_str_eq(field(lines, "stale-by-one", WB_JSON_TIMED_CHECK), "FAIL", "%s", out);
    /* a cache keyed by content never hits on inputs of their own: it computes every time, and passes */
    cr_assert_str_eq(field(lines, "content-cache", WB_JSON_TIMED_CHECK), "PASS", "%s", out);
    cr_assert_str_eq(field(lines, "content-cache", WB_JSON_VERDICT), "PASS", "%s", out);
    cr_assert(strstr(out, "the timed runs did not produce the result (each must compute it again): repetition 1 of 5"),
              "%s", out);
    cr_assert(strstr(out, "the result depends on an earlier run's input"), "%s", out);
    json_decref(lines);
}

static double median_of(json_t *lines, const char *variant)
{
    return json_number_value(json_object_get(wb_jsonl_find(lines, variant, NULL), WB_JSON_MEDIAN_MS));
}

Test(grading_mode, work_on_another_stream_is_timed, .timeout = 120)
{
    static char out[WBT_OUT_MAX];
    int rc;
    const char *run = PLANTED " --variant honest,slow-other-stream --size 67108864 --reps 5";
    json_t *plain = wbt_run_json(out, &rc, run);
    double honest = median_of(plain, "honest"), hidden = median_of(plain, "slow-other-stream");
    cr_assert_lt(hidden, honest, "without --grading, the other stream's ten launches are not timed (%.4f vs %.4f ms)",
                 hidden, honest);
    json_decref(plain);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "%s --grading", run);
    json_t *lines = wbt_run_json(out, &rc, cmd);
    honest = median_of(lines, "honest");
    double seen = median_of(lines, "slow-other-stream");
    cr_assert_gt(seen, 5 * honest, "with --grading, ten launches on another stream take %.4f ms, one %.4f ms\n%s",
                 seen, honest, out);
    json_decref(lines);
}

/* ---------------------------------------------------------------- read-only inputs (common/wb_inputs.h) */
#define WRITES "./build/planted/input_writes"

static long long written_at(json_t *lines, const char *variant)
{
    json_t *w = json_object_get(wb_jsonl_find(lines, variant, NULL), WB_JSON_INPUT_WRITTEN);
    return w ? (long long)json_integer_value(w) : -1;
}

/* zeroes-input leaves a right result and its device input zeroed from element 7: it is told so (FAIL, the
 * index, a line under its row), and honest, run after it in the same process, gets its input as generated
 * (restored from the host original): PASS, and no line of its own. */
Test(input_writes, the_writer_is_told_and_the_next_variant_gets_its_input, .timeout = 120)
{
    static char out[WBT_OUT_MAX];
    int rc;
    json_t *lines = wbt_run_json(out, &rc, WRITES " --variant zeroes-input,honest --size 1000003 --reps 3");
    WBT_SKIP_IF_NO_GPU(rc, out);
    cr_assert_eq(rc, WB_EXIT_WRONG, "%s", out);
    cr_assert_str_eq(field(lines, "zeroes-input", WB_JSON_VERDICT), "FAIL", "%s", out);
    cr_assert_eq(written_at(lines, "zeroes-input"), 7, "%s", out);
    cr_assert_str_eq(field(lines, "zeroes-input", WB_JSON_INPUT_WRITTEN_NAME), "input 0", "%s", out);
    cr_assert_str_eq(field(lines, "honest", WB_JSON_VERDICT), "PASS", "%s", out);
    cr_assert_eq(written_at(lines, "honest"), -1, "%s", out);
    cr_assert(strstr(out, "writes its input: input 0 changed at element 7 (inputs are read-only"), "%s", out);
    json_decref(lines);
    /* Alone, honest is clean: nothing is reported where nothing was written. */
    lines = wbt_run_json(out, &rc, WRITES " --variant honest --size 1000003 --reps 3");
    cr_assert_eq(rc, WB_EXIT_PASS, "%s", out);
    cr_assert(!strstr(out, "writes its input"), "%s", out);
    json_decref(lines);
}

/* host-too zeroes the host array as well: the input cannot be restored from it, so the size is set up
 * again, and honest after it still passes every --grading check (timed and rotated runs included). */
Test(input_writes, a_host_copy_changed_too_is_set_up_again, .timeout = 120)
{
    static char out[WBT_OUT_MAX];
    int rc;
    json_t *lines = wbt_run_json(out, &rc, WRITES " --variant zeroes-input,host-too,honest --size 4099 --reps 3 --grading");
    WBT_SKIP_IF_NO_GPU(rc, out);
    cr_assert_eq(rc, WB_EXIT_WRONG, "%s", out);
    cr_assert_eq(written_at(lines, "zeroes-input"), 7, "%s", out);
    cr_assert_eq(written_at(lines, "host-too"), 11, "%s", out);
    cr_assert_str_eq(field(lines, "host-too", WB_JSON_VERDICT), "FAIL", "%s", out);
    cr_assert_str_eq(field(lines, "honest", WB_JSON_VERDICT), "PASS", "%s", out);
    cr_assert_str_eq(field(lines, "honest", WB_JSON_TIMED_CHECK), "PASS", "%s", out);
    cr_assert_str_eq(field(lines, "honest", WB_JSON_ROTATED_CHECK), "PASS", "%s", out);
    cr_assert_eq(written_at(lines, "honest"), -1, "%s", out);
    json_decref(lines);
}

