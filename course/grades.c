/* grades.c — see grades.h. */
#define _GNU_SOURCE 1
#include "grades.h"
#include "csvcell.h"

#include <math.h>

/* What the class's rows add up to, for the summary. */
typedef struct {
    int students, full, errors, ungraded_students;
    double sum, best, worst, maxs;
    double ch_sum[GR_MAX_CH], ch_max[GR_MAX_CH];
} gr_class_stats;

static void gr_class_headers(const gr_rubric *rub, FILE *csv, FILE *term)
{
    fputs("student", csv); /* the header's cells: words of ours, never a formula nor quoted */
    for (int c = 0; c < rub->n_ch; c++) fprintf(csv, ",ch%d", rub->ch[c].number);
    fputs(",total,max,note\r\n", csv);
    if (term) {
        fprintf(term, "%-24s", "student");
        for (int c = 0; c < rub->n_ch; c++) fprintf(term, " %6s%-2d", "ch", rub->ch[c].number);
        fprintf(term, " %8s  %s\n", "total", "verdicts / note");
    }
}

/* The chapter numbered `number` of a grading.json's "chapters": its score, whether it was graded (*found 0 when
 * absent or not gradable: an empty cell, never 0.00; *ungraded: any status but "graded"), and its verdicts
 * appended to `verdicts`. */
static double gr_class_chapter(const json_t *chs, int number, double *ch_max, int *found, int *ungraded,
                               gr_str *verdicts)
{
    const json_t *o = NULL;
    size_t q;
    json_t *v;
    json_array_foreach(chs, q, v) if (json_integer_value(json_object_get(v, "number")) == number) o = v;
    *found = 0;
    if (!o) return 0;
    double sc = json_number_value(json_object_get(o, "score"));
    *ch_max = json_number_value(json_object_get(o, "max_score"));
    const char *st = json_string_value(json_object_get(o, "status"));
    *found = !(st && (gr_ch_status_parse(st) == GR_CH_GRADER_ERROR || gr_ch_status_parse(st) == GR_CH_NO_GPU));
    *ungraded |= st && strcmp(st, "graded");
    if (st && strcmp(st, "graded")) {
        gr_str_addf(verdicts, "%sch%d %s", verdicts->len ? "; " : "", number, st);
        return *found ? sc : 0;
    }
    gr_str_addf(verdicts, "%s", verdicts->len ? "; " : "");
    json_array_foreach(json_object_get(o, "variants"), q, v)
    {
        const char *vv = json_string_value(json_object_get(v, "verdict"));
        int san = json_is_true(json_object_get(v, "sanitizer_finding"));
        int caught = json_array_size(json_object_get(v, "caught")) > 0;
        gr_str_addf(verdicts, "%s%s%s%s", q ? " " : "", vv ? vv : "?", san ? "+SAN" : "", caught ? "+CAUGHT" : "");
    }
    return sc;
}

/* A score's cell of grades.csv and of the terminal's table: empty ("-") unless shown, never 0.00 for a score
 * that is not one. */
static void score_cell(FILE *csv, FILE *term, int shown, double x)
{
    gr_csv_put_number(csv, shown ? x : NAN, ",");
    if (term && shown) fprintf(term, " %8.2f", x);
    else if (term) fprintf(term, " %8s", "-");
}

/* One student's row of grades.csv and of the terminal's table, added into the stats. */
static void gr_class_row(json_t *g, const gr_rubric *rub, FILE *csv, FILE *term, gr_class_stats *s)
{
    const char *who = json_string_value(json_object_get(g, "student"));
    gr_csv_put_text(csv, who ? who : "?", ",");
    json_t *chs = json_object_get(g, "chapters");
    int not_run = gr_grading_not_run(g); /* no score at all, the reason in the note; never 0.00 */
    int ungraded = 0;
    double row[GR_MAX_CH] = {0}; /* into the chapter means only if the entry was graded */
    if (term) fprintf(term, "%-24.24s", who ? who : "?");
    gr_str verdicts = {0};
    for (int c = 0; c < rub->n_ch; c++) {
        int found;
        row[c] = gr_class_chapter(chs, rub->ch[c].number, &s->ch_max[c], &found, &ungraded, &verdicts);
        score_cell(csv, term, found && !not_run, row[c]);
    }
    double total = json_number_value(json_object_get(g, "score")), mx = json_number_value(json_object_get(g, "max_score"));
    const char *err = json_string_value(json_object_get(g, "error"));
    score_cell(csv, term, !not_run, total);
    gr_csv_put_number(csv, mx, ",");
    /* the reason column: never empty for an entry not graded (an older grading.json may lack it) */
    gr_csv_put_text(csv, err && *err ? err : not_run ? gr_str_c(&verdicts) : "", "\r\n");
    if (term) fprintf(term, "  %s%s%s\n", gr_str_c(&verdicts), err && *err ? " " : "", err ? err : "");
    gr_str_free(&verdicts);
    s->maxs = mx > s->maxs ? mx : s->maxs;
    if (not_run) { /* not in the mean, best or lowest: it is retried on the next run */
        s->errors++;
        s->ungraded_students++;
        return;
    }
    s->students++;
    for (int c = 0; c < rub->n_ch; c++) s->ch_sum[c] += row[c];
    s->sum += total;
    if (total > s->best) s->best = total;
    if (total < s->worst) s->worst = total;
    s->full += mx > 0 && total >= mx;
    s->errors += (err && *err) || ungraded;
}

static void gr_class_summary(const char *out_dir, const gr_rubric *rub, const gr_class_stats *s, FILE *term)
{
    char path[PATH_MAX];
    int n = s->students;
    snprintf(path, sizeof path, "%s/summary.md", out_dir);
    FILE *sm = fopen(path, "w");
    if (sm) {
        fprintf(sm, "# Class summary\n\n%d entries; %d could not be graded (empty grade, retried on the next run).\n\n",
                n + s->ungraded_students, s->ungraded_students);
        fprintf(sm, "%d submissions graded; mean %.2f / %.2f, best %.2f, lowest %.2f; %d full "
                    "marks; %d with a chapter or more not graded (missing, not gradable, build failed).\n\n| chapter | mean | max |\n|---|---|---|\n",
                n, n ? s->sum / n : 0, s->maxs, n ? s->best : 0, n ? s->worst : 0, s->full, s->errors);
        for (int c = 0; c < rub->n_ch; c++)
            if (s->ch_max[c] > 0)
                fprintf(sm, "| %d | %.2f | %.2f |\n", rub->ch[c].number, n ? s->ch_sum[c] / n : 0, s->ch_max[c]);
        fclose(sm);
    }
    if (term)
        fprintf(term, "class: %d submissions, mean %.2f / %.2f, %d full marks, %d with a chapter not graded -> %s/grades.csv\n",
                n, n ? s->sum / n : 0, s->maxs, s->full, s->errors, out_dir);
}

int gr_write_class(const char *out_dir, const gr_rubric *rub, FILE *term)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/grades.csv", out_dir);
    FILE *csv = fopen(path, "wb");
    if (!csv) return -1;
    gr_class_headers(rub, csv, term);
    struct dirent **list = NULL;
    int n = scandir(out_dir, &list, NULL, alphasort);
    gr_class_stats s = {.best = -1, .worst = 1e300};
    for (int i = 0; i < n; i++) {
        char gp[PATH_MAX];
        snprintf(gp, sizeof gp, "%s/%s/grading.json", out_dir, list[i]->d_name);
        json_t *g = list[i]->d_name[0] != '.' ? json_load_file(gp, 0, NULL) : NULL;
        free(list[i]);
        if (!g) continue;
        gr_class_row(g, rub, csv, term, &s);
        json_decref(g);
    }
    free(list);
    fclose(csv);
    gr_class_summary(out_dir, rub, &s, term);
    return s.students;
}
