/*
 * lockrank.h - the one lock order of aclcpu.
 *
 * Every lock of the library has a rank, given when it is initialised
 * (plat_mutex_init / plat_spin_init). A thread that holds locks may take
 * only a lock of a higher rank than all of them: the table reads from the
 * outermost lock (taken first) to the innermost. Debug builds check it at
 * every acquisition (ACLCPU_LOCK_CHECKS, src/platform/lockcheck.c), and
 * check "held" at the top of every *_locked function (PLAT_ASSERT_HELD).
 *
 * Two more rules, also checked: no mutex is taken while a spinlock (S) is
 * held, since a mutex can sleep; and nothing allocates, formats or logs
 * while a spinlock is held. Locks of one rank (two streams, two events) are
 * never held together.
 *
 * This table is the only statement of the order: a comment elsewhere says
 * which lock guards a field, never how locks nest. The order is the one the
 * code takes (every nesting the test suite makes, recorded by the checker);
 * where two locks are never held together their relative place is free.
 * The nestings that exist today, outer -> inner:
 *
 *   snap_lock -> every other lock (a backup waits for streams, reads memory)
 *   ap.lock (api_lock) -> grow_lock, prof_lock, sub_lock
 *   admin_lock -> capture_lock, context, device, cb_lock, hf_lock, depot,
 *                 mem_lock, handle, grow_lock, stream, event, wd_lock, engine,
 *                 prof_lock
 *   capture_lock -> model, context, device, depot, sub_lock, handle, stream,
 *                   event, wd_lock, engine
 *   model -> event;  device -> hf_lock, wd_lock, engine
 *   capture_lock -> label_lock -> handle
 *   reg_lock, binary -> handle
 *   stream -> event, wd_lock, engine, prof_lock, cost_lock
 *   grow_lock -> prof_lock (taken before a stream's lock, never under one)
 *   event -> wd_lock;  prof_lock -> cost_lock
 *   stream -> val_lock -> wd_lock (a value wait parks; engine/memtask.c)
 *   device -> cache_lock (a device's close forgets its segments)
 *   cache_lock -> quar_lock, mem_lock, stream (segments taken and given
 *                 back; a recorded stream's issued count at a free)
 *   capture_lock -> check_lock -> binary, pool_lock, depot, grow_lock,
 *                   stream, event, engine (a submission under the checker:
 *                   core/check.c; a task it refuses is given back after
 *                   check_lock is dropped, stream.c's checked_submit)
 *
 * A new lock gets a row here, where its nestings put it, and its rank at
 * its plat_mutex_init / plat_spin_init.
 */
#ifndef ACLCPU_LOCKRANK_H
#define ACLCPU_LOCKRANK_H

/* X(rank, the lock, where it lives, what it guards) */
#define ACLCPU_LOCK_RANKS(X) /* outermost first */ \
    X(LOCK_SNAPSHOT, "snap_lock", "core/snapshot.c", "the snapshot state and backup; held across a backup or restore") \
    X(LOCK_API_PROF, "ap.lock", "api/api_prof.c", "the profiling API: configs, steps, ranges") \
    X(LOCK_API_PROFSUB, "cfg_lock", "api/api_profsub.c", "subscription configs") \
    X(LOCK_API_DUMP, "dump_lock", "api/api_recovery.c", "the data-dump state (taken alone)") \
    X(LOCK_INITCB, "initcb_lock", "core/initcb.c", "the aclInit and aclFinalize callbacks (taken alone)") \
    X(LOCK_ADMIN, "admin_lock", "core/context.c", "device and context lifecycle: d->contexts, d->primary") \
    X(LOCK_CAPTURE, "capture_lock", "core/model.c", "lanes, edges and state of every model; s->rec_lane, s->model") \
    X(LOCK_MODEL, "model->lock", "core/model.c", "a model's run counters") \
    X(LOCK_LABEL, "label_lock", "core/label.c", "the live-label count, labels' lists and streams") \
    X(LOCK_CONTEXT, "context->lock", "core/context.c", "a context's stream and event lists") \
    X(LOCK_DEVICE, "device->lock", "core/device.c", "a device's open state and stream ids") \
    X(LOCK_CHECK, "check_lock", "core/check.c", "the race checker: clocks, shadow memory, reports") \
    X(LOCK_BINARY, "binary->lock", "core/kernel.c", "a binary's functions") \
    X(LOCK_KERNEL_REG, "reg_lock", "core/kernel.c", "the registered kernels") \
    X(LOCK_SYMBOL, "sym_lock", "core/symbol.c", "the registered device symbols") \
    X(LOCK_STREAM_CB, "cb_lock", "core/stream.c", "stream state callbacks") \
    X(LOCK_SNAPSHOT_CB, "snapcb_lock", "core/snapshot.c", "the snapshot stage callbacks (alone or under snap_lock)") \
    X(LOCK_RECOVERY_CB, "rcb_lock", "core/recovery.c", "device state and device task abort callbacks (taken alone)") \
    X(LOCK_HOSTFUNC, "hf_lock", "engine/sched.c", "the host-function thread's queue") \
    X(LOCK_REPORT, "report_lock", "engine/report.c", "report subscriptions and queues") \
    X(LOCK_EXC_CB, "exc_lock", "engine/exception.c", "the exception callbacks registered") \
    X(LOCK_TASK_DEPOT, "depot_lock", "core/task.c", "the depot of spare task records") \
    X(LOCK_VMM, "vmm_lock", "core/vmm.c", "reservations, physical allocations and their mappings") \
    X(LOCK_SHARE, "share_lock", "services/share.c", "this process's exports of memory files") \
    X(LOCK_ALLOCATOR, "allocator_lock", "core/allocator.c", "custom allocators registered with streams") \
    X(LOCK_MBUF, "mbuf_lock", "core/mbuf.c", "shared buffers: data blocks' references, chains, lengths, user data") \
    X(LOCK_MEMPOOL, "pool_lock", "services/mempool.c", "memory pools and their blocks") \
    X(LOCK_CACHEALLOC, "cache_lock", "core/cachealloc.c", "the caching allocator: segments, blocks, pools, counters") \
    X(LOCK_HOSTMEM, "hostmem_lock", "services/hostmem.c", "registered host memory, managed memory") \
    X(LOCK_QUARANTINE, "quar_lock", "core/quarantine.c", "freed memory held from reuse while tasks may use it") \
    X(LOCK_IPCMEM, "ipcmem_lock", "services/ipcmem.c", "IPC memory this process exported or imported") \
    X(LOCK_DEVMEM, "mem_lock", "services/devmem.c", "device memory blocks") \
    X(LOCK_IPC, "ipc_lock", "services/ipcshm.c", "this process's IPC table, allow-lists, peers' tables") \
    X(LOCK_PROFSUB, "sub_lock", "services/profsub.c", "profiling subscriptions") \
    X(LOCK_HANDLE, "handle table lock", "core/handle.c", "one object type's handle table") \
    X(LOCK_PROF_GROW, "grow_lock", "services/profile.c", "growing the profiler's storage, ahead of use") \
    X(LOCK_STREAM, "stream->lock (S)", "core/stream.c", "a stream's queue and state") \
    X(LOCK_EVENT, "event->lock (S)", "core/event.c", "an event's or notify's records and waiters") \
    X(LOCK_VALUE_WAIT, "val_lock (S)", "engine/memtask.c", "the streams parked on a value (aclrtValueWait)") \
    X(LOCK_WATCHDOG, "wd_lock (S)", "engine/hang.c", "the watchdog's list of timed waits") \
    X(LOCK_ENGINE, "engine->lock (S)", "engine/sched.c", "the ready set and the parked workers") \
    X(LOCK_PROF, "prof_lock (S)", "services/profile.c", "proc.lock: the live profile session") \
    X(LOCK_KERNEL_COST, "cost_lock (S)", "core/kernel.c", "every kernel function's cost")

enum lock_rank {
    LOCK_UNRANKED = 0, /* an uninitialised lock: taking it aborts */
#define ACLCPU_LOCK_RANK_ENUM(rank, name, where, guards) rank,
    ACLCPU_LOCK_RANKS(ACLCPU_LOCK_RANK_ENUM)
#undef ACLCPU_LOCK_RANK_ENUM
    LOCK_RANK_COUNT
};

#endif
