/* screen.c — see screen.h. */
#include "screen.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int match_of(const char *s, gr_screen_match *m)
{
    static const char *const names[] = {"exact", "prefix", "directive", "number"};
    for (int k = 0; k < 4; k++)
        if (s && !strcmp(s, names[k])) {
            *m = (gr_screen_match)k;
            return 0;
        }
    return -1;
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
        const char *match = json_string_value(json_object_get(r, "match"));
        const char *cost = json_string_value(json_object_get(r, "cost"));
        const char *why = json_string_value(json_object_get(r, "why"));
        gr_screen_rule *out = &rules->rule[rules->n];
        if (!pattern || !*pattern || strlen(pattern) >= sizeof out->pattern || !why ||
            strlen(why) >= sizeof out->why) {
            snprintf(err, errlen, "screen rule %zu: needs \"pattern\" (< 48 chars) and \"why\" (< 160 chars)", i);
            return -1;
        }
        if (match_of(match ? match : "exact", &out->match)) {
            snprintf(err, errlen, "screen rule '%s': match must be exact, prefix, directive or number", pattern);
            return -1;
        }
        if (cost && strcmp(cost, "perf") && strcmp(cost, "correct")) {
            snprintf(err, errlen, "screen rule '%s': cost must be perf or correct", pattern);
            return -1;
        }
        if (rules->n >= GR_SCREEN_MAX_RULES) {
            snprintf(err, errlen, "more than %d screen rules", GR_SCREEN_MAX_RULES);
            return -1;
        }
        out->cost = cost && !strcmp(cost, "correct") ? GR_COST_CORRECT : GR_COST_PERF;
        snprintf(out->pattern, sizeof out->pattern, "%s", pattern);
        snprintf(out->why, sizeof out->why, "%s", why);
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

/* The scanner: walks the region's text the way the compiler's lexer would for what matters here. */
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

static void check_word(scan *s, int line, const char *w, size_t len, gr_screen_match kind)
{
    for (int k = 0; k < s->rules->n; k++) {
        const gr_screen_rule *r = &s->rules->rule[k];
        size_t pl = strlen(r->pattern);
        int ok = r->match == kind && (kind == GR_MATCH_PREFIX ? len >= pl : len == pl) && !memcmp(w, r->pattern, pl);
        if (kind == GR_MATCH_EXACT && r->match == GR_MATCH_PREFIX && len >= pl && !memcmp(w, r->pattern, pl)) ok = 1;
        if (ok) {
            hit(s, line, w, len, r);
            return;
        }
    }
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
    if (*end) return; /* a float or something odd: not an integer literal */
    for (int r = 0; r < s->rules->n; r++) {
        const gr_screen_rule *rule = &s->rules->rule[r];
        if (rule->match == GR_MATCH_NUMBER && strtoull(rule->pattern, NULL, 0) == v) {
            hit(s, line, w, len, rule);
            return;
        }
    }
}

/* At a '#' that starts a line: reads the directive; "#pragma unroll" is the one always allowed. */
static const char *directive(scan *s, int line, const char *p, const char *end)
{
    p++;
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    const char *w = p;
    while (p < end && (isalnum((unsigned char)*p) || *p == '_')) p++;
    size_t len = (size_t)(p - w);
    const char *q = p;
    while (q < end && (*q == ' ' || *q == '\t')) q++;
    int unroll = len == 6 && !memcmp(w, "pragma", 6) && end - q >= 6 && !memcmp(q, "unroll", 6);
    if (!unroll && len) check_word(s, line, w, len, GR_MATCH_DIRECTIVE);
    while (p < end && *p != '\n') p++; /* the rest of the directive line is not code */
    return p;
}

int gr_screen_region(const gr_screen_rules *rules, const char *region, const char *text, size_t len, int first_line,
                     gr_screen_hit *hits, int max, int *n)
{
    scan s = {rules, region, hits, max, n, 0};
    const char *p = text, *end = text + len;
    int line = first_line, depth = 0, dipped = 0, at_line_start = 1;
    while (p < end) {
        char c = *p;
        if (c == '\n') {
            line++;
            at_line_start = 1;
            p++;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r') {
            p++;
            continue;
        }
        if (c == '#' && at_line_start) {
            p = directive(&s, line, p, end);
            continue;
        }
        at_line_start = 0;
        if (c == '/' && p + 1 < end && p[1] == '/') {
            while (p < end && *p != '\n') p++;
        } else if (c == '/' && p + 1 < end && p[1] == '*') {
            for (p += 2; p + 1 < end && !(p[0] == '*' && p[1] == '/'); p++)
                if (*p == '\n') line++;
            p += 2;
        } else if (c == '"' || c == '\'') {
            for (p++; p < end && *p != c && *p != '\n'; p++)
                if (*p == '\\' && p + 1 < end) p++;
            p++;
        } else if (isalpha((unsigned char)c) || c == '_' || (c == ':' && p + 1 < end && p[1] == ':')) {
            const char *w = p;
            if (c == ':') w = p += 2; /* ::cublasSgemm is cublasSgemm */
            while (p < end) {
                if (isalnum((unsigned char)*p) || *p == '_') p++;
                else if (p + 2 < end && p[0] == ':' && p[1] == ':' && (isalpha((unsigned char)p[2]) || p[2] == '_')) p += 2;
                else break;
            }
            check_word(&s, line, w, (size_t)(p - w), GR_MATCH_EXACT);
        } else if (isdigit((unsigned char)c)) {
            const char *w = p;
            while (p < end && (isalnum((unsigned char)*p) || *p == '\'' || *p == '.')) p++;
            check_number(&s, line, w, (size_t)(p - w));
        } else {
            if (c == '{') depth++;
            if (c == '}' && --depth < 0) dipped = 1;
            p++;
        }
    }
    if (dipped || depth != 0) hit(&s, first_line, "{ }", 3, NULL);
    return s.count;
}

void gr_screen_hit_str(const gr_screen_hit *h, char *out, size_t len)
{
    if (!h->rule)
        snprintf(out, len, "region `%s` (line %d): its braces do not balance, so it reaches outside its function "
                           "(a region must stay inside the code it fills in)", h->region, h->line);
    else
        snprintf(out, len, "region `%s`, line %d: `%s` — %s", h->region, h->line, h->token, h->rule->why);
}
