#!/bin/bash
# A fresh machine's first class, without a GPU (issue 64): tests/grading/slow-class.sh DIR SLEEP_S [ENTRIES]
# The fake workbook in DIR (tests/test_grading_e2e.c's: host C, "nvcc" is gcc) with stand-ins in DIR/bin for ncu (it
# sleeps SLEEP_S, then prints the H100 capture in ncu's --csv --page raw format: a profiler whose passes cost seconds)
# and nvidia-smi (one GPU, "Fake GPU"), no build/counters/, and DIR/class: ENTRIES (default 2) copies of the good fake
# submission whose plus does six times the work. Its budget is wide: the fake's "kernels" are CPU loops, a slow one's
# benchmark costs half a minute, and its time ratio (tens) scales the stand-in's fixed seconds as a profile's passes.
# From the workbook's root, after `make build/cases/bugs/.stamp` (tests/test_counters.c and test_slurm.c run it).
set -euo pipefail
dir=$1 sleep_s=$2 n=${3:-2}
cp -r tests/grading/fake/. "$dir"/ && cp common/*.h "$dir"/common/
make -s -C "$dir" build/grading-flags.json build/solution9
{ printf '#!/bin/sh\nsleep %s\ncat <<"CSV"\n' "$sleep_s"; cat tests/captured/ncu_ch1_global.csv; echo CSV; } > "$dir"/bin/ncu
cat > "$dir"/bin/nvidia-smi <<'SMI'
#!/bin/sh
case "$*" in *--query-gpu=name*) echo "Fake GPU";; *-L*) echo "GPU 0: Fake GPU (UUID: GPU-0)";; esac
SMI
sed -i 's|^  "seeds": 2,|  "seeds": 2, "bounds": {"gpu_chapter_s": 1800, "gpu_submission_s": 3600},|' "$dir"/rubric.json
# Six times the work measures 4.5x to 5.3x on a loaded CPU: the fake's first band (within 5x: full points, so no
# counters) sat on that edge, and a CI run lost one entry's profile to it. Full points only within 2x here.
sed -i 's|^\( *\)"within": 5,|\1"within": 2,|' "$dir"/rubric.json
grep -q '"within": 2,' "$dir"/rubric.json
for i in $(seq 1 "$n"); do
  e=$(printf 'student%02d' "$i")
  mkdir -p "$dir/class/$e" && cp -r build/cases/bugs/ch9/good/. "$dir/class/$e"/
  sed -i 's|^    for (int i = 0; i < n; i++) out\[i\] = in\[i\] + 1;|    for (int k = 0; k < 6; k++) for (int i = 0; i < n; i++) out[i] = in[i] + 1;|' \
    "$dir/class/$e/chapters/09-fake/fake.cu"
  grep -q 'k < 6' "$dir/class/$e/chapters/09-fake/fake.cu"
done
chmod 0755 "$dir" && chmod -R a+rX "$dir" && chmod a+x "$dir"/bin/*
