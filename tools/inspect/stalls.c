/* stalls.c — see stalls.h. */
#include <math.h>
#include <string.h>

#include "names.h"
#include "stalls.h"

double tp_unit_scale(const char *unit)
{
    if (!unit || !*unit) return 1;
    static const struct {
        const char *unit;
        double scale;
    } times[] = {{"ns", 1e-9}, {"nsecond", 1e-9}, {"us", 1e-6}, {"usecond", 1e-6}, {"ms", 1e-3},
                 {"msecond", 1e-3}, {"s", 1}, {"second", 1}};
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
        if (strcmp(unit, times[i].unit) == 0) return times[i].scale;
    switch (unit[0]) {
    case 'K': return strncmp(unit, "KiB", 3) == 0 ? 1024.0 : 1e3;
    case 'M': return strncmp(unit, "MiB", 3) == 0 ? 1048576.0 : 1e6;
    case 'G': return strncmp(unit, "GiB", 3) == 0 ? 1073741824.0 : 1e9;
    case 'T': return 1e12;
    default: return 1;
    }
}

int tp_ncu_top_stalls(const tp_csv *c, int r, tp_stall top[3])
{
    static const char prefix[] = "smsp__average_warps_issue_stalled_";
    static const char suffix[] = "_per_issue_active.ratio";
    int n = 0;
    for (int j = 0; j < c->n_cols; j++) {
        const char *h = c->header[j];
        size_t hl = strlen(h), pl = sizeof prefix - 1, sl = sizeof suffix - 1;
        if (hl <= pl + sl || strncmp(h, prefix, pl) != 0 || strcmp(h + hl - sl, suffix) != 0) continue;
        char reason[48];
        tp_copy(reason, sizeof reason, h + pl, hl - pl - sl);
        if (strcmp(reason, "selected") == 0) continue;
        double v = tp_number(c->rows[r][j]);
        if (isnan(v) || v <= 0) continue;
        int at = n < 3 ? n++ : 3;
        while (at > 0 && top[at - 1].value < v) {
            if (at < 3) top[at] = top[at - 1];
            at--;
        }
        if (at < 3) {
            tp_copy(top[at].reason, sizeof top[at].reason, reason, strlen(reason));
            top[at].value = v;
        }
    }
    return n;
}

const char *tp_stall_meaning(const char *reason)
{
    static const char *const table[][2] = {
        {"long_scoreboard", "waiting for data from global/local memory (L1TEX)"},
        {"short_scoreboard", "waiting for shared memory or a special-function result (MIO)"},
        {"barrier", "waiting at __syncthreads() for the rest of the block"},
        {"membar", "waiting at a memory fence"},
        {"mio_throttle", "shared-memory/special instruction queue full"},
        {"lg_throttle", "global/local memory instruction queue full (fewer, wider loads help)"},
        {"tex_throttle", "texture/L1TEX queue full"},
        {"math_pipe_throttle", "the arithmetic pipe is busy (good in compute-bound code)"},
        {"wait", "a fixed-latency dependency on the previous instruction"},
        {"not_selected", "ready, but another warp was picked (enough parallelism)"},
        {"dispatch_stall", "the dispatcher could not issue"},
        {"drain", "waiting for stores to drain before the warp exits"},
        {"branch_resolving", "waiting for a branch target"},
        {"no_instruction", "instruction fetch miss"},
        {"imc_miss", "constant cache miss"},
        {"sleeping", "the warp is sleeping (nanosleep or a yield)"},
        {"misc", "other"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(reason, table[i][0]) == 0) return table[i][1];
    return "";
}
