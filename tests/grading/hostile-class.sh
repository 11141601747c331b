#!/usr/bin/env bash
# A class as an instructor leaves it overnight (issue 27): every case of the hostile suite mixed with
# COPIES copies of the reference solutions (all chapters), graded by `make grade-class`. Prints the wall
# time, each entry's seconds, GPU-holding seconds and score, and whether every reference copy got full
# marks. From the workbook's root, on a GPU machine:  tests/grading/hostile-class.sh [OUT] [COPIES] [CH]
# (CH: grade that chapter only, as make grade-class CH=N; the entries of other chapters are then missing)
set -euo pipefail
out=$(realpath -m "${1:-build/hostile-class}")
copies=${2:-12}
ch=${3:-}
case $copies in '' | *[!0-9]*) echo "class.sh: COPIES must be a whole number, not '$copies'" >&2; exit 2 ;; esac
make -s build/case-gen >/dev/null
rm -rf "$out" && mkdir -p "$out/subs"
./build/case-gen hostile "$out/gen" >/dev/null
for d in "$out"/gen/ch*/*/; do mv "$d" "$out/subs/"; done
for i in $(seq -w 1 "$copies"); do
  mkdir -p "$out/subs/reference-$i/chapters"
  cp -r solutions/. "$out/subs/reference-$i/chapters/"
done
start=$(date +%s%N)
rc=0
make --no-print-directory grade-class SUBS="$out/subs" OUT="$out/grades" ${ch:+CH=$ch} > "$out/grade.log" 2>&1 || rc=$?
wall=$(( ($(date +%s%N) - start) / 1000000 ))  # ms: the device machines have no bc
wall=$((wall / 1000)).$(printf '%03d' $((wall % 1000)))
echo "make grade-class: exit $rc, $(ls "$out/subs" | wc -l) entries, wall ${wall} s"
printf '%-24s %8s %8s %10s  %s\n' entry seconds gpu_s score status
full=0 refs=0
for g in "$out"/grades/*/grading.json; do
  e=$(basename "$(dirname "$g")")
  line=$(python3 -c 'import json,sys; g=json.load(open(sys.argv[1])); print("%.1f %.1f %s/%s %s" % (g["execution_time"], g.get("gpu_seconds", 0), g["score"], g["max_score"], g.get("status", "")))' "$g")
  printf '%-24s %8s %8s %10s  %s\n' "$e" $line
  case $e in reference-*) refs=$((refs + 1)); python3 -c 'import json,sys; g=json.load(open(sys.argv[1])); sys.exit(0 if g["score"] == g["max_score"] else 1)' "$g" && full=$((full + 1)) ;; esac
done
echo "reference copies with full marks: $full of $refs"
ls /tmp/wb-hostile-* 2>/dev/null && echo "ESCAPED: files in the host's /tmp" || echo "host /tmp: no hostile marker"
