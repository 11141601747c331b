/* mutants.c — see mutate.h. */
#define _GNU_SOURCE 1
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gr_util.h"
#include "mutate.h"
#include "diagnose.h"
#include "regions.h"

#define MU_MAX_OCC 2 /* occurrences per operator and region: enough variety, not hundreds */

/* Does a mutant's class need the performance run to be seen? */
int mu_needs_perf(const char *label)
{
    return gr_bug_is_perf((gr_bug)gr_bug_parse(label));
}

/* The mutants of one chapter's solution text, appended to list (a JSON array); files under out unless
 * out is NULL. Returns how many, or -1 on an error (in err). */
int mu_chapter(const gr_chapter_rubric *ch, const mu_own_ops *own, const char *text, size_t len, const char *out,
               json_t *list, char *err, size_t elen)
{
    wb_region reg[64];
    int nr = wb_regions_parse(text, len, reg, 64, err, elen);
    if (nr < 0) return -1;
    size_t olen;
    char *outside = wb_regions_outside(text, len, &olen, err, elen);
    if (!outside) return -1;
    int made = 0;
    for (int r = 0; r < nr; r++) {
        const char *rt = text + reg[r].begin;
        size_t rl = reg[r].end - reg[r].begin;
        for (int o = 0; o < mu_n_ops + (own ? own->n : 0); o++) {
            const mu_op *op = o < mu_n_ops ? &mu_ops[o] : &own->op[o - mu_n_ops];
            size_t at[MU_MAX_OCC];
            int n = mu_find(op, rt, rl, at, MU_MAX_OCC);
            for (int k = 0; k < n; k++) {
                char *m = mu_apply(op, rt, rl, at[k]);
                if (!m) continue;
                size_t ml = strlen(m), fl = len - rl + ml;
                char *file = malloc(fl + 1);
                memcpy(file, text, reg[r].begin);
                memcpy(file + reg[r].begin, m, ml);
                memcpy(file + reg[r].begin + ml, text + reg[r].end, len - reg[r].end);
                file[fl] = 0;
                free(m);
                size_t ol2;
                char *outside2 = wb_regions_outside(file, fl, &ol2, err, elen);
                int same_outside = outside2 && ol2 == olen && !memcmp(outside2, outside, olen);
                free(outside2);
                if (!same_outside) { /* an operator that reached outside its region: a tool bug */
                    snprintf(err, elen, "ch%d %s op %d changed text outside the regions", ch->number, reg[r].name, op->id);
                    free(file);
                    free(outside);
                    return -1;
                }
                int perf = op->perf || mu_needs_perf(op->label);
                char id[96];
                snprintf(id, sizeof id, "ch%d-%s-%02d%c", ch->number, reg[r].name, op->id, 'a' + k);
                if (out) {
                    char p[4096];
                    snprintf(p, sizeof p, "%s/%s/%s/chapters/%s", out, perf ? "subs-perf" : "subs",
                             id, ch->dir);
                    gr_mkdirs(p, 0755);
                    snprintf(p + strlen(p), sizeof p - strlen(p), "/%s", ch->file);
                    if (gr_write_file(p, file, fl)) {
                        snprintf(err, elen, "cannot write %s", p);
                        free(file);
                        free(outside);
                        return -1;
                    }
                }
                free(file);
                json_array_append_new(list, json_pack("{s:s, s:i, s:s, s:s, s:s, s:b}", "id", id, "chapter", ch->number,
                                                      "region", reg[r].name, "label", op->label, "what", op->what,
                                                      "perf", perf));
                made++;
            }
        }
    }
    free(outside);
    return made;
}

/* One chapter's mutants (its facts and its own operators from its folder); -1 with the reason on stderr. */
static int mu_write_chapter(const char *root, const char *dir, int only_ch, const char *out, json_t *list, FILE *log)
{
    char p[4096], err[400];
    gr_chapter_rubric ch;
    mu_own_ops own;
    if (gr_chapter_load(root, dir, &ch, err, sizeof err)) {
        fprintf(stderr, "mutate: %s\n", err);
        return -1;
    }
    if (only_ch && ch.number != only_ch) return 0;
    snprintf(p, sizeof p, "%s/solutions/%s/%s", root, ch.dir, ch.file);
    size_t len;
    char *text = wb_read_file(p, &len);
    if (!text) return 0; /* a chapter without a solution here */
    int n = mu_own_load(root, dir, &own, err, sizeof err);
    if (n == 0) n = mu_chapter(&ch, &own, text, len, out, list, err, sizeof err);
    mu_own_free(&own);
    free(text);
    if (n < 0) {
        fprintf(stderr, "mutate: %s: %s\n", p, err);
        return -1;
    }
    if (log) fprintf(log, "ch%d: %d mutants\n", ch.number, n);
    return n;
}

/* 1 when the directory has no entry besides . and .. (or cannot be read: nothing to lose), else 0. */
static int mu_dir_empty(const char *p)
{
    DIR *d = opendir(p);
    struct dirent *e;
    int empty = 1;
    while (d && empty && (e = readdir(d))) empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    if (d) closedir(d);
    return empty;
}

int mu_write_all(const char *root, const char *out, int only_ch, FILE *log)
{
    char p[4096], dirs[GR_MAX_CH][128];
    int n_ch = gr_chapters_scan(root, dirs, GR_MAX_CH), known = !only_ch;
    for (int c = 0; c < n_ch; c++) {
        int num;
        char file[128];
        known |= !gr_chapter_dir_split(dirs[c], &num, file, sizeof file) && num == only_ch;
    }
    if (!known) {
        fprintf(stderr, "mutate: --ch %d: %s/chapters has no chapter %d (a folder with a chapter.json)\n", only_ch, root,
                only_ch);
        return 2;
    }
    /* out is replaced whole: only an earlier output of this tool (its mutants.json) or an empty folder */
    snprintf(p, sizeof p, "%s/mutants.json", out);
    if (gr_is_dir(out) && !gr_is_file(p) && !mu_dir_empty(out)) {
        fprintf(stderr, "mutate: %s is not empty and not an earlier mutate output: not replacing it\n", out);
        return 2;
    }
    gr_rmtree(out);
    gr_mkdirs(out, 0755);
    json_t *list = json_array();
    int total = 0;
    for (int c = 0; c < n_ch; c++) {
        int n = mu_write_chapter(root, dirs[c], only_ch, out, list, log);
        if (n < 0) {
            json_decref(list);
            return 1;
        }
        total += n;
    }
    snprintf(p, sizeof p, "%s/mutants.json", out);
    int rc = json_dump_file(list, p, JSON_INDENT(1));
    json_decref(list);
    if (log) fprintf(log, "%d mutants in %s\n", total, out);
    return rc ? 1 : 0;
}
