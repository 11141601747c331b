/* tool.h — the one way the grader and the course run a trusted command (nvidia-smi, gnuplot, sim_c,
 * sbatch): argv without a shell, standard input from a text or nothing, standard output and error
 * captured, a time limit. Student code never runs here (that is sandbox.h). */
#ifndef GR_TOOL_H
#define GR_TOOL_H
#include "gr_util.h"

/* argv[0] on PATH, the text in on its stdin (NULL: none), stdout to out, stderr to err (each may be NULL). Returns
 * the exit code, 124 on timeout, 127 when it could not start. */
int gr_tool_run(char *const argv[], const char *in, gr_str *out, gr_str *err, int timeout_s);
#endif
