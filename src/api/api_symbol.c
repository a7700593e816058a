/*
 * api_symbol.c - device symbols: aclcpuRegisterSymbol and
 * aclcpuUnregisterSymbol, aclrtGetSymbolAddress, aclrtGetSymbolSize, and
 * the copies to and from a symbol (aclrtMemcpy{To,From}Symbol[Async]).
 *
 * DESIGN: a device global of an aclcpu kernel is a host variable the
 * program registers (core/symbol.c keeps the table); its device address is
 * its host address. Each call checks its arguments in the reference's
 * order: the ACL layer's (count 0 succeeds first; NULLs, dstMax, the kind:
 * 100000), then the symbol's lookup (no context 107002, not registered
 * 107043), then offset + count against the symbol's size (a sum that
 * wraps: 500001; past the end: 100000). The copy itself is the one
 * aclrtMemcpy and aclrtMemcpyAsync make, with the kind the reference hands
 * the runtime (HOST_TO_DEVICE to a symbol, DEVICE_TO_HOST from one): a
 * synchronous copy runs on the calling thread and is refused while a
 * capture forbids it; an asynchronous one is a TASK_COPY on the stream, so
 * it is ordered, captured and profiled as aclrtMemcpyAsync is.
 *
 * Threads: any host thread. Locks: none here (core/symbol.c's sym_lock).
 */
#include <string.h>

#include "api_int.h"

/* Registers the object at symbol (size bytes) as a device symbol. */
ACL_FUNC_VISIBILITY aclError aclcpuRegisterSymbol(const void *symbol, size_t size, const char *name)
{
    const char *fn = "aclcpuRegisterSymbol";
    if (symbol == NULL)
        return null_arg(fn, "symbol");
    if (size == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0", fn);
    if ((uintptr_t)symbol > UINTPTR_MAX - size)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: 'symbol' (%p) + 'size' (%zu) wraps the address space", fn,
                        symbol, size);
    return symbol_register(fn, symbol, size, name);
}

ACL_FUNC_VISIBILITY aclError aclcpuUnregisterSymbol(const void *symbol)
{
    const char *fn = "aclcpuUnregisterSymbol";
    if (symbol == NULL)
        return null_arg(fn, "symbol");
    if (!symbol_unregister(symbol))
        return acl_fail(ACL_ERROR_RT_INVALID_SYMBOL, "%s: argument 'symbol' (%p) is not a registered device symbol",
                        fn, symbol);
    return ACL_SUCCESS;
}

/* The runtime's lookup (rtSymbolLookup): a current context, then the table. */
static aclError lookup(const char *fn, const void *symbol, struct symbol_info *info)
{
    struct context *ctx;
    aclError err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    if (!symbol_lookup(symbol, info))
        return acl_fail(ACL_ERROR_RT_INVALID_SYMBOL,
                        "%s: argument 'symbol' (%p) is not a registered device symbol (aclcpuRegisterSymbol)", fn,
                        symbol);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetSymbolAddress(const void *symbol, void **devPtr)
{
    const char *fn = "aclrtGetSymbolAddress";
    struct symbol_info info;
    aclError err;
    if (symbol == NULL || devPtr == NULL)
        return null_arg(fn, symbol == NULL ? "symbol" : "devPtr");
    if ((err = lookup(fn, symbol, &info)) != ACL_SUCCESS)
        return err;
    *devPtr = info.dev;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetSymbolSize(const void *symbol, size_t *size)
{
    const char *fn = "aclrtGetSymbolSize";
    struct symbol_info info;
    aclError err;
    if (symbol == NULL || size == NULL)
        return null_arg(fn, symbol == NULL ? "symbol" : "size");
    if ((err = lookup(fn, symbol, &info)) != ACL_SUCCESS)
        return err;
    *size = info.size;
    return ACL_SUCCESS;
}

/* One copy between host memory and a symbol, its ACL-layer checks done. */
struct sym_copy {
    const char *fn;
    bool to;            /* to the symbol (host is the source), else from it */
    void *host;         /* dst or src */
    const void *symbol;
    size_t count, offset;
    bool async;
    aclrtStream stream;
};

/* The lookup and the bounds (GetSymbolInfo), then the copy. */
static aclError symbol_copy(const struct sym_copy *c)
{
    /* The kind the reference hands the runtime, whatever the caller's. */
    aclrtMemcpyKind kind = c->to ? ACL_MEMCPY_HOST_TO_DEVICE : ACL_MEMCPY_DEVICE_TO_HOST;
    const char *fn = c->fn;
    struct symbol_info info;
    void *dst, *at;
    const void *src;
    aclError err = lookup(fn, c->symbol, &info);

    if (err != ACL_SUCCESS)
        return err;
    if (c->offset > SIZE_MAX - c->count)
        return acl_fail(ACL_ERROR_FAILURE, "%s: 'offset' (%zu) + 'count' (%zu) overflows a size_t", fn, c->offset,
                        c->count);
    if (c->offset + c->count > info.size)
        return acl_fail(ACL_ERROR_INVALID_PARAM,
                        "%s: 'offset' (%zu) + 'count' (%zu) must be at most the size of symbol %s%s%s(%p), %zu bytes",
                        fn, c->offset, c->count, info.name[0] ? "'" : "", info.name, info.name[0] ? "' " : "",
                        c->symbol, info.size);
    at = (char *)info.dev + c->offset;
    dst = c->to ? at : c->host;
    src = c->to ? (const void *)c->host : at;
    err = check_side(fn, c->to ? "src" : "dst", c->host, c->count, false, kind);
    if (err != ACL_SUCCESS)
        return err;
    if (!c->async) {
        /* a synchronous copy is "unsafe" while capturing, as aclrtMemcpy's */
        if ((err = model_unsafe_call(fn, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT)) != ACL_SUCCESS)
            return err;
        memmove(dst, src, c->count);
        return ACL_SUCCESS;
    }
    if (model_recording_anywhere() && touches_pageable(dst, src, c->count, kind))
        err = model_unsafe_call(fn, ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
    return err == ACL_SUCCESS ? queue_copy(fn, c->stream, dst, src, c->count, copy_direction(kind, dst, src, c->count))
                              : err;
}

/* The ACL layer's checks of a copy from a symbol (CheckMemcpyFromSymbol). */
static aclError from_symbol(struct sym_copy *c, size_t dstMax, aclrtMemcpyKind kind)
{
    if (c->count == 0)
        return ACL_SUCCESS;
    if (c->symbol == NULL || c->host == NULL)
        return null_arg(c->fn, c->symbol == NULL ? "symbol" : "dst");
    if (c->count > dstMax)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'count' (%zu) is larger than 'dstMax' (%zu)", c->fn,
                        c->count, dstMax);
    if (kind != ACL_MEMCPY_DEVICE_TO_HOST && kind != ACL_MEMCPY_DEFAULT)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'kind' (%s, %d) must be DEVICE_TO_HOST or DEFAULT",
                        c->fn, memcpy_kind_name(kind), (int)kind);
    return symbol_copy(c);
}

/* The ACL layer's checks of a copy to a symbol (CheckMemcpyToSymbol). */
static aclError to_symbol(struct sym_copy *c, aclrtMemcpyKind kind)
{
    if (c->count == 0)
        return ACL_SUCCESS;
    if (c->symbol == NULL || c->host == NULL)
        return null_arg(c->fn, c->symbol == NULL ? "symbol" : "src");
    if (kind != ACL_MEMCPY_HOST_TO_DEVICE && kind != ACL_MEMCPY_DEFAULT)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'kind' (%s, %d) must be HOST_TO_DEVICE or DEFAULT",
                        c->fn, memcpy_kind_name(kind), (int)kind);
    return symbol_copy(c);
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyFromSymbol(void *dst, size_t dstMax, const void *symbol, size_t count,
                                                   size_t offset, aclrtMemcpyKind kind)
{
    struct sym_copy c = {"aclrtMemcpyFromSymbol", false, dst, symbol, count, offset, false, NULL};
    return from_symbol(&c, dstMax, kind);
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyFromSymbolAsync(void *dst, size_t dstMax, const void *symbol, size_t count,
                                                        size_t offset, aclrtMemcpyKind kind, aclrtStream stream)
{
    struct sym_copy c = {"aclrtMemcpyFromSymbolAsync", false, dst, symbol, count, offset, true, stream};
    return from_symbol(&c, dstMax, kind);
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                                                 aclrtMemcpyKind kind)
{
    /* host is only read on this path: the struct serves both directions */
    struct sym_copy c = {"aclrtMemcpyToSymbol", true, (void *)(uintptr_t)src, symbol, count, offset, false, NULL};
    return to_symbol(&c, kind);
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                                      size_t offset, aclrtMemcpyKind kind, aclrtStream stream)
{
    struct sym_copy c = {"aclrtMemcpyToSymbolAsync", true, (void *)(uintptr_t)src, symbol, count, offset, true,
                         stream};
    return to_symbol(&c, kind);
}
