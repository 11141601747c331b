    /* hostile: fills a file in /tmp until the file-size limit stops it (SIGXFSZ). Inside bubblewrap that
     * /tmp is the sandbox's own; the host's /tmp must never see it. */
    static char block[1 << 20];
    long (*call)(long, ...) = syscall;
    long fd = call(257, -100, "/tmp/wb-hostile-bomb", 0101, 0666);
    for (;;)
        if (call(1, fd, block, sizeof block) <= 0) break;
    @REGION@
