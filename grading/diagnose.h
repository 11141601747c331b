/* diagnose.h — from evidence to a named bug: per-size outcomes against the chapter's block/tile width, compare.c's
 * mismatch patterns, three repeats, the sanitizer's first finding, the timings and counters. A rule table maps it to
 * one bug class with a hint that teaches without giving the code away; where the evidence is weak, GR_BUG_UNCLEAR and
 * what was seen, never a guess. Pure: correctness.c and evidence.c gather the evidence. */
#ifndef GR_DIAGNOSE_H
#define GR_DIAGNOSE_H

#include "compare.h"
#include "counters.h"
#include "rubric.h"

/* The bug classes, each with its word (gr_bug_name: feedback, grading.json and tools/mutate use it) and its
 * one-line hint (gr_bug_hint), which points at where to look, not at the fix's code. */
#define GR_BUGS(X)                                                                                                     \
    X(NONE, "none", "") /* no diagnosis: the variant passed, or was not run */                                         \
    X(UNCLEAR, "unclear", /* wrong, but the evidence names no class: it says what was seen */                          \
      "Run the smallest failing size by hand (--size) and compare with the reference.")                                \
    X(TAIL, "tail",                                                                                                    \
      "The last, partial block is lost: how many blocks does the launch make when n is not a multiple of the block, "  \
      "and does every thread check that its element exists?")                                                          \
    X(SINGLE_BLOCK, "single-block", "It works while one block covers the input: what does the second block do?")       \
    X(TILE_EDGE, "tile-edge",                                                                                          \
      "A tile that sticks out of the data: what do the threads whose element lies outside load into shared memory, "   \
      "and who supplies the neighbour across a tile edge?")                                                            \
    X(PADDING, "bank-conflicts",                                                                                       \
      "Threads of one warp meet in the same shared-memory bank and wait their turn: which bank does each thread's "    \
      "word fall in (address / 4 mod 32)?")                                                                            \
    X(THREAD_INDEX, "thread-index",                                                                                    \
      "Every block does the same work: the index has to include which block the thread is in.")                        \
    X(ROW_COL_SWAP, "row-col-swap",                                                                                    \
      "Rows and columns are mixed up: which of x and y runs along a row, and which extent is the row length?")         \
    X(OFF_BY_ONE, "off-by-one", "An index or a bound is off by one: work out the first and last element by hand.")     \
    X(RACE, "race",                                                                                                    \
      "Threads read shared data before (or while) others write it: where must every thread of the block wait?")        \
    X(LOST_UPDATES, "lost-updates",                                                                                    \
      "Many threads update one location at once: a read-modify-write that is not atomic loses updates.")               \
    X(IDENTITY, "identity",                                                                                            \
      "An accumulator that does not start at the identity of its operation (what leaves every value unchanged?).")     \
    X(INDEX_OVERFLOW, "index-overflow", "Only large sizes fail: does an index or product overflow 32 bits?")           \
    X(UNWRITTEN, "unwritten", "The output is never written: is the kernel launched, and does it store its result?")    \
    X(OOB, "out-of-bounds",                                                                                            \
      "An access outside an allocation: check the bounds of every index against the extents, at the sizes that are "   \
      "not multiples of the block.")                                                                                   \
    X(UNCOALESCED, "uncoalesced",                                                                                      \
      "Do neighbouring threads of a warp touch neighbouring addresses? A warp's access is served in 32-byte "          \
      "sectors.")                                                                                                      \
    X(HOST_WORK, "host-work", "Correct but slow, and the time is spent on the CPU: the work belongs on the GPU.")      \
    /* correct but slow, each named only from hardware counters beside the reference's (gr_perf_cause) */              \
    X(OCCUPANCY, "occupancy",                                                                                          \
      "Fewer warps fit on an SM to hide latency: what does one block ask of the SM (threads, registers, shared "       \
      "memory), and how many blocks does that leave room for?")                                                        \
    X(SPILLS, "spills",                                                                                                \
      "Values that do not fit in registers go to local memory (as slow as global): what makes a thread keep so many "  \
      "live values, or caps its registers?")                                                                           \
    X(SCALAR_LOADS, "scalar-loads",                                                                                    \
      "The same bytes in more, smaller memory requests: how wide is each thread's load, and can it move 16 bytes at "  \
      "once?")                                                                                                         \
    X(BARRIER, "barrier-stalls",                                                                                       \
      "Warps wait at __syncthreads() more than they work: how often does the block really need to meet?")              \
    X(ATOMICS, "serialized-atomics",                                                                                   \
      "Atomics to one address are done one after another: how many atomics does each element cost, and could a "       \
      "block combine its values first?")                                                                               \
    X(EXTRA_INSTR, "extra-instructions",                                                                               \
      "More instructions for the same work: what does the inner loop recompute on every step?")                        \
    X(EXTRA_DRAM, "extra-dram",                                                                                        \
      "More bytes from DRAM than the reference moves for the same result: what is read more than once?")               \
    X(SLOW, "slow", /* correct but slow, no single cause measured (or no counters): names nothing */                   \
      "Compare your kernel with the chapter's idea for this variant; `make profile` shows its counters.")

typedef enum {
#define GR_BUG_ENUM(id, name, hint) GR_BUG_##id,
    GR_BUGS(GR_BUG_ENUM)
#undef GR_BUG_ENUM
    GR_BUG_COUNT
} gr_bug;

const char *gr_bug_name(gr_bug b);
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

/* Why a correct variant is slow, from its counters beside the reference's (both measured at one size): the one
 * cause whose metric departs from the reference's by its rule's factor (diagnose_perf.c) while every other
 * departure is one of its known consequences, with its two numbers in why; else GR_BUG_SLOW, why: what was seen. */
gr_bug gr_perf_cause(const gr_ctr *stu, const gr_ctr *ref, char *why, size_t len);

/* What was measured where no rule names a cause (issue 64: never only "no cause"): the counters the rules read,
 * the student's beside the reference's, the farthest apart first, as many whole pairs as fit in len. Pure. */
void gr_ctr_side_by_side(const gr_ctr *stu, const gr_ctr *ref, char *out, size_t len);

/* The kind of a sanitizer finding from its first line ("Invalid __global__ write", "Race reported", ...). */
gr_san_kind gr_san_kind_of(const char *first);

#endif /* GR_DIAGNOSE_H */
