/* The hostile suite (tests/cases/NN-name/hostile/, tests/cases/README.md): submissions that attack the grader. Without a
 * GPU: every entry is generated and reaches the sandbox (the screen catches none). On a GPU: a positive
 * control shows the escape check firing outside the sandbox, then the corpus and two copies of the
 * reference are graded as one class; nothing may escape bubblewrap (no marker in the host's /tmp, no
 * connection to the host's loopback), each hostile variant gets its verdict, every other variant keeps
 * full marks, and no submission holds the GPU longer than MAX_GPU_SECONDS. */
#define _GNU_SOURCE 1
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "corpus.h"
#include "honesty.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>

#define SUITE "hostile"
#define TH "build/test-hostile"
#define KNOCK_PORT 47113
#define ESCAPED "/tmp/wb-hostile-escaped"
#define BOMB "/tmp/wb-hostile-bomb"
/* What one submission of the corpus may hold the GPU, in seconds. */
#define MAX_GPU_SECONDS 120

static int in_list(json_t *list, const char *name)
{
    json_t *x;
    size_t i;
    json_array_foreach(list, i, x) if (!strcmp(json_string_value(x), name)) return 1;
    return 0;
}

/* The variants the screen charges for a caught entry, from the whole file as the grader screens it: its own variant
 * and those its `charged` list names, no more and no fewer (what a region costs follows grading/honesty.h: a region
 * used from one that is named after no variant costs every variant). Returns the number of differences, each said in
 * `why`. */
static int screen_charges(const gr_chapter_rubric *ch, const char *name, const char *text, json_t *e, char *why, size_t wn)
{
    static gr_ch_result cr;
    memset(&cr, 0, sizeof cr);
    for (int v = 0; v < ch->n_var; v++) snprintf(cr.v[v].name, sizeof cr.v[v].name, "%s", ch->var[v].name);
    cr.n_v = ch->n_var;
    gr_honesty_screen(ch, text, strlen(text), &cr);
    int bad = 0;
    why[0] = 0;
    for (int v = 0; v < cr.n_v; v++) {
        int want = !strcmp(cr.v[v].name, json_string_value(json_object_get(e, "variant"))) ||
                   in_list(json_object_get(e, "charged"), cr.v[v].name);
        int got = !!(cr.v[v].caught & 1u << GR_CAUGHT_SCREEN_PERF);
        if (want == got) continue;
        bad++;
        size_t at = strlen(why);
        snprintf(why + at, wn - at, "%s: %s %s; ", name, cr.v[v].name,
                 got ? "is charged by the screen but not in its `charged` list" : "is in `charged` but the screen spares it");
    }
    return bad;
}

Test(hostile, every_entry_is_generated_and_reaches_the_sandbox, .timeout = 60)
{
    char dir[128], err[600];
    wbt_tmpdir(dir, sizeof dir);
    corpus_generate(SUITE, dir);
    static gr_rubric rub;
    cr_assert_eq(gr_rubric_load_at(".", "grading/rubric.json", &rub, err, sizeof err), 0, "%s", err);
    json_t *ex = corpus_entries(SUITE, 9), *e;
    const char *name;
    json_object_foreach(ex, name, e)
    {
        char sol[PATH_MAX];
        wb_region reg;
        char *text = corpus_submission(dir, name, e, sol, sizeof sol, &reg);
        const gr_chapter_rubric *ch = corpus_chapter(&rub, (int)json_integer_value(json_object_get(e, "chapter")));
        gr_screen_hit hits[16];
        int n = 0;
        gr_screen_region(&ch->screen, reg.name, text + reg.begin, reg.end - reg.begin, reg.line + 1, hits, 16, &n);
        char first[300] = "";
        if (n) gr_screen_hit_str(&hits[0], first, sizeof first);
        const char *want = json_string_value(json_object_get(e, "screen"));
        if (!want)
            cr_expect_eq(n, 0, "%s: the screen catches it (%s): it would never reach the sandbox it is meant to test", name, first);
        else
            cr_expect(n == 1 && hits[0].rule && hits[0].rule->cost == (strcmp(want, "perf") ? GR_COST_CORRECT : GR_COST_PERF),
                      "%s: expected one screen hit costing %s, got %d (%s)", name, want, n, first);
        if (want && !strcmp(want, "perf")) {
            char why[1000];
            cr_expect_eq(screen_charges(ch, name, text, e, why, sizeof why), 0, "%s", why);
        }
        free(text);
    }
    json_decref(ex);
    wbt_run((char[WBT_OUT_MAX]){0}, "rm -rf %s", dir);
}

/* A TCP listener on the host's loopback, non-blocking: what the escape probe knocks on. */
static int listen_loopback(void)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), one = 1;
    cr_assert_geq(fd, 0, "socket: %s", strerror(errno));
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(KNOCK_PORT), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    cr_assert_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0, "bind 127.0.0.1:%d: %s", KNOCK_PORT, strerror(errno));
    cr_assert_eq(listen(fd, 64), 0);
    return fd;
}

/* How many connections came in. */
static int knocks(int fd)
{
    int n = 0, c;
    while ((c = accept(fd, NULL, NULL)) >= 0) close(c), n++;
    return n;
}

/* The control: the escape probe, built and run directly on the host (as the grader must never run it),
 * leaves its marker and knocks. Without this, an absent marker would prove nothing. */
static void escape_check_fires_outside_the_sandbox(int l)
{
    static char out[WBT_OUT_MAX];
    char dir[128];
    wbt_tmpdir(dir, sizeof dir);
    corpus_generate(SUITE, dir);
    unlink(ESCAPED);
    int rc = wbt_run(out, "nvcc -std=c++20 -Icommon -arch=native -o %s/probe %s/ch1/escape-probe/chapters/01-reversal/reversal.cu"
                          " 2>&1 && %s/probe --variant shared-dynamic --size 1000 --reps 1 --warmup 0 2>&1",
                     dir, dir, dir);
    cr_assert_eq(rc, 0, "the escape probe did not build or run on the host:\n%s", out);
    cr_expect(gr_is_file(ESCAPED), "run on the host, the escape probe left no " ESCAPED ": the check cannot tell an escape");
    cr_expect_geq(knocks(l), 1, "run on the host, the escape probe did not reach 127.0.0.1:%d", KNOCK_PORT);
    unlink(ESCAPED);
    wbt_run(out, "rm -rf %s", dir);
}

/* full marks for a variant: every kind of point the rubric gives it */
static int full_marks(json_t *v, const gr_variant_rubric *r)
{
    return json_number_value(json_object_get(v, "correct_points")) == r->correct &&
           json_number_value(json_object_get(v, "perf_points")) == r->perf &&
           json_number_value(json_object_get(v, "sanitizer_points")) == r->sanitizer &&
           json_array_size(json_object_get(v, "caught")) == 0;
}

/* "a|b": either */
static int one_of(const char *alternatives, const char *got)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", alternatives);
    int ok = 0;
    for (char *tok = strtok(buf, "|"); tok; tok = strtok(NULL, "|")) ok |= !strcmp(tok, got);
    return ok;
}

/* Checks one graded entry's chapter; appends its table row; returns the number of problems. `hostile`
 * NULL: a reference copy (every variant full marks). */
static int check_entry(const char *name, json_t *hostile, const gr_chapter_rubric *ch, double max_gpu_s, gr_str *t)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, TH "/out/%s/grading.json", name);
    json_error_t je;
    json_t *g = json_load_file(p, 0, &je), *c, *chj = NULL, *v;
    if (!g) {
        gr_str_addf(t, "%-22s | not graded: %s\n", name, je.text);
        return 1;
    }
    size_t i;
    json_array_foreach(json_object_get(g, "chapters"), i, c) if (json_integer_value(json_object_get(c, "number")) == ch->number) chj = c;
    const char *variant = hostile ? json_string_value(json_object_get(hostile, "variant")) : "";
    json_t *want = hostile ? json_object_get(hostile, "expect") : NULL, *charged = hostile ? json_object_get(hostile, "charged") : NULL;
    double gpu = json_number_value(json_object_get(g, "gpu_seconds"));
    int bad = gpu > max_gpu_s || !chj, others_full = 1;
    char verdict[64] = "-", san[120] = "";
    json_array_foreach(json_object_get(chj, "variants"), i, v)
    {
        const char *vn = json_string_value(json_object_get(v, "variant"));
        const gr_variant_rubric *r = gr_rubric_variant(ch, vn);
        if (!r) continue;
        if (in_list(charged, vn)) { /* the region is theirs too: their performance points go, nothing else */
            bad += json_number_value(json_object_get(v, "perf_points")) != 0 ||
                   json_number_value(json_object_get(v, "correct_points")) != r->correct;
            continue;
        }
        if (strcmp(vn, variant)) {
            others_full &= full_marks(v, r);
            continue;
        }
        snprintf(verdict, sizeof verdict, "%s", json_string_value(json_object_get(v, "verdict")));
        snprintf(san, sizeof san, "%.100s", json_string_value(json_object_get(v, "sanitizer")) ?: "");
        const char *ws = json_string_value(json_object_get(want, "sanitizer"));
        json_t *wp = json_object_get(want, "perf_points");
        bad += !one_of(json_string_value(json_object_get(want, "verdict")), verdict) + (ws && !strstr(san, ws)) +
               (json_is_true(json_object_get(want, "full")) && !full_marks(v, r)) +
               (wp && json_number_value(json_object_get(v, "perf_points")) != json_number_value(wp));
    }
    const char *detail = want ? json_string_value(json_object_get(want, "detail")) : NULL;
    if (detail) {
        snprintf(p, sizeof p, TH "/out/%s/feedback.md", name);
        char *fb = gr_read_capped(p, 1 << 22, NULL);
        bad += !fb || !strstr(fb, detail);
        free(fb);
    }
    bad += !others_full;
    gr_str_addf(t, "%-22s | ch%d %-14s | %-8s | %6.1f s | %-16s | %.60s%s\n", name, ch->number, hostile ? variant : "(all)",
                verdict, gpu, others_full ? "full marks" : "LOST MARKS", san, bad ? "   <-- differs" : "");
    json_decref(g);
    return bad;
}

Test(hostile, graded_as_a_class_nothing_escapes_and_no_one_else_pays, .timeout = 1200)
{
    static char out[WBT_OUT_MAX];
    wbt_require_gpu();
    wbt_skip_if_no_isolation();
    char err[600];
    static gr_rubric rub;
    cr_assert_eq(gr_rubric_load_at(".", "grading/rubric.json", &rub, err, sizeof err), 0, "%s", err);
    corpus_generate(SUITE, TH "/subs");
    json_t *ex = corpus_entries(SUITE, 9), *e;
    const char *name;
    cr_assert_eq(wbt_run(out, "rm -rf " TH "/cls " TH "/out && mkdir -p " TH "/cls && mv " TH "/subs/ch*/* " TH "/cls/ && "
                              "for r in reference-a reference-b; do for c in 01-reversal 03-atomicsum; do mkdir -p " TH
                              "/cls/$r/chapters/$c && cp solutions/$c/*.cu " TH "/cls/$r/chapters/$c/; done; done"),
                 0, "%s", out);
    int l = listen_loopback();
    escape_check_fires_outside_the_sandbox(l); /* the control: the checks below can see an escape */
    knocks(l);
    unlink(ESCAPED);
    unlink(BOMB);
    double t0 = gr_now();
    int rc = wbt_run(out, "./build/course --class " TH "/cls --out " TH "/out --seeds 7,8 > " TH "/grade.log 2>&1");
    double wall = gr_now() - t0;
    cr_expect_eq(rc, 0, "build/course exit %d: see " TH "/grade.log", rc);
    int knocked = knocks(l);
    close(l);
    gr_str table = {0};
    gr_str_addf(&table, "%-22s | %-18s | %-8s | GPU held | %-16s | sanitizer\n", "entry", "variant", "verdict", "other variants");
    int bad = 0;
    const double max_gpu = MAX_GPU_SECONDS;
    json_object_foreach(ex, name, e)
    bad += check_entry(name, e, corpus_chapter(&rub, (int)json_integer_value(json_object_get(e, "chapter"))), max_gpu, &table);
    for (int k = 1; k <= 3; k += 2)
        bad += check_entry("reference-a", NULL, corpus_chapter(&rub, k), max_gpu, &table) +
               check_entry("reference-b", NULL, corpus_chapter(&rub, k), max_gpu, &table);
    printf("hostile class (chapters 1 and 3): %.0f s wall\n%s", wall, gr_str_c(&table));
    cr_expect_eq(bad, 0, "graded otherwise than expected.json says:\n%s", gr_str_c(&table));
    cr_expect(!gr_is_file(ESCAPED), "a hostile program ran outside bubblewrap: " ESCAPED " is on the host");
    cr_expect(!gr_is_file(BOMB), "the file bomb reached the host's /tmp: " BOMB);
    cr_expect_eq(knocked, 0, "a graded program connected to the host's loopback (%d times)", knocked);
    unlink(ESCAPED);
    unlink(BOMB);
    gr_str_free(&table);
    json_decref(ex);
}
