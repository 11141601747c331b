/*
 * grade.c — the workbook's autograder (build/grade; `make grade`, `make grade-class`, `make check`).
 *
 *   build/grade [options] SUB        grade one submission: a directory laid out like the workbook (or
 *                                    like solutions/ or chapters/), or a .zip / .tar.gz of one
 *   build/grade --class DIR          grade every entry of DIR (one per student), resumable
 *   build/grade --check              the student's practice run of this workbook's chapters/
 * options: --out DIR  --ch N  --seeds A,B  --rubric FILE  --jobs J  --force  --no-perf  --no-sanitizer
 *
 * Per chapter (rubric: grading/rubric.json): take only the TODO regions of the student's file and
 * splice them into the pristine starter (edits outside are ignored and reported), compile with the
 * Makefile's own nvcc flags in the sandbox with a time limit; run the student build and the reference
 * (build/solutionN) with --dump on fresh seeds and the chapter's edge sizes and compare the raw result
 * files here (never the program's verdict, exit code or stdout); compute-sanitizer on the correct
 * variants; then, holding a lock per GPU, alternate reference and student benchmark runs, take medians,
 * cross-check the reported kernel times against the process wall clock, and score by the rubric's bands.
 * Every run of student code goes through sandbox.h.
 */
#define _GNU_SOURCE 1
#include "regions.h"
#include "wb.h"
#include "report.h"
#include "sandbox.h"
#include "sanitizer.h"
#include "gr_archive.h" /* hook: issue 15 */
#include "roster.h"     /* hook: issue 15 */
#include "slurm.h"      /* hook: issue 15 */

#include <sys/file.h>

#define GR_MAX_SIZES_PER_RUN 8

typedef struct {
    char name[64];
    char kernels[256];
} gr_prog_variant;

typedef struct {
    char root[PATH_MAX];           /* the workbook (cwd) */
    char rubric_path[PATH_MAX];
    gr_rubric rub;
    char out[PATH_MAX];
    int only_ch, force, no_perf, no_san, jobs, check_mode;
    unsigned long long seeds[8];
    int n_seeds;
    int gpu;                       /* index of the GPU this process uses */
    char sanitizer[PATH_MAX];      /* compute-sanitizer, or "" */
    char hide_sub[PATH_MAX];       /* the submission root, hidden from the programs */
    char work[PATH_MAX];           /* this submission's private temporary tree */
    unsigned salt;                 /* random part of directory names */
} gr_ctx;

static int gr_verbose = 1;
static int gr_gpu_without_bwrap; /* bubblewrap could not reach the GPU here: GPU runs go without it */
#define LOG(...)                                                                                                        \
    do {                                                                                                                \
        if (gr_verbose) {                                                                                               \
            fprintf(stderr, "[grade] " __VA_ARGS__);                                                                    \
            fputc('\n', stderr);                                                                                        \
        }                                                                                                               \
    } while (0)

/* ---------------------------------------------------------------- trusted helpers */
/* Runs a trusted shell command (make, nvidia-smi) and returns its stdout, at most cap bytes. */
static char *gr_capture_cmd(const char *cmd, size_t cap, int *status)
{
    FILE *p = popen(cmd, "r");
    if (!p) return NULL;
    char *buf = malloc(cap + 1);
    size_t n = fread(buf, 1, cap, p);
    buf[n] = 0;
    int st = pclose(p);
    if (status) *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
    return buf;
}

/* The Makefile is the one source of the nvcc command: `make grading-flags CH=n` prints it. */
static int gr_flags(int chapter, char *nvcc, size_t nlen, char *libs, size_t llen)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "make -s --no-print-directory grading-flags CH=%d 2>&1", chapter);
    int st;
    char *out = gr_capture_cmd(cmd, 16384, &st);
    if (!out) return -1;
    nvcc[0] = libs[0] = 0;
    char *save = NULL;
    for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (!strncmp(line, "NVCC ", 5)) snprintf(nvcc, nlen, "%s", line + 5);
        if (!strncmp(line, "LIBS ", 5)) snprintf(libs, llen, "%s", line + 5);
        if (!strncmp(line, "LIBS", 4) && !line[4]) libs[0] = 0;
    }
    free(out);
    return nvcc[0] ? 0 : -1;
}

/* The GPUs this grader may use: those CUDA_VISIBLE_DEVICES names when it is set, else every GPU
 * nvidia-smi lists. gr_gpu_id gives the k-th one's id (an index or a UUID) for the child's
 * CUDA_VISIBLE_DEVICES and the lock's name. */
static void gr_gpu_id(int k, char *id, size_t len)
{
    const char *vis = getenv("CUDA_VISIBLE_DEVICES");
    if (vis && *vis) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s", vis);
        char *save = NULL;
        int i = 0;
        for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save), i++)
            if (i == k) {
                snprintf(id, len, "%s", t);
                return;
            }
    }
    snprintf(id, len, "%d", k);
}

static int gr_gpu_count(void)
{
    const char *vis = getenv("CUDA_VISIBLE_DEVICES");
    if (vis && *vis) {
        int n = 1;
        for (const char *p = vis; *p; p++) n += *p == ',';
        return n;
    }
    int st;
    char *out = gr_capture_cmd("nvidia-smi -L 2>/dev/null", 65536, &st);
    int n = 0;
    for (char *p = out; p && (p = strstr(p, "GPU ")); p += 4)
        if (p == out || p[-1] == '\n') n++;
    free(out);
    return n > 0 ? n : 1;
}

/* A per-GPU lock, so graders sharing a machine never time kernels while anything else runs there:
 * untimed runs (correctness, sanitizer) share it, benchmarks take it alone (gr_gpu_exclusive). */
static void gr_gpu_id(int k, char *id, size_t len);
static int gr_gpu_lock(int gpu)
{
    const char *dir = getenv("WB_GRADE_LOCK_DIR");
    char path[PATH_MAX], id[32];
    gr_gpu_id(gpu, id, sizeof id);
    for (char *p = id; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '-') *p = '_';
    snprintf(path, sizeof path, "%s/wb-grade-gpu%s.lock", dir && *dir ? dir : "/tmp", id);
    int fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0666);
    if (fd < 0) return -1;
    fchmod(fd, 0666);
    while (flock(fd, LOCK_SH) != 0 && errno == EINTR) {
    }
    return fd;
}

static void gr_gpu_exclusive(int fd)
{
    if (fd >= 0)
        while (flock(fd, LOCK_EX) != 0 && errno == EINTR) {
        }
}

static void gr_gpu_unlock(int fd)
{
    if (fd >= 0) {
        flock(fd, LOCK_UN);
        close(fd);
    }
}

/* ---------------------------------------------------------------- running programs */
typedef struct {
    gr_run_opts o;
    const char *argv[96];
    int argc;
    char store[96][160];
    char env_gpu[64];
    const char *env[4];
    const char *hide[4];
    const char *ro[4];
} gr_cmd;

static void gr_cmd_init(gr_cmd *c, const gr_ctx *x, const char *workdir, double timeout, int gpu)
{
    memset(c, 0, sizeof *c);
    c->o.workdir = workdir;
    c->o.timeout_s = timeout;
    c->o.cpu_s = x->rub.cpu_s;
    c->o.fsize = x->rub.file_bytes;
    c->o.disk = x->rub.disk_bytes;
    c->o.nproc = x->rub.nproc;
    c->o.out_cap = x->rub.out_cap;
    c->o.gpu = gpu;
    c->o.no_bwrap = gpu && gr_gpu_without_bwrap;
    char id[32];
    gr_gpu_id(x->gpu, id, sizeof id);
    snprintf(c->env_gpu, sizeof c->env_gpu, "CUDA_VISIBLE_DEVICES=%s", id);
    if (gpu) c->env[0] = c->env_gpu;
    c->o.env = c->env;
    int h = 0;
    c->hide[h++] = x->root;
    if (x->hide_sub[0]) c->hide[h++] = x->hide_sub;
    c->o.hide = c->hide;
    c->o.ro_paths = c->ro;
    c->o.argv = c->argv;
}

static void gr_arg(gr_cmd *c, const char *fmt, ...)
{
    if (c->argc >= 94) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->store[c->argc], sizeof c->store[0], fmt, ap);
    va_end(ap);
    c->argv[c->argc] = c->store[c->argc];
    c->argc++;
    c->argv[c->argc] = NULL;
}

/* A program outside the hidden directories (e.g. the reference in build/) is made visible read-only. */
/* Makes `path` readable inside bubblewrap (bound again after the hidden directories and the tmpfs /tmp). */
static void gr_cmd_ro(gr_cmd *c, const char *path)
{
    for (int i = 0; i < 3; i++)
        if (!c->ro[i]) {
            c->ro[i] = path;
            return;
        }
}

static int gr_exec(gr_cmd *c, gr_run_result *r, const char *what)
{
    double t = gr_now();
    int rc = gr_run(&c->o, r);
    char d[300];
    gr_run_describe(r, &c->o, d, sizeof d);
    LOG("%-28s %6.2f s  %s", what, gr_now() - t, d);
    return rc;
}

/* The last non-empty lines of a text, for short feedback. */
static void gr_tail_lines(const char *text, int lines, char *out, size_t len)
{
    size_t n = strlen(text);
    while (n && (text[n - 1] == '\n' || text[n - 1] == ' ')) n--;
    size_t start = n;
    for (int k = 0; k < lines && start > 0; k++) {
        start--;
        while (start > 0 && text[start - 1] != '\n') start--;
    }
    snprintf(out, len, "%.*s", (int)(n - start), text + start);
}

/* ---------------------------------------------------------------- the submission's files */
static int gr_is_archive(const char *p) { return gr_archive_is_archive(p); } /* hook (gr_archive.h) */

/* Unpacks an archive into dir, in the sandbox (a zip bomb meets the disk and file-size caps). */
static int gr_extract(const gr_ctx *x, const char *archive, const char *dir, char *why, size_t wlen)
{
    (void)x; /* hook (gr_archive.h): every entry checked by libarchive before anything is written */
    return gr_archive_extract(archive, dir, NULL, why, wlen);
}

/* Where the student's file for a chapter is: SUB/chapters/DIR/FILE, SUB/DIR/FILE (like solutions/),
 * SUB/FILE, or the same one folder down (archives that wrap everything in a folder). Only regular
 * files inside SUB count: a symlink out of it (to solutions/, say) is refused. */
static int gr_find_student_file(const char *sub, const gr_chapter_rubric *ch, char *out, size_t len, int depth)
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
static int gr_pristine_path(const gr_ctx *x, const gr_chapter_rubric *ch, char *out, size_t len)
{
    snprintf(out, len, "%s/grading/pristine/%s/%s", x->root, ch->dir, ch->file);
    if (gr_is_file(out)) return 1;
    snprintf(out, len, "%s/chapters/%s/%s", x->root, ch->dir, ch->file);
    return gr_is_file(out);
}

/* ---------------------------------------------------------------- build (in a forked child per chapter) */
/* Splices, then compiles in the sandbox. Writes WORK/status ("ok" or a reason), WORK/compile.log,
 * WORK/outside (a note on ignored edits). Returns 0 when the binary WORK/build/prog exists. */
static int gr_build_chapter(const gr_ctx *x, const gr_chapter_rubric *ch, const char *student, const char *work)
{
    char path[PATH_MAX], pristine_path[PATH_MAX], status[800] = "ok";
    gr_mkdirs(work, 0755);
    char bdir[PATH_MAX];
    snprintf(bdir, sizeof bdir, "%s/build", work);
    gr_rmtree(bdir);
    gr_mkdirs(bdir, 0755);
    size_t plen, slen, olen;
    gr_pristine_path(x, ch, pristine_path, sizeof pristine_path);
    char *pristine = gr_read_capped(pristine_path, 4 << 20, &plen);
    char *stu = gr_read_capped(student, 4 << 20, &slen);
    char err[400];
    char *spliced = NULL;
    if (!pristine) snprintf(status, sizeof status, "not gradable: the starter %s is missing", pristine_path);
    else if (!stu) snprintf(status, sizeof status, "not gradable: cannot read %s", student);
    else if (memchr(stu, 0, slen)) snprintf(status, sizeof status, "not gradable: the file is not text");
    else if (!(spliced = wb_regions_splice(pristine, plen, stu, slen, &olen, err, sizeof err)))
        snprintf(status, sizeof status, "not gradable: %s", err);
    if (spliced) {
        /* Edits outside the regions: compare the files with the regions' contents removed. */
        size_t a_len, b_len;
        char e2[200];
        char *a = wb_regions_outside(pristine, plen, &a_len, e2, sizeof e2);
        char *b = wb_regions_outside(stu, slen, &b_len, e2, sizeof e2);
        if (a && b && (a_len != b_len || memcmp(a, b, a_len))) {
            size_t k = 0;
            int line = 1;
            while (k < a_len && k < b_len && a[k] == b[k]) line += a[k++] == '\n';
            char note[300];
            snprintf(note, sizeof note,
                     "your file differs from the starter outside the TODO regions (first near line %d of the file "
                     "without the regions' contents); those edits were ignored: only the regions are graded",
                     line);
            snprintf(path, sizeof path, "%s/outside", work);
            gr_write_file(path, note, strlen(note));
        }
        free(a);
        free(b);
        snprintf(path, sizeof path, "%s/%s", bdir, ch->file);
        gr_write_file(path, spliced, olen);
        snprintf(path, sizeof path, "%s/common", bdir);
        gr_mkdirs(path, 0755);
        /* the course's headers (every .h in common/), never the student's */
        char from[PATH_MAX], cdir[PATH_MAX];
        snprintf(cdir, sizeof cdir, "%s/common", x->root);
        DIR *cd = opendir(cdir);
        struct dirent *ce;
        while (cd && (ce = readdir(cd))) {
            size_t nl = strlen(ce->d_name);
            if (nl < 3 || strcmp(ce->d_name + nl - 2, ".h")) continue;
            snprintf(from, sizeof from, "%s/%s", cdir, ce->d_name);
            snprintf(path, sizeof path, "%s/common/%s", bdir, ce->d_name);
            gr_copy_file(from, path);
        }
        if (cd) closedir(cd);
        char nvcc[4096], libs[1024];
        if (gr_flags(ch->number, nvcc, sizeof nvcc, libs, sizeof libs)) {
            snprintf(status, sizeof status, "grader error: `make grading-flags CH=%d` gave no nvcc command", ch->number);
        } else {
            gr_cmd c;
            gr_cmd_init(&c, x, bdir, x->rub.t_build, 0);
            c.o.out_cap = 6 << 10;
            char *save = NULL;
            for (char *t = strtok_r(nvcc, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) gr_arg(&c, "%s", t);
            gr_arg(&c, "-o");
            gr_arg(&c, "prog");
            gr_arg(&c, "%s", ch->file);
            for (char *t = strtok_r(libs, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) gr_arg(&c, "%s", t);
            gr_run_result r;
            char what[64];
            snprintf(what, sizeof what, "build chapter %d", ch->number);
            gr_exec(&c, &r, what);
            gr_str log = {0};
            gr_str_add(&log, r.err);
            if (*r.out) gr_str_addf(&log, "%s%s", log.len ? "\n" : "", r.out);
            snprintf(path, sizeof path, "%s/compile.log", work);
            gr_write_file(path, gr_str_c(&log), log.len);
            gr_str_free(&log);
            snprintf(path, sizeof path, "%s/prog", bdir);
            if (!(r.exited && r.code == 0 && gr_is_file(path))) {
                char d[200];
                gr_run_describe(&r, &c.o, d, sizeof d);
                snprintf(status, sizeof status, "build failed: nvcc %s", d);
            }
            gr_run_result_free(&r);
        }
    }
    snprintf(path, sizeof path, "%s/status", work);
    gr_write_file(path, status, strlen(status));
    free(pristine);
    free(stu);
    free(spliced);
    return strcmp(status, "ok") ? -1 : 0;
}

/* ---------------------------------------------------------------- the program's variants */
static int gr_list_variants(const gr_ctx *x, const char *prog, const char *work, gr_prog_variant *pv, int max,
                            char *why, size_t wlen)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/list", work);
    gr_mkdirs(dir, 0755);
    gr_cmd c;
    gr_cmd_init(&c, x, dir, x->rub.t_run, 0);
    gr_arg(&c, "%s", prog);
    gr_arg(&c, "--list");
    gr_arg(&c, "--json");
    gr_arg(&c, "-");
    gr_cmd_ro(&c, prog);
    gr_run_result r;
    gr_exec(&c, &r, "list variants");
    int n = 0;
    char *save = NULL;
    for (char *line = strtok_r(r.out, "\n", &save); line && n < max; line = strtok_r(NULL, "\n", &save)) {
        json_t *o = json_loads(line, 0, NULL);
        const char *v = json_string_value(json_object_get(o, "variant"));
        const char *k = json_string_value(json_object_get(o, "kernels"));
        if (v) {
            snprintf(pv[n].name, sizeof pv[n].name, "%s", v);
            snprintf(pv[n].kernels, sizeof pv[n].kernels, "%s", k ? k : "");
            n++;
        }
        json_decref(o);
    }
    if (!n) snprintf(why, wlen, "`%s --list --json -` listed no variants (%s)", prog, r.err);
    gr_run_result_free(&r);
    return n;
}

/* ---------------------------------------------------------------- correctness */
typedef struct {
    int runs_bad;                  /* (seed, size) runs that did not match */
    int runs_todo, runs_total, runs_missing;
    char first[1200];              /* the feedback of the most telling bad run */
    unsigned long long first_n;    /* its number of elements */
    int first_len;                 /* it was a comparison (not a missing file) */
    char failed_run[300];          /* how the isolated run ended, when a dump was missing */
    int crashed, timed_out, errored;
    int dead;                      /* its isolated run failed: not run again for later seeds/sizes */
    char sizes_bad[200];
} gr_corr;

static void gr_size_list(const gr_chapter_rubric *ch, int first, int count, gr_cmd *c)
{
    for (int i = first; i < first + count; i++) {
        gr_arg(c, "--size");
        gr_arg(c, "%s", ch->edge[i]);
    }
}

/* Compares every variant's dumps of one (seed, chunk of sizes) run. */
static void gr_compare_run(const gr_chapter_rubric *ch, const char *refdir, const char *studir, unsigned long long seed,
                           int first, int count, gr_var_result *vr, int nv, gr_corr *corr, const char *isolated_dir_fmt)
{
    for (int v = 0; v < nv; v++) {
        for (int s = first; s < first + count; s++) {
            char canon[64], rp[PATH_MAX], sp[PATH_MAX];
            gr_size_canon(ch->edge[s], canon, sizeof canon);
            snprintf(rp, sizeof rp, "%s/%s_%s.bin", refdir, vr[v].name, canon);
            snprintf(sp, sizeof sp, "%s/%s_%s.bin", studir, vr[v].name, canon);
            if (isolated_dir_fmt) { /* the variant was re-run alone: its own directory */
                char alt[PATH_MAX];
                snprintf(alt, sizeof alt, isolated_dir_fmt, vr[v].name);
                if (gr_is_dir(alt)) snprintf(sp, sizeof sp, "%s/%s_%s.bin", alt, vr[v].name, canon);
            }
            long long rb = gr_file_size(rp), sb = gr_file_size(sp);
            corr[v].runs_total++;
            if (rb < 0) continue; /* the reference has none: nothing to hold the student to */
            size_t rl, sl;
            char *ref = gr_read_capped(rp, (size_t)rb + 1, &rl);
            char *got = sb >= 0 && sb == rb ? gr_read_capped(sp, (size_t)sb + 1, &sl) : NULL;
            long long dims[3];
            int nd = gr_size_dims(ch->edge[s], dims);
            gr_cmp cmp;
            gr_compare(ch, dims, nd, ref, rb, got, got ? sb : (sb < 0 ? -1 : sb), &cmp);
            if (!got && sb < 0) cmp.got_bytes = -1;
            free(ref);
            free(got);
            if (cmp.pattern == GR_PAT_NONE) continue;
            corr[v].runs_bad++;
            corr[v].runs_todo += cmp.pattern == GR_PAT_UNWRITTEN;
            corr[v].runs_missing += cmp.pattern == GR_PAT_LENGTH;
            size_t bl = strlen(corr[v].sizes_bad);
            if (bl < sizeof corr[v].sizes_bad - 40 && !strstr(corr[v].sizes_bad, ch->edge[s]))
                snprintf(corr[v].sizes_bad + bl, sizeof corr[v].sizes_bad - bl, "%s%s", bl ? ", " : "", ch->edge[s]);
            /* Feedback from the largest failing size: patterns (tail, boundary, shift) need room to show.
             * A missing file only counts when nothing else is wrong. */
            int better = !corr[v].first[0] ||
                         (cmp.pattern != GR_PAT_LENGTH && (corr[v].first_len ? cmp.n > corr[v].first_n : 1));
            if (better) {
                corr[v].first_n = cmp.n;
                corr[v].first_len = cmp.pattern != GR_PAT_LENGTH;
                char pat[300], hint[300];
                gr_pattern_text(ch, &cmp, pat, sizeof pat, hint, sizeof hint);
                if (cmp.pattern == GR_PAT_LENGTH)
                    snprintf(corr[v].first, sizeof corr[v].first, "seed %llu, size %s: %s\nHint: %s", seed, ch->edge[s],
                             pat, hint);
                else
                    snprintf(corr[v].first, sizeof corr[v].first,
                             "seed %llu, size %s: first mismatch at %s: expected %s, got %s; %llu of %llu elements "
                             "wrong\nPattern: %s\nHint: %s",
                             seed, ch->edge[s], cmp.where, cmp.expected, cmp.got, cmp.wrong, cmp.n, pat, hint);
            }
        }
    }
}

/* Runs a program over one chunk of sizes with --dump into dir. */
static void gr_dump_run(const gr_ctx *x, const char *prog, const char *dir, const char *variants,
                        const gr_chapter_rubric *ch, unsigned long long seed, int first, int count, gr_run_result *r,
                        const char *what, gr_cmd *c)
{
    gr_rmtree(dir);
    gr_mkdirs(dir, 0755);
    gr_cmd_init(c, x, dir, x->rub.t_run, 1);
    gr_arg(c, "%s", prog);
    gr_arg(c, "--variant");
    gr_arg(c, "%s", variants);
    gr_size_list(ch, first, count, c);
    gr_arg(c, "--seed");
    gr_arg(c, "%llu", seed);
    gr_arg(c, "--reps");
    gr_arg(c, "1");
    gr_arg(c, "--warmup");
    gr_arg(c, "0");
    gr_arg(c, "--dump");
    gr_arg(c, "%s", dir);
    gr_cmd_ro(c, prog);
    gr_exec(c, r, what);
}

static int gr_dump_complete(const char *dir, const gr_chapter_rubric *ch, const char *variant, int first, int count)
{
    for (int s = first; s < first + count; s++) {
        char canon[64], p[PATH_MAX];
        gr_size_canon(ch->edge[s], canon, sizeof canon);
        snprintf(p, sizeof p, "%s/%s_%s.bin", dir, variant, canon);
        if (!gr_is_file(p)) return 0;
    }
    return 1;
}

/* Returns 0, or -1 when the reference itself could not run (then the chapter is not graded). */
static int gr_correctness(const gr_ctx *x, const gr_chapter_rubric *ch, const char *ref, const char *stu,
                          const char *work, gr_ch_result *cr, char *why, size_t wlen)
{
    gr_corr corr[GR_MAX_VAR];
    memset(corr, 0, sizeof corr);
    for (int si = 0; si < x->n_seeds; si++) {
        unsigned long long seed = x->seeds[si];
        for (int first = 0; first < ch->n_edge; first += GR_MAX_SIZES_PER_RUN) {
            int count = ch->n_edge - first < GR_MAX_SIZES_PER_RUN ? ch->n_edge - first : GR_MAX_SIZES_PER_RUN;
            char refdir[PATH_MAX], studir[PATH_MAX], what[80];
            snprintf(refdir, sizeof refdir, "%s/ref-%d-%d", work, si, first);
            snprintf(studir, sizeof studir, "%s/stu-%d-%d", work, si, first);
            gr_run_result r;
            gr_cmd c;
            snprintf(what, sizeof what, "ch%d reference seed %llu", ch->number, seed);
            gr_dump_run(x, ref, refdir, "all", ch, seed, first, count, &r, what, &c);
            /* The reference's results must stay out of the student program's reach. */
            if (lchown(refdir, getuid(), getgid()) != 0 || chmod(refdir, 0700) != 0) LOG("cannot protect %s", refdir);
            if (!(r.exited && r.code == 0)) {
                char d[200], t[400];
                gr_run_describe(&r, &c.o, d, sizeof d);
                gr_tail_lines(r.err, 2, t, sizeof t);
                snprintf(why, wlen, "the reference %s %s: %s", ref, d, t);
                int no_gpu = r.exited && r.code == WB_EXIT_NO_DEVICE;
                gr_run_result_free(&r);
                return no_gpu ? -3 : -1;
            }
            gr_run_result_free(&r);
            char live[1024] = "";
            for (int v = 0; v < cr->n_v; v++)
                if (!corr[v].dead) {
                    size_t l = strlen(live);
                    snprintf(live + l, sizeof live - l, "%s%s", l ? "," : "", cr->v[v].name);
                }
            snprintf(what, sizeof what, "ch%d student seed %llu", ch->number, seed);
            if (live[0]) {
                gr_dump_run(x, stu, studir, live, ch, seed, first, count, &r, what, &c);
                gr_run_result_free(&r);
            } else gr_mkdirs(studir, 0755);
            /* A variant whose dumps are missing (the run died partway) is re-run alone, so one crashing
             * variant does not take the others down with it and its own failure is named. */
            char isofmt[PATH_MAX];
            snprintf(isofmt, sizeof isofmt, "%s/iso-%d-%d-%%s", work, si, first);
            for (int v = 0; v < cr->n_v; v++) {
                if (corr[v].dead || gr_dump_complete(studir, ch, cr->v[v].name, first, count)) continue;
                char iso[PATH_MAX];
                snprintf(iso, sizeof iso, isofmt, cr->v[v].name);
                snprintf(what, sizeof what, "ch%d %s alone", ch->number, cr->v[v].name);
                gr_dump_run(x, stu, iso, cr->v[v].name, ch, seed, first, count, &r, what, &c);
                if (!gr_dump_complete(iso, ch, cr->v[v].name, first, count) && !corr[v].failed_run[0]) {
                    char d[200], t[400];
                    gr_run_describe(&r, &c.o, d, sizeof d);
                    gr_tail_lines(r.err, 3, t, sizeof t);
                    snprintf(corr[v].failed_run, sizeof corr[v].failed_run, "the program %s%s%s", d, *t ? ":\n" : "",
                             t);
                    corr[v].timed_out |= r.timed_out;
                    corr[v].crashed |= !r.timed_out && (r.signaled || r.fsize_exceeded || r.cpu_exceeded || r.disk_exceeded);
                    corr[v].errored |= !r.timed_out && !corr[v].crashed;
                    corr[v].dead = 1;
                }
                gr_run_result_free(&r);
            }
            gr_compare_run(ch, refdir, studir, seed, first, count, cr->v, cr->n_v, corr, isofmt);
            gr_rmtree(refdir); /* result files can be large; the feedback keeps what matters */
            gr_rmtree(studir);
            for (int v = 0; v < cr->n_v; v++) {
                char iso[PATH_MAX];
                snprintf(iso, sizeof iso, isofmt, cr->v[v].name);
                gr_rmtree(iso);
            }
        }
    }
    for (int v = 0; v < cr->n_v; v++) {
        gr_var_result *r = &cr->v[v];
        gr_corr *k = &corr[v];
        if (!k->runs_bad) {
            snprintf(r->verdict, sizeof r->verdict, "PASS");
            r->correct_pts = r->rub.correct;
            r->detail[0] = 0;
            continue;
        }
        if (k->runs_todo == k->runs_bad && k->runs_bad == k->runs_total) snprintf(r->verdict, sizeof r->verdict, "TODO");
        else if (k->failed_run[0])
            snprintf(r->verdict, sizeof r->verdict, "%s", k->timed_out ? "TIMEOUT" : k->crashed ? "CRASH" : "ERROR");
        else snprintf(r->verdict, sizeof r->verdict, "WRONG");
        if (!strcmp(r->verdict, "TODO"))
            snprintf(r->detail, sizeof r->detail, "not implemented: the output was never written (still the poison "
                                                   "0xA5A5A5A5) at any size.");
        else
            snprintf(r->detail, sizeof r->detail, "%s%s%s\nWrong at %d of %d runs (sizes: %s).", k->failed_run,
                     k->failed_run[0] ? "\n" : "", k->first, k->runs_bad, k->runs_total, k->sizes_bad);
    }
    return 0;
}

/* check mode without a reference: the program's own verdicts (clearly labelled). */
static int gr_self_check(const gr_ctx *x, const gr_chapter_rubric *ch, const char *stu, const char *work,
                         gr_ch_result *cr, char *why, size_t wlen)
{
    int bad[GR_MAX_VAR] = {0}, todo[GR_MAX_VAR] = {0}, seen[GR_MAX_VAR] = {0};
    char note[GR_MAX_VAR][600];
    memset(note, 0, sizeof note);
    for (int si = 0; si < x->n_seeds; si++)
        for (int first = 0; first < ch->n_edge; first += GR_MAX_SIZES_PER_RUN) {
            int count = ch->n_edge - first < GR_MAX_SIZES_PER_RUN ? ch->n_edge - first : GR_MAX_SIZES_PER_RUN;
            char dir[PATH_MAX];
            snprintf(dir, sizeof dir, "%s/self-%d-%d", work, si, first);
            gr_rmtree(dir);
            gr_mkdirs(dir, 0755);
            gr_cmd c;
            gr_cmd_init(&c, x, dir, x->rub.t_run, 1);
            gr_arg(&c, "%s", stu);
            gr_size_list(ch, first, count, &c);
            gr_arg(&c, "--seed");
            gr_arg(&c, "%llu", x->seeds[si]);
            gr_arg(&c, "--reps");
            gr_arg(&c, "1");
            gr_arg(&c, "--warmup");
            gr_arg(&c, "0");
            gr_arg(&c, "--json");
            gr_arg(&c, "self.json");
            gr_run_result r;
            gr_exec(&c, &r, "self-check");
            if (r.exited && r.code == WB_EXIT_NO_DEVICE) {
                char t[400];
                gr_tail_lines(r.err, 1, t, sizeof t);
                snprintf(why, wlen, "%s", t);
                gr_run_result_free(&r);
                gr_rmtree(dir);
                return -3;
            }
            char jp[PATH_MAX];
            snprintf(jp, sizeof jp, "%s/self.json", dir);
            size_t n;
            char *text = gr_read_capped(jp, 1 << 20, &n);
            char *save = NULL;
            for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
                json_t *o = json_loads(line, 0, NULL);
                const char *v = json_string_value(json_object_get(o, "variant"));
                const char *verdict = json_string_value(json_object_get(o, "verdict"));
                for (int k = 0; v && verdict && k < cr->n_v; k++)
                    if (!strcmp(cr->v[k].name, v)) {
                        seen[k]++;
                        bad[k] += strcmp(verdict, "PASS") != 0;
                        todo[k] += strcmp(verdict, "TODO") == 0;
                        if (strcmp(verdict, "PASS") && !note[k][0])
                            snprintf(note[k], sizeof note[k], "self-check: %s at size %s, seed %llu", verdict,
                                     json_string_value(json_object_get(o, "size")), x->seeds[si]);
                    }
                json_decref(o);
            }
            free(text);
            if (!(r.exited && (r.code == 0 || r.code == 1)))
                for (int k = 0; k < cr->n_v; k++)
                    if (!note[k][0]) {
                        char d[200];
                        gr_run_describe(&r, &c.o, d, sizeof d);
                        snprintf(note[k], sizeof note[k], "the program %s", d);
                    }
            gr_run_result_free(&r);
            gr_rmtree(dir);
        }
    int expect = x->n_seeds * ch->n_edge;
    for (int k = 0; k < cr->n_v; k++) {
        gr_var_result *r = &cr->v[k];
        int pass = seen[k] == expect && !bad[k];
        snprintf(r->verdict, sizeof r->verdict, "%s", pass ? "SELF-PASS" : todo[k] == seen[k] && seen[k] ? "TODO" : "SELF-FAIL");
        r->correct_pts = pass ? r->rub.correct : 0;
        if (!pass) snprintf(r->detail, sizeof r->detail, "%s", note[k][0] ? note[k] : "no verdict reported");
    }
    return 0;
}

/* ---------------------------------------------------------------- sanitizer */
static int gr_san_run_once(const gr_ctx *x, const gr_chapter_rubric *ch, const char *stu, const char *work,
                           const char *tool, const char *variants, gr_run_result *r, int no_bwrap)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/san-%s", work, tool);
    gr_rmtree(dir);
    gr_mkdirs(dir, 0755);
    gr_cmd c;
    gr_cmd_init(&c, x, dir, x->rub.t_sanitizer, 1);
    c.o.no_bwrap |= no_bwrap;
    gr_arg(&c, "%s", x->sanitizer);
    gr_arg(&c, "--tool");
    gr_arg(&c, "%s", tool);
    gr_arg(&c, "--error-exitcode");
    gr_arg(&c, "86");
    gr_arg(&c, "--print-limit");
    gr_arg(&c, "10");
    gr_arg(&c, "%s", stu);
    gr_arg(&c, "--variant");
    gr_arg(&c, "%s", variants);
    gr_arg(&c, "--size");
    gr_arg(&c, "%s", ch->sanitizer_size);
    gr_arg(&c, "--reps");
    gr_arg(&c, "1");
    gr_arg(&c, "--warmup");
    gr_arg(&c, "0");
    gr_cmd_ro(&c, stu);
    gr_cmd_ro(&c, x->sanitizer);
    char what[96];
    snprintf(what, sizeof what, "ch%d %s %s", ch->number, tool, variants);
    gr_exec(&c, r, what);
    gr_san_report rep;
    gr_san_parse(r->out, &rep);
    int summary = rep.found_summary;
    int finding = (r->exited && r->code == 86) || gr_san_findings(&rep) > 0;
    gr_rmtree(dir);
    if (r->timed_out) return -1;
    if (!finding && !(summary && r->exited && r->code == 0)) return -2; /* the tool itself did not finish */
    return finding;
}

/* compute-sanitizer attaches to the program in ways a sandbox may refuse: if it does not finish under
 * bubblewrap, it is tried once more with the plain sandbox (same limits, still as nobody when root). */
static int gr_san_run(const gr_ctx *x, const gr_chapter_rubric *ch, const char *stu, const char *work, const char *tool,
                      const char *variants, gr_run_result *r)
{
    int f = gr_san_run_once(x, ch, stu, work, tool, variants, r, 0);
    if (f == -2 && strstr(r->how, "bubblewrap")) {
        LOG("%s did not finish under bubblewrap: once more without it", tool);
        gr_run_result_free(r);
        f = gr_san_run_once(x, ch, stu, work, tool, variants, r, 1);
    }
    return f;
}

/* The tools are not timed, so they run at the same time, each in its own process (each its own
 * subreaper); their results come back through files. */
static void gr_san_run_all(const gr_ctx *x, const gr_chapter_rubric *ch, const char *stu, const char *work,
                           const char *variants, gr_run_result *res, int *f)
{
    pid_t pid[GR_MAX_TOOLS];
    for (int t = 0; t < ch->n_tools; t++) {
        fflush(NULL);
        pid[t] = fork();
        if (pid[t] == 0) {
            gr_run_result r;
            int rc = gr_san_run(x, ch, stu, work, ch->tools[t], variants, &r);
            char p[PATH_MAX], meta[128];
            snprintf(p, sizeof p, "%s/san-%s.meta", work, ch->tools[t]);
            snprintf(meta, sizeof meta, "%d %d %d %d %d %d %d", rc, r.exited, r.code, r.signaled, r.sig, r.timed_out,
                     r.start_failed);
            gr_write_file(p, meta, strlen(meta));
            snprintf(p, sizeof p, "%s/san-%s.out", work, ch->tools[t]);
            gr_write_file(p, r.out, strlen(r.out));
            snprintf(p, sizeof p, "%s/san-%s.err", work, ch->tools[t]);
            gr_write_file(p, r.err, strlen(r.err));
            fflush(NULL);
            _exit(0);
        }
    }
    for (int t = 0; t < ch->n_tools; t++) {
        if (pid[t] > 0) waitpid(pid[t], NULL, 0);
        memset(&res[t], 0, sizeof res[t]);
        char p[PATH_MAX];
        snprintf(p, sizeof p, "%s/san-%s.meta", work, ch->tools[t]);
        char *meta = gr_read_capped(p, 128, NULL);
        f[t] = -1;
        if (!meta || sscanf(meta, "%d %d %d %d %d %d %d", &f[t], &res[t].exited, &res[t].code, &res[t].signaled,
                            &res[t].sig, &res[t].timed_out, &res[t].start_failed) != 7) {
            f[t] = -1;
            res[t].start_failed = 1;
        }
        free(meta);
        snprintf(p, sizeof p, "%s/san-%s.out", work, ch->tools[t]);
        res[t].out = gr_read_capped(p, 1 << 20, NULL);
        snprintf(p, sizeof p, "%s/san-%s.err", work, ch->tools[t]);
        res[t].err = gr_read_capped(p, 1 << 20, NULL);
        if (!res[t].out) res[t].out = strdup("");
        if (!res[t].err) res[t].err = strdup("the sanitizer's grader process died");
        const char *ext[] = {"meta", "out", "err"};
        for (int e = 0; e < 3; e++) {
            snprintf(p, sizeof p, "%s/san-%s.%s", work, ch->tools[t], ext[e]);
            unlink(p);
        }
    }
}

static void gr_sanitize(const gr_ctx *x, const gr_chapter_rubric *ch, const char *stu, const char *work,
                        gr_ch_result *cr, const gr_prog_variant *pv, int npv)
{
    char list[1024] = "";
    int idx[GR_MAX_VAR], n = 0;
    for (int v = 0; v < cr->n_v; v++) {
        gr_var_result *r = &cr->v[v];
        if (strcmp(r->verdict, "PASS") && strcmp(r->verdict, "SELF-PASS")) continue;
        if (!x->sanitizer[0]) {
            snprintf(r->san, sizeof r->san, "compute-sanitizer not found: not checked, no points");
            continue;
        }
        r->san_ran = 1;
        snprintf(r->san, sizeof r->san, "clean (%d tools)", ch->n_tools);
        r->san_pts = r->rub.sanitizer;
        size_t l = strlen(list);
        snprintf(list + l, sizeof list - l, "%s%s", l ? "," : "", r->name);
        idx[n++] = v;
    }
    if (!n) return;
    gr_run_result all[GR_MAX_TOOLS];
    int found[GR_MAX_TOOLS];
    gr_san_run_all(x, ch, stu, work, list, all, found);
    for (int t = 0; t < ch->n_tools; t++) {
        gr_run_result r = all[t];
        int f = found[t];
        if (f < 0) {
            /* No verdict from the tool: no points, and say why (never award what was not checked). */
            char d[200], tail[400];
            gr_cmd dummy;
            gr_cmd_init(&dummy, x, work, x->rub.t_sanitizer, 1);
            gr_run_describe(&r, &dummy.o, d, sizeof d);
            gr_tail_lines(r.err[0] ? r.err : r.out, 3, tail, sizeof tail);
            for (int i = 0; i < n; i++) {
                gr_var_result *vr = &cr->v[idx[i]];
                vr->san_pts = 0;
                vr->san_unfinished = 1;
                if (!vr->san_finding)
                    snprintf(vr->san, sizeof vr->san, "compute-sanitizer --tool %s did not finish (%s): %s", ch->tools[t],
                             d, tail);
            }
            LOG("sanitizer %s did not finish: %s", ch->tools[t], d);
            gr_run_result_free(&r);
            continue;
        }
        if (f == 0) {
            gr_run_result_free(&r);
            continue;
        }
        int attributed = 0;
        for (int i = 0; i < n; i++) {
            gr_var_result *vr = &cr->v[idx[i]];
            const char *kernels = "";
            for (int k = 0; k < npv; k++)
                if (!strcmp(pv[k].name, vr->name)) kernels = pv[k].kernels;
            if (n == 1 || (*kernels && gr_san_kernel_in(r.out, kernels))) {
                attributed = 1;
                if (!vr->san_finding) {
                    char first[500];
                    gr_san_first_excerpt(r.out, first, sizeof first);
                    snprintf(vr->san, sizeof vr->san, "%s: %s", ch->tools[t], first[0] ? first : "(see the log)");
                }
                vr->san_finding = 1;
                vr->san_pts = 0;
            }
        }
        gr_run_result_free(&r);
        if (!attributed) /* not traceable to a kernel name: run each variant alone */
            for (int i = 0; i < n; i++) {
                gr_var_result *vr = &cr->v[idx[i]];
                gr_run_result one;
                if (gr_san_run(x, ch, stu, work, ch->tools[t], vr->name, &one) == 1) {
                    char first[500];
                    gr_san_first_excerpt(one.out, first, sizeof first);
                    if (!vr->san_finding) snprintf(vr->san, sizeof vr->san, "%s: %s", ch->tools[t], first);
                    vr->san_finding = 1;
                    vr->san_pts = 0;
                }
                gr_run_result_free(&one);
            }
    }
}

/* ---------------------------------------------------------------- performance */
typedef struct {
    double ms[GR_MAX_VAR][64], prep[GR_MAX_VAR][64];
    int n[GR_MAX_VAR], n_prep[GR_MAX_VAR];
    double sol_ms[64];
    int n_sol;
    double wall_lo, wall_hi;       /* the smallest wall time seen at each repetition count */
    int failed;
    char why[300];
} gr_perf_side;

static double gr_median(double *a, int n)
{
    if (n <= 0) return -1;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && a[j - 1] > a[j]; j--) {
            double t = a[j];
            a[j] = a[j - 1];
            a[j - 1] = t;
        }
    return n % 2 ? a[n / 2] : 0.5 * (a[n / 2 - 1] + a[n / 2]);
}

static void gr_perf_run(const gr_ctx *x, const gr_chapter_rubric *ch, const char *prog, const char *work,
                        const char *list, int reps, gr_perf_side *side, gr_ch_result *cr, const int *sel, int nsel,
                        const char *who)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/perf-%s", work, who);
    gr_rmtree(dir);
    gr_mkdirs(dir, 0755);
    gr_cmd c;
    gr_cmd_init(&c, x, dir, x->rub.t_perf, 1);
    gr_arg(&c, "%s", prog);
    gr_arg(&c, "--variant");
    gr_arg(&c, "%s", list);
    gr_arg(&c, "--size");
    gr_arg(&c, "%s", ch->perf_size);
    gr_arg(&c, "--reps");
    gr_arg(&c, "%d", reps);
    gr_arg(&c, "--warmup");
    gr_arg(&c, "%d", x->rub.warmup);
    gr_arg(&c, "--json");
    gr_arg(&c, "t.json");
    gr_cmd_ro(&c, prog);
    gr_run_result r;
    char what[96];
    snprintf(what, sizeof what, "ch%d perf %s reps %d", ch->number, who, reps);
    gr_exec(&c, &r, what);
    if (!(r.exited && (r.code == 0 || r.code == 1))) {
        char d[200];
        gr_run_describe(&r, &c.o, d, sizeof d);
        side->failed = 1;
        snprintf(side->why, sizeof side->why, "the benchmark run %s", d);
    }
    double wall = r.wall_s;
    double *slot = reps == x->rub.reps_lo ? &side->wall_lo : &side->wall_hi;
    if (side->failed) wall = -1;
    if (wall > 0 && (*slot <= 0 || wall < *slot)) *slot = wall;
    gr_run_result_free(&r);
    char jp[PATH_MAX], canon[64];
    snprintf(jp, sizeof jp, "%s/t.json", dir);
    gr_size_canon(ch->perf_size, canon, sizeof canon);
    size_t n;
    char *text = gr_read_capped(jp, 1 << 20, &n);
    char *save = NULL;
    int got[GR_MAX_VAR] = {0};
    for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
        json_t *o = json_loads(line, 0, NULL);
        const char *v = json_string_value(json_object_get(o, "variant"));
        const char *verdict = json_string_value(json_object_get(o, "verdict"));
        const char *size = json_string_value(json_object_get(o, "size"));
        json_t *ms = json_object_get(o, "median_ms");
        if (v && verdict && size && json_is_number(ms) && !strcmp(size, canon) && json_number_value(ms) > 0) {
            double t = json_number_value(ms);
            if (!strcmp(verdict, "REFERENCE") && side->n_sol < 64) side->sol_ms[side->n_sol++] = t;
            for (int i = 0; i < nsel; i++) {
                int k = sel[i];
                if (strcmp(cr->v[k].name, v) || got[k]) continue;
                got[k] = 1;
                if (strcmp(verdict, "PASS")) {
                    if (!side->failed) snprintf(side->why, sizeof side->why, "%s reported %s at the benchmark size", v, verdict);
                    side->failed = 1;
                } else if (side->n[k] < 64) {
                    side->ms[k][side->n[k]++] = t;
                    json_t *pre = json_object_get(o, "prep_ms");
                    if (json_is_number(pre) && json_number_value(pre) > 0 && side->n_prep[k] < 64)
                        side->prep[k][side->n_prep[k]++] = json_number_value(pre);
                }
            }
        }
        json_decref(o);
    }
    free(text);
    for (int i = 0; i < nsel; i++)
        if (!got[sel[i]] && !side->failed) {
            side->failed = 1;
            snprintf(side->why, sizeof side->why, "no time reported for %s", cr->v[sel[i]].name);
        }
    gr_rmtree(dir);
}

/* Was the process wall clock consistent with the kernel times it reported? The extra repetitions of
 * the high run must have taken at least about what the reported medians say. */
/* Milliseconds one repetition of the whole run takes by the reported times: every selected variant
 * (and its preprocessing) and the speed-of-light row are each timed `reps` times. */
static double gr_per_rep_ms(gr_perf_side *s, const int *sel, int nsel)
{
    double sum = 0;
    for (int i = 0; i < nsel; i++) {
        sum += gr_median(s->ms[sel[i]], s->n[sel[i]]);
        if (s->n_prep[sel[i]]) sum += gr_median(s->prep[sel[i]], s->n_prep[sel[i]]);
    }
    double sol = gr_median(s->sol_ms, s->n_sol);
    return sum + (sol > 0 ? sol : 0);
}

static void gr_wall_delta(const gr_ctx *x, gr_perf_side *s, const int *sel, int nsel, int reps_hi, double *delta,
                          double *predicted)
{
    *predicted = (reps_hi - x->rub.reps_lo) * gr_per_rep_ms(s, sel, nsel) * 1e-3;
    *delta = s->wall_hi - s->wall_lo;
}

static void gr_perf(const gr_ctx *x, const gr_chapter_rubric *ch, const char *ref, const char *stu, const char *work,
                    gr_ch_result *cr)
{
    int sel[GR_MAX_VAR], nsel = 0;
    char list[1024] = "";
    for (int v = 0; v < cr->n_v; v++) {
        gr_var_result *r = &cr->v[v];
        if (strcmp(r->verdict, "PASS") || r->rub.perf <= 0) continue;
        sel[nsel++] = v;
        size_t l = strlen(list);
        snprintf(list + l, sizeof list - l, "%s%s", l ? "," : "", r->name);
    }
    if (!nsel) return;
    gr_perf_side *rs = calloc(1, sizeof *rs), *ss = calloc(1, sizeof *ss);
    /* The high repetition count is chosen from the reference's own times (never the student's) so that
     * the extra repetitions take about cross_check_s: long enough for the wall clock to tell. */
    int hi = x->rub.reps_hi;
    for (int round = 0; round < x->rub.rounds; round++) {
        for (int k = 0; k < 2; k++) { /* alternate: reference, student, reference, student … */
            int reps = k == 0 ? x->rub.reps_lo : hi;
            gr_perf_run(x, ch, ref, work, list, reps, rs, cr, sel, nsel, "ref");
            if (round == 0 && k == 0) {
                double per = gr_per_rep_ms(rs, sel, nsel);
                if (per > 0) {
                    double want = x->rub.reps_lo + ceil(x->rub.cross_check_s * 1e3 / per);
                    hi = want > x->rub.reps_hi ? x->rub.reps_hi : want < x->rub.reps_lo + 1 ? x->rub.reps_lo + 1 : (int)want;
                }
            }
            gr_perf_run(x, ch, stu, work, list, reps, ss, cr, sel, nsel, "stu");
        }
    }
    /* The reference calibrates the check: how much wall clock its extra repetitions took per reported
     * millisecond (launch and timing overhead, a busy machine). The student may take wall_factor times
     * that, plus wall_slack_s; a forged time beyond about that factor cannot. */
    double d_s, p_s, d_r, p_r;
    gr_wall_delta(x, ss, sel, nsel, hi, &d_s, &p_s);
    gr_wall_delta(x, rs, sel, nsel, hi, &d_r, &p_r);
    double calib = p_r > 0 && d_r > 0 ? d_r / p_r : 1.0;
    calib = calib < 1 ? 1 : calib > 5 ? 5 : calib;
    int forged = !ss->failed && !rs->failed && d_s > x->rub.wall_factor * calib * p_s + x->rub.wall_slack_s;
    if (rs->failed) snprintf(cr->perf_note, sizeof cr->perf_note, "reference benchmark failed (%s): no performance points", rs->why);
    else if (ss->failed) snprintf(cr->perf_note, sizeof cr->perf_note, "%s: no performance points", ss->why);
    else if (forged)
        snprintf(cr->perf_note, sizeof cr->perf_note,
                 "the reported kernel times do not account for the process's wall clock (%d more repetitions took "
                 "%.2f s more; the reported times predict %.3f s, x%.2f as measured on the reference): times not "
                 "credible, no performance points",
                 hi - x->rub.reps_lo, d_s, p_s, calib);
    else
        snprintf(cr->perf_note, sizeof cr->perf_note,
                 "size %s, median of %d runs each (reps %d and %d, alternating with the reference); wall-clock "
                 "cross-check: %d extra repetitions took %.3f s, reported times predict %.3f s (x%.2f as measured on "
                 "the reference)",
                 ch->perf_size, 2 * x->rub.rounds, x->rub.reps_lo, hi, hi - x->rub.reps_lo, d_s, p_s, calib);
    for (int i = 0; i < nsel; i++) {
        gr_var_result *r = &cr->v[sel[i]];
        r->perf_ran = 1;
        r->stu_ms = gr_median(ss->ms[sel[i]], ss->n[sel[i]]);
        r->ref_ms = gr_median(rs->ms[sel[i]], rs->n[sel[i]]);
        if (rs->failed || ss->failed || forged || r->stu_ms <= 0 || r->ref_ms <= 0) continue;
        r->ratio = r->stu_ms / r->ref_ms;
        double frac = gr_band_fraction(&x->rub, r->ratio);
        r->perf_pts = frac * r->rub.perf;
        snprintf(r->perf_note, sizeof r->perf_note, "Speed: %.4f ms vs the reference's %.4f ms (%.2fx): %.0f%% of the "
                                                    "performance points.",
                 r->stu_ms, r->ref_ms, r->ratio, 100 * frac);
    }
    free(rs);
    free(ss);
}

/* Check mode: the student's own table (throughput, % of the speed of light), no reference. */
static void gr_perf_self(const gr_ctx *x, const gr_chapter_rubric *ch, const char *stu, const char *work,
                         gr_ch_result *cr)
{
    int sel[GR_MAX_VAR], nsel = 0;
    char list[1024] = "";
    for (int v = 0; v < cr->n_v; v++)
        if (!strcmp(cr->v[v].verdict, "SELF-PASS")) {
            sel[nsel++] = v;
            size_t l = strlen(list);
            snprintf(list + l, sizeof list - l, "%s%s", l ? "," : "", cr->v[v].name);
        }
    if (!nsel) return;
    gr_perf_side *ss = calloc(1, sizeof *ss);
    gr_perf_run(x, ch, stu, work, list, x->rub.reps_hi, ss, cr, sel, nsel, "self");
    for (int i = 0; i < nsel; i++) {
        gr_var_result *r = &cr->v[sel[i]];
        r->perf_ran = 1;
        r->stu_ms = gr_median(ss->ms[sel[i]], ss->n[sel[i]]);
        snprintf(r->perf_note, sizeof r->perf_note, "Your time at size %s: %.4f ms (no reference here: performance "
                                                    "points are given when graded).",
                 ch->perf_size, r->stu_ms);
    }
    snprintf(cr->perf_note, sizeof cr->perf_note, "check mode: times only; the grader compares them with the reference "
                                                  "on the same GPU");
    free(ss);
}

/* ---------------------------------------------------------------- one submission */
/* Can a sandboxed program reach the GPU? Where bubblewrap cannot pass the device through (a kernel
 * that refuses device nodes in a user namespace, say) but the plain sandbox can, GPU runs go without
 * bubblewrap, and the report says so. Asked once per process, with a one-element run. */
static void gr_gpu_probe(const gr_ctx *x, const char *prog, const gr_chapter_rubric *ch, const char *work,
                         gr_sub_result *res)
{
    static int asked;
    if (asked) goto note;
    asked = 1;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/probe", work);
    gr_mkdirs(dir, 0755);
    for (int attempt = 0; attempt < 2; attempt++) {
        gr_cmd c;
        gr_cmd_init(&c, x, dir, x->rub.t_run, 1);
        c.o.no_bwrap = attempt == 1;
        gr_arg(&c, "%s", prog);
        gr_arg(&c, "--variant");
        gr_arg(&c, "%s", ch->var[0].name);
        gr_arg(&c, "--size");
        gr_arg(&c, "%s", ch->edge[0]);
        gr_arg(&c, "--reps");
        gr_arg(&c, "1");
        gr_arg(&c, "--warmup");
        gr_arg(&c, "0");
        gr_cmd_ro(&c, prog);
        gr_run_result r;
        gr_exec(&c, &r, attempt ? "GPU probe without bubblewrap" : "GPU probe");
        int no_gpu = r.exited && r.code == WB_EXIT_NO_DEVICE;
        int used_bwrap = strstr(r.how, "bubblewrap") != NULL;
        gr_run_result_free(&r);
        if (attempt == 1) {
            if (no_gpu) gr_gpu_without_bwrap = 0; /* no GPU at all: bubblewrap was not the problem */
            break;
        }
        if (!no_gpu || !used_bwrap) break; /* the GPU works (or bubblewrap was not in use) */
        gr_gpu_without_bwrap = 1; /* try once more without bubblewrap; kept if it works */
    }
    gr_rmtree(dir);
note:
    if (gr_gpu_without_bwrap && !strstr(res->isolation, "GPU runs without"))
        snprintf(res->isolation + strlen(res->isolation), sizeof res->isolation - strlen(res->isolation),
                 "; GPU runs without bubblewrap (it could not reach the GPU here)");
}

static int gr_have_reference(const gr_ctx *x, const gr_chapter_rubric *ch, char *ref, size_t len)
{
    char sol[PATH_MAX];
    snprintf(sol, sizeof sol, "%s/solutions/%s/%s", x->root, ch->dir, ch->file);
    snprintf(ref, len, "%s/build/solution%d", x->root, ch->number);
    if (!gr_is_file(sol)) return 0;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "make -s --no-print-directory build/solution%d >/dev/null 2>&1", ch->number);
    if (system(cmd) != 0) return 0;
    return gr_is_file(ref);
}

static void gr_sanitize_name(const char *in, char *out, size_t len)
{
    size_t k = 0;
    for (const char *p = in; *p && k + 1 < len; p++)
        out[k++] = (isalnum((unsigned char)*p) || *p == '-' || *p == '_' || *p == '.') ? *p : '_';
    out[k] = 0;
    if (!k || out[0] == '.') snprintf(out, len, "_%s", in[0] ? "x" : "empty");
}

static void gr_grade_one(gr_ctx *x, const char *sub_in, const char *student, const char *out_dir, gr_sub_result *res)
{
    double t0 = gr_now();
    memset(res, 0, sizeof *res);
    {
        int fd = open("/dev/urandom", O_RDONLY);
        if (fd < 0 || read(fd, &x->salt, sizeof x->salt) != sizeof x->salt) x->salt = (unsigned)(gr_now() * 1e6) ^ (unsigned)getpid();
        if (fd >= 0) close(fd);
    }
    snprintf(res->student, sizeof res->student, "%s", student);
    snprintf(res->mode, sizeof res->mode, "%s", x->check_mode ? "check" : "grade");
    memcpy(res->seeds, x->seeds, sizeof res->seeds);
    res->n_seeds = x->n_seeds;
    gr_mkdirs(out_dir, 0755);
    /* Runs happen in a private temporary tree, not in out_dir: the programs run as nobody and must be
     * able to reach their directories (0711 all the way), while the random names keep one run from
     * finding another's files where bubblewrap does not hide them. Reports go to out_dir. */
    char work[PATH_MAX], sub[PATH_MAX];
    const char *tmp = getenv("TMPDIR");
    snprintf(work, sizeof work, "%s/wb-grade.XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp");
    if (!mkdtemp(work)) {
        snprintf(res->error, sizeof res->error, "cannot create a temporary directory: %s", strerror(errno));
        return;
    }
    chmod(work, 0711);
    snprintf(x->work, sizeof x->work, "%s", work);
    /* an isolation probe: what the sandbox will be */
    {
        gr_cmd c;
        gr_cmd_init(&c, x, work, 10, 0);
        gr_arg(&c, "true");
        gr_run_result r;
        gr_run(&c.o, &r);
        snprintf(res->isolation, sizeof res->isolation, "%s", r.how);
        gr_run_result_free(&r);
    }
    if (gr_is_archive(sub_in)) {
        snprintf(sub, sizeof sub, "%s/submission", work);
        char why[600];
        if (gr_extract(x, sub_in, sub, why, sizeof why)) {
            snprintf(res->error, sizeof res->error, "%s", why);
            gr_rmtree(work);
            res->wall_s = gr_now() - t0;
            return;
        }
    } else if (!realpath(sub_in, sub) || !gr_is_dir(sub)) {
        snprintf(res->error, sizeof res->error, "%s is neither a directory nor a .zip/.tar.gz", sub_in);
        gr_rmtree(work);
        res->wall_s = gr_now() - t0;
        return;
    }
    snprintf(x->hide_sub, sizeof x->hide_sub, "%s", sub);

    /* Which chapters: those of the rubric that this workbook has. */
    pid_t builders[GR_MAX_CH];
    int idx[GR_MAX_CH];
    for (int i = 0; i < x->rub.n_ch; i++) {
        const gr_chapter_rubric *ch = &x->rub.ch[i];
        char pristine[PATH_MAX];
        if (x->only_ch && ch->number != x->only_ch) continue;
        if (!gr_pristine_path(x, ch, pristine, sizeof pristine)) continue;
        gr_ch_result *cr = &res->ch[res->n_ch];
        idx[res->n_ch] = i;
        builders[res->n_ch] = 0;
        res->n_ch++;
        cr->number = ch->number;
        snprintf(cr->dir, sizeof cr->dir, "%s", ch->dir);
        snprintf(cr->status, sizeof cr->status, "graded");
        cr->n_v = ch->n_var;
        for (int v = 0; v < ch->n_var; v++) {
            snprintf(cr->v[v].name, sizeof cr->v[v].name, "%s", ch->var[v].name);
            cr->v[v].rub = ch->var[v];
            snprintf(cr->v[v].verdict, sizeof cr->v[v].verdict, "NOT-RUN");
        }
        char stu[PATH_MAX];
        if (!gr_find_student_file(sub, ch, stu, sizeof stu, 0)) {
            snprintf(cr->status, sizeof cr->status, "missing");
            snprintf(cr->reason, sizeof cr->reason, "no %s/%s (nor chapters/%s/%s) in the submission", ch->dir, ch->file,
                     ch->dir, ch->file);
            continue;
        }
        /* Builds run in parallel, each in its own process (each its own subreaper). */
        char cw[PATH_MAX];
        snprintf(cw, sizeof cw, "%s/ch%d-%08x", work, ch->number, x->salt);
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            gr_build_chapter(x, ch, stu, cw);
            fflush(NULL);
            _exit(0);
        }
        builders[res->n_ch - 1] = pid;
    }
    for (int c = 0; c < res->n_ch; c++)
        if (builders[c] > 0) waitpid(builders[c], NULL, 0);

    for (int c = 0; c < res->n_ch; c++) {
        gr_ch_result *cr = &res->ch[c];
        const gr_chapter_rubric *ch = &x->rub.ch[idx[c]];
        double tc = gr_now();
        if (strcmp(cr->status, "graded")) continue;
        char cw[PATH_MAX], path[PATH_MAX], stu[PATH_MAX], ref[PATH_MAX];
        snprintf(cw, sizeof cw, "%s/ch%d-%08x", work, ch->number, x->salt);
        snprintf(path, sizeof path, "%s/status", cw);
        char *status = gr_read_capped(path, 4096, NULL);
        snprintf(path, sizeof path, "%s/compile.log", cw);
        size_t ll;
        char *log = gr_read_capped(path, 1 << 20, &ll);
        cr->compile_log = log;
        snprintf(path, sizeof path, "%s/outside", cw);
        char *outside = gr_read_capped(path, 4096, NULL);
        if (outside) snprintf(cr->outside, sizeof cr->outside, "%s", outside);
        free(outside);
        if (!status || strcmp(status, "ok")) {
            const char *s = status ? status : "build failed: the build process died";
            snprintf(cr->status, sizeof cr->status, "%s",
                     !strncmp(s, "not gradable", 12) ? "not gradable" : !strncmp(s, "grader error", 12) ? "grader error" : "build failed");
            const char *colon = strchr(s, ':');
            snprintf(cr->reason, sizeof cr->reason, "%s", colon ? colon + 2 : s);
            free(status);
            continue;
        }
        free(status);
        snprintf(stu, sizeof stu, "%s/build/prog", cw);
        int have_ref = gr_have_reference(x, ch, ref, sizeof ref);
        if (!have_ref && !x->check_mode) {
            snprintf(cr->status, sizeof cr->status, "grader error");
            snprintf(cr->reason, sizeof cr->reason, "no reference build/solution%d (is solutions/ here?)", ch->number);
            continue;
        }
        gr_prog_variant pv[GR_MAX_VAR];
        char why[600];
        int lock = gr_gpu_lock(x->gpu);
        gr_gpu_probe(x, have_ref ? ref : stu, ch, cw, res);
        int npv = gr_list_variants(x, have_ref ? ref : stu, cw, pv, GR_MAX_VAR, why, sizeof why);
        for (int v = 0; v < npv; v++) /* variants the rubric does not list are graded for information */
            if (!gr_rubric_variant(ch, pv[v].name) && cr->n_v < GR_MAX_VAR) {
                gr_var_result *r = &cr->v[cr->n_v++];
                snprintf(r->name, sizeof r->name, "%s", pv[v].name);
                snprintf(r->rub.name, sizeof r->rub.name, "%s", pv[v].name);
                snprintf(r->verdict, sizeof r->verdict, "NOT-RUN");
            }
        for (int v = 0; v < ch->n_var; v++) {
            int found = 0;
            for (int k = 0; k < npv; k++) found |= !strcmp(pv[k].name, ch->var[v].name);
            if (!found && npv) {
                snprintf(cr->status, sizeof cr->status, "grader error");
                snprintf(cr->reason, sizeof cr->reason, "the rubric names variant '%s', which the program does not have",
                         ch->var[v].name);
            }
        }
        if (!npv) {
            snprintf(cr->status, sizeof cr->status, "grader error");
            snprintf(cr->reason, sizeof cr->reason, "%s", why);
        }
        if (!strcmp(cr->status, "graded")) {
            if (have_ref) {
                int rc = gr_correctness(x, ch, ref, stu, cw, cr, why, sizeof why);
                if (rc) {
                    snprintf(cr->status, sizeof cr->status, "%s", rc == -3 ? "no GPU" : "grader error");
                    snprintf(cr->reason, sizeof cr->reason, "%s", why);
                }
            } else {
                cr->self_check = 1;
                if (gr_self_check(x, ch, stu, cw, cr, why, sizeof why)) {
                    snprintf(cr->status, sizeof cr->status, "no GPU");
                    snprintf(cr->reason, sizeof cr->reason, "%s", why);
                }
            }
        }
        if (!strcmp(cr->status, "graded")) {
            if (!x->no_san) gr_sanitize(x, ch, stu, cw, cr, pv, npv);
            if (!x->no_perf) {
                gr_gpu_exclusive(lock);
                if (have_ref) gr_perf(x, ch, ref, stu, cw, cr);
                else gr_perf_self(x, ch, stu, cw, cr);
            }
        }
        gr_gpu_unlock(lock);
        cr->wall_s = gr_now() - tc;
        snprintf(path, sizeof path, "%s/build", cw);
        gr_rmtree(path);
    }
    gr_sub_totals(res);
    gr_rmtree(work);
    res->wall_s = gr_now() - t0;
}

static void gr_replay_cmd(const gr_ctx *x, const char *sub, char *buf, size_t len)
{
    char seeds[200];
    int at = 0;
    seeds[0] = 0;
    for (int i = 0; i < x->n_seeds; i++) at += snprintf(seeds + at, sizeof seeds - (size_t)at, "%s%llu", i ? "," : "", x->seeds[i]);
    if (x->check_mode) snprintf(buf, len, "make check SEEDS=%s%s", seeds, x->only_ch ? " CH=…" : "");
    else snprintf(buf, len, "make grade SUB=%s SEEDS=%s", sub, seeds);
}

static int gr_write_reports(const gr_ctx *x, const char *sub, const char *out_dir, gr_sub_result *res, FILE *term)
{
    char path[PATH_MAX], replay[PATH_MAX + 300];
    gr_replay_cmd(x, sub, replay, sizeof replay);
    snprintf(path, sizeof path, "%s/feedback.md", out_dir);
    FILE *f = fopen(path, "w");
    if (f) {
        gr_write_feedback(f, res, replay);
        fclose(f);
    }
    snprintf(path, sizeof path, "%s/results.json", out_dir);
    int rc = gr_write_results_json(path, res);
    snprintf(path, sizeof path, "%s/grading.json", out_dir);
    rc |= gr_write_grading_json(path, res);
    if (term) gr_print_table(term, res);
    for (int c = 0; c < res->n_ch; c++) free(res->ch[c].compile_log);
    return rc;
}

/* ---------------------------------------------------------------- a class */
static int gr_class(gr_ctx *x, const char *subs)
{
    struct dirent **list = NULL;
    int n = scandir(subs, &list, NULL, alphasort);
    if (n < 0) {
        fprintf(stderr, "grade: cannot read %s: %s\n", subs, strerror(errno));
        return 2;
    }
    int entries = gr_roster_record(subs, x->out); /* hook (roster.h): <out>/roster.json */
    if (entries < 0) return 2;
    int ngpu = gr_gpu_count();
    /* Build the references once, before the graders start (they would race to build them). */
    for (int i = 0; i < x->rub.n_ch; i++) {
        char ref[PATH_MAX], pristine[PATH_MAX];
        if ((!x->only_ch || x->rub.ch[i].number == x->only_ch) && gr_pristine_path(x, &x->rub.ch[i], pristine, sizeof pristine))
            gr_have_reference(x, &x->rub.ch[i], ref, sizeof ref);
    }
    int jobs = x->jobs > 0 ? x->jobs : (int)(sysconf(_SC_NPROCESSORS_ONLN) / 4 > 0 ? sysconf(_SC_NPROCESSORS_ONLN) / 4 : 1);
    LOG("%d entries, %d GPU(s), %d parallel graders", entries, ngpu, jobs); /* hook (roster.h): entries, not dirents */
    pid_t *slot = calloc((size_t)jobs, sizeof *slot);
    char (*slot_out)[PATH_MAX] = calloc((size_t)jobs, PATH_MAX);
    char (*slot_who)[128] = calloc((size_t)jobs, 128);
    int graded = 0, skipped = 0;
    for (int i = 0; i <= n; i++) {
        const char *name = i < n ? list[i]->d_name : NULL;
        char entry[PATH_MAX], who[128], out_dir[PATH_MAX];
        if (name) {
            if (name[0] == '.') continue;
            snprintf(entry, sizeof entry, "%s/%s", subs, name);
            if (!gr_is_dir(entry) && !gr_is_archive(entry)) continue;
            gr_roster_entry re; /* hook (roster.h): the LMS name as the id, a collision-free folder */
            gr_roster_name(name, !gr_is_dir(entry), &re);
            snprintf(who, sizeof who, "%s", re.student);
            snprintf(out_dir, sizeof out_dir, "%s/%s", x->out, re.folder);
            if (!x->force && !gr_roster_pending(x->out, re.folder)) { /* hook (roster.h): retry what could not run */
                skipped++;
                continue;
            }
        }
        /* wait for a free slot (or, at the end, for all) */
        for (;;) {
            int free_slot = -1, busy = 0;
            for (int s = 0; s < jobs; s++) {
                if (slot[s]) busy++;
                else if (free_slot < 0) free_slot = s;
            }
            if (name && free_slot >= 0) {
                fflush(NULL);
                pid_t pid = fork();
                if (pid == 0) {
                    gr_ctx mine = *x;
                    mine.gpu = free_slot % ngpu;
                    gr_sub_result *res = calloc(1, sizeof *res);
                    gr_grade_one(&mine, entry, who, out_dir, res);
                    gr_write_reports(&mine, entry, out_dir, res, stdout);
                    fflush(NULL);
                    _exit(0);
                }
                slot[free_slot] = pid;
                snprintf(slot_out[free_slot], PATH_MAX, "%s", out_dir);
                snprintf(slot_who[free_slot], 128, "%s", who);
                graded++;
                break;
            }
            if (!busy) break;
            int st;
            pid_t w = waitpid(-1, &st, 0);
            for (int s = 0; s < jobs; s++)
                if (slot[s] == w) {
                    slot[s] = 0;
                    char done[PATH_MAX];
                    snprintf(done, sizeof done, "%s/grading.json", slot_out[s]);
                    if (!(WIFEXITED(st) && WEXITSTATUS(st) == 0) || !gr_is_file(done)) {
                        /* the grader itself failed on this one: record it and go on */
                        gr_sub_result *res = calloc(1, sizeof *res);
                        snprintf(res->student, sizeof res->student, "%s", slot_who[s]);
                        snprintf(res->mode, sizeof res->mode, "grade");
                        snprintf(res->error, sizeof res->error, "the grader failed on this submission (%s %d); "
                                                                "rerun with --force",
                                 WIFSIGNALED(st) ? "signal" : "exit", WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
                        gr_mkdirs(slot_out[s], 0755);
                        gr_write_grading_json(done, res);
                        free(res);
                    }
                }
        }
        if (name) free(list[i]);
    }
    free(list);
    free(slot);
    free(slot_out);
    free(slot_who);
    LOG("graded %d, skipped %d already graded (use --force to regrade)", graded, skipped);
    gr_write_class(x->out, &x->rub, stdout);
    return 0;
}

/* ---------------------------------------------------------------- main */
static void gr_usage(FILE *f)
{
    fprintf(f, "usage: grade [options] SUB      grade one submission (directory, .zip or .tar.gz)\n"
               "       grade --class DIR        grade every entry of DIR (resumable)\n"
               "       grade --check            practice run of this workbook's chapters/\n"
               "options: --out DIR  --ch N  --seeds A,B  --rubric FILE  --jobs J  --force  --no-perf\n"
               "         --no-sanitizer  --student NAME  --quiet\n");
}

int main(int argc, char **argv)
{
    static gr_ctx x;
    const char *sub = NULL, *klass = NULL, *student = NULL, *seeds = NULL, *out = NULL;
    int merge = 0;
    if (gr_slurm_wanted(argc, argv)) return gr_slurm_main(argc, argv); /* hook (slurm.h) */
    snprintf(x.rubric_path, sizeof x.rubric_path, "grading/rubric.json");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
#define TAKE(var)                                                                                                       \
    do {                                                                                                                \
        if (!val) {                                                                                                     \
            fprintf(stderr, "grade: %s needs a value\n", a);                                                            \
            return 2;                                                                                                   \
        }                                                                                                               \
        var = val;                                                                                                      \
        i++;                                                                                                            \
    } while (0)
        if (!strcmp(a, "--class")) TAKE(klass);
        else if (!strcmp(a, "--merge")) merge = 1; /* hook (slurm.h): the Slurm engine's merge job */
        else if (!strcmp(a, "--engine")) { /* hook (slurm.h): local here; slurm was taken above */
            const char *e;
            TAKE(e);
            if (strcmp(e, "local")) { fprintf(stderr, "grade: --engine is local or slurm, not %s\n", e); return 2; }
        }
        else if (!strcmp(a, "--out")) TAKE(out);
        else if (!strcmp(a, "--student")) TAKE(student);
        else if (!strcmp(a, "--seeds")) TAKE(seeds);
        else if (!strcmp(a, "--rubric")) {
            const char *r;
            TAKE(r);
            snprintf(x.rubric_path, sizeof x.rubric_path, "%s", r);
        } else if (!strcmp(a, "--ch")) {
            const char *c;
            TAKE(c);
            x.only_ch = atoi(c);
        } else if (!strcmp(a, "--jobs")) {
            const char *j;
            TAKE(j);
            x.jobs = atoi(j);
        } else if (!strcmp(a, "--check")) x.check_mode = 1;
        else if (!strcmp(a, "--force")) x.force = 1;
        else if (!strcmp(a, "--no-perf")) x.no_perf = 1;
        else if (!strcmp(a, "--no-sanitizer")) x.no_san = 1;
        else if (!strcmp(a, "--quiet")) gr_verbose = 0;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            gr_usage(stdout);
            return 0;
        } else if (a[0] == '-') {
            fprintf(stderr, "grade: unknown option %s\n", a);
            gr_usage(stderr);
            return 2;
        } else if (!sub) sub = a;
        else {
            fprintf(stderr, "grade: one submission at a time (got %s and %s); use --class DIR\n", sub, a);
            return 2;
        }
    }
    if (!!sub + !!klass + x.check_mode != 1) {
        gr_usage(stderr);
        return 2;
    }
    if (!getcwd(x.root, sizeof x.root) || !gr_is_file("common/wb.h")) {
        fprintf(stderr, "grade: run me from the workbook's root (common/wb.h not found)\n");
        return 2;
    }
    char err[600];
    if (gr_rubric_load(x.rubric_path, &x.rub, err, sizeof err)) {
        fprintf(stderr, "grade: bad rubric: %s\n", err);
        return 2;
    }
    if (seeds && *seeds) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", seeds);
        char *save = NULL;
        for (char *t = strtok_r(buf, ",", &save); t && x.n_seeds < 8; t = strtok_r(NULL, ",", &save)) {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(t, &end, 10);
            if (errno || *end || t[0] == '-') {
                fprintf(stderr, "grade: bad seed '%s'\n", t);
                return 2;
            }
            x.seeds[x.n_seeds++] = v;
        }
    } else {
        /* fresh seeds each grading (recorded in the reports; --seeds replays them) */
        int fd = open("/dev/urandom", O_RDONLY);
        for (int i = 0; i < x.rub.seeds; i++) {
            uint32_t v = (uint32_t)time(NULL) * 2654435761u + (uint32_t)i;
            if (fd >= 0 && read(fd, &v, sizeof v) != sizeof v) v ^= (uint32_t)getpid();
            x.seeds[x.n_seeds++] = v & 0x7fffffff;
        }
        if (fd >= 0) close(fd);
    }
    if (!gr_which("compute-sanitizer", x.sanitizer, sizeof x.sanitizer)) {
        char cand[] = "/usr/local/cuda/bin/compute-sanitizer";
        if (access(cand, X_OK) == 0) snprintf(x.sanitizer, sizeof x.sanitizer, "%s", cand);
        else x.sanitizer[0] = 0;
    }
    char real_san[PATH_MAX]; /* without symbolic links, so that a bubblewrap bind of it can succeed */
    if (x.sanitizer[0] && realpath(x.sanitizer, real_san)) snprintf(x.sanitizer, sizeof x.sanitizer, "%s", real_san);
    x.gpu = 0; /* one submission: the first usable GPU (a class spreads over all of them) */
    if (klass) {
        snprintf(x.out, sizeof x.out, "%s", out ? out : "build/grades");
        gr_mkdirs(x.out, 0755);
        char abs[PATH_MAX];
        if (realpath(x.out, abs)) snprintf(x.out, sizeof x.out, "%s", abs);
        if (merge) return gr_slurm_merge(klass, x.out, &x.rub); /* hook (slurm.h) */
        return gr_class(&x, klass);
    }
    char out_dir[PATH_MAX], who[128];
    if (x.check_mode) sub = ".";
    if (student) gr_sanitize_name(student, who, sizeof who);
    else {
        char tmp[PATH_MAX];
        snprintf(tmp, sizeof tmp, "%s", sub);
        size_t l = strlen(tmp);
        while (l > 1 && tmp[l - 1] == '/') tmp[--l] = 0;
        const char *b = strrchr(tmp, '/');
        gr_sanitize_name(x.check_mode ? "check" : b ? b + 1 : tmp, who, sizeof who);
    }
    snprintf(out_dir, sizeof out_dir, "%s", out ? out : x.check_mode ? "build/check" : "build/grade-out");
    if (!out) {
        size_t l = strlen(out_dir);
        if (!x.check_mode) snprintf(out_dir + l, sizeof out_dir - l, "/%s", who);
    }
    gr_mkdirs(out_dir, 0755);
    char abs[PATH_MAX];
    if (realpath(out_dir, abs)) snprintf(out_dir, sizeof out_dir, "%s", abs);
    if (student && out) snprintf(who, sizeof who, "%s", student); /* hook (roster.h): the LMS name as the id */
    gr_sub_result *res = calloc(1, sizeof *res);
    gr_grade_one(&x, sub, who, out_dir, res);
    int rc = gr_write_reports(&x, sub, out_dir, res, stdout);
    printf("reports: %s/feedback.md, results.json, grading.json\n", out_dir);
    int bad = res->error[0] != 0;
    for (int c = 0; c < res->n_ch; c++) bad |= !strcmp(res->ch[c].status, "grader error") || !strcmp(res->ch[c].status, "no GPU");
    free(res);
    return rc ? 5 : bad ? 3 : 0;
}
