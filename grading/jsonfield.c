/* jsonfield.c — see jsonfield.h. */
#define _GNU_SOURCE 1
#include "jsonfield.h"
#include "gr_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void gr_perr(gr_pctx *c, const char *fmt, ...)
{
    if (c->failed) return; /* keep the first error: it is the one to fix */
    c->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, c->errlen, fmt, ap);
    va_end(ap);
}

int gr_object(gr_pctx *c, json_t *obj, const char *where, const char *const *keys)
{
    if (!json_is_object(obj)) {
        gr_perr(c, "%s: must be an object", where);
        return 0;
    }
    const char *k;
    json_t *v;
    json_object_foreach(obj, k, v)
    {
        (void)v;
        int ok = strcmp(k, "comment") == 0; /* a comment is welcome anywhere */
        for (const char *const *q = keys; *q; q++) ok |= strcmp(*q, k) == 0;
        if (!ok) gr_perr(c, "%s: unknown key '%s'", where, k);
    }
    return 1;
}

double gr_num(gr_pctx *c, json_t *obj, const char *key, const char *where, double dflt, double lo, double hi,
              int required)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_number(v)) {
        if (v) gr_perr(c, "%s.%s: must be a number", where, key);
        else if (required) gr_perr(c, "%s: missing '%s'", where, key);
        return dflt;
    }
    double x = json_number_value(v);
    if (!(x >= lo && x <= hi)) gr_perr(c, "%s.%s: %g is outside [%g, %g]", where, key, x, lo, hi);
    return x;
}

void gr_strfield(gr_pctx *c, json_t *obj, const char *key, const char *where, char *out, size_t len,
                 const char *dflt)
{
    json_t *v = json_object_get(obj, key);
    if (!v && !dflt) gr_perr(c, "%s: missing '%s'", where, key);
    else if (!v) snprintf(out, len, "%s", dflt);
    else if (!json_is_string(v) || !json_string_length(v)) gr_perr(c, "%s.%s: must be a non-empty string", where, key);
    else if (json_string_length(v) >= len) gr_perr(c, "%s.%s: longer than %zu characters", where, key, len - 1);
    else snprintf(out, len, "%s", json_string_value(v));
}

int gr_bool(gr_pctx *c, json_t *obj, const char *key, const char *where, int dflt)
{
    json_t *v = json_object_get(obj, key);
    if (v && !json_is_boolean(v)) gr_perr(c, "%s.%s: must be true or false", where, key);
    return v ? json_is_true(v) : dflt;
}

/* jansson refuses invalid UTF-8: student text (compiler logs, program output) is made valid first. */
json_t *gr_jstr(const char *s)
{
    char *c = gr_utf8_clean(s ? s : "");
    json_t *j = json_string(c);
    free(c);
    return j;
}
