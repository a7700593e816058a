/*
 * 0_reduce_task - the CANN runtime sample
 * example/2_advanced_features/built_in_task/0_reduce_task, in C on aclcpu.
 *
 * Two device buffers both hold {1, 2, 3, 4}; aclrtReduceAsync with SUM
 * adds the first into the second on a stream (a built-in task: no kernel
 * of the user's), and after the sync the second holds {2, 4, 6, 8}.
 */
#include <stdio.h>

#include <acl/acl.h>

#include "../utils.h"

int main(void)
{
    enum { N = 4 };
    const float input[N] = {1.0f, 2.0f, 3.0f, 4.0f};
    float output[N] = {0};
    const size_t bytes = sizeof(input);
    aclrtStream stream = NULL;
    void *src = NULL, *dst = NULL;

    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(0));
    CHECK_ERROR(aclrtCreateStream(&stream));
    CHECK_ERROR(aclrtMalloc(&src, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMalloc(&dst, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    /* The same numbers in both: the reduction adds src into dst. */
    CHECK_ERROR(aclrtMemcpy(src, bytes, input, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ERROR(aclrtMemcpy(dst, bytes, input, bytes, ACL_MEMCPY_HOST_TO_DEVICE));

    CHECK_ERROR(aclrtReduceAsync(dst, src, bytes, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, stream, NULL));
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    CHECK_ERROR(aclrtMemcpy(output, bytes, dst, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < N; i++)
        printf("Reduce SUM result[%d] = %f\n", i, output[i]);

    /* Released as the vendor's sample does, results unchecked. */
    aclrtFree(src);
    aclrtFree(dst);
    aclrtDestroyStream(stream);
    aclrtResetDeviceForce(0);
    aclFinalize();
    printf("Sample Run Successfully.\n");
    return 0;
}
