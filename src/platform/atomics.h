/*
 * atomics.h - every atomic access in aclcpu, named by what it orders.
 *
 * The library never touches an _Atomic object with plain syntax (s->id,
 * x = 1, n++): each of those is silently sequentially consistent, and a
 * reader cannot tell a chosen seq_cst from a forgotten one. clang builds
 * enforce this with -Watomic-implicit-seq-cst. Instead the access says its
 * order in its name, as liburing's barrier.h does, and every order
 * stronger than relaxed carries a one-line reason at the call site (or
 * names the comment it relies on, e.g. "see stream->done").
 *
 * What the orders mean here:
 *
 * RELAXED  The access is atomic (no torn value, no data race) and nothing
 *          more: it orders no other memory. Right for counters, hints,
 *          statistics, flags whose reader re-checks under a lock, and
 *          fields set before the object was published (the publication
 *          itself, a lock or a release, carries the ordering).
 * ACQUIRE  A load that, once it sees a value a RELEASE stored, also sees
 *          everything the storing thread wrote before that store. Reads
 *          after it cannot move above it. Name the release it pairs with.
 * RELEASE  A store that publishes everything this thread wrote before it
 *          to whoever ACQUIREs the value. Writes before it cannot move
 *          below it. Name the acquire it pairs with.
 * ACQ_REL  A read-modify-write that is both: it sees what earlier
 *          releasers published and publishes our own writes (the last
 *          reference drop that then frees the object).
 * SEQ_CST  Acquire/release plus one total order over all seq_cst accesses
 *          that every thread agrees on. Needed only for the Dekker shape:
 *          thread A stores x then loads y, thread B stores y then loads x,
 *          and at least one of them must see the other's store (a waiter
 *          that must not sleep through its wake-up). Acquire/release cannot
 *          give that. It costs a full barrier (an xchg or mfence on x86).
 *
 * cas_*(p, expected, desired) is a compare-exchange: true if *p was
 * *expected and is now desired; otherwise *expected is updated to *p. A
 * failed cas stores nothing, so it reads with the weakest order that still
 * does its job: relaxed for cas_relaxed and cas_acquire (a failed lock try
 * takes nothing), seq_cst for the seq_cst forms (the failed read stays in
 * the total order its caller reasons about). The _weak forms may fail
 * spuriously and belong in a retry loop.
 *
 * These are macros because the accessed objects have many types; the C11
 * generic functions underneath check that p points to an _Atomic object.
 * atomic_init stays as it is: it sets up an object no other thread can see
 * yet, and orders nothing.
 */
#ifndef ACLCPU_ATOMICS_H
#define ACLCPU_ATOMICS_H

#include <stdatomic.h>

#define load_relaxed(p) atomic_load_explicit((p), memory_order_relaxed)
#define load_acquire(p) atomic_load_explicit((p), memory_order_acquire)
#define load_seq_cst(p) atomic_load_explicit((p), memory_order_seq_cst)

#define store_relaxed(p, v) atomic_store_explicit((p), (v), memory_order_relaxed)
#define store_release(p, v) atomic_store_explicit((p), (v), memory_order_release)
#define store_seq_cst(p, v) atomic_store_explicit((p), (v), memory_order_seq_cst)

/* The fetch_* and exchange_* forms return the value *p held before. */
#define fetch_add_relaxed(p, v) atomic_fetch_add_explicit((p), (v), memory_order_relaxed)
#define fetch_add_release(p, v) atomic_fetch_add_explicit((p), (v), memory_order_release)
#define fetch_add_seq_cst(p, v) atomic_fetch_add_explicit((p), (v), memory_order_seq_cst)

#define fetch_sub_relaxed(p, v) atomic_fetch_sub_explicit((p), (v), memory_order_relaxed)
#define fetch_sub_release(p, v) atomic_fetch_sub_explicit((p), (v), memory_order_release)
#define fetch_sub_acq_rel(p, v) atomic_fetch_sub_explicit((p), (v), memory_order_acq_rel)
#define fetch_sub_seq_cst(p, v) atomic_fetch_sub_explicit((p), (v), memory_order_seq_cst)

#define fetch_or_relaxed(p, v) atomic_fetch_or_explicit((p), (v), memory_order_relaxed)
#define fetch_and_relaxed(p, v) atomic_fetch_and_explicit((p), (v), memory_order_relaxed)

#define exchange_relaxed(p, v) atomic_exchange_explicit((p), (v), memory_order_relaxed)
#define exchange_acquire(p, v) atomic_exchange_explicit((p), (v), memory_order_acquire)
#define exchange_release(p, v) atomic_exchange_explicit((p), (v), memory_order_release)
#define exchange_seq_cst(p, v) atomic_exchange_explicit((p), (v), memory_order_seq_cst)

#define cas_relaxed(p, e, d) \
    atomic_compare_exchange_strong_explicit((p), (e), (d), memory_order_relaxed, memory_order_relaxed)
#define cas_acquire(p, e, d) \
    atomic_compare_exchange_strong_explicit((p), (e), (d), memory_order_acquire, memory_order_relaxed)
#define cas_weak_relaxed(p, e, d) \
    atomic_compare_exchange_weak_explicit((p), (e), (d), memory_order_relaxed, memory_order_relaxed)
#define cas_weak_seq_cst(p, e, d) \
    atomic_compare_exchange_weak_explicit((p), (e), (d), memory_order_seq_cst, memory_order_seq_cst)

#endif
