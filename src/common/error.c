/*
 * error.c - the error table and the per-thread "recent error" messages.
 *
 * DESIGN: errors.def is the single table of (name, code, meaning); this file
 * turns it into lookups for names and meanings. Each thread keeps its own
 * stack of failure messages (newest first, as CANN prints them) that
 * aclGetRecentErrMsg hands out and clears, and the code of its last failed
 * call (aclrtGetLastError / aclrtPeekAtLastError: every failure sets it,
 * as the runtime's entry points set the thread's error on their way out).
 * Only the owning thread touches its buffers, so there is no lock.
 *
 * Threads: any (each its own messages). Locks: none.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "aclcpu/aclcpu.h"
#include "common.h"

struct error_row {
    aclError code;
    const char *name;
    const char *meaning;
};

static const struct error_row error_table[] = {
#define ACLCPU_ERROR(name, code, meaning) {code, #name, meaning},
#include "errors.def"
#undef ACLCPU_ERROR
};

static const struct error_row *find_row(aclError code)
{
    for (size_t i = 0; i < ACLCPU_ARRAY_SIZE(error_table); i++)
        if (error_table[i].code == code)
            return &error_table[i];
    return NULL;
}

const char *acl_error_name(aclError code)
{
    const struct error_row *row = find_row(code);
    return row != NULL ? row->name : "ACL_ERROR_UNKNOWN";
}

const char *acl_error_meaning(aclError code)
{
    const struct error_row *row = find_row(code);
    return row != NULL ? row->meaning : "an error code aclcpu does not know";
}

ACL_FUNC_VISIBILITY const char *aclcpuGetErrorName(aclError code) { return acl_error_name(code); }
ACL_FUNC_VISIBILITY const char *aclcpuGetErrorString(aclError code) { return acl_error_meaning(code); }

/* Messages pile up newest-first until read; a full buffer drops the oldest
 * text, which is the least useful. */
#define RECENT_CAP 4096
static _Thread_local char recent[RECENT_CAP];
static _Thread_local size_t recent_len;
static _Thread_local char handed_out[RECENT_CAP];

static void push_message(const char *msg)
{
    size_t n = strlen(msg);
    if (n + 2 > RECENT_CAP)
        n = RECENT_CAP - 2;
    size_t keep = recent_len;
    if (keep + n + 1 >= RECENT_CAP)
        keep = RECENT_CAP - n - 2;
    if (keep > 0) {
        memmove(recent + n + 1, recent, keep);
        recent[n] = '\n';
        recent_len = n + 1 + keep;
    } else {
        recent_len = n;
    }
    memcpy(recent, msg, n);
    recent[recent_len] = '\0';
}

static void vnote(aclError code, const char *fmt, va_list ap)
{
    char msg[1024];
    int off = 0;
    PLAT_ASSERT_NO_SPIN("formatting an error message");
    if (code != ACL_SUCCESS)
        off = snprintf(msg, sizeof(msg), "[%s %d] ", acl_error_name(code), code);
    vsnprintf(msg + off, sizeof(msg) - (size_t)off, fmt, ap);
    push_message(msg);
    LOGE("%s", msg);
}

static _Thread_local aclError last_error;

aclError acl_last_error(bool clear)
{
    aclError code = last_error;
    if (clear)
        last_error = ACL_SUCCESS;
    return code;
}

void acl_last_error_set(aclError code)
{
    /* Only the table's codes: the profiler's mstx calls fail with -1, which
     * is theirs, not the runtime's (the runtime never sees those calls). */
    if (code != ACL_SUCCESS && find_row(code) != NULL)
        last_error = code;
}

aclError acl_fail(aclError code, const char *fmt, ...)
{
    va_list ap;
    acl_last_error_set(code);
    va_start(ap, fmt);
    vnote(code, fmt, ap);
    va_end(ap);
    return code;
}

void acl_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vnote(ACL_SUCCESS, fmt, ap);
    va_end(ap);
}

/* Returns and clears this thread's messages; only the latest pointer handed
 * out stays valid, exactly as CANN documents. NULL when there is none. */
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void)
{
    if (recent_len == 0)
        return NULL;
    memcpy(handed_out, recent, recent_len + 1);
    recent_len = 0;
    recent[0] = '\0';
    return handed_out;
}
