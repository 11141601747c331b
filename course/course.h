/* course.h — the course around a class grading: its configuration (the judge's, plus the roster, the LMS
 * layout, the similarity threshold and the assignment), and what class.c calls before and after the
 * entries: the LMS's bulk download and the roster staged as one entry a student (lms.h); the similarity
 * between students (similarity.h), Canvas's gradebook import (lms.h) and class.html (classpage.h), beside
 * grades.csv. */
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

/* The folder the class loop grades: subs itself, or the staged LMS export. 0, or -1 with the reason on
 * stderr (a bad roster, an export that cannot be read). */
int gr_course_stage(const gr_course *c, const char *subs, char *staged, size_t len);

/* After grades.csv: similarity.json (unless turned off), canvas-grades.csv, class.html. Never fails the
 * grading: what cannot be made is said on stderr. */
void gr_course_pages(const gr_course *c, const char *staged);
#endif
