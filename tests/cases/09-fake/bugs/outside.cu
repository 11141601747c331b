/* A host-only stand-in for a chapter (C, built with gcc by tests/grading/fake/Makefile) for the
 * grader's end-to-end test without a GPU. Two variants: plus (out[i] = in[i] + 1) and reverse. */
#include "wb.h"
#include "fakedrv.h"

static void plus_kernel(const int32_t *in, int32_t *out, int n)
{
    // BEGIN TODO(plus)
    // END TODO(plus)
}

static void reverse_kernel(const int32_t *in, int32_t *out, int n)
{
    // BEGIN TODO(reverse)
    // END TODO(reverse)
}

/* planted outside the regions: ignored */
static const fake_variant variants[] = {{"plus", "plus_kernel", plus_kernel}, {"reverse", "reverse_kernel", reverse_kernel}};

int main(int argc, char **argv)
{
    return fake_main(argc, argv, variants, 2);
}
