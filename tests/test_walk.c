/* A walk of a tree with a context (grading/gr_util.h gr_walk), as closing the course files and the disk
 * cap's gr_du use it: every entry once, a folder before what it holds, a symbolic link given as itself
 * and never followed (a link to / must not close or count the whole machine). */
#include "wbtest.h"

#include "gr_util.h"

typedef struct {
    int files, dirs, links;
    int parent_first; /* the root came first */
    char first[PATH_MAX];
} walk_seen;

static void count(const char *path, const struct stat *st, void *ctx)
{
    walk_seen *w = ctx;
    if (!w->first[0]) snprintf(w->first, sizeof w->first, "%s", path);
    w->files += S_ISREG(st->st_mode);
    w->dirs += S_ISDIR(st->st_mode);
    w->links += S_ISLNK(st->st_mode);
}

Test(walk, every_entry_once_a_folder_first_links_not_followed)
{
    char dir[64], p[PATH_MAX];
    wbt_tmpdir(dir, sizeof dir);
    snprintf(p, sizeof p, "%s/a/b", dir);
    cr_assert_eq(gr_mkdirs(p, 0755), 0);
    snprintf(p, sizeof p, "%s/a/one", dir);
    cr_assert_eq(gr_write_file(p, "1234", 4), 0);
    snprintf(p, sizeof p, "%s/a/b/two", dir);
    cr_assert_eq(gr_write_file(p, "12345678", 8), 0);
    snprintf(p, sizeof p, "%s/a/up", dir);
    cr_assert_eq(symlink("/", p), 0);
    walk_seen w = {0};
    snprintf(p, sizeof p, "%s/a", dir);
    gr_walk(p, count, &w);
    cr_expect_eq(w.files, 2);
    cr_expect_eq(w.dirs, 2);
    cr_expect_eq(w.links, 1, "the link is given, as a link");
    cr_expect_str_eq(w.first, p, "the folder before what it holds");
    unsigned long long du = gr_du(p);
    cr_expect(du > 0 && du < (1ull << 24), "%llu bytes: the link to / was not followed", du);
    walk_seen none = {0};
    snprintf(p, sizeof p, "%s/missing", dir);
    gr_walk(p, count, &none);
    cr_expect_eq(none.files + none.dirs + none.links, 0, "a path that is not there: nothing");
    gr_rmtree(dir);
}
