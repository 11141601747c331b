/*
 * compare.h — a student's raw result file against the reference's: facts only (the first mismatch, counts,
 * the errors' pattern); report.h puts them in words. Integers and min-plus floats exactly (bit for bit; a
 * NaN never matches), float matmul within the tolerance. Never-written elements hold the driver's poison.
 */
#ifndef GR_COMPARE_H
#define GR_COMPARE_H

#include "rubric.h"

#define GR_SHIFTS 4 /* a whole result shifted by up to this many places is recognised */

typedef enum {
    GR_PAT_NONE,       /* correct */
    GR_PAT_LENGTH,     /* the file has the wrong length, or is missing */
    GR_PAT_UNWRITTEN,  /* every element still poison */
    GR_PAT_NAN,        /* NaN where a number was expected */
    GR_PAT_POISON,     /* some elements never written */
    GR_PAT_TAIL,       /* wrong only in the last, partial tile */
    GR_PAT_BOUNDARY,   /* wrong only at tile boundaries */
    GR_PAT_SHIFT,      /* the result shifted by a constant number of places */
    GR_PAT_CONSTANT,   /* every wrong value off by the same constant */
    GR_PAT_SCATTERED
} gr_pattern;

typedef struct {
    unsigned long long n, wrong, poison, nan;
    long long first;                /* index of the first mismatch, -1 if none */
    char where[48], expected[48], got[48];
    gr_pattern pattern;
    long long shift;
    double constant;
    long long exp_bytes, got_bytes;
} gr_cmp;

/* Bytes per element of e. */
size_t gr_elem_size(gr_elem e);

/* Element i of a as a double (for constants, messages and ordering; int64 beyond 2^53 rounds). */
double gr_elem_value(gr_elem e, const void *a, size_t i);

/* Compares got (got_bytes) with ref (ref_bytes) for a run at extents dims[0..ndims). */
void gr_compare(const gr_chapter_rubric *ch, const long long *dims, int ndims, const void *ref,
                              long long ref_bytes, const void *got, long long got_bytes, gr_cmp *c);

#endif /* GR_COMPARE_H */
