/* Two passes over the archive: the first reads every header and every byte (sizes in headers can lie,
 * and a zip bomb shows only when decompressed) and rejects the archive on the first broken rule; the
 * second writes the checked entries, as plain files and directories only, into a fresh directory. */
#define _GNU_SOURCE 1
#include "gr_archive.h"
#include "gr_util.h"

#include <archive.h>
#include <archive_entry.h>

#define GR_UNREADABLE "not a readable .zip, .tar.gz, .tgz or .tar archive"

/* 2000 entries, 64 MiB a file, 256 MiB in all: a workbook submission is a few hundred KiB. */
static const gr_archive_limits gr_archive_default_limits = {2000, 64LL << 20, 256LL << 20};

const char *gr_archive_suffix(const char *name)
{
    static const char *const s[] = {".tar.gz", ".tgz", ".zip", ".tar"};
    size_t n = strlen(name);
    for (int i = 0; i < 4; i++)
        if (n > strlen(s[i]) && !strcmp(name + n - strlen(s[i]), s[i])) return s[i];
    return "";
}

static int fail(char *why, size_t len, const char *base, const char *fmt, ...)
{
    char rule[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rule, sizeof rule, fmt, ap);
    va_end(ap);
    snprintf(why, len, "%s: %s", base, rule);
    for (char *c = why; *c; c++) /* the archive's and its entries' names come from the student: one line, always */
        if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
    return -1;
}

static struct archive *open_reader(const char *archive)
{
    struct archive *a = archive_read_new();
    archive_read_support_filter_gzip(a);
    archive_read_support_format_zip(a);
    archive_read_support_format_tar(a);
    archive_read_support_format_gnutar(a);
    if (archive_read_open_filename(a, archive, 64 << 10) == ARCHIVE_OK) return a;
    archive_read_free(a);
    return NULL;
}

/* A relative path that stays inside the tree: no leading '/', no ".." component, not empty. */
static const char *path_rule(const char *name)
{
    if (!*name) return "an entry has an empty name";
    if (name[0] == '/') return "an entry has an absolute path";
    size_t n = strlen(name);
    if (!strcmp(name, "..") || !strncmp(name, "../", 3) || strstr(name, "/../") ||
        (n > 3 && !strcmp(name + n - 3, "/..")))
        return "an entry's path goes up with \"..\"";
    return NULL;
}

/* One entry of the first pass: its name, its kind and every byte of it against the limits (n, total: the
 * entries and bytes so far). */
static int check_entry(struct archive *a, struct archive_entry *e, const gr_archive_limits *lim, long *n,
                       int64_t *total, const char *base, char *why, size_t len)
{
    const char *name = archive_entry_pathname(e);
    if (!name) return fail(why, len, base, "an entry's name cannot be read");
    const char *bad = path_rule(name);
    if (bad) return fail(why, len, base, "%s (%.120s)", bad, name);
    if (archive_entry_hardlink(e) || archive_entry_symlink(e))
        return fail(why, len, base, "links are not allowed (%.120s)", name);
    mode_t t = archive_entry_filetype(e);
    if (t != AE_IFREG && t != AE_IFDIR)
        return fail(why, len, base, "only plain files and folders are allowed (%.120s)", name);
    if (++*n > lim->max_entries) return fail(why, len, base, "more than %ld entries", lim->max_entries);
    int64_t size = 0;
    ssize_t got;
    char buf[64 << 10];
    while ((got = archive_read_data(a, buf, sizeof buf)) > 0) {
        size += got;
        *total += got;
        if (size > lim->max_file || *total > lim->max_total) break;
    }
    if (got < 0) return fail(why, len, base, "the archive is damaged (%.120s)", name);
    if (size > lim->max_file)
        return fail(why, len, base, "a file is larger than %lld MiB (%.120s)", (long long)(lim->max_file >> 20), name);
    if (*total > lim->max_total)
        return fail(why, len, base, "the files add up to more than %lld MiB", (long long)(lim->max_total >> 20));
    return 0;
}

/* Creates the parents of a relative path under root (entries may come without their folders). */
static int mkparents(int rootfd, char *rel)
{
    for (char *s = strchr(rel, '/'); s; s = strchr(s + 1, '/')) {
        *s = 0;
        int r = mkdirat(rootfd, rel, 0755);
        *s = '/';
        if (r && errno != EEXIST) return -1;
    }
    return 0;
}

/* One entry of the second pass, already checked: a folder, or a plain file under a name of its own. */
static int write_entry(struct archive *a, struct archive_entry *e, int root, const char *base, char *why, size_t len)
{
    char rel[4096], buf[64 << 10];
    snprintf(rel, sizeof rel, "%s", archive_entry_pathname(e));
    size_t n = strlen(rel);
    while (n > 1 && rel[n - 1] == '/') rel[--n] = 0;
    if (!strcmp(rel, ".")) return 0;
    int bad = mkparents(root, rel);
    if (!bad && archive_entry_filetype(e) == AE_IFDIR) bad = mkdirat(root, rel, 0755) && errno != EEXIST;
    else if (!bad) {
        /* O_NOFOLLOW|O_EXCL: no entry can write through a name that already exists */
        int fd = openat(root, rel, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
        if (fd < 0) return fail(why, len, base, "an entry is repeated or cannot be written (%.120s)", rel);
        ssize_t got;
        while ((got = archive_read_data(a, buf, sizeof buf)) > 0)
            if (write(fd, buf, (size_t)got) != got) break;
        close(fd);
        bad = got != 0;
    }
    return bad ? fail(why, len, base, "an entry cannot be written (%.120s)", rel) : 0;
}

/* One pass over the archive: every entry checked (root < 0), or written under the folder root. */
static int gr_pass(const char *archive, const char *base, const gr_archive_limits *lim, int root, char *why,
                   size_t len)
{
    struct archive *a = open_reader(archive);
    if (!a) return fail(why, len, base, GR_UNREADABLE);
    struct archive_entry *e;
    long n = 0;
    int64_t total = 0;
    int r, rc = 0;
    while (!rc && ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN))
        rc = root < 0 ? check_entry(a, e, lim, &n, &total, base, why, len) : write_entry(a, e, root, base, why, len);
    if (!rc && r != ARCHIVE_EOF) rc = fail(why, len, base, n || root >= 0 ? "the archive is damaged" : GR_UNREADABLE);
    archive_read_free(a);
    return rc;
}

int gr_archive_extract(const char *archive, const char *dest, const gr_archive_limits *lim, char *why, size_t len)
{
    const char *base = strrchr(archive, '/') ? strrchr(archive, '/') + 1 : archive; /* the student's own name */
    if (!lim) lim = &gr_archive_default_limits;
    if (access(archive, R_OK)) return fail(why, len, base, "the file cannot be read");
    if (gr_pass(archive, base, lim, -1, why, len)) return -1;
    if (mkdir(dest, 0755)) return fail(why, len, base, "the grader cannot create a fresh folder for it");
    int root = open(dest, O_RDONLY | O_DIRECTORY);
    int rc = root < 0 ? fail(why, len, base, "the grader cannot create its folder")
                      : gr_pass(archive, base, lim, root, why, len);
    if (root >= 0) close(root);
    if (rc) gr_rmtree(dest);
    return rc;
}
