/* gr_archive.h (not archive.h: grading/ is on the include path, libarchive's <archive.h> would be hidden) — student
 * archives read with libarchive: every entry checked (no absolute path, no "..", no link of any kind, no device or
 * fifo, caps on the entry count, each file's size and the total) before anything is written into a fresh folder. */
#ifndef GR_ARCHIVE_H
#define GR_ARCHIVE_H
#include <stddef.h>
#include <stdint.h>

typedef struct {
    long max_entries;   /* files + directories */
    int64_t max_file;   /* bytes of one file, as really decompressed */
    int64_t max_total;  /* bytes of all files */
} gr_archive_limits;

/* The archive suffix a name ends in (".tar.gz", ".tgz", ".zip", ".tar": what is unpacked), or "". */
const char *gr_archive_suffix(const char *name);
static inline int gr_archive_is_archive(const char *path) { return *gr_archive_suffix(path) != 0; }

/* Checks then extracts archive into dest_dir, which must not exist yet (created 0755); lim NULL: the defaults
 * (gr_archive.c). 0, or -1 with nothing at dest_dir and one line a student can act on in why: their archive's base
 * name and the rule it broke (no host path, no line feed). */
int gr_archive_extract(const char *archive, const char *dest_dir, const gr_archive_limits *lim, char *why, size_t len);
#endif
