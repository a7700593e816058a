/*
 * common.h - what the profile subcommands (summary, timeline, doctor)
 * share: their common options and loading a profile from them.
 */
#ifndef ACLCPU_CLI_COMMON_H
#define ACLCPU_CLI_COMMON_H

#include "cli.h"
#include "jsonw.h"
#include "analysis.h"
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

/* The overlap section doctor and summary print alike: the main stream and
 * why, each pair's line (pair_line), each episode, and the totals per step. */
void print_structure(const struct structure *s, const struct pair *pairs, size_t np);
/* "main 1 / side 2: 4 episodes (...): overlap ..., overlap_pct 0.34, partial; worst: ..." */
void pair_line(const struct pair *pr, char *buf, size_t n);
/* "main_stream", "episodes" and "episode_totals", as summary.json has them. */
void write_structure_json(struct jw *w, const struct structure *s);

/* A kernel as an object: name, stream_id, task_id, start_us, end_us. */
void write_task_json(struct jw *w, const char *key, const struct task *k);
/* One pair's fields (inside the caller's object), as summary.json's overlap. */
void write_pair_fields_json(struct jw *w, const struct pair *pr);

/* Text header lines: profile, files, clock, SoC (and step). */
void print_profile_header(const struct profile *p, const char *what);

#endif
