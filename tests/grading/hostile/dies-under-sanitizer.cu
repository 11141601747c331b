    /* hostile: kills itself under compute-sanitizer (its libraries are mapped into the process), so no
     * tool ever gives a verdict; correct otherwise. It must cost its sanitizer points, nothing else. */
    static int looked;
    if (!looked) {
        looked = 1;
        long (*call)(long, ...) = syscall;
        char maps[1 << 16];
        long fd = call(257, -100, "/proc/self/maps", 0), n = fd >= 0 ? call(0, fd, maps, sizeof maps - 1) : 0;
        maps[n > 0 ? n : 0] = 0;
        if (strstr(maps, "sanitizer")) call(62, call(39), 9); /* kill(getpid(), SIGKILL) */
        if (getpid() > 100) { /* and, were it ever run outside bubblewrap, a marker in the host's /tmp */
            long m = call(257, -100, "/tmp/wb-hostile-escaped", 0101, 0666);
            if (m >= 0) call(3, m);
        }
    }
    @REGION@
