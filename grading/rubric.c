/* rubric.c — see rubric.h. */
#define _GNU_SOURCE 1
#include "rubric.h"

#include <jansson.h>
#include <stdarg.h>

/* ---------------------------------------------------------------- reading a field, validated */
/* Where a parse writes its first error, one line naming where it is ("chapters/01-reversal/chapter.json:
 * variants[2].name: must be a non-empty string"), and whether there was one. */
typedef struct {
    char *err;
    size_t errlen;
    int failed;
} gr_pctx;

__attribute__((format(printf, 2, 3))) static void gr_perr(gr_pctx *c, const char *fmt, ...)
{
    if (c->failed) return; /* keep the first error: it is the one to fix */
    c->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, c->errlen, fmt, ap);
    va_end(ap);
}

/* 1 when obj is an object, each of its keys one of keys (NULL-terminated) or "comment"; 0 when not one. */
static int gr_object(gr_pctx *c, json_t *obj, const char *where, const char *const *keys)
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

/* obj's number key in [lo, hi]; dflt when absent (an error if required) or wrong. */
static double gr_num(gr_pctx *c, json_t *obj, const char *key, const char *where, double dflt, double lo, double hi,
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

/* obj's non-empty string key into out (shorter than len); dflt when absent, an error when dflt is NULL. */
static void gr_strfield(gr_pctx *c, json_t *obj, const char *key, const char *where, char *out, size_t len,
                        const char *dflt)
{
    json_t *v = json_object_get(obj, key);
    if (!v && !dflt) gr_perr(c, "%s: missing '%s'", where, key);
    else if (!v) snprintf(out, len, "%s", dflt);
    else if (!json_is_string(v) || !json_string_length(v)) gr_perr(c, "%s.%s: must be a non-empty string", where, key);
    else if (json_string_length(v) >= len) gr_perr(c, "%s.%s: longer than %zu characters", where, key, len - 1);
    else snprintf(out, len, "%s", json_string_value(v));
}

/* obj's boolean key; dflt when absent, an error when not true or false. */
static int gr_bool(gr_pctx *c, json_t *obj, const char *key, const char *where, int dflt)
{
    json_t *v = json_object_get(obj, key);
    if (v && !json_is_boolean(v)) gr_perr(c, "%s.%s: must be true or false", where, key);
    return v ? json_is_true(v) : dflt;
}

/* The one size parser is the contract's (wb_size_parse); the rubric's sizes are 1-D or MxNxK. */
int gr_size_parse(const char *s, gr_size *out)
{
    char err[160];
    wb_size sz;
    memset(out, 0, sizeof *out);
    if (strlen(s) >= sizeof out->text || wb_size_parse(s, strchr(s, 'x') ? 3 : 1, LLONG_MAX, &sz, err, sizeof err))
        return -1;
    out->n_dims = sz.dims;
    for (int k = 0; k < sz.dims; k++) out->d[k] = sz.d[k];
    snprintf(out->text, sizeof out->text, "%s", s);
    wb_size_str(&sz, out->canon, sizeof out->canon);
    return 0;
}

/* The sanitizer tools arr names, where it is given (NULL: the tools stay as they are). */
static void gr_tools(gr_pctx *c, json_t *arr, const char *where, char tools[][16], int *n)
{
    if (arr && !json_is_array(arr)) gr_perr(c, "%s: must be an array of tool names", where);
    if (!json_is_array(arr)) return;
    *n = 0;
    size_t i;
    json_t *t;
    json_array_foreach(arr, i, t)
    {
        const char *s = json_string_value(t);
        if (!s || (strcmp(s, "memcheck") && strcmp(s, "racecheck") && strcmp(s, "synccheck") && strcmp(s, "initcheck")))
            gr_perr(c, "%s[%zu]: must be memcheck, racecheck, synccheck or initcheck", where, i);
        else if (*n == GR_MAX_TOOLS) gr_perr(c, "%s: at most %d tools", where, GR_MAX_TOOLS);
        else snprintf(tools[(*n)++], 16, "%s", s);
    }
}

/* ---------------------------------------------------------------- a chapter's facts (chapter.json) */
/* What chapters/NN-name/chapter.json says about the chapter itself; the rubric adds points and policy. */
static const char *const gr_fact_keys[] = {"dump", "compare", "tolerance", "tile", "cols_dim", "edge_sizes",
                                           "sanitizer_size", "perf_size", "variants", "tests", "oracle_tolerance",
                                           NULL};
static const char *const gr_policy_keys[] = {"number", "sanitizer_tools", "screen_extra", "screen_allow", "variants",
                                             NULL};

/* dump, compare and tolerance: how the --dump result is compared with the reference's. */
static void gr_chapter_compare(gr_pctx *c, json_t *o, const char *where, gr_chapter_rubric *ch)
{
    char dump[16] = "", cmp[16] = "";
    gr_strfield(c, o, "dump", where, dump, sizeof dump, NULL);
    gr_strfield(c, o, "compare", where, cmp, sizeof cmp, "exact");
    if (!strcmp(dump, "int32")) ch->elem = GR_I32;
    else if (!strcmp(dump, "int64")) ch->elem = GR_I64;
    else if (!strcmp(dump, "float32")) ch->elem = GR_F32;
    else if (!c->failed) gr_perr(c, "%s.dump: '%s' is not int32, int64 or float32", where, dump);
    if (!strcmp(cmp, "tolerance")) ch->tolerance = 1;
    else if (strcmp(cmp, "exact") && !c->failed) gr_perr(c, "%s.compare: '%s' is not exact or tolerance", where, cmp);
    json_t *tol = json_object_get(o, "tolerance");
    if (!ch->tolerance && tol) gr_perr(c, "%s: 'tolerance' given but compare is 'exact'", where);
    if (!ch->tolerance) return;
    if (ch->elem != GR_F32) gr_perr(c, "%s: a tolerance needs dump float32", where);
    if (!json_is_object(tol)) gr_perr(c, "%s: compare 'tolerance' needs a 'tolerance' object", where);
    char tw[300];
    snprintf(tw, sizeof tw, "%s.tolerance", where);
    static const char *const tk[] = {"rel", "abs", "scale_sqrt_k", NULL};
    gr_object(c, tol, tw, tk);
    ch->rtol = gr_num(c, tol, "rel", tw, 0, 0, 1, 1);
    ch->atol = gr_num(c, tol, "abs", tw, 0, 0, 1e6, 1);
    ch->sqrt_k = gr_bool(c, tol, "scale_sqrt_k", tw, 0);
    if (ch->rtol == 0 && ch->atol == 0) gr_perr(c, "%s: rel and abs are both 0: use compare 'exact'", tw);
}

/* How many elements o's array key has, 1 to max; 0 after the error naming it. */
static size_t gr_array(gr_pctx *c, json_t *o, const char *key, const char *where, size_t max)
{
    size_t n = json_array_size(json_object_get(o, key));
    if (n == 0) gr_perr(c, "%s.%s: must be a non-empty array", where, key);
    else if (n > max) gr_perr(c, "%s.%s: at most %zu", where, key, max);
    return n <= max ? n : 0;
}

/* One size field of o into sz; a missing or malformed one is the error naming the field. */
static void gr_size_field(gr_pctx *c, json_t *o, const char *key, const char *where, gr_size *sz)
{
    char text[64];
    gr_strfield(c, o, key, where, text, sizeof text, NULL);
    if (!c->failed && gr_size_parse(text, sz)) gr_perr(c, "%s.%s: not a size", where, key);
}

/* The sizes (edge, sanitizer, perf: all of one form), the tile and cols_dim. */
static void gr_chapter_sizes(gr_pctx *c, json_t *o, const char *where, gr_chapter_rubric *ch)
{
    ch->tile = (int)gr_num(c, o, "tile", where, 1, 1, 65536, 0);
    json_t *cd = json_object_get(o, "cols_dim");
    ch->cols_dim = json_is_null(cd) ? -1 : (int)gr_num(c, o, "cols_dim", where, -1, 0, 2, 0);
    json_t *edge = json_object_get(o, "edge_sizes");
    size_t n = gr_array(c, o, "edge_sizes", where, GR_MAX_EDGE);
    for (size_t i = 0; i < n; i++) {
        const char *s = json_string_value(json_array_get(edge, i));
        if (!s || gr_size_parse(s, &ch->edge[ch->n_edge++])) {
            gr_perr(c, "%s.edge_sizes[%zu]: must be a size string like \"1000003\", \"2^20\" or \"17x33x5\"", where, i);
            break;
        }
    }
    gr_size_field(c, o, "sanitizer_size", where, &ch->sanitizer_size);
    gr_size_field(c, o, "perf_size", where, &ch->perf_size);
    if (c->failed) return;
    int dims = ch->edge[0].n_dims;
    for (int i = 0; i < ch->n_edge; i++)
        if (ch->edge[i].n_dims != dims) gr_perr(c, "%s.edge_sizes: mixes 1-D and MxNxK sizes", where);
    if (ch->perf_size.n_dims != dims || ch->sanitizer_size.n_dims != dims)
        gr_perr(c, "%s: perf_size and sanitizer_size must have the edge sizes' form", where);
    if (ch->cols_dim >= dims) gr_perr(c, "%s.cols_dim: the sizes have only %d extent(s)", where, dims);
    if (ch->sqrt_k && dims != 3) gr_perr(c, "%s.tolerance.scale_sqrt_k: needs MxNxK sizes", where);
}

/* The variants, in the program's order: name, whether it stages tiles, whether the starter gives it. */
static void gr_chapter_variants(gr_pctx *c, json_t *o, const char *where, gr_chapter_rubric *ch)
{
    json_t *vars = json_object_get(o, "variants");
    size_t n = gr_array(c, o, "variants", where, GR_MAX_VAR);
    for (size_t i = 0; i < n; i++) {
        json_t *v = json_array_get(vars, i);
        char vw[300];
        snprintf(vw, sizeof vw, "%s.variants[%zu]", where, i);
        static const char *const fk[] = {"name", "tiles", "given", NULL};
        if (!gr_object(c, v, vw, fk)) return;
        gr_variant_rubric *vr = &ch->var[ch->n_var++];
        gr_strfield(c, v, "name", vw, vr->name, sizeof vr->name, NULL);
        vr->tiles = gr_bool(c, v, "tiles", vw, ch->tile > 1);
        vr->given = gr_bool(c, v, "given", vw, 0);
        if (gr_rubric_variant(ch, vr->name) != vr) gr_perr(c, "%s: variant '%s' appears twice", vw, vr->name);
    }
}

/* ---------------------------------------------------------------- a chapter's policy (the rubric) */
/* The rubric's part of a chapter: its number (unique), screen rules, sanitizer tools. */
static void gr_chapter_policy(gr_pctx *c, json_t *o, const char *where, gr_chapter_rubric *ch, const gr_rubric *r)
{
    ch->screen = r->screen;
    char serr[200];
    json_t *extra = json_object_get(o, "screen_extra"), *allow = json_object_get(o, "screen_allow");
    if (extra && gr_screen_rules_add(&ch->screen, extra, serr, sizeof serr)) gr_perr(c, "%s.screen_extra: %s", where, serr);
    if (allow && !json_is_array(allow)) gr_perr(c, "%s.screen_allow: must be an array of patterns", where);
    else gr_screen_rules_allow(&ch->screen, allow);
    for (int k = 0; k < r->n_ch; k++)
        if (&r->ch[k] != ch && r->ch[k].number == ch->number) gr_perr(c, "%s: chapter %d appears twice", where, ch->number);
    ch->n_tools = r->n_tools;
    memcpy(ch->tools, r->tools, sizeof ch->tools);
    gr_tools(c, json_object_get(o, "sanitizer_tools"), where, ch->tools, &ch->n_tools);
}

/* ---------------------------------------------------------------- the rubric's own sections */
/* A section of the rubric, its keys known; absent or not an object, each of its fields is its default. */
static json_t *gr_section(gr_pctx *c, json_t *root, const char *key, const char *const *keys)
{
    json_t *s = json_object_get(root, key);
    if (s) gr_object(c, s, key, keys);
    return s;
}

static void gr_parse_costs(gr_pctx *c, json_t *root, gr_rubric *r)
{
    static const char *const tk[] = {"build", "run", "sanitizer", "perf", NULL};
    json_t *t = gr_section(c, root, "timeouts_s", tk);
    r->t_build = gr_num(c, t, "build", "timeouts_s", 240, 1, 3600, 0);
    r->t_run = gr_num(c, t, "run", "timeouts_s", 60, 1, 3600, 0);
    r->t_sanitizer = gr_num(c, t, "sanitizer", "timeouts_s", 240, 1, 3600, 0);
    r->t_perf = gr_num(c, t, "perf", "timeouts_s", 120, 1, 3600, 0);
    static const char *const bk[] = {"gpu_chapter_s", "gpu_submission_s", "confirm_s", "confirm_factor",
                                     "sanitizer_factor", "sanitizer_slack_s", NULL};
    json_t *b = gr_section(c, root, "bounds", bk);
    r->gpu_chapter_s = gr_num(c, b, "gpu_chapter_s", "bounds", 90, 5, 36000, 0);
    r->gpu_submission_s = gr_num(c, b, "gpu_submission_s", "bounds", 240, 5, 36000, 0);
    r->confirm_s = gr_num(c, b, "confirm_s", "bounds", 10, 1, 3600, 0);
    r->confirm_factor = gr_num(c, b, "confirm_factor", "bounds", 5, 1, 1000, 0);
    r->sanitizer_factor = gr_num(c, b, "sanitizer_factor", "bounds", 4, 1, 1000, 0);
    r->sanitizer_slack_s = gr_num(c, b, "sanitizer_slack_s", "bounds", 20, 0, 3600, 0);
    char fb[32];
    gr_strfield(c, root, "sanitizer_without_bubblewrap", "rubric", fb, sizeof fb, "isolated");
    if (!strcmp(fb, "isolated")) r->san_fallback = GR_SAN_FALLBACK_ISOLATED;
    else if (!strcmp(fb, "skip")) r->san_fallback = GR_SAN_FALLBACK_SKIP;
    else gr_perr(c, "sanitizer_without_bubblewrap: \"isolated\" or \"skip\", not \"%s\"", fb);
    static const char *const lk[] = {"cpu_s", "file_mb", "disk_mb", "nproc", "output_kb", NULL};
    json_t *l = gr_section(c, root, "limits", lk);
    r->cpu_s = gr_num(c, l, "cpu_s", "limits", 300, 1, 36000, 0);
    r->file_bytes = (long long)gr_num(c, l, "file_mb", "limits", 1024, 1, 1 << 20, 0) << 20;
    r->disk_bytes = (long long)gr_num(c, l, "disk_mb", "limits", 2048, 1, 1 << 20, 0) << 20;
    r->nproc = (int)gr_num(c, l, "nproc", "limits", 256, 64, 100000, 0);
    r->out_cap = (size_t)gr_num(c, l, "output_kb", "limits", 64, 1, 1 << 20, 0) << 10;
}

static void gr_parse_bands(gr_pctx *c, json_t *p, gr_rubric *r)
{
    json_t *bands = json_object_get(p, "bands");
    size_t n = json_array_size(bands);
    if (!bands) {
        static const gr_band dflt[] = {{1.2, 1.0}, {2.0, 0.5}, {10.0, 0.1}};
        memcpy(r->band, dflt, sizeof dflt);
        r->n_bands = 3;
    } else if (n == 0 || n > GR_MAX_BANDS) {
        gr_perr(c, "perf.bands: must be an array of 1 to %d {\"within\": x, \"fraction\": f}", GR_MAX_BANDS);
        n = 0;
    }
    for (size_t i = 0; i < n; i++) {
        json_t *b = json_array_get(bands, i);
        char bw[48];
        snprintf(bw, sizeof bw, "perf.bands[%zu]", i);
        static const char *const bk[] = {"within", "fraction", NULL};
        if (!gr_object(c, b, bw, bk)) break;
        gr_band *g = &r->band[r->n_bands++];
        g->within = gr_num(c, b, "within", bw, 1, 1, 1e6, 1);
        g->fraction = gr_num(c, b, "fraction", bw, 0, 0, 1, 1);
        if (i > 0 && !(g->within > r->band[i - 1].within))
            gr_perr(c, "%s.within: bands must grow (%g after %g)", bw, g->within, r->band[i - 1].within);
        if (i > 0 && g->fraction > r->band[i - 1].fraction)
            gr_perr(c, "%s.fraction: a slower band cannot earn more (%g after %g)", bw, g->fraction, r->band[i - 1].fraction);
    }
}

static void gr_parse_perf(gr_pctx *c, json_t *root, gr_rubric *r)
{
    static const char *const pk[] = {"rounds", "low_rounds", "reps", "warmup", "wall_slack_s", "wall_factor",
                                     "cross_check_s", "bands", "floor_margin", "cpu_factor", "reference_high",
                                     "reference_reuse_s", NULL};
    json_t *p = gr_section(c, root, "perf", pk);
    r->rounds = (int)gr_num(c, p, "rounds", "perf", 2, 1, 20, 0);
    /* the low count calibrates the high one and catches a hang early (round 0 needs it); a later low run
     * only adds a noisy 5-repetition median at the cost of a whole process */
    r->low_rounds = (int)gr_num(c, p, "low_rounds", "perf", r->rounds, 1, r->rounds, 0);
    r->warmup = (int)gr_num(c, p, "warmup", "perf", 2, 0, 100, 0);
    r->wall_slack_s = gr_num(c, p, "wall_slack_s", "perf", 0.3, 0, 60, 0);
    r->wall_factor = gr_num(c, p, "wall_factor", "perf", 1.5, 1, 100, 0);
    r->cross_check_s = gr_num(c, p, "cross_check_s", "perf", 1.0, 0.01, 60, 0);
    r->reference_high = gr_num(c, p, "reference_high", "perf", 1, 0, 1, 0) >= 1;
    r->reference_reuse_s = gr_num(c, p, "reference_reuse_s", "perf", 0, 0, 3600, 0);
    /* A margin below 0 would flag honest runs at the ceiling; above 10 would let 11x the hardware pass. */
    r->floor_margin = gr_num(c, p, "floor_margin", "perf", 0.10, 0, 10, 0);
    /* An honest launcher only enqueues (microseconds): below 1 the check would flag honest waiting. */
    r->cpu_factor = gr_num(c, p, "cpu_factor", "perf", 2.0, 1, 1000, 0);
    json_t *reps = json_object_get(p, "reps");
    r->reps_lo = 5;
    r->reps_hi = 1000;
    if (reps && json_unpack(reps, "[ii!]", &r->reps_lo, &r->reps_hi))
        gr_perr(c, "perf.reps: must be [low, highest high], two integers");
    else if (r->reps_lo < 1 || r->reps_hi > 1000 || r->reps_hi <= r->reps_lo)
        gr_perr(c, "perf.reps: need 1 ≤ low < high ≤ 1000");
    gr_parse_bands(c, p, r);
}

/* Everything but the chapters. Returns the parsed document (the caller json_decref's it) or NULL. */
static json_t *gr_rubric_policy(const char *text, gr_rubric *r, gr_pctx *c)
{
    memset(r, 0, sizeof *r);
    json_error_t je;
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &je);
    if (!root) {
        gr_perr(c, "line %d, column %d: %s", je.line, je.column, je.text);
        return NULL;
    }
    if (!json_is_object(root)) {
        gr_perr(c, "the rubric must be a JSON object");
        json_decref(root);
        return NULL;
    }
    static const char *const keys[] = {"course", "seeds", "timeouts_s", "limits", "perf", "sanitizer_tools", "screen",
                                       "chapters", "bounds", "sanitizer_without_bubblewrap", "points",
                                       "unlisted_chapters", NULL};
    gr_object(c, root, "rubric", keys);
    gr_strfield(c, root, "course", "rubric", r->course, sizeof r->course, "CUDA C workbook");
    r->seeds = (int)gr_num(c, root, "seeds", "rubric", 2, 1, 8, 0);
    gr_parse_costs(c, root, r);
    gr_parse_perf(c, root, r);
    static const char *const pk[] = {"correct", "sanitizer", "perf", NULL};
    json_t *p = gr_section(c, root, "points", pk);
    r->points.correct = gr_num(c, p, "correct", "points", 2, 0, 1000, 0);
    r->points.sanitizer = gr_num(c, p, "sanitizer", "points", 1, 0, 1000, 0);
    r->points.perf = gr_num(c, p, "perf", "points", 1, 0, 1000, 0);
    char un[16];
    gr_strfield(c, root, "unlisted_chapters", "rubric", un, sizeof un, "grade");
    if (!strcmp(un, "skip")) r->skip_unlisted = 1;
    else if (strcmp(un, "grade")) gr_perr(c, "unlisted_chapters: \"grade\" or \"skip\", not \"%s\"", un);
    static const char dflt_tools[][16] = {"memcheck", "racecheck", "synccheck"};
    memcpy(r->tools, dflt_tools, sizeof dflt_tools);
    r->n_tools = 3;
    gr_tools(c, json_object_get(root, "sanitizer_tools"), "sanitizer_tools", r->tools, &r->n_tools);
    /* The region screen's rules (grading/screen.h): every chapter starts from these. */
    json_t *screen = json_object_get(root, "screen");
    char serr[200];
    if (screen && gr_screen_rules_add(&r->screen, screen, serr, sizeof serr)) gr_perr(c, "screen: %s", serr);
    return root;
}

/* ---------------------------------------------------------------- a workbook's chapters on disk */
int gr_chapter_dir_split(const char *dir, int *number, char *file, size_t len)
{
    char *end;
    long n = strtol(dir, &end, 10);
    if (!isdigit((unsigned char)dir[0]) || *end != '-' || !end[1] || n < 1 || n > 99) return -1;
    for (const char *s = dir; *s; s++) /* a safe name: no path, no shell word */
        if (!isalnum((unsigned char)*s) && !strchr("-_.", *s)) return -1;
    *number = (int)n;
    snprintf(file, len, "%s.cu", end + 1);
    return 0;
}

int gr_chapters_scan(const char *root, char dirs[][128], int max)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/chapters", root);
    struct dirent **e;
    int n = 0, m = scandir(p, &e, NULL, alphasort); /* NN- prefixes: the chapters in order */
    for (int i = 0; i < m; i++) {
        int num;
        char file[128];
        const char *d = e[i]->d_name;
        snprintf(p, sizeof p, "%s/chapters/%s/chapter.json", root, d);
        if (n < max && strlen(d) < 128 && !gr_chapter_dir_split(d, &num, file, sizeof file) && gr_is_file(p))
            snprintf(dirs[n++], 128, "%s", d);
        free(e[i]);
    }
    if (m >= 0) free(e);
    return n;
}

int gr_chapter_load(const char *root, const char *dir, gr_chapter_rubric *ch, char *err, size_t errlen)
{
    gr_pctx cx = {err, errlen, 0};
    gr_pctx *c = &cx;
    char where[300], p[PATH_MAX];
    snprintf(where, sizeof where, "chapters/%s/chapter.json", dir);
    snprintf(p, sizeof p, "%s/%s", root, where);
    memset(ch, 0, sizeof *ch);
    snprintf(ch->dir, sizeof ch->dir, "%s", dir);
    if (gr_chapter_dir_split(dir, &ch->number, ch->file, sizeof ch->file)) {
        gr_perr(c, "chapters/%s: a chapter's folder is named NN-name (its program name.cu)", dir);
        return -1;
    }
    json_error_t je;
    json_t *o = json_load_file(p, JSON_REJECT_DUPLICATES, &je);
    if (!o) gr_perr(c, "%s: line %d, column %d: %s", where, je.line, je.column, je.text);
    else if (!json_is_object(o)) gr_perr(c, "%s: must be a JSON object", where);
    else {
        gr_object(c, o, where, gr_fact_keys);
        gr_chapter_compare(c, o, where, ch);
        gr_chapter_sizes(c, o, where, ch);
        /* the tests' own sections (tests/test_chapters.c and the chapter's test validate them) */
        json_t *tests = json_object_get(o, "tests"), *otol = json_object_get(o, "oracle_tolerance");
        if (tests && !json_is_object(tests)) gr_perr(c, "%s.tests: must be an object", where);
        if (otol && !json_is_object(otol)) gr_perr(c, "%s.oracle_tolerance: must be an object", where);
        gr_chapter_variants(c, o, where, ch);
    }
    json_decref(o);
    return c->failed ? -1 : 0;
}

/* The rubric's entry for chapter `number` (NULL: none); a fact written there is an error. */
static json_t *gr_policy_entry(gr_pctx *c, json_t *chs, int number, const char *path, char *where, size_t wlen)
{
    size_t i;
    json_t *e;
    json_array_foreach(chs, i, e)
    {
        snprintf(where, wlen, "%s: chapters[%zu]", path, i);
        if (!json_is_object(e)) {
            gr_perr(c, "%s: must be an object", where);
            return NULL;
        }
        double num = gr_num(c, e, "number", where, 0, 1, 99, 1);
        if (num != floor(num)) gr_perr(c, "%s.number: must be an integer", where);
        if ((int)num != number) continue;
        for (const char *const *k = gr_fact_keys; *k; k++)
            if (strcmp(*k, "variants") && json_object_get(e, *k))
                gr_perr(c, "%s: '%s' is a fact of the chapter: it belongs in its chapter.json", where, *k);
        gr_object(c, e, where, gr_policy_keys);
        return e;
    }
    return NULL;
}

/* Every variant of ch gets the points its rubric entry gives it by name (each one named, no other), or
 * the rubric's default points where the rubric does not name the chapter (none for a given variant). */
static void gr_chapter_points(gr_pctx *c, json_t *entry, const char *where, gr_chapter_rubric *ch, const gr_rubric *r)
{
    json_t *vars = entry ? json_object_get(entry, "variants") : NULL;
    if (!vars) {
        for (int v = 0; v < ch->n_var; v++) {
            gr_variant_rubric *vr = &ch->var[v];
            vr->correct = vr->given ? 0 : r->points.correct;
            vr->sanitizer = vr->given ? 0 : r->points.sanitizer;
            vr->perf = vr->given ? 0 : r->points.perf;
        }
        return;
    }
    if (!json_is_array(vars) || json_array_size(vars) != (size_t)ch->n_var)
        gr_perr(c, "%s.variants: must give the points of each of chapters/%s/chapter.json's %d variants", where, ch->dir,
                ch->n_var);
    size_t i;
    json_t *v;
    json_array_foreach(vars, i, v)
    {
        char vw[400], name[64] = "";
        snprintf(vw, sizeof vw, "%s.variants[%zu]", where, i);
        static const char *const vk[] = {"name", "correct", "perf", "sanitizer", NULL};
        if (!gr_object(c, v, vw, vk)) return;
        gr_strfield(c, v, "name", vw, name, sizeof name, NULL);
        gr_variant_rubric *vr = (gr_variant_rubric *)gr_rubric_variant(ch, name);
        if (!vr) gr_perr(c, "%s: chapters/%s/chapter.json has no variant '%s'", vw, ch->dir, name);
        else { /* correct required, perf and sanitizer 0 unless given */
            vr->correct = gr_num(c, v, "correct", vw, 0, 0, 1000, 1);
            vr->perf = gr_num(c, v, "perf", vw, 0, 0, 1000, 0);
            vr->sanitizer = gr_num(c, v, "sanitizer", vw, 0, 0, 1000, 0);
        }
    }
}

/* The workbook's chapters, each from its folder's chapter.json with its rubric entry's points. */
static void gr_rubric_chapters(gr_pctx *c, const char *root, json_t *doc, const char *path, gr_rubric *r)
{
    json_t *chs = json_object_get(doc, "chapters");
    if (chs && !json_is_array(chs)) gr_perr(c, "%s: 'chapters' must be an array", path);
    char dirs[GR_MAX_CH][128];
    int n = gr_chapters_scan(root, dirs, GR_MAX_CH);
    for (int d = 0; d < n && !c->failed; d++) {
        gr_chapter_rubric *ch = &r->ch[r->n_ch];
        c->failed = gr_chapter_load(root, dirs[d], ch, c->err, c->errlen) != 0;
        char where[400];
        json_t *entry = json_is_array(chs) ? gr_policy_entry(c, chs, ch->number, path, where, sizeof where) : NULL;
        if (c->failed || (!entry && r->skip_unlisted)) continue;
        if (!entry) snprintf(where, sizeof where, "%s: chapter %d", path, ch->number);
        r->n_ch++;
        gr_chapter_policy(c, entry, where, ch, r);
        gr_chapter_points(c, entry, where, ch, r);
    }
}

int gr_rubric_load_at(const char *root, const char *path, gr_rubric *r, char *err, size_t errlen)
{
    size_t n;
    char *text = gr_read_capped(path, 1 << 20, &n);
    if (!text) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    char why[400];
    gr_pctx c = {why, sizeof why, 0};
    json_t *doc = gr_rubric_policy(text, r, &c);
    free(text);
    if (c.failed) {
        snprintf(err, errlen, "%s: %s", path, why);
        json_decref(doc);
        return -1;
    }
    c = (gr_pctx){err, errlen, 0};
    gr_rubric_chapters(&c, root, doc, path, r);
    json_decref(doc);
    return c.failed ? -1 : 0;
}

const gr_variant_rubric *gr_rubric_variant(const gr_chapter_rubric *ch, const char *name)
{
    for (int i = 0; i < ch->n_var; i++)
        if (!strcmp(ch->var[i].name, name)) return &ch->var[i];
    return NULL;
}

int gr_variants_check(const gr_chapter_rubric *ch, const char *const *listed, int n, char *why, size_t len)
{
    for (int v = 0; v < ch->n_var; v++) {
        int found = 0;
        for (int k = 0; k < n && !found; k++) found = !strcmp(listed[k], ch->var[v].name);
        if (!found) {
            snprintf(why, len, "chapter %d: chapters/%s/chapter.json names variant '%s', which the program does not "
                     "list", ch->number, ch->dir, ch->var[v].name);
            return -1;
        }
    }
    return 0;
}

int gr_variants_match(const gr_chapter_rubric *ch, const char *const *listed, int n, char *why, size_t len)
{
    if (gr_variants_check(ch, listed, n, why, len)) return -1;
    for (int k = 0; k < n; k++)
        if (!gr_rubric_variant(ch, listed[k])) {
            snprintf(why, len, "chapter %d: the program lists variant '%s', which chapters/%s/chapter.json does not "
                     "name (add it to \"variants\")", ch->number, listed[k], ch->dir);
            return -1;
        }
    return 0;
}

double gr_band_fraction(const gr_rubric *r, double ratio)
{
    if (!(ratio > 0) || !isfinite(ratio)) return 0;
    for (int i = 0; i < r->n_bands; i++)
        if (ratio <= r->band[i].within) return r->band[i].fraction;
    return 0;
}
