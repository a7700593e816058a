/*
 * timeline_episodes.c - the fork/join episodes the timeline page marks,
 * found in a profile's event edges (trace_view.json).
 *
 * DESIGN: the edges are walked in the order their waits end. An edge
 * a -> b opens an episode (main a, side b) from the end of b's wait,
 * unless an episode with main b and side a is open: then it is that
 * episode's join and closes it at the record's end. An episode never
 * joined runs to the profile's last task. The verdict shown is the
 * overlap_pct verdict of the stream pair (analysis.c), the one figure the
 * command has today; the page takes any array of episodes, so a per-episode
 * verdict replaces this source without touching the page. Single-threaded
 * (the command); no locks.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "html.h"

static int by_wait_end(const void *a, const void *b)
{
    const struct edge *x = a, *y = b;
    if (x->to_t != y->to_t)
        return x->to_t < y->to_t ? -1 : 1;
    return (x->from_t > y->from_t) - (x->from_t < y->from_t);
}

static int pair_verdict(const struct pair *pairs, size_t np, int s1, int s2)
{
    for (size_t i = 0; i < np; i++)
        if ((pairs[i].main == s1 && pairs[i].side == s2) || (pairs[i].main == s2 && pairs[i].side == s1))
            return (int)pairs[i].verdict;
    return -1;
}

size_t timeline_episodes_from_edges(const struct profile *p, struct arena *a, struct timeline_episode **out)
{
    struct edge *edges = arena_alloc(a, (p->nedges + 1) * sizeof(*edges));
    struct timeline_episode *ep = arena_alloc(a, (p->nedges + 1) * sizeof(*ep));
    size_t *open = arena_alloc(a, (p->nedges + 1) * sizeof(*open)), nopen = 0, n = 0;
    struct stream_stat *st;
    struct pair *pairs;
    struct totals tot;
    size_t nst = stream_stats(p, a, &st), np = stream_pairs(st, nst, a, &pairs);
    profile_totals(p, &tot);
    if (p->nedges > 0)
        memcpy(edges, p->edges, p->nedges * sizeof(*edges));
    sort_items(edges, p->nedges, sizeof(*edges), by_wait_end);
    for (size_t i = 0; i < p->nedges; i++) {
        const struct edge *e = &edges[i];
        size_t j = 0;
        if (e->from_stream == e->to_stream)
            continue;
        while (j < nopen && !(ep[open[j]].main_stream == e->to_stream && ep[open[j]].side_stream == e->from_stream))
            j++;
        if (j < nopen) { /* the join of an open episode */
            ep[open[j]].end = e->from_t;
            ep[open[j]].joined = true;
            open[j] = open[--nopen];
            continue;
        }
        for (j = 0; j < nopen; j++) /* a second fork while one is open: the first stays */
            if (ep[open[j]].main_stream == e->from_stream && ep[open[j]].side_stream == e->to_stream)
                break;
        if (j < nopen)
            continue;
        ep[n] = (struct timeline_episode){e->from_stream, e->to_stream, e->to_t, tot.last, false,
                                          pair_verdict(pairs, np, e->from_stream, e->to_stream)};
        open[nopen++] = n++;
    }
    *out = ep;
    return n;
}
