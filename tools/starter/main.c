/*
 * main.c — build/starter: every chapter's starter made from its reference (tools/starter/starter.h).
 *
 *   build/starter [--root DIR]           write each chapters/NN-name/name.cu that differs (make starters)
 *   build/starter --check [--root DIR]   write nothing; name each starter that differs (make starters CHECK=1)
 *
 * Exit 0: every starter is what its reference makes; 1: --check found one that differs; 2: bad usage,
 * bad input (a reference's line named) or a starter not written.
 */
#define _GNU_SOURCE 1
#include <getopt.h>
#include <stdio.h>

#include "starter.h"

int main(int argc, char **argv)
{
    static const struct option lo[] = {
        {"check", no_argument, 0, 'c'}, {"root", required_argument, 0, 'r'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *root = ".";
    st_mode mode = ST_WRITE;
    int c;
    while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        if (c == 'c') mode = ST_CHECK;
        else if (c == 'r') root = optarg;
        else {
            fprintf(c == 'h' ? stdout : stderr, "usage: starter [--check] [--root DIR]\n");
            return c == 'h' ? 0 : 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "starter: unexpected argument '%s' (usage: starter [--check] [--root DIR])\n", argv[optind]);
        return 2;
    }
    return st_starters(root, mode, stdout, stderr);
}
