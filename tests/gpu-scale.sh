#!/usr/bin/env bash
# gpu-scale.sh WHAT OUT — issue 43's measurements on a GPU machine, from the workbook's root (through
# tests/gpu-check.sh scale-WHAT OUT). Each fits in the ten minutes of one borrowed command; tables go to
# stdout and OUT/*.csv, logs to OUT.
#   five   the references graded five times in a row: wall, GPU held, score, caught, and each chapter's
#          performance step (grading.json's steps); the mark is <= 60 s each, full marks, nothing caught
#   noise  the references graded as a student NOISE_K times (default 2) under rubric.json (r1), a copy with
#          reference_high 0 (r1h0: the reference runs the low count alone, 3 processes a chapter) and one
#          with 2 rounds (r2): each grading's wall; per variant the spread of the time ratio (1.0 ideally),
#          and per chapter the
#          wall-clock cross-check's residual (extra repetitions' wall clock minus what the reported times
#          predict, x the reference's calibration): 3 sigma of it is what wall_slack_s must cover, and the
#          cross-check must last at least F / (F - wall_factor) x wall_slack_s to catch a forgery by F
#   class  a class of 20 (16 slow mutants of tools/mutate, CLASS_REFS=4 copies of the references) with JOBS=4
#          on one GPU: the share of slow variants (time ratio above the first band) whose counters were
#          measured (target >= 95 %), and the submissions per GPU-hour
#   hog    a memory hog (chapter 1's shared-dynamic launcher takes all free GPU memory but 256 MiB and
#          holds it for the process) beside 3 copies of the references, JOBS=4 on one GPU: every copy
#          graded, full marks, nothing caught; the grader's retries alone are counted
#   mps    does CUDA MPS start here, and does set_default_device_pinned_mem_limit make cudaMalloc fail
#          cleanly (exit 6 from a chapter program)? Can a client's environment lift the limit?
#   gpus   the same class of references (SCALE_N entries, default 32, chapter SCALE_CH, default 1; all: every one) on one
#          GPU and then on every GPU, with SCALE_JOBS graders (default: the class's own, twelve on one GPU, eight a
#          GPU on several): submissions per GPU-hour each, and the ratio (issue 43: >= 1.8 on two); each half's first entry and pace after it
#          (grading.json's mtimes), a class of 100 and 500 at that pace, and the time ratios' spread. SCALE_GPUS=one or all runs one half (a
#          half fits one borrowed command; the ratio is then the two walls' over each other). Exit 1 when a
#          copy of the references got less than full marks (on two GPUs 8 of 48 once did: the cross-check).
#          SCALE_RUBRIC=FILE grades under that rubric (fewer seeds or sanitizer tools: fewer CUDA processes an entry)
#   queues every chapter's reference at its perf_size under --grading with CUDA_DEVICE_MAX_CONNECTIONS 8, 2 and 1
#          (QUEUES_K rounds, default 3, the counts alternating): each row's median of the rounds' medians and its
#          ratio to eight's. Exit 1 when a row on two queues, which the grader's measured runs get (grading/job.c),
#          is off eight's by more than QUEUES_TOL percent (default 1): the grade would time what the tables do not
# Submissions per GPU-hour are computed here from the class's grading.json files and the class's wall
# clock; the class summary (course/class.c, its last line) is where the grader itself should print it.
set -euo pipefail
usage="usage: $0 five|noise|class|hog|mps|gpus|queues OUT"
if [ $# -ne 2 ]; then echo "$usage" >&2; exit 2; fi
what=$1 out=$2
case $what in five | noise | class | hog | mps | gpus | queues) mkdir -p "$out" ;; *) echo "$usage" >&2; exit 2 ;; esac
# The knobs, checked before anything is built: a bad value is one line and exit 2, not a traceback minutes later.
knob() { # NAME REGEX WHAT
    local v=${!1-}
    [ -z "$v" ] || [[ $v =~ $2 ]] || { echo "$0: $1='$v' must be $3" >&2; exit 2; }
}
for k in NOISE_K CLASS_REFS SCALE_N SCALE_JOBS QUEUES_K; do
    knob "$k" '^[1-9][0-9]{0,3}$' 'a whole number from 1 to 9999'
done
knob SCALE_CH '^([1-9][0-9]?|all)$' 'a chapter number or all'
knob SCALE_GPUS '^(one|all|both)$' 'one, all or both'
knob QUEUES_TOL '^[0-9]{1,3}(\.[0-9]+)?$' 'a percentage such as 1 or 0.5'
command -v python3 > /dev/null || { echo "$0: python3 is needed to read grading.json" >&2; exit 2; }
build() { make -s -j"$(nproc)" build/grade build/course build/mutate references > "$out/$what-build.log" 2>&1; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# A grading's row: wall, GPU held, score/max, caught, each chapter's performance step.
summary_row() { # LABEL WALL_MS GRADING_JSON
    python3 - "$@" << 'EOF'
import json, sys
label, wall_ms, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
g = json.load(open(path))
caught = sum(len(v.get("caught") or []) for c in g["chapters"] for v in c.get("variants") or [])
perf = " ".join("ch%d %.1f" % (c["number"], (c.get("steps") or {}).get("performance", 0)) for c in g["chapters"])
print("%s,%.1f,%.1f,%.2f/%.2f,%d,%s" % (label, wall_ms / 1e3, g.get("gpu_seconds") or 0, g.get("score") or 0,
      g.get("max_score") or 0, caught, perf))
EOF
}

five() {
    echo "grading,wall_s,gpu_held_s,score,caught,performance_step_s" | tee "$out/five.csv"
    local i start fail=0
    for i in 1 2 3 4 5; do
        start=$(now_ms)
        ./build/grade solutions --out "$out/grade$i" > "$out/grade$i.log" 2>&1 || fail=1
        summary_row "$i" $(($(now_ms) - start)) "$out/grade$i/grading.json" | tee -a "$out/five.csv"
    done
    awk -F, 'NR > 1 { split($4, s, "/"); if ($2 > 60 || s[1] != s[2] || $5 != 0) bad++ }
             END { print (bad ? bad " of 5 gradings miss" : "all 5 gradings meet") " the mark: <= 60 s, full marks, nothing caught" }' \
        "$out/five.csv"
    return "$fail"
}

noise() {
    local k=${NOISE_K:-2} r i
    python3 - "$out" << 'EOF'
import json, sys
for name, change in (("r1", {}), ("r1h0", {"reference_high": 0}), ("r2", {"rounds": 2})):
    r = json.load(open("grading/rubric.json"))
    r["perf"].update(change)
    json.dump(r, open("%s/rubric-%s.json" % (sys.argv[1], name), "w"))
EOF
    for r in r1 r1h0 r2; do
        for i in $(seq "$k"); do
            local o="$out/noise-$r-$i" start
            start=$(now_ms)
            ./build/grade solutions --rubric "$out/rubric-$r.json" --out "$o" --quiet > "$o.log" 2>&1 || true
            echo "$r run $i: $((($(now_ms) - start) / 1000)) s; $(grep -h '^  total' "$o.log" || echo 'no total')"
        done
    done
    python3 - "$out" << 'EOF'
import glob, json, re, statistics as st, sys
out = sys.argv[1]
cross = re.compile(r"(\d+) extra repetitions took ([\d.]+) s, reported times predict ([\d.]+) s \(x([\d.]+)")
for cfg in ("r1", "r1h0", "r2"):
    ratios, resid = {}, {}
    for d in sorted(glob.glob("%s/noise-%s-[0-9]*/" % (out, cfg))):
        g = json.load(open(d + "grading.json"))
        for c in g["chapters"]:
            for v in c.get("variants") or []:
                if v.get("time_ratio"):
                    ratios.setdefault("ch%d %s" % (c["number"], v["variant"]), []).append(v["time_ratio"])
        for sec in open(d + "feedback.md").read().split("\n## Chapter ")[1:]:
            m = cross.search(sec)
            if m:
                took, pred, cal = float(m.group(2)), float(m.group(3)), float(m.group(4))
                resid.setdefault("ch" + sec.split()[0], []).append(took - cal * pred)
    with open("%s/noise-%s.csv" % (out, cfg), "w") as f:
        f.write("what,n,mean,sd,min,max\n")
        for k, xs in sorted(ratios.items()) + sorted(("cross-check residual s " + k, v) for k, v in resid.items()):
            sd = st.stdev(xs) if len(xs) > 1 else 0
            f.write("%s,%d,%.4f,%.4f,%.4f,%.4f\n" % (k, len(xs), st.mean(xs), sd, min(xs), max(xs)))
    print("== %s (%s/noise-%s.csv)" % (cfg, out, cfg))
    print(open("%s/noise-%s.csv" % (out, cfg)).read())
EOF
}

# Submissions per GPU-hour of a class graded in WALL_MS on NGPU GPUs, from its grading.json files.
per_gpu_hour() { # OUT_DIR WALL_MS NGPU [full: exit 1 when an entry got less than full marks]
    python3 - "$@" << 'EOF'
import glob, json, os, statistics, sys
d, wall, ngpu, need_full = sys.argv[1], int(sys.argv[2]) / 1e3, int(sys.argv[3]), sys.argv[4:] == ["full"]
gs = [json.load(open(p)) for p in glob.glob(d + "/*/grading.json")]
n = sum(g.get("status") == "graded" for g in gs)
held = sum(g.get("gpu_seconds") or 0 for g in gs)
# with `full` (gpus: every entry a copy of the references) anything short of full marks is the grader's fault
full = sum(g.get("score") is not None and g.get("score") == g.get("max_score") for g in gs)
print("%d graded of %d in %.0f s on %d GPU(s): %.1f submissions per GPU-hour (GPU held %.0f s in all); %d with full marks"
      % (n, len(gs), wall, ngpu, n * 3600 / (wall * ngpu) if wall > 0 else 0, held, full))
# Steady state: grading.json is written last, so its mtimes are the entries' ends; a class's first entry
# comes out after the pipeline fills (builds, checks, sanitizer), the rest at the GPUs' pace. A class of N
# takes about first + (N - 1) x pace.
t = sorted(os.path.getmtime(p) for p in glob.glob(d + "/*/grading.json"))
if len(t) > 2 and wall > 0:
    pace, first = (t[-1] - t[0]) / (len(t) - 1), wall - (t[-1] - t[0])
    print("  first entry after %.0f s, then one every %.2f s (%.0f per GPU-hour); a class of 100: %.0f s, of 500: %.0f s"
          % (first, pace, 3600 / (pace * ngpu), first + 99 * pace, first + 499 * pace))
# Every entry a copy of the references: each variant's time ratio is the grader's noise (and, where the
# reference's benchmark runs are kept for reference_reuse_s, the GPU's drift over that time).
r = {}
for g in gs:
    for c in g.get("chapters") or []:
        for v in c.get("variants") or []:
            if v.get("time_ratio"): r.setdefault("ch%d %s" % (c["number"], v["variant"]), []).append(v["time_ratio"])
if need_full and r:
    print("  time ratios (1 ideally): " + "; ".join("%s %.3f..%.3f sd %.3f" % (k, min(x), max(x), statistics.pstdev(x))
                                                    for k, x in sorted(r.items())))
sys.exit(1 if need_full and full < len(gs) else 0)
EOF
}

class20() {
    local m=build/mutants-slow c="$out/class20" start
    [ -f "$m/mutants.json" ] || ./build/mutate --out "$m" > "$out/class-mutate.log" 2>&1
    rm -rf "$c" && mkdir -p "$c"
    python3 - "$m" << 'EOF' | while read -r id; do cp -r "$m/subs-perf/$id" "$c/"; done
import json, sys
ms = json.load(open(sys.argv[1] + "/mutants.json"))
ms = ms["mutants"] if isinstance(ms, dict) else ms
print("\n".join([x["id"] for x in ms if x.get("perf") and x.get("label") != "none"][:16]))
EOF
    for i in $(seq "${CLASS_REFS:-4}"); do cp -r solutions "$c/ref$i"; done
    start=$(now_ms)
    CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-0} timeout -k 5 570 ./build/course --class "$c" \
        --out "$out/class20-out" --jobs 4 --no-sanitizer > "$out/class20.log" 2>&1 || true
    local wall=$(($(now_ms) - start))
    python3 - "$out/class20-out" << 'EOF'
import glob, json, sys
band = json.load(open("grading/rubric.json"))["perf"]["bands"][0]["within"]
slow = measured = 0
why = {}
for p in sorted(glob.glob(sys.argv[1] + "/*/grading.json")):
    for c in json.load(open(p))["chapters"]:
        for v in c.get("variants") or []:
            if (v.get("time_ratio") or 0) <= band or v.get("verdict") != "PASS": continue
            slow += 1
            st = ((v.get("diagnosis") or {}).get("counters") or {}).get("status", "none")
            measured += st == "ok"
            why[st] = why.get(st, 0) + 1
print("slow variants: %d, counters measured: %d (%.0f %%); by status: %s"
      % (slow, measured, 100.0 * measured / slow if slow else 0, why))
EOF
    per_gpu_hour "$out/class20-out" "$wall" 1
    echo "the references' counters: $(grep -cE 'ref counters [^ ]+ +[0-9.]+ s' "$out/class20.log" || true) profiled," \
        "$(grep -c 'kept from an earlier grading' "$out/class20.log" || true) read back"
}

hog() {
    local c="$out/hog" start
    rm -rf "$c" && mkdir -p "$c"
    for i in 1 2 3; do cp -r solutions "$c/honest$i"; done
    cp -r solutions "$c/hog"
    local f=$c/hog/01-reversal/reversal.cu
    python3 - "$f" << 'EOF'
import sys
p = sys.argv[1]
s = open(p).read()
a = "    // BEGIN TODO(shared-dynamic-launch)\n"
assert a in s
s = s.replace(a, a + """    static void *hog = NULL; /* held until the process ends */
    if (!hog) {
        size_t free_b = 0, total_b = 0;
        cudaMemGetInfo(&free_b, &total_b);
        if (free_b > ((size_t)256 << 20)) cudaMalloc(&hog, free_b - ((size_t)256 << 20));
    }
""")
open(p, "w").write(s)
EOF
    start=$(now_ms)
    CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-0} timeout -k 5 570 ./build/course --class "$c" --out "$out/hog-out" \
        --jobs 4 > "$out/hog.log" 2>&1 || true
    per_gpu_hour "$out/hog-out" $(($(now_ms) - start)) 1
    echo "retries alone after an allocation failure: $(grep -c 'once more alone on the GPU' "$out/hog.log" || true)"
    python3 - "$out/hog-out" << 'EOF'
import glob, json, os, sys
bad = 0
for p in sorted(glob.glob(sys.argv[1] + "/*/grading.json")):
    g = json.load(open(p))
    who = os.path.basename(os.path.dirname(p))
    caught = sum(len(v.get("caught") or []) for c in g["chapters"] for v in c.get("variants") or [])
    print("%-10s %-14s %6.2f / %6.2f  caught %d"
          % (who, g.get("status"), g.get("score") or 0, g.get("max_score") or 0, caught))
    if who.startswith("honest") and (g.get("status") != "graded" or g.get("score") != g.get("max_score") or caught):
        bad += 1
print("honest entries not graded with full marks: %d" % bad)
sys.exit(1 if bad else 0)
EOF
}

mps() {
    local d=$out/mps
    mkdir -p "$d/pipe" "$d/log"
    command -v nvidia-cuda-mps-control > /dev/null || { echo "no nvidia-cuda-mps-control on PATH"; return 1; }
    cat > "$d/probe.cu" << 'EOF'
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
// probe MB [ENV=VALUE]: sets ENV (as a student's region could, before CUDA starts), then cudaMalloc MB
int main(int argc, char **argv)
{
    if (argc > 2) putenv(argv[2]);
    void *p = NULL;
    cudaError_t e = cudaMalloc(&p, (size_t)atoll(argv[1]) << 20);
    size_t f = 0, t = 0;
    cudaMemGetInfo(&f, &t);
    printf("cudaMalloc %s MB: %s (free %.2f GB of %.2f)\n", argv[1], cudaGetErrorName(e), f / 1e9, t / 1e9);
    return e == cudaSuccess ? 0 : 6;
}
EOF
    "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)" -o "$d/probe" "$d/probe.cu" > "$d/probe-build.log" 2>&1 ||
        { cat "$d/probe-build.log"; return 1; }
    export CUDA_MPS_PIPE_DIRECTORY=$d/pipe CUDA_MPS_LOG_DIRECTORY=$d/log
    if ! nvidia-cuda-mps-control -d; then echo "MPS did not start as $(id -un)"; return 1; fi
    trap 'echo quit | nvidia-cuda-mps-control || true' EXIT
    echo "MPS started as $(id -un)"
    echo "set_default_device_pinned_mem_limit 0 2G" | nvidia-cuda-mps-control
    echo "default limit: $(echo get_default_device_pinned_mem_limit 0 | nvidia-cuda-mps-control 2>&1)"
    local rc
    for args in "1024" "4096" "4096 CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=8G"; do
        rc=0
        # shellcheck disable=SC2086 # the size and the variable to set are two arguments
        "$d/probe" $args || rc=$?
        echo "  probe $args: exit $rc"
    done
    rc=0
    CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=8G "$d/probe" 4096 || rc=$?
    echo "  the client's own environment CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=8G, probe 4096: exit $rc"
    echo "set_default_device_pinned_mem_limit 0 256M" | nvidia-cuda-mps-control
    rc=0
    ./build/solution4 --size 8192x8192x8192 --reps 1 --warmup 0 > "$d/ch4.log" 2>&1 || rc=$?
    echo "  chapter 4's reference at 8192^3 (0.8 GB) under a 256 MiB limit: exit $rc (6: out of GPU memory;" \
        "2: the limit shows as the GPU's whole memory): $(tail -1 "$d/ch4.log")"
}

gpus() {
    local n=${SCALE_N:-32} ch=${SCALE_CH:-1} jobs=${SCALE_JOBS:-} half=${SCALE_GPUS:-both} c="$out/gpus" all
    if [ -n "${SCALE_RUBRIC:-}" ]; then # refused here in one line, not as a class of entries not graded
        ./build/grade --validate --rubric "$SCALE_RUBRIC" solutions > /dev/null || return 2
    fi
    all=$(nvidia-smi --query-gpu=index --format=csv,noheader | paste -sd, -)
    rm -rf "$c" && mkdir -p "$c"
    for i in $(seq "$n"); do cp -r solutions "$c/ref$i"; done
    local wall1=0 walln=0
    [ "$half" = all ] || wall1=$(gpus_class 0 "$out/gpus-1" "$c" "$ch" "$jobs")
    [ "$half" = one ] || walln=$(gpus_class "$all" "$out/gpus-all" "$c" "$ch" "$jobs")
    # every entry is a copy of the references: one short of full marks fails the measurement
    local short=0
    if [ "$half" != all ]; then
        printf 'one GPU, %s graders:   ' "${jobs:-default}"
        per_gpu_hour "$out/gpus-1" "$wall1" 1 full || short=1
    fi
    if [ "$half" != one ]; then
        printf 'GPUs %s, %s graders: ' "$all" "${jobs:-default}"
        per_gpu_hour "$out/gpus-all" "$walln" "$(echo "$all" | tr ',' '\n' | wc -l)" full || short=1
    fi
    [ "$half" != both ] || echo "submissions per hour, all GPUs over one: $(python3 -c "print('%.2f' % ($wall1 / $walln))")"
    [ "$short" = 0 ] || { echo "$0: copies of the references without full marks (above)" >&2; return 1; }
}

queues() {
    local k=${QUEUES_K:-3} r d ch q
    local -A size # each chapter's perf_size, read once
    for d in chapters/[0-9][0-9]-*/; do
        ch=$((10#$(basename "$d" | cut -c1-2)))
        size[$ch]=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["perf_size"])' "$d/chapter.json")
    done
    echo "round,chapter,queues,variant,median_ms" > "$out/queues.csv"
    for r in $(seq "$k"); do
        for ch in $(printf '%s\n' "${!size[@]}" | sort -n); do
            for q in 8 2 1; do
                CUDA_DEVICE_MAX_CONNECTIONS=$q "./build/solution$ch" --grading --size "${size[$ch]}" --reps 20 \
                    --warmup 2 --json "$out/q.json" > "$out/queues-run.log" 2>&1 ||
                    { echo "solution$ch on $q queue(s) failed: $(tail -1 "$out/queues-run.log")"; return 1; }
                python3 - "$out/q.json" "$r,$ch,$q" >> "$out/queues.csv" << 'EOF'
import json, sys
seen = set()
for line in open(sys.argv[1]):
    o = json.loads(line)
    if "median_ms" in o and o.get("variant") not in seen:
        seen.add(o["variant"])
        print("%s,%s,%.5f" % (sys.argv[2], o["variant"], o["median_ms"]))
EOF
            done
        done
    done
    python3 - "$out/queues.csv" "${QUEUES_TOL:-1}" << 'EOF'
import csv, statistics as st, sys
tol, rows = float(sys.argv[2]), {}
for r in csv.DictReader(open(sys.argv[1])):
    by_queues = rows.setdefault((int(r["chapter"]), r["variant"]), {})
    by_queues.setdefault(int(r["queues"]), []).append(float(r["median_ms"]))
bad = 0
print("%-4s %-18s %10s %10s %10s %8s %8s" % ("ch", "variant", "8 ms", "2 ms", "1 ms", "2/8", "1/8"))
for (ch, v), by in sorted(rows.items()):
    m = {q: st.median(xs) for q, xs in by.items()}
    off = abs(m[2] / m[8] - 1) * 100 > tol
    bad += off
    print("%-4d %-18s %10.4f %10.4f %10.4f %8.4f %8.4f%s" % (ch, v, m[8], m[2], m[1], m[2] / m[8], m[1] / m[8],
          "  off by more than %g %%" % tol if off else ""))
print("rows on two queues off eight's by more than %g %%: %d of %d" % (tol, bad, len(rows)))
sys.exit(1 if bad else 0)
EOF
}

# One class on the GPUs named (CUDA_VISIBLE_DEVICES): its wall clock in ms on stdout, its log beside OUT.
gpus_class() { # GPUS OUT CLASS CHAPTER JOBS
    local start
    start=$(now_ms)
    local ch=$4
    [ "$ch" != all ] || ch=
    CUDA_VISIBLE_DEVICES=$1 ./build/course --class "$3" --out "$2" ${ch:+--ch "$ch"} ${5:+--jobs "$5"} \
        ${SCALE_RUBRIC:+--rubric "$SCALE_RUBRIC"} > "$2.log" 2>&1 || true
    echo $(($(now_ms) - start))
}

build
case $what in
five) five ;;
noise) noise ;;
class) class20 ;;
hog) hog ;;
mps) mps ;;
gpus) gpus ;;
queues) queues ;;
esac
