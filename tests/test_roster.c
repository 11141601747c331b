/* course/roster: the LMS name is the student id, byte for byte; folders never collide; the mapping is
 * recorded. Then the grader itself on the fake workbook: a class whose entries would have collided
 * (lee, ann / lee  ann; one name as .zip and .tar.gz; Zoë Ångström) is graded and listed in full. */
#define _GNU_SOURCE 1
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "wbtest.h"

#include "gr_archive.h"
#include "report.h"
#include "gr_util.h"
#include "roster.h"
#include "grades.h"
#include "class.h"

static char dir[64];
static void setup(void) { wbt_tmpdir(dir, sizeof dir); }
static void teardown(void)
{
    char out[256];
    if (dir[0]) wbt_run(out, "rm -rf %s", dir);
}
TestSuite(roster, .init = setup, .fini = teardown);

static int folder_is_safe(const char *f)
{
    if (!*f || f[0] == '.') return 0;
    for (; *f; f++)
        if (!((*f >= 'a' && *f <= 'z') || (*f >= 'A' && *f <= 'Z') || (*f >= '0' && *f <= '9') || *f == '-' || *f == '_' ||
              *f == '.'))
            return 0;
    return 1;
}

/* A class's progress line: entries done of those graded this run, the time so far and an estimate. */
Test(roster, a_class_says_its_progress_and_the_time_left)
{
    char line[200];
    gr_class_progress(0, 20, 3, line, sizeof line);
    cr_expect_str_eq(line, "0/20 entries done, 3s so far", "no estimate before the first entry");
    gr_class_progress(5, 20, 100, line, sizeof line);
    cr_expect_str_eq(line, "5/20 entries done, 1m40s so far, about 5m00s left");
    gr_class_progress(1, 3, 1900, line, sizeof line);
    cr_expect_str_eq(line, "1/3 entries done, 31m40s so far, about 1h03m left");
    gr_class_progress(20, 20, 200.4, line, sizeof line);
    cr_expect_str_eq(line, "all 20 entries done in 3m20s");
    for (const char *c = line; *c; c++) cr_expect((unsigned char)*c >= 0x20, "no control character");
}

/* A class's throughput, the cost table's unit: submissions per GPU-hour over the GPUs it spread over. */
Test(roster, a_class_says_its_submissions_per_gpu_hour)
{
    char line[200];
    gr_class_rate(20, 423, 1, line, sizeof line);
    cr_expect_str_eq(line, "20 graded in 7m03s on 1 GPU: 170.2 submissions per GPU-hour");
    gr_class_rate(12, 86, 2, line, sizeof line);
    cr_expect_str_eq(line, "12 graded in 1m26s on 2 GPUs: 251.2 submissions per GPU-hour");
    gr_class_rate(3, 60, 0, line, sizeof line);
    cr_expect_str_eq(line, "3 graded in 1m00s on 1 GPU: 180.0 submissions per GPU-hour", "no GPU listed counts as one");
    gr_class_rate(0, 5, 1, line, sizeof line);
    cr_expect_str_eq(line, "nothing graded in 5s");
}

/* Two GPUs: the next grader goes where fewest run, so a class's tail does not queue on one GPU. */
Test(roster, a_grader_goes_to_the_gpu_with_the_fewest_running)
{
    int two[] = {3, 2}, tie[] = {2, 2, 2}, one[] = {7}, last[] = {4, 4, 1};
    cr_expect_eq(gr_class_pick_gpu(two, 2), 1);
    cr_expect_eq(gr_class_pick_gpu(tie, 3), 0, "the lowest index on a tie");
    cr_expect_eq(gr_class_pick_gpu(one, 1), 0);
    cr_expect_eq(gr_class_pick_gpu(last, 3), 2);
}

/* Without --jobs: twelve graders on one GPU, eight per GPU on several, within three quarters of the cores; without
 * a GPU a quarter of the cores. */
Test(roster, a_class_grades_twelve_entries_on_one_gpu_eight_per_gpu_on_several)
{
    cr_expect_eq(gr_class_default_jobs(1, 16), 12, "one H100 with 16 cores");
    cr_expect_eq(gr_class_default_jobs(2, 32), 16, "two GPUs, 32 cores");
    cr_expect_eq(gr_class_default_jobs(8, 128), 64, "eight GPUs, 128 cores");
    cr_expect_eq(gr_class_default_jobs(2, 8), 6, "few cores: the builds are CPU work");
    cr_expect_eq(gr_class_default_jobs(0, 16), 4, "no GPU: a quarter of the cores");
    cr_expect_eq(gr_class_default_jobs(1, 1), 1);
    cr_expect_eq(gr_class_default_jobs(0, 2), 1, "at least one");
}

/* What counts as a student's entry in a class folder: a class with none is refused before any work. */
Test(roster, an_entry_is_a_folder_or_an_archive_and_never_a_dot_file)
{
    cr_expect(gr_roster_is_entry("ann", 1, 0, 0));
    cr_expect(gr_roster_is_entry("ann.zip", 0, 1, 0));
    cr_expect(gr_roster_is_entry("ann.tar.gz", 0, 1, 0));
    cr_expect(!gr_roster_is_entry("notes.txt", 0, 1, 0), "a loose file of a plain class is no entry");
    cr_expect(gr_roster_is_entry("leeann_102_9002_fake.cu", 0, 1, 1), "an LMS download's loose file is one");
    cr_expect(!gr_roster_is_entry(".git", 1, 0, 0));
    cr_expect(!gr_roster_is_entry(".x.zip", 0, 1, 1));
    cr_expect(!gr_roster_is_entry("", 1, 0, 1));
    cr_expect(!gr_roster_is_entry("fifo", 0, 0, 1), "neither a folder nor a file");
}

Test(roster, names_that_squash_alike_keep_their_ids_and_get_their_own_folders)
{
    gr_roster_entry a, b, c, d, z;
    gr_roster_name("lee, ann.zip", 1, &a);
    gr_roster_name("lee  ann.zip", 1, &b);
    gr_roster_name("x.zip", 1, &c);
    gr_roster_name("x.tar.gz", 1, &d);
    gr_roster_name("Zoë Ångström.tgz", 1, &z);
    cr_expect_str_eq(a.student, "lee, ann");
    cr_expect_str_eq(b.student, "lee  ann");
    cr_expect_str_eq(c.student, "x");
    cr_expect_str_eq(d.student, "x");
    cr_expect_str_eq(z.student, "Zoë Ångström");
    cr_expect_str_neq(a.folder, b.folder);
    cr_expect_str_neq(c.folder, d.folder);
    const gr_roster_entry *all[] = {&a, &b, &c, &d, &z};
    for (int i = 0; i < 5; i++) cr_expect(folder_is_safe(all[i]->folder), "unsafe folder '%s'", all[i]->folder);
    cr_expect(!strncmp(z.folder, "Zo_ngstr_m-", 11), "%s", z.folder);
}

/* An entry name with a newline (or any control character) gives a one-line id: a row of its own in the
 * class summary and one line in grades.csv; the folder still tells it from the name with a space. */
Test(roster, a_control_character_in_a_name_gives_a_one_line_id)
{
    gr_roster_entry a, b, t;
    gr_roster_name("ann\nlee.zip", 1, &a);
    gr_roster_name("ann lee.zip", 1, &b);
    gr_roster_name("x\ty\r\x7f", 0, &t);
    cr_expect_str_eq(a.student, "ann lee");
    cr_expect_str_eq(t.student, "x y  ");
    cr_expect_str_neq(a.folder, b.folder, "two entries, one folder");
    cr_expect(folder_is_safe(a.folder) && folder_is_safe(t.folder), "%s %s", a.folder, t.folder);
    cr_expect_str_eq(a.entry, "ann\nlee.zip", "the entry name itself is kept for the roster map");
}

Test(roster, a_plain_folder_keeps_its_name_and_cannot_pose_as_a_hashed_one)
{
    gr_roster_entry a, h, dot;
    gr_roster_name("good", 0, &a);
    cr_expect_str_eq(a.folder, "good");
    cr_expect_str_eq(a.student, "good");
    gr_roster_name("x-0badcafe", 0, &h);
    cr_expect_str_neq(h.folder, "x-0badcafe");
    gr_roster_name("..", 0, &dot);
    cr_expect(folder_is_safe(dot.folder), "%s", dot.folder);
}

static void touch(const char *name)
{
    char p[512], out[256];
    snprintf(p, sizeof p, "%s/subs/%s", dir, name);
    FILE *f = fopen(p, "w");
    cr_assert_not_null(f, "%s", p);
    fclose(f);
    (void)out;
}

Test(roster, the_scan_lists_every_entry_and_the_map_is_recorded)
{
    char out[WBT_OUT_MAX], why[600] = "", p[512], to[512];
    cr_assert_eq(wbt_run(out, "mkdir -p %s/subs/good '%s/subs/Zoë Ångström' %s/out", dir, dir, dir), 0, "%s", out);
    touch("lee, ann.zip");
    touch("lee  ann.zip");
    touch("x.zip");
    touch("x.tar.gz");
    touch("notes.txt"); /* not a submission */
    touch(".hidden.zip");
    snprintf(p, sizeof p, "%s/subs", dir);
    int n;
    snprintf(to, sizeof to, "%s/out", dir);
    gr_roster_entry *e = gr_roster_record(p, to, &n); /* the scan, and roster.json written */
    cr_assert_not_null(e);
    cr_assert_eq(n, 6);
    snprintf(p, sizeof p, "%s/out/roster.json", dir);
    json_error_t je;
    json_t *m = json_load_file(p, 0, &je);
    cr_assert_not_null(m, "%s", je.text);
    cr_assert_eq(json_array_size(m), 6);
    const char *want[] = {"good", "lee  ann", "lee, ann", "x", "x", "Zoë Ångström"};
    int seen[6] = {0};
    size_t i;
    json_t *o;
    json_array_foreach(m, i, o)
    {
        const char *s = json_string_value(json_object_get(o, "student"));
        for (int k = 0; k < 6; k++)
            if (!seen[k] && s && !strcmp(s, want[k])) { seen[k] = 1; break; }
        for (size_t j = 0; j < i; j++)
            cr_expect_str_neq(json_string_value(json_object_get(json_array_get(m, j), "folder")),
                              json_string_value(json_object_get(o, "folder")));
    }
    for (int k = 0; k < 6; k++) cr_expect(seen[k], "'%s' is missing from roster.json", want[k]);
    json_decref(m);
    free(e);
    snprintf(p, sizeof p, "%s/nowhere", dir);
    cr_expect_null(gr_roster_scan(p, &n, why, sizeof why));
    cr_expect_null(strchr(why, '\n'));
}

/* An entry named as one that cannot be read (a dangling link) is not graded, and says so on stderr. */
Test(roster, an_entry_that_cannot_be_read_is_said_not_skipped_silently)
{
    char out[WBT_OUT_MAX], why[600] = "", p[512], log[512];
    cr_assert_eq(wbt_run(out, "mkdir -p %s/subs && ln -s nowhere %s/subs/gone.zip", dir, dir), 0, "%s", out);
    snprintf(p, sizeof p, "%s/subs", dir);
    snprintf(log, sizeof log, "%s/err", dir);
    fflush(stderr);
    int keep = dup(2), fd = open(log, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    dup2(fd, 2);
    close(fd);
    int n;
    gr_roster_entry *e = gr_roster_scan(p, &n, why, sizeof why);
    fflush(stderr);
    dup2(keep, 2);
    close(keep);
    cr_expect_eq(n, 0);
    char *text = gr_read_capped(log, 4096, NULL);
    cr_expect(text && strstr(text, "gone.zip is not graded: No such file"), "stderr: %s", text ? text : "(none)");
    free(text);
    free(e);
}

/* The grader on the fake workbook (as tests/test_grading_e2e.c runs it): colliding names as archives. */
Test(roster, a_class_of_colliding_names_is_graded_and_listed_in_full, .timeout = 300)
{
    wbt_skip_if_no_isolation();
    static char out[WBT_OUT_MAX];
    char grade[PATH_MAX], subs[PATH_MAX], p[512];
    cr_assert_not_null(realpath("build/course", grade), "build/course is not built");
    cr_assert_not_null(realpath("build/cases/bugs/ch9", subs));
    chmod(dir, 0755);
    int rc = wbt_run(out, "cp -r tests/grading/fake/. %s/ && cp common/*.h %s/common/ && make -s -C %s build/grading-flags.json build/solution9 && mkdir %s/class && "
                          "cd %s/good && tar -czf '%s/class/lee, ann.tar.gz' . && tar -czf '%s/class/lee  ann.tar.gz' . && "
                          "tar -cf %s/class/x.tar . && tar -czf %s/class/x.tar.gz . && cp -r . '%s/class/Zoë Ångström' && "
                          "chmod -R a+rX %s",
                     dir, dir, dir, dir, subs, dir, dir, dir, dir, dir, dir);
    cr_assert_eq(rc, 0, "%s", out);
    rc = wbt_run(out, "cd %s && export WB_GRADE_LOCK_DIR=$PWD && PATH=%s/bin:$PATH %s --class %s/class --out %s/out --seeds 5 --jobs 2 --rubric rubric.json "
                      "> %s/class.log 2>&1",
                 dir, dir, grade, dir, dir, dir);
    snprintf(p, sizeof p, "%s/class.log", dir);
    char *log = gr_read_capped(p, 1 << 20, NULL);
    cr_assert_eq(rc, 0, "exit %d\n%s", rc, log ? log : "");
    free(log);
    snprintf(p, sizeof p, "%s/out/grades.csv", dir);
    char *csv = gr_read_capped(p, 1 << 20, NULL);
    cr_assert_not_null(csv);
    cr_expect_not_null(strstr(csv, "\r\n\"lee, ann\","), "%s", csv);
    cr_expect_not_null(strstr(csv, "\r\nlee  ann,"), "%s", csv);
    cr_expect_not_null(strstr(csv, "\r\nZoë Ångström,"), "%s", csv);
    int rows = 0, xs = 0;
    for (char *c = csv; *c; c++) rows += *c == '\n';
    for (char *c = csv; (c = strstr(c, "\r\nx,")); c++) xs++;
    cr_expect_eq(rows, 6, "a header and five students:\n%s", csv);
    cr_expect_eq(xs, 2, "x.tar and x.tar.gz are both graded and listed:\n%s", csv);
    cr_expect_null(strstr(csv, "not graded"), "%s", csv);
    free(csv);
}

/* A student whose grading could not run: an empty grade with the reason, never 0.00; the summary counts
 * entries and graded students apart; the next run grades it again. */
Test(roster, a_grading_that_could_not_run_gets_an_empty_grade_and_is_retried)
{
    char out[WBT_OUT_MAX], p[512], err[600];
    static gr_rubric rub;
    cr_assert_eq(gr_rubric_load_at("tests/grading/fake", "tests/grading/fake/rubric.json", &rub, err, sizeof err), 0, "%s", err);
    cr_assert_eq(wbt_run(out, "mkdir -p %s/a %s/b %s/c", dir, dir, dir), 0);
    json_t *a = json_pack("{s:s, s:s, s:f, s:f, s:[{s:i, s:s, s:f, s:f, s:[]}]}", "student", "a", "mode", "grade", "score", 8.0,
                          "max_score", 8.0, "chapters", "number", rub.ch[0].number, "status", "graded", "score", 8.0, "max_score", 8.0,
                          "variants");
    json_t *b = json_pack("{s:s, s:s, s:s, s:f, s:f, s:[]}", "student", "b", "mode", "grade", "error",
                          "the grader failed on this submission (signal 9); rerun", "score", 0.0, "max_score", 0.0, "chapters");
    json_t *c = json_pack("{s:s, s:s, s:f, s:f, s:[{s:i, s:s, s:f, s:f, s:[]}]}", "student", "c", "mode", "grade", "score", 0.0,
                          "max_score", 8.0, "chapters", "number", rub.ch[0].number, "status", "no GPU", "score", 0.0, "max_score", 8.0,
                          "variants");
    cr_assert(a && b && c);
    snprintf(p, sizeof p, "%s/a/grading.json", dir), json_dump_file(a, p, 0);
    snprintf(p, sizeof p, "%s/b/grading.json", dir), json_dump_file(b, p, 0);
    snprintf(p, sizeof p, "%s/c/grading.json", dir), json_dump_file(c, p, 0);
    cr_expect(!gr_grading_not_run(a) && gr_grading_not_run(b) && gr_grading_not_run(c));
    cr_expect(!gr_roster_pending(dir, "a") && gr_roster_pending(dir, "b") && gr_roster_pending(dir, "c") &&
              gr_roster_pending(dir, "missing"));
    json_decref(a), json_decref(b), json_decref(c);
    FILE *devnull = fopen("/dev/null", "w");
    gr_write_class(dir, &rub, devnull);
    fclose(devnull);
    snprintf(p, sizeof p, "%s/grades.csv", dir);
    char *csv = gr_read_capped(p, 1 << 20, NULL);
    cr_assert_not_null(csv);
    cr_expect_not_null(strstr(csv, "\r\na,8.00,8.00,8.00,\r\n"), "%s", csv);
    cr_expect_not_null(strstr(csv, "\r\nb,,,0.00,the grader failed"), "%s", csv);
    cr_expect_not_null(strstr(csv, "\r\nc,,,8.00,ch9 no GPU\r\n"), "a chapter not graded: an empty cell, the reason:\n%s", csv);
    free(csv);
    snprintf(p, sizeof p, "%s/summary.md", dir);
    char *sum = gr_read_capped(p, 1 << 20, NULL);
    cr_assert_not_null(sum);
    cr_expect_not_null(strstr(sum, "3 entries; 2 could not be graded"), "%s", sum);
    cr_expect_not_null(strstr(sum, "1 submissions graded; mean 8.00"), "%s", sum);
    free(sum);
}
