/* The slow corpus (tests/cases/NN-name/slow/, tests/cases/README.md): correct but slow variants written as a student
 * writes them, graded on a GPU by tests/gpu-fresh.sh's fresh class. Without a GPU: every case is generated, the
 * screen lets it through (it must reach the benchmark to be slow), it builds with its chapter's nvcc command from
 * build/grading-flags.json, and where it claims spills, ptxas gives the kernels it names a stack frame that the
 * reference's same kernels lack. */
#define _GNU_SOURCE 1
#include "corpus.h"
#include "screen.h"

#define SUITE "slow"

/* The stack frame ptxas gave `kernel` in its -v report for `arch` (sm_90 ...): bytes, or -1 when not reported. */
static long stack_frame(const char *report, const char *kernel, const char *arch)
{
    char head[200];
    for (const char *p = report; (p = strstr(p, "Compiling entry function '")); p++) {
        const char *name = p + strlen("Compiling entry function '"), *end = strchr(name, '\'');
        if (!end) break;
        snprintf(head, sizeof head, "' for '%s'", arch);
        /* a mangled name: _Z<length><kernel>... */
        char mangled[128];
        snprintf(mangled, sizeof mangled, "_Z%zu%s", strlen(kernel), kernel);
        if (strncmp(name, mangled, strlen(mangled)) || strncmp(end, head, strlen(head))) continue;
        const char *frame = strstr(end, "bytes stack frame");
        const char *next = strstr(end, "Compiling entry function");
        if (!frame || (next && next < frame)) return -1;
        while (frame > end && frame[-1] == ' ') frame--;
        while (frame > end && isdigit((unsigned char)frame[-1])) frame--;
        return atol(frame);
    }
    return -1;
}

/* ptxas's -v report of one file built with the chapter's nvcc command (asserts the build succeeds). */
static void ptxas_report(const char *nvcc, const char *file, const char *dir, char *out)
{
    int rc = wbt_run(out, "%s -Xptxas -v -c -o %s/x.o %s 2>&1", nvcc, dir, file);
    cr_assert_eq(rc, 0, "%s does not build:\n%s", file, out);
}

Test(slow_cases, each_reaches_the_benchmark_builds_and_shows_its_cause, .timeout = 600)
{
    size_t fl;
    char *flags = wb_read_file("build/grading-flags.json", &fl);
    if (!flags) cr_skip_test("build/grading-flags.json is not built (make build/grading-flags.json)");
    json_t *f = json_loads(flags, 0, NULL);
    free(flags);
    static char out[WBT_OUT_MAX], ref[WBT_OUT_MAX];
    if (wbt_run(out, "command -v nvcc") != 0) cr_skip_test("no nvcc on this machine");
    char dir[128], err[600];
    wbt_tmpdir(dir, sizeof dir);
    corpus_generate(SUITE, dir);
    static gr_rubric rub;
    cr_assert_eq(gr_rubric_load_at(".", "grading/rubric.json", &rub, err, sizeof err), 0, "%s", err);
    json_t *ex = corpus_entries(SUITE, 2), *e;
    const char *name;
    json_object_foreach(ex, name, e)
    {
        char sol[PATH_MAX], file[PATH_MAX];
        wb_region reg;
        char *text = corpus_submission(dir, name, e, sol, sizeof sol, &reg);
        const gr_chapter_rubric *ch = corpus_chapter(&rub, (int)json_integer_value(json_object_get(e, "chapter")));
        wb_region all[64];
        int nr = wb_regions_parse(text, strlen(text), all, 64, err, sizeof err);
        cr_assert_geq(nr, 1, "%s: %s", name, err);
        for (int r = 0; r < nr; r++) { /* every region of the file: the case's own and the reference's */
            gr_screen_hit hits[16];
            int n = 0;
            gr_screen_region(&ch->screen, all[r].name, text + all[r].begin, all[r].end - all[r].begin, all[r].line + 1, hits, 16, &n);
            cr_expect_eq(n, 0, "%s: the screen catches its region %s: it would never be timed", name, all[r].name);
        }
        free(text);
        /* the chapter's folder name is the reference's: solutions/NN-name/FILE.cu */
        char folder[128];
        snprintf(folder, sizeof folder, "%.*s", (int)(strrchr(sol, '/') - sol - strlen("solutions/")), sol + strlen("solutions/"));
        const char *nvcc = json_string_value(json_object_get(json_object_get(f, "chapter_nvcc"), folder));
        cr_assert_not_null(nvcc, "build/grading-flags.json has no chapter_nvcc for %s", folder);
        snprintf(file, sizeof file, "%s/ch%d/%s/chapters/%s/%s", dir, ch->number, name, folder, strrchr(sol, '/') + 1);
        ptxas_report(nvcc, file, dir, out);
        json_t *local = json_object_get(e, "local"), *k;
        size_t i;
        if (strcmp(json_string_value(json_object_get(e, "cause")), "spills") == 0)
            cr_assert(json_array_size(local) > 0, "%s: a spills case names the kernels that spill in \"local\"", name);
        if (!json_array_size(local)) continue;
        ptxas_report(nvcc, sol, dir, ref);
        json_array_foreach(local, i, k)
        {
            const char *kernel = json_string_value(k);
            long mine = stack_frame(out, kernel, "sm_90"), theirs = stack_frame(ref, kernel, "sm_90");
            cr_expect(mine > 0, "%s: ptxas gives %s no stack frame on sm_90 (%ld): it does not spill", name, kernel, mine);
            cr_expect_eq(theirs, 0, "the reference's %s has a stack frame on sm_90 (%ld): spills are no difference", kernel, theirs);
        }
    }
    json_decref(ex);
    json_decref(f);
    wbt_run(out, "rm -rf %s", dir);
}
