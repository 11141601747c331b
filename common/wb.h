/*
 * wb.h — what every chapter of the workbook shares.
 *
 * Plain C (C99) plus, when compiled by nvcc, the CUDA parts. Everything is `static inline`, so a
 * chapter is one .cu file that includes this header and nothing else of ours.
 *
 *   the contract ........ contract.h: exit codes, poison, random inputs, sizes, dump names, verdicts
 *   command line ........ wb_cli.h: wb_parse_args   (pure: no printing, no exit; unit-tested)
 *   availability ........ wb_avail.h: wb_avail_decide (pure), wb_avail_find; under nvcc the probe of
 *                         the code this build runs (wb_built_with_sm90a) and hooks (wb_needs_sm90a)
 *   verification ........ wb_check.h: wb_check_*    (first few mismatches, then a count)
 *   read-only inputs .... wb_inputs.h: wb_checksum64, wb_first_diff, wb_input_decide (pure)
 *   output .............. wb_table.h: wb_table_*, wb_json_result
 * and, when compiled by nvcc, in the order each needs the one before:
 *   CUDA and memory ..... wb_cuda.h: CUDA_CHECK, LAUNCH_CHECK, wb_host_alloc, wb_device_alloc, wb_device_copy
 *   timing .............. wb_timing.h: wb_output, wb_poison, wb_time_ms, wb_budget_reps
 *   the GPU ............. wb_device.h: wb_device_probe, wb_device_init
 *   ceilings ............ wb_peak.h: wb_read_rate, wb_fma_peak, wb_minplus_peak
 *   a chapter ........... wb_chapter.h: wb_chapter, one checked run of a variant, --dump, a result's rows
 *   inputs kept intact .. wb_guard.h: wb_guard_inputs (checks after each run, restores, tells the variant)
 *   the driver .......... wb_main.h: wb_main and its stages
 */
#ifndef WB_H
#define WB_H

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "contract.h"
#include "wb_check.h"
#include "wb_cli.h"
#include "wb_avail.h"
#include "wb_inputs.h"
#include "wb_table.h"

/* ================================================================ CUDA parts (nvcc only) */
#ifdef __CUDACC__
#include "wb_cuda.h"
#include "wb_timing.h"
#include "wb_device.h"
#include "wb_peak.h"
#include "wb_chapter.h"
#include "wb_guard.h"
#include "wb_main.h"
#endif /* __CUDACC__ */
#endif /* WB_H */
