/*
 * case-gen.c — build/case-gen: writes the test cases of one suite as student submissions.
 *
 *   build/case-gen SUITE [OUT]     (from the workbook's root; OUT defaults to build/cases/SUITE)
 *
 * A suite is a folder SUITE/ in each chapter's case folder tests/cases/NN-name/ (tests/cases/README.md):
 * its expected.json lists the cases under "cases", each with "base" ("reference", the default, or
 * "starter"); NAME.regions holds the regions the case replaces, in the starter's own markers, and NAME.cu
 * (only where the case is about the whole file) is the whole file. The chapter's files come from the
 * suite's "workbook" (default: this one). Each case is written as OUT/chN/NAME/chapters/NN-name/FILE.cu,
 * a submission laid out like a student's. In a region's text, @ROOT@ becomes this workbook's absolute
 * path, @UP@ a relative path from any build folder up to it ("../" many times, then the path without its
 * leading slash), and @REGION@ the base's own text of that region (for cases that keep the work and add
 * something). Prints one line per submission; exit 1 if any could not be written, 2 on a bad command line.
 */
#define _GNU_SOURCE 1
#include "gr_util.h"
#include "regions.h"

#include <glob.h>
#include <jansson.h>

#define MAX_REGIONS 64

/* Where a suite's cases come from and go to. */
typedef struct {
    const char *dir;      /* tests/cases/NN-name/SUITE */
    const char *chapter;  /* NN-name */
    const char *workbook; /* the tree holding chapters/NN-name and solutions/NN-name */
    const char *out;
    const char *root; /* this workbook's absolute path */
} suite_place;

/* Replaces every @ROOT@, @UP@ and @REGION@ of text. */
static char *expand(const char *text, size_t len, const char *root, const char *region, size_t region_len)
{
    gr_str s = {0};
    const char *end = text + len;
    for (const char *p = text; p < end;) {
        if (!strncmp(p, "@ROOT@", 6)) {
            gr_str_add(&s, root);
            p += 6;
        } else if (!strncmp(p, "@UP@", 4)) {
            for (int i = 0; i < 32; i++) gr_str_add(&s, "../"); /* more than any folder is deep */
            gr_str_addf(&s, "%s/", root + 1);
            p += 4;
        } else if (!strncmp(p, "@REGION@", 8)) {
            gr_str_addn(&s, region, region_len);
            p += 8;
            if (p < end && *p == '\n' && region_len && region[region_len - 1] == '\n') p++;
        } else gr_str_addn(&s, p++, 1);
    }
    if (!s.s) gr_str_add(&s, "");
    return s.s;
}

/* The index of the region called name among r[0..n), or -1. */
static int region_index(const wb_region *r, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(r[i].name, name)) return i;
    return -1;
}

/* The base with each region the case names replaced; NULL with the reason in err. */
static char *splice_case(const char *base, size_t blen, const char *cs, size_t clen, const char *root, char *err,
                         size_t errlen)
{
    wb_region b[MAX_REGIONS], c[MAX_REGIONS];
    int nb = wb_regions_parse(base, blen, b, MAX_REGIONS, err, errlen);
    int nc = nb < 0 ? -1 : wb_regions_parse(cs, clen, c, MAX_REGIONS, err, errlen);
    if (nb < 0 || nc < 0) return NULL;
    if (nc == 0) snprintf(err, errlen, "names no region");
    for (int j = 0; j < nc; j++)
        if (region_index(b, nb, c[j].name) < 0) {
            snprintf(err, errlen, "region %s: the base has no region of that name", c[j].name);
            return NULL;
        }
    if (nc == 0) return NULL;
    gr_str f = {0};
    size_t at = 0;
    for (int i = 0; i < nb; i++) {
        int k = region_index(c, nc, b[i].name);
        if (k < 0) continue;
        char *body = expand(cs + c[k].begin, c[k].end - c[k].begin, root, base + b[i].begin, b[i].end - b[i].begin);
        gr_str_addn(&f, base + at, b[i].begin - at);
        gr_str_add(&f, body);
        if (f.len && f.s[f.len - 1] != '\n') gr_str_add(&f, "\n");
        at = b[i].end;
        free(body);
    }
    gr_str_add(&f, base + at);
    return f.s;
}

/* The one .cu file of WORKBOOK/top/NN-name, in path; -1 if there is none. */
static int base_file(const suite_place *sp, const char *top, char *path, size_t len)
{
    char pat[PATH_MAX];
    if (strcmp(sp->workbook, ".")) snprintf(pat, sizeof pat, "%s/%s/%s/*.cu", sp->workbook, top, sp->chapter);
    else snprintf(pat, sizeof pat, "%s/%s/*.cu", top, sp->chapter);
    glob_t g;
    if (glob(pat, 0, NULL, &g) != 0) return -1;
    snprintf(path, len, "%s", g.gl_pathv[0]);
    globfree(&g);
    return 0;
}

/* The submission's text for one case (malloc'd, length in *len); NULL with the reason in err. */
static char *case_text(const suite_place *sp, const char *name, const char *base_path, size_t *len, char *err,
                       size_t errlen)
{
    char rp[PATH_MAX], wp[PATH_MAX];
    snprintf(rp, sizeof rp, "%s/%s.regions", sp->dir, name);
    snprintf(wp, sizeof wp, "%s/%s.cu", sp->dir, name);
    int has_r = gr_is_file(rp), has_w = gr_is_file(wp);
    if (has_r && has_w) {
        snprintf(err, errlen, "%s: and %s.cu: one case, one file", rp, name);
        return NULL;
    }
    size_t blen, clen;
    char *base = wb_read_file(has_w ? wp : base_path, &blen);
    if (!base) {
        snprintf(err, errlen, "cannot read %s", has_w ? wp : base_path);
        return NULL;
    }
    if (!has_r) {
        *len = blen;
        return base;
    }
    char *cs = wb_read_file(rp, &clen), *text = NULL, why[300] = "cannot read it";
    if (!cs || !(text = splice_case(base, blen, cs, clen, sp->root, why, sizeof why)))
        snprintf(err, errlen, "%s: %s (base %s)", rp, why, base_path);
    free(cs);
    free(base);
    if (text) *len = strlen(text);
    return text;
}

/* Writes one case; 0, or -1 with the reason printed. */
static int generate_one(const suite_place *sp, const char *name, json_t *e)
{
    const char *base = json_string_value(json_object_get(e, "base"));
    char bp[PATH_MAX], err[PATH_MAX + 300], path[PATH_MAX];
    if (base && strcmp(base, "starter") && strcmp(base, "reference")) {
        fprintf(stderr, "case-gen: %s/%s: base must be \"starter\" or \"reference\", not \"%s\"\n", sp->dir, name, base);
        return -1;
    }
    int starter = base && !strcmp(base, "starter");
    if (base_file(sp, starter ? "chapters" : "solutions", bp, sizeof bp)) {
        fprintf(stderr, "case-gen: %s/%s: its base has no file (%s/%s/%s/*.cu)\n", sp->dir, name, sp->workbook,
                starter ? "chapters" : "solutions", sp->chapter);
        return -1;
    }
    size_t len;
    char *text = case_text(sp, name, bp, &len, err, sizeof err);
    if (!text) {
        fprintf(stderr, "case-gen: %s\n", err);
        return -1;
    }
    snprintf(path, sizeof path, "%s/ch%d/%s/chapters/%s", sp->out, atoi(sp->chapter), name, sp->chapter);
    gr_mkdirs(path, 0755);
    snprintf(path + strlen(path), sizeof path - strlen(path), "/%s", strrchr(bp, '/') + 1);
    int rc = gr_write_file(path, text, len);
    if (rc) fprintf(stderr, "case-gen: cannot write %s\n", path);
    else printf("%s\n", path);
    free(text);
    return rc ? -1 : 0;
}

/* Every case of one chapter's suite folder; nonzero if any failed. */
static int generate_suite(const char *expected, const char *out, const char *root)
{
    char dir[PATH_MAX], chapter[PATH_MAX];
    snprintf(dir, sizeof dir, "%.*s", (int)(strrchr(expected, '/') - expected), expected);
    snprintf(chapter, sizeof chapter, "%.*s", (int)(strrchr(dir, '/') - dir), dir);
    json_error_t je;
    json_t *doc = json_load_file(expected, 0, &je), *cases = json_object_get(doc, "cases"), *e;
    if (!json_is_object(cases)) {
        fprintf(stderr, "case-gen: %s: %s\n", expected, doc ? "no \"cases\" object" : je.text);
        json_decref(doc);
        return 1;
    }
    const char *wb = json_string_value(json_object_get(doc, "workbook"));
    suite_place sp = {dir, strrchr(chapter, '/') + 1, wb ? wb : ".", out, root};
    const char *name;
    int bad = 0;
    json_object_foreach(cases, name, e) bad |= generate_one(&sp, name, e) != 0;
    json_decref(doc);
    return bad;
}

int main(int argc, char **argv)
{
    char root[PATH_MAX], out[PATH_MAX], pat[PATH_MAX];
    if (argc < 2 || argc > 3 || argv[1][0] == '-' || strchr(argv[1], '/')) {
        fprintf(stderr, "usage: case-gen SUITE [OUT_DIR]   (SUITE: a folder name under tests/cases/NN-name/)\n");
        return 2;
    }
    if (!getcwd(root, sizeof root) || !gr_is_dir("tests/cases")) {
        fprintf(stderr, "case-gen: run me from the workbook's root, with its tests/cases/\n");
        return 2;
    }
    snprintf(out, sizeof out, "%s", argc > 2 ? argv[2] : "build/cases/");
    if (argc < 3) snprintf(out + strlen(out), sizeof out - strlen(out), "%s", argv[1]);
    snprintf(pat, sizeof pat, "tests/cases/[0-9]*-*/%s/expected.json", argv[1]);
    glob_t g;
    if (glob(pat, 0, NULL, &g) != 0) {
        fprintf(stderr, "case-gen: no suite %s (no %s)\n", argv[1], pat);
        return 2;
    }
    int bad = 0;
    for (size_t i = 0; i < g.gl_pathc; i++) bad |= generate_suite(g.gl_pathv[i], out, root);
    globfree(&g);
    return bad;
}
