/*
 * validate.h — `grade --validate`'s look at the chapters' programs: each chapter's facts (the variants its
 * chapter.json names) against what its built program lists (`--list --json -`), both ways, with no GPU. A
 * misspelt variant in chapter.json would be graded as a variant that never runs; one the program has and the
 * facts lack would go ungraded: both are refused here, before any class, in one line.
 */
#ifndef GR_VALIDATE_H
#define GR_VALIDATE_H

#include "rubric.h"

#include <stddef.h>

typedef struct {
    int chapters;                 /* chapters in the rubric */
    int checked;                  /* of them, checked against a built program */
    char unbuilt[256];            /* the programs not built or stale (so not checked), space-separated */
} gr_validate_summary;

/* Every chapter of r whose program is built under root/build (the reference's, build/solutionN, where
 * solutions/ holds one, else the starter's, build/chapterN) run with --list --json -, its variants matched
 * with the facts (gr_variants_match). A program older than its source or its chapter.json is left out as not
 * built: `make grade` validates before it rebuilds. 0, or -1 with one line in why naming the chapter and the variant. */
int gr_validate_programs(const gr_rubric *r, const char *root, gr_validate_summary *sum, char *why, size_t len);

/* The summary's one line: "ok: 5 chapters, each one's variants as its program lists them" or which were
 * not built. */
void gr_validate_say(const gr_validate_summary *sum, char *out, size_t len);

#endif /* GR_VALIDATE_H */
