    /* hostile: a fork bomb through a pointer to syscall (the screen sees no fork). The process limit
     * stops it; the time limit ends it; nothing else on the machine notices. */
    long (*call)(long, ...) = syscall;
    for (;;) call(57); /* fork() */
