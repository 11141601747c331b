#!/bin/bash
# device run 2: pipeline shapes, the fixed peak, bank-conflict counters of mma vs swizzle, SASS counts
export PATH=$PATH:/usr/local/cuda/bin
L=$OUT/log; mkdir -p $L
F="-O3 -std=c++20 -lineinfo -gencode=arch=compute_90,code=sm_90 -gencode=arch=compute_90,code=compute_90 -gencode=arch=compute_90a,code=sm_90a -Icommon -Xcompiler -fopenmp"
for c in "2 3" "2 4" "4 3" "4 4"; do set -- $c
  nvcc $F -DPIPE_WN=$1 -DPIPE_STAGES=$2 -o /tmp/p$1$2 solutions/06-tcmatmul/tcmatmul.cu -lgomp -lcublas > $L/b$1$2.txt 2>&1 &
done
make -j16 build/solution6 > $L/build.txt 2>&1
wait
for c in 23 24 43 44; do echo "== WN,STAGES = $c"; timeout 60 /tmp/p$c --variant pipeline --size 4096x4096x4096 --size 8192x8192x8192 2>&1 | grep -E "pipeline|cuBLAS|note|FAIL"; done > $L/tune.txt 2>&1
cuobjdump --dump-sass build/solution6 | awk '/Function :/{f=$3} /HGMMA/{g[f]++} /HMMA/{h[f]++} END{for(k in h) print k, "HMMA", h[k]; for(k in g) print k, "HGMMA", g[k]}' > $L/sass.txt 2>&1
timeout 120 ncu --kernel-name regex:"tc_mma|tc_wmma_shared|tc_pipeline" --launch-count 3 --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_op_ldsm.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct ./build/solution6 --variant wmma-shared,mma,swizzle --size 2048x2048x2048 --reps 1 --warmup 0 > $L/ncu.txt 2>&1
echo "ncu rc=$?" >> $L/ncu.txt
timeout 60 ./build/solution6 --variant wgmma-ws --size 4096x4096x4096 --reps 3 > $L/peak.txt 2>&1
tail -n 4 $L/*.txt
