/*
 * screen.h — a student's TODO regions read for code that does the work for them or games the timing (a
 * library call, a stream of its own, host threads, files, sleeps, timers, the poison pattern, preprocessor
 * tricks), or a region that leaves its function (unbalanced braces: it could define what the harness calls).
 * The rules are data: rubric.json's "screen", a chapter's "screen_extra" and "screen_allow". The text is
 * read as the compiler reads it (line splices joined, `%:` for `#`; comments and literals not read).
 * Which variants a hit costs is honesty.h's.
 */
#ifndef GR_SCREEN_H
#define GR_SCREEN_H

#include <jansson.h>
#include <stddef.h>

/* What a hit costs. GR_COST_ALLOW: header rules only, an `#include <name>` it matches is no hit. */
typedef enum { GR_COST_PERF, GR_COST_CORRECT, GR_COST_ALLOW } gr_screen_cost;

/* How a rule's pattern matches an identifier (qualified names such as cub::DeviceReduce count as one). */
typedef enum {
    GR_MATCH_EXACT,     /* the whole identifier */
    GR_MATCH_PREFIX,    /* the identifier starts with it ("cublas" matches cublasSgemm) */
    GR_MATCH_DIRECTIVE, /* a preprocessor directive ("include", "define"); "#pragma unroll" is never a hit */
    GR_MATCH_NUMBER,    /* an integer literal of this value (decimal or hex, any suffix) */
    GR_MATCH_HEADER     /* `#include <name>`: exactly, or its start where it ends in '/' or '*' ("cublas*") */
} gr_screen_match;

/* How far a hit reaches: a macro (`#define`) changes every later line, the harness's too (every variant). */
typedef enum { GR_REACH_REGION, GR_REACH_FILE } gr_screen_reach;

typedef struct {
    char pattern[48];
    gr_screen_match match;
    gr_screen_cost cost;
    gr_screen_reach reach;
    char why[160];      /* the sentence a student reads, e.g. "cuBLAS does the multiplication" */
} gr_screen_rule;

#define GR_SCREEN_MAX_RULES 128

typedef struct {
    gr_screen_rule rule[GR_SCREEN_MAX_RULES];
    int n;
} gr_screen_rules;

typedef struct {
    char region[64];
    int line;           /* line of the hit in the student's file (regions know their first line) */
    char token[64];     /* what was found, as written ("#include \"x.h\"" for an include) */
    const gr_screen_rule *rule; /* NULL: the region's braces do not balance */
} gr_screen_hit;

/* Appends a JSON array of {"pattern", "match" (default exact), "cost" (default perf), "reach" (default
 * region), "why"} to *rules. Returns 0, or -1 with the reason in err. `#include <name>` goes by the header
 * rule with the longest matching pattern (a later one wins a tie: screen_extra overrides); a name with "..",
 * a leading '/' or a character outside [A-Za-z0-9_./+-] matches none. Any other include is the directive
 * rule "include"'s (`#include_next`, `#import`, `#embed` have their own). */
int gr_screen_rules_add(gr_screen_rules *rules, const json_t *array, char *err, size_t errlen);

/* Removes the rules whose pattern is listed in the JSON array of strings `allow` (may be NULL). */
void gr_screen_rules_allow(gr_screen_rules *rules, const json_t *allow);

/* Screens one region's text (first_line: the line number of its first line in the file). Appends up to
 * max - *n hits to hits[*n..] and returns how many this region had (also those not stored). */
int gr_screen_region(const gr_screen_rules *rules, const char *region, const char *text, size_t len, int first_line,
                     gr_screen_hit *hits, int max, int *n);

/* The names a region declares at file level (outside parentheses, at brace depth `level` from its start: 0
 * for a region at file level, minus its function's depth for one that leaves it): functions, globals, types,
 * namespaces, using-declarations, each part of a qualified name. Stores up to max, returns how many found. */
int gr_screen_names(const char *text, size_t len, int level, char (*names)[64], int max);

/* Does text use any of the n names (as an identifier or one part of a qualified name)? */
int gr_screen_mentions(const char *text, size_t len, const char (*names)[64], int n);

/* The net brace depth of text ({ minus }), comments, strings and directives not counted. */
int gr_screen_brace_depth(const char *text, size_t len);

/* One sentence for feedback: "region `vector`, line 12: cublasSgemm — cuBLAS does the multiplication". */
void gr_screen_hit_str(const gr_screen_hit *h, char *out, size_t len);

#endif /* GR_SCREEN_H */
