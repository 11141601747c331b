/* The test runner's libraries: the grader's (grader.c) plus Criterion and libpng. */
#define PROBE_NO_MAIN
#include "grader.c"

#include <criterion/criterion.h>
#include <png.h>

Test(probe, links)
{
    grader_probe();
    png_access_version_number();
}
