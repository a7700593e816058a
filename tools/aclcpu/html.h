/*
 * html.h - the timeline page: one self-contained HTML file (inline SVG and
 * CSS, a few lines of script, nothing fetched) drawing a profile.
 */
#ifndef ACLCPU_CLI_HTML_H
#define ACLCPU_CLI_HTML_H

#include "profile.h"

struct timeline_page {
    const char *title;
    struct profile *modelled;
    struct profile *measured; /* NULL when the profile has no measured files */
    int width;                /* drawing width in px */
    bool from_file;           /* a bare kernel_details.csv: its clock is not aclcpu's model */
};

void html_timeline(FILE *f, const struct timeline_page *page);

#endif
