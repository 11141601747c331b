/*
 * inspect — look inside a chapter's kernels: the tool behind `make sass / resources / sanitize /
 * profile` (see the "look inside" section of the Makefile, which builds the inputs and calls this).
 *
 *   inspect sass      --program P --listing FILE [--variant V]
 *   inspect resources --program P --ptxas FILE --arch sm_NN [--variant V] [--block B] [--dsmem D] [--all] [--json]
 *                     (each kernel at its variant's launch unless --block/--dsmem; --all: the harness's kernels too)
 *   inspect sanitize  --program P [--variant V] [--size S] [--tools LIST] [--jobs J] [--logs DIR]
 *   inspect profile   --program P --variant V --report PATH [--size S] [--ptxas FILE]
 *   inspect profile   --csv FILE           the summary of a CSV written by an earlier profile
 *   inspect gpu       [--arch sm_NN] [--check]     the GPU's limits as JSON; --check: exit 3 without a GPU
 *
 * P is a chapter program (build/chapterN, build/solutionN, or any program built on wb_main): its
 * `--list --json -` names the variants and their kernels. FILE inputs are what cuobjdump -sass,
 * nvcc -ptx and nvcc -Xptxas -v printed. Everything read from a tool's output goes through the
 * parsers of toolparse.h, which the tests check on captured output.
 *
 * C, linked by nvcc with gpu.cu, which asks the CUDA runtime for the GPU through wb_device_probe (no
 * kernels here); tools/README.md has the module map.
 * Exit codes: 0 fine / clean; 1 findings (sanitize) or a tool failed; 2 bad usage (a bad variant
 * gets the list of valid ones); 3 no GPU (sanitize, profile, gpu --check) or a tool is missing.
 */
#include "inspect.h"

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fprintf(argc < 2 ? stderr : stdout,
                "usage: inspect sass|resources|sanitize|profile|gpu [options] (see the header of tools/inspect/inspect.c;\n"
                "       normally run through make sass / resources / sanitize / profile)\n");
        return argc < 2 ? EXIT_USAGE : 0;
    }
    opts o;
    parse_opts(argc, argv, 2, &o);
    if (!strcmp(argv[1], "sass")) return cmd_sass(&o);
    if (!strcmp(argv[1], "resources")) return cmd_resources(&o);
    if (!strcmp(argv[1], "sanitize")) return cmd_sanitize(&o);
    if (!strcmp(argv[1], "profile")) return cmd_profile(&o);
    if (!strcmp(argv[1], "gpu")) return cmd_gpu(&o);
    die(EXIT_USAGE, "unknown command '%s' (sass, resources, sanitize, profile, gpu)", argv[1]);
    return EXIT_USAGE;
}
