/* The class on a Slurm cluster: `grade --class DIR --engine slurm [--partition P] [--gres gpu:1]
 * [--time MIN] [--no-wait] [grader options…]` submits one job array, one task per submission that is
 * missing or failed (resumable), each task the grader's single-submission mode into the shared output
 * directory, then a dependent job (afterany) that merges the per-task results into grades.csv and the
 * summary (`grade --merge`). By default it waits for the merge job, so `make grade-class` ends when the
 * class is graded. The scripts and each task's arguments are kept in <out>/slurm/. */
#ifndef GR_SLURM_H
#define GR_SLURM_H
#include "job.h"

/* 1 when argv asks for --engine slurm (the only thing main needs to know). */
int gr_slurm_wanted(int argc, char **argv);

/* The whole Slurm path; returns the process exit status (0: the class is graded, or submitted with
 * --no-wait; 2: usage; 4: a Slurm command failed). */
int gr_slurm_main(int argc, char **argv);
/* The merge job (`grade --merge --class DIR --out OUT`): roster.json, a result for every entry (those
 * whose task never finished: an empty grade with the reason), grades.csv and the summary, the course
 * pages; its exit code is the class's (class.h gr_class_verdict: an entry not graded is not 0). */
int gr_slurm_merge(const gr_config *x, const char *subs);
#endif
