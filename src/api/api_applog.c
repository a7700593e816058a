/*
 * api_applog.c - aclAppLog: a program's own lines in aclcpu's log.
 *
 * DESIGN: the reference (aclrt_impl/log.cpp aclAppLogImpl) drops the call
 * when func, file or fmt is NULL or the level is filtered out, refuses a
 * format with a %n conversion, and otherwise writes "tid func:file:line:
 * \"message\"" cut to 1023 characters, whose last 14 then read
 * "...[truncated]". Here the line goes to common/log.c, which filters by
 * ASCEND_GLOBAL_LOG_LEVEL and prints with ASCEND_SLOG_PRINT_TO_STDOUT=1,
 * as aclcpu's own lines do. The level filter runs before any formatting.
 * Threads: any (two 1 KiB buffers on the caller's stack). Locks: none.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "api_int.h"
#include "../platform/platform.h"

#define APP_LOG_MAX 1024u /* bytes of a line, its terminating NUL included */
#define TRUNCATED_MARK "...[truncated]"

/* Whether fmt has a %n conversion (%% is a literal percent sign). Between
 * the % and the conversion letter come flags, width, precision, an
 * argument position and length modifiers, all from this set. */
static bool has_percent_n(const char *fmt)
{
    static const char spec_chars[] = "0123456789$*.-+ #'hlLqjzt";
    for (const char *p = fmt; *p != '\0'; p++) {
        if (*p != '%')
            continue;
        p++;
        if (*p == '%')
            continue;
        while (*p != '\0' && strchr(spec_chars, *p) != NULL)
            p++;
        if (*p == 'n')
            return true;
        if (*p == '\0')
            break;
    }
    return false;
}

ACL_FUNC_VISIBILITY void aclAppLog(aclLogLevel logLevel, const char *func, const char *file, uint32_t line,
                                   const char *fmt, ...)
{
    const char *fn = "aclAppLog";
    char body[APP_LOG_MAX], text[APP_LOG_MAX];
    va_list ap;
    int n;

    if (func == NULL || file == NULL || fmt == NULL) {
        (void)acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument '%s' is NULL; nothing is logged", fn,
                       func == NULL ? "func" : file == NULL ? "file" : "fmt");
        return;
    }
    if ((int)logLevel < ACL_DEBUG || (int)logLevel > ACL_ERROR) {
        (void)acl_fail(ACL_ERROR_INVALID_PARAM,
                       "%s: argument 'logLevel' (%d) is not ACL_DEBUG..ACL_ERROR (0..3); nothing is logged", fn,
                       (int)logLevel);
        return;
    }
    if (!log_enabled((int)logLevel))
        return;
    if (has_percent_n(fmt)) {
        (void)acl_fail(ACL_ERROR_INVALID_PARAM,
                       "%s: argument 'fmt' has a %%n conversion: the format string is invalid; nothing is logged",
                       fn);
        return;
    }
    va_start(ap, fmt);
    n = vsnprintf(body, sizeof(body), fmt, ap);
    va_end(ap);
    if (n < 0) {
        (void)acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'fmt' cannot be formatted; nothing is logged", fn);
        return;
    }
    n = snprintf(text, sizeof(text), "%d %s:%s:%u: \"%s\"", (int)plat_thread_tid(), func, file, (unsigned)line, body);
    /* The head is never empty, so a cut body always makes the line too long. */
    if (n < 0 || (unsigned)n >= sizeof(text))
        memcpy(text + sizeof(text) - sizeof(TRUNCATED_MARK), TRUNCATED_MARK, sizeof(TRUNCATED_MARK));
    LOG_AT((int)logLevel, "%s", text);
}
