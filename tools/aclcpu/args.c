/*
 * args.c - option parsing shared by every subcommand.
 *
 * DESIGN: options are declared per command (struct option_spec); this
 * parser accepts "--name value", "--name=value", "-x value", flags, "--"
 * to end options, and --help/-h anywhere. Every refusal is one line on
 * stderr naming the command and what to type for help, and exit 2.
 */
#include "cli.h"

#include <stdarg.h>
#include <string.h>

int usage_error(const struct command *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "aclcpu%s%s: error: ", cmd != NULL ? " " : "", cmd != NULL ? cmd->name : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (see 'aclcpu %s%s--help')\n", cmd != NULL ? cmd->name : "", cmd != NULL ? " " : "");
    return EXIT_USAGE;
}

int input_error(const struct command *cmd, const struct cli_error *err)
{
    fprintf(stderr, "aclcpu %s: error: %s\n", cmd->name, err->msg);
    return EXIT_USAGE;
}

void command_help(const struct command *cmd, FILE *f)
{
    fprintf(f, "usage: aclcpu %s %s\n\n%s\n", cmd->name, cmd->usage, cmd->help);
    fprintf(f, "\noptions:\n");
    for (size_t i = 0; i < cmd->noptions; i++) {
        const struct option_spec *o = &cmd->options[i];
        char left[64];
        if (o->letter)
            snprintf(left, sizeof(left), "-%c, %s%s%s", o->letter, o->name, o->value_name ? " " : "",
                     o->value_name ? o->value_name : "");
        else
            snprintf(left, sizeof(left), "    %s%s%s", o->name, o->value_name ? " " : "",
                     o->value_name ? o->value_name : "");
        fprintf(f, "  %-26s %s\n", left, o->help);
    }
    fprintf(f, "  %-26s %s\n", "-h, --help", "show this help");
}

static int find_option(const struct command *cmd, const char *arg, size_t len)
{
    for (size_t i = 0; i < cmd->noptions; i++) {
        const struct option_spec *o = &cmd->options[i];
        if ((strlen(o->name) == len && strncmp(o->name, arg, len) == 0) ||
            (o->letter && len == 2 && arg[0] == '-' && arg[1] == o->letter))
            return (int)i;
    }
    return -1;
}

/* One option at argv[*i]; returns -1 to go on or an exit code. */
static int take_option(struct args *a, int argc, char **argv, int *i)
{
    const char *arg = argv[*i], *eq = strchr(arg, '=');
    size_t len = eq != NULL && arg[1] == '-' ? (size_t)(eq - arg) : strlen(arg);
    int k = find_option(a->cmd, arg, len);
    const struct option_spec *o;
    const char *value = NULL;
    if (k < 0)
        return usage_error(a->cmd, "unknown option '%.*s'", (int)len, arg);
    o = &a->cmd->options[k];
    if (o->value_name == NULL && eq != NULL && arg[1] == '-')
        return usage_error(a->cmd, "option %s takes no value", o->name);
    if (o->value_name != NULL) {
        if (eq != NULL && arg[1] == '-')
            value = eq + 1;
        else if (*i + 1 < argc)
            value = argv[++*i];
        else
            return usage_error(a->cmd, "option %s needs a value (%s)", o->name, o->value_name);
    }
    if (a->count[k] == MAX_REPEATS)
        return usage_error(a->cmd, "option %s given more than %d times", o->name, MAX_REPEATS);
    a->values[k][a->count[k]++] = value;
    return -1;
}

static bool is_help(const char *arg) { return str_eq(arg, "--help") || str_eq(arg, "-h"); }

int args_parse(struct args *a, const struct command *cmd, int argc, char **argv)
{
    bool options_done = false;
    memset(a, 0, sizeof(*a));
    a->cmd = cmd;
    for (int i = 0; i < argc; i++) {
        int rc;
        if (!options_done && is_help(argv[i])) {
            command_help(cmd, stdout);
            return EXIT_OK;
        }
        if (!options_done && str_eq(argv[i], "--")) {
            options_done = true;
            if (cmd->takes_program) { /* the rest is a program's own command line */
                a->rest = argv + i + 1;
                a->nrest = argc - i - 1;
                break;
            }
        } else if (!options_done && argv[i][0] == '-' && argv[i][1] != '\0') {
            if ((rc = take_option(a, argc, argv, &i)) >= 0)
                return rc;
        } else if (a->npositional == cmd->max_args) {
            return usage_error(cmd, "unexpected argument '%s'", argv[i]);
        } else {
            a->positional[a->npositional++] = argv[i];
        }
    }
    if (a->npositional < cmd->min_args)
        return usage_error(cmd, "missing argument: usage: aclcpu %s %s", cmd->name, cmd->usage);
    return -1;
}

static int option_index(const struct args *a, const char *name)
{
    return find_option(a->cmd, name, strlen(name));
}

const char *args_value(const struct args *a, const char *name)
{
    int k = option_index(a, name);
    return k >= 0 && a->count[k] > 0 ? a->values[k][a->count[k] - 1] : NULL;
}

bool args_flag(const struct args *a, const char *name)
{
    int k = option_index(a, name);
    return k >= 0 && a->count[k] > 0;
}

int args_values(const struct args *a, const char *name, const char *const **values)
{
    int k = option_index(a, name);
    if (k < 0)
        return 0;
    *values = a->values[k];
    return a->count[k];
}
