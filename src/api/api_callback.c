/*
 * api_callback.c - host functions and callbacks on streams.
 *
 * DESIGN: aclrtLaunchHostFunc queues a task that runs fn(args) once every
 * earlier task of the stream is done, and holds back later tasks until it
 * returns (on aclcpu's host-function thread, or on a thread synchronising
 * the stream; on the thread subscribed with aclrtSubscribeHostFunc, inside
 * aclrtProcessHostFunc, when the stream had one at launch).
 * aclrtLaunchCallback instead hands the call to the thread subscribed with
 * aclrtSubscribeReport, which runs it inside aclrtProcessReport
 * (report.c). A host function recorded into a model runs on the executor
 * that replays it, subscribed or not: a model has no host thread.
 *
 * Threads: any host thread. Locks: none held here.
 */
#include "api_int.h"

/* Checks in the runtime's order: the stream handle (107017), the function
 * (NULL: 107000, the runtime's check), then the current context (107002)
 * and the stream's (107003), then for a callback a subscribed thread
 * (107010). */
static aclError queue_host_task(const char *fn, aclrtStream stream, enum task_kind kind, void (*f)(void *),
                                void *arg, bool block)
{
    struct stream *s;
    struct task *t;
    bool to_subscriber = false;
    aclError err = stream_handle_live(fn, stream);
    if (err == ACL_SUCCESS && f == NULL)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'fn' is NULL", fn);
    if (err == ACL_SUCCESS)
        err = task_stream(fn, stream, &s);
    if (err == ACL_SUCCESS && kind == TASK_HOST_FUNC)
        to_subscriber = report_is_subscribed(s, REPORT_HOSTFUNC);
    if (err == ACL_SUCCESS && kind == TASK_CALLBACK && !report_is_subscribed(s, REPORT_CALLBACK))
        err = acl_fail(ACL_ERROR_RT_STREAM_NO_CB_REG,
                       "%s: stream %d has no subscribed thread; call aclrtSubscribeReport first", fn,
                       load_relaxed(&s->id));
    if (err == ACL_SUCCESS)
        err = stream_task_new(fn, kind, &t);
    if (err != ACL_SUCCESS)
        return err;
    t->u.host.fn = f;
    t->u.host.arg = arg;
    t->u.host.block = block;
    t->u.host.to_subscriber = to_subscriber;
    return stream_submit(&(struct submit){.fn = fn, .stream = stream}, s, t);
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args)
{
    CHECK_SITE();
    return queue_host_task("aclrtLaunchHostFunc", stream, TASK_HOST_FUNC, fn, args, true);
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType,
                                                 aclrtStream stream)
{
    CHECK_SITE();
    const char *name = "aclrtLaunchCallback";
    if (blockType != ACL_CALLBACK_NO_BLOCK && blockType != ACL_CALLBACK_BLOCK)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'blockType' (%d) is neither NO_BLOCK (0) nor BLOCK (1)",
                        name, (int)blockType);
    return queue_host_task(name, stream, TASK_CALLBACK, fn, userData, blockType == ACL_CALLBACK_BLOCK);
}

/* The stream of a (un)subscription: a live handle (107017); NULL is the
 * current context's default stream (107002 without one). A named stream
 * needs no current context. */
static aclError subscribed_stream(const char *fn, aclrtStream stream, struct stream **s)
{
    aclError err = stream_handle_live(fn, stream);
    if (err != ACL_SUCCESS || stream == NULL)
        return err == ACL_SUCCESS ? stream_resolve(fn, stream, s) : err;
    *s = (struct stream *)obj_resolve_user(stream, OBJ_STREAM);
    return *s != NULL ? ACL_SUCCESS : stream_stale(fn, stream);
}

ACL_FUNC_VISIBILITY aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream)
{
    struct stream *s;
    aclError err = subscribed_stream("aclrtSubscribeReport", stream, &s);
    return err == ACL_SUCCESS ? report_subscribe(threadId, s, REPORT_CALLBACK) : err;
}

ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream)
{
    struct stream *s;
    aclError err = subscribed_stream("aclrtUnSubscribeReport", stream, &s);
    return err == ACL_SUCCESS ? report_unsubscribe(threadId, s, REPORT_CALLBACK) : err;
}

ACL_FUNC_VISIBILITY aclError aclrtProcessReport(int32_t timeout)
{
    if (timeout == 0 || timeout < -1)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtProcessReport: argument 'timeout' is %d ms; it must be -1 or "
                        "above 0", timeout);
    return report_process(timeout, REPORT_CALLBACK);
}

/* As in CANN, host-function subscriptions name a created stream: NULL (the
 * default stream) is refused. */
static aclError hostfunc_stream(const char *fn, aclrtStream exeStream, struct stream **s)
{
    if (exeStream == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'exeStream' is NULL; host functions are subscribed per created stream", fn);
    return stream_resolve(fn, exeStream, s);
}

ACL_FUNC_VISIBILITY aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream)
{
    struct stream *s = NULL;
    aclError err = hostfunc_stream("aclrtSubscribeHostFunc", exeStream, &s);
    return err == ACL_SUCCESS ? report_subscribe(hostFuncThreadId, s, REPORT_HOSTFUNC) : err;
}

ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream)
{
    struct stream *s = NULL;
    aclError err = hostfunc_stream("aclrtUnSubscribeHostFunc", exeStream, &s);
    return err == ACL_SUCCESS ? report_unsubscribe(hostFuncThreadId, s, REPORT_HOSTFUNC) : err;
}

ACL_FUNC_VISIBILITY aclError aclrtProcessHostFunc(int32_t timeout)
{
    if (timeout == 0 || timeout < -1)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "aclrtProcessHostFunc: argument 'timeout' is %d ms; it must be -1 (wait forever) or above 0",
                        timeout);
    return report_process(timeout, REPORT_HOSTFUNC);
}
