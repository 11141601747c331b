/* refkeep.c — see refkeep.h. */
#define _GNU_SOURCE 1
#include "refkeep.h"
#include "gpu.h"
#include "sandbox.h"

#define GR_KEEP_WALL "kept-wall-s" /* beside the run's own files: its wall time */

void gr_keep_open(gr_config *x)
{
    char closed[PATH_MAX];
    /* 0700: no run reaches it */
    int rc = gr_runs_mkdtemp(x->janitor, "wb-kept", 0700, x->keep, sizeof x->keep, closed, sizeof closed);
    if (rc) {
        LOG(x, "no folder for the reference's kept runs (%s): each entry runs it", rc == -1 ? closed : strerror(errno));
        x->keep[0] = 0;
    }
}

void gr_keep_close(gr_config *x)
{
    if (x->keep[0]) gr_janitor_rm(x->janitor, x->keep);
    x->keep[0] = 0;
}

int gr_keep_find(const gr_config *x, const char *name, double max_age_s, char *path, size_t len, double *age_s,
                 double *wall_s)
{
    DIR *d = x->keep[0] ? opendir(x->keep) : NULL;
    if (!d) return -1;
    size_t n = strlen(name);
    double newest = -1;
    char found[PATH_MAX], wp[PATH_MAX + 16], *w;
    struct dirent *de;
    while ((de = readdir(d))) /* name@<when kept, gr_now()>.<pid> */
        if (!strncmp(de->d_name, name, n) && de->d_name[n] == '@') {
            double when = strtod(de->d_name + n + 1, NULL);
            if (when <= newest) continue;
            newest = when;
            snprintf(found, sizeof found, "%s/%s", x->keep, de->d_name);
        }
    closedir(d);
    double age = gr_now() - newest;
    if (newest < 0 || (max_age_s > 0 && age > max_age_s)) return -1;
    snprintf(wp, sizeof wp, "%s/" GR_KEEP_WALL, found);
    if (!(w = gr_read_capped(wp, 64, NULL))) return -1;
    *wall_s = strtod(w, NULL);
    free(w);
    if (age_s) *age_s = age;
    snprintf(path, len, "%s", found);
    return 0;
}

int gr_keep_lock(const gr_config *x, const char *name)
{
    char p[PATH_MAX];
    if (!x->keep[0] || snprintf(p, sizeof p, "%s/%s.lock", x->keep, name) >= (int)sizeof p) return -1;
    return gr_lock_alone(p);
}

int gr_keep_put(const gr_config *x, const char *dir, const char *name, double wall_s, char *path, size_t len)
{
    if (!x->keep[0]) return -1;
    char wp[PATH_MAX + 16], w[64];
    snprintf(wp, sizeof wp, "%s/" GR_KEEP_WALL, dir);
    int n = snprintf(w, sizeof w, "%.6f\n", wall_s);
    snprintf(path, len, "%s/%s@%.6f.%d", x->keep, name, gr_now(), (int)getpid());
    if (gr_write_file(wp, w, (size_t)n) || rename(dir, path)) {
        LOG(x, "cannot keep the reference's run %s in %s: %s", dir, x->keep, strerror(errno));
        return -1;
    }
    return 0;
}
