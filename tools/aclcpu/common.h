/*
 * common.h - what the profile subcommands (summary, timeline, doctor)
 * share: their common options and loading a profile from them.
 */
#ifndef ACLCPU_CLI_COMMON_H
#define ACLCPU_CLI_COMMON_H

#include "cli.h"
#include "jsonw.h"
#include "profile.h"

#define PROFILE_OPTIONS \
    {"--soc", 0, "NAME", "the SoC whose cores to count against (default: summary.json's, else ACLCPU_SOC's)"}, \
    {"--step", 0, "N", "analyse only the kernels of Step Id N"}, \
    {"--main", 0, "N", "stream N is the main stream (default: the one that forks and joins)"}, \
    {"--clock", 0, "modelled|measured", "which clock's files to read (default modelled)"}, \
    {"--json", 0, NULL, "write JSON instead of text"}

enum step_policy { STEPS_ALL, STEPS_LAST };

/* Loads the profile named by the first argument with --soc, --clock,
 * --main and --step. STEPS_LAST picks the last step of a multi-step profile unless
 * --step names one. Returns -1 when loaded, else the exit code (the error
 * already printed). */
int load_profile(const struct args *a, struct profile *p, bool need_streams, enum step_policy steps);

/* "kernel_details.csv (12 rows, Block Num, ...), trace_view.json, ..." */
void describe_files(const struct profile *p, char *buf, size_t n);
/* The "profile" part shared by every --json output. */
void write_profile_json(struct jw *w, const struct profile *p);
/* "measured_op (AI_VECTOR_CORE): 3 launches, 98.100-104.200 us (avg 100.500)": a kernel
 * modelled from its measured CPU time (summary.json's measured_kernels). */
void describe_measured(const struct measured_kernel *m, char *buf, size_t n);
/* The kernels modelled from measured CPU time, as a --json array (null when
 * the profile does not say). */
void write_measured_json(struct jw *w, const struct profile *p);

/* Text header lines: profile, files, clock, SoC (and step). */
void print_profile_header(const struct profile *p, const char *what);

#endif
