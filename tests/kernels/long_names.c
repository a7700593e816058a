/*
 * long_names.c - a kernel module for the tests of kernel names at the
 * length a kernel handle holds: 127 bytes and the NUL. Its two kernels
 * have names of 127 bytes (found) and 128 bytes (one past: not found, not
 * cut to a name it does not have). test_kernel.c builds the names as
 * 126 or 127 'k's and a last digit.
 */
#define KERNEL __attribute__((visibility("default")))

KERNEL void kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk7(void *args) { (void)args; }

KERNEL void kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk8(void *args) { (void)args; }
