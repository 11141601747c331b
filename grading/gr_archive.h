/* gr_archive.h (not archive.h: grading/ is on the include path, libarchive's <archive.h> would be hidden) —
 * student archives (.zip, .tar.gz, .tgz, .tar) read with libarchive: every entry is checked before
 * anything is written (no absolute path, no "..", no link of any kind, no device/fifo, caps on the
 * entry count, each file's size and the total), then the archive is extracted into a fresh directory.
 * Errors are one line a student can act on: their archive's base name and the rule it broke. */
#ifndef GR_ARCHIVE_H
#define GR_ARCHIVE_H
#include <stddef.h>
#include <stdint.h>

typedef struct {
    long max_entries;   /* files + directories */
    int64_t max_file;   /* bytes of one file, as really decompressed */
    int64_t max_total;  /* bytes of all files */
} gr_archive_limits;

/* 1 when the name ends in .zip, .tar.gz, .tgz or .tar. */
int gr_archive_is_archive(const char *path);

/* Checks then extracts archive into dest_dir, which must not exist yet (created 0755); lim NULL: the defaults
 * (gr_archive.c). 0, or -1 with a one-line reason in why (no host path, no line feed) and nothing at dest_dir. */
int gr_archive_extract(const char *archive, const char *dest_dir, const gr_archive_limits *lim, char *why, size_t len);
#endif
