/* plot.h — a plot as inline SVG, drawn by gnuplot's svg terminal (as the handouts' plots are drawn by
 * gnuplot): the script gets the data as the datablock $D, and the SVG comes back as text to put in a page. */
#ifndef GR_PLOT_H
#define GR_PLOT_H
#include <stddef.h>

/* The SVG element (no XML prologue) of script run over data (lines of whitespace-separated columns;
 * strings in double quotes), w x h pixels. NULL with a one-line reason (gnuplot missing or failing). */
char *gr_plot_svg(const char *script, const char *data, int w, int h, char *why, size_t wlen);
#endif
