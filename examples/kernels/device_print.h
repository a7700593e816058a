/*
 * device_print.h - the print buffer of the sample kernels: how their
 * "printf" (Ascend C's AscendC::printf) reaches the host.
 *
 * On the device a kernel's printf does not write to the terminal. It
 * appends its text to a buffer in device memory whose address the runtime
 * adds to the kernel's arguments; the runtime's printf thread on the host
 * reads that buffer and prints it - every 200 ms, and once more when the
 * device is reset (the reference: src/runtime/core/src/device/raw_device.cc
 * ParsePrintInfo; src/runtime/core/src/runtime.cc PrimaryContextRelease,
 * which calls WaitForParsePrintf). The samples run for far less than
 * 200 ms, so everything their kernels print comes out at the reset, after
 * all of the host's own lines: that is the order their READMEs show.
 *
 * aclcpu has no such buffer, so the samples' kernel library keeps one:
 * the launchers (kernel_ops.c) pass its address in the kernel's argument
 * block, a kernel formats its text and appends it (DevicePrintf), and
 * UnloadKernels, which a sample calls just before it resets the device,
 * writes what was collected to stdout (DevicePrintFlush).
 *
 * Threads: kernels of any block and stream append at once (an atomic
 * reservation of bytes; no lock); only the host thread flushes, after the
 * streams that launched have finished.
 */
#ifndef ACLCPU_EXAMPLES_DEVICE_PRINT_H
#define ACLCPU_EXAMPLES_DEVICE_PRINT_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define DEVICE_PRINT_CAPACITY 65536u
#define DEVICE_PRINT_LINE_MAX 512u

struct DevicePrintBuffer {
    _Atomic size_t used;                /* bytes reserved so far; may pass the capacity */
    char text[DEVICE_PRINT_CAPACITY];
};

/* The argument block of DeviceWrite and DeviceRead, as the launchers fill
 * it: the buffer, the value to write (DeviceWrite only), and where printed
 * text goes. KernelPrint's block is the print buffer's address alone. */
struct ValueArgs {
    int32_t *devPtr;
    int32_t value;
    struct DevicePrintBuffer *print;
};

/* Kernel side: appends one formatted message. What does not fit in the
 * buffer is dropped, as the device drops what overflows its print FIFO. */
__attribute__((format(printf, 2, 3))) static inline void DevicePrintf(struct DevicePrintBuffer *buf,
                                                                      const char *fmt, ...)
{
    char line[DEVICE_PRINT_LINE_MAX];
    va_list ap;
    int n;
    size_t len, at;

    va_start(ap, fmt);
    n = vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    if (n <= 0)
        return;
    len = (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1;
    /* Relaxed: the reservation only hands out disjoint ranges; the text is
     * published to the host by the stream's completion, which the flush
     * waits for (a destroy or a sync). */
    at = atomic_fetch_add_explicit(&buf->used, len, memory_order_relaxed);
    if (at < DEVICE_PRINT_CAPACITY && len <= DEVICE_PRINT_CAPACITY - at)
        memcpy(buf->text + at, line, len);
}

/* Host side: writes what the kernels printed to stdout and empties the
 * buffer. Call it only once the streams that launched have finished. */
static inline void DevicePrintFlush(struct DevicePrintBuffer *buf)
{
    size_t used = atomic_load_explicit(&buf->used, memory_order_relaxed);
    if (used > DEVICE_PRINT_CAPACITY)
        used = DEVICE_PRINT_CAPACITY;
    fwrite(buf->text, 1, used, stdout);
    fflush(stdout);
    atomic_store_explicit(&buf->used, 0, memory_order_relaxed);
}

#endif /* ACLCPU_EXAMPLES_DEVICE_PRINT_H */
