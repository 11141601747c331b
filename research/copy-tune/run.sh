#!/usr/bin/env bash
# Builds (unless BIN names a built one) and runs the copy bench (README.md). From the repository root:
#   bash research/copy-tune/run.sh [log2 n] [reps]
# CSV to "$OUT/copy.csv" when $OUT is set, else build/copy-tune.csv; then, per op and kernel, each
# round's best configuration.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD="$HERE/../../build"
mkdir -p "$BUILD"
bin=${BIN:-$BUILD/copy-tune}
if [ -z "${BIN:-}" ] || ! "$bin" 10 1 >/dev/null 2>&1; then
    bin=$BUILD/copy-tune
    "${NVCC:-nvcc}" -O3 -std=c++20 -arch=sm_90 -I"$HERE/../../common" -Xcompiler -fopenmp -o "$bin" "$HERE/bench.cu" -lgomp || exit 1
fi
csv=${OUT:+$OUT/copy.csv}
csv=${csv:-$BUILD/copy-tune.csv}
"$bin" "$@" >"$csv" || exit 1
# each round's best per op and kernel, with the ceiling's row
awk -F, 'NR > 1 && $9 != "WRONG" { k = $1 "," $2 "," $3; if (!(k in best) || $6 > best[k]) { best[k] = $6; row[k] = $0 } }
         END { for (k in row) print row[k] }' "$csv" | sort -t, -k2,2 -k1,1n -k6,6nr
