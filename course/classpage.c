#define _GNU_SOURCE 1
#include "classpage.h"

#include <jansson.h>

#include "gr_util.h"
#include "html.h"
#include "report.h"

typedef struct {
    const char *student, *folder, *name, *section;
    json_t *g;       /* grading.json, or NULL: never graded */
    int not_run;     /* could not be graded (roster.h): an empty grade */
    double score, max;
} row;

typedef struct {
    row *r;
    int n;
    json_t *roster, *lms, *sim;
    const gr_rubric *rub;
} klass;

static const char *jstr(const json_t *o, const char *key) { return json_string_value(json_object_get(o, key)) ?: ""; }

static long long jint(const json_t *o, const char *key) { return json_integer_value(json_object_get(o, key)); }

/* <out>/<folder><file>, or NULL */
static json_t *load_json(const char *out, const char *folder, const char *file)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s%s", out, folder, file);
    return json_load_file(p, 0, NULL);
}

static int load(const char *out, klass *k)
{
    if (!(k->roster = load_json(out, "", "roster.json"))) return -1;
    k->lms = load_json(out, "", "lms.json");
    k->sim = load_json(out, "", "similarity.json");
    k->r = calloc(json_array_size(k->roster) + 1, sizeof *k->r);
    size_t i, j;
    json_t *e, *l, *who;
    json_array_foreach(k->roster, i, e)
    {
        row *r = &k->r[k->n++];
        r->student = json_string_value(json_object_get(e, "student")) ?: "?";
        r->folder = jstr(e, "folder");
        who = NULL; /* the LMS's person of the entry (lms.json), if any */
        json_array_foreach(json_object_get(k->lms, "entries"), j, l) if (!who && !strcmp(jstr(l, "folder"), r->folder))
            who = json_array_get(json_object_get(l, "people"), 0);
        r->name = jstr(who, "name");
        r->section = jstr(who, "section");
        r->g = load_json(out, r->folder, "/grading.json");
        r->not_run = !r->g || gr_grading_not_run(r->g);
        r->score = json_number_value(json_object_get(r->g, "score"));
        r->max = json_number_value(json_object_get(r->g, "max_score"));
    }
    return 0;
}

/* pre, then the link to r's page (none without r) */
static void student_link(gr_str *b, const char *pre, const row *r)
{
    gr_str_add(b, pre);
    if (!r) return;
    gr_str_add(b, "<a href=\"");
    gr_html_href(b, r->folder, "feedback.html");
    gr_html_wrap(b, "\">", r->student, "</a>");
}

/* ---------------------------------------------------------------- the sections */
static void sec_scores(gr_str *b, const klass *k)
{
    double *s = calloc((size_t)k->n + 1, sizeof *s), max = 0;
    int n = 0, bins[10] = {0}, full = 0;
    for (int i = 0; i < k->n; i++)
        if (!k->r[i].not_run) {
            const row *r = &k->r[i];
            double pct = r->max > 0 ? 100 * r->score / r->max : 0;
            s[n++] = r->score, max = r->max > max ? r->max : max, full += r->max > 0 && r->score >= r->max;
            bins[pct >= 100 ? 9 : (int)(pct / 10)]++;
        }
    double med = n ? gr_median(s, n) : 0, sum = 0;
    for (int i = 0; i < n; i++) sum += s[i];
    gr_str_addf(b, "<h2 id=\"scores\">Scores</h2>\n<p><span class=\"kpi\">entries <b>%d</b></span><span class=\"kpi\">graded <b>%d</b></span>"
                   "<span class=\"kpi\">mean <b>%.2f</b> / %.2f</span><span class=\"kpi\">median <b>%.2f</b></span>"
                   "<span class=\"kpi\">full marks <b>%d</b></span></p>\n",
                k->n, n, n ? sum / n : 0, max, med, full);
    gr_str d = {0};
    for (int i = 0; i < 10; i++) gr_str_addf(&d, "%d %d\n", 10 * i + 5, bins[i]);
    gr_html_plot(b, "set boxwidth 9\nset style fill solid 0.8 border -1\nset xrange [0:100]\nset xtics 0,10,100\n"
                    "set yrange [0:*]\nset ytics 1\nset xlabel 'score, % of the maximum'\nset ylabel 'students'\nset grid ytics\n"
                    "plot $D using 1:2 with boxes lc rgb '#4a7ebb' notitle\n",
                 d.s, 760, 300, "Score distribution of the graded entries (bins of 10 %; the last holds 90-100 %).");
    gr_str_free(&d);
    free(s);
}

/* A variant's result in one student's grading.json, or NULL if that chapter was not graded. */
static json_t *variant_of(json_t *g, int number, const char *name)
{
    size_t i, j;
    json_t *c, *v;
    json_array_foreach(json_object_get(g, "chapters"), i, c)
    {
        if (jint(c, "number") != number) continue;
        if (strcmp(jstr(c, "status"), "graded")) return NULL;
        json_array_foreach(json_object_get(c, "variants"), j, v) if (!strcmp(jstr(v, "variant"), name)) return v;
    }
    return NULL;
}

static void sec_chapter(gr_str *b, const klass *k, const gr_chapter_rubric *ch)
{
    int any = 0; /* a chapter no entry was graded in (a class graded with CH=n, say): one line, no empty plots */
    for (int i = 0; i < k->n && !any; i++)
        for (int v = 0; v < ch->n_var && !any; v++) any = !k->r[i].not_run && variant_of(k->r[i].g, ch->number, ch->var[v].name);
    if (!any) {
        gr_str_addf(b, "<h3>Chapter %d (%s)</h3>\n<p class=\"note\">No entry was graded in this chapter.</p>\n", ch->number, ch->dir);
        return;
    }
    gr_str bars = {0}, pts = {0}, tics = {0};
    gr_str_addf(b, "<h3>Chapter %d (%s)</h3>\n<table><tr><th>variant</th><th>graded</th><th>correct</th><th>full performance points</th>"
                   "<th>median speed vs reference</th></tr>\n", ch->number, ch->dir);
    gr_str_add(&tics, "set xtics (");
    for (int v = 0; v < ch->n_var; v++) {
        const gr_variant_rubric *vr = &ch->var[v];
        int graded = 0, correct = 0, full = 0, ns = 0;
        double *sp = calloc((size_t)k->n + 1, sizeof *sp);
        for (int i = 0; i < k->n; i++) {
            json_t *x = k->r[i].not_run ? NULL : variant_of(k->r[i].g, ch->number, vr->name);
            if (!x || !strcmp(jstr(x, "verdict"), "UNAVAILABLE")) continue; /* not graded on that entry's GPU */
            graded++;
            correct += !strcmp(jstr(x, "verdict"), "PASS");
            full += vr->perf > 0 && json_number_value(json_object_get(x, "perf_points")) >= vr->perf - 1e-9;
            double ratio = json_number_value(json_object_get(x, "time_ratio"));
            if (ratio > 0) {
                sp[ns++] = 1 / ratio;
                /* a deterministic spread of the points around the variant's place */
                gr_str_addf(&pts, "%.3f %.4f\n", v + 0.3 * ((i * 37 % 11) / 10.0 - 0.5), 1 / ratio);
            }
        }
        double pc = graded ? 100.0 * correct / graded : 0, pf = graded ? 100.0 * full / graded : 0;
        gr_str_addf(&bars, "\"%s\" %.1f %.1f\n", vr->name, pc, pf);
        gr_str_addf(&tics, "%s'%s' %d", v ? ", " : "", vr->name, v);
        gr_str_addf(b, "<tr><td>%s</td><td class=\"num\">%d</td><td class=\"num\">%.0f %%</td><td class=\"num\">%.0f %%</td>", vr->name, graded, pc, pf);
        if (ns) gr_str_addf(b, "<td class=\"num\">%.2fx (%d timed)</td></tr>\n", gr_median(sp, ns), ns);
        else gr_str_add(b, "<td class=\"num\">-</td></tr>\n");
        free(sp);
    }
    gr_str_add(b, "</table>\n");
    gr_str_add(&tics, ")\n");
    char cap[200];
    snprintf(cap, sizeof cap, "Chapter %d: share of the graded students whose variant is correct, and whose variant earned the full performance points.", ch->number);
    gr_html_plot(b, "set style data histogram\nset style histogram clustered gap 1\nset style fill solid 0.85 border -1\n"
                    "set yrange [0:105]\nset ylabel '% of graded students'\nset grid ytics\nset key outside top center horizontal\n"
                    "plot $D using 2:xtic(1) title 'correct' lc rgb '#4a7ebb', '' using 3 title 'full performance points' lc rgb '#e08a2c'\n",
                 bars.s, 760, 300, cap);
    if (pts.len) {
        gr_str sc = {0};
        gr_str_addf(&sc, "%sset xrange [-0.6:%d.6]\nset logscale y 2\nset ylabel 'speed: reference time / student time'\n"
                         "set grid ytics\nset arrow from -0.6,1 to %d.6,1 nohead lc rgb '#a00000' dt 2\n"
                         "plot $D using 1:2 with points pt 7 ps 0.9 lc rgb '#4a7ebb' notitle\n", tics.s, ch->n_var - 1, ch->n_var - 1);
        snprintf(cap, sizeof cap, "Chapter %d: each timed student's speed relative to the reference, per variant (1 = as fast; above is faster).", ch->number);
        gr_html_plot(b, sc.s, pts.s, 760, 320, cap);
        gr_str_free(&sc);
    }
    gr_str_free(&bars), gr_str_free(&pts), gr_str_free(&tics);
}

/* tally[label] = {count, examples: [row index, ...] (at most 6)} */
static void tally_add(json_t *tally, const char *label, int row_index)
{
    json_t *t = json_object_get(tally, label);
    if (!t) json_object_set_new(tally, label, t = json_pack("{s:i, s:[]}", "count", 0, "examples"));
    json_object_set_new(t, "count", json_integer(json_integer_value(json_object_get(t, "count")) + 1));
    json_t *ex = json_object_get(t, "examples");
    size_t i;
    json_t *v;
    json_array_foreach(ex, i, v) if (json_integer_value(v) == row_index) return;
    if (json_array_size(ex) < 6) json_array_append_new(ex, json_integer(row_index));
}

static void tally_table(gr_str *b, const klass *k, json_t *tally, const char *what, const char *none)
{
    if (!json_object_size(tally)) {
        gr_str_addf(b, "<p class=\"note\">%s</p>\n", none);
        return;
    }
    gr_str_addf(b, "<table><tr><th>%s</th><th>variants</th><th>examples</th></tr>\n", what);
    const char *label;
    json_t *t;
    json_object_foreach(tally, label, t)
    {
        gr_html_wrap(b, "<tr><td>", label, "</td>");
        gr_str_addf(b, "<td class=\"num\">%lld</td><td>", jint(t, "count"));
        size_t i;
        json_t *v;
        json_array_foreach(json_object_get(t, "examples"), i, v)
            student_link(b, i ? ", " : "", &k->r[json_integer_value(v)]);
        gr_str_add(b, "</td></tr>\n");
    }
    gr_str_add(b, "</table>\n");
}

/* The bug classes, sanitizer findings and what was caught, tallied over every graded variant of every student. */
static void sec_findings(gr_str *b, const klass *k)
{
    json_t *bugs = json_object(), *san = json_object(), *caught = json_object();
    for (int i = 0; i < k->n; i++) {
        size_t c, v, q;
        json_t *ch, *x, *name;
        json_array_foreach(json_object_get(k->r[i].g, "chapters"), c, ch) json_array_foreach(json_object_get(ch, "variants"), v, x)
        {
            char label[200];
            int num = (int)json_integer_value(json_object_get(ch, "number"));
            const char *var = json_string_value(json_object_get(x, "variant")) ?: "?";
            const char *cls = json_string_value(json_object_get(json_object_get(x, "diagnosis"), "class"));
            if (cls) tally_add(bugs, cls, i);
            snprintf(label, sizeof label, "chapter %d / %s", num, var);
            if (json_is_true(json_object_get(x, "sanitizer_finding"))) tally_add(san, label, i);
            json_array_foreach(json_object_get(x, "caught"), q, name)
            {
                snprintf(label, sizeof label, "%s (chapter %d / %s)", json_string_value(name) ?: "?", num, var);
                tally_add(caught, label, i);
            }
        }
    }
    gr_str_add(b, "<h2 id=\"bugs\">Bug classes named</h2>\n<p>What the diagnosis named for a wrong, crashing or slow variant, "
                  "across the class (each student's page has the evidence and the hint).</p>\n");
    tally_table(b, k, bugs, "bug class", "No bug class was named for anyone.");
    gr_str_add(b, "<h2 id=\"flags\">Sanitizer findings and honesty flags</h2>\n<h3>compute-sanitizer findings</h3>\n");
    tally_table(b, k, san, "variant", "No sanitizer finding.");
    gr_str_add(b, "<h3>Caught by the grader</h3>\n<p>Times that could not be real work, work on the host, code the region screen "
                  "refuses (grading/honesty.h); each costs the points its rule says.</p>\n");
    tally_table(b, k, caught, "finding", "Nothing was caught.");
    json_decref(bugs), json_decref(san), json_decref(caught);
}

/* The row of a folder, for the similarity section (sim works on folders). */
static const row *row_of(const klass *k, const char *folder)
{
    for (int i = 0; i < k->n; i++)
        if (!strcmp(k->r[i].folder, folder)) return &k->r[i];
    return NULL;
}

/* One chapter's students alike, a group each (course/similarity.c): who, how many pairs, and the passages of
 * the pairs that link them (n - 1 for n students: every pair is in similarity.json). */
static void sim_groups(gr_str *b, const klass *k, int num, const json_t *ch)
{
    size_t g, i, s;
    json_t *grp, *p, *who, *shown = json_array(); /* n - 1 of the pairs: each group's are found among these */
    json_array_foreach(json_object_get(ch, "pairs"), i, p) if (json_is_true(json_object_get(p, "shown")))
        json_array_append(shown, p);
    json_array_foreach(json_object_get(ch, "groups"), g, grp)
    {
        json_t *st = json_object_get(grp, "students");
        long long n = jint(grp, "pairs");
        gr_str_addf(b, "<h3 class=\"pair\">Chapter %d: %zu students alike, %lld pair%s at or above the threshold",
                    num, json_array_size(st), n, n == 1 ? "" : "s");
        gr_str_add(b, "</h3>\n");
        gr_str_add(b, "<p>");
        json_array_foreach(st, s, who) student_link(b, s ? ", " : "", row_of(k, json_string_value(who)));
        gr_str_add(b, "</p>\n");
        json_array_foreach(shown, i, p)
        {
            if (jint(p, "group") != (long long)g) continue;
            gr_str_add(b, "<h4 class=\"pair\">");
            student_link(b, "", row_of(k, jstr(p, "a")));
            student_link(b, " and ", row_of(k, jstr(p, "b")));
            gr_str_addf(b, ": <span class=\"bad\">%lld %%</span></h4>\n", jint(p, "percent"));
            gr_html_wrap(b, "<pre>", jstr(p, "passages"), "</pre>\n");
        }
    }
    json_decref(shown);
}

static void sec_similarity(gr_str *b, const klass *k)
{
    gr_str_add(b, "<h2 id=\"similarity\">Similarity between students</h2>\n");
    if (!k->sim) {
        gr_str_add(b, "<p class=\"note\">Not run (turned off with --no-similarity, or not yet run on this output).</p>\n");
        return;
    }
    const char *why = json_string_value(json_object_get(k->sim, "unavailable"));
    gr_str_addf(b, "<p>Only what students wrote is compared: their TODO regions that differ from the starter's, by "
                   "similarity-tester's <code>sim_c</code>; pairs at or above %lld %% of one's code found in the other's. "
                   "It never changes a grade: read the passages before concluding anything.</p>\n",
                jint(k->sim, "threshold"));
    if (why) {
        gr_html_wrap(b, "<p class=\"note\">", why, "</p>\n");
        return;
    }
    size_t c, i;
    json_t *ch, *p;
    int pairs = 0;
    json_array_foreach(json_object_get(k->sim, "chapters"), c, ch)
    {
        int num = (int)jint(ch, "number");
        sim_groups(b, k, num, ch);
        pairs += (int)json_array_size(json_object_get(ch, "pairs"));
        json_t *ref = json_object_get(ch, "reference");
        if (json_array_size(ref)) {
            gr_str_addf(b, "<p>Chapter %d, regions like the reference solution's: ", num);
            json_array_foreach(ref, i, p)
            {
                student_link(b, i ? ", " : "", row_of(k, jstr(p, "student")));
                gr_str_addf(b, " (%lld %%)", jint(p, "percent"));
            }
            gr_str_add(b, "</p>\n");
        }
    }
    if (!pairs) gr_str_add(b, "<p class=\"ok\">No pair of students above the threshold.</p>\n");
}

static void sec_not_graded(gr_str *b, const klass *k)
{
    gr_str_add(b, "<h2 id=\"not-graded\">Not graded</h2>\n<table><tr><th>entry</th><th>what</th><th>reason</th></tr>\n");
    int n = 0;
    for (int i = 0; i < k->n; i++) {
        const row *r = &k->r[i];
        const char *err = jstr(r->g, "error");
        if (r->not_run || *err) {
            const char *why = *err  ? err
                              : r->g ? "a chapter could not be graded (grader error or no GPU)"
                                     : "no grading.json yet";
            student_link(b, "<tr><td>", r);
            gr_str_add(b, "</td><td class=\"bad\">whole entry (empty grade; graded again on the next run)</td>");
            gr_html_wrap(b, "<td>", why, "</td></tr>\n");
            n++;
            continue;
        }
        size_t c;
        json_t *ch;
        json_array_foreach(json_object_get(r->g, "chapters"), c, ch)
        {
            const char *st = json_string_value(json_object_get(ch, "status")) ?: "?";
            if (!strcmp(st, "graded")) continue;
            student_link(b, "<tr><td>", r);
            gr_str_addf(b, "</td><td>chapter %lld: ", jint(ch, "number"));
            gr_html_wrap(b, "", st, "</td><td>see the student's page</td></tr>\n");
            n++;
        }
    }
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(k->lms, "no_submission"), i, p)
    {
        gr_html_wrap(b, "<tr><td>", jstr(p, "name"), "</td><td>roster</td><td>no submission</td></tr>\n");
        n++;
    }
    gr_str_add(b, "</table>\n");
    if (!n) gr_str_add(b, "<p class=\"ok\">Every entry was graded, every chapter of it.</p>\n");
}

static void sec_students(gr_str *b, const klass *k)
{
    gr_str_add(b, "<h2 id=\"students\">Students</h2>\n<table><tr><th>student</th><th>name</th><th>section</th>");
    for (int c = 0; c < k->rub->n_ch; c++) gr_str_addf(b, "<th>ch%d</th>", k->rub->ch[c].number);
    gr_str_add(b, "<th>total</th><th>max</th></tr>\n");
    for (int i = 0; i < k->n; i++) {
        const row *r = &k->r[i];
        student_link(b, "<tr><td>", r);
        gr_html_wrap(b, "</td><td>", r->name, "</td>");
        gr_html_wrap(b, "<td>", r->section, "</td>");
        for (int c = 0; c < k->rub->n_ch; c++) {
            size_t q;
            json_t *ch;
            char num[32] = "";
            json_array_foreach(json_object_get(r->g, "chapters"), q, ch) if (jint(ch, "number") == k->rub->ch[c].number)
                snprintf(num, sizeof num, "%.2f", json_number_value(json_object_get(ch, "score")));
            gr_str_addf(b, "<td class=\"num\">%s</td>", r->not_run ? "" : num);
        }
        if (r->not_run) gr_str_addf(b, "<td class=\"num bad\">not graded</td><td class=\"num\">%.2f</td></tr>\n", r->max);
        else gr_str_addf(b, "<td class=\"num\">%.2f</td><td class=\"num\">%.2f</td></tr>\n", r->score, r->max);
    }
    gr_str_add(b, "</table>\n");
}

int gr_class_page(const char *out_dir, const gr_rubric *rub)
{
    klass k = {0};
    k.rub = rub;
    if (load(out_dir, &k)) {
        fprintf(stderr, "grade: no %s/roster.json: no class page\n", out_dir);
        return -1;
    }
    gr_str b = {0};
    char title[300], when[64];
    time_t now = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    snprintf(title, sizeof title, "Class report%s%s", rub->course[0] ? ": " : "", rub->course);
    gr_html_head(&b, title);
    gr_html_wrap(&b, "<h1>", title, "</h1>\n");
    gr_str_addf(&b, "<p class=\"note\">Written %s by the grader from this folder's grading.json files; "
                    "grades.csv (and canvas-grades.csv) hold the same scores.</p>\n"
                    "<nav><a href=\"#scores\">scores</a><a href=\"#chapters\">chapters</a><a href=\"#bugs\">bug classes</a>"
                    "<a href=\"#flags\">sanitizer and honesty</a><a href=\"#similarity\">similarity</a>"
                    "<a href=\"#not-graded\">not graded</a><a href=\"#students\">students</a></nav>\n", when);
    sec_scores(&b, &k);
    gr_str_add(&b, "<h2 id=\"chapters\">Chapters and variants</h2>\n");
    for (int c = 0; c < rub->n_ch; c++) sec_chapter(&b, &k, &rub->ch[c]);
    sec_findings(&b, &k);
    sec_similarity(&b, &k);
    sec_not_graded(&b, &k);
    sec_students(&b, &k);
    gr_html_foot(&b);
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/class.html", out_dir);
    int rc = gr_write_file(p, b.s, b.len) ? -1 : k.n;
    if (rc < 0) fprintf(stderr, "grade: cannot write %s\n", p);
    gr_str_free(&b);
    for (int i = 0; i < k.n; i++) json_decref(k.r[i].g);
    free(k.r);
    json_decref(k.roster), json_decref(k.lms), json_decref(k.sim);
    return rc;
}
