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
            char maps[1 << 16];
            long fd = call(257, -100, "/proc/self/maps", 0), n = fd >= 0 ? call(0, fd, maps, sizeof maps - 1) : 0;
            maps[n > 0 ? n : 0] = 0;
            if (strstr(maps, "sanitizer")) call(62, call(39), 9); /* kill(getpid(), SIGKILL) */
        }
    }
    @REGION@
