#!/usr/bin/env bash
# Builds (unless BIN names a built one that starts) and runs the tensor-core pipeline bench (README.md).
# From the repository root:
#   bash research/tc-pipeline/run.sh [reps [MxNxK ...]]
# CSV to "$OUT/tc-pipeline.csv" when $OUT is set, else build/tc-pipeline.csv, with the build's ptxas
# report beside it; then, per kernel, tile and size, each round's best row at the chapter's sizes.
set -uo pipefail
export PATH=$PATH:/usr/local/cuda/bin
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD="$HERE/../../build"
mkdir -p "$BUILD"
dest=${OUT:-$BUILD}
bin=${BIN:-$BUILD/tc-pipeline}
if [ -z "${BIN:-}" ] || [ ! -x "$bin" ]; then
    bin=$BUILD/tc-pipeline
    "${NVCC:-nvcc}" -O3 -std=c++20 -arch="${ARCH:-sm_90}" -I"$HERE/../../common" -Xcompiler -fopenmp -Xptxas -v \
        -o "$bin" "$HERE/bench.cu" -lcublas -lgomp >"$dest/tc-pipeline-ptxas.txt" 2>&1 || {
        tail -20 "$dest/tc-pipeline-ptxas.txt"
        exit 1
    }
fi
csv=$dest/tc-pipeline.csv
"$bin" "$@" >"$csv"
rc=$?
# at the chapter's three sizes, each round's best G per kernel and tile (a tile: the knobs but G), the
# round's cuBLAS row among them, and the mma.sync peak loop's rows; WRONG rows are never best
awk -F, 'NR > 1 && $12 != "WRONG" && $2 ~ /^(peak|8192x8192x8192|4096x4096x4096|4095x1001x333)$/ {
             t = $4; sub(/ G=[0-9]+$/, "", t); k = $1 "," $2 "," $3 "," t
             if (!(k in best) || $9 > best[k]) { best[k] = $9; row[k] = $0 } }
         END { for (k in row) print row[k] }' "$csv" | sort -t, -k2,2r -k1,1n -k10,10nr
grep -c ',WRONG$' "$csv" | sed 's/^/WRONG rows: /'
exit $rc
