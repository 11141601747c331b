/*
 * honesty.h — is a time the grader would credit a time the student's code really took? The benchmark runs
 * pass --grading (CONTRACT.md "Grading runs"): each variant's line says whether the timed repetitions' output
 * was right (timed_check), whether a run on other inputs was (rotated_check) and the launcher's CPU time
 * (cpu_ms); one CEILING line gives the hardware's rate for the chapter's work. Over all runs of one size, per
 * variant (results.h's gr_caught names):
 *   above-ceiling   faster than the reference run's CEILING × (1 + perf.floor_margin), or than the
 *                   reference's own rate for the variant where that is higher (a ceiling it beats is not one)
 *   timed-check, rotated-check   a wrong or stale result (or the field missing where the reference has it)
 *   host-compute    cpu_ms > perf.cpu_factor × the time and > 1 ms: the work is done on the host
 *   screen-perf, screen-correct   the region screen (gr_honesty_screen)
 * The ceiling and the work per run come from the reference's runs only: a student's process can print any.
 */
#ifndef GR_HONESTY_H
#define GR_HONESTY_H

#include "jsonl.h"
#include "results.h"
#include "rubric.h"

#define GR_HONESTY_MAX_RUNS 64

typedef struct { /* one variant's lines over all runs */
    char name[64];
    double work;                  /* the reference's throughput × median_ms (unit · ms); NAN: unknown */
    double ref_rate;              /* the reference's highest throughput for it: never held to be impossible */
    int ref_checked;              /* the reference's lines carry timed_check / rotated_check */
    int stu_lines;                /* the student's lines seen */
    int timed_fail, rotated_fail; /* lines with FAIL, or without the field where the reference has it */
    char timed_fault[96];         /* the first line's timed_fault: which repetition was wrong, and where */
    double cpu_ms[GR_HONESTY_MAX_RUNS];
    int n_cpu;
} gr_honesty_var;

typedef struct {
    char size[64];                /* the canonical size whose lines count */
    gr_honesty_var v[GR_MAX_VAR];
    int n_v;
    double ceiling;               /* the highest CEILING throughput of the reference's runs; NAN: none */
    char ceiling_name[64], unit[24];
} gr_honesty;

/* Starts collecting the lines of `size` (canonical, e.g. "1048576"). */
void gr_honesty_init(gr_honesty *h, const char *size);

/* Adds one benchmark run's JSON lines (not those of other sizes, the speed-of-light row, nor unparsable ones). */
void gr_honesty_add(gr_honesty *h, const json_t *lines, int from_reference);

/* The findings for one variant whose credited (median) time is stu_ms: the bitmask, and one sentence per
 * finding in note (joined with spaces; "" when nothing was caught). */
unsigned gr_honesty_judge(const gr_honesty *h, const gr_rubric *rub, const char *variant, double stu_ms, char *note,
                          size_t len);

/* The region screen (screen.h) over a student's chapter file `text`. Each hit costs screen-perf or
 * screen-correct per its rule (unbalanced braces: screen-correct), with gr_screen_hit_str's sentence, to
 * the variants that use its region:
 *   - a region inside a function (the file's brace depth before it is not 0): the variant it is named after
 *     (its name, or "<variant>-…" such as "v4-launch"), else every variant (chapter 3's zero-result).
 *   - a region at file level (chapter 3's block-sum) declares helpers any later code may call: the variant
 *     it is named after, and the variants of every region naming one of its helpers (transitively); every
 *     variant where the starter's own code names one, or where nothing tells who uses them. A region that
 *     leaves its function is followed the same way for what it declares at file level.
 *   - a rule of reach "file" (`#define`: it changes every later line, the harness's too): every variant.
 * Not followed: code run without being named (a constructor) or through a pointer another region stores;
 * the timing checks are for that. With cr->outside set (edits outside the regions) the file's brace depths
 * are not trusted: every region is at file level. Returns the hits, or -1 when the regions do not parse. */
int gr_honesty_screen(const gr_chapter_rubric *ch, const char *text, size_t len, gr_ch_result *cr);

/* Records findings on a variant: their bits, and the sentence appended to its caught_note. */
void gr_caught_add(gr_var_result *r, unsigned mask, const char *sentence);

/* Takes what the findings cost (after every step has given its points): the performance points, and the
 * correctness points where gr_caught_costs_correct. */
void gr_caught_apply(gr_var_result *r);

#endif /* GR_HONESTY_H */
