/* course.h — the course around a class grading: its configuration (the judge's, plus the roster, the LMS
 * layout, the similarity threshold and the assignment), which class.c grades with: the LMS's bulk download
 * and the roster staged first (lms.h); after the entries the similarity (similarity.h), Canvas's gradebook
 * import (lms.h) and class.html (classpage.h), beside grades.csv. */
#ifndef GR_COURSE_H
#define GR_COURSE_H
#include "job.h"

/* Filled once by main.c, then only read (class.c fills the judge's part as a grading does). */
typedef struct {
    gr_config judge;        /* what one submission's grading is given (the judge's configuration) */
    char roster[PATH_MAX];  /* the roster CSV, or "" */
    int lms;                /* the LMS layout (lms.h gr_lms_kind), -2: detect */
    int sim_threshold;      /* percent of shared code that names a pair; 0: off */
    char assignment[128];   /* the assignment's column in canvas-grades.csv */
} gr_course;

#endif
