/* The reference's runs a class keeps for its entries (grading/refkeep.h): a kept run is found whole or not at
 * all, the newest of a name wins, an age limit drops an old one, and without a keep folder nothing is kept. */
#include "wbtest.h"

#include "refkeep.h"

/* A finished run's folder in dir: one result file. */
static void fake_run(const char *dir, const char *name, const char *content, char *run, size_t len)
{
    snprintf(run, len, "%s/%s", dir, name);
    cr_assert_eq(gr_mkdirs(run, 0755), 0);
    char p[PATH_MAX + 8];
    snprintf(p, sizeof p, "%s/t.json", run);
    cr_assert_eq(gr_write_file(p, content, strlen(content)), 0);
}

static char *kept_file(const char *kept)
{
    char p[PATH_MAX + 8];
    snprintf(p, sizeof p, "%s/t.json", kept);
    return gr_read_capped(p, 1024, NULL);
}

Test(refkeep, the_newest_run_of_a_name_is_found_with_its_wall_time)
{
    static gr_config x;
    char dir[PATH_MAX], run[PATH_MAX], kept[PATH_MAX], found[PATH_MAX];
    x.quiet = 1;
    gr_keep_open(&x);
    cr_assert(x.keep[0] && gr_is_dir(x.keep), "no keep folder");
    snprintf(dir, sizeof dir, "%s", x.keep); /* the runs' folders beside what is kept, as the work trees are */
    double wall = 0, age = -1;
    cr_assert_eq(gr_keep_find(&x, "ch1-seed5-0", 0, found, sizeof found, &age, &wall), -1, "found before any was kept");
    fake_run(dir, "ref-a", "first", run, sizeof run);
    cr_assert_eq(gr_keep_put(&x, run, "ch1-seed5-0", 1.25, kept, sizeof kept), 0);
    cr_expect(!gr_is_dir(run), "the run's folder was moved, not copied");
    fake_run(dir, "ref-b", "second", run, sizeof run);
    cr_assert_eq(gr_keep_put(&x, run, "ch1-seed5-0", 2.5, kept, sizeof kept), 0);
    fake_run(dir, "ref-c", "other", run, sizeof run);
    cr_assert_eq(gr_keep_put(&x, run, "ch1-seed5-08", 9, kept, sizeof kept), 0); /* a longer name, same start */
    cr_assert_eq(gr_keep_find(&x, "ch1-seed5-0", 0, found, sizeof found, &age, &wall), 0);
    char *t = kept_file(found);
    cr_expect_str_eq(t ? t : "", "second", "not the newest run of the name: %s", found);
    free(t);
    cr_expect_float_eq(wall, 2.5, 1e-9);
    cr_expect(age >= 0 && age < 60, "age %f", age);
    /* an age limit the run is past: not found, and the caller's path is left as it was */
    snprintf(found, sizeof found, "untouched");
    cr_expect_eq(gr_keep_find(&x, "ch1-seed5-0", 1e-9, found, sizeof found, &age, &wall), -1, "an old run was found");
    cr_expect_str_eq(found, "untouched");
    char keep[PATH_MAX];
    snprintf(keep, sizeof keep, "%s", x.keep);
    gr_keep_close(&x);
    cr_expect(!gr_is_dir(keep) && !x.keep[0], "the keep folder outlived the class");
}

Test(refkeep, no_keep_folder_keeps_nothing_and_leaves_the_run)
{
    static gr_config x; /* keep "": a single grading */
    char dir[64], run[PATH_MAX], kept[PATH_MAX], found[PATH_MAX];
    wbt_tmpdir(dir, sizeof dir);
    x.quiet = 1;
    fake_run(dir, "ref", "mine", run, sizeof run);
    cr_expect_eq(gr_keep_put(&x, run, "ch1-seed5-0", 1, kept, sizeof kept), -1);
    cr_expect(gr_is_dir(run), "a run not kept must stay where it is");
    double wall, age;
    cr_expect_eq(gr_keep_find(&x, "ch1-seed5-0", 0, found, sizeof found, &age, &wall), -1);
    cr_expect_eq(gr_keep_lock(&x, "ch1-seed5-0"), -1, "a lock without a keep folder");
    static char out[WBT_OUT_MAX];
    wbt_run(out, "rm -rf %s", dir);
}

/* Every run hides, under bubblewrap, the course, the submission, its grading's work tree (its own folder and
 * programs are bound again: tests/test_grading_sandbox.c) and a class's kept runs: not as root, the run is the
 * grader's own user, and bubblewrap binds / read-only. */
Test(refkeep, every_run_hides_the_kept_folder_and_the_work_tree)
{
    static gr_config x;
    snprintf(x.root, sizeof x.root, "/course");
    for (int with_sub = 0; with_sub < 2; with_sub++)
        for (int with_keep = 0; with_keep < 2; with_keep++) {
            static gr_sub_state s;
            snprintf(s.hide_sub, sizeof s.hide_sub, "%s", with_sub ? "/subs/alice" : "");
            snprintf(s.work, sizeof s.work, "/tmp/wb-grade.xyz");
            snprintf(x.keep, sizeof x.keep, "%s", with_keep ? "/tmp/wb-kept.abc" : "");
            gr_cmd c;
            gr_cmd_init(&c, &x, &s, "/tmp/wb-grade.xyz/ch1/run", 10, GR_RUN_GPU);
            const char *want[5] = {"/course"};
            int n = 1;
            if (with_sub) want[n++] = "/subs/alice";
            want[n++] = "/tmp/wb-grade.xyz";
            if (with_keep) want[n++] = "/tmp/wb-kept.abc";
            for (int i = 0; i < n; i++)
                cr_expect(c.hide[i] && !strcmp(c.hide[i], want[i]), "hide[%d] is %s, not %s", i, c.hide[i], want[i]);
            cr_expect_null(c.hide[n], "the list must end after %d", n);
            cr_expect(c.o.hide == c.hide);
        }
}
