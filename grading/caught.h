/* caught.h — what the grader caught a variant at (honesty.h decides, the reports list): header only, below
 * both, so that the reports need not include honesty.h. */
#ifndef GR_CAUGHT_H
#define GR_CAUGHT_H

/* A bitmask of 1u << gr_caught. The names are what grading.json lists and tests read: never rename them. */
typedef enum {
    GR_CAUGHT_ABOVE_CEILING,
    GR_CAUGHT_TIMED_CHECK,
    GR_CAUGHT_ROTATED_CHECK,
    GR_CAUGHT_HOST_COMPUTE,
    GR_CAUGHT_SCREEN_PERF,
    GR_CAUGHT_SCREEN_CORRECT,
    GR_CAUGHT_N
} gr_caught;

static inline const char *gr_caught_name(gr_caught c)
{
    static const char *const names[GR_CAUGHT_N] = {"above-ceiling", "timed-check",   "rotated-check",
                                                   "host-compute",  "screen-perf",   "screen-correct"};
    return c >= 0 && c < GR_CAUGHT_N ? names[c] : "?";
}

/* Does a finding cost the correctness points (every one costs the performance points)? A wrong or stale
 * result is a wrong result; being too fast or computing on the host is not. */
static inline int gr_caught_costs_correct(unsigned mask)
{
    return (mask & (1u << GR_CAUGHT_TIMED_CHECK | 1u << GR_CAUGHT_ROTATED_CHECK | 1u << GR_CAUGHT_SCREEN_CORRECT)) != 0;
}

#endif /* GR_CAUGHT_H */
