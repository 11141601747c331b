/* lms.h — what a learning management system hands the grader.
 * In: the bulk downloads of Canvas ("Download Submissions": loose files named
 * `lastfirst[_LATE]_<user id>_<attachment id>_<file name>`), Moodle ("Download all submissions":
 * `Full Name_<participant id>_assignsubmission_file_` folders, or the same prefix on loose files) and
 * Gradescope ("Export Submissions": `submission_<id>/` folders and `submission_metadata.yml` naming the
 * submitters), plus an optional roster CSV (Canvas's own gradebook export is one). Each student's files are
 * staged as one entry, `<name>_<LMS id>`, under <out>/.lms-subs/, which the class loop grades; <out>/lms.json
 * records who each entry is (what canvas-grades.csv, grades.h, is written from). */
#ifndef GR_LMS_H
#define GR_LMS_H
#include <stddef.h>

typedef enum { GR_LMS_PLAIN, GR_LMS_CANVAS, GR_LMS_MOODLE, GR_LMS_GRADESCOPE } gr_lms_kind;
/* "auto" is -2; an unknown name -1. */
int gr_lms_parse_kind(const char *s);

/* One file name of a bulk download, taken apart. 0 when the name has that layout's form (Canvas, Moodle), else -1. */
typedef struct {
    char name[256];   /* Canvas: "lastfirst"; Moodle: "Full Name" */
    char id[64];      /* Canvas: the user id; Moodle: the participant id */
    char file[256];   /* the student's own file name ("" for a Moodle folder) */
    int late;         /* Canvas marked it late */
} gr_lms_file;
int gr_lms_parse_name(gr_lms_kind kind, const char *entry, gr_lms_file *out);

/* Canvas keeps a re-uploaded file's name unique with "-1", "-2" before the extension: the name without it
 * when that is one of want[0..n), else the name as it is. */
void gr_lms_canvas_original(const char *file, const char *const *want, int n, char *out, size_t len);

/* Which layout subs has: Gradescope when submission_metadata.yml is there (or one folder down: root, which may
 * be NULL, gets the folder that holds it), else Canvas or Moodle when every non-hidden entry has that LMS's
 * form, else plain (one entry a student). */
gr_lms_kind gr_lms_detect(const char *subs, char *root, size_t len);

/* A roster row. Any field may be empty. */
typedef struct {
    char id[64], sid[64], login[128], name[256], email[256], section[128];
} gr_person;

/* Reads a roster CSV (RFC 4180, UTF-8, a header row naming its columns, case-folded: "ID", "SIS User ID",
 * "SIS Login ID", "Student", "Email", "Section" and their synonyms in lms.c; others are ignored). Returns a
 * malloc'ed array (*n rows), or NULL with a one-line reason. */
gr_person *gr_lms_roster_read(const char *path, int *n, char *why, size_t len);

/* The roster row that is this person: same LMS id, SIS id, login or email, else the same name (letters
 * and digits, case-folded; "Last, First", "First Last" and Canvas's "lastfirst" all agree). -1: none. */
int gr_lms_roster_match(const gr_person *roster, int n, const gr_person *who);

/* Stages subs under out_dir for grading (see above) with the roster (path or NULL) and writes
 * <out_dir>/lms.json. kind: a gr_lms_kind, or -2 to detect it. file_names: the chapters' file names (a
 * Canvas upload "reversal-1.cu" is graded as reversal.cu). On success writes into staged the folder to
 * grade (subs itself for a plain layout) and returns 0; else -1 with a one-line reason. */
int gr_lms_stage(const char *subs, const char *out_dir, const char *roster, int kind, const char *const *file_names,
                 int n_files, char *staged, size_t slen, char *why, size_t wlen);

#endif
