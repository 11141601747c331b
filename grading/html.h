/* html.h — the pieces of the course's static pages (class.html, feedback.html): escaping, one inline
 * style sheet, plots drawn by gnuplot's svg terminal and inlined. The pages need no server, no network and
 * no script. */
#ifndef GR_HTML_H
#define GR_HTML_H
#include "gr_util.h"

/* pre, then s with & < > " ' escaped (invalid UTF-8 replaced first), then post. */
void gr_html_wrap(gr_str *b, const char *pre, const char *s, const char *post);
/* A percent-encoded relative link target (folder names are ASCII-safe; this keeps it so). */
void gr_html_href(gr_str *b, const char *folder, const char *file);
void gr_html_head(gr_str *b, const char *title);
void gr_html_foot(gr_str *b);
/* A <figure> with gnuplot's SVG of script over data (the datablock $D: lines of whitespace-separated
 * columns, strings in double quotes), w x h pixels, and a caption; or a note saying why there is none
 * (gnuplot missing or failing). */
void gr_html_plot(gr_str *b, const char *script, const char *data, int w, int h, const char *caption);
#endif
