    /* hostile: the launcher never returns (a busy loop on the host, no sleep call for the screen). */
    for (volatile unsigned long spin = 0;; spin++) {
    }
