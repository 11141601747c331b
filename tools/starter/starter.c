/* starter.c — see starter.h. */
#define _GNU_SOURCE 1
#include "starter.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gr_util.h"
#include "regions.h"
#include "rubric.h"

int st_hint_line(const char *line, size_t len)
{
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
    return len - i >= 3 && memcmp(line + i, "//|", 3) == 0 ? (int)i : -1;
}

/* The one line of a reference's error into err; NULL. */
__attribute__((format(printf, 3, 4))) static char *st_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return NULL;
}

/* Appends to out at *o what the region r of ref gives the starter: its hint lines without `//| `.
 * Returns how many hint lines, or -1 with the reason in err. */
static int st_region(const char *ref, const wb_region *r, char *out, size_t *o, char *err, size_t errlen)
{
    int hints = 0, lineno = r->line;
    for (size_t at = r->begin; at < r->end;) {
        const char *line = ref + at, *nl = memchr(line, '\n', r->end - at);
        size_t ll = (size_t)(nl - line); /* a region's lines all end in '\n': its END marker follows */
        at += ll + 1;
        lineno++;
        int w = st_hint_line(line, ll);
        if (w < 0) continue; /* the reference's own code: not the student's */
        const char *rest = line + w + 3;
        size_t rl = ll - (size_t)w - 3;
        if (rl && rest[0] != ' ')
            return st_fail(err, errlen, "line %d: a hint line is `//| ` and the text, or a bare `//|`", lineno), -1;
        if (ll && line[ll - 1] == '\\')
            return st_fail(err, errlen, "line %d: a hint line must not end in a backslash (in the reference it "
                           "would continue the comment onto the next line)", lineno), -1;
        size_t from = *o;
        if (rl) { /* the white space before `//|`, then the text after `//| ` */
            memcpy(out + *o, line, (size_t)w);
            memcpy(out + *o + (size_t)w, rest + 1, rl - 1);
            *o += (size_t)w + rl - 1;
        }
        out[(*o)++] = '\n';
        wb_region none[1];
        char why[200];
        if (wb_regions_parse(out + from, *o - from, none, 1, why, sizeof why) != 0) /* alone, a marker is unbalanced */
            return st_fail(err, errlen, "line %d: a hint line must not be a TODO marker (the starter's regions would "
                           "not parse)", lineno), -1;
        hints++;
    }
    if (!hints)
        return st_fail(err, errlen, "line %d: TODO region '%s' has no hint line (`//| ` and the text its starter "
                       "holds: every region carries its hint)", r->line, r->name), -1;
    return hints;
}

char *st_starter_of(const char *ref, size_t len, size_t *out_len, char *err, size_t errlen)
{
    wb_region r[64];
    int n = wb_regions_parse(ref, len, r, 64, err, errlen);
    if (n < 0) return NULL;
    char *out = malloc(len + 1); /* a starter is never longer: a hint line loses 3 or 4 bytes */
    if (!out) return st_fail(err, errlen, "out of memory");
    size_t o = 0, at = 0;
    for (int k = 0; k < n; k++) {
        memcpy(out + o, ref + at, r[k].begin - at);
        o += r[k].begin - at;
        if (st_region(ref, &r[k], out, &o, err, errlen) < 0) {
            free(out);
            return NULL;
        }
        at = r[k].end;
    }
    memcpy(out + o, ref + at, len - at);
    o += len - at;
    out[o] = 0;
    *out_len = o;
    return out;
}

/* ---------------------------------------------------------------- the workbook's chapters */
typedef struct {
    char starter[PATH_MAX], reference[PATH_MAX]; /* as printed: relative to root unless root is not "." */
    char *text;                                  /* what the reference makes */
    size_t len;
} st_pair;

typedef struct {
    const char *root;
    FILE *out, *err;
    st_pair pair[GR_MAX_CH];
    int n, bad;
} st_run;

/* root/rel, or rel itself for the root ".": how paths are read and printed. */
static void st_path(const st_run *s, char *p, size_t len, const char *rel)
{
    if (!strcmp(s->root, ".")) snprintf(p, len, "%s", rel);
    else snprintf(p, len, "%s/%s", s->root, rel);
}

/* One chapter folder: its reference read and its starter made into the next pair, or a line on err. */
static void st_chapter(st_run *s, const char *dir)
{
    int num;
    char file[128], rel[PATH_MAX], why[400];
    gr_chapter_dir_split(dir, &num, file, sizeof file);
    st_pair *p = &s->pair[s->n];
    snprintf(rel, sizeof rel, "chapters/%s/%s", dir, file);
    st_path(s, p->starter, sizeof p->starter, rel);
    snprintf(rel, sizeof rel, "solutions/%s/%s", dir, file);
    st_path(s, p->reference, sizeof p->reference, rel);
    size_t len;
    char *ref = gr_is_file(p->reference) ? wb_read_file(p->reference, &len) : NULL;
    if (!ref) {
        fprintf(s->err, "%s: no reference %s to make it from\n", p->starter, p->reference);
        s->bad++;
        return;
    }
    p->text = st_starter_of(ref, len, &p->len, why, sizeof why);
    free(ref);
    if (!p->text) {
        fprintf(s->err, "%s: %s\n", p->reference, why);
        s->bad++;
        return;
    }
    s->n++;
}

/* A reference folder solutions/NN-name/ whose chapter folder (with its chapter.json) is missing. */
static void st_orphans(st_run *s, char dirs[][128], int n_ch)
{
    char p[PATH_MAX];
    st_path(s, p, sizeof p, "solutions");
    struct dirent **e;
    int m = scandir(p, &e, NULL, alphasort);
    for (int i = 0; i < m; i++) {
        int num, known = 0;
        char file[128];
        for (int c = 0; c < n_ch; c++) known |= !strcmp(dirs[c], e[i]->d_name);
        if (!known && !gr_chapter_dir_split(e[i]->d_name, &num, file, sizeof file)) {
            fprintf(s->err, "%s/%s: a reference without its chapter folder chapters/%s/ (with a chapter.json)\n", p,
                    e[i]->d_name, e[i]->d_name);
            s->bad++;
        }
        free(e[i]);
    }
    if (m >= 0) free(e);
}

/* The 1-based line where a and b first differ (0: equal). */
static int st_first_diff(const char *a, size_t al, const char *b, size_t bl)
{
    size_t k = 0;
    int line = 1;
    while (k < al && k < bl && a[k] == b[k]) line += a[k++] == '\n';
    return k == al && k == bl ? 0 : line;
}

/* One pair written or checked: 1 when its starter differed (and, writing, was written), 0 if not, -1 when
 * it could not be written. */
static int st_settle(const st_run *s, const st_pair *p, st_mode mode)
{
    size_t len = 0;
    char *now = gr_is_file(p->starter) ? wb_read_file(p->starter, &len) : NULL;
    int line = now ? st_first_diff(now, len, p->text, p->len) : 1, missing = !now;
    free(now);
    if (!line) return 0;
    if (mode == ST_CHECK && missing) {
        fprintf(s->err, "%s: missing; %s makes it (make starters)\n", p->starter, p->reference);
        return 1;
    }
    if (mode == ST_CHECK) {
        fprintf(s->err, "%s:%d: differs from what %s makes (make starters writes it; never edit a starter by hand)\n",
                p->starter, line, p->reference);
        return 1;
    }
    char tmp[PATH_MAX + 16];
    snprintf(tmp, sizeof tmp, "%s.tmp-starter", p->starter); /* renamed over it: never half a starter */
    if (gr_write_file(tmp, p->text, p->len) || rename(tmp, p->starter)) {
        fprintf(s->err, "%s: cannot write it\n", p->starter);
        remove(tmp);
        return -1;
    }
    fprintf(s->out, "wrote %s\n", p->starter);
    return 1;
}

/* What every pair comes to: written or checked; 0, 1 (--check: one differs) or 2 (one not written). */
static int st_settle_all(const st_run *s, st_mode mode)
{
    int differ = 0, failed = 0;
    for (int i = 0; i < s->n; i++) {
        int r = st_settle(s, &s->pair[i], mode);
        differ += r > 0;
        failed += r < 0;
    }
    if (mode == ST_CHECK)
        fprintf(s->out, "starters: %d of %d differ from what their references make\n", differ, s->n);
    else
        fprintf(s->out, "starters: %d written, %d already what their references make\n", differ - failed, s->n - differ);
    return failed ? 2 : mode == ST_CHECK && differ ? 1 : 0;
}

int st_starters(const char *root, st_mode mode, FILE *out, FILE *err)
{
    st_run *s = calloc(1, sizeof *s); /* GR_MAX_CH pairs of paths: off the stack */
    if (!s) {
        fprintf(err, "starters: out of memory\n");
        return 2;
    }
    s->root = root, s->out = out, s->err = err;
    char dirs[GR_MAX_CH][128];
    int n_ch = gr_chapters_scan(root, dirs, GR_MAX_CH), rc = 2;
    for (int c = 0; c < n_ch; c++) st_chapter(s, dirs[c]);
    st_orphans(s, dirs, n_ch);
    if (!n_ch && !s->bad) {
        fprintf(err, "starters: %s/chapters has no chapter (a folder NN-name with a chapter.json)\n", root);
        s->bad++;
    }
    if (s->bad) fprintf(err, "starters: nothing written (%d problem%s above)\n", s->bad, s->bad == 1 ? "" : "s");
    else rc = st_settle_all(s, mode);
    for (int i = 0; i < s->n; i++) free(s->pair[i].text);
    free(s);
    return rc;
}
