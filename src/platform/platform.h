/*
 * platform.h - the only door to the operating system.
 *
 * Threads, locks, futex waits, clocks, CPU relax and dynamic loading all go
 * through here so that no other file includes pthread or Linux headers.
 * Lock, unlock and wait return void and abort on an OS error: such an error
 * is a bug in aclcpu, not something a caller could handle (libuv's rule).
 * Only the *_create functions report failure. Atomic accesses are named
 * by their memory order in atomics.h, which this header includes.
 */
#ifndef ACLCPU_PLATFORM_H
#define ACLCPU_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "atomics.h"

/*
 * Lock checks (debug builds: ACLCPU_LOCK_CHECKS=1, set by CMake for
 * CMAKE_BUILD_TYPE=Debug). Each lock carries its rank (common/lockrank.h)
 * and its owner; a per-thread stack of held locks aborts the process, with
 * a message naming both locks, on an acquisition out of rank order, on a
 * mutex taken under a spinlock, on an unlock by a thread that does not
 * hold the lock, and where PLAT_ASSERT_HELD or PLAT_ASSERT_NO_SPIN fails.
 * Release builds keep none of it: the locks are as small and as fast as
 * without the checks, and the macros compile to nothing.
 */
#ifndef ACLCPU_LOCK_CHECKS
#define ACLCPU_LOCK_CHECKS 0
#endif

struct plat_lock_check {
    _Atomic uint64_t owner; /* plat_thread_self() of the holder, 0 when free */
    uint16_t rank;          /* enum lock_rank */
    bool spin;
};

#if ACLCPU_LOCK_CHECKS
#define PLAT_LOCK_CHECK_FIELD struct plat_lock_check check;
/* Aborts unless the calling thread holds l (a plat_mutex * or plat_spin *).
 * Goes at the top of every *_locked function. */
#define PLAT_ASSERT_HELD(l) plat_lock_assert_held(&(l)->check, #l, __FILE__, __LINE__)
/* Aborts if the calling thread holds any spinlock: what names the work
 * (allocation, formatting, I/O) that must not run under one. */
#define PLAT_ASSERT_NO_SPIN(what) plat_lock_assert_no_spin(what)
void plat_lock_acquiring(struct plat_lock_check *c);
void plat_lock_acquired(struct plat_lock_check *c);
void plat_lock_releasing(struct plat_lock_check *c);
void plat_lock_assert_held(const struct plat_lock_check *c, const char *expr, const char *file, int line);
void plat_lock_assert_no_spin(const char *what);
#else
#define PLAT_LOCK_CHECK_FIELD
#define PLAT_ASSERT_HELD(l) ((void)sizeof(l))
#define PLAT_ASSERT_NO_SPIN(what) ((void)0)
#endif

/* Opaque storage big enough for a pthread mutex / condvar / thread id on
 * every Linux ABI we build for; platform.c checks the sizes statically. */
typedef struct plat_mutex {
    _Alignas(8) unsigned char opaque[48];
    PLAT_LOCK_CHECK_FIELD
} plat_mutex;
typedef struct plat_cond { _Alignas(8) unsigned char opaque[56]; } plat_cond;
typedef struct plat_thread { uint64_t opaque; } plat_thread;

typedef void (*plat_thread_fn)(void *arg);

/* rank: the lock's place in the order (enum lock_rank, common/lockrank.h). */
void plat_mutex_init(plat_mutex *m, unsigned rank);
void plat_mutex_destroy(plat_mutex *m);
void plat_mutex_lock(plat_mutex *m);
void plat_mutex_unlock(plat_mutex *m);

void plat_cond_init(plat_cond *c);
void plat_cond_destroy(plat_cond *c);
void plat_cond_wait(plat_cond *c, plat_mutex *m);
/* Waits until deadline_ns on the monotonic clock; returns false on timeout. */
bool plat_cond_timedwait(plat_cond *c, plat_mutex *m, uint64_t deadline_ns);
void plat_cond_signal(plat_cond *c);
void plat_cond_broadcast(plat_cond *c);

/* Returns 0 or an errno value; the thread runs fn(arg) and is named name. */
int plat_thread_create(plat_thread *t, const char *name, plat_thread_fn fn, void *arg);
void plat_thread_join(plat_thread t);
/* A number that identifies the calling thread, equal to (uint64_t)pthread_self(). */
uint64_t plat_thread_self(void);
/* The kernel's id of the calling thread (gettid), kept per thread after the
 * first call: the "thread id" the runtime's exception information reports.
 * Inline: every launch reads it (one TLS load; initial-exec, as the
 * library's other hot thread-locals). */
#if defined(__GNUC__)
extern _Thread_local uint32_t plat_tls_tid __attribute__((tls_model("initial-exec")));
#else
extern _Thread_local uint32_t plat_tls_tid;
#endif
uint32_t plat_thread_tid_slow(void);
static inline uint32_t plat_thread_tid(void)
{
    uint32_t tid = plat_tls_tid;
    return tid != 0 ? tid : plat_thread_tid_slow();
}
void plat_thread_yield(void);
/* Runs fn when the calling thread exits (once per registration, in the
 * exiting thread). Used to hand per-thread caches back. */
void plat_thread_at_exit(void (*fn)(void));
unsigned plat_cpu_count(void);

/*
 * Futex on a 32-bit word: sleeps while *word == expected, until woken, or
 * until deadline_ns (0 = forever). Returns false only on timeout. Spurious
 * returns are allowed: callers always re-check their condition.
 */
bool plat_futex_wait(_Atomic uint32_t *word, uint32_t expected, uint64_t deadline_ns);
void plat_futex_wake(_Atomic uint32_t *word, int count);
void plat_futex_wake_all(_Atomic uint32_t *word);
/* The same on a word in shared memory (a memory file mapped by several
 * processes): a wake in one process reaches sleepers in every other. */
bool plat_futex_wait_shared(_Atomic uint32_t *word, uint32_t expected, uint64_t deadline_ns);
void plat_futex_wake_all_shared(_Atomic uint32_t *word);

/* Monotonic clock in nanoseconds. */
uint64_t plat_now_ns(void);
/* A cheaper timestamp for the profiler's hot path: the CPU's time-stamp
 * counter where the kernel itself keeps time with it (an invariant TSC
 * synchronised across cores), else plat_now_ns(). Ticks are not ns: map
 * them with two (ns, ticks) pairs read apart. */
uint64_t plat_ticks(void);
/* Deadline helper: now + ms (ms < 0 means no deadline, returns 0). */
uint64_t plat_deadline_ms(int64_t ms);
void plat_sleep_ns(uint64_t ns);

static inline void plat_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#else
    atomic_signal_fence(memory_order_seq_cst);
#endif
}

/* Set once at load (posix.c) when the CPU has PREFETCHW. */
extern bool plat_has_prefetchw;

/* Asks for the cache line at p in a writable state ahead of a write: a
 * hint, with no fault and no ordering. Without PREFETCHW (or off x86) it
 * is a plain read prefetch, which still moves the line closer. */
static inline void plat_prefetch_write(const void *p)
{
#if defined(__x86_64__) || defined(__i386__)
    if (plat_has_prefetchw) {
        __asm__ __volatile__("prefetchw %0" : : "m"(*(const char *)p));
        return;
    }
#endif
    __builtin_prefetch(p, 1, 3);
}

/*
 * A lock for the runtime's hot, tiny critical sections (a stream's queue,
 * an event's record count, the ready set): a few dozen instructions each,
 * taken by launchers and executors millions of times a second. Uncontended
 * it is one atomic exchange each way. Contended, it spins with a pause for
 * about a microsecond (the holder is almost always about to release) and
 * only then sleeps on a futex: 0 = free, 1 = held, 2 = held with sleepers,
 * so an unlock makes a syscall only when someone actually sleeps (the
 * holder may have been preempted on a machine with fewer cores than
 * threads). Never hold one across anything that can block.
 */
typedef struct plat_spin {
    _Atomic uint32_t locked;
    PLAT_LOCK_CHECK_FIELD
} plat_spin;

void plat_spin_lock_slow(plat_spin *l);

static inline void plat_spin_init(plat_spin *l, unsigned rank)
{
    atomic_init(&l->locked, 0);
#if ACLCPU_LOCK_CHECKS
    atomic_init(&l->check.owner, 0);
    l->check.rank = (uint16_t)rank;
    l->check.spin = true;
#else
    (void)rank;
#endif
}

static inline void plat_spin_lock(plat_spin *l)
{
    uint32_t free_ = 0;
#if ACLCPU_LOCK_CHECKS
    plat_lock_acquiring(&l->check);
#endif
    /* Acquire: the critical section sees what the last holder wrote. A
     * compare-exchange, never an exchange to 1: that would overwrite 2 and
     * lose the wake-up a sleeper is owed. */
    if (!cas_acquire(&l->locked, &free_, 1))
        plat_spin_lock_slow(l);
#if ACLCPU_LOCK_CHECKS
    plat_lock_acquired(&l->check);
#endif
}

void plat_spin_wake(plat_spin *l);

static inline void plat_spin_unlock(plat_spin *l)
{
#if ACLCPU_LOCK_CHECKS
    plat_lock_releasing(&l->check);
#endif
    /* Release: publishes the critical section to the next holder. */
    if (exchange_release(&l->locked, 0) == 2)
        plat_spin_wake(l);
}

/* Dynamic loading: NULL on failure, with plat_dl_error() saying why. */
void *plat_dl_open(const char *path);
void *plat_dl_sym(void *lib, const char *name);
void plat_dl_close(void *lib);
const char *plat_dl_error(void);
/* The symbol that starts exactly at addr: its name (valid while its object
 * is loaded) and size in bytes (0 when the object does not say), and the
 * base address of its object. False if no symbol starts there. */
bool plat_dl_symbol_at(const void *addr, const char **name, size_t *size, void **object_base);
/* Where a code address lies, for a report: its object's path, the
 * nearest symbol before it (NULL when none is exported) and the offset from
 * that symbol (else from the object's base). False if no object holds it. */
bool plat_dl_describe(const void *addr, const char **object, const char **symbol, uintptr_t *offset);
/* The address range a loaded object (from plat_dl_open) spans: the lowest
 * and one past the highest byte of its loaded segments. */
bool plat_dl_extent(void *lib, void **base, size_t *size);
/* Writes len bytes to an anonymous in-memory file; returns its descriptor
 * (or -1) and a path that opens it in path. Close it with plat_close. */
int plat_mem_file(const void *data, size_t len, char *path, size_t cap);
void plat_close(int fd);

/* Address space and memory files (vm.c). Device memory lives here, never
 * in the malloc heap. */
/* Reserves size bytes of address space aligned to align (a power of two),
 * with nothing behind them and no access; NULL if it cannot. */
void *plat_vm_reserve(size_t size, size_t align);
bool plat_vm_release(void *base, size_t size);
/* Installs (once per process) a SIGSEGV/SIGBUS handler that calls hook
 * with the address of every fault, and whether it lies in reserved address
 * space (device memory); the hook may longjmp out (the handler runs with
 * SA_NODEFER). Faults it does not take go to the handler that was there
 * before. */
void plat_vm_fault_hook(void (*hook)(void *addr, bool device_memory));
/* Maps [offset, offset+size) of memory file fd at `at` (inside a reserved
 * range), shared: every mapping of that part of the file sees its bytes. */
bool plat_vm_map_file(void *at, size_t size, int fd, uint64_t offset, bool writable);
/* Turns [at, at+size) back into reserved address space (no access). */
bool plat_vm_unmap_to_reserved(void *at, size_t size);
bool plat_vm_protect(void *at, size_t size, bool readable, bool writable);
/* Asks for huge pages where the host allows them (best effort). */
void plat_vm_advise_huge(void *at, size_t size);
/* Backs [at, at+size) with memory now, so first touches do not fault;
 * false if the kernel cannot (the pages then fault in on first touch). */
bool plat_vm_populate(void *at, size_t size);
/* A new anonymous memory file of size bytes (sparse), close-on-exec; -1 on
 * failure. Never named in the file system. */
int plat_memfd(const char *name, uint64_t size);
/* Opens descriptor fd of process pid (a memory file it shares); -1 when
 * the process, the descriptor or the permission is not there. */
int plat_peer_fd_open(int32_t pid, int fd);
/* The size of a memory (or regular) file; -1 for anything else. */
int64_t plat_fd_size(int fd);
/* Maps size bytes of memory file fd (from offset 0) anywhere, shared and
 * writable; NULL on failure. Undo with plat_vm_release. */
void *plat_vm_map_shared(int fd, size_t size);
/* The 64-bit word of device memory at p, read while a task or the host may
 * be writing it (a value wait's poll, as the device's monitor watches a
 * word). seq_cst when p is aligned; bytewise otherwise. Under TSan the read
 * is not recorded: the racing writer is an ordinary copy of the program's
 * data, and the poll re-reads until it sees the value it waits for. */
uint64_t plat_vm_watch_load(const void *p);
/* A random 64-bit number from the kernel (0 if none could be had). */
uint64_t plat_random64(void);
int32_t plat_pid(void);
/* The host's physical memory in bytes. */
uint64_t plat_host_memory_bytes(void);
/* This host, as a number the processes of one boot of it share (a hash of
 * the kernel's boot id; of the host name where there is none). */
uint64_t plat_host_id(void);
/* Whether [p, p + n) lies in the calling thread's stack, in its live part:
 * between the caller's frame and the stack's top. */
bool plat_in_caller_stack(const void *p, size_t n);
bool plat_pid_alive(int32_t pid);

/* Environment lookups in one place, so configuration is easy to audit. */
const char *plat_getenv(const char *name);

/* Files: the working directory (false if it does not fit); makes path and
 * its parents as directories and checks the last is writable (false with
 * errno set otherwise). */
bool plat_getcwd(char *buf, size_t cap);
bool plat_make_dirs(const char *path);
/* Writes all of data to fd (a pipe, say); false on an error. */
bool plat_write_all(int fd, const void *data, size_t len);

#endif
