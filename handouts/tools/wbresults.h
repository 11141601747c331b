/*
 * wbresults.h — turns a chapter's recorded results (the JSON lines of `build/solutionN --json`) into
 * the pieces a handout includes: a Markdown table, a gnuplot script for the throughput plot, and the
 * seeds' claims beside the measurement (from the `--claims` text of the same run).
 *
 * The handouts never carry a measured number typed by hand: `make handouts` calls the tool built from
 * wbresults.c, which calls these functions; tests/test_handouts.c calls them too, on made-up results,
 * to show that what comes out is what went in.
 *
 * Plain C with jansson, static inline (like common/ and grading/).
 */
#ifndef WB_RESULTS_H
#define WB_RESULTS_H

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Markers a handout places on lines of their own; `wbr_expand` replaces each with its piece. */
#define WBR_MARK_TABLE "<!-- results-table -->"
#define WBR_MARK_PLOT "<!-- results-plot -->"
#define WBR_MARK_CLAIMS "<!-- results-claims -->"

/* A number field: its value, or NAN when absent or null (the contract writes null for "does not apply"). */
static inline double wbr_num(json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static inline const char *wbr_str(json_t *obj, const char *key)
{
    const char *s = json_string_value(json_object_get(obj, key));
    return s ? s : "";
}

/* Reads a results file (one JSON object per line, CONTRACT.md). Returns an array, or NULL with the
 * reason in err: the file cannot be read, a line is not JSON, or a field the tables need is missing. */
static inline json_t *wbr_load_lines(const char *path, char *err, size_t errlen)
{
    static const char *const strings[] = {"chapter", "variant", "size", "gpu", "unit", "verdict"};
    static const char *const numbers[] = {"median_ms", "throughput", "sol_pct", "speedup"};
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot read %s", path);
        return NULL;
    }
    json_t *all = json_array();
    char line[8192];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (strspn(line, " \t\r\n") == strlen(line)) continue;
        json_error_t e;
        json_t *obj = json_loads(line, 0, &e);
        const char *why = NULL;
        char whybuf[256];
        if (!obj || !json_is_object(obj)) {
            snprintf(whybuf, sizeof whybuf, "not a JSON object (%.160s)", obj ? "other value" : e.text);
            why = whybuf;
        }
        for (size_t k = 0; !why && k < sizeof strings / sizeof *strings; k++)
            if (!json_is_string(json_object_get(obj, strings[k]))) {
                snprintf(whybuf, sizeof whybuf, "field \"%s\" is missing or not a string", strings[k]);
                why = whybuf;
            }
        for (size_t k = 0; !why && k < sizeof numbers / sizeof *numbers; k++) {
            json_t *v = json_object_get(obj, numbers[k]);
            if (!json_is_number(v) && !json_is_null(v)) {
                snprintf(whybuf, sizeof whybuf, "field \"%s\" is missing or neither a number nor null", numbers[k]);
                why = whybuf;
            }
        }
        if (why) {
            snprintf(err, errlen, "%.100s:%d: %.140s", path, lineno, why);
            json_decref(obj);
            json_decref(all);
            fclose(f);
            return NULL;
        }
        json_array_append_new(all, obj);
    }
    fclose(f);
    if (json_array_size(all) == 0) {
        snprintf(err, errlen, "%s has no results", path);
        json_decref(all);
        return NULL;
    }
    return all;
}

/* The meta file beside a results file (date, command, commit…): an object, or an empty one. */
static inline json_t *wbr_load_meta(const char *path)
{
    json_error_t e;
    json_t *m = path ? json_load_file(path, 0, &e) : NULL;
    if (!json_is_object(m)) {
        json_decref(m);
        m = json_object();
    }
    return m;
}

static inline int wbr_is_reference(json_t *row) { return strcmp(wbr_str(row, "verdict"), "REFERENCE") == 0; }

/* Elements of a size, from its "dims" (for picking the largest size to plot). */
static inline double wbr_size_elems(json_t *row)
{
    json_t *dims = json_object_get(row, "dims"), *d;
    size_t i;
    double e = 1;
    if (!json_is_array(dims) || json_array_size(dims) == 0) return 0;
    json_array_foreach(dims, i, d) e *= json_is_number(d) ? json_number_value(d) : 0;
    return e;
}

/* "268435456" -> "268435456 = 2^28"; other sizes as they are. */
static inline void wbr_size_label(const char *size, char *buf, size_t len)
{
    char *end;
    unsigned long long v = strtoull(size, &end, 10);
    int k = 0;
    if (*size && !*end && v >= 1024 && (v & (v - 1)) == 0) {
        while ((1ull << k) != v) k++;
        snprintf(buf, len, "%s = 2^%d", size, k);
    } else {
        snprintf(buf, len, "%s", size);
    }
}

static inline void wbr_fmt(char *buf, size_t len, const char *fmt, double x)
{
    if (isfinite(x)) snprintf(buf, len, fmt, x);
    else snprintf(buf, len, "–");
}

/* The first non-reference variant of the file: the one every speed-up is measured against. */
static inline const char *wbr_baseline(json_t *rows)
{
    size_t i;
    json_t *r;
    json_array_foreach(rows, i, r) if (!wbr_is_reference(r)) return wbr_str(r, "variant");
    return "";
}

/* The caption under a table or plot: where the numbers come from. */
static inline void wbr_provenance(FILE *f, json_t *rows, json_t *meta, const char *results_path)
{
    json_t *first = json_array_get(rows, 0);
    fprintf(f, "Reference solution run on %s", wbr_str(first, "gpu"));
    if (*wbr_str(meta, "date")) fprintf(f, " on %s", wbr_str(meta, "date"));
    if (*wbr_str(meta, "command")) fprintf(f, " with `%s`", wbr_str(meta, "command"));
    json_t *seed = json_object_get(first, "seed"), *reps = json_object_get(first, "reps");
    if (json_is_integer(seed) && json_is_integer(reps))
        fprintf(f, "; seed %lld, median of %lld timed runs", (long long)json_integer_value(seed),
                (long long)json_integer_value(reps));
    if (*wbr_str(meta, "commit")) fprintf(f, "; source at commit %s", wbr_str(meta, "commit"));
    fprintf(f, ". Generated by `make handouts` from `%s`", results_path);
    if (*wbr_str(meta, "note")) fprintf(f, " (%s)", wbr_str(meta, "note"));
    fputs(".", f);
}

/* A Markdown (pandoc pipe) table of every row, the speed-of-light row first within each size, as
 * the program prints it, plus a caption naming the GPU, date, command and file. */
static inline void wbr_table(FILE *f, json_t *rows, json_t *meta, const char *results_path)
{
    size_t i;
    json_t *r;
    int has_prep = 0;
    const char *extra_name = NULL;
    json_array_foreach(rows, i, r)
    {
        if (isfinite(wbr_num(r, "prep_ms"))) has_prep = 1;
        if (json_is_string(json_object_get(r, "extra_name"))) extra_name = wbr_str(r, "extra_name");
    }
    const char *unit = wbr_str(json_array_get(rows, 0), "unit");
    fprintf(f, "| variant | size | time (ms) |%s %s | %% of speed of light | speed-up over %s |%s%s%s check |\n",
            has_prep ? " prep (ms) |" : "", unit, wbr_baseline(rows), extra_name ? " " : "",
            extra_name ? extra_name : "", extra_name ? " |" : "");
    fprintf(f, "|:--|:--|--:|%s--:|--:|--:|%s:--|\n", has_prep ? "--:|" : "", extra_name ? "--:|" : "");
    json_array_foreach(rows, i, r)
    {
        char size[64], ms[32], prep[32], tp[32], pct[32], sp[32];
        wbr_size_label(wbr_str(r, "size"), size, sizeof size);
        wbr_fmt(ms, sizeof ms, "%.4f", wbr_num(r, "median_ms"));
        wbr_fmt(prep, sizeof prep, "%.4f", wbr_num(r, "prep_ms"));
        wbr_fmt(tp, sizeof tp, "%.1f", wbr_num(r, "throughput"));
        wbr_fmt(pct, sizeof pct, "%.1f %%", wbr_num(r, "sol_pct"));
        wbr_fmt(sp, sizeof sp, "%.2f×", wbr_num(r, "speedup"));
        int ref = wbr_is_reference(r);
        fprintf(f, "| %s%s%s | %s | %s |", ref ? "*" : "`", wbr_str(r, "variant"), ref ? "*" : "`", size, ms);
        if (has_prep) fprintf(f, " %s |", prep);
        fprintf(f, " %s | %s | %s |", tp, pct, sp);
        if (extra_name) fprintf(f, " %s |", *wbr_str(r, "extra") ? wbr_str(r, "extra") : "–");
        fprintf(f, " %s |\n", ref ? "speed of light" : wbr_str(r, "verdict"));
    }
    fputs("\n: ", f);
    wbr_provenance(f, rows, meta, results_path);
    fputs("\n", f);
}

/* Writes a gnuplot script that draws the largest size's variants as bars of throughput, each labelled
 * with its % of the speed of light, and the speed of light as a dashed line, into png_path. Returns 0,
 * or -1 (nothing written) when the file has no speed-of-light row or no timed variant. */
static inline int wbr_plot(FILE *f, json_t *rows, json_t *meta, const char *png_path)
{
    size_t i;
    json_t *r, *ref = NULL;
    double biggest = -1;
    json_array_foreach(rows, i, r) if (wbr_is_reference(r) && wbr_size_elems(r) > biggest)
    {
        biggest = wbr_size_elems(r);
        ref = r;
    }
    if (!ref || !isfinite(wbr_num(ref, "throughput"))) return -1;
    const char *size = wbr_str(ref, "size");
    double sol = wbr_num(ref, "throughput"), top = sol;
    int bars = 0;
    json_array_foreach(rows, i, r)
    {
        double tp = wbr_num(r, "throughput");
        if (wbr_is_reference(r) || strcmp(wbr_str(r, "size"), size) || strcmp(wbr_str(r, "verdict"), "PASS") ||
            !isfinite(tp))
            continue;
        bars++;
        if (tp > top) top = tp;
    }
    if (!bars) return -1;
    char label[64];
    wbr_size_label(size, label, sizeof label);
    const char *unit = wbr_str(ref, "unit");
    fprintf(f, "# generated by handouts/tools/wbresults from a results file; do not edit\n");
    fprintf(f, "set terminal pngcairo size 960,540 font 'DejaVu Sans,12' noenhanced\n");
    fprintf(f, "set output '%s'\n", png_path);
    fprintf(f, "set title '%s, size %s — reference solution on %s%s%s'\n", wbr_str(ref, "chapter"), label,
            wbr_str(ref, "gpu"), *wbr_str(meta, "date") ? ", " : "", wbr_str(meta, "date"));
    fprintf(f, "set ylabel '%s (higher is better)'\n", unit);
    fprintf(f, "set yrange [0:%g]\nset xrange [-0.6:%g]\n", top * 1.2, bars - 0.4);
    fprintf(f, "set style fill solid 0.85 border -1\nset boxwidth 0.6\nset grid ytics lc rgb '#dddddd'\n");
    fprintf(f, "set xtics nomirror scale 0\nset ytics nomirror\nset border 3\nset key top left\n");
    fprintf(f, "$bars << EOD\n");
    json_array_foreach(rows, i, r)
    {
        if (wbr_is_reference(r) || strcmp(wbr_str(r, "size"), size) || strcmp(wbr_str(r, "verdict"), "PASS") ||
            !isfinite(wbr_num(r, "throughput")))
            continue;
        fprintf(f, "\"%s\" %.6g %.6g\n", wbr_str(r, "variant"), wbr_num(r, "throughput"), wbr_num(r, "sol_pct"));
    }
    fprintf(f, "EOD\n");
    fprintf(f,
            "plot $bars using 0:2:xtic(1) with boxes lc rgb '#4a7ab0' title 'variant: %s (%% of the speed of light)', \\\n"
            "     $bars using 0:2:(sprintf('%%.0f (%%.0f%%%%)', $2, $3)) with labels offset 0,0.9 notitle, \\\n"
            "     %.6g with lines dt 2 lw 2.5 lc rgb '#c0392b' title 'speed of light: %s, %.0f %s'\n",
            unit, sol, wbr_str(ref, "variant"), sol, unit);
    return 0;
}

/* The seeds' claims beside the measurement: the block that `--claims` printed after the table, from
 * the text output of the same run, as a code block. Writes a note instead when the run recorded none. */
static inline void wbr_claims(FILE *f, const char *txt_path)
{
    FILE *in = txt_path ? fopen(txt_path, "r") : NULL;
    char line[1024];
    int inside = 0, any = 0;
    while (in && fgets(line, sizeof line, in)) {
        if (strstr(line, "the seeds' claims beside this GPU")) inside = 1;
        else if (inside && strncmp(line, "    ", 4) != 0) inside = 0;
        if (!inside) continue;
        if (!any) fputs("```\n", f);
        any = 1;
        fputs(line, f);
    }
    if (in) fclose(in);
    if (any) {
        fputs("```\n\n", f);
        fprintf(f, ": The program's `--claims` output, from `%s`.\n", txt_path);
    } else {
        fprintf(f, "*The recorded run has no `--claims` output yet (`make results` on a GPU records it in `%s`).*\n",
                txt_path ? txt_path : "the results folder");
    }
}

static inline int wbr_copy_file(FILE *out, const char *path)
{
    FILE *in = fopen(path, "r");
    if (!in) return -1;
    char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, n, out);
    fclose(in);
    return 0;
}

/* Copies the handout md_path to out with each marker line replaced by its piece: the table file, an
 * image link to plot_png (relative to the rendered handout), the claims file. A piece whose file does
 * not exist becomes a one-line note, so a handout still renders before its chapter has results.
 * Returns the number of markers replaced, or -1 when md_path cannot be read. */
static inline int wbr_expand(FILE *out, const char *md_path, const char *table_md, const char *plot_png,
                             const char *plot_alt, const char *claims_md)
{
    FILE *in = fopen(md_path, "r");
    if (!in) return -1;
    char line[4096];
    int replaced = 0;
    while (fgets(line, sizeof line, in)) {
        char trimmed[4096];
        snprintf(trimmed, sizeof trimmed, "%s", line);
        trimmed[strcspn(trimmed, "\r\n")] = 0;
        if (strcmp(trimmed, WBR_MARK_TABLE) == 0) {
            if (!table_md || wbr_copy_file(out, table_md) != 0)
                fputs("*No results recorded for this chapter yet: `make results` on a GPU machine records them.*\n",
                      out);
            replaced++;
        } else if (strcmp(trimmed, WBR_MARK_PLOT) == 0) {
            FILE *png = plot_png ? fopen(plot_png, "rb") : NULL;
            if (png) {
                fclose(png);
                const char *base = strrchr(plot_png, '/');
                fprintf(out, "![%s](%s)\n", plot_alt ? plot_alt : "throughput per variant", base ? base + 1 : plot_png);
            } else {
                fputs("*No plot yet: it is drawn from the recorded results.*\n", out);
            }
            replaced++;
        } else if (strcmp(trimmed, WBR_MARK_CLAIMS) == 0) {
            if (!claims_md || wbr_copy_file(out, claims_md) != 0)
                fputs("*No `--claims` output recorded yet.*\n", out);
            replaced++;
        } else {
            fputs(line, out);
        }
    }
    fclose(in);
    return replaced;
}

#endif /* WB_RESULTS_H */
