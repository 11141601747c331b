/* grading/gr_archive: real archives written in the test with libarchive's own writer (zip, tar.gz,
 * tgz, tar), good and hostile; each hostile one must be refused before anything is written, with a
 * one-line reason naming the student's file and never the host path. */
#define _GNU_SOURCE 1
#include "wbtest.h"

#include <sys/sysmacros.h>

#include <archive.h>
#include <archive_entry.h>

#include "gr_archive.h"

static char dir[64];
static void setup(void) { wbt_tmpdir(dir, sizeof dir); }
static void teardown(void)
{
    char out[256];
    if (dir[0]) wbt_run(out, "rm -rf %s", dir);
}
TestSuite(archive, .init = setup, .fini = teardown);

typedef struct {
    const char *name;
    mode_t type;        /* AE_IFREG, AE_IFDIR, AE_IFLNK, AE_IFCHR */
    const char *data;   /* file contents; link target for AE_IFLNK */
    size_t size;        /* 0: strlen(data); else that many bytes of 'x' */
    int hardlink;       /* AE_IFREG with data as the hardlink target */
} ent;

enum fmt { ZIP, TARGZ, TAR };

static void write_archive(const char *path, enum fmt f, const ent *e, int n)
{
    struct archive *a = archive_write_new();
    if (f == ZIP) archive_write_set_format_zip(a);
    else archive_write_set_format_pax_restricted(a);
    if (f == TARGZ) archive_write_add_filter_gzip(a);
    cr_assert_eq(archive_write_open_filename(a, path), ARCHIVE_OK, "%s", archive_error_string(a));
    for (int i = 0; i < n; i++) {
        struct archive_entry *x = archive_entry_new();
        archive_entry_set_pathname(x, e[i].name);
        archive_entry_set_filetype(x, e[i].type);
        archive_entry_set_perm(x, e[i].type == AE_IFDIR ? 0755 : 0644);
        size_t size = e[i].type == AE_IFREG && !e[i].hardlink ? (e[i].size ? e[i].size : strlen(e[i].data)) : 0;
        if (e[i].type == AE_IFLNK) archive_entry_set_symlink(x, e[i].data);
        if (e[i].hardlink) archive_entry_set_hardlink(x, e[i].data);
        if (e[i].type == AE_IFCHR) archive_entry_set_rdev(x, makedev(1, 3));
        archive_entry_set_size(x, (la_int64_t)size);
        cr_assert_eq(archive_write_header(a, x), ARCHIVE_OK, "%s: %s", e[i].name, archive_error_string(a));
        if (size && e[i].size) {
            char *buf = malloc(size);
            memset(buf, 'x', size);
            archive_write_data(a, buf, size);
            free(buf);
        } else if (size) {
            archive_write_data(a, e[i].data, size);
        }
        archive_entry_free(x);
    }
    archive_write_close(a);
    archive_write_free(a);
}

static const ent good[] = {
    {"chapters/", AE_IFDIR, NULL, 0, 0},
    {"chapters/01-reversal/reversal.cu", AE_IFREG, "__global__ void k(){}\n", 0, 0},
    {"README.txt", AE_IFREG, "hello\n", 0, 0},
    {"deep/a/b/c.txt", AE_IFREG, "no folder entries for these parents\n", 0, 0},
};

static void expect_good(const char *file, enum fmt f)
{
    char a[256], d[256], why[512] = "", p[512];
    snprintf(a, sizeof a, "%s/%s", dir, file);
    snprintf(d, sizeof d, "%s/out", dir);
    write_archive(a, f, good, 4);
    cr_assert_eq(gr_archive_extract(a, d, NULL, why, sizeof why), 0, "%s: %s", file, why);
    snprintf(p, sizeof p, "%s/chapters/01-reversal/reversal.cu", d);
    char *text = wbt_read_exact(p, strlen(good[1].data));
    cr_expect(!memcmp(text, good[1].data, strlen(good[1].data)));
    free(text);
    snprintf(p, sizeof p, "%s/deep/a/b/c.txt", d);
    free(wbt_read_exact(p, strlen(good[3].data)));
}

Test(archive, a_good_zip_is_extracted) { expect_good("lee, ann.zip", ZIP); }
Test(archive, a_good_tar_gz_is_extracted) { expect_good("s.tar.gz", TARGZ); }
Test(archive, a_good_tgz_is_extracted) { expect_good("s.tgz", TARGZ); }
Test(archive, a_good_tar_is_extracted) { expect_good("s.tar", TAR); }

/* Refused: nothing at dest, the message is one line, names the archive's base name and the rule, never
 * the temporary directory. */
static void expect_refused(const char *file, enum fmt f, const ent *e, int n, const gr_archive_limits *lim,
                           const char *rule)
{
    char a[256], d[256], why[512] = "";
    snprintf(a, sizeof a, "%s/%s", dir, file);
    snprintf(d, sizeof d, "%s/out", dir);
    if (e) write_archive(a, f, e, n);
    cr_assert_eq(gr_archive_extract(a, d, lim, why, sizeof why), -1, "%s was accepted", file);
    cr_expect_eq(access(d, F_OK), -1, "%s: something was written at the destination", file);
    cr_expect_null(strchr(why, '\n'), "more than one line: %s", why);
    cr_expect_null(strstr(why, dir), "the host path is in the message: %s", why);
    cr_expect(!strncmp(why, file, strlen(file)), "the message does not start with the file's name: %s", why);
    cr_expect_not_null(strstr(why, rule), "'%s' does not say '%s'", why, rule);
    char out[256], mark[300];
    snprintf(mark, sizeof mark, "%s/../escaped", dir);
    cr_expect_eq(access(mark, F_OK), -1, "a file escaped the tree");
    (void)out;
}

Test(archive, traversal_is_refused)
{
    ent e[] = {{"ok.txt", AE_IFREG, "fine\n", 0, 0}, {"a/../../escaped", AE_IFREG, "out\n", 0, 0}};
    expect_refused("t.zip", ZIP, e, 2, NULL, "\"..\"");
    expect_refused("t.tar.gz", TARGZ, e, 2, NULL, "\"..\"");
}

Test(archive, an_absolute_path_is_refused)
{
    ent e[] = {{"/tmp/escaped-abs", AE_IFREG, "out\n", 0, 0}};
    expect_refused("abs.tar", TAR, e, 1, NULL, "absolute path");
    cr_expect_eq(access("/tmp/escaped-abs", F_OK), -1);
}

Test(archive, a_symlink_out_is_refused)
{
    ent e[] = {{"link", AE_IFLNK, "/etc", 0, 0}, {"link/passwd-copy", AE_IFREG, "x\n", 0, 0}};
    expect_refused("sym.tar.gz", TARGZ, e, 2, NULL, "links are not allowed");
    ent z[] = {{"up", AE_IFLNK, "../..", 0, 0}};
    expect_refused("sym.zip", ZIP, z, 1, NULL, "links are not allowed");
}

Test(archive, a_hardlink_is_refused)
{
    ent e[] = {{"a.txt", AE_IFREG, "a\n", 0, 0}, {"b.txt", AE_IFREG, "/etc/shadow", 0, 1}};
    expect_refused("hard.tar", TAR, e, 2, NULL, "links are not allowed");
}

Test(archive, a_device_file_is_refused)
{
    ent e[] = {{"null", AE_IFCHR, NULL, 0, 0}};
    expect_refused("dev.tar", TAR, e, 1, NULL, "only plain files and folders");
}

Test(archive, a_file_too_large_is_refused)
{
    gr_archive_limits lim = {100, 1 << 20, 8 << 20};
    ent e[] = {{"big.bin", AE_IFREG, NULL, (1 << 20) + 1, 0}};
    expect_refused("big.zip", ZIP, e, 1, &lim, "larger than 1 MiB");
    ent t[] = {{"a", AE_IFREG, NULL, 600 << 10, 0}, {"b", AE_IFREG, NULL, 600 << 10, 0}};
    gr_archive_limits tot = {100, 1 << 20, 1 << 20};
    expect_refused("total.tar.gz", TARGZ, t, 2, &tot, "add up to more than 1 MiB");
}

Test(archive, too_many_entries_are_refused)
{
    gr_archive_limits lim = {5, 1 << 20, 8 << 20};
    ent e[6];
    char names[6][16];
    for (int i = 0; i < 6; i++) {
        snprintf(names[i], sizeof names[i], "f%d", i);
        e[i] = (ent){names[i], AE_IFREG, "x", 0, 0};
    }
    expect_refused("many.tgz", TARGZ, e, 6, &lim, "more than 5 entries");
}

Test(archive, not_an_archive_is_refused)
{
    char a[256], out[512];
    snprintf(a, sizeof a, "%s/notes.zip", dir);
    cr_assert_eq(wbt_run(out, "printf 'this is not a zip\\nat all\\n' > '%s'", a), 0);
    expect_refused("notes.zip", ZIP, NULL, 0, NULL, "not a readable");
    expect_refused("missing.tar.gz", TARGZ, NULL, 0, NULL, "cannot be read");
}

Test(archive, a_name_with_a_line_feed_stays_on_one_line)
{
    ent e[] = {{"x\n/../../y", AE_IFREG, "out\n", 0, 0}};
    expect_refused("nl.tar", TAR, e, 1, NULL, "\"..\"");
}

Test(archive, the_suffixes_are_recognised)
{
    cr_expect(gr_archive_is_archive("a.zip") && gr_archive_is_archive("a.tar.gz") && gr_archive_is_archive("a.tgz") &&
              gr_archive_is_archive("a.tar"));
    cr_expect(!gr_archive_is_archive("a.rar") && !gr_archive_is_archive("zip") && !gr_archive_is_archive("dir"));
}
