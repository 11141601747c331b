/*
 * mutate.c — build/mutate: mutants of the reference solutions' TODO regions as student submissions,
 * and the confusion table of what the grader named for them (`make diagnose-mutants [CH=n]`).
 *
 *   build/mutate --out DIR [--ch N] [--root DIR]   write DIR/subs/<id>/ (graded with --no-perf),
 *                                                  DIR/subs-perf/<id>/ (slow classes: perf needed),
 *                                                  DIR/mutants.json (id, chapter, region, label, what)
 *   build/mutate --report DIR                      the table from DIR/mutants.json and DIR/out[-perf]/<id>/grading.json
 *
 * Each mutant is one operator (tools/mutate/ops.h) at one occurrence inside one region of one
 * chapter's solution; the rest of the file is the solution's, so it differs from the reference only
 * inside the regions (checked here before writing, and by tests/test_mutate.c).
 */
#define _GNU_SOURCE 1
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mutate.h"

static void mu_usage(void)
{
    fprintf(stderr, "usage: mutate --out DIR [--ch N] [--root DIR]\n       mutate --report DIR\n");
}

int main(int argc, char **argv)
{
    const char *out = NULL, *report = NULL, *root = ".";
    int only_ch = 0;
    static const struct option lo[] = {{"out", required_argument, 0, 'o'},
                                       {"report", required_argument, 0, 'r'},
                                       {"ch", required_argument, 0, 'c'},
                                       {"root", required_argument, 0, 'R'},
                                       {0, 0, 0, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        char *end;
        switch (c) {
        case 'o': out = optarg; break;
        case 'r': report = optarg; break;
        case 'R': root = optarg; break;
        case 'c':
            only_ch = (int)strtol(optarg, &end, 10);
            if (*end || only_ch <= 0) {
                fprintf(stderr, "mutate: --ch takes a chapter number, not '%s'\n", optarg);
                return 2;
            }
            break;
        default: mu_usage(); return 2;
        }
    }
    if (optind < argc || (!out == !report)) {
        mu_usage();
        return 2;
    }
    return report ? mu_report(report, stdout) : mu_write_all(root, out, only_ch, stdout);
}
