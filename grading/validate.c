/* validate.c — grade --validate's check of each chapter's facts against its built program (validate.h). */
#include "validate.h"

#include "jsonl.h"
#include "contract.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The program's `--list --json -` output (at most cap bytes, malloc'ed), or NULL with why. */
static char *gr_list_output(const char *prog, char *why, size_t len)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "'%s' --list --json - 2>/dev/null", prog); /* our own build's path: no quote in it */
    FILE *p = popen(cmd, "r");
    if (!p) {
        snprintf(why, len, "cannot run %s --list", prog);
        return NULL;
    }
    size_t n = 0, cap = 1 << 16;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, p)) > 0) n += got;
    int st = pclose(p);
    if (buf) buf[n] = 0;
    if (!buf || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        snprintf(why, len, "%s --list --json - failed (exit %d)", prog, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        free(buf);
        return NULL;
    }
    return buf;
}

/* One chapter's program against its facts: 0, or -1 with why. */
static int gr_validate_one(const gr_chapter_rubric *ch, const char *prog, char *why, size_t len)
{
    char err[300] = "";
    char *out = gr_list_output(prog, why, len);
    if (!out) return -1;
    json_t *lines = wb_jsonl_parse(out, strlen(out), err, sizeof err), *o;
    free(out);
    if (!lines) {
        snprintf(why, len, "chapter %d: %s --list --json -: %s", ch->number, prog, err);
        return -1;
    }
    const char *listed[GR_MAX_VAR];
    int n = 0;
    size_t i;
    json_array_foreach(lines, i, o)
    {
        const char *v = json_string_value(json_object_get(o, WB_JSON_VARIANT));
        if (v && n < GR_MAX_VAR) listed[n++] = v;
    }
    int rc = gr_variants_match(ch, listed, n, why, len);
    json_decref(lines);
    return rc;
}

/* 1 if prog is built and newer than its source and its facts: a stale build (make rebuilds it before grading)
 * would be checked against facts it does not yet know. */
static int gr_built_fresh(const char *prog, const char *ref, const char *root, const gr_chapter_rubric *ch)
{
    char src[1024], facts[1024];
    snprintf(src, sizeof src, "%s", ref);
    if (access(src, R_OK) != 0) snprintf(src, sizeof src, "%s/chapters/%s/%s", root, ch->dir, ch->file);
    snprintf(facts, sizeof facts, "%s/chapters/%s/chapter.json", root, ch->dir);
    struct stat p, s, f;
    if (access(prog, X_OK) != 0 || stat(prog, &p) != 0) return 0;
    if (stat(src, &s) == 0 && s.st_mtime > p.st_mtime) return 0;
    return !(stat(facts, &f) == 0 && f.st_mtime > p.st_mtime);
}

int gr_validate_programs(const gr_rubric *r, const char *root, gr_validate_summary *sum, char *why, size_t len)
{
    memset(sum, 0, sizeof *sum);
    sum->chapters = r->n_ch;
    for (int c = 0; c < r->n_ch; c++) {
        const gr_chapter_rubric *ch = &r->ch[c];
        char ref[1024], prog[1024];
        snprintf(ref, sizeof ref, "%s/solutions/%s/%s", root, ch->dir, ch->file);
        snprintf(prog, sizeof prog, "%s/build/%s%d", root, access(ref, R_OK) == 0 ? "solution" : "chapter", ch->number);
        if (!gr_built_fresh(prog, ref, root, ch)) {
            size_t u = strlen(sum->unbuilt);
            snprintf(sum->unbuilt + u, sizeof sum->unbuilt - u, "%s%s", u ? " " : "", strrchr(prog, '/') + 1);
            continue;
        }
        if (gr_validate_one(ch, prog, why, len)) return -1;
        sum->checked++;
    }
    return 0;
}

void gr_validate_say(const gr_validate_summary *sum, char *out, size_t len)
{
    if (sum->checked == sum->chapters)
        snprintf(out, len, "ok: %d chapters, each one's variants as its program lists them", sum->chapters);
    else
        snprintf(out, len, "ok: %d chapters; variants checked against %d built programs (not built or older than their source, so not checked: %s)",
                 sum->chapters, sum->checked, sum->unbuilt);
}
