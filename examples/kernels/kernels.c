/*
 * kernels.c - the kernels of the CANN runtime samples (example/kernel_func),
 * written as aclcpu kernels and built into libexample_kernels.so.
 * EasyOP, ShortOP, LongOP, ErrorOP take one device pointer; DeviceWrite,
 * DeviceRead and KernelPrint (the memory samples' kernels) print, and take
 * the address of the print buffer too (kernels/device_print.h).
 *
 * On the device these are Ascend C kernels launched with <<<...>>>. On
 * aclcpu a kernel is a plain C function `void kernel(void *args)`: every
 * block of a launch calls it, aclcpuGetBlockIdx() says which block it is,
 * and `args` points to the runtime's copy of the bytes given to
 * aclrtLaunchKernel. Here those bytes are one device pointer, passed as
 * aclrtLaunchKernel(fn, numBlocks, &devPtr, sizeof(devPtr), stream).
 *
 * The samples load this library with aclrtBinaryLoadFromFile and find the
 * kernels by name with aclrtBinaryGetFunction, so the symbols are exported
 * (the project builds with hidden visibility by default).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <time.h>

#include <aclcpu/aclcpu.h>

#include "device_print.h"

#define KERNEL __attribute__((visibility("default")))

/* LongOP runs at least this long, so that the samples' 1000 ms timeouts
 * (2_multi_stream) really expire and "before synchronize" queries
 * (0_event_status) really see it running. */
#define LONG_OP_SECONDS 1.3

/* The device buffer the kernel works on: the pointer stored in its args. */
static int32_t *buffer_of(void *args) { return *(int32_t *const *)args; }

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* x[block_idx] += 1 */
KERNEL void EasyOP(void *args)
{
    int32_t *x = buffer_of(args);
    x[aclcpuGetBlockIdx()] += 1;
}

/* x[block_idx] *= 2 */
KERNEL void ShortOP(void *args)
{
    int32_t *x = buffer_of(args);
    x[aclcpuGetBlockIdx()] *= 2;
}

/*
 * A long floating-point loop, then x[block_idx] += 1.
 *
 * The vendor's kernel runs a fixed number of iterations, which takes long
 * enough on an AI core. A CPU may be much faster or slower (or run under a
 * sanitizer), so this one keeps doing chunks of the same float arithmetic
 * until LONG_OP_SECONDS have passed. The final value of the computation
 * decides the increment, so the compiler cannot drop the loop.
 */
KERNEL void LongOP(void *args)
{
    int32_t *x = buffer_of(args);
    uint32_t idx = aclcpuGetBlockIdx();
    double start = now_seconds();
    float temp = 0.0f;

    do {
        temp += 0.00002f;
        temp *= 0.02f;
        for (int j = 0; j < 25000; j++) {
            temp = temp * temp - 0.000002f;
            temp = temp + (temp * 0.05f);
            temp = temp * temp + 0.00001f;
            temp = temp > 1.0f ? 0.0f : temp;
        }
        temp -= 0.00003f * temp;
    } while (now_seconds() - start < LONG_OP_SECONDS);
    x[idx] += temp > 0.0f ? 1 : 0;
}

/* Raises a device exception, like the trap instruction on a core; the task
 * fails with 507035 (vector core exception). */
KERNEL void ErrorOP(void *args)
{
    (void)args;
    aclcpuTrap();
}

/* devPtr[block_idx] = value, and print the value written. */
KERNEL void DeviceWrite(void *args)
{
    const struct ValueArgs *a = args;
    a->devPtr[aclcpuGetBlockIdx()] = a->value;
    DevicePrintf(a->print, "Source data: %d\n", (int)a->value);
}

/* Print devPtr[block_idx]. */
KERNEL void DeviceRead(void *args)
{
    const struct ValueArgs *a = args;
    DevicePrintf(a->print, "Destination data: %d\n", (int)a->devPtr[aclcpuGetBlockIdx()]);
}

/* Every block prints a greeting; the only argument is the print buffer. */
KERNEL void KernelPrint(void *args)
{
    struct DevicePrintBuffer *print = *(struct DevicePrintBuffer *const *)args;
    DevicePrintf(print, "Hello World\n");
}
