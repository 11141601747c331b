#!/usr/bin/env bash
# Builds (unless BIN names a built one) and runs the scan bench (README.md). From the repository root:
#   bash research/scan-lookback/run.sh [log2 n] [reps]
# CSV to "$OUT/scan-lookback.csv" when $OUT is set, else build/scan-lookback.csv; then, per kernel, each
# round's best configuration among those that PASS, and every configuration that does not.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD="$HERE/../../build"
mkdir -p "$BUILD"
bin=${BIN:-$BUILD/scan-lookback}
if [ -z "${BIN:-}" ] || ! timeout 60 "$bin" 12 1 >/dev/null 2>&1; then
    bin=$BUILD/scan-lookback
    "${NVCC:-nvcc}" -O3 -std=c++20 -arch=${ARCH:-sm_90} -I"$HERE/../../common" -Xcompiler -fopenmp \
        -o "$bin" "$HERE/bench.cu" -lgomp || exit 1
fi
csv=${OUT:+$OUT/scan-lookback.csv}
csv=${csv:-$BUILD/scan-lookback.csv}
# never run before a GPU: a look-back that waits forever is killed after LIMIT seconds (its stderr names it)
timeout "${LIMIT:-240}" "$bin" "$@" >"$csv" || { echo "scan-lookback: the bench failed or ran past ${LIMIT:-240} s" >&2; exit 1; }
# columns: round,kernel,config,n,ms,GBps,of_copy,of_cub,checks,check
echo "best per kernel and round (of_copy, of_cub: that round's memcpy D2D and CUB over this row's time):"
awk -F, 'NR > 1 && $10 != "WRONG" { k = $1 "," $2; if (!(k in best) || $6 > best[k]) { best[k] = $6; row[k] = $0 } }
         END { for (k in row) print row[k] }' "$csv" | sort -t, -k2,2 -k1,1n
awk -F, 'NR > 1 && $10 == "WRONG" { if (!bad++) print "WRONG (see stderr for where):"; print }' "$csv"
