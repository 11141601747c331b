#!/usr/bin/env bash
# The quick screen of the performance mutants on this GPU, without counters: each mutant of subs-perf/
# (build/mutate) built as the Makefile builds a chapter, and the variants its region feeds timed beside
# the reference's at the chapter's perf size. What it answers: which slow mutants this GPU punishes
# beyond the rubric's first band (a mutant it does not punish has no cause to name), and that the
# correct alternatives are not slower. It names no cause: that is the counters' work (make
# diagnose-mutants). Usage, from the project root, on a GPU machine:
#   tools/mutate/times.sh OUT [JOBS]      -> OUT/times.csv: id,label,variant,ref_ms,mut_ms,ratio
set -euo pipefail
out=${1:?usage: tools/mutate/times.sh OUT [JOBS]}
jobs=${2:-8}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "times.sh: JOBS='$jobs' must be a positive whole number" >&2; exit 2; }
nvidia-smi -L >/dev/null 2>&1 || { echo "times.sh: no usable NVIDIA GPU here (nvidia-smi -L failed): it times kernels" >&2; exit 3; }
mkdir -p "$out/bin"
make -s build/mutate references >/dev/null
rm -rf "$out/m" && build/mutate --out "$out/m" >/dev/null
# id region label chapter, one line per performance mutant
python3 - "$out/m/mutants.json" > "$out/list" <<'PY'
import json, sys
for m in json.load(open(sys.argv[1])):
    if m.get("perf"):
        print(m["id"], m["region"], m["label"], m["chapter"])
PY
# A mutant is its chapter's reference with one region changed: built with the reference's whole command as the
# Makefile last built it (build/.flags-solutionN: its chapter.mk's libraries, defines and arch features included).
build_one() { # id chapter
  local src; src=$(ls "$out/m/subs-perf/$1"/chapters/*/*.cu)
  # shellcheck disable=SC2046 # the stamp is the command's words
  $(cat "build/.flags-solution$2") -o "$out/bin/$1" "$src" > "$out/bin/$1.log" 2>&1 || echo "build failed: $1" >&2
}
export -f build_one; export out
awk '{print $1, $4}' "$out/list" | xargs -P "$jobs" -n 2 bash -c 'build_one "$0" "$1"'
# each chapter's perf size and variants, read once
declare -A size variants
for ch in $(awk '{print $4}' "$out/list" | sort -u); do
  size[$ch]=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['perf_size'])" "$(ls -d chapters/$(printf %02d "$ch")-*/)chapter.json")
  variants[$ch]=$(build/solution$ch --list --json - | python3 -c "import json,sys; print(' '.join(json.loads(l)['variant'] for l in sys.stdin if l.strip()))")
done
median() { # bin variant size -> ms (the variant's line: the ceiling has its own); nan when the run failed
  { "$1" --variant "$2" --size "$3" --reps 20 --warmup 3 --json - 2>/dev/null || true; } |
    python3 -c "import json,sys; r=[json.loads(l) for l in sys.stdin if l.startswith('{')]; r=[x for x in r if x.get('variant')==sys.argv[1]]; print(r[-1]['median_ms'] if r else 'nan')" "$2"
}
echo "id,label,variant,ref_ms,mut_ms,ratio" > "$out/times.csv"
# the reference is timed again beside each mutant: a pair taken moments apart, not one old baseline
while read -r id region label ch; do
  # the variants the region feeds: the longest variant name that begins the region's ("shared-dynamic-launch"
  # feeds shared-dynamic); a region that begins none (a helper's) feeds them all
  vs=$(for v in ${variants[$ch]}; do case $region in "$v"|"$v"-*) echo "${#v} $v";; esac; done | sort -rn | head -1 | cut -d' ' -f2)
  for v in ${vs:-${variants[$ch]}}; do
    [ -x "$out/bin/$id" ] || { echo "$id,$label,$v,,,build-failed" >> "$out/times.csv"; continue; }
    r=$(median "build/solution$ch" "$v" "${size[$ch]}"); m=$(median "$out/bin/$id" "$v" "${size[$ch]}")
    echo "$id,$label,$v,$r,$m,$(python3 -c "import sys; r,m=map(float,sys.argv[1:]); print(f'{m/r:.2f}')" "$r" "$m" 2>/dev/null || echo nan)" >> "$out/times.csv"
  done
done < "$out/list"
cat "$out/times.csv"
