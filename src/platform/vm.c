/*
 * vm.c - address space and shared memory files on Linux.
 *
 * DESIGN: device memory lives in mappings of its own, never in the host's
 * malloc heap: an address range is reserved (no access, no memory behind
 * it), then memory files (memfd) are mapped into it. A memory file is what
 * several mappings - in this process or in another one - share, so a
 * physical allocation mapped twice, or imported by a peer process, shows
 * the same bytes. A peer's file is opened through /proc/<pid>/fd, which
 * the kernel allows to the same user only; nothing is ever named in
 * /dev/shm, so nothing is left behind when a process dies.
 *
 * This file owns every mmap, munmap, madvise and memfd call of the
 * library, and the process's fault handler for reserved ranges: its one
 * piece of state is the table of those ranges (lock-free, read by the
 * handler) and the hook it calls. Any thread may call any function.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "platform.h"

#include "atomics.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* Built with ThreadSanitizer? gcc and clang say so differently. */
#if defined(__SANITIZE_THREAD__)
#define VM_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define VM_TSAN 1
#endif
#endif

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; older kernels say EINVAL */
#endif

/* ---- faults in reserved address space ---------------------------------------
 * Every range plat_vm_reserve hands out is listed in a fixed table the fault
 * handler can read without a lock (a signal handler may take none). A
 * SIGSEGV or SIGBUS at an address inside one goes to the hook the engine
 * installed, which longjmps out of the kernel that caused it when one runs
 * on this thread; everything else goes on to the handler that was there
 * before ours (a sanitizer's, the program's, or the default action). */
#define GUARD_SLOTS 1024

static struct guard {
    _Atomic uintptr_t base, end; /* end 0: free or being filled */
} guards[GUARD_SLOTS];

static void (*fault_hook)(void *addr, bool device_memory);
static struct sigaction old_segv, old_bus;
static pthread_once_t fault_once = PTHREAD_ONCE_INIT;

/* Relaxed throughout: the table is a hint for a handler that runs on the
 * faulting thread; a range listed a moment late only means one more fault
 * goes the default way. */
static void guard_add(void *base, size_t size)
{
    for (unsigned i = 0; i < GUARD_SLOTS; i++) {
        uintptr_t none = 0;
        if (cas_relaxed(&guards[i].base, &none, (uintptr_t)base)) {
            store_relaxed(&guards[i].end, (uintptr_t)base + size);
            return;
        }
    }
    /* Full: this range's faults take the default way. */
}

static void guard_remove(void *base)
{
    for (unsigned i = 0; i < GUARD_SLOTS; i++) {
        if (load_relaxed(&guards[i].base) == (uintptr_t)base) {
            store_relaxed(&guards[i].end, 0);
            store_relaxed(&guards[i].base, 0);
            return;
        }
    }
}

static bool guarded(uintptr_t a)
{
    for (unsigned i = 0; i < GUARD_SLOTS; i++) {
        uintptr_t b = load_relaxed(&guards[i].base);
        if (b != 0 && a >= b && a < load_relaxed(&guards[i].end))
            return true;
    }
    return false;
}

/* Passes a fault we do not take to whoever handled it before us. */
static void chain_fault(int sig, siginfo_t *si, void *uc)
{
    const struct sigaction *old = sig == SIGSEGV ? &old_segv : &old_bus;
    if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction != NULL) {
        old->sa_sigaction(sig, si, uc);
    } else if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
        old->sa_handler(sig);
    } else {
        /* Default (or an ignored fault, which would loop): put the default
         * back; the instruction faults again on return and the process
         * ends as it would have without us. */
        signal(sig, SIG_DFL);
    }
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    if (fault_hook != NULL)
        fault_hook(si->si_addr, guarded((uintptr_t)si->si_addr)); /* longjmps when it takes the fault */
    chain_fault(sig, si, uc);
}

static void install_fault_handler(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_fault;
    /* NODEFER: the hook leaves the handler by longjmp, which would keep the
     * signal blocked on this thread otherwise. ONSTACK: use an alternate
     * stack where the thread has one (a sanitizer's). */
    sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &old_segv);
    sigaction(SIGBUS, &sa, &old_bus);
}

static void (*pending_hook)(void *addr, bool device_memory);

/* ThreadSanitizer cannot follow a longjmp out of a signal handler: in such
 * a build a device fault stays the process's crash. */
#ifdef VM_TSAN
#define VM_TAKES_FAULTS 0
#else
#define VM_TAKES_FAULTS 1
#endif

static void install_once(void)
{
    fault_hook = pending_hook;
    if (VM_TAKES_FAULTS)
        install_fault_handler();
}

void plat_vm_fault_hook(void (*hook)(void *addr, bool device_memory))
{
    pending_hook = hook;
    pthread_once(&fault_once, install_once);
}

void *plat_vm_reserve(size_t size, size_t align)
{
    size_t span = size + align;
    uint8_t *p;
    uintptr_t start;

    if (align == 0 || (align & (align - 1)) != 0 || size > SIZE_MAX - align)
        return NULL;
    p = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    /* Keep the aligned part; give the slack on both sides back. */
    start = ((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1);
    if (start > (uintptr_t)p)
        munmap(p, start - (uintptr_t)p);
    if ((uintptr_t)p + span > start + size)
        munmap((void *)(start + size), (uintptr_t)p + span - (start + size));
    guard_add((void *)start, size);
    return (void *)start;
}

bool plat_vm_release(void *base, size_t size)
{
    guard_remove(base);
    return munmap(base, size) == 0;
}

bool plat_vm_map_file(void *at, size_t size, int fd, uint64_t offset, bool writable)
{
    int prot = PROT_READ | (writable ? PROT_WRITE : 0);
    void *p;

    if (offset > (uint64_t)INT64_MAX)
        return false;
    p = mmap(at, size, prot, MAP_SHARED | MAP_FIXED, fd, (off_t)offset);
    return p == at;
}

bool plat_vm_unmap_to_reserved(void *at, size_t size)
{
    void *p = mmap(at, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    return p == at;
}

bool plat_vm_protect(void *at, size_t size, bool readable, bool writable)
{
    int prot = (readable ? PROT_READ : 0) | (writable ? PROT_WRITE : 0);
    return mprotect(at, size, prot) == 0;
}

void plat_vm_advise_huge(void *at, size_t size)
{
    /* Best effort: where the host allows no huge pages this says EINVAL. */
    (void)madvise(at, size, MADV_HUGEPAGE);
}

bool plat_vm_populate(void *at, size_t size)
{
    return madvise(at, size, MADV_POPULATE_WRITE) == 0;
}

int plat_memfd(const char *name, uint64_t size)
{
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    /* 0600: the file is the user's alone, whatever the umask (a peer
     * opens it through /proc, which checks the mode too). */
    if (size > (uint64_t)INT64_MAX || fchmod(fd, 0600) != 0 || ftruncate(fd, (off_t)size) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

int64_t plat_fd_size(int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? (int64_t)st.st_size : -1;
}

int plat_peer_fd_open(int32_t pid, int fd)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)pid, fd);
    return open(path, O_RDWR | O_CLOEXEC);
}

void *plat_vm_map_shared(int fd, size_t size)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    return p == MAP_FAILED ? NULL : p;
}

uint64_t plat_random64(void)
{
    uint64_t r = 0;
    return getrandom(&r, sizeof(r), 0) == (ssize_t)sizeof(r) ? r : 0;
}

int32_t plat_pid(void)
{
    return (int32_t)getpid();
}

bool plat_pid_alive(int32_t pid)
{
    return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

uint64_t plat_host_memory_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 1ull << 30;
}

bool plat_in_caller_stack(const void *p, size_t n)
{
    pthread_attr_t attr;
    void *lo = NULL;
    size_t size = 0;
    uintptr_t here = (uintptr_t)__builtin_frame_address(0), a = (uintptr_t)p, top;
    if (pthread_getattr_np(pthread_self(), &attr) != 0)
        return false;
    if (pthread_attr_getstack(&attr, &lo, &size) != 0)
        size = 0;
    pthread_attr_destroy(&attr);
    top = (uintptr_t)lo + size;
    return size != 0 && a > here && a < top && n <= top - a;
}

uint64_t plat_host_id(void)
{
    char text[128] = "";
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, text, sizeof(text) - 1) : -1;
    if (fd >= 0)
        close(fd);
    if (n <= 0 && gethostname(text, sizeof(text) - 1) != 0)
        text[0] = '\0';
    for (const char *p = text; *p != '\0' && *p != '\n'; p++)
        h = (h ^ (uint8_t)*p) * 0x100000001b3ull;
    return h;
}

/* ThreadSanitizer's hooks for a read it must not record (libtsan exports
 * them). */
#ifdef VM_TSAN
void AnnotateIgnoreReadsBegin(const char *file, int line);
void AnnotateIgnoreReadsEnd(const char *file, int line);
#define WATCH_BEGIN() AnnotateIgnoreReadsBegin(__FILE__, __LINE__)
#define WATCH_END() AnnotateIgnoreReadsEnd(__FILE__, __LINE__)
#else
#define WATCH_BEGIN() ((void)0)
#define WATCH_END() ((void)0)
#endif

uint64_t plat_vm_watch_load(const void *p)
{
    uint64_t v;
    WATCH_BEGIN();
    /* seq_cst: the waiter's half of the Dekker pairing with a value write
     * (engine_value_written, memtask.c). */
    if (((uintptr_t)p & 7u) == 0)
        v = load_seq_cst((_Atomic uint64_t *)(uintptr_t)p);
    else
        memcpy(&v, p, sizeof(v));
    WATCH_END();
    return v;
}
