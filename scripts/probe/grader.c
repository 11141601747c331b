/* The grader's libraries, probed by compiling and linking this file (scripts/ensure-packages.sh):
 * jansson, libarchive and the course's csv, yaml and cmark-gfm. */
#include <archive.h>
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <csv.h>
#include <jansson.h>
#include <yaml.h>

static void grader_probe(void)
{
    json_decref(json_object());
    archive_read_free(archive_read_new());
    struct csv_parser p;
    csv_init(&p, 0);
    csv_free(&p);
    yaml_parser_t y;
    yaml_parser_initialize(&y);
    yaml_parser_delete(&y);
    cmark_gfm_core_extensions_ensure_registered();
}

/* tests.c includes this file and has Criterion's main instead. */
#ifndef PROBE_NO_MAIN
int main(void)
{
    grader_probe();
    return 0;
}
#endif
