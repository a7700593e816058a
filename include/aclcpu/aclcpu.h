/*
 * aclcpu/aclcpu.h - aclcpu's own extensions to the CANN runtime API.
 *
 * On aclcpu a kernel is a plain C function, void kernel(void *args), run on
 * host worker threads that play the device's cores. The calls below give a
 * kernel its block coordinates and let it raise the failures a real core
 * can raise, let a program register kernels and device symbols it
 * contains, and turn error codes into text.
 */
#ifndef ACLCPU_ACLCPU_ACLCPU_H_
#define ACLCPU_ACLCPU_ACLCPU_H_

#include <stddef.h>
#include <stdint.h>

#include <acl/acl_base.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Exports an aclcpu extension (the library builds with hidden visibility). */
#define ACLCPU_API __attribute__((visibility("default")))

/* Marks a function that never returns; accepted by C and C++ compilers alike. */
#define ACLCPU_NORETURN __attribute__((noreturn))

/*
 * A kernel as aclcpu runs it: every block of a launch calls it with the
 * same args, which points to the launch's own copy of the kernel arguments,
 * taken when the launch was issued.
 */
typedef void (*aclcpuKernelFn)(void *args);

/*
 * Returns the index of the block the calling thread is running, from 0 to
 * aclcpuGetBlockNum() - 1, like Ascend C's GetBlockIdx(). Outside a kernel
 * it returns 0.
 */
ACLCPU_API uint32_t aclcpuGetBlockIdx(void);

/*
 * Returns the number of blocks (numBlocks) of the kernel launch the calling
 * thread is running, like Ascend C's GetBlockNum(). Outside a kernel it
 * returns 0.
 */
ACLCPU_API uint32_t aclcpuGetBlockNum(void);

/*
 * Ends the calling kernel block with a device exception, like the trap
 * instruction on a core. The task fails with the code the device reports for the
 * engine it ran on (ACL_ERROR_RT_VECTOR_CORE_EXCEPTION for vector kernels,
 * ACL_ERROR_RT_AICORE_EXCEPTION for cube kernels) and the stream's failure
 * mode applies. Called outside a kernel, it aborts the process.
 */
ACLCPU_API ACLCPU_NORETURN void aclcpuTrap(void);

/*
 * Marks the calling kernel's task as having overflowed; the overflow is
 * reported only if the stream's overflow switch is on. Outside a kernel it
 * does nothing.
 */
ACLCPU_API void aclcpuSetOverflow(void);

/*
 * Registers a kernel that lives in the program itself under a name and
 * returns a function handle usable with every aclrtLaunchKernel* call,
 * without loading a binary. Returns ACL_SUCCESS, or ACL_ERROR_INVALID_PARAM
 * if name, fn or funcHandle is NULL.
 */
ACLCPU_API aclError aclcpuRegisterKernel(const char *name, aclcpuKernelFn fn, aclrtFuncHandle *funcHandle);

/*
 * Registers the size bytes at symbol, a writable variable of the program,
 * as a device symbol: a global that kernels use, which
 * aclrtGetSymbolAddress, aclrtGetSymbolSize and the aclrtMemcpy*Symbol*
 * calls take (a kernel runs on the host, so the symbol's device address is
 * the variable's own address). name (may be NULL; cut to 63 bytes) names
 * it in messages. Registering a symbol again with the same size succeeds;
 * with another size it gives ACL_ERROR_INVALID_PARAM, as do a NULL symbol
 * and a size of 0. Registrations are the process's: they outlive
 * aclFinalize and end with aclcpuUnregisterSymbol.
 */
ACLCPU_API aclError aclcpuRegisterSymbol(const void *symbol, size_t size, const char *name);

/*
 * Ends symbol's registration (do so before its storage goes, for example
 * before unloading the shared object it lives in). ACL_ERROR_INVALID_PARAM
 * if symbol is NULL, ACL_ERROR_RT_INVALID_SYMBOL if it is not registered.
 * Copies already queued to or from it still run.
 */
ACLCPU_API aclError aclcpuUnregisterSymbol(const void *symbol);

/*
 * Returns the symbolic name of an error code, for example
 * "ACL_ERROR_RT_PARAM_INVALID" for 107000. Never returns NULL: a code not in
 * aclcpu's table gets a fixed string saying it is unknown. The string has
 * static storage.
 */
ACLCPU_API const char *aclcpuGetErrorName(aclError code);

/*
 * Returns a one-line English description of an error code, for example
 * "an argument has an invalid value" for 107000. Never returns NULL: a code
 * not in aclcpu's table gets a fixed string saying it is unknown. The string
 * has static storage.
 */
ACLCPU_API const char *aclcpuGetErrorString(aclError code);

/*
 * The modelled cost of a kernel, for the profiler's model of the SoC
 * (ACLCPU_PROFILE, aclprofStart). A launch with numBlocks blocks costs
 * usLaunch once (its first blocks carry it: the scheduler's setup, paid in
 * whatever wave count the free cores give), and each block computes for
 * usFixed + usTotal / numBlocks microseconds on one core, after reading
 * its share of hbmBytes from device memory (HBM is shared by everything
 * reading at once; a block reads at most the SoC's per-core share, and a
 * few cores less than all already saturate it; bytes a prefetch put in L2
 * are not read again). With mix = 1 the kernel is a mix kernel: each cube
 * block comes with two vector blocks (ENGINE_TYPE AIC: MIX_AIC), or each
 * two vector blocks with one cube block (AIV: MIX_AIV). A kernel with no
 * declared cost costs its measured CPU time per block.
 *
 * Fitting two measured points (docs/model.md): an op that takes T1 tiled
 * for all N cores and T2 tiled for N/2 is {usLaunch = 2 T1 - T2, usTotal =
 * N (T2 - T1)}; tiled for N blocks on N/2 free cores it then takes T2, as
 * on the chip. A bandwidth-bound one reading 20 MB is {hbmBytes = 20e6}.
 * usFixed (per block, paid again in every wave) is for work each block
 * repeats whatever the tiling.
 */
typedef struct aclcpuKernelCost {
    double usFixed;
    double usTotal;
    uint64_t hbmBytes;
    uint32_t mix;
    uint32_t reserved[1]; /* 0 */
    double usLaunch;
} aclcpuKernelCost;

/* Declares funcHandle's cost (NULL cost: back to measured). A stale or
 * foreign handle -> 107017; a negative or non-finite time, mix > 1 or the
 * reserved field not 0 -> 100000. Costs apply to launches issued after. */
ACLCPU_API aclError aclcpuSetKernelCost(aclrtFuncHandle funcHandle, const aclcpuKernelCost *cost);

/*
 * The caching allocator: the C form of the stream-ordered caching allocator
 * frameworks put over aclrtMalloc (torch_npu's), for programs that allocate
 * often. docs/allocator-cache.md has the rules and an example.
 *
 * aclcpuCacheMalloc hands out a block of at least size bytes for use on
 * stream (NULL: the current context's default stream), which must be of the
 * current device. Blocks come from segments the cache takes with
 * aclrtMalloc's memory and keeps: requests are rounded up to 512 bytes; up
 * to 1 MiB they come from 2 MiB segments, larger ones below 10 MiB from
 * 20 MiB segments, the rest from a segment of their own rounded up to
 * 2 MiB. A segment belongs to the stream that made it.
 *
 * aclcpuCacheFree gives a block back to its stream's cache: the next
 * request on that stream may get it at once, since the stream runs its
 * work in order. If other streams use the block, say so first with
 * aclcpuCacheRecordStream (the C form of tensor.record_stream): the block
 * is then reused only once each of them has done the work queued to it
 * when the block was freed. aclcpuCacheEraseStream takes a stream off a
 * block's users again (also after the free: the block need not wait for
 * that stream any more). Free a block with aclcpuCacheFree, never with
 * aclrtFree.
 *
 * aclcpuCacheEmpty gives every wholly free segment of a device back to
 * its memory (aclrtGetMemInfo shows it free again); blocks still waiting
 * for other streams stay. Statistics are per device or per stream.
 *
 * Errors: a NULL pointer argument, a size of 0 or too large: 100000; a
 * stream handle that names no live stream: 107017; no current context:
 * 107002; a stream of another device than the current one (malloc) or the
 * block's (record, erase): 107000; freeing a pointer the cache did not
 * hand out or freed already: 207002; record or erase of such a pointer:
 * 107000; a device id out of range: 107001; out of device memory: 207001.
 */
typedef struct aclcpuCacheStats {
    uint64_t allocatedBytes;     /* bytes in blocks handed out (rounded sizes) */
    uint64_t requestedBytes;     /* the bytes those blocks were asked for */
    uint64_t reservedBytes;      /* bytes in segments the cache holds */
    uint64_t peakAllocatedBytes; /* the most allocatedBytes has been */
    uint64_t peakReservedBytes;  /* the most reservedBytes has been */
    uint64_t activeBlocks;       /* blocks handed out and not freed */
    uint64_t pendingBlocks;      /* freed blocks waiting for recorded streams */
    uint64_t segments;           /* segments the cache holds */
    uint64_t allocations;        /* blocks handed out, ever */
    uint64_t segmentAllocations; /* segments taken from device memory, ever */
    uint64_t segmentFrees;       /* segments given back, ever */
    uint64_t reserved[5];        /* 0 */
} aclcpuCacheStats;

ACLCPU_API aclError aclcpuCacheMalloc(void **devPtr, size_t size, aclrtStream stream);
ACLCPU_API aclError aclcpuCacheFree(void *devPtr);
ACLCPU_API aclError aclcpuCacheRecordStream(void *devPtr, aclrtStream stream);
ACLCPU_API aclError aclcpuCacheEraseStream(void *devPtr, aclrtStream stream);
/* The counters of device deviceId (all its streams), or of one stream
 * (NULL: the current context's default stream). */
ACLCPU_API aclError aclcpuCacheGetStats(int32_t deviceId, aclcpuCacheStats *stats);
ACLCPU_API aclError aclcpuCacheGetStreamStats(aclrtStream stream, aclcpuCacheStats *stats);
ACLCPU_API aclError aclcpuCacheEmpty(int32_t deviceId);

/*
 * The race and lifetime checker (docs/checker.md). ACLCPU_CHECK=1 turns it
 * on without a code change; aclcpuCheckEnable does the same from the
 * program, and should be called before aclInit (work issued before it is
 * not seen). It reports on stderr, each report starting "==aclcpu-check==".
 * ACLCPU_CHECK_EXIT: a process that drew reports exits with 66 at exit;
 * ACLCPU_CHECK_REPORT keeps the program's exit code. The checker cannot be
 * turned off again; a later call only changes the mode. Any other mode ->
 * 100000.
 */
typedef enum aclcpuCheckMode {
    ACLCPU_CHECK_EXIT = 1,
    ACLCPU_CHECK_REPORT = 2,
} aclcpuCheckMode;

ACLCPU_API aclError aclcpuCheckEnable(aclcpuCheckMode mode);

/* The number of distinct reports the checker made so far (0 while it is
 * off). NULL count -> 100000. */
ACLCPU_API aclError aclcpuCheckGetReportCount(uint64_t *count);

/*
 * Declares what a kernel touches through its argument block, so that the
 * checker needs no guess: argument word argIndex (the 8 bytes at offset
 * 8 * argIndex) is a pointer the kernel reads, writes or both, over
 * size bytes, or, with sizeArgIndex >= 0, over size times the integer in
 * argument word sizeArgIndex (size is then the element size). Once a
 * kernel has a declaration, its undeclared words are taken as no memory
 * it touches; without one, every word pointing into device memory counts
 * as a read and a write of its whole allocation. Up to 16 words per
 * kernel; declaring a word again replaces its declaration.
 * Errors (100000): funcHandle NULL or no live kernel; argIndex above 511;
 * access not READ, WRITE or READ_WRITE; size 0; sizeArgIndex below -1 or
 * above 511; a 17th word.
 */
typedef enum aclcpuCheckAccess {
    ACLCPU_CHECK_READ = 1,
    ACLCPU_CHECK_WRITE = 2,
    ACLCPU_CHECK_READ_WRITE = 3,
} aclcpuCheckAccess;

ACLCPU_API aclError aclcpuCheckDeclareArg(aclrtFuncHandle funcHandle, uint32_t argIndex, aclcpuCheckAccess access,
                                          size_t size, int32_t sizeArgIndex);

#ifdef __cplusplus
}
#endif

#endif /* ACLCPU_ACLCPU_ACLCPU_H_ */
