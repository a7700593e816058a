/*
 * profview.h - what the profile writers (profwrite.c, profsummary.c) see
 * of a finished profile: its entries in a fixed order, on one clock.
 */
#ifndef ACLCPU_PROFVIEW_H
#define ACLCPU_PROFVIEW_H

#include <stdio.h>

#include "profile.h"

struct prof_view {
    bool modelled;           /* the modelled clock, else the measured one */
    uint64_t t0_ns;          /* the measured clock's zero: the profile's first event */
    uint32_t *dev;           /* device entries that ran, by (device, stream, task) */
    uint32_t ndev;
    uint32_t *host;          /* host entries, by (host thread, order) */
    uint32_t nhost;
    uint32_t *conn;          /* by entry id: 1-based index in dev (flow ids), 0 = none */
    uint32_t nsteps;         /* steps marked (aclprofGetStepTimestamp), in start order */
    double *step_start;      /* nsteps (start, end) pairs */
};

/* Builds the view of the clock asked for; false when out of memory. */
bool pv_build(struct prof_view *v, bool modelled);
void pv_free(struct prof_view *v);

/* Times in us from the clock's zero. */
double pv_start(const struct prof_view *v, const struct prof_entry *e);
double pv_end(const struct prof_view *v, const struct prof_entry *e);
double pv_issue(const struct prof_view *v, const struct prof_entry *e);

/* Names as the files show them. */
const char *pv_core_type(const struct prof_entry *e);  /* AI_CORE, AI_VECTOR_CORE, MIX_AIC, MIX_AIV */
uint32_t pv_mix_blocks(const struct prof_entry *e);
/* Blocks a kernel asks of the cube and the vector cores (MIX counts both). */
void pv_demand(const struct prof_entry *e, uint32_t *cube, uint32_t *vector);
const char *pv_task_name(const struct prof_entry *e);
/* e's step (1-based), or 0 when no step holds its start. */
uint32_t pv_step_of(const struct prof_view *v, double start);

/* Intervals: the length of the union of [s[i], e[i]), clipped to [lo, hi). */
double pv_union(const double *s, const double *e, uint32_t n, double lo, double hi);

/* v with three decimals, as every file prints times: in one of 16
 * rotating buffers (one printf may use that many). Writer thread only. */
const char *pv_f3(double v);

/* Writes s as a JSON string. */
void pv_json_string(FILE *f, const char *s);

/* profsummary.c: summary.json of v's clock. */
bool profsummary_write(FILE *f, const struct prof_view *v);

#endif
