/* gr_util.c — see gr_util.h. */
#define _GNU_SOURCE 1
#include "gr_util.h"

void gr_str_addn(gr_str *b, const char *p, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1) cap *= 2;
        char *s = (char *)realloc(b->s, cap);
        if (!s) abort();
        b->s = s;
        b->cap = cap;
    }
    memcpy(b->s + b->len, p, n);
    b->len += n;
    b->s[b->len] = 0;
}

void gr_str_addf(gr_str *b, const char *fmt, ...)
{
    char *s;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    gr_str_addn(b, s, (size_t)n);
    free(s);
}

void gr_str_free(gr_str *b)
{
    free(b->s);
    memset(b, 0, sizeof *b);
}

double gr_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int gr_mkdirs(const char *path, mode_t mode)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, mode) != 0 && errno != EEXIST) return -1;
            *p = '/';
        }
    return mkdir(buf, mode) != 0 && errno != EEXIST ? -1 : 0;
}

static int gr_rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
    (void)st;
    (void)flag;
    (void)f;
    remove(p); /* best effort: go on with the rest */
    return 0;
}

void gr_rmtree(const char *path)
{
    if (!path || strlen(path) < 2) return; /* "" and "/" among them */
    nftw(path, gr_rm_one, 32, FTW_DEPTH | FTW_PHYS);
}

void gr_walk(const char *path, gr_walk_fn fn, void *ctx)
{
    struct stat st;
    if (lstat(path, &st) != 0) return;
    fn(path, &st, ctx);
    if (!S_ISDIR(st.st_mode)) return;
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char p[PATH_MAX];
        if (snprintf(p, sizeof p, "%s/%s", path, e->d_name) < (int)sizeof p) gr_walk(p, fn, ctx);
    }
    if (d) closedir(d);
}

static void gr_du_one(const char *p, const struct stat *st, void *total)
{
    (void)p;
    *(unsigned long long *)total += (unsigned long long)st->st_blocks * 512ull;
}

const char *gr_proc_next(DIR *d, const char *file, char *buf, size_t len)
{
    for (struct dirent *e; (e = readdir(d));) {
        char path[300];
        snprintf(path, sizeof path, "/proc/%s/%s", e->d_name, file);
        FILE *f = e->d_name[0] >= '0' && e->d_name[0] <= '9' ? fopen(path, "r") : NULL;
        if (!f) continue;
        size_t n = fread(buf, 1, len - 1, f);
        fclose(f);
        buf[n] = 0;
        return e->d_name;
    }
    return NULL;
}

long gr_proc_field(const char *status, const char *name)
{
    char key[32];
    int n = snprintf(key, sizeof key, "\n%s:", name);
    const char *at = strstr(status, key);
    return at ? strtol(at + n, NULL, 10) : -1;
}

unsigned long long gr_du(const char *path)
{
    unsigned long long total = 0;
    gr_walk(path, gr_du_one, &total);
    return total;
}

int gr_is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

long long gr_file_size(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode) ? (long long)st.st_size : -1;
}

char *gr_read_capped(const char *path, size_t max, size_t *len)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    int regular = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    size_t want = regular && (size_t)st.st_size < max ? (size_t)st.st_size : max;
    char *buf = regular ? (char *)malloc(want + 1) : NULL;
    size_t n = 0;
    while (buf && n < want) {
        ssize_t got = read(fd, buf + n, want - n);
        if (got <= 0) break;
        n += (size_t)got;
    }
    if (fd >= 0) close(fd);
    if (!buf) return NULL;
    buf[n] = 0;
    if (len) *len = n;
    return buf;
}

size_t gr_safe_name(char *dst, size_t len, const char *src, const char *keep)
{
    size_t k = 0;
    for (; src[k] && k + 1 < len; k++) dst[k] = isalnum((unsigned char)src[k]) || strchr(keep, src[k]) ? src[k] : '_';
    dst[k] = 0;
    return k;
}

int gr_write_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t w = fwrite(data, 1, len, f);
    return (fclose(f) == 0 && w == len) ? 0 : -1;
}

int gr_copy_file(const char *from, const char *to)
{
    size_t n;
    char *d = gr_read_capped(from, (size_t)1 << 30, &n);
    if (!d) return -1;
    int rc = gr_write_file(to, d, n);
    free(d);
    return rc;
}

int gr_which(const char *name, char *out, size_t len)
{
    if (strchr(name, '/')) {
        if (access(name, X_OK) != 0) return 0;
        snprintf(out, len, "%s", name);
        return 1;
    }
    char buf[4096], *save = NULL;
    snprintf(buf, sizeof buf, "%s", getenv("PATH") ?: "/usr/bin:/bin");
    for (char *d = strtok_r(buf, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        char cand[PATH_MAX];
        snprintf(cand, sizeof cand, "%s/%s", d, name);
        if (access(cand, X_OK) == 0 && gr_is_file(cand)) {
            snprintf(out, len, "%s", cand);
            return 1;
        }
    }
    return 0;
}

int gr_reachable_by(const char *path, uid_t uid, gid_t gid, gid_t extra, char *blocked, size_t blen)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s", path);
    for (char *slash = p + 1;; slash++) {
        slash = strchr(slash, '/');
        if (slash) *slash = 0;
        struct stat st;
        if (stat(p, &st) != 0) return 0;
        mode_t need = st.st_uid == uid ? S_IXUSR : st.st_gid == gid || (extra && st.st_gid == extra) ? S_IXGRP : S_IXOTH;
        if (S_ISDIR(st.st_mode) && !(st.st_mode & need)) {
            if (blocked) snprintf(blocked, blen, "%s", p);
            return 0;
        }
        if (!slash) return 1;
        *slash = '/';
    }
}

const char *gr_tmpdir(void)
{
    const char *tmp = getenv("TMPDIR");
    return tmp && *tmp == '/' ? tmp : "/tmp";
}

const char *gr_work_base(const char *tmpdir, const char *const *fallbacks,
                         int (*reach)(const char *path, char *blocked, size_t blen), char *blocked, size_t blen)
{
    if (reach(tmpdir, blocked, blen)) return tmpdir;
    char ignored[8];
    for (const char *const *f = fallbacks; f && *f; f++)
        if (reach(*f, ignored, sizeof ignored)) return *f;
    return NULL;
}

double gr_median(double *a, int n)
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

char *gr_utf8_clean(const char *s)
{
    size_t n = strlen(s);
    char *o = (char *)malloc(n * 3 + 1), *q = o;
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int len = *p < 0x80 ? 1 : (*p >> 5) == 6 ? 2 : (*p >> 4) == 14 ? 3 : (*p >> 3) == 30 ? 4 : 0;
        int ok = len > 0;
        for (int k = 1; ok && k < len; k++) ok = (p[k] & 0xC0) == 0x80;
        size_t out = ok ? (size_t)len : 3;
        memcpy(q, ok ? (const char *)p : "\xEF\xBF\xBD", out); /* U+FFFD in place of a byte that is not UTF-8 */
        q += out;
        p += ok ? len : 1;
    }
    *q = 0;
    return o;
}
