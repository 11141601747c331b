/* diagnose_perf.c — the rule table of a correct but slow variant (gr_perf_cause, diagnose.h): hardware
 * counters of the student's kernels beside the reference's, measured at one size by evidence.c. */
#include "diagnose.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* One metric of both runs. */
typedef struct {
    double stu, ref;
} gr_pair;

static double gr_div(double a, double b) { return b > 0 ? a / b : 0; }

/* A spill shows as local traffic the reference has not: local-memory sectors per global sector. */
static double m_local(const gr_ctr *c) { return gr_div(c->local_sectors, c->ld_sectors + c->st_sectors); }
static double m_occupancy(const gr_ctr *c) { return c->occupancy; }
static double m_ld_sectors(const gr_ctr *c) { return gr_div(c->ld_sectors, c->ld_requests); }
static double m_st_sectors(const gr_ctr *c) { return gr_div(c->st_sectors, c->st_requests); }
static double m_conflicts(const gr_ctr *c) { return gr_div(c->bank_conflicts, c->shared_requests); }
static double m_atomics(const gr_ctr *c) { return c->atomics; }
static double m_requests(const gr_ctr *c) { return c->ld_requests + c->st_requests; }
static double m_per_request(const gr_ctr *c) { return gr_div(c->ld_sectors + c->st_sectors, m_requests(c)); }
/* warps waiting at a barrier per issued instruction: a share of the time, whatever else adds work */
static double m_barrier(const gr_ctr *c) { return c->stall_barrier; }
static double m_inst(const gr_ctr *c) { return c->inst; }
static double m_dram(const gr_ctr *c) { return c->dram_bytes; }

/* A rule: its cause, its metric, the factor by which the student's must depart (lower_worse: the reference's over the
 * student's), the least value of the student's that counts (a floor, so that 0.001 against 0 names nothing), and the
 * other rules' causes that follow from it (a spill adds instructions and DRAM traffic; they are its consequences, not a
 * second cause). The factors and consequences below were set against the slow mutants graded on the H100 (tools/mutate,
 * make diagnose-mutants): a barrier's waits grow with whatever makes some warps slower; a block of fewer threads than a
 * warp's multiple leaves lanes empty, so the same work takes more warp instructions (4 x 4 blocks: 49 % occupancy
 * vs 93 %, 2.0x the instructions); serialized atomics leave SMs idle while they queue (64 % vs 98 %); 16-byte loads
 * make at most 2x their 16 sectors per request when scattered (32 vs 16), so 1.5 names it. */
typedef struct {
    gr_bug bug;
    double (*metric)(const gr_ctr *);
    double (*or_metric)(const gr_ctr *); /* this one instead where it departs further (stores beside loads) */
    double factor, floor;
    int lower_worse;
    unsigned consequences; /* bits 1u << gr_bug */
    const char *fmt;       /* the sentence with the two numbers: student's, then reference's */
} gr_perf_rule;

#define B(x) (1u << (x))
static const gr_perf_rule gr_perf_rules[] = {
    {GR_BUG_SPILLS, m_local, NULL, 4.0, 0.01, 0,
     B(GR_BUG_EXTRA_INSTR) | B(GR_BUG_EXTRA_DRAM) | B(GR_BUG_SCALAR_LOADS) | B(GR_BUG_BARRIER) | B(GR_BUG_OCCUPANCY),
     "%.2f local-memory sectors per global sector vs %.2f in the reference: registers spilled"},
    {GR_BUG_OCCUPANCY, m_occupancy, NULL, 1.5, 0, 1, B(GR_BUG_BARRIER) | B(GR_BUG_EXTRA_INSTR),
     "achieved occupancy %.0f %% vs %.0f %% in the reference"},
    {GR_BUG_UNCOALESCED, m_ld_sectors, m_st_sectors, 1.5, 2.0, 0, B(GR_BUG_EXTRA_DRAM) | B(GR_BUG_BARRIER),
     "%.1f sectors per global memory request vs %.1f in the reference: uncoalesced accesses"},
    {GR_BUG_PADDING, m_conflicts, NULL, 2.0, 0.5, 0, B(GR_BUG_BARRIER) | B(GR_BUG_EXTRA_INSTR),
     "%.1f shared-memory bank conflicts per request vs %.1f in the reference"},
    {GR_BUG_ATOMICS, m_atomics, NULL, 4.0, 1000, 0,
     B(GR_BUG_EXTRA_INSTR) | B(GR_BUG_SCALAR_LOADS) | B(GR_BUG_OCCUPANCY) | B(GR_BUG_BARRIER),
     "%.3g global atomic requests vs %.3g in the reference"},
    {GR_BUG_SCALAR_LOADS, m_requests, NULL, 2.0, 1000, 0, B(GR_BUG_EXTRA_INSTR),
     "%.3g global memory requests vs %.3g in the reference for the same bytes: narrower loads"},
    {GR_BUG_BARRIER, m_barrier, NULL, 2.0, 0.5, 0, B(GR_BUG_EXTRA_INSTR),
     "%.2f warps waiting at a barrier per issued instruction vs %.2f in the reference"},
    {GR_BUG_EXTRA_INSTR, m_inst, NULL, 1.5, 1000, 0, 0, "%.3g instructions executed vs %.3g in the reference"},
    {GR_BUG_EXTRA_DRAM, m_dram, NULL, 1.5, 1 << 20, 0, 0, "%.3g bytes of DRAM traffic vs %.3g in the reference"},
};
#undef B
enum { GR_N_PERF_RULES = sizeof gr_perf_rules / sizeof gr_perf_rules[0] };

/* How far the student's departs (>= 1 means worse), 0 when the rule cannot apply. */
static double gr_depart(const gr_perf_rule *r, gr_pair p)
{
    if (!isfinite(p.stu) || !isfinite(p.ref)) return 0;
    if (r->lower_worse) return p.ref > 0 && p.stu > 0 ? p.ref / p.stu : 0;
    if (p.stu < r->floor) return 0;
    return p.ref > 0 ? p.stu / p.ref : INFINITY;
}

/* Fewer sectors per request with more requests is the same bytes in narrower pieces: scalar loads need
 * the sectors per request to drop, or the extra requests are extra work (extra-instructions says so). */
static int gr_fires(const gr_perf_rule *r, const gr_ctr *s, const gr_ctr *ref, gr_pair p)
{
    if (gr_depart(r, p) < r->factor) return 0;
    if (r->bug == GR_BUG_SCALAR_LOADS) return m_per_request(s) > 0 && m_per_request(ref) >= 1.5 * m_per_request(s);
    return 1;
}

static void gr_occupancy_why(const gr_ctr *s, const gr_ctr *r, char *why, size_t len)
{
    /* a limiter binds only where the theoretical occupancy is below the SM's maximum; else the warps are
     * missing for another reason (short blocks retiring, a tail), and only the numbers are said */
    gr_ctr_limiter l = s->occupancy_max < 99.5 ? gr_ctr_limiter_of(s) : GR_LIM_NONE;
    char by[80] = "";
    if (s->occupancy_max >= 99.5) snprintf(by, sizeof by, " (its theoretical maximum is 100 %%)");
    else if (l == GR_LIM_REGISTERS) snprintf(by, sizeof by, ", limited by %.0f registers per thread", s->regs);
    else if (l == GR_LIM_SHARED) snprintf(by, sizeof by, ", limited by %.0f bytes of shared memory per block", s->smem);
    else if (l != GR_LIM_NONE) snprintf(by, sizeof by, ", limited by %s (%.0f threads per block)", gr_ctr_limiter_name(l), s->block);
    snprintf(why, len, "achieved occupancy %.0f %%%s, vs %.0f %% in the reference", s->occupancy, by, r->occupancy);
}

gr_bug gr_perf_cause(const gr_ctr *stu, const gr_ctr *ref, char *why, size_t len)
{
    unsigned fired = 0;
    gr_pair p[GR_N_PERF_RULES];
    for (int i = 0; i < GR_N_PERF_RULES; i++) {
        const gr_perf_rule *r = &gr_perf_rules[i];
        p[i] = (gr_pair){r->metric(stu), r->metric(ref)};
        gr_pair q = r->or_metric ? (gr_pair){r->or_metric(stu), r->or_metric(ref)} : p[i];
        if (gr_div(q.stu, q.ref) > gr_div(p[i].stu, p[i].ref)) p[i] = q;
        if (gr_fires(r, stu, ref, p[i])) fired |= 1u << r->bug;
    }
    for (int i = 0; i < GR_N_PERF_RULES; i++) {
        const gr_perf_rule *r = &gr_perf_rules[i];
        unsigned me = 1u << r->bug;
        if (!(fired & me) || (fired & ~me & ~r->consequences)) continue;
        if (r->bug == GR_BUG_OCCUPANCY) gr_occupancy_why(stu, ref, why, len);
        else snprintf(why, len, r->fmt, p[i].stu, p[i].ref);
        return r->bug;
    }
    gr_ctr_side_by_side(stu, ref, why, len); /* what was measured, naming nothing */
    return GR_BUG_SLOW;
}

/* What the rules read, each as a student reads it: the side by side of a slowdown no rule names. */
static double m_time(const gr_ctr *c) { return c->time_ns / 1e6; }
static const struct {
    const char *name;
    double (*metric)(const gr_ctr *);
} gr_measured[] = {
    {"kernel ms", m_time},
    {"instructions", m_inst},
    {"occupancy %", m_occupancy},
    {"sectors per load", m_ld_sectors},
    {"sectors per store", m_st_sectors},
    {"global requests", m_requests},
    {"DRAM bytes", m_dram},
    {"bank conflicts per shared request", m_conflicts},
    {"barrier stalls per instruction", m_barrier},
    {"global atomics", m_atomics},
    {"local sectors per global sector", m_local},
};
enum { GR_N_MEASURED = sizeof gr_measured / sizeof gr_measured[0] };

/* How far apart two numbers are, whichever is larger: 1 alike, 0 where neither was measured. */
static double gr_apart(double s, double r)
{
    if (!(s > 0) && !(r > 0)) return 0;
    return s > 0 && r > 0 ? fmax(s / r, r / s) : INFINITY;
}

void gr_ctr_side_by_side(const gr_ctr *stu, const gr_ctr *ref, char *out, size_t len)
{
    int order[GR_N_MEASURED], n = 0;
    double far[GR_N_MEASURED];
    for (int i = 0; i < GR_N_MEASURED; i++) {
        far[i] = gr_apart(gr_measured[i].metric(stu), gr_measured[i].metric(ref));
        if (far[i] <= 0) continue;
        int k = n++;
        for (; k > 0 && far[order[k - 1]] < far[i]; k--) order[k] = order[k - 1]; /* the farthest apart first */
        order[k] = i;
    }
    int at = snprintf(out, len, "no rule names one cause; measured, yours vs the reference's:");
    for (int k = 0, first = 1; k < n && at >= 0 && (size_t)at < len; k++) {
        char item[96];
        int m = snprintf(item, sizeof item, "%s %s %.3g vs %.3g", first ? "" : ",", gr_measured[order[k]].name,
                         gr_measured[order[k]].metric(stu), gr_measured[order[k]].metric(ref));
        if ((size_t)(at + m) >= len) continue; /* a whole number pair, or none: a shorter one may still fit */
        memcpy(out + at, item, (size_t)m + 1);
        at += m, first = 0;
    }
    if (!n) snprintf(out, len, "no rule names one cause, and ncu reported none of the metrics the rules read");
}
