/* inspect.h — what the look-inside tool's files share: options, the chosen variants, helpers. */
#ifndef WB_INSPECT_H
#define WB_INSPECT_H

#include <ctype.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "regions.h" /* wb_read_file */
#include "sanitizer.h"
#include "toolparse.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EXIT_FINDINGS 1

#define EXIT_USAGE 2

#define EXIT_NEEDS 3

/* ---------------------------------------------------------------- options */
typedef struct {
    const char *program, *variant, *listing, *ptxas, *arch, *size, *tools, *report, *logs, *label, *csv;
    int block, dsmem, jobs, json, check, timeout_s, all; /* block, dsmem: -1 when not given */
} opts;

/* ---------------------------------------------------------------- the chapter's variants */
typedef struct {
    tp_variant v[TP_MAX_VARIANTS];
    int n;
    unsigned selected;       /* bit i: variant i chosen */
} variants;

extern const char *prog_name;

/* common.c */ void die(int code, const char *fmt, ...);
/* common.c */ char *run_capture(const char *cmd, int *status);
/* common.c */ char *read_file(const char *path);
/* common.c */ const char *shell_safe(const char *what, const char *s);
/* common.c */ int on_path(const char *tool);
/* common.c */ void parse_opts(int argc, char **argv, int first, opts *o);
/* common.c */ void load_variants(const char *program, const char *choice, variants *vs);
/* common.c */ int kernels_named(const variants *vs);
/* common.c */ int variants_of(const variants *vs, const char *symbol, int selected_only, char *buf, size_t len);
/* common.c */ void describe_selection(const variants *vs, char *buf, size_t len);
/* common.c */ int arch_number(const char *arch);
/* common.c */ const char *program_cmd(const char *program, char *buf, size_t len);
/* common.c */ const char *probe_size(const char *program);
/* common.c */ pid_t spawn_shell(const char *cmd);
/* common.c */ const char *program_verdict(int rc);
/* look.c */ int cmd_sass(const opts *o);
/* look.c */ int cmd_gpu(const opts *o);
/* look.c */ int cmd_resources(const opts *o);
/* run.c */ int cmd_sanitize(const opts *o);
/* run.c */ int cmd_profile(const opts *o);
/* gpu.cu */ int gpu_present(tp_gpu *g, char *why, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* WB_INSPECT_H */
