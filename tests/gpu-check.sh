#!/usr/bin/env bash
# gpu-check.sh PART OUT — the acceptance runs on a GPU machine, from the workbook's root. Each part fits in
# the ten minutes one command may run on the H100 that the developers borrow; its log (and TAP report) goes
# to OUT, its summary to stdout:
#   a        make test REQUIRE_GPU=1 over every test file but the class gradings' and the hog's (about 6 min)
#   b        the class gradings: grading_e2e, grading_gpu, roster, course, not_graded
#   hog      tests/test_gpulock.c alone: its class holds all but 256 MiB of the GPU's memory for minutes, which
#            fails any GPU test beside it that is not graded (seen: part a's direct ncu runs timed out)
#   exploits the exploit corpus graded (tests/test_exploits.c: 30 cases, a class per chapter; issue 41
#            made it too long to share part b's ten minutes)
#   hostile  tests/test_hostile.c, the hostile corpus graded as a class (about 7 min)
#   class    tests/grading/hostile-class.sh: the hostile suite and 11 reference copies, chapter 1 (about 9 min)
#   grade    the references graded five times in a row, each timed (issue 27's mark: 95 s each)
#   slow     the slow mutants and correct alternatives (tools/mutate's perf ones) graded with perf and their
#            counters, then the report's tables; resumable: with SLOW_S=N (default 540) it stops grading
#            after N seconds and reports what is graded, and the next call with the same clone goes on;
#            with SLOW_SCREEN=FILE (tools/mutate/times.sh's times.csv of this GPU) it grades only the
#            alternatives and the mutants screened slower than 1.10x there: within the first band (1.2x)
#            the grader measures no counters and names nothing, so grading the others tells nothing new
#   scale-WHAT  issue 43's measurements, tests/gpu-scale.sh WHAT OUT (five, noise, class, hog, mps, gpus, queues)
# Together they are `make test REQUIRE_GPU=1` plus the grader's acceptance. Run them one after another, not
# at once: class gradings side by side slow each other's runs past their limits. In a clone that other
# users cannot pass through (under root's home), `make test` keeps its files in /tmp (scripts/test.sh).
# It stays out of the student release (release/allow-list lists no tests/*.sh). Exit: the part's (make test's, hostile-class.sh's, or 1 when a grading did not exit 0).
set -euo pipefail
usage="usage: $0 a|b|hog|exploits|hostile|class|grade|slow|scale-WHAT OUT"
if [ $# -ne 2 ]; then echo "$usage" >&2; exit 2; fi
part=$1 out=$2
# The test files that grade whole classes: with the rest they outlast one command, so they are part b.
classes='grading_e2e|grading_gpu|roster|course|not_graded'
test_files() { find tests -maxdepth 1 -name 'test_*.c' | LC_ALL=C sort | grep "$@" | tr '\n' ' '; }

run_tests() { # NAME TEST_SRCS
    local rc=0
    make -j"$(nproc)" test REQUIRE_GPU=1 TEST_SRCS="$2" > "$out/$1.log" 2>&1 || rc=$?
    cp build/test-results.tap "$out/$1.tap" 2>/dev/null || true
    grep -E 'Synthesis|^summary: |^skipped|^ +[0-9]+ [^|]|left new entries|^make test: ' "$out/$1.log" || true
    return "$rc"
}

grade_five() {
    local fail=0 i rc start ms
    # the references too: `make grade` builds them first, and a fresh machine has no build/
    make -s -j"$(nproc)" build/grade references > "$out/grade-build.log" 2>&1
    for i in 1 2 3 4 5; do
        rc=0
        start=$(date +%s%N)
        ./build/grade solutions --out "$out/grade$i" --quiet > "$out/grade$i.log" 2>&1 || rc=$?
        ms=$((($(date +%s%N) - start) / 1000000))
        echo "grading $i: exit $rc, wall $((ms / 1000)).$(printf '%03d' $((ms % 1000))) s; $(grep -h '^  total' "$out/grade$i.log" || echo 'no total')"
        [ "$rc" = 0 ] || fail=1
    done
    return "$fail"
}

# The slow mutants kept in the clone's build/ (not in OUT, which a borrowed machine empties per call), the
# grading stopped by time and resumed: a class skips the entries that have their grading.json. The sanitizer
# is left out (it names no slow cause). Exit: the report's (1 when nothing is graded yet).
slow_mutants() {
    local m=build/mutants-slow
    if ! [[ ${SLOW_S:-540} =~ ^[1-9][0-9]*$ ]]; then echo "$0: SLOW_S='$SLOW_S' must be a whole number of seconds" >&2; return 2; fi
    # the references too: the grader times each mutant beside them, and a fresh machine has no build/
    make -s -j"$(nproc)" build/grade build/mutate references > "$out/slow-build.log" 2>&1
    [ -f "$m/mutants.json" ] || ./build/mutate --out "$m" > "$out/slow-mutate.log" 2>&1
    local subs=$m/subs-perf
    if [ -n "${SLOW_SCREEN:-}" ]; then
        [ -f "$SLOW_SCREEN" ] || { echo "$0: SLOW_SCREEN=$SLOW_SCREEN is not a file" >&2; return 2; }
        subs=$m/subs-screened
        rm -rf "$subs" && mkdir -p "$subs"
        awk -F, 'NR > 1 && ($2 == "none" || $6 + 0 > 1.10) {print $1}' "$SLOW_SCREEN" | sort -u |
            while read -r id; do [ -d "$m/subs-perf/$id" ] && cp -r "$m/subs-perf/$id" "$subs/"; done
        echo "screened by $SLOW_SCREEN: $(ls "$subs" | wc -l) of $(ls "$m/subs-perf" | wc -l) to grade"
    fi
    timeout -k 5 "${SLOW_S:-540}" ./build/course --class "$subs" --out "$m/out-perf" --jobs 4 --no-sanitizer \
        --seeds 20261123 > "$out/slow-grade.log" 2>&1 || true
    ./build/mutate --report "$m" | tee "$out/slow-report.txt" | sed -n '/^Slow mutants (correct/,$p'
    return "${PIPESTATUS[0]}"
}

case $part in
a | b | hog | exploits | hostile | class | grade | slow | scale-*) mkdir -p "$out" ;;
*) echo "$usage" >&2; exit 2 ;;
esac
case $part in
a) run_tests a "$(test_files -vE "$classes|exploits|hostile|gpulock")" ;;
hog) run_tests hog tests/test_gpulock.c ;;
b) run_tests b "$(test_files -E "$classes")" ;;
exploits) run_tests exploits tests/test_exploits.c ;;
hostile) run_tests hostile tests/test_hostile.c ;;
class) tests/grading/hostile-class.sh "$out/hc" 11 1 | tee "$out/class.log" ;;
grade) grade_five ;;
slow) slow_mutants ;;
scale-*) tests/gpu-scale.sh "${part#scale-}" "$out" ;;
esac
