/*
 * toolparse.h — reading what the CUDA tools print, for `make sass / resources / sanitize / profile`.
 *
 * The look-inside tool (tools/inspect/inspect.c) runs cuobjdump, ptxas, compute-sanitizer and ncu; every
 * piece of their output it interprets goes through a parser here, so the Criterion tests can check
 * each parser on real captured output (tests/captured/) on a machine without a GPU.
 *
 *   variants ......... tp_parse_variants      a chapter's `--list --json -` lines      (names.c)
 *   kernel names ..... tp_kernel_matches      "reverse_global" vs _Z14reverse_globalPKiPii / demangled
 *   SASS / PTX ....... tp_parse_listing                                               (listing.c)       cuobjdump -sass or nvcc -ptx text -> functions, instructions
 *                      tp_classify            an opcode -> the kind the legend counts (LDG.128, BAR, ...)
 *   resources ........ tp_parse_ptxas         nvcc -Xptxas -v -> registers, smem, stack, spills per kernel
 *                                                                                     (resources.c)
 *   occupancy ........ tp_occupancy           blocks per SM from the GPU's limits (the formula of
 *                                             CUDA's cuda_occupancy.h, which the occupancy API follows)
 *   ncu .............. tp_parse_csv          `ncu --import R --csv --page raw` -> metric values  (grading/ncu.c, shared with the grader)
 *                      tp_ncu_top_stalls      the top warp stall reasons, what each means; unit scales   (stalls.c)
 * compute-sanitizer's output is read by grading/sanitizer.c, the grader's own reader (one rule for both).
 *
 * Plain C, no CUDA. Parsers never print and never exit.
 */
#ifndef WB_TOOLPARSE_H
#define WB_TOOLPARSE_H

/* The parsers' interfaces, one header per module; this one includes them all for the tool and tests. */
#include "listing.h"
#include "names.h"
#include "ncu.h"
#include "resources.h"
#include "stalls.h"

#endif /* WB_TOOLPARSE_H */
