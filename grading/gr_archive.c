/* Two passes over the archive: the first reads every header and every byte (sizes in headers can lie,
 * and a zip bomb shows only when decompressed) and rejects the archive on the first broken rule; the
 * second writes the checked entries, as plain files and directories only, into a fresh directory. */
#define _GNU_SOURCE 1
#include "gr_archive.h"
#include "gr_util.h"

#include <archive.h>
#include <archive_entry.h>

const gr_archive_limits gr_archive_default_limits = {2000, 64LL << 20, 256LL << 20};

int gr_archive_is_archive(const char *p)
{
    size_t n = strlen(p);
#define ENDS(s) (n > strlen(s) && !strcmp(p + n - strlen(s), s))
    return ENDS(".zip") || ENDS(".tar.gz") || ENDS(".tgz") || ENDS(".tar");
#undef ENDS
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
    if (archive_read_open_filename(a, archive, 64 << 10) != ARCHIVE_OK) {
        archive_read_free(a);
        return NULL;
    }
    return a;
}

/* A relative path that stays inside the tree: no leading '/', no ".." component, not empty. */
static const char *path_rule(const char *name)
{
    if (!*name) return "an entry has an empty name";
    if (name[0] == '/') return "an entry has an absolute path";
    for (const char *s = name; *s;) {
        const char *e = strchr(s, '/');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n == 2 && s[0] == '.' && s[1] == '.') return "an entry's path goes up with \"..\"";
        if (!e) break;
        s = e + 1;
    }
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

static int check_pass(const char *archive, const char *base, const gr_archive_limits *lim, char *why, size_t len)
{
    struct archive *a = open_reader(archive);
    if (!a) return fail(why, len, base, "not a readable .zip, .tar.gz, .tgz or .tar archive");
    struct archive_entry *e;
    long n = 0;
    int64_t total = 0;
    int r, rc = 0;
    while (!rc && ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN))
        rc = check_entry(a, e, lim, &n, &total, base, why, len);
    if (!rc && r != ARCHIVE_EOF)
        rc = fail(why, len, base, n ? "the archive is damaged" : "not a readable .zip, .tar.gz, .tgz or .tar archive");
    archive_read_free(a);
    return rc;
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

static int write_pass(const char *archive, const char *dest, const char *base, char *why, size_t len)
{
    struct archive *a = open_reader(archive);
    if (!a) return fail(why, len, base, "not a readable .zip, .tar.gz, .tgz or .tar archive");
    int root = open(dest, O_RDONLY | O_DIRECTORY);
    if (root < 0) { archive_read_free(a); return fail(why, len, base, "the grader cannot create its folder"); }
    struct archive_entry *e;
    int r, rc = 0;
    char buf[64 << 10];
    while (!rc && ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN)) {
        char rel[4096];
        snprintf(rel, sizeof rel, "%s", archive_entry_pathname(e));
        size_t n = strlen(rel);
        while (n > 1 && rel[n - 1] == '/') rel[--n] = 0;
        if (!strcmp(rel, ".")) continue;
        if (mkparents(root, rel)) { rc = fail(why, len, base, "an entry cannot be written (%.120s)", rel); break; }
        if (archive_entry_filetype(e) == AE_IFDIR) {
            if (mkdirat(root, rel, 0755) && errno != EEXIST) rc = fail(why, len, base, "an entry cannot be written (%.120s)", rel);
            continue;
        }
        /* O_NOFOLLOW|O_EXCL: no entry can write through a name that already exists */
        int fd = openat(root, rel, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
        if (fd < 0) { rc = fail(why, len, base, "an entry is repeated or cannot be written (%.120s)", rel); break; }
        ssize_t got;
        while ((got = archive_read_data(a, buf, sizeof buf)) > 0)
            if (write(fd, buf, (size_t)got) != got) { got = -2; break; }
        close(fd);
        if (got < 0) rc = fail(why, len, base, "an entry cannot be written (%.120s)", rel);
    }
    close(root);
    archive_read_free(a);
    return rc;
}

int gr_archive_extract(const char *archive, const char *dest, const gr_archive_limits *lim, char *why, size_t len)
{
    const char *base = strrchr(archive, '/') ? strrchr(archive, '/') + 1 : archive; /* the student's own name */
    if (!lim) lim = &gr_archive_default_limits;
    if (access(archive, R_OK)) return fail(why, len, base, "the file cannot be read");
    if (check_pass(archive, base, lim, why, len)) return -1;
    if (mkdir(dest, 0755)) return fail(why, len, base, "the grader cannot create a fresh folder for it");
    if (write_pass(archive, dest, base, why, len)) {
        gr_rmtree(dest);
        return -1;
    }
    return 0;
}
