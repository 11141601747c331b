#define _GNU_SOURCE 1
#include "similarity.h"

#include "report.h"
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

/* The pairs of one `sim_c -p` run at or above threshold, into a JSON array ({a, b, percent}); pairs
 * seen twice (both directions) keep the higher percentage. An index by "a\nb" finds a pair seen before: a
 * class of 500 alike has 124,750 pairs. */
static json_t *parse_pairs(const char *text, int threshold)
{
    json_t *pairs = json_array(), *index = json_object();
    char *copy = strdup(text), *save = NULL;
    for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        char a[PATH_MAX], b[PATH_MAX], fa[256], fb[256], key[520];
        int pct;
        if (gr_sim_parse_line(l, a, sizeof a, b, sizeof b, &pct) || pct < threshold) continue;
        folder_of(a, fa, sizeof fa);
        folder_of(b, fb, sizeof fb);
        const char *lo = strcmp(fa, fb) > 0 ? fb : fa, *hi = lo == fa ? fb : fa;
        snprintf(key, sizeof key, "%s\n%s", lo, hi);
        json_t *seen = json_object_get(index, key);
        if (!seen) {
            seen = json_pack("{s:s, s:s, s:i}", "a", lo, "b", hi, "percent", pct);
            json_array_append_new(pairs, seen);
            json_object_set(index, key, seen);
        } else if (pct > json_integer_value(json_object_get(seen, "percent"))) {
            json_object_set_new(seen, "percent", json_integer(pct));
        }
    }
    json_decref(index);
    free(copy);
    return pairs;
}

/* A pair by its percent, for the order in which pairs join groups. */
typedef struct {
    int pct;
    size_t pair;
} gr_sim_edge;

static int edge_by_percent(const void *x, const void *y)
{
    const gr_sim_edge *a = x, *b = y;
    if (a->pct != b->pct) return b->pct - a->pct;
    return a->pair < b->pair ? -1 : a->pair > b->pair;
}

/* Names as people sort them: ref2 before ref10 (strverscmp). */
static int by_name(const void *x, const void *y)
{
    return strverscmp(*(const char *const *)x, *(const char *const *)y);
}

/* The group of i: where parent[] leads (halving the path as it goes). */
static int uf_root(int *parent, int i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

/* The index of folder in names (added where new); names holds 2 x pairs at most. */
static int student_index(json_t *names, const char *folder)
{
    json_t *at = json_object_get(names, folder);
    if (at) return (int)json_integer_value(at);
    int k = (int)json_object_size(names);
    json_object_set_new(names, folder, json_integer(k));
    return k;
}

json_t *gr_sim_groups(json_t *pairs)
{
    size_t n = json_array_size(pairs), i;
    gr_sim_edge *e = calloc(n + 1, sizeof *e);
    int *parent = calloc(2 * n + 1, sizeof *parent), *end = calloc(2 * n + 1, sizeof *end);
    int *group = calloc(2 * n + 1, sizeof *group); /* a root's group: its index + 1 */
    int *count = calloc(n + 1, sizeof *count);     /* a group's pairs */
    json_t *names = json_object(), *q;
    json_array_foreach(pairs, i, q)
    {
        e[i] = (gr_sim_edge){(int)json_integer_value(json_object_get(q, "percent")), i};
        end[2 * i] = student_index(names, json_string_value(json_object_get(q, "a")));
        end[2 * i + 1] = student_index(names, json_string_value(json_object_get(q, "b")));
    }
    for (size_t k = 0; k < 2 * n; k++) parent[k] = (int)k;
    qsort(e, n, sizeof *e, edge_by_percent);
    for (size_t k = 0; k < n; k++) {
        int ra = uf_root(parent, end[2 * e[k].pair]), rb = uf_root(parent, end[2 * e[k].pair + 1]);
        json_object_set_new(json_array_get(pairs, e[k].pair), "shown", json_boolean(ra != rb));
        parent[ra] = rb;
    }
    json_t *groups = json_array();
    json_array_foreach(pairs, i, q)
    {
        int r = uf_root(parent, end[2 * i]);
        if (!group[r]) {
            json_array_append_new(groups, json_pack("{s:[]}", "students"));
            group[r] = (int)json_array_size(groups);
        }
        json_object_set_new(q, "group", json_integer(group[r] - 1));
        count[group[r] - 1]++;
    }
    const char *folder, **sorted = calloc(json_object_size(names) + 1, sizeof *sorted);
    json_t *at;
    size_t m = 0;
    json_object_foreach(names, folder, at) sorted[m++] = folder;
    qsort(sorted, m, sizeof *sorted, by_name); /* each group's students by name */
    for (size_t k = 0; k < m; k++) {
        int r = uf_root(parent, (int)json_integer_value(json_object_get(names, sorted[k])));
        json_t *g = json_array_get(groups, (size_t)group[r] - 1);
        json_array_append_new(json_object_get(g, "students"), json_string(sorted[k]));
    }
    free(sorted);
    json_array_foreach(groups, i, q) json_object_set_new(q, "pairs", json_integer(count[i]));
    json_decref(names);
    free(e);
    free(parent);
    free(end);
    free(group);
    free(count);
    return groups;
}

/* sim_c's side-by-side listing of what pair q's a and b share (run length at least sim_c's default). */
static json_t *passages(const char *dir, const json_t *q)
{
    char pa[PATH_MAX], pb[PATH_MAX];
    snprintf(pa, sizeof pa, "%s/%s.cu", dir, json_string_value(json_object_get(q, "a")));
    snprintf(pb, sizeof pb, "%s/%s.cu", dir, json_string_value(json_object_get(q, "b")));
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

/* The pairs of a sim_c run (parse_pairs), NULL when it fails. */
static json_t *sim_pairs(char *const *argv, int threshold)
{
    gr_str out = {0};
    json_t *pairs = gr_tool_run(argv, NULL, &out, NULL, 300) ? NULL : parse_pairs(gr_str_c(&out), threshold);
    gr_str_free(&out);
    return pairs;
}

/* One chapter: pairs among students, and students against the reference's regions. */
static json_t *chapter(const gr_config *x, const gr_chapter_rubric *ch, const char *subs, const gr_roster_entry *e, int n,
                       int threshold)
{
    char dir[PATH_MAX], tmp[PATH_MAX], pristine[PATH_MAX], sol[PATH_MAX], pct_arg[16];
    snprintf(dir, sizeof dir, "%s/.similarity/ch%d", x->out, ch->number);
    snprintf(tmp, sizeof tmp, "%s/.similarity/unpacked", x->out);
    gr_rmtree(dir);
    gr_mkdirs(dir, 0755);
    gr_mkdirs(tmp, 0755);
    size_t plen, rlen;
    char *pr = gr_pristine_path(x, ch, pristine, sizeof pristine) ? gr_read_capped(pristine, 4u << 20, &plen) : NULL;
    json_t *o = json_pack("{s:i, s:[], s:[], s:[], s:i}", "number", ch->number, "pairs", "groups", "reference",
                          "compared", 0);
    if (!pr) return o;
    /* the students' files after sim_c's options (5 words here, 4 against the reference) */
    char **argv = calloc((size_t)n + 16, sizeof *argv), **files = argv + 5;
    int k = 0;
    for (int i = 0; i < n; i++) {
        char sub[PATH_MAX], dst[PATH_MAX], why[300], tree[PATH_MAX]; /* the entry, or its archive unpacked */
        snprintf(sub, sizeof sub, "%s/%s", subs, e[i].entry);
        snprintf(dst, sizeof dst, "%s/%s", tmp, e[i].folder);
        gr_rmtree(dst);
        if (!gr_sub_folder(sub, dst, tree, why, sizeof why) && stage_one(ch, tree, e[i].folder, dir, pr, plen) &&
            asprintf(&files[k], "%s/%s.cu", dir, e[i].folder) >= 0)
            k++;
    }
    json_object_set_new(o, "compared", json_integer(k));
    snprintf(pct_arg, sizeof pct_arg, "-t%d", threshold);
    char *among[] = {"sim_c", "-p", "-e", "-s", pct_arg}, *against[] = {"sim_c", "-p", "-S", pct_arg};
    memcpy(argv, among, sizeof among);
    json_t *pairs = k >= 2 ? sim_pairs(argv, threshold) : NULL, *q;
    size_t i;
    if (pairs) json_object_set_new(o, "groups", gr_sim_groups(pairs));
    json_array_foreach(pairs, i, q) if (json_is_true(json_object_get(q, "shown")))
        json_object_set_new(q, "passages", passages(dir, q));
    if (pairs) json_object_set_new(o, "pairs", pairs);
    /* against the reference solution's regions: old files after "/" (sim_c -p -S -tN students… / reference) */
    snprintf(sol, sizeof sol, "%s/solutions/%s/%s", x->root, ch->dir, ch->file);
    char *rt = gr_read_capped(sol, 4u << 20, &rlen), *mine = rt ? gr_sim_regions(rt, rlen, pr, plen) : NULL, refp[PATH_MAX];
    snprintf(refp, sizeof refp, "%s/.similarity/ch%d-reference.cu", x->out, ch->number);
    if (mine && *mine && k > 0 && !gr_write_file(refp, mine, strlen(mine))) {
        memcpy(argv + 1, against, sizeof against);
        files[k] = "/";
        files[k + 1] = refp;
        pairs = sim_pairs(argv + 1, threshold);
        json_t *ref = pairs ? json_array() : NULL;
        char refname[32];
        snprintf(refname, sizeof refname, "ch%d-reference", ch->number);
        json_array_foreach(pairs, i, q)
        {
            const char *a = json_string_value(json_object_get(q, "a")), *b = json_string_value(json_object_get(q, "b"));
            const char *who = !strcmp(a, refname) ? b : a;
            json_t *pct = json_object_get(q, "percent");
            json_array_append_new(ref, json_pack("{s:s, s:O}", "student", who, "percent", pct));
        }
        if (ref) json_object_set_new(o, "reference", ref);
        json_decref(pairs);
    }
    for (int f = 0; f < k; f++) free(files[f]);
    free(argv);
    free(rt);
    free(mine);
    free(pr);
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
