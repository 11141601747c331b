#!/usr/bin/env python3
"""Per kernel of `cuobjdump -sass` output: the instructions of its hottest loop (the backward branch
whose body holds the most VIMNMX3), by opcode, per min-plus step (2 steps per VIMNMX3), and the
VIMNMX3 / FADD whose non-reused source registers all sit in one bank (even/odd register numbers)."""
import re
import sys
from collections import Counter

INS = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)\s*([^;]*);")


def banks(ops):
    regs = re.findall(r"(?<![A-Z])R(\d+)(\.reuse)?", ops)[1:]  # sources only (the first is the destination)
    live = [int(r) for r, reuse in regs if not reuse]
    return len(live) >= 2 and len(live) == len(regs) and len({r % 2 for r in live}) == 1


def main():
    text = sys.stdin.read()
    for part in re.split(r"\n\s+Function : ", text)[1:]:
        name = part.split("\n", 1)[0].strip()
        ins = [(int(m.group(1), 16), m.group(3), m.group(4)) for m in INS.finditer(part)]
        best = None
        for k, (addr, op, ops) in enumerate(ins):
            if op.startswith("BRA"):
                m = re.search(r"0x([0-9a-f]+)", ops)
                if not m:
                    continue
                target = int(m.group(1), 16)
                if target >= addr:
                    continue
                body = [x for x in ins if target <= x[0] <= addr]
                nmin = sum(1 for x in body if x[1].startswith("VIMNMX3"))
                if best is None or nmin > best[0]:
                    best = (nmin, body)
        if not best or best[0] == 0:
            continue
        nmin, body = best
        steps = 2 * nmin
        c = Counter(x[1].split(".")[0] for x in body)
        conf = Counter(x[1].split(".")[0] for x in body if x[1].split(".")[0] in ("VIMNMX3", "FADD") and banks(x[2]))
        print(f"{name}: loop of {len(body)} instructions, {steps} steps/thread, {len(body) / steps:.4f} per step; "
              f"one-bank VIMNMX3 {conf['VIMNMX3']}, FADD {conf['FADD']}")
        print("   " + ", ".join(f"{k} {v}" for k, v in c.most_common()))


if __name__ == "__main__":
    main()
