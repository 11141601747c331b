/*
 * diagnose.h — from evidence to a named bug: which sizes fail against the chapter's block/tile width,
 * the mismatch patterns of compare.c, whether three runs of one input agree, the sanitizer's first
 * finding and the timings. A rule table (diagnose.c) maps that evidence to one bug class with a
 * one-line hint that teaches without giving the code away. Where the evidence is weak the diagnosis is
 * GR_BUG_UNCLEAR and the evidence says what was seen, never a guess.
 *
 * Pure functions (no runs, no files): the evidence is gathered by correctness.c (per-size outcomes),
 * evidence.c (repeats, the sanitizer on failures, the timings); tested on synthetic evidence in
 * tests/test_diagnose.c. tools/mutate labels its mutants with gr_bug_name().
 */
#ifndef GR_DIAGNOSE_H
#define GR_DIAGNOSE_H

#include "compare.h"
#include "counters.h"
#include "rubric.h"

/* The bug classes; gr_bug_name() gives the word feedback, grading.json and tools/mutate use. */
typedef enum {
    GR_BUG_NONE,            /* no diagnosis: the variant passed, or was not run */
    GR_BUG_UNCLEAR,         /* wrong, but the evidence names no class: say what was seen */
    GR_BUG_TAIL,            /* tail not handled / grid rounded down */
    GR_BUG_SINGLE_BLOCK,    /* works only while one block covers the input */
    GR_BUG_TILE_EDGE,       /* missing bounds check at a tile edge (garbage or a neighbour across it) */
    GR_BUG_PADDING,         /* correct but slow: shared-memory bank conflicts (word "bank-conflicts") */
    GR_BUG_THREAD_INDEX,    /* threadIdx.x where the global index belongs */
    GR_BUG_ROW_COL_SWAP,    /* rows and columns (x and y) swapped */
    GR_BUG_OFF_BY_ONE,      /* an index or a bound off by one */
    GR_BUG_RACE,            /* a missing or misplaced barrier */
    GR_BUG_LOST_UPDATES,    /* plain += where an atomic belongs */
    GR_BUG_IDENTITY,        /* an accumulator not at the identity (0 for +, +inf for min) */
    GR_BUG_INDEX_OVERFLOW,  /* a 32-bit index that overflows at large sizes */
    GR_BUG_UNWRITTEN,       /* the output never written (poison left) */
    GR_BUG_OOB,             /* an out-of-bounds access reported by the sanitizer */
    GR_BUG_UNCOALESCED,     /* correct but slow: scattered memory accesses (more sectors per request) */
    GR_BUG_HOST_WORK,       /* correct but slow: the work done on the host */
    /* correct but slow, each named only from hardware counters beside the reference's (gr_perf_cause) */
    GR_BUG_OCCUPANCY,       /* fewer resident warps, limited by registers, shared memory or the block size */
    GR_BUG_SPILLS,          /* registers spilled to local memory */
    GR_BUG_SCALAR_LOADS,    /* narrower loads than the reference's: more requests for the same bytes */
    GR_BUG_BARRIER,         /* warps waiting at barriers (a barrier inside the inner loop) */
    GR_BUG_ATOMICS,         /* many more atomic requests (serialized on few addresses) */
    GR_BUG_EXTRA_INSTR,     /* more instructions for the same work */
    GR_BUG_EXTRA_DRAM,      /* more DRAM traffic for the same work */
    GR_BUG_SLOW,            /* correct but slow, and no single cause measured (or no counters): name nothing */
    GR_BUG_COUNT
} gr_bug;

const char *gr_bug_name(gr_bug b);
/* The one-line hint of a class ("" for none). */
const char *gr_bug_hint(gr_bug b);
/* The class named by its word, or -1. */
int gr_bug_parse(const char *name);
/* 1 for the classes of a correct but slow variant (a cause of slowness, GR_BUG_SLOW included). */
int gr_bug_is_perf(gr_bug b);

/* How one edge size ended for a variant (over all seeds: the worst). */
typedef enum { GR_SZ_NOT_RUN, GR_SZ_PASS, GR_SZ_WRONG, GR_SZ_CRASH, GR_SZ_TIMEOUT, GR_SZ_ERROR } gr_size_outcome;

/* What the raw data of one wrong size shows beyond compare.c's pattern (gr_diag_scan). */
typedef struct {
    gr_size_outcome out;
    gr_pattern pat;             /* compare.c's pattern when wrong */
    long long dims[3];
    int nd;
    int transposed;             /* a square result equals the reference transposed */
    int uniform;                /* every wrong element holds one and the same value */
    int first_tile_repeated;    /* written elements beyond the first tile repeat the first tile's values */
    int offset;                 /* floats: every element off by about the same amount */
    int side;                   /* exact results: every wrong element above the reference's (1), below (-1),
                                 * or some of each / not comparable (0) */
    long long n_wrong;          /* elements that differ (poison included) */
    long long first_wrong;      /* the first one's index, or -1 */
} gr_size_ev;

/* The sanitizer's first finding, by kind. */
typedef enum { GR_SAN_NONE, GR_SAN_OOB, GR_SAN_RACE, GR_SAN_SYNC, GR_SAN_OTHER } gr_san_kind;

typedef struct {
    int tile;                   /* the chapter's block/tile width (rubric "tile"; 1: none) */
    int cols_dim;               /* which extent is the result's row length (rubric "cols_dim"); the result
                                 * is dims[0] x dims[cols_dim] when it is >= 1; -1: 1-D */
    int block;                  /* threads per block where the chapter has no tile (0: unknown) */
    int tiles;                  /* the variant stages tiles of the input in shared memory (rubric "tiles") */
    int n_sizes;
    char size_name[GR_MAX_EDGE][24];
    gr_size_ev size[GR_MAX_EDGE];
    int scalar;                 /* the result is one element (a reduction) */
    long long got1[GR_MAX_EDGE], ref1[GR_MAX_EDGE]; /* a scalar result per size (first seed; inputs are */
    int have1[GR_MAX_EDGE];                         /* prefix-stable, so sizes can be compared) */
    int repeats;                /* -1 not tried, 0 three runs agreed, 1 they differed */
    gr_san_kind san;
    char san_first[300];        /* the finding, as printed (for the evidence line) */
    double stu_ms, ref_ms, cpu_ms; /* perf medians; cpu_ms < 0: not reported */
    int slow;                   /* perf says the variant is well behind the reference */
    gr_ctr_status ctr;          /* whether counters of both were measured (evidence.c); NOT_TRIED by default */
    gr_ctr stu_ctr, ref_ctr;    /* the student's and the reference's, at the same size */
} gr_diag_ev;

typedef struct {
    gr_bug bug;
    char evidence[400];
} gr_diag;

/* Evidence with nothing seen yet (repeats and cpu_ms unknown) for variant v of ch (v < 0: none). */
void gr_diag_ev_init(gr_diag_ev *e, const gr_chapter_rubric *ch, int v);

/* The rule table over the evidence. A variant that passed everywhere and is not slow gets GR_BUG_NONE. */
void gr_diagnose(const gr_diag_ev *e, gr_diag *d);

/* Fills transposed / uniform / first_tile_repeated / offset / side of s from one wrong size's raw results
 * (n elements of type elem, row length cols; cols == n for 1-D). approx: float32 results compared
 * within a tolerance (another summation order), so "equal" means close. */
void gr_diag_scan(const void *ref, const void *got, unsigned long long n, unsigned long long cols, gr_elem elem,
                  int approx, int tile, gr_size_ev *s);

/* Why a correct variant is slow, from its counters beside the reference's (both measured at one size):
 * the one cause whose metric departs from the reference's by its rule's factor while every other
 * departure is one of its known consequences, with its two numbers in why; otherwise GR_BUG_SLOW and
 * why says what was measured. The rules and their factors: diagnose_perf.c. */
gr_bug gr_perf_cause(const gr_ctr *stu, const gr_ctr *ref, char *why, size_t len);

/* The kind of a sanitizer finding from its first line ("Invalid __global__ write", "Race reported", ...). */
gr_san_kind gr_san_kind_of(const char *first);

#endif /* GR_DIAGNOSE_H */
