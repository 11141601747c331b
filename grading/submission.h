/* submission.h — a submission's files: archives, finding the student's file, the pristine starter. */
#ifndef GR_SUBMISSION_H
#define GR_SUBMISSION_H

#include "gr_archive.h"
#include "job.h"

/* Where the student's file for a chapter is: SUB/chapters/DIR/FILE, SUB/DIR/FILE (like solutions/),
 * SUB/FILE, or the same one folder down (archives that wrap everything in a folder). Only regular
 * files inside SUB count: a symlink out of it (to solutions/, say) is refused. */
int gr_find_student_file(const char *sub, const gr_chapter_rubric *ch, char *out, size_t len, int depth);

/* 1 if the chapter's file is in SUB as a link or under a linked folder (out of the submission: refused by
 * gr_find_student_file), its place in SUB in out: "a link out of the submission" rather than "missing". */
int gr_student_file_link(const char *sub, const gr_chapter_rubric *ch, char *out, size_t len);

/* 0 if SUB can be a submission (a directory but "/", which names no one, or a file named .zip, .tar, .tar.gz or
 * .tgz); else -1 and a one-line reason that says whether it exists and lists every accepted form. */
int gr_sub_path_check(const char *sub, char *why, size_t len);

/* The submission as a folder, its path in dir (PATH_MAX bytes): SUB itself (resolved), or the archive SUB unpacked
 * into `into` (not existing yet): the one place a submission is unpacked. 0, or -1 with one line in why. */
int gr_sub_folder(const char *sub, const char *into, char *dir, char *why, size_t len);

/* How many of the rubric's chapters (whatever --ch selects) have their file in a submission, how many a link. */
typedef struct {
    int files, links;
} gr_sub_content;

/* Whether a submission is empty: not one chapter's file nor a link in its place (a mistyped path is refused
 * rather than graded 0; a file without a region or with wrong code is the student's: graded). Pure. */
int gr_sub_is_empty(const gr_sub_content *c);

/* Before the GPU, any build or any report: SUB (gr_sub_path_check first) read as the grading would (an archive
 * unpacked into a folder under TMPDIR, on the janitor's list while there) and refused when empty. 0, or -1, a line. */
int gr_sub_precheck(const gr_rubric *rub, const char *sub, int janitor, char *why, size_t len);

/* The pristine starter: grading/pristine/ in the student release, else chapters/ (make check: solutions/,
 * the same outside the regions, since there chapters/ is the student's own file). 1: a starter, 2: that
 * reference (its regions hold the starter's text as hint lines), 0: none. */
int gr_pristine_path(const gr_config *x, const gr_chapter_rubric *ch, char *out, size_t len);

/* 1 with the reference binary of chapter ch in ref (as gr_stage_reference left it in `work`, the
 * grading's work tree; NULL or "": not staged), 0 if none. */
int gr_have_reference(const gr_config *x, const char *work, const gr_chapter_rubric *ch, char *ref, size_t len);

#endif /* GR_SUBMISSION_H */
