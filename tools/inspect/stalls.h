/* stalls.h — Nsight Compute's numbers as `make profile` shows them (stalls.c): unit scales, the top warp stall
 * reasons and what each means, from a CSV read by grading/ncu.h. Plain C, no CUDA; never prints, never exits. */
#ifndef WB_TP_STALLS_H
#define WB_TP_STALLS_H

#include "ncu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Multiplier from an ncu unit to the base unit: "Gbyte/second" -> 1e9, "KiB" -> 1024, "ns"/"nsecond" ->
 * 1e-9 (time in seconds), "%" -> 1. */
double tp_unit_scale(const char *unit);

/* Warp stall reasons: ncu's WarpStateStats metrics smsp__average_warps_issue_stalled_<reason>_per_issue_active
 * .ratio, the average number of warps waiting for that reason per issued instruction (their sum is the
 * "warp cycles per issued instruction" of the Nsight Compute GUI). The three largest, "selected" (not a
 * stall) excluded. Returns how many were found (≤ 3). */
typedef struct {
    char reason[48];
    double value;
} tp_stall;

int tp_ncu_top_stalls(const tp_csv *c, int r, tp_stall top[3]);

/* What a stall reason means, for students. */
const char *tp_stall_meaning(const char *reason);

#ifdef __cplusplus
}
#endif
#endif /* WB_TP_STALLS_H */
