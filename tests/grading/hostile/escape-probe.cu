    /* hostile: behaves only outside bubblewrap. Inside (its own pid namespace: a small pid) and under
     * compute-sanitizer (its libraries mapped into this process) it kills itself, so that the tool
     * "does not finish"; a grader that then tried again without bubblewrap would run it outside, where it
     * leaves a marker in the host's /tmp. Every run also knocks on the host's loopback, port 47113, where
     * the test listens. The system calls go through a pointer: only the sandbox stops it. */
    static int looked;
    if (!looked) {
        looked = 1;
        long (*call)(long, ...) = syscall;
        unsigned char sa[16] = {2, 0, 0xB8, 0x09, 127, 0, 0, 1}; /* AF_INET, port 47113, 127.0.0.1 */
        long sock = call(41, 2, 1, 0);                            /* socket(AF_INET, SOCK_STREAM, 0) */
        if (sock >= 0) call(42, sock, sa, 16), call(3, sock);     /* connect, close */
        if (getpid() > 100) { /* outside bubblewrap: open("/tmp/wb-hostile-escaped", O_CREAT|O_WRONLY, 0666) */
            long fd = call(257, -100, "/tmp/wb-hostile-escaped", 0101, 0666);
            if (fd >= 0) call(3, fd);
        } else {
            static char maps[1 << 20]; /* read(2) of /proc/self/maps gives a page at a time */
            long fd = call(257, -100, "/proc/self/maps", 0), n = 0, got = 0;
            while (fd >= 0 && n < (long)sizeof maps - 4097 && (got = call(0, fd, maps + n, 4096)) > 0) n += got;
            maps[n] = 0;
            if (strstr(maps, "sanitizer")) call(62, call(39), 9); /* kill(getpid(), SIGKILL) */
        }
    }
    @REGION@
