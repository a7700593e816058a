/*
 * cli.h - subcommands and their options.
 *
 * Each subcommand is a `struct command`: its name, a one-line summary,
 * its help text, its options and a run function that gets the parsed
 * arguments and returns the exit code (0 ok, 1 findings, 2 usage or input
 * error). The parser (args.c) answers --help, and refuses unknown
 * options, missing values and wrong argument counts with one line and 2.
 */
#ifndef ACLCPU_CLI_CLI_H
#define ACLCPU_CLI_CLI_H

#include "util.h"

#define MAX_OPTIONS 12
#define MAX_REPEATS 16
#define MAX_POSITIONALS 4

struct option_spec {
    const char *name;       /* "--json" */
    char letter;            /* 'o' for -o, or 0 */
    const char *value_name; /* NULL for a flag */
    const char *help;
};

struct args;

struct command {
    const char *name;
    const char *summary;
    const char *usage;    /* after "aclcpu NAME " */
    const char *help;     /* the text after the usage line */
    const struct option_spec *options;
    size_t noptions;
    int min_args, max_args;
    /* Everything after "--" is a program's command line (args.rest). */
    bool takes_program;
    int (*run)(const struct args *a);
};

struct args {
    const struct command *cmd;
    const char *positional[MAX_POSITIONALS];
    int npositional;
    int count[MAX_OPTIONS];                    /* times each option was given */
    const char *values[MAX_OPTIONS][MAX_REPEATS];
    char **rest; /* takes_program: the command line after "--" (NULL-terminated), or NULL */
    int nrest;
};

/* Parses argv (after the subcommand's name). Returns -1 to go on, or the
 * exit code when it has answered (--help: 0, a usage error: 2). */
int args_parse(struct args *a, const struct command *cmd, int argc, char **argv);
/* The value of option `name` (its last one), or NULL. */
const char *args_value(const struct args *a, const char *name);
bool args_flag(const struct args *a, const char *name);
/* All values of a repeatable option. */
int args_values(const struct args *a, const char *name, const char *const **values);
void command_help(const struct command *cmd, FILE *f);
/* "aclcpu CMD: error: ..." on stderr; returns EXIT_USAGE. */
int usage_error(const struct command *cmd, const char *fmt, ...) CLI_PRINTF(2, 3);
int input_error(const struct command *cmd, const struct cli_error *err);

extern const struct command cmd_info, cmd_summary, cmd_timeline, cmd_doctor, cmd_advise, cmd_stress;

#endif
