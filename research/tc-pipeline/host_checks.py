#!/usr/bin/env python3
"""No-GPU checks of bench.cu's index arithmetic, mirrored here line for line (keep them in step):
tp::swz (a bijection; ldmatrix and copy phases conflict-free; the XOR and band identities the kernel's
offsets rely on), the mainloop's stage schedule (every fragment load reads the stage that holds its
slice, after that slice landed; no copy overwrites a stage read since the last barrier), and tp::raster
(a bijection of the grid onto the tiles). Run: python3 research/tc-pipeline/host_checks.py"""
import sys


def swz(BK, r, c):
    idx = r * (BK // 8) + c // 8
    line = idx // 8
    return (line * 8 + ((idx % 8) ^ (line % 8))) * 8 + c % 8


def check_swizzle(BK, rows):
    bad = []
    offs = {swz(BK, r, c) for r in range(rows) for c in range(BK)}
    if offs != set(range(rows * BK)):
        bad.append("not a bijection")
    for r0 in range(0, rows, 8):  # one ldmatrix 8x8 matrix: 8 rows, one 16-byte column
        for ch in range(BK // 8):
            if len({swz(BK, r0 + i, ch * 8) // 8 % 8 for i in range(8)}) != 8:
                bad.append(f"ldmatrix conflict rows {r0}.. chunk {ch}")
    for i0 in range(0, rows * BK // 8, 8):  # one 8-thread phase of a copy
        if len({swz(BK, i // (BK // 8), i % (BK // 8) * 8) // 8 % 8 for i in range(i0, i0 + 8)}) != 8:
            bad.append(f"copy conflict chunks {i0}..")
    for lane in range(32):  # offset(R0 + rr, ks) = R0*BK + offset(rr, 0) ^ ks*32 bytes
        q = lane // 8
        a0, b0 = 2 * swz(BK, lane % 16, lane // 16 * 8), 2 * swz(BK, q // 2 * 8 + lane % 8, q % 2 * 8)
        for ks in range(BK // 16):
            for R0 in range(0, rows, 16):
                if 2 * swz(BK, R0 + lane % 16, ks * 16 + lane // 16 * 8) != 2 * R0 * BK + (a0 ^ (ks * 32)):
                    bad.append(f"A offset lane {lane} ks {ks} R0 {R0}")
                if 2 * swz(BK, R0 + q // 2 * 8 + lane % 8, ks * 16 + q % 2 * 8) != 2 * R0 * BK + (b0 ^ (ks * 32)):
                    bad.append(f"B offset lane {lane} ks {ks} R0 {R0}")
    return bad


def check_schedule(S, KS, slices):
    """One thread's program order of the mainloop; a barrier orders all warps' work before it."""
    holds, committed, read_in, bad = {}, [], {}, []
    state = {"epoch": 0, "landed": 0}

    def copy(t, st):
        if t < slices:
            if read_in.get(st, -1) >= state["epoch"]:
                bad.append(f"slice {t} copied into stage {st}, read since the last barrier")
            holds[st] = t
        committed.append(t)

    def wait_and_barrier(pending):
        state["landed"] = len(committed) - pending
        state["epoch"] += 1

    def load(st, t):
        read_in[st] = state["epoch"]
        if t < slices and (holds.get(st) != t or state["landed"] <= t):
            bad.append(f"slice {t} read from stage {st} (holds {holds.get(st)}, {state['landed']} landed)")

    for s in range(S - 1):
        copy(s, s)
    wait_and_barrier(S - 2)
    load(0, 0)
    rs, ws = 0, S - 1
    for t in range(slices):
        for ks in range(KS):
            if ks == KS - 1:
                wait_and_barrier(S - 2)
                rs = (rs + 1) % S
            load(rs, t if ks + 1 < KS else t + 1)
            if ks == 0:
                copy(t + S - 1, ws)
                ws = (ws + 1) % S
    return bad


def raster(pid, tiles_m, tiles_n, group):
    per_group = group * tiles_n
    g = pid // per_group
    first = g * group
    rows, within = min(tiles_m - first, group), pid - g * per_group
    return first + within % rows, within // rows


def main():
    bad = []
    for BK in (32, 64):
        for rows in (128, 256):
            bad += [f"swz BK={BK} rows={rows}: {b}" for b in check_swizzle(BK, rows)]
    for S in (3, 4):
        for KS in (2, 4):
            for slices in range(1, 12):
                bad += [f"schedule S={S} KS={KS} slices={slices}: {b}" for b in check_schedule(S, KS, slices)]
    for tm in range(1, 40):
        for tn in range(1, 40):
            for g in (1, 8, 16):
                if {raster(p, tm, tn, g) for p in range(tm * tn)} != {(a, b) for a in range(tm) for b in range(tn)}:
                    bad.append(f"raster {tm}x{tn} G={g}: not a bijection")
    print("\n".join(bad[:20]) if bad else "swizzle, schedule, raster: all checks pass")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
