/*
 * children.h — the judge's one way to do its own work in processes at once and hand the results back. Each
 * child hands back a struct without pointers (its heap dies with it) in a slot of one shared mapping made
 * before the forks; a slot counts once the child's function returned (a flag set last), so a child that
 * crashes or exits early leaves no result and how it ended, never half of one.
 */
#ifndef GR_CHILDREN_H
#define GR_CHILDREN_H

#include <stddef.h>

/* How a child ended, as its parent saw it: only a child whose function returned (DONE) has a result. */
typedef enum { GR_CHILD_DONE, GR_CHILD_EXITED, GR_CHILD_KILLED } gr_child_end;

typedef struct {
    gr_child_end end;
    int code, sig;      /* EXITED's exit code, KILLED's signal */
    int here;           /* no process could be made: it ran in the caller's process, in turn */
} gr_child_outcome;

typedef struct {
    int n;              /* children, at once */
    size_t size;        /* bytes of one result, a struct without pointers */
    /* Child i's work: fills `slot` (size bytes, zeroed) from ctx; what else it changes stays in its process. */
    void (*fn)(int i, void *ctx, void *slot);
    void *ctx;
} gr_children;

/* Runs fn(i) for i in [0, n), each in a child, and returns once all are gone (no zombie). results (n * size
 * bytes): slot i where child i handed it back, else zeros; out[i]: how it ended. Where the mapping or a
 * process cannot be made, fn runs here in turn. Returns how many handed back. */
int gr_children_run(const gr_children *c, void *results, gr_child_outcome *out);

/* How a child ended from whether its flag was set and its wait status (pure). */
gr_child_outcome gr_child_decode(int handed_back, int wait_status);

/* For a report: "handed back", "was killed by signal 6 (Aborted)", "exited with code 3 without a result". */
void gr_child_describe(const gr_child_outcome *o, char *buf, size_t len);

#endif /* GR_CHILDREN_H */
