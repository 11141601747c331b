/*
 * sanhost.h — how compute-sanitizer runs on this host (its kernel, driver, the tool's version): decided once
 * per grader, before any student code runs under it, on the references, never by a submission. A student's
 * program that dies or hangs under the tool changes nothing: its run is reported as unfinished (sanitize.c).
 */
#ifndef GR_SANHOST_H
#define GR_SANHOST_H

#include "rubric.h"

typedef enum {
    GR_SAN_UNPROBED,  /* not decided (no GPU, or the practice run without references): runs as every run */
    GR_SAN_SANDBOX,   /* the references finished under the sandbox every other run gets */
    GR_SAN_UID,       /* not under bubblewrap here: as root, a uid of its own with the course files closed */
    GR_SAN_SKIP,      /* not run here (the rubric's rule, or no isolation strong enough), with the reason */
    GR_SAN_ABSENT     /* compute-sanitizer is not installed */
} gr_san_mode;

typedef struct {
    gr_san_mode mode;
    char line[400];                       /* for make doctor, the terminal and every report */
    double ref_s[GR_MAX_CH][GR_MAX_TOOLS]; /* the reference's run of each chapter (rubric order) and tool */
} gr_san_host;

/* What the decision depends on, so that a test can pose any case. */
typedef struct {
    int installed, root;  /* compute-sanitizer was found; the grader is root (a uid of its own per run) */
    int probed;           /* the references ran under it (a GPU and the references are here) */
    int finished;         /* every tool finished on every reference in the sandbox runs get */
    int bwrap;            /* that sandbox was bubblewrap */
    int fallback_skip;    /* the rubric says "skip" for sanitizer_without_bubblewrap */
    int finished_uid;     /* (probed only when bwrap && root && !fallback_skip) every tool finished there */
} gr_san_facts;

gr_san_mode gr_san_decide(const gr_san_facts *f);

#endif /* GR_SANHOST_H */
