/*
 * kernel_ops.h - host-side launchers for the sample kernels
 * (example/kernel_func/kernel_ops.h), in C.
 *
 * The vendor's samples call EasyOP(blockDim, stream, x) and friends, which
 * launch Ascend C kernels with <<<blockDim, nullptr, stream>>>. Here the
 * kernels live in libexample_kernels.so (kernels/kernels.c) and are
 * loaded the Ascend way:
 *
 *     aclrtBinaryLoadFromFile("libexample_kernels.so", NULL, &bin);
 *     aclrtBinaryGetFunction(bin, "EasyOP", &fn);
 *     aclrtLaunchKernel(fn, blockDim, &x, sizeof(x), stream);
 *
 * A sample calls SetKernelLibrary(argc, argv) first, LoadKernels() once it
 * has a context, the launchers, and UnloadKernels() before it lets the
 * context go.
 *
 * WriteDo, ReadDo and PrintDo launch kernels that print. As on the device,
 * their text is collected in a print buffer and written to stdout later:
 * by UnloadKernels, which the samples call just before the device reset
 * where the vendor's runtime prints it (kernels/device_print.h).
 */
#ifndef ACLCPU_EXAMPLES_KERNEL_OPS_H
#define ACLCPU_EXAMPLES_KERNEL_OPS_H

#include <stdint.h>

#include <acl/acl.h>

/* Chooses the kernel library: argv[1] if given, else the environment
 * variable ACLCPU_EXAMPLE_KERNELS, else the path the build compiled in. */
void SetKernelLibrary(int argc, char **argv);

/* Loads the kernel library and looks up EasyOP, ShortOP, LongOP, ErrorOP,
 * DeviceWrite, DeviceRead and KernelPrint. */
aclError LoadKernels(void);

/* Writes what the kernels printed to stdout, then unloads the kernel
 * library; the function handles become invalid. Call it once the streams
 * that launched the printing kernels have finished or been destroyed. */
aclError UnloadKernels(void);

/* Each launches its kernel on blockDim blocks of `stream` (NULL: the
 * default stream) with the device buffer x. Like a <<<>>> launch they
 * return nothing; a launch the runtime refuses prints an [ERROR] line. */
void EasyOP(uint32_t blockDim, aclrtStream stream, int32_t *x);   /* x[block_idx] += 1 */
void ShortOP(uint32_t blockDim, aclrtStream stream, int32_t *x);  /* x[block_idx] *= 2 */
void LongOP(uint32_t blockDim, aclrtStream stream, int32_t *x);   /* about 1.3 s, then x[block_idx] += 1 */
void ErrorOP(uint32_t blockDim, aclrtStream stream, int32_t *x);  /* traps: the task fails with 507035 */

/* devPtr[block_idx] = value; prints "Source data: <value>". */
void WriteDo(uint32_t blockDim, aclrtStream stream, int32_t *devPtr, int32_t value);
/* Prints "Destination data: <devPtr[block_idx]>". */
void ReadDo(uint32_t blockDim, aclrtStream stream, int32_t *devPtr);
/* Every block prints "Hello World". */
void PrintDo(uint32_t blockDim, aclrtStream stream);

#endif /* ACLCPU_EXAMPLES_KERNEL_OPS_H */
