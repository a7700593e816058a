/*
 * 1_random_num_task - the CANN runtime sample
 * example/2_advanced_features/built_in_task/1_random_num_task, in C on
 * aclcpu.
 *
 * Five aclrtRandomNumAsync tasks on one stream, sharing one 16-byte
 * counter and seed 0: normal floats (mean 3, stddev 2), truncated normal
 * bfloat16 (mean 1, stddev 2), uniform float16 in [1, 2), uniform int32
 * in [1, 100), and a dropout bitmask (ratio 0.4, given as a float). After
 * each it prints the first five results. The numbers are aclcpu's
 * generator's (Philox4x32-10 from the seed and counter); the vendor's
 * README shows "..." for them, the device's own.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <acl/acl.h>

#include "../utils.h"

/* A parameter given by value: size bytes of v. */
static void by_value(aclrtRandomParaInfo *p, const void *v, uint8_t size)
{
    memset(p, 0, sizeof(*p));
    memcpy(p->valueOrAddr, v, size);
    p->size = size;
    p->isAddr = 0;
}

/* Queues one task: the two parameters of its function (one for the
 * bitmask), each of psize bytes, seed and count by value. */
static aclError random_async(aclDataType type, aclrtRandomNumFuncType func, const void *p1, const void *p2,
                             uint8_t psize, uint64_t seed, uint64_t num, void *counter, void *out,
                             aclrtStream stream)
{
    aclrtRandomNumTaskInfo info;
    aclrtRandomNumFuncParaInfo *fp = &info.randomNumFuncParaInfo;
    memset(&info, 0, sizeof(info));
    info.dataType = type;
    fp->funcType = func;
    info.randomParaAddr = NULL;
    info.randomCounterAddr = counter;
    info.randomResultAddr = out;
    if (func == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK) {
        by_value(&fp->paramInfo.dropoutBitmaskInfo.dropoutRation, p1, psize);
    } else if (func == ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS) {
        by_value(&fp->paramInfo.uniformDisInfo.min, p1, psize);
        by_value(&fp->paramInfo.uniformDisInfo.max, p2, psize);
    } else {
        by_value(&fp->paramInfo.normalDisInfo.mean, p1, psize);
        by_value(&fp->paramInfo.normalDisInfo.stddev, p2, psize);
    }
    by_value(&info.randomSeed, &seed, sizeof(seed));
    by_value(&info.randomNum, &num, sizeof(num));
    return aclrtRandomNumAsync(&info, stream, NULL);
}

int main(void)
{
    const uint64_t seed = 0, num = 128;
    const size_t size = num * sizeof(uint64_t); /* room for any type's results */
    const size_t counterSize = 16;
    aclrtStream stream = NULL;
    void *devOut = NULL, *counter = NULL;
    unsigned char *host;

    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(0));
    CHECK_ERROR(aclrtCreateStream(&stream));
    CHECK_ERROR(aclrtMalloc(&devOut, size, ACL_MEM_MALLOC_HUGE_FIRST));
    host = malloc(size);
    if (host == NULL)
        return -1;
    CHECK_ERROR(aclrtMalloc(&counter, counterSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemset(counter, counterSize, 0, counterSize));

    printf("Gen normal distribution random num, data type: float \n");
    {
        float mean = 3.0f, stddev = 2.0f;
        CHECK_ERROR(random_async(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, &mean, &stddev, sizeof(float),
                                 seed, num, counter, devOut, stream));
        CHECK_ERROR(aclrtSynchronizeStream(stream));
        CHECK_ERROR(aclrtMemcpy(host, size, devOut, size, ACL_MEMCPY_DEVICE_TO_HOST));
        for (int i = 0; i < 5; i++)
            printf("Random result[%d] = %f\n", i, ((float *)host)[i]);
    }

    printf("\nGen truncated normal distribution random num, data type: BF16 \n");
    {
        uint16_t mean = 0x3F80, stddev = 0x4000; /* bfloat16 1.0 and 2.0 */
        CHECK_ERROR(random_async(ACL_BF16, ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS, &mean, &stddev,
                                 sizeof(uint16_t), seed, num, counter, devOut, stream));
        CHECK_ERROR(aclrtSynchronizeStream(stream));
        CHECK_ERROR(aclrtMemcpy(host, size, devOut, size, ACL_MEMCPY_DEVICE_TO_HOST));
        for (int i = 0; i < 5; i++)
            printf("Random result[%d] = %#x\n", i, ((uint16_t *)host)[i]);
    }

    printf("\nGen uniform distribution random num, data type: FP16 \n");
    {
        uint16_t lo = 0x3C00, hi = 0x4000; /* float16 1.0 and 2.0 */
        CHECK_ERROR(random_async(ACL_FLOAT16, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, &lo, &hi, sizeof(uint16_t),
                                 seed, num, counter, devOut, stream));
        CHECK_ERROR(aclrtSynchronizeStream(stream));
        CHECK_ERROR(aclrtMemcpy(host, size, devOut, size, ACL_MEMCPY_DEVICE_TO_HOST));
        for (int i = 0; i < 5; i++)
            printf("Random result[%d] = %#x\n", i, ((uint16_t *)host)[i]);
    }

    printf("\nGen uniform distribution random num, data type: INT32 \n");
    {
        int32_t lo = 1, hi = 100;
        CHECK_ERROR(random_async(ACL_INT32, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, &lo, &hi, sizeof(int32_t), seed,
                                 num, counter, devOut, stream));
        CHECK_ERROR(aclrtSynchronizeStream(stream));
        CHECK_ERROR(aclrtMemcpy(host, size, devOut, size, ACL_MEMCPY_DEVICE_TO_HOST));
        for (int i = 0; i < 5; i++)
            printf("Random result[%d] = %d\n", i, ((int32_t *)host)[i]);
    }

    printf("\nGen dropout bitmask, output data type: UINT8 \n");
    {
        float ratio = 0.4f;
        CHECK_ERROR(random_async(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK, &ratio, NULL, sizeof(float),
                                 seed, num, counter, devOut, stream));
        CHECK_ERROR(aclrtSynchronizeStream(stream));
        CHECK_ERROR(aclrtMemcpy(host, size, devOut, size, ACL_MEMCPY_DEVICE_TO_HOST));
        for (int i = 0; i < 5; i++)
            printf("Random result[%d] = %u\n", i, host[i]);
    }

    /* Released as the vendor's sample does, results unchecked. */
    free(host);
    aclrtFree(devOut);
    aclrtFree(counter);
    aclrtDestroyStream(stream);
    aclrtResetDeviceForce(0);
    aclFinalize();
    printf("Sample Run Successfully.\n");
    return 0;
}
