/* similarity.c — see similarity.h. */
#define _GNU_SOURCE 1
#include "similarity.h"

#include "gr_archive.h"
#include "jsonfield.h"
#include "roster.h"
#include "submission.h"
#include "tool.h"

char *gr_sim_regions(const char *student, size_t slen, const char *pristine, size_t plen)
{
    wb_region s[64], p[64];
    char err[200];
    int ns = wb_regions_parse(student, slen, s, 64, err, sizeof err), np = wb_regions_parse(pristine, plen, p, 64, err, sizeof err);
    if (ns < 0 || np < 0) return NULL;
    gr_str out = {0};
    gr_str_add(&out, "");
    for (int i = 0; i < ns && i < 64; i++) {
        size_t n = s[i].end - s[i].begin;
        int same = 0;
        for (int k = 0; k < np && k < 64; k++)
            same |= !strcmp(s[i].name, p[k].name) && p[k].end - p[k].begin == n && !memcmp(student + s[i].begin, pristine + p[k].begin, n);
        if (same) continue;
        gr_str_addf(&out, "/* region %s */\n", s[i].name);
        gr_str_addn(&out, student + s[i].begin, n);
    }
    return out.s;
}

int gr_sim_parse_line(const char *line, char *a, size_t alen, char *b, size_t blen, int *pct)
{
    const char *k = strstr(line, " consists for "), *m = k ? strstr(k, " % of ") : NULL;
    const char *end = m ? strstr(m, " material") : NULL;
    if (!end || k == line) return -1;
    char *e;
    long v = strtol(k + 14, &e, 10);
    if (e == k + 14 || v < 0 || v > 100) return -1;
    snprintf(a, alen, "%.*s", (int)(k - line), line);
    snprintf(b, blen, "%.*s", (int)(end - (m + 6)), m + 6);
    *pct = (int)v;
    return 0;
}

/* The file name sim_c reports, back to the student's folder: ".../ch9/<folder>.cu" -> "<folder>". */
static void folder_of(const char *path, char *out, size_t len)
{
    const char *b = strrchr(path, '/');
    snprintf(out, len, "%s", b ? b + 1 : path);
    char *dot = strrchr(out, '.');
    if (dot) *dot = 0;
}

/* Writes what sim_c compares for one student and chapter into dir/<folder>.cu; 1 if there is something. */
static int stage_one(const gr_chapter_rubric *ch, const char *sub, const char *folder, const char *dir,
                     const char *pristine, size_t plen)
{
    char file[PATH_MAX], p[PATH_MAX];
    size_t slen;
    if (!gr_find_student_file(sub, ch, file, sizeof file, 0)) return 0;
    char *text = gr_read_capped(file, 4u << 20, &slen);
    char *mine = text ? gr_sim_regions(text, slen, pristine, plen) : NULL;
    int some = mine && *mine;
    snprintf(p, sizeof p, "%s/%s.cu", dir, folder);
    if (some) some = gr_write_file(p, mine, strlen(mine)) == 0;
    free(text);
    free(mine);
    return some;
}

/* The entry's folder to read: itself, or its archive unpacked under tmp. "" when it cannot be read. */
static void entry_tree(const char *subs, const gr_roster_entry *e, const char *tmp, char *out, size_t len)
{
    snprintf(out, len, "%s/%s", subs, e->entry);
    if (!e->is_archive) return;
    char dst[PATH_MAX], why[300];
    snprintf(dst, sizeof dst, "%s/%s", tmp, e->folder);
    gr_rmtree(dst);
    if (gr_archive_extract(out, dst, NULL, why, sizeof why)) out[0] = 0;
    else snprintf(out, len, "%s", dst);
}

/* The pairs of one `sim_c -p` run at or above threshold, into a JSON array ({a, b, percent}); pairs
 * seen twice (both directions) keep the higher percentage. */
static json_t *parse_pairs(const char *text, int threshold)
{
    json_t *pairs = json_array();
    char *copy = strdup(text), *save = NULL;
    for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        char a[PATH_MAX], b[PATH_MAX], fa[256], fb[256];
        int pct;
        if (gr_sim_parse_line(l, a, sizeof a, b, sizeof b, &pct) || pct < threshold) continue;
        folder_of(a, fa, sizeof fa), folder_of(b, fb, sizeof fb);
        if (strcmp(fa, fb) > 0) {
            char t[256];
            snprintf(t, sizeof t, "%s", fa), snprintf(fa, sizeof fa, "%s", fb), snprintf(fb, sizeof fb, "%s", t);
        }
        size_t i;
        json_t *q;
        int seen = 0;
        json_array_foreach(pairs, i, q) if (!strcmp(json_string_value(json_object_get(q, "a")), fa) &&
                                            !strcmp(json_string_value(json_object_get(q, "b")), fb))
        {
            seen = 1;
            if (pct > json_integer_value(json_object_get(q, "percent"))) json_object_set_new(q, "percent", json_integer(pct));
        }
        if (!seen) json_array_append_new(pairs, json_pack("{s:s, s:s, s:i}", "a", fa, "b", fb, "percent", pct));
    }
    free(copy);
    return pairs;
}

/* sim_c's side-by-side listing of what a and b share (run length at least sim_c's default). */
static json_t *passages(const char *dir, const char *a, const char *b)
{
    char pa[PATH_MAX], pb[PATH_MAX];
    snprintf(pa, sizeof pa, "%s/%s.cu", dir, a);
    snprintf(pb, sizeof pb, "%s/%s.cu", dir, b);
    char *argv[] = {"sim_c", "-T", "-w", "160", pa, pb, NULL};
    gr_str out = {0};
    gr_tool_run(argv, NULL, &out, NULL, 60);
    /* drop sim_c's own header lines ("File ...", "Total input ...") and the folder paths */
    gr_str keep = {0};
    gr_str_add(&keep, "");
    char *save = NULL, *copy = strdup(gr_str_c(&out));
    for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (!strncmp(l, "File ", 5) || !strncmp(l, "Total input", 11)) continue;
        for (char *p; (p = strstr(l, dir)) && p[strlen(dir)] == '/';) memmove(p, p + strlen(dir) + 1, strlen(p + strlen(dir) + 1) + 1);
        gr_str_addf(&keep, "%s\n", l);
    }
    free(copy);
    gr_str_free(&out);
    json_t *j = gr_jstr(keep.len > 20000 ? "(passages too long to show; run sim_c on the files in .similarity/)" : gr_str_c(&keep));
    gr_str_free(&keep);
    return j;
}

/* One chapter: pairs among students, and students against the reference's regions. */
static json_t *chapter(const gr_config *x, const gr_chapter_rubric *ch, const char *subs, const gr_roster_entry *e, int n,
                       int threshold)
{
    char dir[PATH_MAX], tmp[PATH_MAX], pristine[PATH_MAX], sol[PATH_MAX], pct_arg[16];
    snprintf(dir, sizeof dir, "%s/.similarity/ch%d", x->out, ch->number);
    snprintf(tmp, sizeof tmp, "%s/.similarity/unpacked", x->out);
    gr_rmtree(dir);
    gr_mkdirs(dir, 0755), gr_mkdirs(tmp, 0755);
    size_t plen, rlen;
    char *pr = gr_pristine_path(x, ch, pristine, sizeof pristine) ? gr_read_capped(pristine, 4u << 20, &plen) : NULL;
    json_t *o = json_pack("{s:i, s:[], s:[], s:i}", "number", ch->number, "pairs", "reference", "compared", 0);
    if (!pr) return o;
    char **argv = calloc((size_t)n + 16, sizeof *argv);
    int k = 0;
    snprintf(pct_arg, sizeof pct_arg, "-t%d", threshold);
    argv[k++] = "sim_c", argv[k++] = "-p", argv[k++] = "-e", argv[k++] = "-s", argv[k++] = pct_arg;
    int first = k;
    for (int i = 0; i < n; i++) {
        char tree[PATH_MAX];
        entry_tree(subs, &e[i], tmp, tree, sizeof tree);
        if (tree[0] && stage_one(ch, tree, e[i].folder, dir, pr, plen) &&
            asprintf(&argv[k], "%s/%s.cu", dir, e[i].folder) >= 0)
            k++;
    }
    json_object_set_new(o, "compared", json_integer(k - first));
    gr_str out = {0};
    if (k - first >= 2 && gr_tool_run(argv, NULL, &out, NULL, 300) == 0) {
        json_t *pairs = parse_pairs(gr_str_c(&out), threshold), *q;
        size_t i;
        json_array_foreach(pairs, i, q) json_object_set_new(q, "passages", passages(dir, json_string_value(json_object_get(q, "a")),
                                                                                  json_string_value(json_object_get(q, "b"))));
        json_object_set_new(o, "pairs", pairs);
    }
    gr_str_free(&out);
    /* against the reference solution's regions: old files after "/" (sim_c -S) */
    snprintf(sol, sizeof sol, "%s/solutions/%s/%s", x->root, ch->dir, ch->file);
    char *rt = gr_read_capped(sol, 4u << 20, &rlen), *mine = rt ? gr_sim_regions(rt, rlen, pr, plen) : NULL, refp[PATH_MAX];
    snprintf(refp, sizeof refp, "%s/.similarity/ch%d-reference.cu", x->out, ch->number);
    if (mine && *mine && k > first && !gr_write_file(refp, mine, strlen(mine))) {
        /* sim_c -p -S -tN students... / reference: each student against the reference only */
        char **a2 = calloc((size_t)n + 16, sizeof *a2);
        int m = 0;
        a2[m++] = "sim_c", a2[m++] = "-p", a2[m++] = "-S", a2[m++] = pct_arg;
        for (int i = first; i < k; i++) a2[m++] = argv[i];
        a2[m++] = "/", a2[m++] = refp;
        gr_str ro = {0};
        if (gr_tool_run(a2, NULL, &ro, NULL, 300) == 0) {
            json_t *pairs = parse_pairs(gr_str_c(&ro), threshold), *q, *ref = json_array();
            char refname[32];
            snprintf(refname, sizeof refname, "ch%d-reference", ch->number);
            size_t i;
            json_array_foreach(pairs, i, q)
            {
                const char *a = json_string_value(json_object_get(q, "a")), *b = json_string_value(json_object_get(q, "b"));
                const char *who = !strcmp(a, refname) ? b : a;
                json_array_append_new(ref, json_pack("{s:s, s:O}", "student", who, "percent", json_object_get(q, "percent")));
            }
            json_decref(pairs);
            json_object_set_new(o, "reference", ref);
        }
        gr_str_free(&ro);
        free(a2);
    }
    for (int i = first; i < k; i++) free(argv[i]);
    free(argv), free(rt), free(mine), free(pr);
    return o;
}

int gr_similarity(const gr_config *x, const char *subs, int threshold)
{
    char p[PATH_MAX], why[600], tool[PATH_MAX];
    snprintf(p, sizeof p, "%s/similarity.json", x->out);
    json_t *root = json_pack("{s:s, s:i, s:[]}", "tool", "sim_c (similarity-tester)", "threshold", threshold, "chapters");
    int n = 0;
    gr_roster_entry *e = NULL;
    if (!gr_which("sim_c", tool, sizeof tool))
        json_object_set_new(root, "unavailable", json_string("sim_c is not installed (apt-get install similarity-tester)"));
    else if (!(e = gr_roster_scan(subs, &n, why, sizeof why)))
        json_object_set_new(root, "unavailable", gr_jstr(why));
    for (int c = 0; e && c < x->rub.n_ch; c++)
        if (!x->only_ch || x->rub.ch[c].number == x->only_ch)
            json_array_append_new(json_object_get(root, "chapters"), chapter(x, &x->rub.ch[c], subs, e, n, threshold));
    free(e);
    snprintf(why, sizeof why, "%s/.similarity/unpacked", x->out);
    gr_rmtree(why);
    int rc = json_dump_file(root, p, JSON_INDENT(2));
    json_decref(root);
    return rc ? -1 : 0;
}
