/*
 * helpers.c - small helpers the test suites share.
 */
#include <time.h>

#include "test.h"

void t_setup(void)
{
    aclError rc = aclInit(NULL);
    if (rc != ACL_SUCCESS && rc != ACL_ERROR_REPEAT_INITIALIZE)
        test_fail(__FILE__, __LINE__, "aclInit returned %d", rc);
    rc = aclrtSetDevice(0);
    if (rc != ACL_SUCCESS)
        test_fail(__FILE__, __LINE__, "aclrtSetDevice(0) returned %d", rc);
}

void t_teardown(void)
{
    aclrtResetDeviceForce(0);
    aclFinalize();
}

uint64_t t_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

aclrtFuncHandle t_kernel(const char *name, aclcpuKernelFn fn)
{
    aclrtFuncHandle h = NULL;
    aclError rc = aclcpuRegisterKernel(name, fn, &h);
    if (rc != ACL_SUCCESS)
        test_fail(__FILE__, __LINE__, "aclcpuRegisterKernel(%s) returned %d", name, rc);
    return h;
}
