/*
 * kernel.c - kernel binaries (shared objects) and function handles: the
 * mechanism under the API of api/api_binary.c, which checks the arguments.
 *
 * DESIGN: binary_load dlopens a shared object (binary_load_data first puts
 * the bytes in an in-memory file); each binary_function looks a symbol up
 * once and caches a function handle on the binary. Kernels the program
 * registers itself (kfunc_register) have no binary; kfunc_by_symbol finds
 * one by its function (aclrtGetFuncBySymbol). Every queued launch of
 * a binary's kernel holds binary->inflight, so binary_unload can
 * invalidate the handles at once and defer dlclose until the last queued
 * launch is done: unloading never pulls code out from under a running
 * kernel.
 *
 * A launch takes its reference without the binary's lock: it increments
 * inflight unless the count already fell to zero (the library is being
 * closed), then checks that the binary is not unloaded and the function
 * handle still holds, and gives the reference back if either fails. Unload
 * marks the binary unloaded before it drops the load's reference; both
 * sides are seq_cst, so a launch that saw the binary loaded counted itself
 * before that drop, and the count cannot reach zero under it.
 *
 * Threads: any host thread; executors drop inflight. Locks: reg_lock,
 * binary->lock, cost_lock (ranks: lockrank.h).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

static plat_mutex reg_lock;
static struct list registered;  /* kfuncs with bin == NULL */

__attribute__((constructor)) static void kernel_init(void)
{
    plat_mutex_init(&reg_lock, LOCK_KERNEL_REG);
    list_init(&registered);
}

static struct kfunc *kfunc_new(const char *name, aclcpuKernelFn fn, struct binary *bin)
{
    bool fresh;
    struct kfunc *f = obj_create(OBJ_FUNC, sizeof(*f), offsetof(struct kfunc, name), &fresh);
    if (f == NULL)
        return NULL;
    store_relaxed(&f->fn, fn); /* published by obj_publish */
    store_relaxed(&f->bin, bin);
    strncpy(f->name, name, sizeof(f->name) - 1);
    f->cpu = bin != NULL && bin->cpu;
    obj_publish(&f->hdr);
    return f;
}

aclError kfunc_register(const char *fn, const char *name, aclcpuKernelFn kernel, aclrtFuncHandle *funcHandle)
{
    struct list *pos;
    struct kfunc *f = NULL;

    plat_mutex_lock(&reg_lock);
    list_for_each(pos, &registered) {
        struct kfunc *k = ACLCPU_CONTAINER_OF(pos, struct kfunc, bin_link);
        if (strcmp(k->name, name) == 0) {
            f = k;
            break;
        }
    }
    if (f != NULL && load_relaxed(&f->fn) != kernel) {
        plat_mutex_unlock(&reg_lock);
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: a different kernel is already registered as \"%s\"", fn, name);
    }
    if (f == NULL) {
        f = kfunc_new(name, kernel, NULL);
        if (f != NULL)
            list_add_tail(&registered, &f->bin_link);
    }
    plat_mutex_unlock(&reg_lock);
    if (f == NULL)
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory", fn);
    *funcHandle = obj_handle(&f->hdr);
    return ACL_SUCCESS;
}

bool kfunc_by_symbol(const void *sym, aclrtFuncHandle *funcHandle)
{
    struct list *pos;
    struct kfunc *f = NULL;

    plat_mutex_lock(&reg_lock);
    list_for_each(pos, &registered) {
        struct kfunc *k = ACLCPU_CONTAINER_OF(pos, struct kfunc, bin_link);
        if ((const void *)(uintptr_t)load_relaxed(&k->fn) == sym) {
            f = k;
            break;
        }
    }
    if (f != NULL)
        *funcHandle = obj_handle(&f->hdr); /* registered kernels live as long as the process */
    plat_mutex_unlock(&reg_lock);
    return f != NULL;
}

aclError binary_load(const char *fn, const char *path, const char *what, bool cpu, aclrtBinHandle *binHandle)
{
    struct binary *b;
    bool fresh;
    void *lib = plat_dl_open(path);

    if (lib == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: cannot load %s as a kernel shared object: %s", fn, what,
                        plat_dl_error());
    b = obj_create(OBJ_BINARY, sizeof(*b), offsetof(struct binary, lib), &fresh);
    if (b == NULL) {
        plat_dl_close(lib);
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory", fn);
    }
    if (fresh)
        plat_mutex_init(&b->lock, LOCK_BINARY);
    b->lib = lib;
    snprintf(b->path, sizeof(b->path), "%s", what);
    list_init(&b->funcs);
    b->cpu = cpu;
    /* Relaxed: obj_publish releases them; a stale launcher that sees the
     * count rise fails its handle check and gives its reference back. */
    store_relaxed(&b->unloaded, false);
    store_relaxed(&b->inflight, 1); /* the load's own reference */
    obj_publish(&b->hdr);
    *binHandle = obj_handle(&b->hdr);
    return ACL_SUCCESS;
}

aclError binary_load_data(const char *fn, const void *data, size_t length, bool cpu, aclrtBinHandle *binHandle)
{
    char path[64];
    aclError err;
    /* On aclcpu the data is a shared object's bytes: load it from memory. */
    int fd = plat_mem_file(data, length, path, sizeof(path));

    if (fd < 0)
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: cannot make an in-memory file for %zu bytes", fn, length);
    err = binary_load(fn, path, "data", cpu, binHandle);
    plat_close(fd); /* the loader keeps its own mapping */
    return err;
}

struct binary *binary_resolve(const char *fn, aclrtBinHandle h, aclError *err)
{
    struct binary *b = (struct binary *)obj_resolve(h, OBJ_BINARY);
    *err = ACL_SUCCESS;
    if (b == NULL)
        *err = acl_fail(ACL_ERROR_RT_INVALID_HANDLE,
                        "%s: argument 'binHandle' (%p) is not a loaded binary (unloaded or never loaded)", fn, h);
    return b;
}

void binary_set_exc_callback(struct binary *b, aclrtOpExceptionCallback cb, void *user)
{
    plat_mutex_lock(&b->lock);
    b->exc_cb = cb;
    b->exc_user = user;
    plat_mutex_unlock(&b->lock);
}

aclrtOpExceptionCallback binary_exc_callback(struct binary *b, void **user)
{
    aclrtOpExceptionCallback cb;
    plat_mutex_lock(&b->lock);
    cb = b->exc_cb;
    *user = b->exc_user;
    plat_mutex_unlock(&b->lock);
    return cb;
}

aclError binary_function(const char *fn, struct binary *b, const char *kernelName, aclrtFuncHandle *funcHandle)
{
    struct kfunc *f = NULL;
    struct list *pos;
    void *sym;

    plat_mutex_lock(&b->lock);
    list_for_each(pos, &b->funcs) {
        struct kfunc *k = ACLCPU_CONTAINER_OF(pos, struct kfunc, bin_link);
        if (strcmp(k->name, kernelName) == 0)
            f = k;
    }
    if (f == NULL && !load_relaxed(&b->unloaded) && strlen(kernelName) < sizeof(f->name)) {
        sym = plat_dl_sym(b->lib, kernelName);
        if (sym != NULL) {
            f = kfunc_new(kernelName, (aclcpuKernelFn)(uintptr_t)sym, b);
            if (f != NULL)
                list_add_tail(&b->funcs, &f->bin_link);
        }
    }
    plat_mutex_unlock(&b->lock);
    if (f == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: kernel \"%s\" is not exported by \"%s\" (is it declared extern \"C\" and visible?)", fn,
                        kernelName, b->path);
    *funcHandle = obj_handle(&f->hdr);
    return ACL_SUCCESS;
}

/* Whether addr lies in b's own shared object (dlsym also finds the
 * symbols of the objects it depends on). Called with b->lock held. */
static bool in_object_locked(struct binary *b, const void *addr)
{
    PLAT_ASSERT_HELD(&b->lock);
    void *base;
    size_t size;
    return plat_dl_extent(b->lib, &base, &size) && (uintptr_t)addr >= (uintptr_t)base &&
           (uintptr_t)addr - (uintptr_t)base < size;
}

aclError binary_function_at(const char *fn, struct binary *b, const void *entry, aclrtFuncHandle *funcHandle)
{
    const char *name = NULL;
    size_t size;
    void *base;
    char copy[sizeof(((struct kfunc *)0)->name)];
    bool found = false;

    /* The symbol that starts at entry, if b itself exports it under that
     * name (a symbol of another object at that address is not b's). The
     * lock keeps b loaded while its names are read. */
    plat_mutex_lock(&b->lock);
    if (!load_relaxed(&b->unloaded) && plat_dl_symbol_at(entry, &name, &size, &base) &&
        strlen(name) < sizeof(copy) && plat_dl_sym(b->lib, name) == entry && in_object_locked(b, entry)) {
        memcpy(copy, name, strlen(name) + 1);
        found = true;
    }
    plat_mutex_unlock(&b->lock);
    if (!found)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'funcEntry' (%p) is the entry of no kernel of \"%s\" (on aclcpu an entry is a "
                        "kernel's address, as aclrtGetFunctionAddr gives it)",
                        fn, entry, b->path);
    return binary_function(fn, b, copy, funcHandle);
}

aclError binary_extent(const char *fn, struct binary *b, void **base, size_t *size)
{
    bool ok = false;
    plat_mutex_lock(&b->lock);
    if (!load_relaxed(&b->unloaded))
        ok = plat_dl_extent(b->lib, base, size);
    plat_mutex_unlock(&b->lock);
    if (!ok)
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: the binary was unloaded during the call", fn);
    return ACL_SUCCESS;
}

aclError binary_global(const char *fn, struct binary *b, const char *name, void **addr, size_t *size)
{
    void *sym = NULL, *base;
    const char *found_name;
    size_t n = 0;

    plat_mutex_lock(&b->lock);
    if (!load_relaxed(&b->unloaded)) {
        sym = plat_dl_sym(b->lib, name);
        if (sym != NULL && !in_object_locked(b, sym))
            sym = NULL; /* a global of an object b depends on, not b's */
        if (sym != NULL && !plat_dl_symbol_at(sym, &found_name, &n, &base))
            n = 0;
    }
    plat_mutex_unlock(&b->lock);
    if (sym == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'name': \"%s\" is not a global exported by \"%s\"",
                        fn, name, b->path);
    if (addr != NULL)
        *addr = sym;
    if (size != NULL)
        *size = n;
    return ACL_SUCCESS;
}

size_t kfunc_code_size(const struct kfunc *f)
{
    const char *name;
    size_t size = 0;
    void *base;
    aclcpuKernelFn kfn = load_relaxed(&f->fn);
    if (!plat_dl_symbol_at((const void *)(uintptr_t)kfn, &name, &size, &base))
        return 0;
    return size;
}

void binary_put_inflight(struct binary *b)
{
    /* acq_rel: the last holder sees every launch's use before closing. */
    if (fetch_sub_acq_rel(&b->inflight, 1) == 1) {
        plat_dl_close(b->lib);
        b->lib = NULL;
        obj_recycle(&b->hdr);
    }
}

aclError binary_unload(const char *fn, struct binary *b, aclrtBinHandle binHandle)
{
    struct list *pos;

    plat_mutex_lock(&b->lock);
    if (load_relaxed(&b->unloaded) || !obj_same(&b->hdr, binHandle)) {
        plat_mutex_unlock(&b->lock);
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: the binary is already unloaded", fn);
    }
    /* seq_cst: pairs with the launch's increment and check (file comment). */
    store_seq_cst(&b->unloaded, true);
    obj_kill(&b->hdr);
    list_for_each(pos, &b->funcs) obj_kill(&ACLCPU_CONTAINER_OF(pos, struct kfunc, bin_link)->hdr);
    while (!list_empty(&b->funcs)) {
        struct kfunc *f = ACLCPU_CONTAINER_OF(b->funcs.next, struct kfunc, bin_link);
        list_del(&f->bin_link);
        obj_recycle(&f->hdr);
    }
    plat_mutex_unlock(&b->lock);
    binary_put_inflight(b); /* drop the load's reference */
    return ACL_SUCCESS;
}

/* Takes an inflight reference unless the count has fallen to zero (the
 * library is being closed, or this memory awaits reuse). */
static bool binary_try_get(struct binary *b)
{
    uint32_t n = load_relaxed(&b->inflight);
    do {
        if (n == 0)
            return false;
        /* seq_cst: pairs with unload's store of `unloaded` (file comment). */
    } while (!cas_weak_seq_cst(&b->inflight, &n, n + 1));
    return true;
}

aclError kfunc_resolve_binary(const char *fn, aclrtFuncHandle h, struct kfunc *f, aclcpuKernelFn *kfn,
                              struct binary **bin)
{
    struct binary *b;

    if (h == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'funcHandle' is NULL", fn);
    if (f == NULL)
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE,
                        "%s: argument 'funcHandle' (%p) is not a live kernel (its binary was unloaded, or it never "
                        "came from aclrtBinaryGetFunction/aclcpuRegisterKernel)",
                        fn, h);
    *kfn = load_relaxed(&f->fn);
    *bin = b = load_relaxed(&f->bin);
    /* Re-checked after the read (and, for a binary, once the reference is
     * ours): f may have died, and even been reused, since it resolved,
     * which also voids what we read. */
    if (b == NULL) {
        if (obj_same(&f->hdr, h))
            return ACL_SUCCESS;
    } else if (binary_try_get(b)) {
        /* seq_cst: the launch's half of the pair with unload. */
        if (!load_seq_cst(&b->unloaded) && obj_same(&f->hdr, h))
            return ACL_SUCCESS;
        binary_put_inflight(b);
    }
    *bin = NULL;
    return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: the kernel's binary was unloaded during the call", fn);
}

/* ---- declared costs (the profiler's model, services/profile.c) ------------- */

/* Guards every kfunc's cost (set by host threads, read at issue). */
static plat_spin cost_lock;

__attribute__((constructor)) static void cost_init(void) { plat_spin_init(&cost_lock, LOCK_KERNEL_COST); }

void kfunc_set_cost(struct kfunc *f, const aclcpuKernelCost *cost)
{
    plat_spin_lock(&cost_lock);
    if (cost != NULL)
        f->cost = *cost;
    /* Relaxed: read again under cost_lock by kfunc_cost. */
    store_relaxed(&f->has_cost, cost != NULL);
    plat_spin_unlock(&cost_lock);
}

bool kfunc_cost(const struct kfunc *f, aclcpuKernelCost *out)
{
    bool has;
    /* Relaxed: most kernels never get a cost; a cost declared by another
     * thread at this moment applies from a later launch. */
    if (!load_relaxed(&f->has_cost))
        return false;
    plat_spin_lock(&cost_lock);
    has = load_relaxed(&f->has_cost);
    if (has)
        *out = f->cost;
    plat_spin_unlock(&cost_lock);
    return has;
}
