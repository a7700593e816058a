/*
 * aclcpu/aclcpu.h - aclcpu's own extensions to the CANN runtime API.
 *
 * On aclcpu a kernel is a plain C function, void kernel(void *args), run on
 * host worker threads that play the device's cores. The calls below give a
 * kernel its block coordinates and let it raise the failures a real core
 * can raise, let a program register kernels it contains, and turn error
 * codes into text.
 */
#ifndef ACLCPU_ACLCPU_ACLCPU_H_
#define ACLCPU_ACLCPU_ACLCPU_H_

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
 * instruction on a core. The task fails with the code the spec gives for the
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

#ifdef __cplusplus
}
#endif

#endif /* ACLCPU_ACLCPU_ACLCPU_H_ */
