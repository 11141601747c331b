/* submission.c — see submission.h. */
#define _GNU_SOURCE 1
#include "submission.h"

/* ---------------------------------------------------------------- the submission's files */
int gr_is_archive(const char *p)
{
    size_t n = strlen(p);
#define ENDS(s) (n > strlen(s) && !strcmp(p + n - strlen(s), s))
    return ENDS(".zip") || ENDS(".tar.gz") || ENDS(".tgz") || ENDS(".tar");
#undef ENDS
}

/* Unpacks an archive into dir, in the sandbox (a zip bomb meets the disk and file-size caps). */
int gr_extract(const gr_ctx *x, const char *archive, const char *dir, char *why, size_t wlen)
{
    char abs[PATH_MAX];
    if (!realpath(archive, abs)) {
        snprintf(why, wlen, "cannot read %s", archive);
        return -1;
    }
    gr_mkdirs(dir, 0755);
    gr_cmd c;
    gr_ctx quiet = *x;
    quiet.hide_sub[0] = 0;
    gr_cmd_init(&c, &quiet, dir, 120, 0);
    c.hide[0] = NULL; /* the archive may sit inside the workbook (tests) */
    size_t n = strlen(abs);
    if (n > 4 && !strcmp(abs + n - 4, ".zip")) {
        gr_arg(&c, "unzip");
        gr_arg(&c, "-q");
        gr_arg(&c, "-o");
        gr_arg(&c, "%s", abs);
        gr_arg(&c, "-d");
        gr_arg(&c, "%s", dir);
    } else {
        gr_arg(&c, "tar");
        gr_arg(&c, "--no-same-owner");
        gr_arg(&c, "--no-same-permissions");
        gr_arg(&c, "-xf");
        gr_arg(&c, "%s", abs);
        gr_arg(&c, "-C");
        gr_arg(&c, "%s", dir);
    }
    gr_cmd_ro(&c, abs);
    gr_run_result r;
    gr_exec(&c, &r, "extract");
    int ok = r.exited && r.code == 0;
    if (!ok) {
        char d[200], t[300];
        gr_run_describe(&r, &c.o, d, sizeof d);
        gr_tail_lines(r.err, 2, t, sizeof t);
        snprintf(why, wlen, "cannot unpack %s: %s %s", archive, d, t);
    }
    gr_run_result_free(&r);
    return ok ? 0 : -1;
}

/* Where the student's file for a chapter is: SUB/chapters/DIR/FILE, SUB/DIR/FILE (like solutions/),
 * SUB/FILE, or the same one folder down (archives that wrap everything in a folder). Only regular
 * files inside SUB count: a symlink out of it (to solutions/, say) is refused. */
int gr_find_student_file(const char *sub, const gr_chapter_rubric *ch, char *out, size_t len, int depth)
{
    const char *pats[] = {"%s/chapters/%s/%s", "%s/%s/%s", "%s/%s%s"};
    for (int i = 0; i < 3; i++) {
        char p[PATH_MAX];
        if (i < 2) snprintf(p, sizeof p, pats[i], sub, ch->dir, ch->file);
        else snprintf(p, sizeof p, "%s/%s", sub, ch->file);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) && gr_inside(sub, p)) {
            snprintf(out, len, "%s", p);
            return 1;
        }
    }
    if (depth > 0) return 0;
    DIR *d = opendir(sub);
    if (!d) return 0;
    struct dirent *e;
    char only[PATH_MAX] = "";
    int dirs = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || !strcmp(e->d_name, "__MACOSX")) continue;
        char p[PATH_MAX];
        snprintf(p, sizeof p, "%s/%s", sub, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            dirs++;
            snprintf(only, sizeof only, "%s", p);
        }
    }
    closedir(d);
    return dirs == 1 && gr_find_student_file(only, ch, out, len, depth + 1);
}

/* The pristine starter: grading/pristine/ in the student release, else chapters/. */
int gr_pristine_path(const gr_ctx *x, const gr_chapter_rubric *ch, char *out, size_t len)
{
    snprintf(out, len, "%s/grading/pristine/%s/%s", x->root, ch->dir, ch->file);
    if (gr_is_file(out)) return 1;
    snprintf(out, len, "%s/chapters/%s/%s", x->root, ch->dir, ch->file);
    return gr_is_file(out);
}

int gr_have_reference(const gr_ctx *x, const gr_chapter_rubric *ch, char *ref, size_t len)
{
    char sol[PATH_MAX];
    snprintf(sol, sizeof sol, "%s/solutions/%s/%s", x->root, ch->dir, ch->file);
    snprintf(ref, len, "%s/build/solution%d", x->root, ch->number);
    if (!gr_is_file(sol)) return 0;
    /* make builds the references before it starts the grader (`make grade` depends on them); one older
     * than its source would grade against yesterday's solution. */
    struct stat s_sol, s_ref;
    if (stat(ref, &s_ref) || stat(sol, &s_sol) || s_ref.st_mtime < s_sol.st_mtime) {
        LOG("the reference build/solution%d is missing or older than its source: run `make build/solution%d`",
            ch->number, ch->number);
        return 0;
    }
    return 1;
}

void gr_sanitize_name(const char *in, char *out, size_t len)
{
    size_t k = 0;
    for (const char *p = in; *p && k + 1 < len; p++)
        out[k++] = (isalnum((unsigned char)*p) || *p == '-' || *p == '_' || *p == '.') ? *p : '_';
    out[k] = 0;
    if (!k || out[0] == '.') snprintf(out, len, "_%s", in[0] ? "x" : "empty");
}
