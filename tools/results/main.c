/*
 * wbresults — the handouts' generator (see wbresults.h); `make handouts` and `make results` call it.
 *
 *   wbresults table  RESULTS.json META.json            Markdown table on stdout
 *   wbresults plot   RESULTS.json META.json OUT.png    gnuplot script on stdout (draws OUT.png)
 *   wbresults claims RESULTS.txt                       the --claims block as Markdown on stdout
 *   wbresults expand HANDOUT.md TABLE.md PLOT.png ALT CLAIMS.md [OTHER.md]
 *                                                      the handout with its markers replaced
 *   wbresults fill   HANDOUT.md TABLE.md CLAIMS.md [OTHER.md]
 *                                                      the handout with its table and claims blocks
 *                                                      filled in (its own file keeps them)
 *   OTHER.md: another GPU's table for the other-GPU marker; without it that block stays as it is.
 *   wbresults meta   OUT.json key=value...             writes a meta file (strings)
 *
 * Exit codes: 0 done, 1 bad or unusable input (one line on stderr says why), 2 bad usage.
 */
#include "wbresults.h"

static int usage(void)
{
    fputs("usage: wbresults table RESULTS META | plot RESULTS META PNG | claims TXT |\n"
          "       expand HANDOUT TABLE PNG ALT CLAIMS [OTHER] | fill HANDOUT TABLE CLAIMS [OTHER] |\n"
          "       meta OUT key=value...\n",
          stderr);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 2) return usage();
    const char *cmd = argv[1];
    char err[512];
    if ((strcmp(cmd, "table") == 0 && argc == 4) || (strcmp(cmd, "plot") == 0 && argc == 5)) {
        json_t *rows = wbr_load_lines(argv[2], err, sizeof err);
        if (!rows) {
            fprintf(stderr, "wbresults: %s\n", err);
            return 1;
        }
        json_t *meta = wbr_load_meta(argv[3]);
        int rc = 0;
        if (cmd[0] == 't') {
            wbr_table(stdout, rows, meta, argv[2]);
        } else if (wbr_plot(stdout, rows, meta, argv[4]) != 0) {
            fprintf(stderr, "wbresults: %s has no speed-of-light row or no passing variant to plot\n", argv[2]);
            rc = 1;
        }
        json_decref(rows);
        json_decref(meta);
        return rc;
    }
    if (strcmp(cmd, "claims") == 0 && argc == 3) {
        wbr_claims(stdout, argv[2]);
        return 0;
    }
    if ((strcmp(cmd, "expand") == 0 && (argc == 7 || argc == 8)) || (strcmp(cmd, "fill") == 0 && (argc == 5 || argc == 6))) {
        int e = cmd[0] == 'e';
        const char *other = argc == (e ? 8 : 6) ? argv[argc - 1] : NULL;
        int n = e ? wbr_expand(stdout, argv[2], argv[3], argv[4], argv[5], argv[6], other)
                  : wbr_fill(stdout, argv[2], argv[3], argv[4], other);
        if (n < 0) {
            fprintf(stderr, "wbresults: cannot read %s\n", argv[2]);
            return 1;
        }
        return 0;
    }
    if (strcmp(cmd, "meta") == 0 && argc >= 3) {
        json_t *m = json_object();
        for (int k = 3; k < argc; k++) {
            const char *eq = strchr(argv[k], '=');
            if (!eq || eq == argv[k]) {
                fprintf(stderr, "wbresults: '%s' is not key=value\n", argv[k]);
                json_decref(m);
                return 2;
            }
            char key[64];
            snprintf(key, sizeof key, "%.*s", (int)(eq - argv[k]), argv[k]);
            json_object_set_new(m, key, json_string(eq + 1));
        }
        int rc = json_dump_file(m, argv[2], JSON_INDENT(2) | JSON_SORT_KEYS);
        json_decref(m);
        if (rc != 0) {
            fprintf(stderr, "wbresults: cannot write %s\n", argv[2]);
            return 1;
        }
        return 0;
    }
    return usage();
}
