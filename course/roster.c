#define _GNU_SOURCE 1
#include "roster.h"

#include <jansson.h>

#include "gr_archive.h"
#include "gr_util.h"
#include "report.h"

static uint32_t fnv1a(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.";

/* A name ending in -XXXXXXXX (8 lowercase hex) could be mistaken for a hashed folder. */
static int looks_hashed(const char *s)
{
    size_t n = strlen(s);
    return n >= 9 && s[n - 9] == '-' && strspn(s + n - 8, "0123456789abcdef") == 8;
}

void gr_roster_name(const char *entry, int is_archive, gr_roster_entry *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->entry, sizeof out->entry, "%s", entry);
    snprintf(out->student, sizeof out->student, "%s", entry);
    if (is_archive) out->student[strlen(out->student) - strlen(gr_archive_suffix(out->student))] = 0;
    /* The one place a student id is made: one line, so that the class summary keeps a row per student
     * and grades.csv a line per student (LMS importers want that); the folder still hashes the exact entry. */
    for (unsigned char *c = (unsigned char *)out->student; *c; c++)
        if (*c < 0x20 || *c == 0x7f) *c = ' ';
    int plain = !is_archive && entry[0] && entry[0] != '.' && strlen(entry) < 64 && !looks_hashed(entry) &&
                strspn(entry, safe) == strlen(entry);
    if (plain) {
        snprintf(out->folder, sizeof out->folder, "%s", entry);
        return;
    }
    /* slug of the student name: safe characters kept, every run of others one '_', at most 48 */
    char slug[64];
    size_t k = 0;
    for (const char *c = out->student; *c && k < 48; c++) {
        if (strchr(safe, *c) && !(k == 0 && *c == '.')) slug[k++] = *c;
        else if (k && slug[k - 1] != '_') slug[k++] = '_';
    }
    while (k && slug[k - 1] == '_') k--;
    slug[k] = 0;
    snprintf(out->folder, sizeof out->folder, "%s-%08x", k ? slug : "student", fnv1a(entry));
}

int gr_roster_is_entry(const char *name, int is_dir, int is_file, int loose)
{
    if (!name[0] || name[0] == '.') return 0;
    return is_dir || (is_file && (loose || gr_archive_is_archive(name)));
}

gr_roster_entry *gr_roster_scan(const char *subs, int *n, char *why, size_t len)
{
    struct dirent **list;
    int nl = scandir(subs, &list, NULL, alphasort); /* sorted by entry name */
    *n = 0;
    if (nl < 0) {
        snprintf(why, len, "cannot read the submissions folder: %s", strerror(errno));
        return NULL;
    }
    gr_roster_entry *e = malloc(((size_t)nl + 1) * sizeof *e);
    for (int i = 0; i < nl; i++) {
        const char *name = list[i]->d_name;
        char p[4096];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", subs, name);
        int seen = !stat(p, &st), err = errno;
        if (!seen && gr_roster_is_entry(name, 0, 1, 0)) /* named as one, nothing behind it (a dangling link) */
            fprintf(stderr, "grade: %s is not graded: %s\n", p, strerror(err));
        if (e && strlen(name) < sizeof e->entry && seen &&
            gr_roster_is_entry(name, S_ISDIR(st.st_mode), S_ISREG(st.st_mode), 0))
            gr_roster_name(name, !S_ISDIR(st.st_mode), &e[(*n)++]); /* not a folder: an archive */
        free(list[i]);
    }
    free(list);
    if (!e) {
        snprintf(why, len, "out of memory");
        return NULL;
    }
    /* a 32-bit hash may collide: say so rather than let one report overwrite another */
    for (int i = 0; i < *n; i++)
        for (int j = i + 1; j < *n; j++)
            if (!strcmp(e[i].folder, e[j].folder)) {
                snprintf(why, len, "entries \"%s\" and \"%s\" map to one folder; rename one", e[i].entry, e[j].entry);
                free(e);
                *n = 0;
                return NULL;
            }
    return e;
}

gr_roster_entry *gr_roster_record(const char *subs, const char *out_dir, int *n)
{
    char why[600], p[4096];
    gr_roster_entry *e = gr_roster_scan(subs, n, why, sizeof why);
    json_t *a = json_array();
    for (int i = 0; e && i < *n; i++)
        json_array_append_new(a, json_pack("{s:s, s:s, s:s}", "student", e[i].student, "entry", e[i].entry, "folder",
                                           e[i].folder));
    snprintf(p, sizeof p, "%s/roster.json", out_dir);
    int bad = !e || json_dump_file(a, p, JSON_INDENT(2));
    json_decref(a);
    if (!bad) return e;
    if (e) snprintf(why, sizeof why, "cannot write %s", p);
    fprintf(stderr, "grade: %s\n", why);
    free(e);
    return NULL;
}

int gr_roster_pending(const char *out_dir, const char *folder)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/%s/grading.json", out_dir, folder);
    json_t *g = json_load_file(p, 0, NULL);
    int pending = !g || gr_grading_not_run(g);
    json_decref(g);
    return pending;
}
