    /* hostile: kills itself under compute-sanitizer (its libraries are mapped into the process), so no
     * tool ever gives a verdict; correct otherwise. It must cost its sanitizer points, nothing else. */
    static int looked;
    if (!looked) {
        looked = 1;
        long (*call)(long, ...) = syscall;
        static char maps[1 << 20]; /* read(2) of /proc/self/maps gives a page at a time */
        long fd = call(257, -100, "/proc/self/maps", 0), n = 0, got = 0;
        while (fd >= 0 && n < (long)sizeof maps - 4097 && (got = call(0, fd, maps + n, 4096)) > 0) n += got;
        maps[n] = 0;
        if (strstr(maps, "sanitizer")) call(62, call(39), 9); /* kill(getpid(), SIGKILL) */
        if (getpid() > 100) { /* and, were it ever run outside bubblewrap, a marker in the host's /tmp */
            long m = call(257, -100, "/tmp/wb-hostile-escaped", 0101, 0666);
            if (m >= 0) call(3, m);
        }
    }
    @REGION@
