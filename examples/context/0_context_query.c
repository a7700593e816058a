/*
 * 0_context_query - the CANN runtime sample
 * example/1_basic_features/context/0_context_query, in C on aclcpu.
 *
 * Creates a context on device 0, makes it current, checks that
 * aclrtGetCurrentContext returns it, asks for its default stream and for
 * the cube and vector core limits in force for the calling thread (the
 * SoC's core counts when nothing limits them), and destroys the context.
 * The vendor's ContextGuard (destroy on every way out) is the cleanup at
 * the end of RunContextQuerySample here.
 */
#include <stdint.h>

#include <acl/acl.h>

#include "../utils.h"

#define DEVICE_ID 0

static int32_t QueryContext(aclrtContext context)
{
    aclrtContext currentContext = NULL;
    aclrtStream defaultStream = NULL;
    uint32_t cubeCoreLimit = 0, vectorCoreLimit = 0;

    CHECK_ERROR(aclrtSetCurrentContext(context));
    CHECK_ERROR(aclrtGetCurrentContext(&currentContext));
    if (currentContext != context) {
        ERROR_LOG("Current context is different from the created context.");
        return -1;
    }
    INFO_LOG("Get current context successfully");

    CHECK_ERROR(aclrtCtxGetCurrentDefaultStream(&defaultStream));
    INFO_LOG("Get current default stream successfully, stream=%p", defaultStream);
    CHECK_ERROR(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &cubeCoreLimit));
    INFO_LOG("Get current thread cube core limit: %u", cubeCoreLimit);
    CHECK_ERROR(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &vectorCoreLimit));
    INFO_LOG("Get current thread vector core limit: %u", vectorCoreLimit);
    return 0;
}

static int32_t RunContextQuerySample(void)
{
    aclrtContext context = NULL;
    CHECK_ERROR(aclrtCreateContext(&context, DEVICE_ID));
    if (QueryContext(context) != 0) {
        CHECK_ERROR_WITHOUT_RETURN(aclrtDestroyContext(context));
        return -1;
    }
    CHECK_ERROR(aclrtDestroyContext(context));
    INFO_LOG("[SUCCESS] Context query sample completed successfully");
    return 0;
}

int main(void)
{
    int32_t ret;
    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(DEVICE_ID));
    ret = RunContextQuerySample();
    CHECK_ERROR(aclrtResetDeviceForce(DEVICE_ID));
    CHECK_ERROR(aclFinalize());
    return ret;
}
