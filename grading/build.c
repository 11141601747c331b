/* build.c — see build.h. */
#define _GNU_SOURCE 1
#include "build.h"
#include "submission.h"

/* A link that failed on a missing symbol (a cuBLAS call, say) names it in the reason, not only in the log. */
static void gr_build_name_symbol(gr_build_report *r, const char *log)
{
    const char *p = log ? strstr(log, "undefined reference to") : NULL;
    if (!p || strstr(r->reason, "undefined reference")) return;
    size_t n = strcspn(p, "\n");
    size_t at = strlen(r->reason);
    snprintf(r->reason + at, sizeof r->reason - at, ": %.*s (student code links no library beyond the course's: "
                                                     "cuBLAS, CUB and the like may not do a variant's work)",
             (int)(n > 200 ? 200 : n), p);
}

/* A build that failed names the compiler's first error in the reason ("matmul.cu(369): error: expected an
 * expression"), not only in the log: make check's line is often all a student reads. */
static void gr_build_name_error(gr_build_report *r, const char *log)
{
    const char *p = log ? strstr(log, ": error") : NULL;
    if (!p || strstr(r->reason, ": error") || strstr(r->reason, "undefined reference")) return;
    while (p > log && p[-1] != '\n') p--;
    size_t n = strcspn(p, "\n"), at = strlen(r->reason);
    snprintf(r->reason + at, sizeof r->reason - at, ": %.*s", (int)(n > 200 ? 200 : n), p);
}

/* A note where the file differs from the starter outside the regions (ignored), their contents removed. */
static void gr_note_outside(const char *pristine, size_t plen, const char *stu, size_t slen, gr_build_report *rep)
{
    size_t a_len, b_len;
    char e2[200];
    char *a = wb_regions_outside(pristine, plen, &a_len, e2, sizeof e2);
    char *b = wb_regions_outside(stu, slen, &b_len, e2, sizeof e2);
    if (a && b && (a_len != b_len || memcmp(a, b, a_len))) {
        size_t k = 0;
        int line = 1;
        while (k < a_len && k < b_len && a[k] == b[k]) line += a[k++] == '\n';
        snprintf(rep->outside, sizeof rep->outside,
                 "your file differs from the starter outside the TODO regions (first near line %d of the file "
                 "without the regions' contents); those edits were ignored: only the regions are graded",
                 line);
    }
    free(a);
    free(b);
}

/* Which of the starter's regions the student's file still holds as the starter gave them (wb_region_untouched);
 * of_reference: the pristine file is the reference, its hint lines the starter's text. After a splice, which
 * checked that both files have the same regions. */
static void gr_note_untouched(const char *pristine, size_t plen, int of_reference, const char *stu, size_t slen,
                              gr_build_report *rep)
{
    wb_region p[64], q[64];
    char e[200];
    int pn = wb_regions_parse(pristine, plen, p, 64, e, sizeof e), qn = wb_regions_parse(stu, slen, q, 64, e, sizeof e);
    for (int k = 0; k < pn; k++)
        for (int m = 0; m < qn; m++) {
            if (strcmp(p[k].name, q[m].name)) continue;
            if (!wb_region_untouched(pristine + p[k].begin, p[k].end - p[k].begin, of_reference, stu + q[m].begin,
                                     q[m].end - q[m].begin))
                continue;
            size_t at = strlen(rep->untouched);
            snprintf(rep->untouched + at, sizeof rep->untouched - at, "%s%s", at ? ", " : "", p[k].name);
            rep->n_untouched++;
        }
    rep->n_regions = pn > 0 ? pn : 0;
}

/* The course's headers (every .h in common/), never the student's, into bdir/common. */
static void gr_copy_headers(const gr_config *x, const char *bdir)
{
    char path[PATH_MAX + 300];
    snprintf(path, sizeof path, "%s/common", bdir);
    gr_mkdirs(path, 0755);
    snprintf(path, sizeof path, "%s/common/*.h", x->root);
    glob_t g;
    if (glob(path, 0, NULL, &g) != 0) return;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        snprintf(path, sizeof path, "%s/common/%s", bdir, strrchr(g.gl_pathv[i], '/') + 1);
        gr_copy_file(g.gl_pathv[i], path);
    }
    globfree(&g);
}

/* nvcc in the sandbox, in bdir (the spliced file and the headers are there): build/grading-flags.json's "nvcc", or
 * the chapter's own in "chapter_nvcc" (its arch flags: sm_90a on an H200). Student code links the default libraries
 * only: a chapter's own ("sol_libs") are its speed-of-light reference's, and no library may do a variant's work. */
static void gr_compile(const gr_config *x, const gr_sub_state *s, const gr_chapter_rubric *ch, const char *bdir,
                       gr_build_report *rep)
{
    char path[PATH_MAX], cmd[6144];
    snprintf(path, sizeof path, "%s/build/grading-flags.json", x->root);
    json_t *f = json_load_file(path, 0, NULL);
    json_t *own = json_object_get(json_object_get(f, "chapter_nvcc"), ch->dir);
    const char *nvcc = json_string_value(own ? own : json_object_get(f, "nvcc"));
    const char *libs = json_string_value(json_object_get(json_object_get(f, "libs"), "default"));
    int none = !nvcc || !*nvcc;
    snprintf(cmd, sizeof cmd, "%s -DWB_NO_SOL_LIBS -o prog %s %s", nvcc ? nvcc : "", ch->file, libs ? libs : "");
    json_decref(f);
    if (none) {
        GR_FAIL(rep, GR_CH_GRADER_ERROR, "build/grading-flags.json has no nvcc command (run `make build/grading-flags.json`)");
        return;
    }
    gr_cmd c;
    gr_cmd_init(&c, x, s, bdir, x->rub.t_build, GR_RUN_HOST);
    c.o.out_cap = GR_BUILD_OUT_CAP;
    char *save = NULL; /* a chapter's file name has no white space (rubric.c) */
    for (char *t = strtok_r(cmd, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) gr_arg(&c, "%s", t);
    gr_run_result r;
    char what[64];
    snprintf(what, sizeof what, "build chapter %d", ch->number);
    gr_exec(&c, &r, what);
    snprintf(rep->log, sizeof rep->log, "%s%s%s", r.err, *r.err && *r.out ? "\n" : "", r.out);
    snprintf(path, sizeof path, "%s/prog", bdir);
    if (!(r.exited && r.code == 0 && gr_is_file(path))) {
        char d[200];
        gr_run_describe(&r, &c.o, d, sizeof d);
        GR_FAIL(rep, GR_CH_BUILD_FAILED, "nvcc %s", d);
        gr_build_name_symbol(rep, r.err);
        gr_build_name_symbol(rep, r.out);
        gr_build_name_error(rep, r.err);
        gr_build_name_error(rep, r.out);
    }
    gr_run_result_free(&r);
}

void gr_build_chapter(const gr_config *x, const gr_sub_state *s, const gr_chapter_rubric *ch, const char *student,
                      const char *work, gr_build_report *rep)
{
    char path[PATH_MAX], pristine_path[PATH_MAX], bdir[PATH_MAX], err[400];
    size_t plen, slen, olen;
    *rep = (gr_build_report){.status = GR_CH_GRADED};
    snprintf(bdir, sizeof bdir, "%s/build", work);
    gr_rmtree(bdir);
    gr_mkdirs(bdir, 0755);
    int of_reference = gr_pristine_path(x, ch, pristine_path, sizeof pristine_path) == 2;
    char *pristine = gr_read_capped(pristine_path, 4 << 20, &plen);
    char *stu = gr_read_capped(student, 4 << 20, &slen);
    char *spliced = NULL;
    /* Messages name the student's own file (as the assignment names it), never a path of this host. */
    if (!pristine) GR_FAIL(rep, GR_CH_GRADER_ERROR, "the starter of %s/%s is missing from the course", ch->dir, ch->file);
    else if (!stu) GR_FAIL(rep, GR_CH_NOT_GRADABLE, "%s could not be read (larger than 4 MB, or not a file)", ch->file);
    else if (memchr(stu, 0, slen)) GR_FAIL(rep, GR_CH_NOT_GRADABLE, "%s is not a text file", ch->file);
    else if (!(spliced = wb_regions_splice(pristine, plen, stu, slen, &olen, err, sizeof err)))
        GR_FAIL(rep, GR_CH_NOT_GRADABLE, "%s: %s", ch->file, err);
    if (spliced) {
        gr_note_outside(pristine, plen, stu, slen, rep);
        gr_note_untouched(pristine, plen, of_reference, stu, slen, rep);
        snprintf(path, sizeof path, "%s/%s", bdir, ch->file);
        gr_write_file(path, spliced, olen);
        gr_copy_headers(x, bdir);
        gr_compile(x, s, ch, bdir, rep);
    }
    free(pristine);
    free(stu);
    free(spliced);
}

int gr_list_variants(const gr_config *x, const gr_sub_state *s, const char *prog, const char *work, gr_prog_variant *pv,
                     int max, char *why, size_t wlen)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/list", work);
    gr_mkdirs(dir, 0755);
    gr_cmd c;
    gr_cmd_init(&c, x, s, dir, x->rub.t_run, GR_RUN_HOST);
    const char *const argv[] = {prog, "--list", "--json", "-"};
    for (size_t a = 0; a < sizeof argv / sizeof argv[0]; a++) gr_arg(&c, "%s", argv[a]);
    gr_cmd_ro(&c, prog);
    gr_run_result r;
    gr_exec(&c, &r, "list variants");
    int n = 0;
    char jerr[200] = "";
    json_t *lines = wb_jsonl_parse(r.out, strlen(r.out), jerr, sizeof jerr), *o;
    size_t i;
    json_array_foreach(lines, i, o)
    {
        const char *v = json_string_value(json_object_get(o, WB_JSON_VARIANT));
        const char *k = json_string_value(json_object_get(o, WB_JSON_KERNELS));
        if (v && n < max) {
            snprintf(pv[n].name, sizeof pv[n].name, "%s", v);
            snprintf(pv[n].kernels, sizeof pv[n].kernels, "%s", k ? k : "");
            n++;
        }
    }
    json_decref(lines);
    if (!n) snprintf(why, wlen, "`%s --list --json -` listed no variants (%s)", prog, r.err);
    gr_run_result_free(&r);
    return n;
}
