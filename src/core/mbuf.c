/*
 * mbuf.c - shared buffers: headers (checked handles, OBJ_MBUF), the data
 * blocks they point at, and chains.
 *
 * DESIGN: what the driver's mbuf pool does, on the host heap. A header
 * holds its own valid-data length and 96-byte user-data area; its data
 * block is shared: aclrtCopyBufRef makes a second header on the same block
 * (copying the length and the user data), and a block is freed when the
 * last header on it is. A chain is a singly linked list of headers owned by
 * its first buffer (the head): appending takes a lone buffer (one heading
 * no chain of its own, appended to none), at most 128 buffers a chain, and
 * freeing the head frees the whole chain; a buffer appended to a chain is
 * freed with it, never alone (107000), and is no head for the chain calls.
 * A freed header's handle stops resolving at once (107017 afterwards), so
 * a stale buffer is an error, never a read of freed memory; the header's
 * memory is type-stable (core/handle.h). Nothing here needs aclInit or a
 * device: the pool is the process's.
 *
 * Threads: any host thread. Locks: mbuf_lock (rank: lockrank.h) guards
 * every header's fields and every block's reference count; a call resolves
 * its handles under it, so a buffer freed by another thread is either
 * still whole or already stale. Allocation of a header and a block happens
 * before the lock; a free's blocks and headers go back after it.
 */
#include <string.h>

#include "../common/common.h"
#include "../platform/platform.h"
#include "core.h"
#include "mbuf.h"

struct mbuf_block {
    uint32_t refs; /* headers on the block, under mbuf_lock */
    size_t size;
    void *data;
};

struct mbuf {
    struct obj_header hdr;
    /* Under mbuf_lock from here on. */
    struct mbuf_block *block;
    size_t data_len;
    struct mbuf *next;   /* the next buffer of the chain */
    struct mbuf *owner;  /* the chain's head, for a buffer appended to one; NULL for a head */
    struct mbuf *tail;   /* a head's last buffer (itself when alone) */
    uint32_t chain_len;  /* a head's buffers, itself included */
    unsigned char user[MBUF_USER_DATA_SIZE];
};

static plat_mutex mbuf_lock;

__attribute__((constructor)) static void mbuf_init(void) { plat_mutex_init(&mbuf_lock, LOCK_MBUF); }

/* The live header handle names, or NULL after recording why (107017). */
static struct mbuf *resolve_locked(const char *fn, const char *arg, aclrtMbuf handle)
{
    PLAT_ASSERT_HELD(&mbuf_lock);
    struct mbuf *m = (struct mbuf *)obj_resolve(handle, OBJ_MBUF);
    if (m == NULL)
        (void)acl_fail(ACL_ERROR_RT_INVALID_HANDLE,
                       "%s: argument '%s' (%p) is not a live shared buffer: it was freed (or its chain's head was), "
                       "or aclrtAllocBuf/aclrtCopyBufRef did not make it",
                       fn, arg, handle);
    return m;
}

/* A buffer the chain calls take as headBuf: one appended to another's chain is not. */
static aclError require_head_locked(const char *fn, const char *arg, aclrtMbuf handle, struct mbuf *m)
{
    PLAT_ASSERT_HELD(&mbuf_lock);
    if (m->owner == NULL)
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                    "%s: argument '%s' (%p) is appended to the chain headed by %p; only a chain's first buffer heads "
                    "it",
                    fn, arg, handle, obj_handle(&m->owner->hdr));
}

/* A fresh header, not yet published; NULL out of memory or handles. */
static struct mbuf *header_new(void)
{
    bool fresh;
    return obj_create(OBJ_MBUF, sizeof(struct mbuf), OBJ_CLEAR_ALL, &fresh);
}

static void header_start(struct mbuf *m, struct mbuf_block *b)
{
    m->block = b;
    m->next = NULL;
    m->owner = NULL;
    m->tail = m;
    m->chain_len = 1;
}

aclError mbuf_alloc(const char *fn, size_t size, aclrtMbuf *out)
{
    struct mbuf_block *b;
    struct mbuf *m;

    if ((unsigned long long)size > MBUF_SIZE_MAX)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'size' (%zu) is above 4 GiB (%llu), the largest "
                        "shared buffer", fn, size, MBUF_SIZE_MAX);
    b = acl_malloc(sizeof(*b));
    m = header_new();
    if (b != NULL)
        b->data = acl_calloc(1, size);
    if (b == NULL || m == NULL || b->data == NULL) {
        if (b != NULL)
            acl_free(b->data);
        acl_free(b);
        if (m != NULL)
            obj_recycle(&m->hdr);
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory (or of shared buffer handles) for a "
                        "buffer of %zu bytes", fn, size);
    }
    b->refs = 1;
    b->size = size;
    header_start(m, b); /* data_len 0 and user data zero: obj_create cleared them */
    obj_publish(&m->hdr); /* release: the fields are set before the handle resolves */
    *out = obj_handle(&m->hdr);
    return ACL_SUCCESS;
}

aclError mbuf_free(const char *fn, aclrtMbuf buf)
{
    struct mbuf *dead[MBUF_CHAIN_MAX];
    struct mbuf_block *blocks[MBUF_CHAIN_MAX];
    uint32_t n = 0, nb = 0;
    struct mbuf *m;
    aclError err;

    plat_mutex_lock(&mbuf_lock);
    m = resolve_locked(fn, "buf", buf);
    if (m == NULL || m->owner != NULL) {
        err = m == NULL ? ACL_ERROR_RT_INVALID_HANDLE
                        : acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                                   "%s: argument 'buf' (%p) is appended to the chain headed by %p; freeing that head "
                                   "frees it",
                                   fn, buf, obj_handle(&m->owner->hdr));
        plat_mutex_unlock(&mbuf_lock);
        return err;
    }
    for (struct mbuf *c = m; c != NULL; c = c->next) {
        obj_kill(&c->hdr); /* its handle stops resolving now */
        dead[n++] = c;
        if (--c->block->refs == 0)
            blocks[nb++] = c->block;
        c->block = NULL;
    }
    plat_mutex_unlock(&mbuf_lock);
    for (uint32_t i = 0; i < nb; i++) {
        acl_free(blocks[i]->data);
        acl_free(blocks[i]);
    }
    for (uint32_t i = 0; i < n; i++)
        obj_recycle(&dead[i]->hdr);
    return ACL_SUCCESS;
}

aclError mbuf_data(const char *fn, aclrtMbuf buf, void **data, size_t *size)
{
    struct mbuf *m;

    plat_mutex_lock(&mbuf_lock);
    m = resolve_locked(fn, "buf", buf);
    if (m != NULL) {
        *data = m->block->data;
        *size = m->block->size;
    }
    plat_mutex_unlock(&mbuf_lock);
    return m == NULL ? ACL_ERROR_RT_INVALID_HANDLE : ACL_SUCCESS;
}

aclError mbuf_get_len(const char *fn, aclrtMbuf buf, size_t *len)
{
    struct mbuf *m;

    plat_mutex_lock(&mbuf_lock);
    m = resolve_locked(fn, "buf", buf);
    if (m != NULL)
        *len = m->data_len;
    plat_mutex_unlock(&mbuf_lock);
    return m == NULL ? ACL_ERROR_RT_INVALID_HANDLE : ACL_SUCCESS;
}

aclError mbuf_set_len(const char *fn, aclrtMbuf buf, size_t len)
{
    aclError err = ACL_SUCCESS;
    struct mbuf *m;

    plat_mutex_lock(&mbuf_lock);
    m = resolve_locked(fn, "buf", buf);
    if (m == NULL)
        err = ACL_ERROR_RT_INVALID_HANDLE;
    else if (len > m->block->size)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'len' (%zu) is above the buffer's data area (%zu "
                       "bytes, aclrtGetBufData's size)", fn, len, m->block->size);
    else
        m->data_len = len;
    plat_mutex_unlock(&mbuf_lock);
    return err;
}

aclError mbuf_user_data(const char *fn, aclrtMbuf buf, void *user, size_t size, size_t offset, bool to_user)
{
    struct mbuf *m;

    plat_mutex_lock(&mbuf_lock);
    m = resolve_locked(fn, "buf", buf);
    if (m != NULL && size > 0) {
        if (to_user)
            memcpy(user, m->user + offset, size);
        else
            memcpy(m->user + offset, user, size);
    }
    plat_mutex_unlock(&mbuf_lock);
    return m == NULL ? ACL_ERROR_RT_INVALID_HANDLE : ACL_SUCCESS;
}

aclError mbuf_copy_ref(const char *fn, aclrtMbuf buf, aclrtMbuf *out)
{
    struct mbuf *n = header_new(), *m;

    if (n == NULL)
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory (or of shared buffer handles)", fn);
    plat_mutex_lock(&mbuf_lock);
    m = resolve_locked(fn, "buf", buf);
    if (m != NULL) {
        header_start(n, m->block);
        m->block->refs++;
        n->data_len = m->data_len;
        memcpy(n->user, m->user, sizeof(n->user));
        obj_publish(&n->hdr);
    }
    plat_mutex_unlock(&mbuf_lock);
    if (m == NULL) {
        obj_recycle(&n->hdr); /* never published */
        return ACL_ERROR_RT_INVALID_HANDLE;
    }
    *out = obj_handle(&n->hdr);
    return ACL_SUCCESS;
}

aclError mbuf_chain_append(const char *fn, aclrtMbuf head, aclrtMbuf buf)
{
    aclError err = ACL_SUCCESS;
    struct mbuf *h, *m = NULL;

    plat_mutex_lock(&mbuf_lock);
    h = resolve_locked(fn, "headBuf", head);
    if (h == NULL || (m = resolve_locked(fn, "buf", buf)) == NULL)
        err = ACL_ERROR_RT_INVALID_HANDLE;
    else if ((err = require_head_locked(fn, "headBuf", head, h)) != ACL_SUCCESS)
        ;
    else if (m == h)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: arguments 'headBuf' and 'buf' are the same buffer (%p); a "
                       "buffer cannot be appended to its own chain", fn, buf);
    else if (m->owner != NULL)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'buf' (%p) is already appended to the chain headed "
                       "by %p", fn, buf, obj_handle(&m->owner->hdr));
    else if (m->chain_len > 1)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'buf' (%p) heads a chain of %u buffers; only a lone "
                       "buffer is appended", fn, buf, m->chain_len);
    else if (h->chain_len >= MBUF_CHAIN_MAX)
        err = acl_fail(ACL_ERROR_RT_OVER_LIMIT, "%s: the chain headed by 'headBuf' (%p) already holds %u buffers, "
                       "the most a chain holds", fn, head, MBUF_CHAIN_MAX);
    else {
        h->tail->next = m;
        h->tail = m;
        h->chain_len++;
        m->owner = h;
    }
    plat_mutex_unlock(&mbuf_lock);
    return err;
}

aclError mbuf_chain_num(const char *fn, aclrtMbuf head, uint32_t *num)
{
    aclError err = ACL_SUCCESS;
    struct mbuf *h;

    plat_mutex_lock(&mbuf_lock);
    h = resolve_locked(fn, "headBuf", head);
    if (h == NULL)
        err = ACL_ERROR_RT_INVALID_HANDLE;
    else if ((err = require_head_locked(fn, "headBuf", head, h)) == ACL_SUCCESS)
        *num = h->chain_len;
    plat_mutex_unlock(&mbuf_lock);
    return err;
}

aclError mbuf_chain_get(const char *fn, aclrtMbuf head, uint32_t index, aclrtMbuf *out)
{
    aclError err = ACL_SUCCESS;
    struct mbuf *h, *c;

    plat_mutex_lock(&mbuf_lock);
    h = resolve_locked(fn, "headBuf", head);
    if (h == NULL)
        err = ACL_ERROR_RT_INVALID_HANDLE;
    else if ((err = require_head_locked(fn, "headBuf", head, h)) != ACL_SUCCESS)
        ;
    else if (index >= h->chain_len)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'index' (%u) is not below the chain's %u buffers "
                       "(aclrtGetBufChainNum)", fn, index, h->chain_len);
    else {
        c = h;
        for (uint32_t i = 0; i < index; i++) /* bounded: index < chain_len <= 128 */
            c = c->next;
        *out = obj_handle(&c->hdr);
    }
    plat_mutex_unlock(&mbuf_lock);
    return err;
}
