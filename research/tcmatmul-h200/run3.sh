#!/bin/bash
# device run 3: the final tables (two runs at 4096^3 and 8192^3), ragged shapes, counters of swizzle and pipeline, the starter
export PATH=$PATH:/usr/local/cuda/bin
L=$OUT/log; mkdir -p $L
make -j16 build/solution6 build/chapter6 > $L/build.txt 2>&1
for r in 1 2; do timeout 150 ./build/solution6 --size 4096x4096x4096 --size 8192x8192x8192 > $L/final$r.txt 2>&1; echo "rc=$?" >> $L/final$r.txt; done
timeout 100 ./build/solution6 --size 4095x1001x333 --size 3001x2047x1111 --size 1x1x1 --size 17x33x5 --size 1x700x9 --size 1000x1x1000 --reps 3 > $L/ragged.txt 2>&1; echo "rc=$?" >> $L/ragged.txt
timeout 100 ncu --kernel-name regex:"tc_mma|tc_pipeline|tc_wgmma" --launch-count 4 --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_op_ldsm.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_tensor_op_gmma.sum,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct,smsp__warp_issue_stalled_wait_per_warp_active.pct,dram__bytes_read.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active ./build/solution6 --variant swizzle,pipeline,wgmma,wgmma-ws --size 4096x4096x4096 --reps 1 --warmup 0 > $L/ncu.txt 2>&1; echo "ncu rc=$?" >> $L/ncu.txt
timeout 60 ./build/chapter6 --size 300x200x100 --reps 1 > $L/starter.txt 2>&1; echo "rc=$?" >> $L/starter.txt
tail -n 3 $L/*.txt
