/*
 * symbol.c - the device symbols a program registered (aclcpuRegisterSymbol):
 * the table under aclrtGetSymbolAddress, aclrtGetSymbolSize and the
 * aclrtMemcpy{To,From}Symbol calls of api/api_symbol.c.
 *
 * DESIGN: on aclcpu a kernel is a host function, so a variable a kernel
 * uses as a device global is a host variable, and its device address is
 * its host address. The table maps that address (the symbol, matched
 * exactly, as the reference's map of host variables does) to the object's
 * size and a name for messages. It is one process-wide array, grown by
 * doubling; registrations outlive aclFinalize, as registered kernels do,
 * and end with symbol_unregister. An empty table gives its array back.
 *
 * Threads: any host thread. Locks: sym_lock (a mutex: registering
 * allocates), rank LOCK_SYMBOL; nothing else is taken under it.
 */
#include <stddef.h>
#include <string.h>

#include "core.h"

struct symbol {
    const void *addr;
    size_t size;
    char name[SYMBOL_NAME_MAX + 1]; /* "" when registered without one */
};

static plat_mutex sym_lock;
static struct symbol *syms; /* sym_lock */
static size_t nsyms, capsyms; /* sym_lock */

__attribute__((constructor)) static void symbol_init(void) { plat_mutex_init(&sym_lock, LOCK_SYMBOL); }

/* The entry of addr, or NULL. Caller holds sym_lock. */
static struct symbol *find_locked(const void *addr)
{
    PLAT_ASSERT_HELD(&sym_lock);
    for (size_t i = 0; i < nsyms; i++)
        if (syms[i].addr == addr)
            return &syms[i];
    return NULL;
}

aclError symbol_register(const char *fn, const void *addr, size_t size, const char *name)
{
    struct symbol *s;
    size_t had = 0;

    plat_mutex_lock(&sym_lock);
    s = find_locked(addr);
    if (s != NULL) {
        had = s->size;
        plat_mutex_unlock(&sym_lock);
        if (had == size)
            return ACL_SUCCESS; /* the same registration again */
        return acl_fail(ACL_ERROR_INVALID_PARAM,
                        "%s: argument 'symbol' (%p) is already registered with size %zu, not %zu (unregister it "
                        "first)",
                        fn, addr, had, size);
    }
    if (nsyms == capsyms) {
        size_t cap = capsyms == 0 ? 16 : capsyms * 2;
        struct symbol *grown = acl_realloc(syms, cap * sizeof(*grown));
        if (grown == NULL) {
            plat_mutex_unlock(&sym_lock);
            return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory for the symbol table", fn);
        }
        syms = grown;
        capsyms = cap;
    }
    s = &syms[nsyms++];
    s->addr = addr;
    s->size = size;
    s->name[0] = '\0';
    if (name != NULL)
        strncat(s->name, name, SYMBOL_NAME_MAX);
    plat_mutex_unlock(&sym_lock);
    return ACL_SUCCESS;
}

bool symbol_unregister(const void *addr)
{
    struct symbol *s;
    plat_mutex_lock(&sym_lock);
    s = find_locked(addr);
    if (s != NULL) {
        *s = syms[--nsyms]; /* order does not matter: lookups match exactly */
        if (nsyms == 0) {
            acl_free(syms);
            syms = NULL;
            capsyms = 0;
        }
    }
    plat_mutex_unlock(&sym_lock);
    return s != NULL;
}

bool symbol_lookup(const void *addr, struct symbol_info *out)
{
    struct symbol *s;
    plat_mutex_lock(&sym_lock);
    s = find_locked(addr);
    if (s != NULL) {
        out->dev = (void *)(uintptr_t)s->addr; /* the device address is the host one (file comment) */
        out->size = s->size;
        memcpy(out->name, s->name, sizeof(out->name));
    }
    plat_mutex_unlock(&sym_lock);
    return s != NULL;
}
