/* ncu.c — see ncu.h. */
#define _GNU_SOURCE 1
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ncu.h"

int tp_csv_split(const char *line, char ***fields_out)
{
    int n = 0, cap = 16;
    char **fields = (char **)malloc(sizeof(char *) * (size_t)cap);
    const char *p = line;
    char *buf = (char *)malloc(strlen(line) + 1);
    for (;;) {
        size_t k = 0;
        if (*p == '"') {
            p++;
            while (*p) {
                if (*p == '"' && p[1] == '"') buf[k++] = '"', p += 2;
                else if (*p == '"') { p++; break; }
                else buf[k++] = *p++;
            }
            while (*p && *p != ',') p++;
        } else {
            while (*p && *p != ',' && *p != '\r' && *p != '\n') buf[k++] = *p++;
        }
        buf[k] = 0;
        if (n == cap) fields = (char **)realloc(fields, sizeof(char *) * (size_t)(cap *= 2));
        fields[n++] = strdup(buf);
        if (*p != ',') break;
        p++;
    }
    free(buf);
    *fields_out = fields;
    return n;
}

static void tp_free_fields(char **f, int n)
{
    for (int j = 0; f && j < n; j++) free(f[j]);
    free(f);
}

void tp_csv_free(tp_csv *c)
{
    tp_free_fields(c->header, c->n_cols);
    tp_free_fields(c->units, c->n_cols);
    for (int i = 0; i < c->n_rows; i++) tp_free_fields(c->rows[i], c->n_cols);
    free(c->rows);
    memset(c, 0, sizeof *c);
}

int tp_parse_csv(const char *text, tp_csv *c)
{
    memset(c, 0, sizeof *c);
    int cap = 0;
    for (const char *p = text; *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char *line = strndup(p, len);
        if (line[0] == '"') {
            char **f;
            int n = tp_csv_split(line, &f);
            if (!c->header) {
                if (strcmp(f[0], "ID") == 0) {
                    c->header = f;
                    c->n_cols = n;
                    f = NULL;
                }
            } else if (!c->units && c->n_rows == 0 && f[0][0] == 0) {
                c->units = (char **)calloc((size_t)c->n_cols, sizeof(char *));
                for (int j = 0; j < c->n_cols; j++) c->units[j] = strdup(j < n ? f[j] : "");
            } else {
                char **row = (char **)calloc((size_t)c->n_cols, sizeof(char *));
                for (int j = 0; j < c->n_cols; j++) row[j] = strdup(j < n ? f[j] : "");
                if (c->n_rows == cap) c->rows = (char ***)realloc(c->rows, sizeof(char **) * (size_t)(cap = cap ? 2 * cap : 8));
                c->rows[c->n_rows++] = row;
            }
            tp_free_fields(f, n);
        }
        free(line);
        if (!eol) break;
        p = eol + 1;
    }
    return c->header ? 0 : -1;
}

int tp_csv_col(const tp_csv *c, const char *name)
{
    for (int j = 0; j < c->n_cols; j++)
        if (strcmp(c->header[j], name) == 0) return j;
    return -1;
}

double tp_number(const char *cell)
{
    char buf[64];
    size_t k = 0;
    for (const char *s = cell; *s && k + 1 < sizeof buf; s++)
        if (*s != ',' && *s != ' ') buf[k++] = *s;
    buf[k] = 0;
    if (!k) return NAN;
    char *end;
    double v = strtod(buf, &end);
    return *end ? NAN : v;
}

double tp_csv_metric(const tp_csv *c, int r, const char *const *names, const char **unit)
{
    for (; *names; names++) {
        int j = tp_csv_col(c, *names);
        double v = j >= 0 ? tp_number(c->rows[r][j]) : NAN;
        if (isnan(v)) continue;
        if (unit) *unit = c->units ? c->units[j] : "";
        return v;
    }
    if (unit) *unit = "";
    return NAN;
}
