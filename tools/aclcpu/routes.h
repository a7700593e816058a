/*
 * routes.h - the routing table of routes.def as C data.
 */
#ifndef ACLCPU_CLI_ROUTES_H
#define ACLCPU_CLI_ROUTES_H

#include "util.h"

enum route_path {
#define ROUTE_PATH(name, title, family) RP_##name,
#include "routes.def"
    ROUTE_PATHS
};

enum route_problem {
#define ROUTE_PROBLEM(name, title) RQ_##name,
#include "routes.def"
    ROUTE_PROBLEMS
};

struct route {
    enum route_path path;
    enum route_problem problem;
    const char *acl, *framework, *when, *pitfalls, *read;
};

struct route_path_info {
    const char *name, *title, *family;
};

struct route_problem_info {
    const char *name, *title;
};

struct route_decision {
    int step;
    const char *text;
};

extern const struct route_path_info route_paths[ROUTE_PATHS];
extern const struct route_problem_info route_problems[ROUTE_PROBLEMS];
extern const struct route_decision route_decisions[];
extern const size_t route_ndecisions;

/* The row for path and problem (routes.def has one for every pair). */
const struct route *route_find(enum route_path path, enum route_problem problem);
bool route_path_parse(const char *name, enum route_path *out);
bool route_problem_parse(const char *name, enum route_problem *out);
/* "eager|ge|npugraph_ex", "switch|order|..." for messages. */
const char *route_path_choices(void);
const char *route_problem_choices(void);

#endif
