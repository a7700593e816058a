/*
 * common.h - small helpers every layer uses: errors, logging, lists.
 */
#ifndef ACLCPU_COMMON_H
#define ACLCPU_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "lockrank.h"
#include "mem.h"

#if defined(__GNUC__)
#define ACLCPU_LIKELY(x) __builtin_expect(!!(x), 1)
#define ACLCPU_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define ACLCPU_PRINTF(f, a) __attribute__((format(printf, f, a)))
/* A rare path kept out of line, so that the hot path around its call
 * saves no registers for it. */
#define ACLCPU_COLD __attribute__((noinline, cold))
#else
#define ACLCPU_LIKELY(x) (x)
#define ACLCPU_UNLIKELY(x) (x)
#define ACLCPU_PRINTF(f, a)
#define ACLCPU_COLD
#endif

/*
 * Thread-locals read on every launch or task (current context, task cache,
 * executor state). In a shared library the default TLS model reaches each
 * one through a call to __tls_get_addr; initial-exec makes it one load off
 * the thread pointer. Such variables come out of glibc's static TLS
 * surplus when the library is dlopen()ed, so only a few small ones (tens of
 * bytes in all) carry it; big per-thread buffers keep the default.
 */
#if defined(__GNUC__)
#define ACLCPU_TLS_HOT __attribute__((tls_model("initial-exec")))
#else
#define ACLCPU_TLS_HOT
#endif

/* Fields written by different threads at high rates live on lines of
 * their own (struct stream, struct task). */
#define ACLCPU_CACHE_LINE 64

#define ACLCPU_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ACLCPU_CONTAINER_OF(p, type, member) ((type *)(void *)((char *)(p)-offsetof(type, member)))

/* ---- errors (error.c) ---------------------------------------------------- */

/*
 * Records the message for aclGetRecentErrMsg in the calling thread and
 * returns code, so a validation reads: return acl_fail(code, "...", ...).
 * The message should name the function, the argument and the rule.
 */
aclError acl_fail(aclError code, const char *fmt, ...) ACLCPU_PRINTF(2, 3);
/* Records a message without failing (used by task errors seen at sync). */
void acl_note(const char *fmt, ...) ACLCPU_PRINTF(1, 2);
const char *acl_error_name(aclError code);
const char *acl_error_meaning(aclError code);
/* The calling thread's last error (aclrtGetLastError): acl_fail sets it;
 * a call that fails without acl_fail (a task's code handed back by a
 * sync) sets it with acl_last_error_set. Reading it may clear it. */
aclError acl_last_error(bool clear);
void acl_last_error_set(aclError code);

/* ---- logging (log.c), CANN conventions -------------------------------- */

enum { LOG_DEBUG = 0, LOG_INFO = 1, LOG_WARN = 2, LOG_ERROR = 3, LOG_NONE = 4 };
void log_configure(void);
bool log_enabled(int level);
void log_write(int level, const char *fmt, ...) ACLCPU_PRINTF(2, 3);
/* Debug builds check "no spinlock held" whether or not the level is on, so
 * the tests catch a log line under a spinlock with logging off. */
#define LOG_AT(level, ...)                                                                                       \
    (PLAT_ASSERT_NO_SPIN("logging"), log_enabled(level) ? log_write(level, __VA_ARGS__) : (void)0)
#define LOGD(...) LOG_AT(LOG_DEBUG, __VA_ARGS__)
#define LOGI(...) LOG_AT(LOG_INFO, __VA_ARGS__)
#define LOGW(...) LOG_AT(LOG_WARN, __VA_ARGS__)
#define LOGE(...) LOG_AT(LOG_ERROR, __VA_ARGS__)

/* ---- intrusive doubly linked list (circular, with a sentinel head) -------- */

struct list {
    struct list *next, *prev;
};

static inline void list_init(struct list *h) { h->next = h->prev = h; }
static inline bool list_empty(const struct list *h) { return h->next == h; }
static inline bool list_linked(const struct list *n) { return n->next != NULL && n->next != n; }

static inline void list_add_tail(struct list *h, struct list *n)
{
    n->prev = h->prev;
    n->next = h;
    h->prev->next = n;
    h->prev = n;
}

static inline void list_del(struct list *n)
{
    n->prev->next = n->next;
    n->next->prev = n->prev;
    n->next = n->prev = n;
}

#define list_for_each(pos, head) for ((pos) = (head)->next; (pos) != (head); (pos) = (pos)->next)

/* ---- JSON text (json.c): aclInit's configuration file ---------------------- */

/* Whether len bytes of text are one JSON value (RFC 8259), with whitespace
 * around it; containers nested deeper than 256 are refused too. */
bool json_text_is_valid(const char *text, size_t len);
/* The deepest nesting of open_ch/close_ch pairs, counted byte by byte (in
 * strings too) up to the first NUL: the reference's depth rule. */
size_t json_naive_depth(const char *text, size_t len, char open_ch, char close_ch);

/* ---- environment: config.def, through config.c ---------------------------- */

#include "config.h"

#endif
