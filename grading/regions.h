/* regions.h — the TODO regions of a chapter file, where student work lives: the text between a line
 * `// BEGIN TODO(name)` and the next `// END TODO(name)` (only white space before a marker). Outside the regions
 * a starter and its solution are byte-identical; the grader splices a student's regions into the pristine
 * starter. Used by the grader, the look-inside tool and the tests. */
#ifndef WB_REGIONS_H
#define WB_REGIONS_H

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WB_REGION_NAME 64

typedef struct {
    char name[WB_REGION_NAME];
    size_t begin;   /* offset of the first byte after the BEGIN line */
    size_t end;     /* offset of the first byte of the END line */
    int line;       /* 1-based line number of the BEGIN marker */
} wb_region;

/* Finds the regions of text[0..len). Returns how many (at most max are stored), or -1 with a one-line
 * reason in err: a BEGIN inside a region, an END without its BEGIN, a name used twice, an unclosed
 * region, or a marker whose name is malformed. */
int wb_regions_parse(const char *text, size_t len, wb_region *out, int max, char *err, size_t errlen);

/* The text with every region's content removed (markers kept): what must be identical between a
 * starter and its solution. Returns a malloc'd string (length in *out_len), or NULL on a parse error. */
char *wb_regions_outside(const char *text, size_t len, size_t *out_len, char *err, size_t errlen);

/* The pristine file with each region's content replaced by the same-named region of the student's
 * file. Every pristine region must be present in the student's file; extra student regions are an
 * error too. Returns a malloc'd string, or NULL with the reason in err. */
char *wb_regions_splice(const char *pristine, size_t plen, const char *student, size_t slen,
                                      size_t *out_len, char *err, size_t errlen);

/* Reads a whole regular file (gr_read_capped, up to 1 GiB); NULL if it cannot. */
char *wb_read_file(const char *path, size_t *len);

#endif /* WB_REGIONS_H */
