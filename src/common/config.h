/*
 * config.h - the library's configuration: every environment variable it
 * reads, from one table (config.def). Nothing else in the library reads
 * the environment.
 */
#ifndef ACLCPU_CONFIG_H
#define ACLCPU_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum config_var {
#define CONFIG_VAR(id, name, dflt, dflt_text, meaning) CFG_##id,
#include "config.def"
#undef CONFIG_VAR
    CFG_COUNT
};

struct config_row {
    const char *name, *default_text, *meaning;
};

/* The variable as a number (an optional K/M/G suffix multiplies by 2^10,
 * 2^20, 2^30); its table default when unset, empty or malformed (with a
 * warning). config_u64_or takes the default from the caller, for the
 * variables whose default is computed. */
uint64_t config_u64(enum config_var v);
uint64_t config_u64_or(enum config_var v, uint64_t dflt);
/* The variable's text, or NULL when unset. */
const char *config_str(enum config_var v);
/* The variable is set to exactly this text. */
bool config_is(enum config_var v, const char *text);
/* The table, for `aclcpu info`. */
const struct config_row *config_row(enum config_var v);

#endif
