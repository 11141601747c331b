#!/bin/bash
# device run 4: the recorded results of the reference (make results' command for chapter 6)
export PATH=$PATH:/usr/local/cuda/bin
L=$OUT/log; mkdir -p $L
make -j16 build/solution6 > $L/build.txt 2>&1
timeout 300 ./build/solution6 --claims --json $L/ch6.json > $L/ch6.txt 2>&1; echo "rc=$?" > $L/rc.txt
nvidia-smi --query-gpu=driver_version --format=csv,noheader > $L/driver.txt 2>&1
nvcc --version | grep -o 'release [0-9.]*' | head -n1 > $L/nvcc.txt
tail -n 20 $L/ch6.txt
