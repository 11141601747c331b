/* screen.c — see screen.h. */
#include "screen.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* match, cost and reach of one rule, by name (absent: the first); -1 with the reason in err */
static int rule_kinds(gr_screen_rule *out, const json_t *r, char *err, size_t errlen)
{
    static const struct {
        const char *key, *names[6], *say;
    } kinds[3] = {
        {"match", {"exact", "prefix", "directive", "number", "header"}, "exact, prefix, directive, number or header"},
        {"cost", {"perf", "correct", "allow"}, "perf, correct or allow"},
        {"reach", {"region", "file"}, "region or file"}};
    int k[3];
    for (int i = 0; i < 3; i++) {
        const char *v = json_string_value(json_object_get(r, kinds[i].key));
        for (k[i] = 0; v && kinds[i].names[k[i]] && strcmp(v, kinds[i].names[k[i]]); k[i]++) {}
        if (!kinds[i].names[k[i]])
            snprintf(err, errlen, "screen rule '%s': %s must be %s", out->pattern, kinds[i].key, kinds[i].say);
        else if (i == 1 && k[1] == GR_COST_ALLOW && k[0] != GR_MATCH_HEADER)
            snprintf(err, errlen, "screen rule '%s': only a header rule can allow", out->pattern);
        else continue;
        return -1;
    }
    out->match = (gr_screen_match)k[0];
    out->cost = (gr_screen_cost)k[1];
    out->reach = (gr_screen_reach)k[2];
    return 0;
}

int gr_screen_rules_add(gr_screen_rules *rules, const json_t *array, char *err, size_t errlen)
{
    size_t i;
    const json_t *r;
    if (!json_is_array(array)) {
        snprintf(err, errlen, "screen rules must be an array");
        return -1;
    }
    json_array_foreach(array, i, r)
    {
        const char *pattern = json_string_value(json_object_get(r, "pattern"));
        const char *why = json_string_value(json_object_get(r, "why"));
        if (rules->n >= GR_SCREEN_MAX_RULES) {
            snprintf(err, errlen, "more than %d screen rules", GR_SCREEN_MAX_RULES);
            return -1;
        }
        gr_screen_rule *out = &rules->rule[rules->n];
        if (!pattern || !*pattern || strlen(pattern) >= sizeof out->pattern || !why ||
            strlen(why) >= sizeof out->why) {
            snprintf(err, errlen, "screen rule %zu: needs \"pattern\" (< 48 chars) and \"why\" (< 160 chars)", i);
            return -1;
        }
        snprintf(out->pattern, sizeof out->pattern, "%s", pattern);
        snprintf(out->why, sizeof out->why, "%s", why);
        if (rule_kinds(out, r, err, errlen)) return -1;
        rules->n++;
    }
    return 0;
}

void gr_screen_rules_allow(gr_screen_rules *rules, const json_t *allow)
{
    size_t i;
    const json_t *a;
    json_array_foreach(allow, i, a)
    {
        const char *p = json_string_value(a);
        int k = 0;
        for (int j = 0; j < rules->n; j++)
            if (!p || strcmp(rules->rule[j].pattern, p)) rules->rule[k++] = rules->rule[j];
        rules->n = k;
    }
}

/* ------------------------------------------------------------------ the lexer
 * As screen.h says; a splice joins inside a word too (`cub\<newline>lasSgemm` is cublasSgemm), and a comment
 * leaves a line's start a line's start (`/ * x * / #include` is a directive). */
typedef enum { TK_END, TK_IDENT, TK_NUMBER, TK_DIRECTIVE, TK_PUNCT } tk_kind;

typedef struct {
    tk_kind kind;
    const char *s; /* in the lexer's joined copy of the text; a directive: what follows the '#' */
    size_t len;
    int line;
} token;

typedef struct {
    char *buf;     /* the text with its line splices removed */
    int *line_of;  /* the line in the original text of each byte of buf */
    const char *p, *end;
    int at_line_start;
} lexer;

static void lex_close(lexer *lx)
{
    free(lx->buf);
    free(lx->line_of);
}

static lexer lex_open(const char *text, size_t len, int first_line)
{
    lexer lx = {.buf = malloc(len + 1), .line_of = malloc((len + 1) * sizeof(int)), .at_line_start = 1};
    if (!lx.buf || !lx.line_of) abort(); /* out of memory: as the grader's other allocations */
    size_t k = 0;
    int line = first_line;
    for (size_t i = 0; i < len; i++) {
        size_t nl = text[i] == '\\' && i + 1 < len && text[i + 1] == '\n'                      ? 1
                    : text[i] == '\\' && i + 2 < len && text[i + 1] == '\r' && text[i + 2] == '\n' ? 2
                                                                                                   : 0;
        if (nl) {
            i += nl;
            line++;
            continue;
        }
        lx.line_of[k] = line;
        lx.buf[k++] = text[i];
        if (text[i] == '\n') line++;
    }
    lx.line_of[k] = line;
    lx.buf[k] = 0;
    lx.p = lx.buf;
    lx.end = lx.buf + k;
    return lx;
}

static int is_word(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* R"delim( ... )delim": p at the opening quote; returns past the closing one (or the end). */
static const char *skip_raw_string(const char *p, const char *end)
{
    const char *d = ++p;
    while (p < end && *p != '(' && p - d < 16) p++;
    size_t dl = (size_t)(p - d);
    for (p++; p < end; p++)
        if (*p == ')' && (size_t)(end - p) > dl + 1 && !memcmp(p + 1, d, dl) && p[1 + dl] == '"') return p + dl + 2;
    return end;
}

static int lex_next(lexer *lx, token *t)
{
    const char *p = lx->p, *end = lx->end;
    while (p < end) {
        char c = *p;
        const char *w = p;
        t->line = lx->line_of[p - lx->buf];
        if (c == '\n' || c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            if (c == '\n') lx->at_line_start = 1;
            p++;
        } else if (c == '/' && p + 1 < end && p[1] == '/') {
            while (p < end && *p != '\n') p++;
        } else if (c == '/' && p + 1 < end && p[1] == '*') {
            for (p += 2; p + 1 < end && !(p[0] == '*' && p[1] == '/'); p++) {}
            p = p + 2 < end ? p + 2 : end;
        } else if ((c == '#' || (c == '%' && p + 1 < end && p[1] == ':')) && lx->at_line_start) {
            p += c == '#' ? 1 : 2;
            for (w = p; p < end && *p != '\n'; p++) {}
            lx->at_line_start = 0;
            *t = (token){TK_DIRECTIVE, w, (size_t)(p - w), t->line};
            lx->p = p;
            return 1;
        } else if (c == '"' || c == '\'') {
            lx->at_line_start = 0;
            for (p++; p < end && *p != c && *p != '\n'; p++)
                if (*p == '\\' && p + 1 < end) p++;
            if (p < end) p++;
        } else if (is_word(c) && !isdigit((unsigned char)c)) {
            lx->at_line_start = 0;
            while (p < end) {
                if (is_word(*p)) p++;
                else if (p + 2 < end && p[0] == ':' && p[1] == ':' && (isalpha((unsigned char)p[2]) || p[2] == '_')) p += 2;
                else break;
            }
            size_t n = (size_t)(p - w);
            /* a raw string's prefix: R, LR, uR, UR, u8R */
            if (p < end && *p == '"' && w[n - 1] == 'R' && n <= 3 && (n == 1 || strchr("LuU8", w[0]))) {
                p = skip_raw_string(p, end);
                continue;
            }
            *t = (token){TK_IDENT, w, n, t->line};
            lx->p = p;
            return 1;
        } else if (c == ':' && p + 2 < end && p[1] == ':' && (isalpha((unsigned char)p[2]) || p[2] == '_')) {
            p += 2; /* ::cublasSgemm is cublasSgemm */
        } else {
            lx->at_line_start = 0;
            if (isdigit((unsigned char)c))
                while (p < end && (is_word(*p) || *p == '\'' || *p == '.')) p++;
            else p++;
            *t = (token){isdigit((unsigned char)c) ? TK_NUMBER : TK_PUNCT, w, (size_t)(p - w), t->line};
            lx->p = p;
            return 1;
        }
    }
    lx->p = p;
    t->kind = TK_END;
    return 0;
}

/* ------------------------------------------------------------------ the screen */
typedef struct {
    const gr_screen_rules *rules;
    const char *region;
    gr_screen_hit *hits;
    int max, *n, count;
} scan;

static void hit(scan *s, int line, const char *token, size_t tlen, const gr_screen_rule *rule)
{
    s->count++;
    if (*s->n >= s->max) return;
    gr_screen_hit *h = &s->hits[(*s->n)++];
    snprintf(h->region, sizeof h->region, "%s", s->region);
    snprintf(h->token, sizeof h->token, "%.*s", (int)(tlen < sizeof h->token ? tlen : sizeof h->token - 1), token);
    h->line = line;
    h->rule = rule;
}

/* How much of token w (num: an integer literal's value) rule r matches, or -1; kind: as screen.h's
 * gr_screen_match, an identifier (exact) matching exact and prefix rules. */
static long rule_match(const gr_screen_rule *r, gr_screen_match kind, const char *w, size_t len,
                       unsigned long long num)
{
    size_t pl = strlen(r->pattern);
    int prefix = r->match == GR_MATCH_PREFIX || (kind == GR_MATCH_HEADER && strchr("/*", r->pattern[pl - 1]));
    if (r->match != kind && !(kind == GR_MATCH_EXACT && r->match == GR_MATCH_PREFIX)) return -1;
    if (kind == GR_MATCH_NUMBER) return strtoull(r->pattern, NULL, 0) == num ? 0 : -1;
    if (kind == GR_MATCH_HEADER && r->pattern[pl - 1] == '*') pl--;
    return (prefix ? len >= pl : len == pl) && !memcmp(w, r->pattern, pl) ? (long)pl : -1;
}

/* The first rule that matches; for a header the longest (a later one wins a tie). NULL: none. */
static const gr_screen_rule *rule_for(const gr_screen_rules *rules, gr_screen_match kind, const char *w, size_t len,
                                      unsigned long long num)
{
    const gr_screen_rule *best = NULL;
    long best_len = 0;
    for (int k = 0; k < rules->n; k++) {
        long m = rule_match(&rules->rule[k], kind, w, len, num);
        if (m >= 0 && kind != GR_MATCH_HEADER) return &rules->rule[k];
        if (m >= best_len) {
            best = &rules->rule[k];
            best_len = m;
        }
    }
    return best;
}

static void check_word(scan *s, int line, const char *w, size_t len, gr_screen_match kind, unsigned long long num)
{
    const gr_screen_rule *r = rule_for(s->rules, kind, w, len, num);
    if (r) hit(s, line, w, len, r);
}

static void check_number(scan *s, int line, const char *w, size_t len)
{
    char buf[64];
    size_t k = 0;
    for (size_t i = 0; i < len && k + 1 < sizeof buf; i++)
        if (w[i] != '\'') buf[k++] = w[i];
    buf[k] = 0;
    char *end;
    unsigned long long v = strtoull(buf, &end, 0);
    while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L') end++;
    if (!*end) check_word(s, line, w, len, GR_MATCH_NUMBER, v); /* else a float or something odd */
}

/* A header name that names a file inside the include path and nothing else. */
static int plain_header_name(const char *h, size_t len)
{
    if (!len || h[0] == '/') return 0;
    for (size_t i = 0; i < len; i++)
        if (!isalnum((unsigned char)h[i]) && !strchr("_./+-", h[i])) return 0;
    for (size_t i = 0; i + 1 < len; i++)
        if (h[i] == '.' && h[i + 1] == '.') return 0;
    return 1;
}

/* `#include ...` (rest: what follows the word), judged as screen.h says; the token is the directive as written. */
static void check_include(scan *s, int line, const char *rest, size_t len)
{
    const char *q = rest, *end = rest + len;
    while (q < end && (*q == ' ' || *q == '\t')) q++;
    while (end > q && isspace((unsigned char)end[-1])) end--;
    const char *h = q + 1, *e = q < end && *q == '<' ? memchr(h, '>', (size_t)(end - h)) : NULL;
    const gr_screen_rule *r = NULL;
    char tok[64];
    if (e && plain_header_name(h, (size_t)(e - h))) {
        r = rule_for(s->rules, GR_MATCH_HEADER, h, (size_t)(e - h), 0);
        if (r && r->cost == GR_COST_ALLOW) return;
        snprintf(tok, sizeof tok, "#include <%.*s>", (int)(e - h), h);
    } else snprintf(tok, sizeof tok, "#include %.*s", (int)(end - q), q);
    if (!r) r = rule_for(s->rules, GR_MATCH_DIRECTIVE, "include", 7, 0);
    if (r) hit(s, line, tok, strlen(tok), r);
}

/* One directive (t: what follows the '#'); "#pragma unroll" is the one pragma always allowed. */
static void directive(scan *s, const token *t)
{
    const char *p = t->s, *end = t->s + t->len;
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    const char *w = p;
    while (p < end && is_word(*p)) p++;
    size_t len = (size_t)(p - w);
    const char *q = p;
    while (q < end && (*q == ' ' || *q == '\t')) q++;
    int unroll = len == 6 && !memcmp(w, "pragma", 6) && end - q >= 6 && !memcmp(q, "unroll", 6) &&
                 (end - q == 6 || !is_word(q[6]));
    if (len == 7 && !memcmp(w, "include", 7)) check_include(s, t->line, p, (size_t)(end - p));
    else if (!unroll && len) check_word(s, t->line, w, len, GR_MATCH_DIRECTIVE, 0);
}

int gr_screen_region(const gr_screen_rules *rules, const char *region, const char *text, size_t len, int first_line,
                     gr_screen_hit *hits, int max, int *n)
{
    scan s = {rules, region, hits, max, n, 0};
    lexer lx = lex_open(text, len, first_line);
    int depth = 0, dipped = 0;
    token t;
    while (lex_next(&lx, &t)) {
        if (t.kind == TK_DIRECTIVE) directive(&s, &t);
        else if (t.kind == TK_IDENT) check_word(&s, t.line, t.s, t.len, GR_MATCH_EXACT, 0);
        else if (t.kind == TK_NUMBER) check_number(&s, t.line, t.s, t.len);
        else if (*t.s == '{') depth++;
        else if (*t.s == '}' && --depth < 0) dipped = 1;
    }
    lex_close(&lx);
    if (dipped || depth != 0) hit(&s, first_line, "{ }", 3, NULL);
    return s.count;
}

/* ------------------------------------------------------------------ who uses a region */
static void add_name(char (*names)[64], int max, int *n, const char *w, size_t len)
{
    /* each part of a qualified name: `using leaked::load4;` adds leaked and load4 */
    for (const char *p = w, *end = w + len; p < end;) {
        const char *q = p;
        while (q < end && *q != ':') q++;
        if (q > p) {
            if (*n < max) snprintf(names[*n], 64, "%.*s", (int)(q - p < 63 ? q - p : 63), p);
            (*n)++;
        }
        p = q + 2 <= end ? q + 2 : end;
    }
}

int gr_screen_names(const char *text, size_t len, int level, char (*names)[64], int max)
{
    int n = 0, braces = 0, parens = 0;
    lexer lx = lex_open(text, len, 1);
    token t, prev = {TK_END, NULL, 0, 0};
    while (lex_next(&lx, &t)) {
        /* a name declared here is followed by what starts its definition or ends its declarator */
        if (prev.kind == TK_IDENT && t.kind == TK_PUNCT && braces == level && !parens && strchr("(=;[{,:", *t.s))
            add_name(names, max, &n, prev.s, prev.len);
        if (t.kind == TK_PUNCT) {
            braces += (*t.s == '{') - (*t.s == '}');
            parens += (*t.s == '(') - (*t.s == ')');
        }
        prev = t;
    }
    lex_close(&lx);
    return n;
}

int gr_screen_mentions(const char *text, size_t len, const char (*names)[64], int n)
{
    int found = 0;
    if (n <= 0) return 0;
    lexer lx = lex_open(text, len, 1);
    token t;
    while (!found && lex_next(&lx, &t)) {
        if (t.kind != TK_IDENT) continue;
        char parts[8][64];
        int np = 0;
        add_name(parts, 8, &np, t.s, t.len);
        for (int a = 0; a < np && a < 8 && !found; a++)
            for (int b = 0; b < n && !found; b++) found = !strcmp(parts[a], names[b]);
    }
    lex_close(&lx);
    return found;
}

int gr_screen_brace_depth(const char *text, size_t len)
{
    int depth = 0;
    lexer lx = lex_open(text, len, 1);
    token t;
    while (lex_next(&lx, &t))
        if (t.kind == TK_PUNCT) depth += (*t.s == '{') - (*t.s == '}');
    lex_close(&lx);
    return depth;
}

void gr_screen_hit_str(const gr_screen_hit *h, char *out, size_t len)
{
    if (!h->rule)
        snprintf(out, len, "region `%s` (line %d): its braces do not balance, so it reaches outside its function "
                           "(a region must stay inside the code it fills in)", h->region, h->line);
    else
        snprintf(out, len, "region `%s`, line %d: `%s` — %s", h->region, h->line, h->token, h->rule->why);
}
