/*
 * honesty.h — is a time the grader would credit a time the student's code really took?
 *
 * The benchmark runs of the reference and of the student's build pass --grading (CONTRACT.md
 * "Grading runs"): each variant's line then says whether the output of the timed repetitions was right
 * (timed_check), whether a run on other inputs was right (rotated_check) and how much CPU the launcher
 * used (cpu_ms), and one CEILING line gives the hardware's own rate for the chapter's work. This module
 * collects those lines over all runs of one size and, per variant, names what it caught:
 *
 *   above-ceiling   faster than the hardware: the reference run's CEILING × (1 + perf.floor_margin), or
 *                   the reference's own rate for the variant where that is higher (a ceiling it beats
 *                   is not one)
 *   timed-check     the timed repetitions left a wrong output (or the line has no timed_check)
 *   rotated-check   on a second set of inputs the result was stale (or the line has no rotated_check)
 *   host-compute    cpu_ms > perf.cpu_factor × the time and > 1 ms: the work is done on the host
 *   screen-perf, screen-correct   the region screen (screen.h; the pipeline sets these)
 *
 * Only the reference's run is trusted for the ceiling and for the work per run: a student's process can
 * print any CEILING line, so the student's own is never read.
 */
#ifndef GR_HONESTY_H
#define GR_HONESTY_H

#include "caught.h"
#include "jsonl.h"
#include "results.h"
#include "rubric.h"

#define GR_HONESTY_MAX_RUNS 64

/* One variant's lines over all runs. */
typedef struct {
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

/* Starts collecting the lines of `size` (as the programs spell it, e.g. "1048576"). */
void gr_honesty_init(gr_honesty *h, const char *size);

/* Adds the JSON lines of one benchmark run (wb_jsonl_parse's array). Lines of other sizes, the
 * speed-of-light row and lines that do not parse are skipped; a CEILING line counts only from the
 * reference. */
void gr_honesty_add(gr_honesty *h, const json_t *lines, int from_reference);

/* The findings for one variant whose median time over the student's runs is stu_ms (what would be
 * credited), with one sentence per finding for the student in note (joined with spaces). Rules: the
 * rubric's floor_margin and cpu_factor. Returns the bitmask; 0 and note "" when nothing was caught. */
unsigned gr_honesty_judge(const gr_honesty *h, const gr_rubric *rub, const char *variant, double stu_ms, char *note,
                          size_t len);

/* The region screen (screen.h) over a student's chapter file `text`. Each hit costs screen-perf or
 * screen-correct per its rule (a region whose braces do not balance: screen-correct), and only to the
 * variants that use the region:
 *   - a region inside a function (the file's own brace depth before it is not 0) belongs to the variant
 *     it is named after (its name, or "<variant>-…" such as "v4-launch"); nothing it declares is seen
 *     outside its function. One named after no variant (chapter 3's zero-result, in a function every
 *     launcher calls) belongs to every variant.
 *   - a region at file level (chapter 3's block-sum, chapter 4's edge-access) declares helpers that any
 *     later code may call: it costs the variant it is named after, if any, and the variants of every region
 *     that names one of its helpers (transitively: a helper of a helper); every variant where the
 *     starter's own code names one, or where it is named after no variant and no region names them
 *     (nothing tells who uses it). A region that leaves its function (its braces do not balance:
 *     screen-correct) is followed the same way: its variant, and whoever names what it declares at
 *     file level.
 *   - a rule with reach "file" (`#define`: it changes every later line, the harness's among them) costs
 *     every variant.
 * Not followed: code that runs without being named (a constructor, an atexit handler) or through a
 * pointer that another region stores; what it does to the timings is for the checks above.
 * When cr->outside is set (the file differs from the starter outside the regions) the file's own brace
 * depths are not trusted and every region is taken to be at file level. The sentences of
 * gr_screen_hit_str go to the notes. Returns the number of hits, or -1 when the regions do not parse
 * (the build says why). */
int gr_honesty_screen(const gr_chapter_rubric *ch, const char *text, size_t len, gr_ch_result *cr);

/* Records findings on a variant: their bits, and the sentence appended to its caught_note. */
void gr_caught_add(gr_var_result *r, unsigned mask, const char *sentence);

/* Takes what the variant's findings cost (run after every step has given its points): performance
 * points always, correctness points for a wrong or stale result or a screen rule that costs them. */
void gr_caught_apply(gr_var_result *r);

#endif /* GR_HONESTY_H */
