/*
 * lockcheck.c - the debug-build checker of the lock rules (lockrank.h).
 *
 * DESIGN: compiled to nothing unless ACLCPU_LOCK_CHECKS. Each thread keeps
 * a stack of the locks it holds (thread-local, so no lock of its own) and a
 * count of the spinlocks among them. plat_mutex and plat_spin call in here
 * before taking a lock (order check), after taking it (push, owner) and
 * before releasing it (owner check, pop). A broken rule prints both locks
 * by name, the caller's stack, and aborts: a test that breaks a lock rule
 * fails at the line that broke it, not in a rare deadlock later.
 * Owner fields are atomics (relaxed) because other threads read a lock's
 * owner only to compare it with themselves.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "platform.h"

#if ACLCPU_LOCK_CHECKS

#include <execinfo.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/lockrank.h"

/* Deeper than any nesting the rank table allows. */
#define HELD_MAX 16

static _Thread_local const struct plat_lock_check *held[HELD_MAX];
static _Thread_local unsigned held_depth;
static _Thread_local unsigned held_spins;

static const char *const rank_names[LOCK_RANK_COUNT] = {
    [LOCK_UNRANKED] = "an unranked lock",
#define ACLCPU_LOCK_RANK_NAME(rank, name, where, guards) [rank] = name,
    ACLCPU_LOCK_RANKS(ACLCPU_LOCK_RANK_NAME)
#undef ACLCPU_LOCK_RANK_NAME
};

static const char *rank_name(unsigned rank) { return rank < LOCK_RANK_COUNT ? rank_names[rank] : "a bad rank"; }

__attribute__((noreturn, format(printf, 1, 2))) static void lock_rule_broken(const char *fmt, ...)
{
    va_list ap;
    void *frames[32];
    fputs("aclcpu: lock check failed: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\naclcpu: locks held by this thread, outermost first:", stderr);
    for (unsigned i = 0; i < held_depth; i++)
        fprintf(stderr, " %s", rank_name(held[i]->rank));
    fputs(held_depth ? "\n" : " none\n", stderr);
    backtrace_symbols_fd(frames, backtrace(frames, 32), 2);
    abort();
}

void plat_lock_acquiring(struct plat_lock_check *c)
{
    if (c->rank == LOCK_UNRANKED || c->rank >= LOCK_RANK_COUNT)
        lock_rule_broken("taking a lock of rank %u: not initialised with a rank", c->rank);
    if (load_relaxed(&c->owner) == plat_thread_self())
        lock_rule_broken("taking %s, which this thread already holds", rank_name(c->rank));
    if (!c->spin && held_spins > 0)
        lock_rule_broken("taking the mutex %s while holding a spinlock", rank_name(c->rank));
    if (held_depth > 0 && held[held_depth - 1]->rank >= c->rank)
        lock_rule_broken("taking %s while holding %s: against the order of lockrank.h", rank_name(c->rank),
                         rank_name(held[held_depth - 1]->rank));
    if (held_depth == HELD_MAX)
        lock_rule_broken("taking %s: more than %d locks held", rank_name(c->rank), HELD_MAX);
}

void plat_lock_acquired(struct plat_lock_check *c)
{
    store_relaxed(&c->owner, plat_thread_self());
    held[held_depth++] = c;
    held_spins += c->spin;
}

void plat_lock_releasing(struct plat_lock_check *c)
{
    unsigned i = held_depth;
    while (i > 0 && held[i - 1] != c)
        i--;
    if (i == 0 || load_relaxed(&c->owner) != plat_thread_self())
        lock_rule_broken("releasing %s, which this thread does not hold", rank_name(c->rank));
    /* Releases need not be LIFO; the rest of the stack keeps its order. */
    for (; i < held_depth; i++)
        held[i - 1] = held[i];
    held_depth--;
    held_spins -= c->spin;
    store_relaxed(&c->owner, 0);
}

void plat_lock_assert_held(const struct plat_lock_check *c, const char *expr, const char *file, int line)
{
    if (load_relaxed(&c->owner) != plat_thread_self())
        lock_rule_broken("%s:%d: %s (%s) is not held by this thread", file, line, expr, rank_name(c->rank));
}

void plat_lock_assert_no_spin(const char *what)
{
    if (held_spins > 0)
        lock_rule_broken("%s while holding a spinlock", what);
}

#else
typedef int lockcheck_is_off; /* ISO C wants a translation unit to declare something */
#endif
