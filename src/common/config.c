/*
 * config.c - reads the environment variables of config.def, and nothing
 * else does: a new variable gets a row in the table (and so a line in
 * `aclcpu info`) or the test "config_reads" fails.
 *
 * DESIGN: no cache; each caller reads when it configures (a device open,
 * aclInit, the first launch) and keeps what it needs, as before.
 *
 * Threads: any; reads only the environment (plat_getenv) and the constant
 * table. No locks.
 */
#include <stdlib.h>
#include <string.h>

#include "../platform/platform.h"
#include "common.h"

static const struct config_row rows[CFG_COUNT] = {
#define CONFIG_VAR(id, name, dflt, dflt_text, meaning) [CFG_##id] = {name, dflt_text, meaning},
#include "config.def"
#undef CONFIG_VAR
};

static const uint64_t defaults[CFG_COUNT] = {
#define CONFIG_VAR(id, name, dflt, dflt_text, meaning) [CFG_##id] = (dflt),
#include "config.def"
#undef CONFIG_VAR
};

const struct config_row *config_row(enum config_var v) { return &rows[v]; }
const char *config_str(enum config_var v) { return plat_getenv(rows[v].name); }

bool config_is(enum config_var v, const char *text)
{
    const char *value = config_str(v);
    return value != NULL && strcmp(value, text) == 0;
}

static uint64_t scaled(unsigned long long n, char **end)
{
    switch (**end) {
    case 'k': case 'K': (*end)++; return (uint64_t)n << 10;
    case 'm': case 'M': (*end)++; return (uint64_t)n << 20;
    case 'g': case 'G': (*end)++; return (uint64_t)n << 30;
    default: return n;
    }
}

uint64_t config_u64_or(enum config_var v, uint64_t dflt)
{
    const char *name = rows[v].name, *text = config_str(v);
    char *end;
    uint64_t n;
    if (text == NULL || text[0] == '\0')
        return dflt;
    n = strtoull(text, &end, 10);
    if (end == text) {
        LOGW("%s=%s is not a number; using %llu", name, text, (unsigned long long)dflt);
        return dflt;
    }
    n = scaled(n, &end);
    if (*end != '\0') {
        LOGW("%s=%s has trailing text; using %llu", name, text, (unsigned long long)dflt);
        return dflt;
    }
    return n;
}

uint64_t config_u64(enum config_var v) { return config_u64_or(v, defaults[v]); }
