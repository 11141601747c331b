#!/usr/bin/env bash
# Builds and runs the shape bench (README.md). From the repository root:
#   bash research/sgemm-shape/run.sh [bench arguments: --reps N, --size MxNxK ...]
#   SIM=1 bash research/sgemm-shape/run.sh     # first the CPU simulator of the templated kernel
# CSV to "$OUT/sgemm-shape.csv" when $OUT is set, else build/sgemm-shape/sgemm-shape.csv; ptxas's
# registers and spills of the bench's kernels beside it (ptxas.txt). Then, per size and round, the
# best passing row of each kernel, and every tile's ratio to cuBLAS per size, both rounds side by side.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$HERE/../.."
BUILD="$ROOT/build/sgemm-shape"
DEST=${OUT:-$BUILD}
mkdir -p "$BUILD" "$DEST"
ARCH=${ARCH:-sm_90}
if [ -n "${SIM:-}" ]; then
    g++ -O1 -std=c++20 -pthread -o "$BUILD/sim" "$HERE/sim.cpp" && "$BUILD/sim" | tail -1 || exit 1
fi
"${NVCC:-nvcc}" -O3 -std=c++20 -arch="$ARCH" -I"$ROOT/common" -Xptxas -v -o "$BUILD/bench" "$HERE/bench.cu" -lcublas \
    2>"$BUILD/ptxas.log" || { cat "$BUILD/ptxas.log"; exit 1; }
awk '/Compiling entry/ { match($0, /_Z[A-Za-z0-9_]+/); name = substr($0, RSTART, RLENGTH) }
     /spill stores/ { spill = $5 "+" $9 " spill bytes" }
     /Used [0-9]+ registers/ && name ~ /ac_tile|async_copy/ { print name, $5, "registers,", spill }' "$BUILD/ptxas.log" |
    { c++filt 2>/dev/null || cat; } | tee "$DEST/ptxas.txt"
csv="$DEST/sgemm-shape.csv"
"$BUILD/bench" "$@" >"$csv"
rc=$?
[ $rc -eq 2 ] && exit 2
echo "== fastest passing row per kernel, size and round (kernel,config,size,round,ms,gflops,ratio,check,same_bits,worst)"
awk -F, 'NR > 1 && $8 != "WRONG" { k = $3 "," $4 "," $1; if (!(k in best) || $5 < best[k]) { best[k] = $5; row[k] = $0 } }
         END { for (k in row) print row[k] }' "$csv" | sort -t, -k3,3 -k4,4n -k7,7nr
echo "== ratio to cuBLAS, round 1 / round 2 (WRONG rows marked)"
awk -F, 'NR > 1 && $1 != "cublas" { key = $2 "@" $3; r[key, $4] = $7 ($8 == "WRONG" ? "!WRONG" : "");
                                    if (!(key in seen)) { seen[key] = 1; order[n++] = key } }
         END { for (i = 0; i < n; i++) { split(order[i], p, "@"); printf "%-30s %-16s %s / %s\n", p[1], p[2], r[order[i], 1], r[order[i], 2] } }' "$csv"
case $rc in
0) ;;
1) echo "bench: a kernel was WRONG: see the check and same_bits columns of $csv" ;;
*) echo "bench: failed (exit $rc) before the end: $csv is partial" ;;
esac
exit $rc
