/*
 * timeline_episodes.c - the fork/join episodes the timeline page marks.
 *
 * DESIGN: the page marks the episodes doctor and summary judge, with their
 * own verdicts: the profile's structure (analysis.c's profile_structure,
 * the library's rule in services/episodes.c) gives the main stream and,
 * per episode, the side's span from its wait on the fork to its record of
 * the join (or, never joined, to the end of its last kernel). The page
 * takes them as a plain array. Single-threaded (the command); no locks.
 */
#include "analysis.h"
#include "html.h"

size_t timeline_episodes_of(const struct profile *p, struct arena *a, struct timeline_episode **out)
{
    struct stream_stat *st;
    struct structure s;
    size_t nst = stream_stats(p, a, &st);
    struct timeline_episode *ep;

    profile_structure(p, st, nst, a, &s);
    ep = arena_alloc(a, (s.r.nep + 1) * sizeof(*ep));
    for (size_t i = 0; i < s.r.nep; i++) {
        const struct ep_episode *e = &s.r.ep[i];
        ep[i] = (struct timeline_episode){s.r.main_stream, e->side, e->side_from, e->side_to, e->join_event >= 0,
                                          (int)e->verdict};
    }
    *out = ep;
    return s.r.nep;
}
