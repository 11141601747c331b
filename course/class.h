/* class.h — grading a class with the course around it: one entry per student, in parallel on the GPUs,
 * resumable; before the entries an LMS's bulk download and the roster staged as one entry a student (lms.h);
 * after them the gradebooks (grades.h), the similarity between students (similarity.h) and class.html
 * (classpage.h). */
#ifndef GR_CLASS_H
#define GR_CLASS_H
#include "job.h"

/* Filled once by main.c, then only read (class.c fills the judge's part as a grading does). */
typedef struct {
    gr_config judge;        /* what one submission's grading is given (the judge's configuration) */
    char roster[PATH_MAX];  /* the roster CSV, or "" */
    int lms;                /* the LMS layout (lms.h gr_lms_kind), -2: detect */
    int sim_threshold;      /* percent of shared code that names a pair; 0: off */
    char assignment[128];   /* the assignment's column in canvas-grades.csv */
} gr_course;

/* Before the GPU, any build or any file written: subs names a folder that can be read and holds at least
 * one entry (roster.h gr_roster_is_entry; an LMS download's loose files count, --lms or as detected), and
 * the --roster file, if any, is a roster. 0, or -1 with one line naming the path in why. */
int gr_class_precheck(const gr_course *c, const char *subs, char *why, size_t len);

int gr_class(gr_course *c, const char *subs);

/* The progress line after an entry (stderr, no screen-control codes): "3/20 entries done, 1m20s so far, about
 * 2m40s left" (the pace so far, so parallel graders count; none before the first); "all 20 entries done in
 * 3m12s" at the end. Pure. */
void gr_class_progress(int done, int total, double elapsed_s, char *out, size_t len);

/* The throughput (issue 43): "20 graded in 7m03s on 1 GPU: 170.2 submissions per GPU-hour" (at least one GPU
 * counted); no rate when nothing was graded. Pure. */
void gr_class_rate(int graded, double wall_s, int ngpu, char *out, size_t len);

/* Where the next entry's grader goes: the GPU with the fewest graders running (busy[g] of ngpu >= 1), the
 * lowest index on a tie, so a class's last entries do not pile onto one GPU while another idles. Pure. */
int gr_class_pick_gpu(const int *busy, int ngpu);

/* Entries a class grades at once without --jobs: twelve on one GPU, eight per GPU on several (CUDA process starts are
 * serialized machine-wide: 100 entries on two H200s took 219 s with 16 graders, 228 s with 24), at most three per
 * four cores (builds, compute-sanitizer); no GPU: a quarter of the cores. >= 1. Pure. */
int gr_class_default_jobs(int ngpu, long ncpu);

/* After a class's entries, here or in the Slurm merge job: grades.csv and the summary, the course pages,
 * then the class's exit code (gr_class_verdict). */
int gr_class_close(const gr_course *c, const char *subs);

/* The class's exit code from its output folder alone (report.h gr_exit_class): an entry without its
 * grading.json, or one not graded, makes it non-zero and is told in one line on stderr. io_failed: a
 * report could not be written. */
int gr_class_verdict(const char *subs, const char *out, int io_failed);

#endif /* GR_CLASS_H */
