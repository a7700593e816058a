/*
 * api_binary.c - kernel binaries and kernels: loading, finding, unloading,
 * registering, finding a registered kernel by its function
 * (aclrtGetFuncBySymbol), declaring costs, and aclrtBinary descriptions.
 *
 * DESIGN: argument checks in the reference's order, then the mechanism of
 * core/kernel.c. On aclcpu a kernel binary is a CPU shared object. An
 * aclrtBinary (aclrtCreateBinary) only describes bytes the program owns,
 * as on the device: it points at them without copying, and aclrtBinaryLoad
 * loads them as aclrtBinaryLoadFromData would; the program keeps them
 * until that load returns. Descriptions are objects in the handle table,
 * so a stale or doubly destroyed one fails with 107017 instead of
 * touching freed memory.
 *
 * Threads: any host thread. Locks: none here (core/kernel.c has its own).
 */
#include <stddef.h>
#include <string.h>

#include "../core/core.h"

/* What an aclrtBinary names. */
struct binary_desc {
    struct obj_header hdr;
    /* Set by the destroy that wins a race with another one. */
    _Atomic bool destroyed;
    const void *data;
    size_t length;
};

ACL_FUNC_VISIBILITY aclError aclcpuRegisterKernel(const char *name, aclcpuKernelFn fn, aclrtFuncHandle *funcHandle)
{
    const char *api = "aclcpuRegisterKernel";
    if (name == NULL || fn == NULL || funcHandle == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument '%s' is NULL", api,
                        name == NULL ? "name" : fn == NULL ? "fn" : "funcHandle");
    if (name[0] == '\0' || strlen(name) >= sizeof(((struct kfunc *)0)->name))
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'name' must have 1 to %zu bytes", api,
                        sizeof(((struct kfunc *)0)->name) - 1);
    return kfunc_register(api, name, fn, funcHandle);
}

/* The symbol of a kernel on aclcpu is its host function: the one given to
 * aclcpuRegisterKernel. Kernels of binaries are found by name instead. */
ACL_FUNC_VISIBILITY aclError aclrtGetFuncBySymbol(const void *symbol, aclrtFuncHandle *funcHandle)
{
    const char *fn = "aclrtGetFuncBySymbol";
    struct context *ctx;
    aclError err;
    if (symbol == NULL || funcHandle == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument '%s' is NULL", fn,
                        symbol == NULL ? "symbol" : "funcHandle");
    if ((err = ctx_require(fn, &ctx)) != ACL_SUCCESS)
        return err;
    if (!kfunc_by_symbol(symbol, funcHandle))
        return acl_fail(ACL_ERROR_RT_INVALID_DEVICE_FUNCTION,
                        "%s: argument 'symbol' (%p) is not a kernel function registered with aclcpuRegisterKernel",
                        fn, symbol);
    return ACL_SUCCESS;
}

/* The load options, checked as the runtime's loader parses them (each
 * fault 107000); they steer device-side placement and change nothing on
 * a CPU. A CPU kernel mode is 0 or 1 from a file, 2 from data; a magic
 * is one of the three kernel magics and only for data. */
static aclError check_load_options(const char *fn, const aclrtBinaryLoadOptions *o, bool from_file)
{
    if (o == NULL)
        return ACL_SUCCESS;
    if (o->options == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'options->options' is NULL (options->numOpt is %zu)",
                        fn, o->numOpt);
    for (size_t i = 0; i < o->numOpt; i++) {
        const aclrtBinaryLoadOption *op = &o->options[i];
        switch (op->type) {
        case ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD:
            if (op->value.isLazyLoad > 1)
                return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: options->options[%zu]: isLazyLoad %u is not 0 or 1",
                                fn, i, op->value.isLazyLoad);
            break;
        case ACL_RT_BINARY_LOAD_OPT_MAGIC:
            if (from_file)
                return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: options->options[%zu]: a magic is an option of "
                                "aclrtBinaryLoadFromData only", fn, i);
            if (op->value.magic != ACL_RT_BINARY_MAGIC_ELF_AICORE &&
                op->value.magic != ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE &&
                op->value.magic != ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE)
                return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: options->options[%zu]: magic %#x is not a kernel "
                                "binary magic (ACL_RT_BINARY_MAGIC_ELF_*)", fn, i, op->value.magic);
            break;
        case ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE:
            if (from_file ? (op->value.cpuKernelMode != 0 && op->value.cpuKernelMode != 1)
                          : op->value.cpuKernelMode != 2)
                return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: options->options[%zu]: cpuKernelMode %d; it must be "
                                "%s", fn, i, (int)op->value.cpuKernelMode, from_file ? "0 or 1" : "2");
            break;
        default:
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: options->options[%zu].type %d is not a load option", fn,
                            i, (int)op->type);
        }
    }
    return ACL_SUCCESS;
}

/* Whether checked options ask for a CPU kernel mode: the binary's kernels
 * are then AI CPU kernels (aclrtRegisterCpuFunc). */
static bool cpu_mode(const aclrtBinaryLoadOptions *o)
{
    if (o == NULL)
        return false;
    for (size_t i = 0; i < o->numOpt; i++)
        if (o->options[i].type == ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE)
            return true;
    return false;
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options,
                                                     aclrtBinHandle *binHandle)
{
    const char *fn = "aclrtBinaryLoadFromFile";
    aclError err;
    if (binPath == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'binPath' is NULL", fn);
    if (binHandle == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'binHandle' is NULL", fn);
    if ((err = check_load_options(fn, options, true)) != ACL_SUCCESS)
        return err;
    /* A path the loader cannot open is the runtime's 107000. */
    if (binPath[0] == '\0' || strlen(binPath) >= sizeof(((struct binary *)0)->path))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'binPath' is empty or too long", fn);
    return binary_load(fn, binPath, binPath, cpu_mode(options), binHandle);
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromData(const void *data, size_t length,
                                                     const aclrtBinaryLoadOptions *options, aclrtBinHandle *binHandle)
{
    const char *fn = "aclrtBinaryLoadFromData";
    aclError err;
    if (data == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'data' is NULL", fn);
    if (binHandle == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'binHandle' is NULL", fn);
    if (length == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'length' is 0; it must be above 0", fn);
    if ((err = check_load_options(fn, options, false)) != ACL_SUCCESS)
        return err;
    return binary_load_data(fn, data, length, cpu_mode(options), binHandle);
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName,
                                                    aclrtFuncHandle *funcHandle)
{
    const char *fn = "aclrtBinaryGetFunction";
    aclError err;
    struct binary *b;

    if (binHandle == NULL || kernelName == NULL || funcHandle == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument '%s' is NULL", fn,
                        binHandle == NULL ? "binHandle" : kernelName == NULL ? "kernelName" : "funcHandle");
    b = binary_resolve(fn, binHandle, &err);
    if (b == NULL)
        return err;
    return binary_function(fn, b, kernelName, funcHandle);
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle)
{
    const char *fn = "aclrtBinaryUnLoad";
    aclError err;
    struct binary *b;

    if (binHandle == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'binHandle' is NULL", fn);
    b = binary_resolve(fn, binHandle, &err);
    return b == NULL ? err : binary_unload(fn, b, binHandle);
}

/* ---- aclrtBinary descriptions ------------------------------------------------ */

ACL_FUNC_VISIBILITY aclrtBinary aclrtCreateBinary(const void *data, size_t dataLen)
{
    struct binary_desc *d;
    bool fresh;

    if (data == NULL) {
        acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateBinary: argument 'data' is NULL");
        return NULL;
    }
    d = obj_create(OBJ_BINDESC, sizeof(*d), OBJ_CLEAR_ALL, &fresh);
    if (d == NULL) {
        acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtCreateBinary: out of memory");
        return NULL;
    }
    d->data = data;
    d->length = dataLen; /* 0 is accepted here and refused by aclrtBinaryLoad, as in CANN */
    obj_publish(&d->hdr);
    return obj_handle(&d->hdr);
}

static struct binary_desc *resolve_desc(const char *fn, aclrtBinary binary, aclError *err)
{
    struct binary_desc *d = (struct binary_desc *)obj_resolve(binary, OBJ_BINDESC);
    *err = ACL_SUCCESS;
    if (d == NULL)
        *err = acl_fail(ACL_ERROR_RT_INVALID_HANDLE,
                        "%s: argument 'binary' (%p) is not a live aclrtBinary (destroyed, or not from "
                        "aclrtCreateBinary)",
                        fn, binary);
    return d;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyBinary(aclrtBinary binary)
{
    const char *fn = "aclrtDestroyBinary";
    aclError err;
    struct binary_desc *d;

    if (binary == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'binary' is NULL", fn);
    d = resolve_desc(fn, binary, &err);
    if (d == NULL)
        return err;
    /* Relaxed: only which of two racing destroys wins matters; the
     * handle table orders the kill. */
    if (exchange_relaxed(&d->destroyed, true) || !obj_same(&d->hdr, binary))
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: argument 'binary' (%p) is already destroyed", fn, binary);
    obj_kill(&d->hdr);
    obj_recycle(&d->hdr);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryLoad(const aclrtBinary binary, aclrtBinHandle *binHandle)
{
    const char *fn = "aclrtBinaryLoad";
    struct context *ctx;
    aclError err;
    struct binary_desc *d;
    const void *data;
    size_t length;

    if (binary == NULL || binHandle == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument '%s' is NULL", fn,
                        binary == NULL ? "binary" : "binHandle");
    d = resolve_desc(fn, binary, &err);
    if (d == NULL)
        return err;
    data = d->data;
    length = d->length;
    if (!obj_same(&d->hdr, binary))
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: argument 'binary' (%p) was destroyed during the call", fn,
                        binary);
    if (length == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: the aclrtBinary's length is 0; aclrtCreateBinary must be given the size of the kernel "
                        "binary",
                        fn);
    /* This load (the runtime's load without a tiling key) is made for the
     * current context's device: it needs one (107002). */
    if ((err = ctx_require(fn, &ctx)) != ACL_SUCCESS)
        return err;
    return binary_load_data(fn, data, length, false, binHandle);
}

/* ---- declared costs ------------------------------------------------------------ */

static bool time_ok(double us) { return us >= 0 && us < 1e12; /* false for NaN and infinities too */ }

static aclError check_cost(const aclcpuKernelCost *c)
{
    const char *fn = "aclcpuSetKernelCost";
    if (!time_ok(c->usFixed) || !time_ok(c->usTotal) || !time_ok(c->usLaunch))
        return acl_fail(ACL_ERROR_INVALID_PARAM,
                        "%s: cost->usFixed (%g), cost->usTotal (%g) and cost->usLaunch (%g) must be finite and not "
                        "negative (us)",
                        fn, c->usFixed, c->usTotal, c->usLaunch);
    if (c->mix > 1)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: cost->mix is %u; it must be 0 (one engine) or 1 (mix kernel)",
                        fn, c->mix);
    for (size_t i = 0; i < ACLCPU_ARRAY_SIZE(c->reserved); i++)
        if (c->reserved[i] != 0)
            return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: cost->reserved[%zu] is %u; it must be 0", fn, i,
                            c->reserved[i]);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclcpuSetKernelCost(aclrtFuncHandle funcHandle, const aclcpuKernelCost *cost)
{
    struct kfunc *f;
    aclError err;
    if (funcHandle == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "aclcpuSetKernelCost: argument 'funcHandle' is NULL");
    f = (struct kfunc *)obj_resolve(funcHandle, OBJ_FUNC);
    if (f == NULL)
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE,
                        "aclcpuSetKernelCost: argument 'funcHandle' (%p) is not a live kernel (its binary was "
                        "unloaded, or it never came from aclrtBinaryGetFunction/aclcpuRegisterKernel)",
                        funcHandle);
    if (cost != NULL && (err = check_cost(cost)) != ACL_SUCCESS)
        return err;
    kfunc_set_cost(f, cost);
    return ACL_SUCCESS;
}
