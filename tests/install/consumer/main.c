/*
 * main.c - a program that uses an installed aclcpu the way a CANN program
 * would: the CANN headers, the aclcpu extension header, a device, a stream,
 * a kernel registered from the program, a launch and a synchronize.
 * Prints OK and exits 0 when the kernel's results are right.
 */
#include <stdint.h>
#include <stdio.h>

#include <acl/acl.h>
#include <aclcpu/aclcpu.h>

#define BLOCKS 64

struct fill_args {
    int32_t *out;
    int32_t add;
};

/* Each block writes its own element: out[i] = 2 * i + add. */
static void fill(void *p)
{
    const struct fill_args *a = p;
    uint32_t i = aclcpuGetBlockIdx();
    a->out[i] = 2 * (int32_t)i + a->add;
}

#define CHECK(call)                                                                                          \
    do {                                                                                                     \
        aclError rc_ = (call);                                                                               \
        if (rc_ != ACL_SUCCESS) {                                                                            \
            fprintf(stderr, "%s:%d: %s returned %d (%s)\n", __FILE__, __LINE__, #call, (int)rc_,             \
                    aclcpuGetErrorName(rc_));                                                                \
            return 1;                                                                                        \
        }                                                                                                    \
    } while (0)

int main(void)
{
    aclrtStream stream = NULL;
    aclrtFuncHandle kernel = NULL;
    void *dev = NULL;
    int32_t host[BLOCKS];
    struct fill_args args;

    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&stream));
    CHECK(aclcpuRegisterKernel("install_check_fill", fill, &kernel));
    CHECK(aclrtMalloc(&dev, sizeof(host), ACL_MEM_MALLOC_HUGE_FIRST));
    args.out = dev;
    args.add = 7;
    CHECK(aclrtLaunchKernelWithHostArgs(kernel, BLOCKS, stream, NULL, &args, sizeof(args), NULL, 0));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(host, sizeof(host), dev, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < BLOCKS; i++) {
        if (host[i] != 2 * i + 7) {
            fprintf(stderr, "block %d wrote %d, want %d\n", i, (int)host[i], 2 * i + 7);
            return 1;
        }
    }
    CHECK(aclrtFree(dev));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("OK\n");
    return 0;
}
