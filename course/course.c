/* course.c — see course.h. */
#define _GNU_SOURCE 1
#include "course.h"

#include "classpage.h"
#include "lms.h"
#include "similarity.h"

int gr_course_stage(const gr_course *c, const char *subs, char *staged, size_t len)
{
    const gr_config *x = &c->judge;
    const char *files[GR_MAX_CH];
    for (int k = 0; k < x->rub.n_ch; k++) files[k] = x->rub.ch[k].file;
    char why[700];
    if (gr_lms_stage(subs, x->out, c->roster, c->lms, files, x->rub.n_ch, staged, len, why, sizeof why)) {
        fprintf(stderr, "grade: %s\n", why);
        return -1;
    }
    if (strcmp(staged, subs)) LOG(x, "LMS export staged one entry a student in %s (who is who: %s/lms.json)", staged, x->out);
    return 0;
}

void gr_course_pages(const gr_course *c, const char *staged)
{
    const gr_config *x = &c->judge;
    char why[700], p[PATH_MAX];
    if (c->sim_threshold > 0) {
        if (gr_similarity(x, staged, c->sim_threshold)) fprintf(stderr, "grade: could not write %s/similarity.json\n", x->out);
    } else {
        snprintf(p, sizeof p, "%s/similarity.json", x->out);
        unlink(p); /* turned off: the page must not show an old run's pairs */
    }
    if (gr_lms_write_canvas(x->out, c->assignment, why, sizeof why) < 0)
        fprintf(stderr, "grade: no canvas-grades.csv: %s\n", why);
    int n = gr_class_page(x->out, &x->rub);
    if (n >= 0) LOG(x, "class page: %s/class.html (%d entries); Canvas import: %s/canvas-grades.csv", x->out, n, x->out);
}
