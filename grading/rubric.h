/* rubric.h — the assignment: grading/rubric.json (points, limits, the screen: the course's policy) and each
 * chapter's facts, chapters/NN-name/chapter.json (variants, how --dump results compare, the tile, the sizes),
 * read with jansson and validated. Adding a chapter is adding its folder. Unknown keys are errors (a typo must
 * not silently change a grade); so is a fact written in the rubric (it has one home). */
#ifndef GR_RUBRIC_H
#define GR_RUBRIC_H

#include "contract.h"
#include "gr_util.h"
#include "screen.h"

#include <ctype.h>
#include <math.h>

#define GR_MAX_CH 16
#define GR_MAX_VAR 16
#define GR_MAX_EDGE 24
#define GR_MAX_BANDS 8
#define GR_MAX_TOOLS 3

typedef enum { GR_I32, GR_I64, GR_F32 } gr_elem;

/* A size as chapter.json writes it, parsed once at load (wb_size_parse): its text ("2^26": what a command line
 * passes), its extents, its canonical spelling ("67108864": what the programs write in dump names and JSON). */
typedef struct {
    int n_dims;                   /* 1, or 3 for MxNxK */
    long long d[3];
    char text[48], canon[64];     /* canon: three 19-digit extents fit */
} gr_size;

typedef struct {
    char name[64];
    double correct, perf, sanitizer;
    int tiles;                    /* stages tiles of the input in shared memory (tile-edge diagnoses apply) */
    int given;                    /* the starter gives it (a worked example): it passes untouched */
} gr_variant_rubric;

typedef struct {
    double within, fraction;      /* student time ≤ within × reference time earns fraction of the points */
} gr_band;

typedef struct {
    int number;
    char dir[128], file[128];
    gr_elem elem;
    int tolerance;                /* 0: exact (bit for bit for floats; NaN never matches) */
    double rtol, atol;            /* |got − ref| ≤ (atol + rtol·|ref|) · (sqrt_k ? √K : 1) */
    int sqrt_k;                   /* K = the last extent of an MxNxK size */
    int tile;                     /* block/tile width that "boundary" feedback refers to */
    int cols_dim;                 /* which extent of the size is the output's row length; -1: 1-D */
    gr_size edge[GR_MAX_EDGE];
    int n_edge;
    gr_size sanitizer_size, perf_size;
    char tools[GR_MAX_TOOLS][16];
    int n_tools;
    gr_variant_rubric var[GR_MAX_VAR];
    int n_var;
    gr_screen_rules screen;       /* the rubric's "screen" rules, plus screen_extra, less screen_allow */
} gr_chapter_rubric;

/* grading/rubric.json's policy (its comments say what each number means) and the chapters it grades. */
typedef struct {
    char course[128];
    int seeds;                    /* fresh random seeds per grading */
    double t_build, t_run, t_sanitizer, t_perf;
    double cpu_s;
    long long file_bytes, disk_bytes;
    int nproc;
    size_t out_cap;
    int rounds, reps_lo, reps_hi, warmup;
    int low_rounds;               /* the first rounds that also run the low count; the rest run the high alone */
    double wall_slack_s, wall_factor, cross_check_s;
    int reference_high;           /* 0: the reference's rep_wall_ms calibrates the cross-check, one process less */
    double reference_reuse_s;     /* a class's graders on one GPU share the reference's benchmark runs this long */
    double floor_margin, cpu_factor; /* grading/honesty.h's */
    /* "bounds": what one submission may cost (grading/budget.h) */
    double gpu_chapter_s, gpu_submission_s, confirm_s, confirm_factor, sanitizer_factor, sanitizer_slack_s;
    /* Where compute-sanitizer cannot run under bubblewrap (sanitize.h): its steps go in the isolation the
     * other runs would get without it (ISOLATED: as root, a uid of its own, course files closed) or are skipped. */
    enum { GR_SAN_FALLBACK_ISOLATED, GR_SAN_FALLBACK_SKIP } san_fallback;
    gr_band band[GR_MAX_BANDS];
    int n_bands;
    struct {
        double correct, sanitizer, perf;
    } points;                     /* each variant's, in a chapter the rubric does not name ("points") */
    int skip_unlisted;            /* "unlisted_chapters": "skip": grade only the chapters the rubric names */
    char tools[GR_MAX_TOOLS][16];
    int n_tools;
    gr_screen_rules screen;       /* what a student's regions may not contain (grading/screen.h) */
    gr_chapter_rubric ch[GR_MAX_CH];
    int n_ch;
} gr_rubric;

/* "1000003", "2^26", "4096x1000x333" (what the chapter programs accept) into out. Returns 0, or -1 where s
 * is not a size (or too long to keep). */
int gr_size_parse(const char *s, gr_size *out);

/* The rubric at path with the chapters of the workbook at root: every chapters/NN-name/ folder holding a
 * chapter.json, in order, with the points of the rubric's entry of that number (else the default points, or
 * left out with "unlisted_chapters": "skip"); an entry without a folder is ignored. 0, or -1 with one line. */
int gr_rubric_load_at(const char *root, const char *path, gr_rubric *r, char *err, size_t errlen);

/* The chapter folders of root (NN-name with a chapter.json), sorted; how many (at most max). */
int gr_chapters_scan(const char *root, char dirs[][128], int max);

/* One chapter's facts, root/chapters/<dir>/chapter.json, without points (the mutator, the tests). */
int gr_chapter_load(const char *root, const char *dir, gr_chapter_rubric *ch, char *err, size_t errlen);

/* "04-matmul" -> 4 and "matmul.cu"; -1 if dir is not NN-name. */
int gr_chapter_dir_split(const char *dir, int *number, char *file, size_t len);

const gr_variant_rubric *gr_rubric_variant(const gr_chapter_rubric *ch, const char *name);

/* The program's own variants (the names its --list gives) against ch's, read where the list is: 0, or -1
 * with one line in why naming the chapter and the first of its variants that the program does not list
 * (it would be graded but cannot run). A variant only the program has is graded for information. */
int gr_variants_check(const gr_chapter_rubric *ch, const char *const *listed, int n, char *why, size_t len);

/* gr_variants_check both ways: also -1 where the program lists a variant the facts do not name (it would go
 * ungraded). What `grade --validate` asks of every built chapter program (validate.h). */
int gr_variants_match(const gr_chapter_rubric *ch, const char *const *listed, int n, char *why, size_t len);

/* The fraction of the performance points for time ratio student/reference (bands are step functions). */
double gr_band_fraction(const gr_rubric *r, double ratio);

#endif /* GR_RUBRIC_H */
