#!/usr/bin/env bash
# gpu-fresh.sh OUT [PART] — issue 64 on a GPU machine, from the workbook's root (about 8 minutes on an H200): the
# first class on a fresh machine, no build/counters/. Its logs go to OUT, a short summary to stdout. PART (default all) runs the
# build, then `local` (step 2's class), `slurm` (step 2's class on Slurm) or `refs` (steps 3 and 4): each of these
# fits in one ten-minute command, where all of them may not:
#   1. the grader, the course, the references and chapter 5's mutants built (make -j);
#   2. a fresh class of 20 of chapter 5 (`--ch 5`, no sanitizer): its performance mutants (tools/mutate: uncoalesced,
#      spills, bank conflicts, barrier stalls) and the slow corpus (tests/cases/05-minplus/slow/: variants written as
#      a student writes them), each handed in by two students, and copies of the references; the
#      class makes chapter 5's references' counters before its first entry (its log's counter lines are quoted), then
#      each slow variant's diagnosis: a cause named, or what was measured beside the reference, or why nothing was;
#      then the same class on a single-node Slurm cluster (tests/slurm/cluster.sh; skipped with the reason where
#      Slurm cannot run), build/counters/ removed again;
#   3. `build/grade --reference-counters` for the other chapters (chapter 5's are kept): the plan's cost of every
#      reference variant on this GPU, per chapter;
#   4. every kept file holds every metric of the plan (grading/counters.c's table), and chapter 5's v5 its own
#      kernel beside pad_transpose (one launch per kernel named reaches both).
# Exit 1 when a step failed or a check did not hold. It stays out of the student release (no tests/*.sh there).
set -uo pipefail
usage="usage: $0 OUT [local|slurm|refs|all]"
if [ $# -lt 1 ] || [ $# -gt 2 ]; then echo "$usage" >&2; exit 2; fi
out=$1 part=${2:-all} fail=0
case $part in local | slurm | refs | all) ;; *) echo "$usage" >&2; exit 2 ;; esac
# Whether this call runs step $1 (the parts fit one ten-minute command each where all does not).
want() { [ "$part" = all ] || [ "$part" = "$1" ]; }
mkdir -p "$out"
m=build/mutants-fresh
t0=$(date +%s)
step() { echo "[$(($(date +%s) - t0)) s] $*"; }

step "build"
make -s -j"$(nproc)" build/grade build/course build/mutate build/case-gen references > "$out/build.log" 2>&1 || { echo "build failed (build.log)"; exit 1; }
rm -rf "$m" && ./build/mutate --out "$m" --ch 5 > "$out/mutate.log" 2>&1 || { echo "mutate failed"; exit 1; }
mkdir -p "$m/class"
./build/case-gen slow "$m/slow" > "$out/case-gen.log" 2>&1 || { echo "case-gen slow failed (case-gen.log)"; exit 1; }
for e in "$m"/subs-perf/* "$m"/slow/ch5/*; do cp -r "$e" "$m/class/$(basename "$e")-a"; cp -r "$e" "$m/class/$(basename "$e")-b"; done
i=0
while [ "$(ls "$m/class" | wc -l)" -lt 20 ]; do
    i=$((i + 1)) && mkdir -p "$m/class/reference-$i/chapters" && cp -r solutions/05-minplus "$m/class/reference-$i/chapters/"
done

# diagnoses OUTDIR NAME: each slow variant of the class graded into OUTDIR, its time ratio, what was named, the
# counters' status, into $out/NAME.txt and stdout; fails when fewer than 8, or fewer than 95 % told a cause, or when a
# slow-corpus entry's listed variant was not slow or named another cause than its expected.json's.
diagnoses() {
    python3 - "$1" tests/cases/05-minplus/slow/expected.json > "$out/$2.txt" <<'PY'
import json, os, sys
slow = told = 0
corpus, wrong = json.load(open(sys.argv[2]))["cases"], []
for e in sorted(os.listdir(sys.argv[1])):
    p = os.path.join(sys.argv[1], e, "grading.json")
    if not os.path.isfile(p): continue
    want = corpus.get(e.rsplit("-", 1)[0], {})
    for ch in json.load(open(p)).get("chapters", []):
        for v in ch.get("variants", []):
            d = v.get("diagnosis") or {}
            c = (d.get("counters") or {}).get("status")
            if v.get("variant") in want.get("slow", []) and (c is None or d.get("class") != want["cause"]):
                wrong.append(f"{e} {v.get('variant')}: {d.get('class')} (counters {c}), expected slow and {want['cause']}")
            if c is None: continue
            slow += 1
            told += d.get("class") not in ("slow", None)
            print(f"{e} {v.get('variant')} {v.get('time_ratio') or 0:.2f}x: {d.get('class')} (counters {c}): "
                  f"{d.get('evidence', '')[:300]}")
print(f"slow variants told a cause: {told} of {slow}")
for w in wrong: print(f"not as the slow corpus says: {w}")
sys.exit(0 if slow >= 8 and told >= 0.95 * slow and not wrong else 1)
PY
    local rc=$?
    sed 's/^/  /' "$out/$2.txt"
    [ "$rc" = 0 ] || echo "FAIL: fewer than 8 slow variants, fewer than 95 % of them told a cause, or a slow case not as it says"
    return "$rc"
}

if want local; then
step "a fresh class of chapter 5: $(ls "$m/class" | wc -l) entries, build/counters/ removed"
rm -rf build/counters
timeout -k 5 300 ./build/course --class "$m/class" --out "$m/out" --ch 5 --jobs 3 --no-sanitizer --seeds 20261202 \
    > "$out/class.log" 2>&1 || { echo "the class did not exit 0 (class.log)"; fail=1; }
grep -E 'reference counters|ref counters|stu counters' "$out/class.log" > "$out/class-counters.txt" || true
entries=$(grep -n ' entries, [0-9]* GPU' "$out/class.log" | head -1 | cut -d: -f1)
made=$(grep -n 'ch5 reference counters:' "$out/class.log" | head -1 | cut -d: -f1)
echo "class counter lines (made before the first entry: line ${made:-none} < line ${entries:-none}):"
grep -E 'reference counters:|ref counters [a-z0-9-]+: [0-9]|stu counters [a-z0-9-]+: (limit|not run)' "$out/class.log" | sed 's/^/  /'
[ -n "$made" ] && [ -n "$entries" ] && [ "$made" -lt "$entries" ] || { echo "FAIL: not made before the first entry"; fail=1; }
diagnoses "$m/out" diagnoses || fail=1
fi

if want slurm; then
step "the same class on Slurm, build/counters/ removed"
cl=$(mktemp -d /tmp/wb-fresh-slurm.XXXXXX) && chmod 755 "$cl" && chmod -R a+rX "$m/class"
src=$(tests/slurm/cluster.sh start "$cl" 2>&1)
src_rc=$?
if [ "$src_rc" = 77 ]; then
    echo "  skipped: Slurm cannot run here: $(tail -n 1 <<<"$src")"
elif [ "$src_rc" != 0 ]; then
    echo "FAIL: the cluster did not start: $(tail -n 3 <<<"$src")" && fail=1
else
    rm -rf build/counters
    SLURM_CONF=$cl/slurm.conf timeout -k 5 360 ./build/course --class "$m/class" --engine slurm --out "$m/out-slurm" \
        --ch 5 --no-sanitizer --seeds 20261202 --time 10 > "$out/slurm.log" 2>&1 ||
        { echo "the Slurm class did not exit 0 (slurm.log)"; fail=1; }
    grep -E '^slurm: ' "$out/slurm.log" | sed 's/^/  /'
    cp "$cl/jobcomp.txt" "$out/slurm-jobcomp.txt" 2>/dev/null || true
    grep -h 'Name=wb-' "$cl/jobcomp.txt" 2>/dev/null | sed -E 's/.*(JobId=[0-9]+).*(Name=[^ ]+).*(JobState=[^ ]+).*/  \1 \2 \3/' |
        sort -u | head -n 8
    ls build/counters/*_ch5_* > /dev/null 2>&1 || { echo "FAIL: no chapter 5 counters kept after the Slurm class"; fail=1; }
    diagnoses "$m/out-slurm" diagnoses-slurm || fail=1
    tests/slurm/cluster.sh stop "$cl" > /dev/null 2>&1
    tar -czf "$out/slurm-logs.tar.gz" -C "$m" out-slurm 2>/dev/null || true
fi
rm -rf "$cl"
fi

if want refs; then
step "the references' counters of every chapter (chapter 5's kept)"
timeout -k 5 150 ./build/grade --reference-counters --no-sanitizer > "$out/refctr.log" 2>&1 || { echo "--reference-counters failed (refctr.log)"; fail=1; }
grep -E 'reference counters' "$out/refctr.log" | sed 's/^/  /'
echo "  the plan's cost per reference variant (s):"
grep -E 'ref counters [a-z0-9-]+: [0-9]+ launch' "$out/class.log" "$out/refctr.log" | sed -E 's/.*\] (ch[0-9]) ref counters ([a-z0-9-]+): ([0-9]+) launch.* in ([0-9.]+) s/    \1 \2 \4 (\3 launches)/'

step "every kept file holds every metric of the plan"
metrics=$(grep -o '"[a-z0-9_]*__[a-z0-9_.]*"' grading/counters.c | tr -d '"' | sort -u)
n=0
for f in build/counters/*.csv; do
    [ -f "$f" ] || continue
    n=$((n + 1))
    head=$(grep -m1 '^"ID"' "$f")
    for k in $metrics; do case $head in *"\"$k\""*) ;; *) echo "  FAIL: $f lacks $k"; fail=1 ;; esac; done
done
v5=$(ls build/counters/*_ch5_v5_*.csv 2>/dev/null | head -1)
echo "  $n kept files checked; ch5 v5's rows of its own kernel: $( [ -n "$v5" ] && grep -c '"minplus_v5' "$v5" || echo none)"
[ -n "$v5" ] && grep -q '"minplus_v5' "$v5" || { echo "  FAIL: ch5 v5's own kernel not profiled"; fail=1; }
fi
tar -czf "$out/fresh-logs.tar.gz" -C "$m" out 2>/dev/null || true
step "done, exit $fail"
exit "$fail"
