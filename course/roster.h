/* Every student accounted for. The student id is the LMS's entry name kept as it is (UTF-8), less its
 * archive suffix; it is what grades.csv and the reports show. The folder the grader writes to is a
 * file-system-safe name that may differ: the entry's own name when it is a plain ASCII folder name, else
 * an ASCII slug plus 8 hex digits of a hash of the exact entry name, so that "lee, ann" and "lee  ann",
 * or x.zip and x.tar.gz, never share a folder. The mapping is recorded in <out>/roster.json. */
#ifndef GR_ROSTER_H
#define GR_ROSTER_H
#include <stddef.h>

typedef struct {
    char entry[256];   /* the file or folder name in the submissions directory */
    char student[256]; /* the LMS name: entry less .zip/.tar.gz/.tgz/.tar, bytes unchanged but for control
                        * characters (a newline, a tab), each one space: one line per student */
    char folder[128];  /* where its reports go, under the output directory */
} gr_roster_entry;

/* The student name and the folder for one entry name (no '/'). */
void gr_roster_name(const char *entry, int is_archive, gr_roster_entry *out);

/* Whether a name in a class folder is a student's entry: never a dot-file; a folder, or a regular file
 * that is an archive (.zip, .tar, .tar.gz, .tgz); any regular file where `loose` (an LMS download, whose
 * loose files are staged into entries). Pure: the caller says what the name is. */
int gr_roster_is_entry(const char *name, int is_dir, int is_file, int loose);

/* Every gradable entry of subs (folders and archives; dot-files skipped), sorted by entry name. *n gets
 * the count; returns a malloc'ed array (free it), or NULL with a one-line reason. */
gr_roster_entry *gr_roster_scan(const char *subs, int *n, char *why, size_t len);

/* Scans subs and records the map in <out_dir>/roster.json ([{"student", "entry", "folder"}, ...]): what a class
 * (here or on a cluster) needs before it starts. Returns the entries (*n of them; free it), or NULL with the
 * reason on stderr. */
gr_roster_entry *gr_roster_record(const char *subs, const char *out_dir, int *n);

/* 1 when <out_dir>/<folder>/grading.json is missing or gr_grading_not_run (report.h). */
int gr_roster_pending(const char *out_dir, const char *folder);
#endif
