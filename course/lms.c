/* lms.c — see lms.h. The CSV is read with libcsv, Gradescope's metadata with libyaml, the entries'
 * names by POSIX regular expressions. */
#define _GNU_SOURCE 1
#include "lms.h"

#include <csv.h>
#include <ctype.h>
#include <jansson.h>
#include <regex.h>
#include <yaml.h>

#include "gr_archive.h"
#include "gr_util.h"
#include "report.h"
#include "roster.h"

/* Each layout (gr_lms_kind): its --lms word and, where a download names its entries (Canvas, Moodle), their
 * regular expression and its groups of the name, the late mark (0: none), the LMS id and the file. */
static const struct {
    const char *word, *re;
    int name, late, id, file;
} layouts[] = {
    [GR_LMS_PLAIN] = {"plain", NULL, 0, 0, 0, 0},
    /* lastfirst[_LATE]_<user id>_<attachment id>_<file name>: the name part never holds '_' */
    [GR_LMS_CANVAS] = {"canvas", "^([^_]+)(_[Ll][Aa][Tt][Ee])?_([0-9]+)_([0-9]+)_(.+)$", 1, 2, 3, 5},
    [GR_LMS_MOODLE] = {"moodle", "^(.+)_([0-9]+)_assignsubmission_(file|onlinetext)_(.*)$", 1, 0, 2, 4},
    [GR_LMS_GRADESCOPE] = {"gradescope", NULL, 0, 0, 0, 0},
};

int gr_lms_parse_kind(const char *s)
{
    if (!s || !*s || !strcmp(s, "auto")) return -2;
    for (int k = 0; k <= GR_LMS_GRADESCOPE; k++)
        if (!strcmp(s, layouts[k].word)) return k;
    return -1;
}

static void grab(const char *s, const regmatch_t *m, char *out, size_t len)
{
    snprintf(out, len, "%.*s", m->rm_so < 0 ? 0 : (int)(m->rm_eo - m->rm_so), s + (m->rm_so < 0 ? 0 : m->rm_so));
}

static int match(const char *re, const char *s, regmatch_t *m, size_t nm)
{
    regex_t r;
    if (regcomp(&r, re, REG_EXTENDED)) return -1;
    int rc = regexec(&r, s, nm, m, 0);
    regfree(&r);
    return rc ? -1 : 0;
}

int gr_lms_parse_name(gr_lms_kind kind, const char *entry, gr_lms_file *out)
{
    regmatch_t m[6];
    memset(out, 0, sizeof *out);
    if (!layouts[kind].re || match(layouts[kind].re, entry, m, 6)) return -1;
    grab(entry, &m[layouts[kind].name], out->name, sizeof out->name);
    grab(entry, &m[layouts[kind].id], out->id, sizeof out->id);
    grab(entry, &m[layouts[kind].file], out->file, sizeof out->file);
    out->late = layouts[kind].late && m[layouts[kind].late].rm_so >= 0;
    return 0;
}

void gr_lms_canvas_original(const char *file, const char *const *want, int n, char *out, size_t len)
{
    snprintf(out, len, "%s", file);
    regmatch_t m[4];
    if (match("^(.+)-[0-9]+(\\.[^.]+)$", file, m, 4)) return;
    char cand[320]; /* the name less Canvas's "-<n>" */
    snprintf(cand, sizeof cand, "%.*s%s", (int)m[1].rm_eo, file, file + m[2].rm_so);
    for (int i = 0; i < n; i++)
        if (!strcmp(cand, want[i])) snprintf(out, len, "%s", cand);
}

gr_lms_kind gr_lms_detect(const char *subs, char *root, size_t len)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/submission_metadata.yml", subs);
    int top = gr_is_file(p), below = 0, n = 0, named[GR_LMS_MOODLE + 1] = {0};
    DIR *d = opendir(subs);
    struct dirent *e;
    gr_lms_file f;
    snprintf(root, len, "%s", subs);
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        n++;
        for (int k = GR_LMS_CANVAS; k <= GR_LMS_MOODLE; k++) named[k] += !gr_lms_parse_name(k, e->d_name, &f);
        snprintf(p, sizeof p, "%s/%s/submission_metadata.yml", subs, e->d_name);
        if (!top && gr_is_file(p)) {
            below = 1;
            snprintf(root, len, "%s/%s", subs, e->d_name);
        }
    }
    if (d) closedir(d);
    if (top || below) return GR_LMS_GRADESCOPE;
    for (int k = GR_LMS_MOODLE; n && k >= GR_LMS_CANVAS; k--) /* a name of both forms is Moodle's */
        if (named[k] == n) return (gr_lms_kind)k;
    return GR_LMS_PLAIN;
}

/* ---------------------------------------------------------------- the roster */
typedef struct {
    gr_person *rows;
    int n, cap, col, line, named; /* named: the header names a column besides the section */
    int map[32];                  /* column -> fields[] row (-1: ignored) */
    gr_person cur;
} roster_state;

#define FIELD(f) offsetof(gr_person, f), sizeof((gr_person *)0)->f

/* Each field of a roster row, and the headers (case-folded) that name its column. */
static const struct {
    size_t off, len;
    const char *headers[6];
} fields[] = {
    {FIELD(id), {"id", "student id", "student_id", "user id", "identifier", "lms id"}},
    {FIELD(sid), {"sid", "sis user id", "student number"}},
    {FIELD(login), {"sis login id", "login", "username"}},
    {FIELD(name), {"name", "student", "full name"}},
    {FIELD(email), {"email", "email address", "e-mail"}},
    {FIELD(section), {"section", "sections"}},
};

static void trim_copy(char *dst, size_t len, const char *src, size_t n)
{
    while (n && isspace((unsigned char)*src)) src++, n--;
    while (n && isspace((unsigned char)src[n - 1])) n--;
    snprintf(dst, len, "%.*s", (int)n, src);
}

static void on_field(void *s, size_t n, void *data)
{
    roster_state *st = data;
    char v[512];
    trim_copy(v, sizeof v, s ? s : "", s ? n : 0);
    if (st->line == 0 && st->col < 32) {
        const char *h = st->col == 0 && !strncmp(v, "\xef\xbb\xbf", 3) ? v + 3 : v; /* a byte-order mark */
        for (int f = 0; f < (int)(sizeof fields / sizeof fields[0]); f++)
            for (int k = 0; k < 6 && fields[f].headers[k]; k++)
                if (!strcasecmp(h, fields[f].headers[k])) st->map[st->col] = f;
        st->named |= st->map[st->col] >= 0 && fields[st->map[st->col]].off != offsetof(gr_person, section);
    } else if (st->col < 32 && st->map[st->col] >= 0) {
        size_t off = fields[st->map[st->col]].off;
        /* Moodle's worksheet says "Participant 123456" */
        int skip = off == offsetof(gr_person, id) && !strncasecmp(v, "Participant ", 12) ? 12 : 0;
        snprintf((char *)&st->cur + off, fields[st->map[st->col]].len, "%s", v + skip);
    }
    st->col++;
}

static void on_row(int c, void *data)
{
    (void)c;
    roster_state *st = data;
    gr_person *p = &st->cur;
    /* not the header; Canvas's export has a "Points Possible" row and a test student: neither is a person */
    if (st->line++ > 0 && (p->id[0] || p->sid[0] || p->login[0] || p->name[0] || p->email[0]) &&
        strcmp(p->name, "Points Possible") && strcmp(p->name, "Student, Test")) {
        if (st->n == st->cap) {
            st->rows = realloc(st->rows, (size_t)(st->cap = st->cap ? 2 * st->cap : 64) * sizeof *st->rows);
            if (!st->rows) abort(); /* out of memory: as gr_util's allocations */
        }
        st->rows[st->n++] = *p;
    }
    memset(&st->cur, 0, sizeof st->cur);
    st->col = 0;
}

gr_person *gr_lms_roster_read(const char *path, int *n, char *why, size_t len)
{
    size_t sz;
    char *text = gr_read_capped(path, 16u << 20, &sz);
    *n = 0;
    if (!text) {
        snprintf(why, len, "cannot read the roster %s", path);
        return NULL;
    }
    struct csv_parser p;
    roster_state st = {0};
    memset(st.map, -1, sizeof st.map); /* a column the header does not name is ignored */
    csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL);
    int ok = csv_parse(&p, text, sz, on_field, on_row, &st) == sz && csv_fini(&p, on_field, on_row, &st) == 0;
    if (!ok) snprintf(why, len, "the roster %s is not valid CSV: %s", path, csv_strerror(csv_error(&p)));
    csv_free(&p);
    free(text);
    if (ok && !st.named) snprintf(why, len, "the roster %s names no id, name or email column in its first row", path);
    else if (ok) {
        *n = st.n;
        return st.rows ? st.rows : calloc(1, sizeof(gr_person));
    }
    free(st.rows);
    return NULL;
}

/* Letters and digits of s, lower-cased (ASCII; other bytes kept as they are). */
static void fold(const char *s, char *out, size_t len)
{
    size_t k = 0;
    for (; *s && k + 1 < len; s++)
        if (isalnum((unsigned char)*s) || (unsigned char)*s >= 0x80) out[k++] = (char)tolower((unsigned char)*s);
    out[k] = 0;
}

/* The keys a name is matched by, folded: a, the name as it is ("Last, First" and Canvas's "lastfirst" agree);
 * b, for "First Last", "Last First" (else ""). */
static void name_keys(const char *name, char *a, char *b, size_t len)
{
    char x[512];
    const char *sp = strrchr(name, ' ');
    fold(name, a, len);
    b[0] = 0;
    if (!sp || strchr(name, ',')) return;
    snprintf(x, sizeof x, "%s %.*s", sp + 1, (int)(sp - name), name);
    fold(x, b, len);
}

int gr_lms_roster_match(const gr_person *roster, int n, const gr_person *who)
{
    for (int i = 0; i < n; i++) {
        const gr_person *r = &roster[i];
        if ((who->id[0] && (!strcmp(who->id, r->id) || !strcmp(who->id, r->sid) || !strcmp(who->id, r->login))) ||
            (who->sid[0] && (!strcmp(who->sid, r->sid) || !strcmp(who->sid, r->id))) ||
            (who->login[0] && !strcmp(who->login, r->login)) ||
            (who->email[0] && (!strcasecmp(who->email, r->email) || !strcasecmp(who->email, r->login))))
            return i;
    }
    char wa[256], wb[256];
    name_keys(who->name, wa, wb, sizeof wa);
    for (int i = 0; i < n && wa[0]; i++) {
        char ra[256], rb[256];
        name_keys(roster[i].name, ra, rb, sizeof ra);
        if (!strcmp(wa, ra) || (rb[0] && !strcmp(wa, rb)) || (wb[0] && !strcmp(wb, ra))) return i;
    }
    return -1;
}

/* ---------------------------------------------------------------- staging */
typedef struct {
    char entry[256];      /* the staged entry's name: "<name>_<LMS id>" */
    gr_person people[8];  /* who handed it in (Gradescope groups: several) */
    int n_people, late, n_src;
    char src[8][PATH_MAX]; /* what is staged: files (Canvas, Moodle loose files) or one folder */
    char as[8][256];       /* the name each gets */
} staged_entry;

typedef struct {
    staged_entry *e;
    int n, cap;
} entry_list;

/* A new entry named entry, holding one person (id, name) unless both are NULL. */
static staged_entry *entry_add(entry_list *l, const char *entry, const char *id, const char *name)
{
    if (l->n == l->cap) {
        l->e = realloc(l->e, (size_t)(l->cap = l->cap ? 2 * l->cap : 32) * sizeof *l->e);
        if (!l->e) abort(); /* out of memory: as gr_util's allocations */
    }
    staged_entry *e = &l->e[l->n++];
    memset(e, 0, sizeof *e);
    snprintf(e->entry, sizeof e->entry, "%s", entry);
    if (id) {
        e->n_people = 1;
        snprintf(e->people[0].id, sizeof e->people[0].id, "%s", id);
        snprintf(e->people[0].name, sizeof e->people[0].name, "%s", name);
    }
    return e;
}

/* The entry "<name>_<id>", added when new: one person (that id and name), or none (one_person 0). */
static staged_entry *entry_for(entry_list *l, const char *name, const char *id, int one_person)
{
    char key[256];
    snprintf(key, sizeof key, "%s_%s", name, id);
    for (char *c = key; *c; c++)
        if (*c == '/') *c = '_';
    for (int i = 0; i < l->n; i++)
        if (!strcmp(l->e[i].entry, key)) return &l->e[i];
    return entry_add(l, key, one_person ? id : NULL, name);
}

static int add_src(staged_entry *e, const char *path, const char *as)
{
    if (e->n_src == 8) return -1;
    snprintf(e->src[e->n_src], PATH_MAX, "%s", path);
    snprintf(e->as[e->n_src++], 256, "%s", as);
    return 0;
}

/* Copies the tree src into dst (created); symbolic links are left out, as the grader refuses them. */
static int copy_tree(const char *src, const char *dst)
{
    if (gr_mkdirs(dst, 0755)) return -1;
    DIR *d = opendir(src);
    if (!d) return -1;
    struct dirent *de;
    int rc = 0;
    while (!rc && (de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
        char s[PATH_MAX], t[PATH_MAX];
        snprintf(s, sizeof s, "%s/%s", src, de->d_name);
        snprintf(t, sizeof t, "%s/%s", dst, de->d_name);
        struct stat st;
        if (lstat(s, &st)) continue;
        if (S_ISDIR(st.st_mode)) rc = copy_tree(s, t);
        else if (S_ISREG(st.st_mode)) rc = gr_copy_file(s, t);
    }
    closedir(d);
    return rc;
}

/* Canvas and Moodle: the loose files (or Moodle's folders) of subs grouped by LMS id. */
static int scan_named(const char *subs, gr_lms_kind kind, const char *const *want, int nw, entry_list *l, char *why,
                      size_t wlen)
{
    struct dirent **list;
    int n = scandir(subs, &list, NULL, alphasort);
    if (n < 0) return snprintf(why, wlen, "cannot read %s", subs), -1;
    int rc = 0;
    for (int i = 0; i < n; i++) {
        const char *nm = list[i]->d_name;
        gr_lms_file f;
        if (nm[0] != '.' && !rc && !gr_lms_parse_name(kind, nm, &f)) {
            staged_entry *e = entry_for(l, f.name, f.id, 1);
            char p[PATH_MAX], as[256];
            snprintf(p, sizeof p, "%s/%s", subs, nm);
            e->late |= f.late;
            if (kind == GR_LMS_CANVAS) gr_lms_canvas_original(f.file, want, nw, as, sizeof as);
            else snprintf(as, sizeof as, "%s", f.file);
            if (add_src(e, p, as)) rc = -1, snprintf(why, wlen, "%s handed in more than 8 files", f.name);
        }
        free(list[i]);
    }
    free(list);
    return rc;
}

/* A scalar's text, or "" (libyaml document API). */
static const char *yscalar(yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : "";
}

static yaml_node_t *yget(yaml_document_t *d, yaml_node_t *map, const char *key)
{
    if (!map || map->type != YAML_MAPPING_NODE) return NULL;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        const char *k = yscalar(yaml_document_get_node(d, p->key));
        if (!strcmp(k, key) || (k[0] == ':' && !strcmp(k + 1, key))) return yaml_document_get_node(d, p->value);
    }
    return NULL;
}

/* Gradescope: submission_metadata.yml maps each submission_<id> folder to its :submitters:. */
static int scan_gradescope(const char *subs, entry_list *l, char *why, size_t wlen)
{
    char root[PATH_MAX], meta[PATH_MAX];
    gr_lms_detect(subs, root, sizeof root);
    snprintf(meta, sizeof meta, "%s/submission_metadata.yml", root);
    FILE *f = fopen(meta, "rb");
    yaml_parser_t p;
    yaml_document_t d;
    if (!f || !yaml_parser_initialize(&p)) return snprintf(why, wlen, "cannot read %s", meta), f ? fclose(f) : 0, -1;
    yaml_parser_set_input_file(&p, f);
    int ok = yaml_parser_load(&p, &d);
    if (!ok) snprintf(why, wlen, "submission_metadata.yml is not valid YAML (line %zu: %s)", p.problem_mark.line + 1,
                      p.problem ? p.problem : "?");
    yaml_parser_delete(&p);
    fclose(f);
    if (!ok) return -1;
    yaml_node_t *top = yaml_document_get_root_node(&d);
    int rc = top && top->type == YAML_MAPPING_NODE ? 0 : -1;
    if (rc) snprintf(why, wlen, "submission_metadata.yml is not a mapping of submissions");
    for (yaml_node_pair_t *pr = rc ? NULL : top->data.mapping.pairs.start; pr && pr < top->data.mapping.pairs.top && !rc; pr++) {
        const char *folder = yscalar(yaml_document_get_node(&d, pr->key));
        yaml_node_t *subm = yaml_document_get_node(&d, pr->value), *who = yget(&d, subm, "submitters");
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", root, folder);
        if (strchr(folder, '/') || folder[0] == '.' || !gr_is_dir(path)) continue; /* listed but not exported */
        const char *id = strncmp(folder, "submission_", 11) ? folder : folder + 11;
        int seq = who && who->type == YAML_SEQUENCE_NODE;
        yaml_node_item_t *it = seq ? who->data.sequence.items.start : NULL;
        yaml_node_item_t *end = seq ? who->data.sequence.items.top : NULL;
        const char *first = it != end ? yscalar(yget(&d, yaml_document_get_node(&d, *it), "name")) : "submission";
        staged_entry *e = entry_for(l, first, id, 0);
        for (; it != end && e->n_people < 8; it++) {
            yaml_node_t *s = yaml_document_get_node(&d, *it);
            gr_person *q = &e->people[e->n_people++];
            snprintf(q->id, sizeof q->id, "%s", id);
            snprintf(q->name, sizeof q->name, "%s", yscalar(yget(&d, s, "name")));
            snprintf(q->sid, sizeof q->sid, "%s", yscalar(yget(&d, s, "sid")));
            snprintf(q->email, sizeof q->email, "%s", yscalar(yget(&d, s, "email")));
        }
        add_src(e, path, "");
    }
    yaml_document_delete(&d);
    return rc;
}

static json_t *person_json(const gr_person *p)
{
    return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "id", p->id, "sid", p->sid, "login", p->login, "name", p->name,
                     "email", p->email, "section", p->section);
}

/* The archive an entry is staged as: its one file, or the one archive its one folder holds alone (Moodle's
 * folder of a student who uploaded a .zip); "" if none. */
static void entry_archive(const staged_entry *e, char *out, size_t len)
{
    DIR *d = e->n_src == 1 ? opendir(e->src[0]) : NULL;
    int n = 0;
    struct dirent *de;
    snprintf(out, len, "%s", e->n_src == 1 ? e->src[0] : "");
    while (d && (de = readdir(d)))
        if (de->d_name[0] != '.' && ++n == 1) snprintf(out, len, "%s/%s", e->src[0], de->d_name);
    if (d) closedir(d);
    if ((d && n != 1) || !gr_is_file(out) || !gr_archive_is_archive(out)) out[0] = 0;
}

/* Writes one staged entry under dir (NULL: a plain layout, nothing staged); its final name (an archive keeps its
 * suffix) goes to name. */
static int materialize(const staged_entry *e, const char *dir, char *name, size_t len)
{
    char p[PATH_MAX], arc[PATH_MAX];
    entry_archive(e, arc, sizeof arc);
    snprintf(name, len, "%s%s", e->entry, gr_archive_suffix(arc));
    if (!dir) return 0;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    if (arc[0]) return gr_copy_file(arc, p);
    if (gr_mkdirs(p, 0755)) return -1;
    for (int i = 0; i < e->n_src; i++) {
        char t[PATH_MAX];
        snprintf(t, sizeof t, "%s/%s", p, e->as[i]);
        if (gr_is_dir(e->src[i]) ? copy_tree(e->src[i], e->as[i][0] ? t : p) : gr_copy_file(e->src[i], t)) return -1;
    }
    return 0;
}

/* A plain layout: every entry is a student as it is; the roster may still say who. */
static int scan_plain(const char *subs, entry_list *l, char *why, size_t wlen)
{
    int n;
    gr_roster_entry *r = gr_roster_scan(subs, &n, why, wlen);
    if (!r) return -1;
    for (int i = 0; i < n; i++) entry_add(l, r[i].entry, r[i].student, r[i].student);
    free(r);
    return 0;
}

/* The roster's cells where it has them (its name wins; section, email, SIS ids fill in), the LMS's id where given. */
static void merge_person(gr_person *p, const gr_person *r)
{
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
        char *to = (char *)p + fields[f].off;
        const char *v = (const char *)r + fields[f].off;
        if (*v && !(to == p->id && *to)) snprintf(to, fields[f].len, "%s", v);
    }
}

static json_t *entries_json(entry_list *l, const char *dir, gr_person *roster, int nr, char *used, char *why, size_t wlen)
{
    json_t *a = json_array();
    for (int i = 0; i < l->n; i++) {
        staged_entry *e = &l->e[i];
        char name[300];
        if (materialize(e, dir, name, sizeof name)) {
            snprintf(why, wlen, "could not stage %s's files under %s", e->entry, dir);
            json_decref(a);
            return NULL;
        }
        gr_roster_entry re;
        gr_roster_name(name, gr_archive_is_archive(name), &re);
        json_t *people = json_array();
        int in_roster = 0;
        for (int k = 0; k < e->n_people; k++) {
            int m = roster ? gr_lms_roster_match(roster, nr, &e->people[k]) : -1;
            /* a plain folder's name is no LMS id, only what it is matched by: the roster's id goes to Canvas */
            if (!dir) e->people[k].id[0] = 0;
            if (m >= 0) merge_person(&e->people[k], &roster[m]), used[m] = 1, in_roster = 1;
            json_array_append_new(people, person_json(&e->people[k]));
        }
        json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:b, s:b, s:o}", "entry", name, "student", re.student,
                                           "folder", re.folder, "late", e->late, "in_roster", in_roster, "people", people));
    }
    return a;
}

int gr_lms_stage(const char *subs, const char *out_dir, const char *roster, int kind, const char *const *file_names,
                 int n_files, char *staged, size_t slen, char *why, size_t wlen)
{
    if (kind == -2) kind = gr_lms_detect(subs, NULL, 0);
    int nr = 0;
    gr_person *rows = roster && *roster ? gr_lms_roster_read(roster, &nr, why, wlen) : NULL;
    if (roster && *roster && !rows) return -1;
    entry_list l = {0};
    int rc = kind == GR_LMS_PLAIN        ? scan_plain(subs, &l, why, wlen)
             : kind == GR_LMS_GRADESCOPE ? scan_gradescope(subs, &l, why, wlen)
                                         : scan_named(subs, kind, file_names, n_files, &l, why, wlen);
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/.lms-subs", out_dir);
    if (!rc && kind != GR_LMS_PLAIN) {
        gr_rmtree(dir); /* staged afresh each run: the export is the truth */
        rc = gr_mkdirs(dir, 0755);
        if (rc) snprintf(why, wlen, "cannot create %s", dir);
    }
    char *used = calloc((size_t)nr + 1, 1);
    json_t *entries = rc ? NULL : entries_json(&l, kind == GR_LMS_PLAIN ? NULL : dir, rows, nr, used, why, wlen);
    if (entries) {
        json_t *missing = json_array();
        for (int i = 0; i < nr; i++)
            if (!used[i]) json_array_append_new(missing, person_json(&rows[i]));
        json_t *root = json_pack("{s:s, s:s, s:s, s:o, s:o}", "lms", layouts[kind].word, "submissions", subs, "roster",
                                 roster ? roster : "", "entries", entries, "no_submission", missing);
        char p[PATH_MAX];
        snprintf(p, sizeof p, "%s/lms.json", out_dir);
        rc = json_dump_file(root, p, JSON_INDENT(2));
        if (rc) snprintf(why, wlen, "cannot write %s", p);
        json_decref(root);
        snprintf(staged, slen, "%s", kind == GR_LMS_PLAIN ? subs : dir);
    } else rc = -1;
    free(used);
    free(rows);
    free(l.e);
    return rc;
}
