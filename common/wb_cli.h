/*
 * wb_cli.h — the command line every chapter program shares: variants, sizes, options, --help.
 * Part of the chapters' harness: plain C (C99), static inline, included through wb.h.
 */
#ifndef WB_WB_CLI_H
#define WB_WB_CLI_H

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "contract.h"

/* ---------------------------------------------------------------- sizes and options */
#define WB_MAX_SIZES 8
#define WB_MAX_VARIANTS 16

#define WB_COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Each chapter defines `struct State`: its sizes and buffers. The harness only passes it around. */
typedef struct State State;

#define WB_MAX_KERNELS 4

/* How a variant launches one of its kernels: what `make resources` computes the occupancy for (the
 * program knows its launches; a compiled kernel does not). */
typedef struct {
    int threads;                  /* threads per block; 0: not said */
    long dsmem;                   /* dynamic shared memory per block, bytes */
} wb_shape;

/* The GPU the harness found (wb_device.h, CUDA only); here only as what `unavailable` is asked about. */
#ifndef WB_DEVICE_TYPEDEF
#define WB_DEVICE_TYPEDEF
typedef struct wb_device wb_device;
#endif

/* One row of a chapter's variant table: everything about a variant in one place. */
typedef struct {
    const char *name;             /* the CLI name, e.g. "shared-static" */
    const char *idea;             /* the one idea it adds, for --list */
    const char *kernels;          /* its __global__ functions, comma-separated (for `make sass`/`profile`) */
    void (*launch)(State *s);     /* enqueue its kernel(s); timed */
    void (*prepare)(State *s);    /* preprocessing it needs, timed apart; or NULL */
    const char *extra;            /* the chapter's own column for it (e.g. loads per element), or NULL */
    const char *claim;            /* what the course's source material claimed for it, or NULL (--claims) */
    wb_shape shapes[WB_MAX_KERNELS]; /* each kernel's launch, in the order of `kernels` (for --list) */
    /* NULL: runs on every GPU. Else asked once per run, after the GPU is found: non-zero means this GPU,
     * or this build on it, cannot run the variant, with a one-line reason in why (wb_avail.h has
     * ready-made ones: wb_needs_sm90a, wb_needs_sm90). Such a variant is not run: N/A, verdict
     * UNAVAILABLE, the exit code as if it were not selected. Last, so positional tables stay valid. */
    int (*unavailable)(const wb_device *dev, char *why, size_t n);
} wb_variant;

/* What the command line needs to know about a chapter. */
typedef struct {
    const char *id;                     /* "1-reversal": the `chapter` field of the JSON */
    const char *title;                  /* one line for --help and the table's header */
    const wb_variant *variants;
    int n_variants;                     /* WB_COUNT(variants) */
    int dims;                           /* 1: "N"; 3: "MxNxK" */
    long long max_dim;                  /* largest accepted extent (the kernels' index type) */
    const char *size_help;              /* what a size means, for --help */
    const char *default_sizes;          /* comma-free list of defaults, e.g. "2^28" */
} wb_cli;

typedef struct {
    unsigned variant_mask;              /* bit v set: run variant v */
    wb_size sizes[WB_MAX_SIZES];
    int n_sizes;
    uint64_t seed;
    int reps, warmup;
    const char *json_path;              /* NULL, a file name, or "-" for stdout */
    const char *dump_dir;               /* NULL or a directory for raw result arrays */
    int help, list, claims;
    int grading;                        /* --grading: the grader's checks of the timed runs (CONTRACT.md) */
    int default_sizes;                  /* no --size given: the chapter's defaults (scaled down to fit) */
    int reps_given;                     /* --reps given: exactly that many (else slow variants get fewer) */
} wb_options;

static inline int wb_parse_size(const char *s, const wb_cli *cli, wb_size *out, char *err, size_t errlen)
{
    return wb_size_parse(s, cli->dims, cli->max_dim, out, err, errlen);
}

static inline int wb_parse_int_opt(const char *name, const char *s, long long lo, long long hi, long long *out,
                                   char *err, size_t errlen)
{
    if (wb_parse_count(s, LLONG_MAX, out) != 0 || *out < lo || *out > hi) {
        snprintf(err, errlen, "%s '%s' must be an integer from %lld to %lld", name, s, lo, hi);
        return -1;
    }
    return 0;
}

static inline int wb_variant_index(const wb_cli *cli, const char *name)
{
    for (int v = 0; v < cli->n_variants; v++)
        if (strcmp(cli->variants[v].name, name) == 0) return v;
    return -1;
}

/* "a,b" or "all": a bit per variant. Any length; an empty name (",a", "a,", "a,,b"), an unknown name
 * or a name given twice is an error, never silently dropped. */
static inline int wb_parse_variant_list(const char *list, const wb_cli *cli, unsigned *mask, char *err, size_t errlen)
{
    *mask = 0;
    const char *p = list;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0) {
            snprintf(err, errlen, "--variant '%.60s%s' has an empty name (a stray comma?)", list, strlen(list) > 60 ? "…" : "");
            return -1;
        }
        unsigned bits = 0;
        if (len == 3 && !strncmp(p, "all", 3)) bits = (1u << cli->n_variants) - 1;
        for (int v = 0; !bits && v < cli->n_variants; v++)
            if (strlen(cli->variants[v].name) == len && !strncmp(cli->variants[v].name, p, len)) bits = 1u << v;
        if (!bits) {
            int at = snprintf(err, errlen, "unknown variant '%.*s' (valid:", (int)(len < 60 ? len : 60), p);
            for (int k = 0; k < cli->n_variants && at > 0 && (size_t)at < errlen; k++)
                at += snprintf(err + at, errlen - (size_t)at, " %s", cli->variants[k].name);
            if (at > 0 && (size_t)at < errlen) snprintf(err + at, errlen - (size_t)at, ", all)");
            return -1;
        }
        if (*mask & bits) {
            snprintf(err, errlen, "--variant names '%.*s' twice", (int)(len < 60 ? len : 60), p);
            return -1;
        }
        *mask |= bits;
        if (!comma) return 0;
        p = comma + 1;
    }
}

/* Parses argv into *o. Returns 0, or WB_EXIT_USAGE with a one-line reason in err. Prints nothing. */
static inline int wb_parse_args(int argc, char **argv, const wb_cli *cli, wb_options *o, char *err, size_t errlen)
{
    static const struct option longopts[] = {
        {"variant", required_argument, 0, 'v'}, {"size", required_argument, 0, 'n'},
        {"seed", required_argument, 0, 's'},    {"reps", required_argument, 0, 'r'},
        {"warmup", required_argument, 0, 'w'},  {"json", required_argument, 0, 'j'},
        {"dump", required_argument, 0, 'd'},    {"list", no_argument, 0, 'l'},
        {"claims", no_argument, 0, 'c'},        {"help", no_argument, 0, 'h'},
        {"grading", no_argument, 0, 'g'},       {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    o->seed = 42;
    o->reps = 20;
    o->warmup = 3;
    err[0] = 0;
    optind = 0; /* glibc: 0 re-initialises getopt, so the parser can run more than once (tests) */
    opterr = 0;
    int c;
    long long v;
    while ((c = getopt_long(argc, argv, ":v:n:s:r:w:j:d:lh", longopts, NULL)) != -1) {
        switch (c) {
        case 'v':
            if (wb_parse_variant_list(optarg, cli, &o->variant_mask, err, errlen)) return WB_EXIT_USAGE;
            break;
        case 'n':
            if (o->n_sizes == WB_MAX_SIZES) {
                snprintf(err, errlen, "at most %d --size options", WB_MAX_SIZES);
                return WB_EXIT_USAGE;
            }
            if (wb_parse_size(optarg, cli, &o->sizes[o->n_sizes], err, errlen)) return WB_EXIT_USAGE;
            o->n_sizes++;
            break;
        case 's': {
            char *end;
            errno = 0;
            unsigned long long s = strtoull(optarg, &end, 0);
            if (errno || *end || end == optarg || optarg[0] == '-') {
                snprintf(err, errlen, "seed '%s' must be a non-negative 64-bit integer", optarg);
                return WB_EXIT_USAGE;
            }
            o->seed = s;
            break;
        }
        case 'r':
            if (wb_parse_int_opt("reps", optarg, 1, 1000, &v, err, errlen)) return WB_EXIT_USAGE;
            o->reps = (int)v;
            o->reps_given = 1;
            break;
        case 'w':
            if (wb_parse_int_opt("warmup", optarg, 0, 100, &v, err, errlen)) return WB_EXIT_USAGE;
            o->warmup = (int)v;
            break;
        case 'j': o->json_path = optarg; break;
        case 'd': o->dump_dir = optarg; break;
        case 'l': o->list = 1; break;
        case 'c': o->claims = 1; break;
        case 'g': o->grading = 1; break;
        case 'h': o->help = 1; break;
        case ':':
            snprintf(err, errlen, "option '%s' needs a value", argv[optind - 1]);
            return WB_EXIT_USAGE;
        default:
            snprintf(err, errlen, "unknown option '%s'", argv[optind - 1]);
            return WB_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        snprintf(err, errlen, "unexpected argument '%s' (sizes go after --size)", argv[optind]);
        return WB_EXIT_USAGE;
    }
    if (!o->variant_mask) o->variant_mask = (1u << cli->n_variants) - 1;
    if (!o->n_sizes) {
        o->default_sizes = 1;
        char buf[128];
        snprintf(buf, sizeof buf, "%s", cli->default_sizes);
        char *save = NULL;
        for (char *t = strtok_r(buf, " ", &save); t && o->n_sizes < WB_MAX_SIZES; t = strtok_r(NULL, " ", &save))
            if (wb_parse_size(t, cli, &o->sizes[o->n_sizes++], err, errlen)) return WB_EXIT_USAGE;
    }
    return 0;
}

/* --json FILE and --dump DIR, checked before any GPU work like every other option (exit 2): FILE's folder
 * must be a folder this process may write in and FILE no folder; DIR a folder it may write in. Returns 0,
 * or -1 with a one-line reason in err. */
static inline int wb_check_output_paths(const wb_options *o, char *err, size_t errlen)
{
    struct stat st;
    if (o->json_path && strcmp(o->json_path, "-") != 0) {
        char dir[4096];
        const char *slash = strrchr(o->json_path, '/');
        snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - o->json_path) + (slash == o->json_path) : 1,
                 slash ? o->json_path : ".");
        if (!*o->json_path || (slash && !slash[1]) || (stat(o->json_path, &st) == 0 && S_ISDIR(st.st_mode))) {
            snprintf(err, errlen, "--json '%.200s' names a folder, not a file", o->json_path);
            return -1;
        }
        if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) != 0) {
            snprintf(err, errlen, "--json '%.100s': the folder '%.100s' %s", o->json_path, dir,
                     stat(dir, &st) != 0 ? "does not exist" : !S_ISDIR(st.st_mode) ? "is not a folder" : "is not writable");
            return -1;
        }
    }
    if (o->dump_dir && (stat(o->dump_dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(o->dump_dir, W_OK | X_OK) != 0)) {
        snprintf(err, errlen, "--dump '%.200s' is not %s", o->dump_dir,
                 stat(o->dump_dir, &st) != 0 || !S_ISDIR(st.st_mode) ? "a directory" : "a directory you may write in");
        return -1;
    }
    return 0;
}

static inline void wb_usage(FILE *f, const char *prog, const wb_cli *cli)
{
    fprintf(f,
            "%s — %s\n"
            "usage: %s [options]\n"
            "  -v, --variant LIST  comma-separated variants to run (default: all):",
            cli->id, cli->title, prog);
    for (int v = 0; v < cli->n_variants; v++) fprintf(f, " %s", cli->variants[v].name);
    fprintf(f,
            "\n"
            "  -n, --size S        %s; repeatable (default: %s)\n"
            "  -s, --seed N        seed of the random inputs (default: 42)\n"
            "  -r, --reps N        timed repetitions, the median is reported (default: 20)\n"
            "  -w, --warmup N      untimed runs before timing (default: 3)\n"
            "      --json FILE     also write one JSON object per variant and size ('-': stdout);\n"
            "                      with --list: the variants as JSON lines on stdout\n"
            "      --dump DIR      write each variant's raw result array to DIR/VARIANT_SIZE.bin\n"
            "  -l, --list          list the variants and the idea each adds\n"
            "      --claims        after the table, set what the source material claimed beside what this GPU measured\n"
            "      --grading       what the grader runs: every timed repetition starts from a poisoned output\n"
            "                      and counts GPU work on any stream; the last one is checked, then each variant\n"
            "                      runs once on other inputs; adds the hardware's CEILING line to --json\n"
            "  -h, --help          this text\n"
            "a variant this GPU cannot run is N/A with its reason, and changes no exit code\n"
            "exit codes: 0 all correct, 1 wrong or not implemented, 2 bad usage, 3 no CUDA device,\n"
            "            4 CUDA error, 5 cannot write an output file, 6 out of GPU memory\n",
            cli->size_help, cli->default_sizes);
}

#endif /* WB_WB_CLI_H */
