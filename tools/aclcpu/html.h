/*
 * html.h - the timeline page: one self-contained HTML file (CSS, the
 * profile's data as compact columns, and the script that draws them on a
 * canvas; nothing fetched) showing a profile, and the fork/join episodes
 * it marks.
 */
#ifndef ACLCPU_CLI_HTML_H
#define ACLCPU_CLI_HTML_H

#include "profile.h"

/* A fork/join episode as the page marks it: a side stream's span from the
 * end of its wait on the main stream's fork event to the record of its
 * join event (or to the profile's end when no join comes back). The page
 * takes a plain array of them, whoever computes them. */
struct timeline_episode {
    int main_stream, side_stream;
    double start, end; /* us on the clock of the profile they came from */
    bool joined;       /* false: no join edge back to the main stream */
    int verdict;       /* enum verdict (analysis.h), or -1 when none is known */
};

/* One clock of the page: a loaded profile and its episodes. */
struct timeline_clock {
    struct profile *profile; /* NULL: the clock is not in this profile */
    const struct timeline_episode *episodes;
    size_t nepisodes;
};

struct timeline_page {
    const char *title;
    struct timeline_clock modelled;
    struct timeline_clock measured;
    int width;      /* drawing width in px (the lanes; their labels come on top) */
    bool from_file; /* a bare kernel_details.csv: its clock is not aclcpu's model */
};

void html_timeline(FILE *f, const struct timeline_page *page);

/* The fork/join episodes of p as doctor judges them (the main stream by
 * structure or --main; each episode's own verdict): the side's span from
 * its fork wait to its join record, or to its last kernel's end when never
 * joined (timeline_episodes.c). In arena a; returns how many. */
size_t timeline_episodes_of(const struct profile *p, struct arena *a, struct timeline_episode **out);

#endif
