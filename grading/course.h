/* course.h — the course around a class grading (class.c calls these two): before, the LMS's bulk download
 * and the roster staged as one entry a student (lms.h); after, the similarity between students
 * (similarity.h), Canvas's gradebook import (lms.h) and class.html (classpage.h), beside grades.csv. */
#ifndef GR_COURSE_H
#define GR_COURSE_H
#include "job.h"

/* The folder the class loop grades: subs itself, or the staged LMS export. 0, or -1 with the reason on
 * stderr (a bad roster, an export that cannot be read). */
int gr_course_stage(const gr_config *x, const char *subs, char *staged, size_t len);

/* After grades.csv: similarity.json (unless turned off), canvas-grades.csv, class.html. Never fails the
 * grading: what cannot be made is said on stderr. */
void gr_course_pages(const gr_config *x, const char *staged);
#endif
