/* pipeline.h — grading one submission, chapter by chapter, and writing its reports. */
#ifndef GR_PIPELINE_H
#define GR_PIPELINE_H

#include "job.h"

void gr_grade_one(const gr_config *x, const char *sub_in, const char *student, const char *out_dir, gr_sub_result *res);

int gr_write_reports(const gr_config *x, const char *sub, const char *out_dir, gr_sub_result *res, FILE *term);

#endif /* GR_PIPELINE_H */
