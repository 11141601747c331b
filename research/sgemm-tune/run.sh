#!/usr/bin/env bash
# Builds and runs the SGEMM autotuning bench (README.md). From the repository root:
#   bash research/sgemm-tune/run.sh [bench options: --only cfg1,cfg2 --reps N --no-ragged]
# CSV goes to "$OUT/sgemm.csv" when $OUT is set (with sgemm.log, ptxas.txt, ptxas_summary.txt beside
# it), else to stdout; progress and the ptxas summary go to stderr.
# SIM=1 first runs the CPU simulator (sim.cpp, ~90 s on 2 cores) and stops if any config fails it.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD="$HERE/../../build/sgemm-tune"
mkdir -p "$BUILD"
NVCC=${NVCC:-nvcc}
t0=$(date +%s)

if [ "${SIM:-0}" = 1 ]; then
    echo "== CPU simulator" >&2
    g++ -O1 -std=c++20 -pthread -o "$BUILD/sim" "$HERE/sim.cpp" || exit 1
    "$BUILD/sim" >&2 || { echo "simulator: some config is wrong, not running the bench" >&2; exit 1; }
fi

echo "== build (nvcc -O3 -arch=sm_90)" >&2
if ! "$NVCC" -O3 -arch=sm_90 -lineinfo -Xptxas -v --split-compile=0 -Xcompiler -fopenmp \
    -o "$BUILD/bench" "$HERE/bench.cu" -lcublas -lgomp >"$BUILD/ptxas.txt" 2>&1; then
    cat "$BUILD/ptxas.txt" >&2
    echo "build failed" >&2
    exit 1
fi
echo "== ptxas: registers and spills per kernel (fast = no edge guards, edge = ragged shapes) [$(($(date +%s) - t0)) s]" >&2
awk -f "$HERE/ptxas_table.awk" "$BUILD/ptxas.txt" >"$BUILD/ptxas_summary.tmp"
{ grep -v ' kernels, ' "$BUILD/ptxas_summary.tmp" | sort; grep ' kernels, ' "$BUILD/ptxas_summary.tmp"; } >"$BUILD/ptxas_summary.txt"
cat "$BUILD/ptxas_summary.txt" >&2
if [ -n "${OUT:-}" ]; then
    mkdir -p "$OUT"
    cp "$BUILD/ptxas.txt" "$BUILD/ptxas_summary.txt" "$OUT/"
    csv="$OUT/sgemm.csv"
    log="$OUT/sgemm.log"
else
    csv="$BUILD/sgemm.csv"
    log="$BUILD/sgemm.log"
fi

echo "== bench" >&2
# One process for everything; a hang (it should not) is cut at 130 s.
timeout -s KILL 130 "$BUILD/bench" "$@" >"$csv" 2> >(tee "$log" >&2)
rc=$?
sleep 0.2 # let tee finish
if [ $rc -ne 0 ] && [ $rc -ne 4 ] && [ $rc -ne 137 ]; then
    echo "== bench failed (exit $rc) before or outside the configs: see above" >&2
    exit $rc
fi
if [ $rc -ne 0 ]; then
    # A config that faulted (exit 4: CUDA context lost) or hung (137: killed) takes the whole process
    # with it: run the configs one per process, each with its own cuBLAS reference, and keep what
    # survives.
    echo "== bench exited with $rc: rerunning one config per process [$(($(date +%s) - t0)) s]" >&2
    mv "$csv" "$csv.partial" 2>/dev/null
    echo "config,size,ms,tflops,ratio_to_cublas,check" >"$csv"
    for cfg in $("$BUILD/bench" --list); do
        timeout -s KILL 25 "$BUILD/bench" --only "$cfg" "$@" 2>>"$log" | grep -v -e '^config,' -e '^best:' >>"$csv"
        r=${PIPESTATUS[0]}
        [ "$r" -ne 0 ] && echo "$cfg,all,0,0,0,CRASHED_rc$r" >>"$csv" && echo "  $cfg: exit $r" >&2
    done
    # The best correct config per size, from the CSV.
    awk -F, '$6 == "ok" && $4 > best[$2] { best[$2] = $4; line[$2] = $0 }
             END { for (s in line) { split(line[s], f, ","); print "best:" f[1] "," f[2] "," f[3] "," f[4] "," f[5] "," f[6] } }' \
        "$csv" >>"$csv"
fi
[ -z "${OUT:-}" ] && cat "$csv"
echo "== best per size [$(($(date +%s) - t0)) s total]" >&2
grep '^best:' "$csv" >&2
grep '^cublas,' "$csv" >&2
exit 0
