#!/usr/bin/env bash
# new-chapter-e2e.sh [WORK] — a new chapter end to end (issue 60), from the workbook's root: in a scratch clone
# of this checkout (its committed files, with this checkout's build/ copied so that only what changes is
# rebuilt), `make new-chapter N=9 NAME=e2e`, its one region filled (a grid-stride loop with a hint of its
# own), `make starters`, `git add`, then the CPU side of `make test` on the suites that cover chapters (TESTS
# below) and `make starters CHECK=1`, with the chapter there; then the chapter removed (git rm) and the same
# again. Nothing else is edited. Each run must exit 0 with no failed test.
# PLANT=tests|starter|add skips one checklist step (README's "A new chapter is a folder"): chapter.json's
# tests object deleted, the starter not regenerated after the region changed, the files not `git add`ed;
# then the run with the chapter must fail, and the script exits 0 only if it did (the check checked).
# WORK (default build/new-chapter-e2e) holds the clone and each run's log. JOBS (default 2) is make's -j.
# Exit: 0, or 1 with the runs that went wrong named. Not in the student release; .ci/run calls it.
set -euo pipefail
if [ $# -gt 1 ]; then echo "usage: $0 [WORK]" >&2; exit 2; fi
[ -d solutions ] && [ -f mk/chapters.mk ] && git rev-parse --git-dir > /dev/null 2>&1 ||
  { echo "new-chapter-e2e.sh: run it from the workbook's root (a git checkout with solutions/)" >&2; exit 2; }
plant=${PLANT:-}
case "$plant" in '' | tests | starter | add) ;; *) echo "new-chapter-e2e.sh: PLANT is tests, starter or add, not '$plant'" >&2; exit 2;; esac
work=$(realpath -m "${1:-build/new-chapter-e2e}")
jobs=${JOBS:-2}
# The suites whose rules a chapter must meet, each over every chapter it finds (why each: the README's list).
#   test_chapters      the facts (chapter.json and its tests object) against the program, --help/--list, bad
#                      command lines; with a GPU the starter's TODO, the JSON table, the sanitizer
#   test_regions       starter and reference byte-identical outside the regions
#   test_starters      every committed starter is what its reference makes (make starters)
#   test_handouts      the handout names every variant and region, has the results markers, types no result
#   test_handout_facts the timed size a handout names is chapter.json's perf_size
#   test_results       the recorded results and the handouts' generated blocks
#   test_release       the release ships the chapter's files (facts, chapter.mk), no reference line, no
#                      untracked file, and its handouts name only what it has (no results file not recorded)
#   test_mutate        the mutator's mutants of every chapter, inside its regions
#   test_grading       the real rubric against every chapter's program
#   test_grading_mode  every chapter's --grading path (a GPU's: it skips here)
# Not run: test_makefile (its chapter cases copy chapter 1; its other cases take minutes and name no chapter's
# rule), test_exploits and test_hostile (their corpora are per case, optional for a chapter), the GPU suites.
# E2E_TESTS (a list of test files) runs others instead.
TESTS="tests/test_chapters.c tests/test_regions.c tests/test_handouts.c tests/test_handout_facts.c tests/test_results.c
       tests/test_release.c tests/test_mutate.c tests/test_grading.c tests/test_grading_mode.c"
[ -f tests/test_starters.c ] && TESTS="$TESTS tests/test_starters.c"
TESTS=${E2E_TESTS:-$TESTS}
start=$SECONDS
failed=()
rm -rf "$work" && mkdir -p "$work"
wb=$work/wb
git clone -q . "$wb"
# The clone's files keep this checkout's times (a file changed here since its last commit keeps the clone's
# own, now), so that make, with this checkout's build outputs copied beside them, rebuilds what is older than
# its sources and nothing else.
changed=$(git diff --name-only HEAD)
(cd "$wb" && git ls-files -z) | while IFS= read -r -d '' f; do
  if [ -e "$f" ] && ! grep -qxF -- "$f" <<<"$changed"; then touch -h -r "$f" "$wb/$f"; fi
done
mkdir -p "$wb/build"
if [ -d build ]; then # without WORK itself (under build/ by default) and the other runs' trees
  inside=${work#"$(realpath build)"/}
  tar -C build --exclude="./${inside%%/*}" --exclude='./new-chapter-e2e*' --exclude=./release-e2e --exclude=./tmp \
    --exclude=./test-exploits -cf - . | tar -C "$wb/build" -xf -
fi

# run NAME: the suites in the clone (make test, CPU side) and the starters' check; its log in $work/NAME.log.
run() {
  local name=$1 rc=0 log=$work/$1.log t=$SECONDS
  (cd "$wb" && make -j"$jobs" test TEST_SRCS="$TESTS" && make -s starters CHECK=1) > "$log" 2>&1 || rc=$?
  local summary
  summary=$(grep -a -E '^summary: ' "$log" | tail -n 1 || true)
  echo "$name: exit $rc in $((SECONDS - t)) s; ${summary:-no summary line}"
  if [ "$rc" != 0 ] || ! grep -q ' 0 failed' <<<"$summary"; then
    grep -a -E '^\[FAIL\]|^\[----\] .*(Assertion|: )|differs|make starters|^make: \*\*\*' "$log" | head -n 12 | sed 's/^/  /' || true
    return 1
  fi
}

# The scaffold, its one region filled by the chapter's author (code and hint of their own), the checklist's
# steps after it: make starters, git add.
cd "$wb"
make -s new-chapter N=9 NAME=e2e > "$work/new-chapter.log" 2>&1 || { cat "$work/new-chapter.log" >&2; exit 1; }
grep -q '^11\. \*\*Check\*\*' "$work/new-chapter.log" || { echo "make new-chapter printed no checklist" >&2; exit 1; }
awk 'fill && /END TODO\(global\)/ { fill = 0 }
     fill { next }
     { print }
     /BEGIN TODO\(global\)/ { fill = 1
       print "    //| /* A grid-stride loop from the global index, a step of the grid'"'"'s thread count: out[j] = 3·in[j] + 1. */"
       print "    for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += gridDim.x * blockDim.x) out[j] = 3 * in[j] + 1;" }' \
  solutions/09-e2e/e2e.cu > "$work/e2e.cu" && mv "$work/e2e.cu" solutions/09-e2e/e2e.cu
grep -q 'grid-stride' solutions/09-e2e/e2e.cu || { echo "the region was not filled" >&2; exit 1; }
[ "$plant" = starter ] || make -s starters > /dev/null
if [ "$plant" = tests ]; then # chapter.json without its tests object (and the comma before it)
  awk 'skip { if ($0 == "  }") skip = 0; next }
       /^  "tests": \{/ { sub(/,$/, "", prev); skip = 1; next }
       { if (have) print prev; prev = $0; have = 1 }
       END { if (have) print prev }' chapters/09-e2e/chapter.json > "$work/chapter.json"
  mv "$work/chapter.json" chapters/09-e2e/chapter.json
  ! grep -q '"tests"' chapters/09-e2e/chapter.json || { echo "the tests object is still there" >&2; exit 1; }
fi
[ "$plant" = add ] || git add -A
cd - > /dev/null

if run with-chapter-9; then
  [ -z "$plant" ] || failed+=("with chapter 9 passed, though PLANT=$plant skipped a step")
else
  [ -n "$plant" ] || failed+=("with chapter 9")
fi
if [ -z "$plant" ]; then
  (cd "$wb" && git rm -rqf chapters/09-e2e solutions/09-e2e handouts/ch9.md)
  run without-chapter-9 || failed+=("without chapter 9")
fi
echo "new-chapter-e2e: $((SECONDS - start)) s${plant:+ (PLANT=$plant: the run with the chapter had to fail)}"
if [ ${#failed[@]} -gt 0 ]; then echo "new-chapter-e2e failed: ${failed[*]}" >&2; exit 1; fi
