#!/usr/bin/env bash
# The grader's acceptance run on a GPU machine (issue 6), in one command from the workbook's root:
#   bash grading/gpu-validate.sh [LOGDIR]          (default: build/gpu-validate)
# 1. grades the solutions as a submission, alone and timed (all chapters: build, correctness on two
#    seeds and the edge sizes, compute-sanitizer, benchmarks) — they must get full marks;
# 2. grades the untouched starters — they must get nothing;
# 3. runs the grader's Criterion tests: the hostile and buggy submissions of tests/grading/subs/ as a
#    class, the cases that need the sanitizer or the benchmark, and the tests that need no GPU.
# Everything lands in LOGDIR (reports, the class table, feedback.md files); the last lines summarise.
set -uo pipefail
log=${1:-build/gpu-validate}
rm -rf "$log" && mkdir -p "$log"
chapters=$(ls -d chapters/[0-9][0-9]-* | sed 's|chapters/0*\([0-9]*\)-.*|\1|')
targets="build/grade build/doctor"
for n in $chapters; do targets="$targets build/solution$n build/chapter$n"; done
make -s -j"$(nproc)" $targets > "$log/build.txt" 2>&1 || { tail -30 "$log/build.txt"; exit 1; }
make -s build/test-runner TEST_SRCS="tests/test_grading.c tests/test_grading_sandbox.c tests/test_grading_gpu.c tests/test_grading_e2e.c" \
  >> "$log/build.txt" 2>&1 || { tail -30 "$log/build.txt"; exit 1; }
./build/doctor > "$log/doctor.txt" 2>&1 || { cat "$log/doctor.txt"; exit 1; }

t0=$(date +%s.%N)
./build/grade --seeds 7,8 --out "$log/solutions" solutions > "$log/solutions.txt" 2>&1
sol_rc=$?
t1=$(date +%s.%N)
./build/grade --no-perf --seeds 7 --out "$log/starters" chapters > "$log/starters.txt" 2>&1
./build/test-runner -j8 --filter 'grading_gpu/hostile*' > "$log/tests-class.txt" 2>&1
./build/test-runner -j4 --filter 'grading_gpu/with*' > "$log/tests-single.txt" 2>&1
./build/test-runner -j8 --filter 'grading_[!g]*/*' > "$log/tests-cpu.txt" 2>&1
cp -r build/test-grading "$log/" 2>/dev/null

echo "== solutions graded as a submission (exit $sol_rc), wall $(awk "BEGIN{printf \"%.1f\", $t1 - $t0}") s"
sed -n '/^grade: /,$p' "$log/solutions.txt" | grep -v '^\[grade\]'
echo "== starters"
grep -E '^  total|NOT GRADED' "$log/starters.txt"
echo "== hostile class (tests/grading/subs, chapter 1)"
sed -n '/^student /,$p' "$log/test-grading/class.log" 2>/dev/null
for f in tests-class tests-single tests-cpu; do echo "== $f"; grep -E 'Assertion Failed|^\[----\]   [a-z]|Synthesis' "$log/$f.txt" | tail -15; done
