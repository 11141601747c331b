#!/usr/bin/env bash
# results.sh BUILD RESULTS_DIR TOOL N... — `make results` (GPU): runs BUILD/solutionN --claims for each
# chapter N and records, in RESULTS_DIR, chN.json (its --json lines), chN.txt (its table and claims) and,
# through TOOL (the handouts' wbresults), chN.meta.json: date, command, commit, driver, nvcc, arch.
# NVCC and ARCH come from make's environment. A solution that fails keeps its previous results, its
# output's tail goes to stderr, and the script exits 1 after the others have run.
set -euo pipefail
if [ $# -lt 3 ]; then echo "usage: $0 BUILD RESULTS_DIR TOOL N..." >&2; exit 2; fi
build=$1 dir=$2 tool=$3
shift 3
: "${NVCC:?results.sh: NVCC is not set (run it through make results)}" "${ARCH:?results.sh: ARCH is not set}"

commit() {
    local c
    c=$(git rev-parse --short HEAD 2>/dev/null || true)
    git diff --quiet HEAD -- solutions common 2>/dev/null || c="$c+changes"
    printf '%s' "$c"
}

fail=0
for n in "$@"; do
    out=$dir/ch$n
    cmd="./$build/solution$n --claims --json $out.json"
    echo "$cmd > $out.txt"
    rc=0
    "./$build/solution$n" --claims --json "$out.json.tmp" > "$out.txt.tmp" 2>&1 || rc=$?
    if [ "$rc" = 0 ]; then
        mv "$out.json.tmp" "$out.json" && mv "$out.txt.tmp" "$out.txt" && cat "$out.txt"
        "$tool" meta "$out.meta.json" "date=$(date -u +%F)" "command=$cmd" "commit=$(commit)" \
            "driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1 || true)" \
            "nvcc=$("$NVCC" --version | grep -o 'release [0-9.]*' | head -n1)" "arch=$ARCH"
    else
        echo "solution$n failed (exit $rc); kept the previous $out.* — its output:" >&2
        tail -n 20 "$out.txt.tmp" >&2
        rm -f "$out.json.tmp" "$out.txt.tmp"
        fail=1
    fi
done
exit "$fail"
