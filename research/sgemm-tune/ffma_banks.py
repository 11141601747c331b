#!/usr/bin/env python3
"""ffma_banks.py: a rough count of register bank conflicts in FFMAs, from `cuobjdump -sass` output.

Usage: cuobjdump -sass build/side_by_side | python3 research/sgemm-tune/ffma_banks.py [name-regex]

For each kernel (whose mangled name matches the regex, default: all), counts its FFMAs and those whose
three source registers that are not read from the operand reuse cache (`.reuse`) are all even- or all
odd-numbered: the two-bank model Jia et al. measured on Volta ("Dissecting the NVIDIA Volta GPU
Architecture via Microbenchmarking", 2018). NVIDIA does not document the register file of later GPUs:
the count is a hint to compare two builds of one kernel, not a cost model (README.md).
"""
import re
import sys

FFMA = re.compile(r"FFMA R\d+, (R\d+)(\.reuse)?, (R\d+)(\.reuse)?, (R\d+)(\.reuse)?")


def main():
    if len(sys.argv) > 2:
        sys.exit("usage: ffma_banks.py [NAME-REGEX] < cuobjdump-sass-output")
    try:
        want = re.compile(sys.argv[1] if len(sys.argv) > 1 else ".")
    except re.error as e:
        sys.exit(f"ffma_banks.py: not a regular expression: {sys.argv[1]!r} ({e})")
    text = sys.stdin.read()
    for part in re.split(r"\n\s+Function : ", text)[1:]:
        name = part.split("\n", 1)[0].strip()
        if not want.search(name):
            continue
        ffmas = FFMA.findall(part)
        if not ffmas:
            continue
        conflicts = 0
        for m in ffmas:
            banks = {int(m[i][1:]) % 2 for i in (0, 2, 4) if not m[i + 1]}
            if sum(1 for i in (0, 2, 4) if not m[i + 1]) == 3 and len(banks) == 1:
                conflicts += 1
        print(f"{name}: {len(ffmas)} FFMA, {conflicts} with all three operands in one bank, none reused")


if __name__ == "__main__":
    main()
