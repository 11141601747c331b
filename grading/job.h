/* job.h — the grader's configuration, a submission's state, and running commands in the sandbox (argv, visible paths, logging). */
#ifndef GR_JOB_H
#define GR_JOB_H

#include "budget.h"
#include "contract.h"
#include "gpu.h"
#include "isolation.h"
#include "jsonl.h"
#include "regions.h"
#include "results.h"
#include "sandbox.h"
#include "sanhost.h"
#include "sanitizer.h"

#define GR_MAX_SIZES_PER_RUN 8

/* Whether a submission's GPU runs go under bubblewrap (without: it cannot pass the GPU through here). */
typedef enum { GR_GPU_UNASKED, GR_GPU_BWRAP, GR_GPU_NO_BWRAP } gr_gpu_way;

typedef struct {
    char name[64];
    char kernels[256];
} gr_prog_variant;

/* The kernels a program lists for variant (comma-separated), "" when it names none or lacks the variant. */
const char *gr_prog_kernels(const gr_prog_variant *pv, int npv, const char *variant);

/* What the command line, the rubric and the host fixed before any submission is graded: filled once (grade.c;
 * course/'s class.c for a class: the sanitizer's way, each grading child's GPU), then only read. */
typedef struct {
    char root[PATH_MAX];           /* the workbook (cwd) */
    char rubric_path[PATH_MAX];
    gr_rubric rub;
    char out[PATH_MAX];
    int only_ch, force, no_perf, no_san, jobs;
    gr_mode mode;                  /* grading, or the student's practice run (--check) */
    unsigned long long seeds[8];
    int n_seeds;
    int gpu;                       /* index of the GPU this process uses */
    char sanitizer[PATH_MAX];      /* compute-sanitizer, or "" */
    int insecure;                  /* --insecure-sandbox: grade even where the course cannot be isolated */
    int chapters_at_once;          /* where its grading is the only one on its GPU (pipeline.c) */
    int quiet;                     /* --quiet: no log lines (LOG) */
    gr_iso iso;                    /* how student code is kept from the course files (gr_iso_setup, grade.c) */
    gr_san_host san;               /* decided before the grading (a class, make doctor), or "": each probes */
    gr_gpu_way gpu_way;            /* decided before the grading (a class, once), or UNASKED: each probes */
    char keep[PATH_MAX];           /* a class's folder of the reference's kept runs (refkeep.h), "" outside one */
    int janitor;                   /* removes the scratch folders of a grading stopped midway (janitor.h), or 0 */
} gr_config;

/* What one submission's grading changes as it goes (the sanitizer probe makes one for its own runs). */
typedef struct {
    char hide_sub[PATH_MAX];       /* the submission root, hidden from the programs ("" for none) */
    char work[PATH_MAX];           /* this submission's private temporary tree */
    unsigned salt;                 /* random part of directory names */
    gid_t sub_gid;                 /* as root: the group of this submission's runs (isolation.h); 0: none */
    gr_gpu_lock *lock;             /* its GPU's, taken by each GPU run that does not hold it (NULL: none) */
    gr_budget *budget;             /* charged by every GPU run (NULL: none) */
    const gr_san_host *san;        /* the configuration's, or this grading's probe */
    gr_gpu_way gpu_way;            /* gr_gpu_probe, asked once */
} gr_sub_state;

/* A line of the grader's log on stderr, unless the configuration x says --quiet. */
#define LOG(x, ...)                                                                                                     \
    do {                                                                                                                \
        if (!(x)->quiet) {                                                                                              \
            fprintf(stderr, "[grade] " __VA_ARGS__);                                                                    \
            fputc('\n', stderr);                                                                                        \
        }                                                                                                               \
    } while (0)

/* One chapter of one submission: what every grading step works on. */
typedef struct {
    const gr_config *x;
    const gr_sub_state *s;
    const gr_chapter_rubric *ch;
    const char *ref;          /* the reference program, or NULL (check mode without solutions/) */
    const char *stu;          /* the student's build */
    const char *work;         /* the chapter's private working directory */
    gr_ch_result *cr;
} gr_chjob;

typedef struct {
    gr_run_opts o;
    const gr_config *x;       /* its log switch; its isolation: which runs get the course group */
    const gr_sub_state *s;    /* its lock (GPU runs take it shared unless held already) and budget (charged) */
    const char *argv[96];
    int argc;
    char store[96][160];
    char env_gpu[64];
    const char *env[4];
    const char *hide[5];
    const char *ro[4];
} gr_cmd;

/* What a run does with the GPU: none (a build), untimed (correctness, the sanitizer: one hardware work queue, job.c
 * says why), or measured (a benchmark, the profiler: CUDA's defaults, as the student's own runs have them). */
typedef enum { GR_RUN_HOST, GR_RUN_GPU, GR_RUN_MEASURED } gr_run_kind;

void gr_cmd_init(gr_cmd *c, const gr_config *x, const gr_sub_state *s, const char *workdir, double timeout,
                 gr_run_kind kind);

void gr_arg(gr_cmd *c, const char *fmt, ...);
/* s as one argument: copied where it fits the store, else s itself, which the caller keeps until gr_exec returns
 * (ncu's metric list). */
void gr_arg_keep(gr_cmd *c, const char *s);

/* Makes `path` readable inside bubblewrap (bound again after the hidden directories and the tmpfs /tmp). */
void gr_cmd_ro(gr_cmd *c, const char *path);

int gr_exec(gr_cmd *c, gr_run_result *r, const char *what);

/* Can a sandboxed program reach the GPU? Where bubblewrap cannot pass the device through (a kernel that refuses
 * device nodes in a user namespace, say) but the plain sandbox can, this submission's GPU runs go without it. */
void gr_gpu_probe(const gr_config *x, gr_sub_state *s, const char *prog, const gr_chapter_rubric *ch, const char *work);

/* What failed and why: st into o->status and the sentence into o->reason (a chapter's result, a build's). */
#define GR_FAIL(o, st, ...) gr_fail(&(o)->status, (o)->reason, sizeof(o)->reason, (st), __VA_ARGS__)
void gr_fail(gr_ch_status *status, char *reason, size_t len, gr_ch_status st, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* The last non-empty lines of a text, for short feedback. */
void gr_tail_lines(const char *text, int lines, char *out, size_t len);

#endif /* GR_JOB_H */
