/* grades.c — see grades.h. */
#define _GNU_SOURCE 1
#include "grades.h"

#include <math.h>

int gr_csv_is_formula(const char *s) { return s && *s && strchr("=+-@\t\r", *s) != NULL; }

/* Quoted by hand rather than through libcsv's csv_write, which quotes every cell: the files keep the
 * plain form the LMS imports and the tests read ("Ann Lee,202,,,L2,0.00"). */
void gr_csv_text(gr_str *b, const char *s)
{
    if (!s) s = "";
    int quote = strpbrk(s, ",\"\r\n") != NULL;
    if (quote) gr_str_add(b, "\"");
    if (gr_csv_is_formula(s)) gr_str_add(b, "'");
    for (const char *q; (q = strchr(s, '"')); s = q + 1) {
        gr_str_addn(b, s, (size_t)(q - s) + 1);
        gr_str_add(b, "\""); /* a quote inside a quoted cell is doubled */
    }
    gr_str_add(b, s);
    if (quote) gr_str_add(b, "\"");
}

void gr_csv_number(gr_str *b, double x)
{
    if (isfinite(x)) gr_str_addf(b, "%.2f", x);
}

/* One cell written to f before `end` ("," or a row's "\r\n"): text s, or where s is NULL the number x. */
static void cell(FILE *f, const char *s, double x, const char *end)
{
    gr_str b = {0};
    if (s) gr_csv_text(&b, s);
    else gr_csv_number(&b, x);
    fprintf(f, "%s%s", gr_str_c(&b), end);
    gr_str_free(&b);
}

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
    cell(csv, NULL, shown ? x : NAN, ",");
    if (term && shown) fprintf(term, " %8.2f", x);
    else if (term) fprintf(term, " %8s", "-");
}

/* One student's row of grades.csv and of the terminal's table, added into the stats. */
static void gr_class_row(json_t *g, const gr_rubric *rub, FILE *csv, FILE *term, gr_class_stats *s)
{
    const char *who = json_string_value(json_object_get(g, "student"));
    cell(csv, who ? who : "?", 0, ",");
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
    cell(csv, NULL, mx, ",");
    /* the reason column: never empty for an entry not graded (an older grading.json may lack it) */
    cell(csv, err && *err ? err : not_run ? gr_str_c(&verdicts) : "", 0, "\r\n");
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

/* An entry's total for Canvas (NAN, an empty cell, when its grading could not run); *max: the largest maximum. */
static double entry_score(const char *out_dir, const char *folder, double *max)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s/grading.json", out_dir, folder);
    json_t *g = json_load_file(p, 0, NULL);
    double score = g && !gr_grading_not_run(g) ? json_number_value(json_object_get(g, "score")) : NAN;
    *max = fmax(*max, json_number_value(json_object_get(g, "max_score")));
    json_decref(g);
    return score;
}

/* A person's row: their roster cells as text (a name like =HYPERLINK(…) is no formula there), the
 * score as a number (never an apostrophe before it); 1, the rows it wrote. */
static int canvas_row(FILE *f, json_t *person, double score)
{
    const char *keys[] = {"name", "id", "sid", "login", "section"};
    for (int k = 0; k < 5; k++) cell(f, json_string_value(json_object_get(person, keys[k])) ?: "", 0, ",");
    cell(f, NULL, score, "\r\n");
    return 1;
}

int gr_write_canvas(const char *out_dir, const char *assignment, char *why, size_t wlen)
{
    char p[PATH_MAX], csv[PATH_MAX];
    snprintf(p, sizeof p, "%s/lms.json", out_dir);
    snprintf(csv, sizeof csv, "%s/canvas-grades.csv", out_dir);
    json_t *lms = json_load_file(p, 0, NULL);
    FILE *f = lms ? fopen(csv, "wb") : NULL;
    if (!f) {
        snprintf(why, wlen, lms ? "cannot write %s" : "no %s: the class was not staged", lms ? csv : p);
        json_decref(lms);
        return -1;
    }
    json_t *entries = json_object_get(lms, "entries"), *e, *q;
    size_t i, k;
    double max = 0, *scores = calloc(json_array_size(entries) + 1, sizeof *scores);
    json_array_foreach(entries, i, e)
        scores[i] = entry_score(out_dir, json_string_value(json_object_get(e, "folder")) ?: "", &max);
    fputs("Student,ID,SIS User ID,SIS Login ID,Section,", f);
    cell(f, assignment && *assignment ? assignment : "CUDA workbook", 0, "\r\n");
    fputs("Points Possible,,,,,", f);
    cell(f, NULL, max, "\r\n");
    int rows = 0;
    json_array_foreach(entries, i, e)
        json_array_foreach(json_object_get(e, "people"), k, q) rows += canvas_row(f, q, scores[i]);
    json_array_foreach(json_object_get(lms, "no_submission"), k, q) rows += canvas_row(f, q, NAN);
    int bad = fclose(f);
    free(scores);
    json_decref(lms);
    return bad ? -1 : rows;
}
