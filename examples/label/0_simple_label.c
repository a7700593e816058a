/*
 * 0_simple_label - the CANN runtime sample
 * example/2_advanced_features/label/0_simple_label, in C on aclcpu.
 *
 * A model built on one PERSISTENT stream: a switch by index over a list of
 * two labels, then the two labels' places. The branch index (1) sits in
 * device memory; the run reads it when it reaches the switch and jumps to
 * label 1. The model runs once on a plain stream; then everything is torn
 * down, each release's failure noted but not stopping the others.
 */
#include <stdint.h>

#include <acl/acl.h>

#include "../utils.h"

/* Notes a failed release: the sample goes on releasing the rest. */
static void NoteFailure(const char *apiName, aclError ret, int32_t *finalResult)
{
    if (ret == ACL_SUCCESS)
        return;
    ERROR_LOG("Operation failed: %s returned error code %d", apiName, (int32_t)ret);
    *finalResult = -1;
}

struct sample {
    aclrtContext context;
    aclrtStream labelStream, executeStream;
    aclrtLabel labels[2];
    aclrtLabelList labelList;
    uint32_t *branchIndexDevice;
    aclmdlRI modelRI;
    /* What was made, so that the release undoes exactly that. */
    int aclInitialized, deviceSet, contextCreated, labelStreamCreated, executeStreamCreated;
    int branchIndexAllocated, labelCreated[2], labelListCreated, modelRICreated, labelStreamBound;
};

static int32_t Run(struct sample *t, int32_t deviceId, uint32_t branchIndex, uint32_t labelCount)
{
    CHECK_ERROR(aclInit(NULL));
    t->aclInitialized = 1;
    INFO_LOG("ACL initialized.");
    CHECK_ERROR(aclrtSetDevice(deviceId));
    t->deviceSet = 1;
    INFO_LOG("Device %d selected.", deviceId);
    CHECK_ERROR(aclrtCreateContext(&t->context, deviceId));
    t->contextCreated = 1;
    INFO_LOG("Context created on device %d.", deviceId);
    CHECK_ERROR(aclrtCreateStreamWithConfig(&t->labelStream, 0x00U, ACL_STREAM_PERSISTENT));
    t->labelStreamCreated = 1;
    INFO_LOG("Persistent label stream created.");
    CHECK_ERROR(aclrtCreateStream(&t->executeStream));
    t->executeStreamCreated = 1;
    INFO_LOG("Execute stream created.");

    /* The model, and its one stream, which the label tasks go to. */
    CHECK_ERROR(aclmdlRIBuildBegin(&t->modelRI, 0x00U));
    t->modelRICreated = 1;
    INFO_LOG("Model runtime instance build started.");
    CHECK_ERROR(aclmdlRIBindStream(t->modelRI, t->labelStream, ACL_MODEL_STREAM_FLAG_HEAD));
    t->labelStreamBound = 1;
    INFO_LOG("Persistent label stream bound to the model runtime instance.");

    /* The branch index, in device memory, read by the run. */
    CHECK_ERROR(aclrtMalloc((void **)&t->branchIndexDevice, sizeof(branchIndex), ACL_MEM_MALLOC_HUGE_FIRST));
    t->branchIndexAllocated = 1;
    INFO_LOG("Allocated device memory for branch index.");
    CHECK_ERROR(aclrtMemcpy(t->branchIndexDevice, sizeof(branchIndex), &branchIndex, sizeof(branchIndex),
                            ACL_MEMCPY_HOST_TO_DEVICE));
    INFO_LOG("Copied branch index %u from host to device.", branchIndex);

    for (uint32_t i = 0; i < labelCount; ++i) {
        CHECK_ERROR(aclrtCreateLabel(&t->labels[i]));
        t->labelCreated[i] = 1;
        INFO_LOG("Created label %u.", i);
    }
    CHECK_ERROR(aclrtCreateLabelList(t->labels, labelCount, &t->labelList));
    t->labelListCreated = 1;
    INFO_LOG("Created label list with %u labels.", labelCount);

    /* The switch first, then the places it may jump to. */
    CHECK_ERROR(aclrtSwitchLabelByIndex(t->branchIndexDevice, labelCount, t->labelList, t->labelStream));
    INFO_LOG("Submitted switch-label task with branch index %u.", branchIndex);
    for (uint32_t i = 0; i < labelCount; ++i) {
        CHECK_ERROR(aclrtSetLabel(t->labels[i], t->labelStream));
        INFO_LOG("Set label %u on the persistent stream.", i);
    }
    CHECK_ERROR(aclmdlRIEndTask(t->modelRI, t->labelStream));
    CHECK_ERROR(aclmdlRIBuildEnd(t->modelRI, NULL));
    INFO_LOG("Model runtime instance build finished.");

    CHECK_ERROR(aclmdlRIExecuteAsync(t->modelRI, t->executeStream));
    CHECK_ERROR(aclrtSynchronizeStream(t->executeStream));
    INFO_LOG("Switch label executed successfully with branch index %u.", branchIndex);
    return 0;
}

int main(void)
{
    const int32_t deviceId = 0;
    struct sample t = {0};
    int32_t finalResult = Run(&t, deviceId, 1, 2);

    if (t.labelStreamBound)
        NoteFailure("aclmdlRIUnbindStream(modelRI, labelStream)", aclmdlRIUnbindStream(t.modelRI, t.labelStream),
                    &finalResult);
    if (t.modelRICreated)
        NoteFailure("aclmdlRIDestroy(modelRI)", aclmdlRIDestroy(t.modelRI), &finalResult);
    if (t.labelListCreated)
        NoteFailure("aclrtDestroyLabelList(labelList)", aclrtDestroyLabelList(t.labelList), &finalResult);
    if (t.labelCreated[1])
        NoteFailure("aclrtDestroyLabel(labels[1])", aclrtDestroyLabel(t.labels[1]), &finalResult);
    if (t.labelCreated[0])
        NoteFailure("aclrtDestroyLabel(labels[0])", aclrtDestroyLabel(t.labels[0]), &finalResult);
    if (t.branchIndexAllocated)
        NoteFailure("aclrtFree(branchIndexDevice)", aclrtFree(t.branchIndexDevice), &finalResult);
    if (t.executeStreamCreated)
        NoteFailure("aclrtDestroyStream(executeStream)", aclrtDestroyStream(t.executeStream), &finalResult);
    if (t.labelStreamCreated)
        NoteFailure("aclrtDestroyStream(labelStream)", aclrtDestroyStream(t.labelStream), &finalResult);
    if (t.contextCreated)
        NoteFailure("aclrtDestroyContext(context)", aclrtDestroyContext(t.context), &finalResult);
    if (t.deviceSet)
        NoteFailure("aclrtResetDeviceForce(deviceId)", aclrtResetDeviceForce(deviceId), &finalResult);
    if (t.aclInitialized)
        NoteFailure("aclFinalize()", aclFinalize(), &finalResult);
    if (finalResult == 0)
        INFO_LOG("Run the simple_label sample successfully.");
    return finalResult;
}
