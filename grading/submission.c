/* submission.c — see submission.h. */
#define _GNU_SOURCE 1
#include "submission.h"

/* Is path (resolved) inside the folder root (resolved)? A symbolic link that leads out is not. */
static int gr_inside(const char *root, const char *path)
{
    char r[PATH_MAX], p[PATH_MAX];
    if (!realpath(root, r) || !realpath(path, p)) return 0;
    size_t n = strlen(r);
    return strncmp(r, p, n) == 0 && (p[n] == '/' || p[n] == 0);
}

/* The first of a chapter's three places in sub (chapters/DIR/FILE, DIR/FILE, FILE) that holds its file inside
 * sub (into out: the path), or with link set, that holds a link or leads out of sub (into out: the place). */
static int gr_student_place(const char *sub, const gr_chapter_rubric *ch, int link, char *out, size_t len)
{
    for (int i = 0; i < 3; i++) {
        char rel[PATH_MAX], p[2 * PATH_MAX];
        if (i == 2) snprintf(rel, sizeof rel, "%s", ch->file);
        else snprintf(rel, sizeof rel, "%s%s/%s", i ? "" : "chapters/", ch->dir, ch->file);
        snprintf(p, sizeof p, "%s/%s", sub, rel);
        struct stat st;
        if (lstat(p, &st)) continue;
        int inside = gr_inside(sub, p);
        if (link ? (S_ISLNK(st.st_mode) || !inside) : (S_ISREG(st.st_mode) && inside)) {
            snprintf(out, len, "%s", link ? rel : p);
            return 1;
        }
    }
    return 0;
}

int gr_find_student_file(const char *sub, const gr_chapter_rubric *ch, char *out, size_t len, int depth)
{
    if (gr_student_place(sub, ch, 0, out, len)) return 1;
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

int gr_student_file_link(const char *sub, const gr_chapter_rubric *ch, char *out, size_t len)
{
    return gr_student_place(sub, ch, 1, out, len);
}

int gr_sub_path_check(const char *sub, char *why, size_t len)
{
    struct stat st;
    if (stat(sub, &st) != 0)
        snprintf(why, len, "grade: %s does not exist (a submission is a directory, .zip, .tar, .tar.gz or .tgz)", sub);
    else if (!sub[strspn(sub, "/")]) snprintf(why, len, "grade: %s is the root folder, not a submission", sub);
    else if (!S_ISDIR(st.st_mode) && !(S_ISREG(st.st_mode) && gr_archive_is_archive(sub)))
        snprintf(why, len, "grade: %s is neither a directory nor an archive (.zip, .tar, .tar.gz or .tgz)", sub);
    else return 0;
    return -1;
}

int gr_sub_folder(const char *sub, const char *into, char *dir, char *why, size_t len)
{
    if (gr_archive_is_archive(sub)) {
        snprintf(dir, PATH_MAX, "%s", into);
        return gr_archive_extract(sub, into, NULL, why, len);
    }
    if (realpath(sub, dir) && gr_is_dir(dir)) return 0;
    snprintf(why, len, "%s is neither a directory nor an archive (.zip, .tar, .tar.gz or .tgz)", sub);
    return -1;
}

int gr_sub_is_empty(const gr_sub_content *c) { return c->files + c->links == 0; }

/* What the directory dir holds of the rubric's chapters; the file names looked for, in names. */
static gr_sub_content gr_sub_scan(const gr_rubric *rub, const char *dir, char *names, size_t len)
{
    gr_sub_content c = {0, 0};
    size_t k = 0;
    names[0] = 0;
    for (int i = 0; i < rub->n_ch; i++) {
        char p[PATH_MAX];
        c.files += gr_find_student_file(dir, &rub->ch[i], p, sizeof p, 0);
        c.links += gr_student_file_link(dir, &rub->ch[i], p, sizeof p);
        if (k < len) k += (size_t)snprintf(names + k, len - k, "%s%s", i ? ", " : "", rub->ch[i].file);
    }
    return c;
}

int gr_sub_precheck(const gr_rubric *rub, const char *sub, int janitor, char *why, size_t len)
{
    if (gr_sub_path_check(sub, why, len)) return -1;
    char tmp[PATH_MAX] = "", into[PATH_MAX + 16] = "", dir[PATH_MAX], names[600], err[600];
    if (gr_archive_is_archive(sub)) { /* unpacked as the grading will, then looked at */
        snprintf(tmp, sizeof tmp, "%s/grade-precheck-XXXXXX", gr_tmpdir());
        if (!mkdtemp(tmp)) {
            snprintf(why, len, "grade: cannot make a temporary folder to read %s in (%s): %s", sub, tmp, strerror(errno));
            return -1;
        }
        gr_janitor_add(janitor, tmp);
        snprintf(into, sizeof into, "%s/sub", tmp);
    }
    int bad = gr_sub_folder(sub, into, dir, err, sizeof err);
    gr_sub_content c = {0, 0};
    if (!bad) c = gr_sub_scan(rub, dir, names, sizeof names);
    if (tmp[0]) gr_janitor_rm(janitor, tmp);
    if (bad) snprintf(why, len, "grade: %s cannot be graded: %s", sub, err);
    else if (gr_sub_is_empty(&c))
        snprintf(why, len, "grade: %s holds no chapter file (looked for %s in it, in chapters/NN-name/ or NN-name/, "
                           "or one folder down): nothing graded, nothing written", sub, names);
    return bad || gr_sub_is_empty(&c) ? -1 : 0;
}

int gr_pristine_path(const gr_config *x, const gr_chapter_rubric *ch, char *out, size_t len)
{
    snprintf(out, len, "%s/grading/pristine/%s/%s", x->root, ch->dir, ch->file);
    if (gr_is_file(out)) return 1;
    /* make check in the course repository: chapters/ is the student's working file, so its own edits outside
     * the regions would be built and never noticed. The reference is the starter outside the regions
     * (tests/test_regions.c), and only the outside of the pristine is used here (the splice, the note). */
    snprintf(out, len, "%s/solutions/%s/%s", x->root, ch->dir, ch->file);
    if (x->mode == GR_MODE_CHECK && gr_is_file(out)) return 2;
    snprintf(out, len, "%s/chapters/%s/%s", x->root, ch->dir, ch->file);
    return gr_is_file(out);
}

/* As root, a reference the runs (other uids) cannot reach, e.g. a workbook under a 0700 home, is copied into
 * the work tree's course/ folder (root, the course group, 0710; the binary 0750: only the reference's runs may
 * enter it, rather than opening a folder of the workbook to anyone), ref naming the copy; 1 unless that failed. */
static int gr_stage_reference(const gr_config *x, const char *work, char *ref, size_t len)
{
    if (geteuid() != 0 || !work || !work[0] || gr_reachable_by(ref, GR_RUN_UID_BASE, GR_RUN_UID_BASE, GR_COURSE_GID, NULL, 0))
        return 1;
    char dir[PATH_MAX], to[PATH_MAX];
    const char *name = strrchr(ref, '/');
    snprintf(dir, sizeof dir, "%s/course", work);
    snprintf(to, sizeof to, "%s%s", dir, name ? name : "/ref");
    if (!gr_is_file(to)) {
        if ((mkdir(dir, 0710) && errno != EEXIST) || chown(dir, 0, (gid_t)GR_COURSE_GID) || chmod(dir, 0710) ||
            gr_copy_file(ref, to) || chown(to, 0, (gid_t)GR_COURSE_GID) || chmod(to, 0750)) {
            LOG(x, "cannot copy the reference %s into the work tree: %s", ref, strerror(errno));
            return 0;
        }
    }
    snprintf(ref, len, "%s", to);
    return 1;
}

int gr_have_reference(const gr_config *x, const char *work, const gr_chapter_rubric *ch, char *ref, size_t len)
{
    char sol[PATH_MAX];
    snprintf(sol, sizeof sol, "%s/solutions/%s/%s", x->root, ch->dir, ch->file);
    snprintf(ref, len, "%s/build/solution%d", x->root, ch->number);
    if (!gr_is_file(sol)) return 0;
    /* make builds the references before it starts the grader (`make grade` depends on them); one older
     * than its source would grade against yesterday's solution. */
    struct stat s_sol, s_ref;
    if (stat(ref, &s_ref) || stat(sol, &s_sol) || s_ref.st_mtime < s_sol.st_mtime) {
        LOG(x, "the reference build/solution%d is missing or older than its source: run `make build/solution%d`",
            ch->number, ch->number);
        return 0;
    }
    return gr_stage_reference(x, work, ref, len);
}
