/* report.c — see mutate.h: the confusion table of the mutants' diagnoses. */
#define _GNU_SOURCE 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose.h"
#include "mutate.h"

/* Whether the grader saw something in variant v: a verdict other than PASS, a sanitizer finding, what the
 * honesty checks caught, a diagnosis, or, graded with perf, performance points lost. Graded without perf,
 * every variant lacks its perf points; graded without the sanitizer (the slow mutants), or with a run that
 * did not finish ("not checked"), every variant lacks the sanitizer's: neither is a detection. */
static int mu_detected(json_t *v, int perf)
{
    const char *verdict = json_string_value(json_object_get(v, "verdict"));
    if ((verdict && strcmp(verdict, "PASS")) || json_is_true(json_object_get(v, "sanitizer_finding")) ||
        json_array_size(json_object_get(v, "caught")) || json_is_object(json_object_get(v, "diagnosis")))
        return 1;
    return perf && json_real_value(json_object_get(v, "perf_points")) <
                       json_real_value(json_object_get(v, "perf_max_points")) - 1e-9;
}

/* The variant a region belongs to: the region's own name, or it less "-launch"; a shared region
 * (block-sum, edge-access) has none: then the first variant with a diagnosis (graded with perf, a variant
 * beside it may lose a point to timing noise without being the one the region slowed), else the first
 * where something was detected. */
static json_t *mu_variant(json_t *vars, const char *region, int perf)
{
    char base[96];
    snprintf(base, sizeof base, "%s", region);
    char *l = strstr(base, "-launch");
    if (l && !l[7]) *l = 0;
    size_t i;
    json_t *v;
    json_array_foreach(vars, i, v) if (!strcmp(json_string_value(json_object_get(v, "variant")) ?: "", base)) return v;
    json_array_foreach(vars, i, v) if (json_is_object(json_object_get(v, "diagnosis"))) return v;
    json_array_foreach(vars, i, v) if (mu_detected(v, perf)) return v;
    return NULL;
}

/* What the grader made of one mutant: graded, caught (something detected, see mu_detected), the class it
 * named. */
typedef struct {
    int graded, caught;
    int named;            /* gr_bug, GR_BUG_NONE where no diagnosis */
    double ratio;         /* the variant's time over the reference's, 0 where not timed */
    char ctr[16];         /* the counters' status where a slow variant was diagnosed ("ok", "timeout", ...) */
} mu_outcome;

/* Slow here, and nothing named because the counters were not measured (the profiler's time limit, the
 * budget, no ncu): not a diagnosis that failed, a measurement that did not happen. */
static int mu_unmeasured(const mu_outcome *o) { return o->named == GR_BUG_SLOW && o->ctr[0] && strcmp(o->ctr, "ok"); }

static mu_outcome mu_read(const char *dir, json_t *m)
{
    mu_outcome o = {0, 0, GR_BUG_NONE, 0, ""};
    const char *id = json_string_value(json_object_get(m, "id"));
    int chn = (int)json_integer_value(json_object_get(m, "chapter"));
    char p[4096];
    int perf = json_is_true(json_object_get(m, "perf"));
    snprintf(p, sizeof p, "%s/%s/%s/grading.json", dir, perf ? "out-perf" : "out", id);
    json_t *g = json_load_file(p, 0, NULL);
    if (!g) return o;
    /* a submission that was not graded (no GPU, the reference failed, the grader broke) says nothing of
     * the mutant: it counts as not graded, as a missing grading.json does */
    const char *status = json_string_value(json_object_get(g, "status"));
    if (status && strcmp(status, "graded")) {
        json_decref(g);
        return o;
    }
    size_t i;
    json_t *ch;
    json_array_foreach(json_object_get(g, "chapters"), i, ch)
    {
        if (json_integer_value(json_object_get(ch, "number")) != chn) continue;
        const char *cs = json_string_value(json_object_get(ch, "status")) ?: "";
        if (!strcmp(cs, "no GPU") || !strcmp(cs, "grader error")) break; /* the grader's failure, not the mutant's */
        o.graded = 1;
        size_t k;
        json_t *w;
        o.caught = strcmp(cs, "graded") != 0;
        json_array_foreach(json_object_get(ch, "variants"), k, w) o.caught |= mu_detected(w, perf);
        json_t *v = mu_variant(json_object_get(ch, "variants"), json_string_value(json_object_get(m, "region")), perf);
        json_t *d = v ? json_object_get(v, "diagnosis") : NULL;
        o.ratio = v ? json_number_value(json_object_get(v, "time_ratio")) : 0;
        int b = json_is_object(d) ? gr_bug_parse(json_string_value(json_object_get(d, "class"))) : -1;
        o.named = b < 0 ? GR_BUG_NONE : b;
        const char *cst = json_string_value(json_object_get(json_object_get(d, "counters"), "status"));
        snprintf(o.ctr, sizeof o.ctr, "%s", cst ? cst : "");
    }
    json_decref(g);
    return o;
}

/* A column as wide as its class's name. */
static int mu_width(int b)
{
    int w = (int)strlen(gr_bug_name(b));
    return w < 4 ? 4 : w;
}

/* The counts the report is made of. Caught and named right count the non-equivalent mutants only
 * (label none: equivalent by design, they must survive); accuracy counts them all (an equivalent one is
 * right when nothing is named). */
typedef struct {
    int table[GR_BUG_COUNT][GR_BUG_COUNT]; /* [intended][named] */
    int used[GR_BUG_COUNT];                /* a column named at least once */
    int total, graded, real, caught, right, right_caught;
    int invented; /* slow table: a cause named for a correct alternative (label none) */
    int flat;     /* slow table: a slow mutant that ran within the first band here: no slowness to explain */
    int unmeasured; /* slow table: slow here, its counters not measured (mu_unmeasured) */
} mu_tally;

/* The slow mutants: graded with perf and labelled with a cause of slowness, or a correct alternative
 * (label none) graded with perf to show that no cause is invented. */
static int mu_is_slow(json_t *m, int want)
{
    return json_is_true(json_object_get(m, "perf")) && (want == GR_BUG_NONE || gr_bug_is_perf((gr_bug)want));
}

/* slow_only: count the slow mutants alone (their own table), else every mutant. */
static void mu_count(json_t *list, const mu_outcome *outs, mu_tally *t, int slow_only)
{
    size_t i;
    json_t *m;
    json_array_foreach(list, i, m)
    {
        int want = gr_bug_parse(json_string_value(json_object_get(m, "label")));
        if (want < 0 || (slow_only && !mu_is_slow(m, want))) continue;
        t->total++;
        mu_outcome o = outs[i];
        if (!o.graded) continue;
        t->graded++;
        t->right += o.named == want;
        if (want != GR_BUG_NONE) {
            t->real++;
            t->caught += o.caught;
            t->right_caught += o.caught && o.named == want;
        }
        t->table[want][o.named]++;
        t->used[o.named] = 1;
        /* "slow" names nothing: the ratio and what was measured */
        t->invented += want == GR_BUG_NONE && o.named != GR_BUG_NONE && o.named != GR_BUG_SLOW;
        /* not diagnosed at all: on this GPU the mutant is not slower than the rubric's first band, so
         * there is no cause to find (its rate counts the mutants that are slow here) */
        t->flat += slow_only && want != GR_BUG_NONE && o.named == GR_BUG_NONE;
        t->unmeasured += slow_only && want != GR_BUG_NONE && mu_unmeasured(&o);
    }
}

static void mu_print_grid(FILE *f, const mu_tally *t)
{
    fprintf(f, "%-19s", "intended");
    for (int b = 0; b < GR_BUG_COUNT; b++)
        if (t->used[b]) fprintf(f, " %*s", mu_width(b), gr_bug_name(b));
    fputc('\n', f);
    for (int a = 0; a < GR_BUG_COUNT; a++) {
        int row = 0;
        for (int b = 0; b < GR_BUG_COUNT; b++) row += t->table[a][b];
        if (!row) continue;
        fprintf(f, "%-19s", gr_bug_name(a));
        for (int b = 0; b < GR_BUG_COUNT; b++)
            if (t->used[b]) fprintf(f, " %*d", mu_width(b), t->table[a][b]);
        fputc('\n', f);
    }
}

static void mu_print_table(FILE *f, const mu_tally *t)
{
    fprintf(f, "Confusion table (rows: intended class, columns: named; graded %d of %d mutants)\n\n", t->graded, t->total);
    mu_print_grid(f, t);
    fprintf(f, "\naccuracy (named == intended): %d/%d = %.0f%%\n", t->right, t->graded, 100.0 * t->right / t->graded);
    fprintf(f, "caught (something detected):  %d/%d = %.0f%% of the non-equivalent\n", t->caught, t->real,
            t->real ? 100.0 * t->caught / t->real : 0);
    fprintf(f, "named right, of the caught:   %d/%d = %.0f%%\n", t->right_caught, t->caught,
            t->caught ? 100.0 * t->right_caught / t->caught : 0);
}

/* The slow mutants' own table: the cause intended (none: a correct alternative) × the cause named from
 * the counters ("slow": measured or not, no cause named; none: not slow enough to be diagnosed). */
static void mu_print_slow(FILE *f, const mu_tally *t)
{
    if (!t->graded) return;
    fprintf(f, "\nSlow mutants (correct; rows: cause intended, none = a correct alternative; columns: named; graded %d "
               "of %d)\n\n", t->graded, t->total);
    mu_print_grid(f, t);
    int alt = t->graded - t->real, right = t->right - t->table[GR_BUG_NONE][GR_BUG_NONE], slow = t->real - t->flat;
    fprintf(f, "\ncause named right:               %d/%d = %.0f%% of the mutants slow on this GPU (target: 80%%)\n", right,
            slow, slow ? 100.0 * right / slow : 0);
    fprintf(f, "counters not measured:           %d of those %d (nothing named without them; listed below)\n",
            t->unmeasured, slow);
    fprintf(f, "named right where measured:      %d/%d = %.0f%%\n", right, slow - t->unmeasured,
            slow - t->unmeasured ? 100.0 * right / (slow - t->unmeasured) : 0);
    fprintf(f, "not slower here:                 %d of %d (within the first band: nothing to name; listed below)\n",
            t->flat, t->real);
    fprintf(f, "causes invented on alternatives: %d of %d (target: 0)\n", t->invented, alt);
}

/* Two lists of slow mutants with their time ratio. flat: those that ran within the first band here, a
 * mutation whose cost this GPU hides (its caches, its coalescer), to be replaced by one that shows; else
 * those slow here whose counters were not measured, with the counters' status. */
static void mu_print_slow_list(FILE *f, json_t *list, const mu_outcome *outs, int flat)
{
    size_t i;
    json_t *m;
    int n = 0;
    json_array_foreach(list, i, m)
    {
        int want = gr_bug_parse(json_string_value(json_object_get(m, "label")));
        if (!outs[i].graded || want < 0 || want == GR_BUG_NONE || !mu_is_slow(m, want)) continue;
        if (flat ? outs[i].named != GR_BUG_NONE : !mu_unmeasured(&outs[i])) continue;
        if (!n++)
            fprintf(f, flat ? "\nSlow mutants not slower on this GPU (time over the reference's):\n"
                            : "\nSlow mutants whose counters were not measured (time over the reference's, counters):\n");
        fprintf(f, "  %-28s %-18s %.2fx  %s\n", json_string_value(json_object_get(m, "id")), gr_bug_name(want),
                outs[i].ratio, flat ? json_string_value(json_object_get(m, "what")) : outs[i].ctr);
    }
}

/* The survivors (nothing detected), then the false alarms: an equivalent mutant behaves as the solution
 * does, so anything detected in it is one. */
static void mu_print_lists(FILE *f, json_t *list, const mu_outcome *outs)
{
    size_t i;
    json_t *m;
    fprintf(f, "\nSurvivors (nothing detected):\n");
    int surv = 0;
    json_array_foreach(list, i, m)
    {
        if (!outs[i].graded || outs[i].caught) continue;
        surv++;
        fprintf(f, "  %-28s %-14s %s\n", json_string_value(json_object_get(m, "id")),
                json_string_value(json_object_get(m, "label")), json_string_value(json_object_get(m, "what")));
    }
    if (!surv) fprintf(f, "  none\n");
    int alarms = 0;
    json_array_foreach(list, i, m)
    {
        if (!outs[i].graded || !outs[i].caught ||
            gr_bug_parse(json_string_value(json_object_get(m, "label"))) != GR_BUG_NONE)
            continue;
        if (!alarms++) fprintf(f, "\nFalse alarms (equivalent mutants where something was detected):\n");
        fprintf(f, "  %-28s %s\n", json_string_value(json_object_get(m, "id")), json_string_value(json_object_get(m, "what")));
    }
}

int mu_report(const char *dir, FILE *f)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/mutants.json", dir);
    json_error_t je;
    json_t *list = json_load_file(p, 0, &je);
    if (!list) {
        fprintf(stderr, "mutate: %s: %s\n", p, je.text);
        return 1;
    }
    /* Each mutant's grading.json is read once; the table, the survivors and the false alarms use it. */
    mu_outcome *outs = calloc(json_array_size(list) + 1, sizeof *outs);
    mu_tally *t = calloc(1, sizeof *t), *slow = calloc(1, sizeof *slow);
    int rc = 1;
    size_t i;
    json_t *m;
    if (!outs || !t || !slow) fprintf(stderr, "mutate: out of memory\n");
    else {
        json_array_foreach(list, i, m) outs[i] = mu_read(dir, m);
        mu_count(list, outs, t, 0);
        mu_count(list, outs, slow, 1);
        if (!t->graded)
            fprintf(stderr, "mutate: none of the %d mutants in %s is graded yet (no grading.json, or not graded: no GPU)\n",
                    t->total, dir);
        else {
            mu_print_table(f, t);
            mu_print_slow(f, slow);
            if (slow->graded) {
                mu_print_slow_list(f, list, outs, 1);
                mu_print_slow_list(f, list, outs, 0);
            }
            mu_print_lists(f, list, outs);
            rc = 0;
        }
    }
    free(t);
    free(slow);
    free(outs);
    json_decref(list);
    return rc;
}
