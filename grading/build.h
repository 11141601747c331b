/* build.h — compiling a student's chapter (regions spliced into the pristine starter) and listing its variants. */
#ifndef GR_BUILD_H
#define GR_BUILD_H

#include "job.h"

/* Splices, then compiles in the sandbox. Writes WORK/status ("ok" or a reason), WORK/compile.log,
 * WORK/outside (a note on ignored edits). Returns 0 when the binary WORK/build/prog exists. */
int gr_build_chapter(const gr_ctx *x, const gr_chapter_rubric *ch, const char *student, const char *work);

/* ---------------------------------------------------------------- the program's variants */
int gr_list_variants(const gr_ctx *x, const char *prog, const char *work, gr_prog_variant *pv, int max,
                            char *why, size_t wlen);

#endif /* GR_BUILD_H */
