#!/bin/bash
# device run 1: build, edge correctness, large sizes, SASS counts, sm_80 build's N/A
set -x
export PATH=$PATH:/usr/local/cuda/bin
L=$OUT/log; mkdir -p $L
nvidia-smi --query-gpu=name,compute_cap,clocks.max.sm --format=csv > $L/gpu.txt 2>&1
( time make -j16 build/solution6 ) > $L/build90.txt 2>&1
cuobjdump --list-elf build/solution6 > $L/sass.txt 2>&1
for k in tc_wgmma tc_wgmma_ws tc_pipeline tc_wmma_shared; do echo "$k HGMMA: $(cuobjdump --dump-sass --function $k build/solution6 2>/dev/null | grep -c HGMMA) HMMA: $(cuobjdump --dump-sass --function $k build/solution6 2>/dev/null | grep -c HMMA)"; done >> $L/sass.txt 2>&1
echo "total HGMMA: $(cuobjdump --dump-sass build/solution6 | grep -c HGMMA)" >> $L/sass.txt
timeout 120 ./build/solution6 --size 1x1x1 --size 17x33x5 --size 64x64x64 --size 1000x1x1000 --size 131x127x137 --size 300x201x264 --size 1x700x9 --size 257x511x1000 --reps 3 > $L/edge1.txt 2>&1; echo "rc=$?" >> $L/edge1.txt
timeout 120 ./build/solution6 --size 256x512x1024 --size 131x129x72 --size 4095x1001x333 --size 1000x777x513 --size 2047x3001x1111 --reps 3 > $L/edge2.txt 2>&1; echo "rc=$?" >> $L/edge2.txt
timeout 200 ./build/solution6 --size 4096x4096x4096 --size 8192x8192x8192 > $L/big1.txt 2>&1; echo "rc=$?" >> $L/big1.txt
cp build/solution6 /tmp/sol90
( time make -j16 ARCH=sm_80 build/solution6 ) > $L/build80.txt 2>&1
timeout 60 ./build/solution6 --variant pipeline,wgmma,wgmma-ws --size 1000x777x513 --reps 3 > $L/na80.txt 2>&1; echo "rc=$?" >> $L/na80.txt
tail -n 5 $L/*.txt
