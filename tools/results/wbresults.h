/*
 * wbresults.h — turns a chapter's recorded results (the JSON lines of `build/solutionN --json`) into
 * the pieces a handout includes: a Markdown table, a gnuplot script for the throughput plot, and the
 * sources' claims beside the measurement (from the `--claims` text of the same run).
 *
 * The handouts never carry a measured number typed by hand: `make handouts` calls the tool built from
 * main.c, which calls these functions (wbresults.c); tests/test_handouts.c calls them too, on made-up results,
 * to show that what comes out is what went in.
 *
 * Plain C with jansson; results are read with common/jsonl.c, the one JSON-lines reader.
 */
#ifndef WB_RESULTS_H
#define WB_RESULTS_H

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Markers a handout places on lines of their own; `wbr_expand` replaces each with its piece. The table
 * and the claims are also kept in the handout's own file, between the marker and its end marker
 * (`wbr_fill`), so that the Markdown a student opens shows them. */
#define WBR_MARK_TABLE "<!-- results-table -->"
#define WBR_END_TABLE "<!-- /results-table -->"
#define WBR_MARK_PLOT "<!-- results-plot -->"
#define WBR_MARK_CLAIMS "<!-- results-claims -->"
#define WBR_END_CLAIMS "<!-- /results-claims -->"
/* The same table as recorded on another GPU (handouts/results/<gpu>/), kept beside the newest one so that
 * a reader sees how the ratios move from one GPU to the next. */
#define WBR_MARK_OTHER "<!-- results-table-other -->"
#define WBR_END_OTHER "<!-- /results-table-other -->"

/* A number field: its value, or NAN when absent or null (the contract writes null for "does not apply"). */
double wbr_num(json_t *obj, const char *key);

const char *wbr_str(json_t *obj, const char *key);

/* Reads a results file (one JSON object per line, CONTRACT.md). Returns an array, or NULL with the
 * reason in err: the file cannot be read, a line is not JSON, or a field the tables need is missing. */
json_t *wbr_load_lines(const char *path, char *err, size_t errlen);

/* The meta file beside a results file (date, command, commit…): an object, or an empty one. */
json_t *wbr_load_meta(const char *path);

int wbr_is_reference(json_t *row);

/* A Markdown (pandoc pipe) table of every row, the speed-of-light row first within each size, as
 * the program prints it, plus a caption naming the GPU, date, command and file. */
void wbr_table(FILE *f, json_t *rows, json_t *meta, const char *results_path);

/* Writes a gnuplot script that draws the largest size's variants as bars of throughput, each labelled
 * with its % of the speed of light, and the speed of light as a dashed line, into png_path. Returns 0,
 * or -1 (nothing written) when the file has no speed-of-light row or no timed variant. */
int wbr_plot(FILE *f, json_t *rows, json_t *meta, const char *png_path);

/* The sources' claims beside the measurement: the block that `--claims` printed after the table, from
 * the text output of the same run, as a code block. Writes a note instead when the run recorded none. */
void wbr_claims(FILE *f, const char *txt_path);

/* Copies the handout md_path to out with each marker line replaced by its piece: the table file, an
 * image link to plot_png (relative to the rendered handout), the claims file, the other GPU's table
 * (other_md; NULL leaves that marker's block as it is). A piece whose file does
 * not exist becomes a one-line note, so a handout still renders before its chapter has results.
 * A block already filled (marker … end marker) is replaced whole.
 * Returns the number of markers replaced, or -1 when md_path cannot be read. */
int wbr_expand(FILE *out, const char *md_path, const char *table_md, const char *plot_png,
                             const char *plot_alt, const char *claims_md, const char *other_md);

/* The handout md_path with its table, claims and other-GPU markers filled (other_md NULL: that block
 * stays as it is): each marker, then its piece (or the note), then its end marker, in place of any block
 * it held; the plot marker stays as it is (a picture
 * is drawn for the HTML only). Returns the number of blocks written, or -1 when md_path cannot be read. */
int wbr_fill(FILE *out, const char *md_path, const char *table_md, const char *claims_md, const char *other_md);

#endif /* WB_RESULTS_H */
