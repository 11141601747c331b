/* honesty.c — see honesty.h. */
#define _GNU_SOURCE 1
#include "honesty.h"
#include "regions.h"

void gr_honesty_init(gr_honesty *h, const char *size)
{
    memset(h, 0, sizeof *h);
    snprintf(h->size, sizeof h->size, "%s", size);
    h->ceiling = NAN;
}

static const gr_honesty_var *gr_honesty_find(const gr_honesty *h, const char *name)
{
    for (int i = 0; i < h->n_v; i++)
        if (!strcmp(h->v[i].name, name)) return &h->v[i];
    return NULL;
}

/* `create`: a new entry where there is none; only the reference's lines create (a student's process
 * printing made-up names must not crowd out the real ones). */
static gr_honesty_var *gr_honesty_var_of(gr_honesty *h, const char *name, int create)
{
    const gr_honesty_var *found = gr_honesty_find(h, name);
    if (found) return &h->v[found - h->v]; /* the same entry, writable as h is */
    if (!create || h->n_v == GR_MAX_VAR) return NULL;
    h->v[h->n_v] = (gr_honesty_var){.work = NAN};
    snprintf(h->v[h->n_v].name, sizeof h->v[h->n_v].name, "%s", name);
    return &h->v[h->n_v++];
}

static void gr_honesty_line(gr_honesty *h, const wb_row *row, int ref)
{
    if (row->verdict == WB_CEILING && ref && row->throughput > 0 && !(h->ceiling >= row->throughput)) {
        h->ceiling = row->throughput;
        snprintf(h->ceiling_name, sizeof h->ceiling_name, "%s", row->variant);
        snprintf(h->unit, sizeof h->unit, "%s", row->unit);
    }
    gr_honesty_var *v = row->verdict == WB_CEILING ? NULL : gr_honesty_var_of(h, row->variant, ref);
    if (!v) return;
    if (ref) {
        /* throughput × time is the work of one run, the same in every run of this size */
        if (row->throughput > 0 && row->median_ms > 0) v->work = row->throughput * row->median_ms;
        if (row->throughput > v->ref_rate) v->ref_rate = row->throughput;
        if (row->timed_check != WB_NOT_CHECKED || row->rotated_check != WB_NOT_CHECKED) v->ref_checked = 1;
        return;
    }
    v->stu_lines++;
    /* A missing field where the reference writes one is a line the student's process made up. Whether
     * the reference writes it is known only after its first run; the reference always runs first. */
    v->timed_fail += row->timed_check == WB_CHECKED_FAIL || (row->timed_check == WB_NOT_CHECKED && v->ref_checked);
    /* Only the harness's own wording is repeated in the feedback (the line comes from the student's process). */
    if (row->timed_check == WB_CHECKED_FAIL && !strncmp(row->timed_fault, "repetition ", 11) && !v->timed_fault[0])
        snprintf(v->timed_fault, sizeof v->timed_fault, "%s", row->timed_fault);
    v->rotated_fail += row->rotated_check == WB_CHECKED_FAIL || (row->rotated_check == WB_NOT_CHECKED && v->ref_checked);
    if (row->cpu_ms >= 0 && v->n_cpu < GR_HONESTY_MAX_RUNS) v->cpu_ms[v->n_cpu++] = row->cpu_ms;
}

void gr_honesty_add(gr_honesty *h, const json_t *lines, int from_reference)
{
    size_t i;
    json_t *o;
    json_array_foreach(lines, i, o)
    {
        wb_row row;
        char err[200];
        if (wb_row_get(o, &row, err, sizeof err) || strcmp(row.size, h->size) || row.verdict == WB_REFERENCE) continue;
        gr_honesty_line(h, &row, from_reference);
    }
}

/* 400000 -> "400,000"; small rates keep three significant digits ("1.25"). */
static void gr_rate_str(double x, char *out, size_t len)
{
    if (!(x >= 1000) || x >= 1e18) {
        snprintf(out, len, "%.3g", x);
        return;
    }
    char digits[32];
    snprintf(digits, sizeof digits, "%.0f", x);
    size_t n = strlen(digits), at = 0;
    for (size_t k = 0; k < n && at + 2 < len; k++) {
        if (k && (n - k) % 3 == 0) out[at++] = ',';
        out[at++] = digits[k];
    }
    out[at] = 0;
}

static void gr_note_add(char *note, size_t len, const char *sentence)
{
    size_t at = strlen(note);
    snprintf(note + at, len - at, "%s%s", at ? " " : "", sentence);
}

/* A finding c: its bit into *mask, its sentence into note. */
__attribute__((format(printf, 5, 6))) static void gr_found(unsigned *mask, gr_caught c, char *note, size_t len,
                                                           const char *fmt, ...)
{
    char s[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s, sizeof s, fmt, ap);
    va_end(ap);
    *mask |= 1u << c;
    gr_note_add(note, len, s);
}

unsigned gr_honesty_judge(const gr_honesty *h, const gr_rubric *rub, const char *variant, double stu_ms, char *note,
                          size_t len)
{
    note[0] = 0;
    const gr_honesty_var *v = gr_honesty_find(h, variant);
    if (!v || !v->stu_lines) return 0;
    unsigned mask = 0;
    if (v->timed_fail)
        gr_found(&mask, GR_CAUGHT_TIMED_CHECK, note, len, "The output of the timed runs was wrong although the first "
                 "run was right: every timed launch must compute the result.");
    if (v->timed_fail && v->timed_fault[0])
        gr_found(&mask, GR_CAUGHT_TIMED_CHECK, note, len, "Each timed repetition runs on inputs of its own and its "
                 "output is checked: %s.", v->timed_fault);
    if (v->rotated_fail)
        gr_found(&mask, GR_CAUGHT_ROTATED_CHECK, note, len, "On a second set of inputs the variant returned a stale "
                 "result: it must compute from its inputs every time.");
    double rate = v->work / stu_ms, top = h->ceiling > v->ref_rate ? h->ceiling : v->ref_rate;
    char got[40], lim[40];
    gr_rate_str(rate, got, sizeof got);
    gr_rate_str(top, lim, sizeof lim);
    int above = stu_ms > 0 && rate > 0 && h->ceiling > 0 && rate > top * (1 + rub->floor_margin);
    if (above && top > h->ceiling)
        gr_found(&mask, GR_CAUGHT_ABOVE_CEILING, note, len, "Reported %s %s; the reference solution reaches %s %s on "
                 "this GPU, above its own rate for this work (%s): the timed runs cannot have done the work.",
                 got, h->unit, lim, h->unit, h->ceiling_name);
    else if (above)
        gr_found(&mask, GR_CAUGHT_ABOVE_CEILING, note, len, "Reported %s %s; this GPU's own rate for this work (%s), "
                 "measured in the same run, is %s %s: the timed runs cannot have done the work.",
                 got, h->unit, h->ceiling_name, lim, h->unit);
    double cpu[GR_HONESTY_MAX_RUNS];
    memcpy(cpu, v->cpu_ms, sizeof cpu[0] * (size_t)v->n_cpu);
    double c = gr_median(cpu, v->n_cpu); /* -1: none */
    /* 1 ms: below it a launcher's own overhead (a first-call allocation, a busy machine) is noise */
    if (stu_ms > 0 && c > rub->cpu_factor * stu_ms && c > 1.0)
        gr_found(&mask, GR_CAUGHT_HOST_COMPUTE, note, len, "The process spent %.3g ms of CPU per run against %.3g ms "
                 "on the GPU: the work is done on the host.", c, stu_ms);
    return mask;
}

void gr_caught_add(gr_var_result *r, unsigned mask, const char *sentence)
{
    r->caught |= mask;
    gr_note_add(r->caught_note, sizeof r->caught_note, sentence);
}

void gr_caught_apply(gr_var_result *r)
{
    if (!r->caught) return;
    r->perf_pts = 0;
    if (gr_caught_costs_correct(r->caught)) r->correct_pts = 0;
}

/* The variant a region belongs to: its own name, else the longest variant name followed by '-'. */
static int gr_region_owner(const gr_ch_result *cr, const char *region)
{
    int best = -1;
    for (int v = 0; v < cr->n_v; v++) {
        size_t n = strlen(cr->v[v].name);
        if (!strcmp(cr->v[v].name, region)) return v;
        if (!strncmp(cr->v[v].name, region, n) && region[n] == '-' && (best < 0 || n > strlen(cr->v[best].name)))
            best = v;
    }
    return best;
}

/* Which variants (a bitmask over cr->v) each region's hits cost: see honesty.h. `scope[i]`: the brace depth
 * of the file's own text before region i (0: file level). */
static void gr_region_users(const gr_ch_result *cr, const char *text, size_t len, const wb_region *reg, int nr,
                            const int *scope, unsigned *users)
{
    unsigned all = cr->n_v >= 32 ? ~0u : (1u << cr->n_v) - 1;
    char(*names)[256][64] = calloc((size_t)(nr ? nr : 1), sizeof *names); /* per region: what it declares */
    int nn[64];
    if (!names) { /* cannot follow the names: every region may reach every variant */
        for (int i = 0; i < nr; i++) users[i] = all;
        return;
    }
    for (int i = 0; i < nr; i++) {
        int owner = gr_region_owner(cr, reg[i].name);
        users[i] = owner >= 0 ? 1u << owner : scope[i] ? all : 0;
        /* what it declares at file level: nothing for a region that stays inside its function */
        nn[i] = gr_screen_names(text + reg[i].begin, reg[i].end - reg[i].begin, -scope[i], names[i], 256);
        if (nn[i] > 256) users[i] = all; /* more than we can follow */
        if (nn[i] > 256) nn[i] = 256;
        /* named by the starter's own code (outside the regions): no one variant's */
        size_t at = 0;
        for (int j = 0; j <= nr && users[i] != all; j++) {
            size_t stop = j < nr ? reg[j].begin : len;
            if (gr_screen_mentions(text + at, stop - at, (const char(*)[64])names[i], nn[i])) users[i] = all;
            if (j < nr) at = reg[j].end;
        }
    }
    /* a file-level region costs the variants of every region that uses what it declares, transitively */
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < nr; i++)
            for (int j = 0; j < nr && nn[i]; j++) {
                if (j == i || (users[i] | users[j]) == users[i]) continue;
                if (!gr_screen_mentions(text + reg[j].begin, reg[j].end - reg[j].begin, (const char(*)[64])names[i], nn[i]))
                    continue;
                users[i] |= users[j];
                changed = 1;
            }
    }
    for (int i = 0; i < nr; i++)
        if (!users[i]) users[i] = all; /* used by no region we can tell: it may reach any */
    free(names);
}

int gr_honesty_screen(const gr_chapter_rubric *ch, const char *text, size_t len, gr_ch_result *cr)
{
    wb_region reg[64];
    char err[200];
    int nr = wb_regions_parse(text, len, reg, 64, err, sizeof err), total = 0;
    if (nr < 0) return -1;
    if (nr > 64) nr = 64;
    /* where each region sits: the brace depth of the file's own text before it (see honesty.h) */
    int scope[64];
    unsigned users[64];
    size_t at = 0;
    for (int i = 0, depth = 0; i < nr; i++) {
        depth += gr_screen_brace_depth(text + at, reg[i].begin - at);
        scope[i] = cr->outside[0] ? 0 : depth;
        at = reg[i].end;
    }
    gr_region_users(cr, text, len, reg, nr, scope, users);
    unsigned all = cr->n_v >= 32 ? ~0u : (1u << cr->n_v) - 1;
    for (int i = 0; i < nr; i++) {
        gr_screen_hit hits[8];
        int n = 0;
        total += gr_screen_region(&ch->screen, reg[i].name, text + reg[i].begin, reg[i].end - reg[i].begin,
                                  reg[i].line + 1, hits, 8, &n);
        for (int k = 0; k < n; k++) {
            int again = 0; /* one sentence per rule and region: the first place it is used */
            for (int q = 0; q < k; q++) again |= hits[q].rule == hits[k].rule;
            if (again) continue;
            int costs_correct = !hits[k].rule || hits[k].rule->cost == GR_COST_CORRECT;
            /* a macro reaches every later line */
            unsigned who = hits[k].rule && hits[k].rule->reach == GR_REACH_FILE ? all : users[i];
            unsigned m = 1u << (costs_correct ? GR_CAUGHT_SCREEN_CORRECT : GR_CAUGHT_SCREEN_PERF);
            char s[400];
            gr_screen_hit_str(&hits[k], s, sizeof s);
            strncat(s, ".", sizeof s - strlen(s) - 1);
            for (int v = 0; v < cr->n_v; v++)
                if (who >> v & 1) gr_caught_add(&cr->v[v], m, s);
        }
    }
    return total;
}
