#!/usr/bin/env bash
# Captures the GPU-only tool outputs that tests/test_inspect.c parses, on a machine with an NVIDIA GPU,
# cuobjdump, compute-sanitizer and ncu. From the repository root:
#   bash tests/captured/capture.sh DIR        then copy DIR/* into tests/captured/
# The other files here were captured without a GPU:
#   ptxas_ch1_sm90.txt / ptxas_ch1_sm75.txt   nvcc -cubin -arch=sm_XX -O3 -std=c++20 -lineinfo -Icommon -Xptxas -v
#                                             -o /dev/null solutions/01-reversal/reversal.cu (stderr)
#   ptxas_spill_sm90.txt                      the command in spill.cu
#   ch1_sm75.ptx                              nvcc -ptx -arch=compute_75 -O3 -std=c++20 -Icommon solutions/01-reversal/reversal.cu
#   ch1_list.jsonl                            build/solution1 --list --json -
#   ch4_list.jsonl / ch5_list.jsonl           build/solutionN --list --json -
#   ptxas_ch4_sm90.txt / ptxas_ch5_sm90.txt   as ptxas_ch1_sm90.txt, for solutions/04-matmul and 05-minplus
#   ch5_v5_sm90.ptx                           nvcc -ptx -arch=compute_90 -O3 -std=c++20 -Icommon
#                                             solutions/05-minplus/minplus.cu, trimmed: the header, minplus_v5's
#                                             first 3 inline-asm min blocks (__vimin3_s32), a marked cut where its
#                                             braces balance, its last lines, and the next kernel whole
set -u
out=${1:?usage: bash tests/captured/capture.sh DIR}
mkdir -p "$out"
make -s build/solution1 build/inspect build/planted/inspect_bugs || exit 1
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n1 | tr -d '. ')
cuobjdump -sass build/solution1 > "$out/ch1_sm$arch.sass"

# one run per planted bug and the tool that must report it, plus two clean runs
san() {
  compute-sanitizer --tool "$1" --error-exitcode 86 --print-limit 20 ./build/planted/inspect_bugs \
    --variant "$2" --size 1031 --reps 1 --warmup 0 > "$out/$3" 2>&1
  echo "compute-sanitizer --tool $1 --variant $2: exit $?"
}
san memcheck clean sanitizer_memcheck_clean.txt
san racecheck clean sanitizer_racecheck_clean.txt
san racecheck race sanitizer_racecheck_race.txt
san memcheck out-of-bounds sanitizer_memcheck_oob.txt
san initcheck uninitialized sanitizer_initcheck_uninit.txt
san synccheck divergent-barrier sanitizer_synccheck_divergent_syncthreads.txt
san synccheck bad-syncwarp sanitizer_synccheck_bad_syncwarp.txt

# ncu's raw page of chapter 1's global variant, as make profile reads it back
make -s profile CH=1 V=global SOLUTION=1 && cp build/profile/solution1-global.csv "$out/ncu_ch1_global.csv"

# the grader's own profiled run (grading/counters.c's argv: its --section list, one repetition at the
# perf size), for a test that its sections deliver every metric of the plan (issue 30)
ncu --csv --page raw --print-units base --clock-control none --launch-count 8 \
  --section SpeedOfLight --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis_Chart \
  --section MemoryWorkloadAnalysis_Tables --section WarpStateStats --section InstructionStats \
  ./build/solution1 --variant shared-static --size 2^26 --reps 1 --warmup 0 > "$out/ncu_counters_ch1_shared_static.csv" 2>&1
echo "ncu with the grader's sections: exit $?"
