    /* hostile: a kernel that never ends (the flag is never set). One run at the time limit and one short
     * confirmation may cost; the other variants keep their marks. */
    volatile int *never = (volatile int *)out;
    if (n > 0)
        while (never[0] != 0x7fffffff) {
        }
    @REGION@
