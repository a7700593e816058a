/*
 * routes.c - the routing table of routes.def as arrays, and look-ups.
 *
 * DESIGN: routes.def is the data; this file only expands it. The table is
 * complete (a row for every path and problem); the advise test checks it.
 */
#include "routes.h"

#include <string.h>

const struct route_path_info route_paths[ROUTE_PATHS] = {
#define ROUTE_PATH(name, title, family) {#name, title, family},
#include "routes.def"
};

const struct route_problem_info route_problems[ROUTE_PROBLEMS] = {
#define ROUTE_PROBLEM(name, title) {#name, title},
#include "routes.def"
};

const struct route_decision route_decisions[] = {
#define ROUTE_DECISION(step, text) {step, text},
#include "routes.def"
};
const size_t route_ndecisions = CLI_ARRAY_SIZE(route_decisions);

static const struct route routes[] = {
#define ROUTE(path, problem, acl, framework, when, pitfalls, read) \
    {RP_##path, RQ_##problem, acl, framework, when, pitfalls, read},
#include "routes.def"
};

const struct route *route_find(enum route_path path, enum route_problem problem)
{
    for (size_t i = 0; i < CLI_ARRAY_SIZE(routes); i++)
        if (routes[i].path == path && routes[i].problem == problem)
            return &routes[i];
    return NULL;
}

bool route_path_parse(const char *name, enum route_path *out)
{
    for (int i = 0; i < ROUTE_PATHS; i++)
        if (str_eq(route_paths[i].name, name)) {
            *out = (enum route_path)i;
            return true;
        }
    return false;
}

bool route_problem_parse(const char *name, enum route_problem *out)
{
    for (int i = 0; i < ROUTE_PROBLEMS; i++)
        if (str_eq(route_problems[i].name, name)) {
            *out = (enum route_problem)i;
            return true;
        }
    return false;
}

/* "a|b|c" of names, built once. */
static const char *choices(char *buf, size_t n, const char *const *names, size_t count)
{
    if (buf[0] != '\0')
        return buf;
    for (size_t i = 0; i < count; i++) {
        strncat(buf, names[i], n - strlen(buf) - 1);
        if (i + 1 < count)
            strncat(buf, "|", n - strlen(buf) - 1);
    }
    return buf;
}

const char *route_path_choices(void)
{
    static char buf[128];
    const char *names[ROUTE_PATHS];
    for (int i = 0; i < ROUTE_PATHS; i++)
        names[i] = route_paths[i].name;
    return choices(buf, sizeof(buf), names, ROUTE_PATHS);
}

const char *route_problem_choices(void)
{
    static char buf[128];
    const char *names[ROUTE_PROBLEMS];
    for (int i = 0; i < ROUTE_PROBLEMS; i++)
        names[i] = route_problems[i].name;
    return choices(buf, sizeof(buf), names, ROUTE_PROBLEMS);
}
