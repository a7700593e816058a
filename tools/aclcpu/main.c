/*
 * main.c - the aclcpu command: finds the subcommand and runs it.
 *
 * DESIGN: every subcommand is a struct command (cli.h) in its own file;
 * this file only lists them, answers `aclcpu`, `aclcpu --help`,
 * `aclcpu help CMD` and `--version`, and passes the exit code through:
 * 0 ok, 1 findings (doctor, stress), 2 usage or input error.
 */
#include <string.h>

#include "cli.h"

static const struct command *const commands[] = {&cmd_info,   &cmd_summary, &cmd_timeline,
                                                 &cmd_doctor, &cmd_advise,  &cmd_stress};

static void main_help(FILE *f)
{
    fprintf(f, "usage: aclcpu <command> [options]\n\n"
               "Reads aclcpu's (and Ascend's) profiles and applies the multi-stream routing table.\n\ncommands:\n");
    for (size_t i = 0; i < CLI_ARRAY_SIZE(commands); i++)
        fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
    fprintf(f, "\n'aclcpu <command> --help' describes each. Exit codes: 0 ok, 1 findings (doctor, stress),\n"
               "2 usage or input error.\n");
}

static const struct command *find_command(const char *name)
{
    for (size_t i = 0; i < CLI_ARRAY_SIZE(commands); i++)
        if (str_eq(commands[i]->name, name))
            return commands[i];
    return NULL;
}

static int help_command(int argc, char **argv)
{
    const struct command *cmd;
    if (argc < 3) {
        main_help(stdout);
        return EXIT_OK;
    }
    cmd = find_command(argv[2]);
    if (cmd == NULL)
        return usage_error(NULL, "no command '%s'", argv[2]);
    command_help(cmd, stdout);
    return EXIT_OK;
}

static int no_command(void)
{
    char names[128] = "";
    for (size_t i = 0; i < CLI_ARRAY_SIZE(commands); i++)
        append(names, sizeof(names), "%s%s", i ? ", " : "", commands[i]->name);
    return usage_error(NULL, "no command given (%s)", names);
}

int main(int argc, char **argv)
{
    const struct command *cmd;
    struct args a;
    int rc;
    if (argc < 2)
        return no_command();
    if (str_eq(argv[1], "--help") || str_eq(argv[1], "-h") || str_eq(argv[1], "help"))
        return help_command(argc, argv);
    if (str_eq(argv[1], "--version")) {
        printf("aclcpu %s\n", ACLCPU_VERSION);
        return EXIT_OK;
    }
    cmd = find_command(argv[1]);
    if (cmd == NULL)
        return usage_error(NULL, "no command '%s'", argv[1]);
    rc = args_parse(&a, cmd, argc - 2, argv + 2);
    if (rc >= 0)
        return rc;
    return cmd->run(&a);
}
