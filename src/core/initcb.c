/*
 * initcb.c - the callbacks aclInit and aclFinalize run
 * (aclInitCallbackRegister, aclFinalizeCallbackRegister and their
 * unregisters): two lists of (type, function, user data), in
 * registration order.
 *
 * DESIGN: a growing array per list under initcb_lock. The lists are only
 * read by copying them out (initcb_list); the API layer calls the copies
 * with no lock held, so a callback may register, unregister or call any
 * other function. The memory lives for the process (never released, as
 * registrations outlive aclFinalize).
 *
 * Threads: any host thread. Locks: initcb_lock, taken alone (lockrank.h).
 */
#include "core.h"

struct initcb {
    int32_t type;
    void (*fn)(void);
    void *user;
};

struct initcb_list {
    struct initcb *v;
    size_t n, cap;
};

static plat_mutex initcb_lock;
static struct initcb_list lists[2]; /* [0] aclInit, [1] aclFinalize; initcb_lock */

__attribute__((constructor)) static void initcb_init(void) { plat_mutex_init(&initcb_lock, LOCK_INITCB); }

static bool has_type(const struct initcb_list *l, int32_t type)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->v[i].type == type)
            return true;
    return false;
}

aclError initcb_register(bool fini, int32_t type, int32_t other_type, void (*fn)(void), void *user)
{
    struct initcb_list *l = &lists[fini ? 1 : 0];
    aclError err = ACL_SUCCESS;
    plat_mutex_lock(&initcb_lock);
    if (type != other_type && has_type(l, type)) {
        err = ACL_ERROR_INTERNAL_ERROR;
    } else if (l->n == l->cap) {
        size_t cap = l->cap != 0 ? l->cap * 2 : 8;
        struct initcb *v = acl_realloc(l->v, cap * sizeof(*v));
        if (v == NULL) {
            err = ACL_ERROR_BAD_ALLOC;
        } else {
            l->v = v;
            l->cap = cap;
        }
    }
    if (err == ACL_SUCCESS)
        l->v[l->n++] = (struct initcb){type, fn, user};
    plat_mutex_unlock(&initcb_lock);
    return err;
}

aclError initcb_unregister(bool fini, int32_t type, void (*fn)(void))
{
    struct initcb_list *l = &lists[fini ? 1 : 0];
    aclError err = ACL_ERROR_INTERNAL_ERROR;
    plat_mutex_lock(&initcb_lock);
    for (size_t i = 0; i < l->n; i++) {
        if (l->v[i].type == type && l->v[i].fn == fn) {
            for (size_t j = i + 1; j < l->n; j++)
                l->v[j - 1] = l->v[j];
            l->n--;
            err = ACL_SUCCESS;
            break;
        }
    }
    plat_mutex_unlock(&initcb_lock);
    return err;
}

size_t initcb_list(bool fini, int32_t type, void (**fns)(void), void **users, size_t cap)
{
    const struct initcb_list *l = &lists[fini ? 1 : 0];
    size_t n = 0;
    plat_mutex_lock(&initcb_lock);
    for (size_t i = 0; i < l->n; i++) {
        if (l->v[i].type != type)
            continue;
        if (n < cap) {
            fns[n] = l->v[i].fn;
            users[n] = l->v[i].user;
        }
        n++;
    }
    plat_mutex_unlock(&initcb_lock);
    return n < cap || cap == 0 ? n : cap;
}
