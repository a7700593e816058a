/*
 * log.c - logging with the CANN switches.
 *
 * DESIGN: ASCEND_GLOBAL_LOG_LEVEL (0 debug, 1 info, 2 warning, 3 error,
 * 4 off; default 3) picks what is written; output goes to stdout only when
 * ASCEND_SLOG_PRINT_TO_STDOUT=1 (the device writes to log files instead, and
 * so we stay silent by default, keeping program output byte-identical to
 * the device's). The settings are read once; the level is an atomic so any
 * thread may test it without a lock.
 *
 * Threads: any. Locks: none.
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../platform/platform.h"
#include "common.h"

/* LOG_NONE + 1 means "not read yet"; relaxed is enough because any value a
 * racing reader sees is either the unread marker (and it reads the
 * environment itself) or the final level. */
static _Atomic int log_level = LOG_NONE + 1;

void log_configure(void)
{
    const char *lv = config_str(CFG_LOG_LEVEL);
    const char *out = config_str(CFG_LOG_STDOUT);
    int level = LOG_ERROR;

    if (lv != NULL && lv[0] >= '0' && lv[0] <= '4' && lv[1] == '\0')
        level = lv[0] - '0';
    if (out == NULL || strcmp(out, "1") != 0)
        level = LOG_NONE;
    store_relaxed(&log_level, level);
}

bool log_enabled(int level)
{
    int cur = load_relaxed(&log_level);
    if (ACLCPU_UNLIKELY(cur > LOG_NONE)) {
        log_configure();
        cur = load_relaxed(&log_level);
    }
    return level >= cur && cur < LOG_NONE;
}

void log_write(int level, const char *fmt, ...)
{
    static const char *const names[] = {"DEBUG", "INFO", "WARNING", "ERROR"};
    char line[1200];
    va_list ap;
    PLAT_ASSERT_NO_SPIN("writing to the log");
    uint64_t ns = plat_now_ns();
    int off = snprintf(line, sizeof(line), "[%s] ACLCPU(%lu.%06lu): ", names[level & 3],
                       (unsigned long)(ns / 1000000000u), (unsigned long)(ns % 1000000000u / 1000u));

    va_start(ap, fmt);
    vsnprintf(line + off, sizeof(line) - (size_t)off, fmt, ap);
    va_end(ap);
    fprintf(stdout, "%s\n", line);
    fflush(stdout);
}
