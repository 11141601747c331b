/* correctness.c — see correctness.h. */
#define _GNU_SOURCE 1
#include "correctness.h"
#include "gpu.h"
#include "refkeep.h"

#define GR_DUMP_ROWS "rows.jsonl" /* a dump run's --json lines: whether each variant changed an input */

typedef struct {
    gr_var_facts f;
    int runs_todo;
    unsigned long long first_n;    /* the elements of the most telling wrong run (f.cmp) */
    int first_len;                 /* it was a comparison (not a missing file) */
    int crashed, timed_out;
    unsigned dead;                 /* bit s: edge size s failed when run alone; not run again */
    gr_size_outcome end[GR_MAX_EDGE]; /* how such a size's run ended */
} gr_corr;

static void gr_dead(gr_corr *c, int s, gr_size_outcome o)
{
    c->end[s] = o;
    c->dead |= 1u << s;
}

/* Adds an edge size to the wrong ones, once. */
static void gr_size_bad(gr_var_facts *f, const char *size)
{
    size_t bl = strlen(f->sizes_bad);
    if (bl < sizeof f->sizes_bad - 40 && !strstr(f->sizes_bad, size))
        snprintf(f->sizes_bad + bl, sizeof f->sizes_bad - bl, "%s%s", bl ? ", " : "", size);
}

static int gr_chunk_count(const gr_chapter_rubric *ch, int first)
{
    return ch->n_edge - first < GR_MAX_SIZES_PER_RUN ? ch->n_edge - first : GR_MAX_SIZES_PER_RUN;
}

/* A variant's dumps of one edge size, the reference's and the student's, and their comparison. */
typedef struct {
    char *ref, *got;           /* to free; got NULL when missing or of another length */
    long long ref_bytes;       /* -1: the reference has none, nothing to hold the student to */
    gr_cmp cmp;
} gr_pair;

static void gr_pair_compare(const gr_chapter_rubric *ch, int s, const char *refdir, const char *studir,
                            const char *variant, gr_pair *p)
{
    char rp[PATH_MAX], sp[PATH_MAX];
    wb_dump_path(rp, sizeof rp, refdir, variant, ch->edge[s].canon);
    wb_dump_path(sp, sizeof sp, studir, variant, ch->edge[s].canon);
    long long rb = gr_file_size(rp), sb = gr_file_size(sp);
    size_t len;
    p->got = NULL;
    p->ref = rb >= 0 ? gr_read_capped(rp, (size_t)rb + 1, &len) : NULL;
    p->ref_bytes = p->ref ? rb : -1;
    if (!p->ref) return;
    p->got = sb >= 0 && sb == rb ? gr_read_capped(sp, (size_t)sb + 1, &len) : NULL;
    gr_compare(ch, ch->edge[s].d, ch->edge[s].n_dims, p->ref, rb, p->got, sb, &p->cmp); /* sb -1: missing */
}

/* What the raw data of wrong edge size s shows, added to what the earlier seeds showed of it. */
static void gr_scan_wrong(const gr_chapter_rubric *ch, int s, const gr_pair *p, gr_size_ev *sev)
{
    gr_size_ev scan = *sev;
    const gr_size *z = &ch->edge[s];
    unsigned long long n = p->cmp.n;
    unsigned long long cols = ch->cols_dim >= 0 && ch->cols_dim < z->n_dims ? (unsigned long long)z->d[ch->cols_dim] : n;
    gr_diag_scan(p->ref, p->got, n, cols, ch->elem, ch->tolerance, ch->tile, &scan);
    int first = sev->pat == GR_PAT_NONE; /* the first wrong seed of this size */
    sev->pat = p->cmp.pattern;
    sev->transposed |= scan.transposed;
    sev->uniform |= scan.uniform;
    sev->first_tile_repeated |= scan.first_tile_repeated;
    sev->offset |= scan.offset;
    sev->side = first || sev->side == scan.side ? scan.side : 0; /* one side at every seed, or none */
    sev->first_wrong = first || sev->first_wrong == scan.first_wrong ? scan.first_wrong : -1;
    if (scan.n_wrong > sev->n_wrong) sev->n_wrong = scan.n_wrong;
}

/* A wrong run of (seed, size) counted; the feedback's from the largest failing size: patterns (tail,
 * boundary, shift) need room to show. A missing file only counts when nothing else is wrong; a written
 * input stays first. */
static void gr_note_wrong(gr_corr *w, const gr_cmp *cmp, unsigned long long seed, const char *size)
{
    w->f.runs_bad++;
    w->runs_todo += cmp->pattern == GR_PAT_UNWRITTEN;
    gr_size_bad(&w->f, size);
    int better = !w->f.mismatch && !w->f.wrote_input;
    better |= cmp->pattern != GR_PAT_LENGTH && (w->first_len ? cmp->n > w->first_n : 1);
    if (!better) return;
    w->first_n = cmp->n;
    w->first_len = cmp->pattern != GR_PAT_LENGTH;
    w->f.mismatch = 1;
    w->f.seed = seed;
    snprintf(w->f.size, sizeof w->f.size, "%s", size);
    w->f.cmp = *cmp;
}

/* Issue 27, "no collateral between variants": the harness puts an input a variant changed back for the
 * next one (common/wb_inputs.h), so only the variant that wrote it is told, in its JSON line. It is wrong
 * at that (seed, size) whatever its dump says; `counted` (bit s): the sizes its dumps already made wrong. */
static void gr_note_input_writes(const gr_chjob *j, const gr_dump_chunk *k, const char *dir, const char *name,
                                 unsigned counted, gr_corr *c)
{
    char path[PATH_MAX + 32], err[200];
    snprintf(path, sizeof path, "%s/" GR_DUMP_ROWS, dir);
    json_t *lines = gr_is_file(path) ? wb_jsonl_load(path, err, sizeof err) : NULL;
    for (int s = k->first; lines && s < k->first + k->count; s++) {
        wb_row row;
        const char *size = j->ch->edge[s].text;
        if (!gr_rows_input_written(lines, name, j->ch->edge[s].canon, &row)) continue;
        if (!(counted >> s & 1)) {
            c->f.runs_bad++;
            gr_size_bad(&c->f, size);
        }
        if (c->f.wrote_input) continue; /* the first is told first, and kept there */
        c->f.wrote_input = 1;
        snprintf(c->f.input_name, sizeof c->f.input_name, "%s", row.input_written_name);
        c->f.input_at = row.input_written;
        c->f.input_seed = k->seed;
        snprintf(c->f.input_size, sizeof c->f.input_size, "%s", size);
        c->first_len = 1;
        c->first_n = ULLONG_MAX; /* a larger failing size does not replace it (gr_note_wrong) */
    }
    json_decref(lines);
}

/* What the reference's lines in refdir and the student's in studir (NULL: not run yet) say of a variant's
 * availability, added to what earlier runs said: not here outranks a dodge; the first reason is kept. */
static void gr_note_avail(gr_corr *c, const char *variant, const char *refdir, const char *studir)
{
    char rp[PATH_MAX + 32], sp[PATH_MAX + 32], rwhy[WB_REASON_LEN], swhy[WB_REASON_LEN];
    snprintf(rp, sizeof rp, "%s/" GR_DUMP_ROWS, refdir);
    snprintf(sp, sizeof sp, "%s/" GR_DUMP_ROWS, studir ? studir : ".");
    int ref = wb_jsonl_unavailable(rp, variant, rwhy, sizeof rwhy);
    int stu = studir && wb_jsonl_unavailable(sp, variant, swhy, sizeof swhy);
    gr_avail a = gr_avail_decide(1, ref ? WB_UNAVAILABLE : WB_PASS, stu ? WB_UNAVAILABLE : WB_PASS);
    if (a == GR_AVAIL_RUNS || c->f.avail == GR_AVAIL_NOT_HERE || c->f.avail == a) return;
    c->f.avail = a;
    snprintf(c->f.unavailable, sizeof c->f.unavailable, "%s", ref ? rwhy : swhy);
}

/* Compares every variant's dumps and written inputs of one (seed, chunk) run: those of its run alone where
 * it had one (judged by what it does alone), else the batch's; not one the reference could not run here. */
static void gr_compare_run(const gr_chjob *j, const gr_dump_chunk *k, const char *refdir, const char *studir,
                           gr_corr *corr, const char *isofmt)
{
    const gr_chapter_rubric *ch = j->ch;
    for (int v = 0; v < j->cr->n_v; v++) {
        gr_var_result *r = &j->cr->v[v];
        char iso[PATH_MAX];
        snprintf(iso, sizeof iso, isofmt, r->name);
        const char *dir = gr_is_dir(iso) ? iso : studir;
        if (corr[v].f.avail == GR_AVAIL_NOT_HERE) continue; /* a dodge's missing results count as wrong below */
        unsigned counted = 0;
        for (int s = k->first; s < k->first + k->count; s++) {
            corr[v].f.runs_total++;
            gr_pair p;
            gr_pair_compare(ch, s, refdir, dir, r->name, &p);
            if (p.ref_bytes < 0) continue;
            if (r->ev.scalar && p.ref_bytes == 8 && p.got && !r->ev.have1[s]) { /* first seed's sum */
                memcpy(&r->ev.ref1[s], p.ref, 8);
                memcpy(&r->ev.got1[s], p.got, 8);
                r->ev.have1[s] = 1;
            }
            gr_size_ev *sev = &r->ev.size[s];
            gr_size_outcome o = p.cmp.pattern == GR_PAT_NONE ? GR_SZ_PASS
                                : corr[v].dead & (1u << s) ? corr[v].end[s] : GR_SZ_WRONG;
            if (o > sev->out) sev->out = o; /* the worst over the seeds */
            if (o == GR_SZ_WRONG) gr_scan_wrong(ch, s, &p, sev);
            if (p.cmp.pattern != GR_PAT_NONE) {
                gr_note_wrong(&corr[v], &p.cmp, k->seed, ch->edge[s].text);
                counted |= 1u << s;
            }
            free(p.ref);
            free(p.got);
        }
        gr_note_input_writes(j, k, dir, r->name, counted, &corr[v]);
        gr_rmtree(iso); /* result files can be large */
    }
}

void gr_dump_run(const gr_chjob *j, const gr_dump_chunk *k, const char *prog, const char *variants, const char *dir,
                 const char *what, gr_cmd *c, gr_run_result *r)
{
    const gr_config *x = j->x;
    gr_rmtree(dir);
    gr_mkdirs(dir, 0755);
    gr_cmd_init(c, x, j->s, dir, k->limit > 0 ? k->limit : x->rub.t_run, GR_RUN_GPU);
    gr_arg(c, "%s", prog);
    for (int i = k->first; i < k->first + k->count; i++) {
        gr_arg(c, "--size");
        gr_arg(c, "%s", j->ch->edge[i].text);
    }
    char seed[24];
    snprintf(seed, sizeof seed, "%llu", k->seed);
    /* untimed; the JSON lines into the run's folder */
    const char *const argv[] = {"--seed", seed, "--reps", "1", "--warmup", "0", "--json",
                                variants ? GR_DUMP_ROWS : "self.json", "--variant", variants, "--dump", dir};
    for (size_t a = 0; a < sizeof argv / sizeof argv[0] - (variants ? 0 : 4); a++) gr_arg(c, "%s", argv[a]);
    gr_cmd_ro(c, prog); /* outside the work dir: hidden by bubblewrap unless bound again */
    gr_exec(c, r, what);
}

static int gr_dump_complete(const char *dir, const gr_chapter_rubric *ch, const char *variant, int first, int count)
{
    for (int s = first; s < first + count; s++) {
        char p[PATH_MAX];
        wb_dump_path(p, sizeof p, dir, variant, ch->edge[s].canon);
        if (!gr_is_file(p)) return 0;
    }
    return 1;
}

/* Is a variant's batch run to be redone alone? Its dumps are missing (the run died partway: one crashing
 * variant must not take the others down, and its own failure is named), or, beside others, wrong other
 * than by a TODO's untouched poison: the variants share the process, the GPU memory and the inputs, and
 * one that writes out of bounds (or into its input) can spoil the next one's result. */
static int gr_needs_alone(const gr_chjob *j, const gr_dump_chunk *k, const char *refdir, const char *studir,
                          const char *variant, int others)
{
    int wrong = !gr_dump_complete(studir, j->ch, variant, k->first, k->count);
    for (int s = k->first; s < k->first + k->count && others && !wrong; s++) {
        gr_pair p;
        gr_pair_compare(j->ch, s, refdir, studir, variant, &p);
        wrong = p.ref_bytes >= 0 && p.cmp.pattern != GR_PAT_NONE && p.cmp.pattern != GR_PAT_UNWRITTEN;
        free(p.ref);
        free(p.got);
    }
    return wrong;
}

/* A variant alone over a chunk of sizes into dir: one try, within the chunk's short limit, with the GPU to
 * itself: a kernel spinning in another grading's run must not make an honest variant time out here (seen on
 * the H100: a class with hanging entries beside it); the short limit bounds what the others wait. */
static void gr_run_alone(const gr_chjob *j, const gr_dump_chunk *k, const char *variant, const char *dir, gr_cmd *c,
                         gr_run_result *r)
{
    char what[120];
    snprintf(what, sizeof what, "ch%d %s alone (%d size%s)", j->ch->number, variant, k->count, k->count == 1 ? "" : "s");
    gr_gpu_lock *l = j->s->lock;
    int alone = gr_gpu_take_for_run(l, GR_LOCK_ALONE);
    gr_dump_run(j, k, j->stu, variant, dir, what, c, r);
    if (alone) gr_gpu_release(l);
}

/* Notes how a run that left dumps missing ended: the first such run's words go into the feedback. */
static gr_size_outcome gr_note_failure(gr_corr *k, const gr_cmd *c, const gr_run_result *r)
{
    gr_size_outcome o = r->timed_out ? GR_SZ_TIMEOUT
                        : (r->signaled || r->fsize_exceeded || r->cpu_exceeded || r->disk_exceeded) ? GR_SZ_CRASH
                                                                                                       : GR_SZ_ERROR;
    k->timed_out |= o == GR_SZ_TIMEOUT;
    k->crashed |= o == GR_SZ_CRASH;
    if (k->f.lost == GR_LOST_NONE) {
        k->f.lost = GR_LOST_RAN;
        gr_run_describe(r, &c->o, k->f.lost_how, sizeof k->f.lost_how);
        gr_tail_lines(r->err, 3, k->f.lost_tail, sizeof k->f.lost_tail);
    }
    return o;
}

/* A variant whose batch run left dumps missing: alone over the chunk, and if that fails too, one size at
 * a time, so that every size gets its own verdict (a crash at 1000003 does not make 31 wrong). Sizes
 * that failed alone before (an earlier seed) are not run again. Costs runs only for failing variants. */
static void gr_isolate(const gr_chjob *j, const gr_dump_chunk *k, const char *isofmt, const char *variant, gr_corr *corr)
{
    const gr_chapter_rubric *ch = j->ch;
    char iso[PATH_MAX];
    snprintf(iso, sizeof iso, isofmt, variant);
    unsigned mask = ((1u << k->count) - 1) << k->first;
    gr_cmd c;
    gr_run_result r;
    char spent[300];
    if (gr_budget_spent(j->s->budget, spent, sizeof spent)) {
        /* no time left to confirm: the sizes without a result are not judged (never a guessed verdict) */
        for (int s = k->first; s < k->first + k->count; s++)
            if (!(corr->dead & (1u << s))) gr_dead(corr, s, GR_SZ_NOT_RUN);
        if (corr->f.lost == GR_LOST_NONE) {
            corr->f.lost = GR_LOST_NO_BUDGET;
            snprintf(corr->f.lost_how, sizeof corr->f.lost_how, "%s", spent);
        }
        return;
    }
    if (!(corr->dead & mask)) {
        gr_run_alone(j, k, variant, iso, &c, &r);
        int done = gr_dump_complete(iso, ch, variant, k->first, k->count);
        gr_size_outcome o = done ? GR_SZ_PASS : gr_note_failure(corr, &c, &r);
        gr_run_result_free(&r);
        /* It hit the time limit alone: the sizes run in order, so the first size without its dump is the one
         * that hung and the later ones never ran. Running each alone would cost the limit again per size (and,
         * with the GPU to itself, stall every other grading on it). */
        for (int s = k->first, first = 1; o == GR_SZ_TIMEOUT && s < k->first + k->count; s++) {
            if (gr_dump_complete(iso, ch, variant, s, 1)) continue;
            gr_dead(corr, s, first ? GR_SZ_TIMEOUT : GR_SZ_NOT_RUN);
            first = 0;
        }
        if (done || o == GR_SZ_TIMEOUT) return;
    } else {
        gr_rmtree(iso);
        gr_mkdirs(iso, 0755);
    }
    int hung = 0;
    for (int s = k->first; s < k->first + k->count; s++) {
        if ((corr->dead & (1u << s)) || gr_dump_complete(iso, ch, variant, s, 1)) continue;
        if (hung >= 2) { /* two sizes hit the time limit alone: the rest are not run (each would cost it) */
            gr_dead(corr, s, GR_SZ_NOT_RUN);
            continue;
        }
        char one[PATH_MAX + 16];
        snprintf(one, sizeof one, "%s.%d", iso, s);
        const gr_dump_chunk single = {k->seed, s, 1, k->limit};
        gr_run_alone(j, &single, variant, one, &c, &r);
        if (gr_dump_complete(one, ch, variant, s, 1)) {
            char from[PATH_MAX], to[PATH_MAX];
            wb_dump_path(from, sizeof from, one, variant, ch->edge[s].canon);
            wb_dump_path(to, sizeof to, iso, variant, ch->edge[s].canon);
            if (rename(from, to) != 0) LOG(j->x, "cannot move %s to %s", from, to);
        } else {
            gr_dead(corr, s, gr_note_failure(corr, &c, &r));
            hung += corr->end[s] == GR_SZ_TIMEOUT;
        }
        gr_run_result_free(&r);
        gr_rmtree(one);
    }
}

int gr_rows_input_written(const json_t *lines, const char *variant, const char *size, wb_row *row)
{
    char err[200];
    const json_t *line = wb_jsonl_find(lines, variant, size);
    return line && !wb_row_get(line, row, err, sizeof err) && row->input_written >= 0;
}

/* The reference's results for one (seed, chunk of sizes) in refdir: kept by an earlier entry of the class
 * (refkeep.h: then refdir is the kept folder), else run now and kept for the next. Kept per GPU model
 * (`model`, file-safe): which variants the GPU can run is its own (its lines' UNAVAILABLE). Returns 0 with
 * the run's wall time, or -1 (-3: no GPU) with why. */
static int gr_reference_chunk(const gr_chjob *j, const gr_dump_chunk *chunk, const char *model, char *refdir,
                              size_t rlen, double *wall, char *why, size_t wlen)
{
    const gr_config *x = j->x;
    char name[200], what[80];
    snprintf(name, sizeof name, "ch%d-seed%llu-%d%s%s", j->ch->number, chunk->seed, chunk->first, model[0] ? "-" : "",
             model);
    if (!gr_keep_find(x, name, 0, refdir, rlen, NULL, wall)) return 0;
    int lock = gr_keep_lock(x, name);
    if (lock >= 0 && !gr_keep_find(x, name, 0, refdir, rlen, NULL, wall)) return close(lock), 0;
    snprintf(what, sizeof what, "ch%d reference seed %llu", j->ch->number, chunk->seed);
    gr_run_result r;
    gr_cmd c;
    gr_dump_run(j, chunk, j->ref, "all", refdir, what, &c, &r);
    /* The reference's results must stay out of the student program's reach. */
    if (lchown(refdir, getuid(), getgid()) != 0 || chmod(refdir, 0700) != 0) LOG(x, "cannot protect %s", refdir);
    *wall = r.wall_s;
    int rc = 0;
    if (!(r.exited && r.code == 0)) {
        char d[200], t[400];
        gr_run_describe(&r, &c.o, d, sizeof d);
        gr_tail_lines(r.err, 2, t, sizeof t);
        snprintf(why, wlen, "the reference %s %s: %s", j->ref, d, t);
        rc = r.exited && r.code == WB_EXIT_NO_DEVICE ? -3 : -1;
    } else {
        char kept[PATH_MAX];
        if (!gr_keep_put(x, refdir, name, r.wall_s, kept, sizeof kept)) snprintf(refdir, rlen, "%s", kept);
    }
    gr_run_result_free(&r);
    if (lock >= 0) close(lock);
    return rc;
}

/* One (seed, chunk of sizes): the reference's results, the student's run of the variants still alive, some
 * re-run alone, the comparison. Returns 0, or -1 (-3: no GPU) with why when the reference could not run. */
static int gr_correct_chunk(const gr_chjob *j, int si, int first, const char *model, gr_corr *corr, char *why,
                            size_t wlen)
{
    const gr_config *x = j->x;
    const gr_chapter_rubric *ch = j->ch;
    gr_ch_result *cr = j->cr;
    unsigned long long seed = x->seeds[si];
    gr_dump_chunk chunk = {seed, first, gr_chunk_count(ch, first), 0};
    char own[PATH_MAX], refdir[PATH_MAX], studir[PATH_MAX], what[80];
    snprintf(own, sizeof own, "%s/ref-%d-%d", j->work, si, first); /* where its run goes, unless one is kept */
    snprintf(refdir, sizeof refdir, "%s", own);
    snprintf(studir, sizeof studir, "%s/stu-%d-%d", j->work, si, first);
    double ref_wall;
    int rc = gr_reference_chunk(j, &chunk, model, refdir, sizeof refdir, &ref_wall, why, wlen);
    if (rc) return rc;
    double confirm = gr_confirm_limit(&x->rub, ref_wall); /* for the runs alone below; not the batch's */
    for (int v = 0; v < cr->n_v; v++) gr_note_avail(&corr[v], cr->v[v].name, refdir, NULL);
    char live[1024] = "";
    int n_live = 0;
    for (int v = 0; v < cr->n_v; v++) /* a variant that cannot run here, or said so, is not run again */
        if (!corr[v].dead && corr[v].f.avail == GR_AVAIL_RUNS) {
            size_t l = strlen(live);
            snprintf(live + l, sizeof live - l, "%s%s", l ? "," : "", cr->v[v].name);
            n_live++;
        }
    snprintf(what, sizeof what, "ch%d student seed %llu", ch->number, seed);
    gr_run_result r;
    gr_cmd c;
    if (live[0]) {
        gr_dump_run(j, &chunk, j->stu, live, studir, what, &c, &r);
        gr_run_result_free(&r);
    } else gr_mkdirs(studir, 0755);
    for (int v = 0; v < cr->n_v; v++) gr_note_avail(&corr[v], cr->v[v].name, refdir, studir);
    chunk.limit = confirm;
    char isofmt[PATH_MAX];
    snprintf(isofmt, sizeof isofmt, "%s/iso-%d-%d-%%s", j->work, si, first);
    for (int v = 0; v < cr->n_v; v++) /* one whose line said why has nothing to confirm */
        if (corr[v].f.avail == GR_AVAIL_RUNS &&
            (corr[v].dead || gr_needs_alone(j, &chunk, refdir, studir, cr->v[v].name, n_live > 1)))
            gr_isolate(j, &chunk, isofmt, cr->v[v].name, &corr[v]);
    gr_compare_run(j, &chunk, refdir, studir, corr, isofmt);
    gr_rmtree(own); /* result files can be large; a kept run is elsewhere, for the entries after this one */
    gr_rmtree(studir);
    return 0;
}

/* Each variant's verdict from what its runs showed; self: the practice run's (expect: the rows it needs). */
static void gr_corr_verdicts(gr_ch_result *cr, gr_corr *corr, int self, int expect)
{
    for (int v = 0; v < cr->n_v; v++) {
        gr_var_result *r = &cr->v[v];
        gr_corr *k = &corr[v];
        const gr_verdict_facts f = {.self = self, .runs_expected = expect, .runs_total = k->f.runs_total,
                                    .runs_bad = k->f.runs_bad, .runs_todo = k->runs_todo,
                                    .failed = k->f.lost != GR_LOST_NONE, .timed_out = k->timed_out,
                                    .crashed = k->crashed, .avail = k->f.avail};
        r->verdict = gr_verdict_decide(&f);
        r->correct_pts = r->verdict == GR_V_PASS || r->verdict == GR_V_SELF_PASS ? r->rub.correct : 0;
        k->f.self = self;
        r->seen = k->f;
    }
}

/* The practice run's own verdicts in dir/self.json: per variant, rows seen, not passing, saying TODO, and
 * the first failing row (where nothing was noted before it). */
static void gr_self_rows(const gr_ch_result *cr, const char *dir, unsigned long long seed, gr_corr *corr)
{
    char jp[PATH_MAX + 16];
    snprintf(jp, sizeof jp, "%s/self.json", dir);
    char jerr[200];
    json_t *lines = gr_is_file(jp) ? wb_jsonl_load(jp, jerr, sizeof jerr) : NULL, *o;
    size_t li;
    json_array_foreach(lines, li, o)
    {
        wb_row row;
        if (wb_row_get(o, &row, jerr, sizeof jerr) || row.verdict == WB_CEILING) continue; /* a mix, not a variant */
        for (int k = 0; k < cr->n_v; k++) {
            gr_var_facts *f = &corr[k].f;
            if (strcmp(cr->v[k].name, row.variant)) continue;
            if ((f->avail = gr_avail_decide(0, WB_PASS, row.verdict)) == GR_AVAIL_NOT_HERE) { /* its own GPU */
                snprintf(f->unavailable, sizeof f->unavailable, "%s", row.unavailable_reason);
                continue;
            }
            f->runs_total++;
            f->runs_bad += row.verdict != WB_PASS;
            corr[k].runs_todo += row.verdict == WB_TODO;
            if (row.verdict != WB_PASS && !f->self_row[0] && f->lost == GR_LOST_NONE) {
                snprintf(f->self_row, sizeof f->self_row, "%s", wb_verdict_name(row.verdict));
                snprintf(f->size, sizeof f->size, "%s", row.size);
                f->seed = seed;
            }
        }
    }
    json_decref(lines);
}

/* The practice run of one (seed, chunk of sizes): the program's own verdicts. Returns 0, or -3 (no GPU) with why. */
static int gr_self_chunk(const gr_chjob *j, int si, int first, const char *model, gr_corr *corr, char *why,
                         size_t wlen)
{
    (void)model;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/self-%d-%d", j->work, si, first);
    const gr_dump_chunk run = {j->x->seeds[si], first, gr_chunk_count(j->ch, first), 0};
    gr_cmd c;
    gr_run_result r;
    gr_dump_run(j, &run, j->stu, NULL, dir, "self-check", &c, &r);
    int no_gpu = r.exited && r.code == WB_EXIT_NO_DEVICE;
    int ran = r.exited && (r.code == 0 || r.code == 1);
    if (no_gpu) gr_tail_lines(r.err, 1, why, wlen < 400 ? wlen : 400);
    else gr_self_rows(j->cr, dir, run.seed, corr);
    for (int k = 0; k < j->cr->n_v && !no_gpu && !ran; k++) {
        gr_var_facts *f = &corr[k].f;
        if (f->self_row[0] || f->lost != GR_LOST_NONE) continue;
        f->lost = GR_LOST_RAN;
        gr_run_describe(&r, &c.o, f->lost_how, sizeof f->lost_how);
    }
    gr_run_result_free(&r);
    gr_rmtree(dir);
    return no_gpu ? -3 : 0;
}

int gr_correctness(const gr_chjob *j, char *why, size_t wlen)
{
    int self = !j->ref; /* the practice run */
    gr_corr corr[GR_MAX_VAR] = {0};
    for (int v = 0; !self && v < j->cr->n_v; v++) gr_diag_ev_init(&j->cr->v[v].ev, j->ch, v);
    char model[128] = ""; /* a class keeps the reference's runs per GPU model; nothing is kept outside one */
    if (!self && j->x->keep[0]) gr_gpu_name(j->x->gpu, model, sizeof model);
    gr_safe_name(model, sizeof model, model, "-");
    for (int si = 0; si < j->x->n_seeds; si++)
        for (int first = 0; first < j->ch->n_edge; first += GR_MAX_SIZES_PER_RUN) {
            int rc = (self ? gr_self_chunk : gr_correct_chunk)(j, si, first, model, corr, why, wlen);
            if (rc) return rc;
        }
    gr_corr_verdicts(j->cr, corr, self, self ? j->x->n_seeds * j->ch->n_edge : 0);
    return 0;
}
