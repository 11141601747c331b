/* jsonfield.h — reading a JSON file's fields with jansson and validating them, the first problem kept as
 * one line that names where it is ("chapters/01-reversal/chapter.json: variants[2].name: must be a
 * non-empty string"): the rubric and the chapters' facts are read through it. */
#ifndef GR_JSONFIELD_H
#define GR_JSONFIELD_H

#include <jansson.h>
#include <stddef.h>

/* Where a parse writes its first error (err, errlen) and whether there was one. */
typedef struct {
    char *err;
    size_t errlen;
    int failed;
} gr_pctx;

/* Records an error, unless one was recorded already (the first is the one to fix). */
void gr_perr(gr_pctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* 1 when obj is an object, each of its keys one of keys (NULL-terminated) or "comment" (else "<where>: unknown key
 * 'k'"); 0 after "<where>: must be an object". */
int gr_object(gr_pctx *c, json_t *obj, const char *where, const char *const *keys);

/* obj's number key in [lo, hi]; dflt when absent (an error if required) or wrong. */
double gr_num(gr_pctx *c, json_t *obj, const char *key, const char *where, double dflt, double lo, double hi,
              int required);

/* obj's non-empty string key into out (shorter than len); dflt when absent, an error when dflt is NULL. */
void gr_strfield(gr_pctx *c, json_t *obj, const char *key, const char *where, char *out, size_t len,
                 const char *dflt);

/* obj's boolean key; dflt when absent, an error when not true or false. */
int gr_bool(gr_pctx *c, json_t *obj, const char *key, const char *where, int dflt);

/* A JSON string of arbitrary bytes (invalid UTF-8 replaced): what jansson takes of student text. */
json_t *gr_jstr(const char *s);

#endif /* GR_JSONFIELD_H */
