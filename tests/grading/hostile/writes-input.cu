    /* hostile: right result, but the kernel zeroes each input element after reading it. Without the
     * harness putting the input back, every variant after it in the same process reverses zeros. */
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[n - 1 - i] = in[i];
        ((int *)in)[i] = 0;
    }
