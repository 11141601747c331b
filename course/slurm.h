/* The class on a Slurm cluster (`course --class DIR --engine slurm …`): one job array, a task per submission
 * missing or failed (resumable) running the judge's single-submission mode (build/grade), then a dependent
 * job (afterany, `course --merge`) into grades.csv; waited for unless --no-wait, so `make grade-class` ends
 * when the class is graded. Scripts and task arguments are kept in <out>/slurm/. */
#ifndef GR_SLURM_H
#define GR_SLURM_H
#include "class.h"

/* The job's limits, and the command line's options as given: the judge's (every task's and the merge's; not
 * --out, --jobs nor --force) and the course's (the merge's). */
typedef struct {
    const char *partition, *gres;
    int minutes, wait;
    const char *judge[32], *course[16];
    int n_judge, n_course;
} gr_slurm_opts;

/* The whole Slurm round of class subs into out (NULL: build/grades), force: regrade what was graded;
 * returns the process exit status (0: the class is graded, or submitted with --no-wait; 2: usage; 4: a
 * Slurm command failed). */
int gr_slurm_class(const gr_slurm_opts *so, const char *subs, const char *out, int force);

/* The merge job (`course --merge --class DIR --out OUT`): roster.json, a result for every entry (those
 * whose task never finished: an empty grade with the reason), grades.csv and the summary, the course
 * pages; its exit code is the class's (class.h gr_class_verdict: an entry not graded is not 0). */
int gr_slurm_merge(const gr_course *c, const char *subs);
#endif
