/*
 * share.c - memory files published to other processes of the same user.
 *
 * DESIGN: nothing is named anywhere. An export is two memory files of the
 * exporter: the data file the caller made, and a small control file (one
 * struct share_ctl) that says which data descriptor to open, what the
 * caller's meta data is, and which pids may import. The key carries the
 * exporter's pid, the control file's descriptor number and a 12-bit tag
 * that must match the control file's, so a stale or made-up key fails
 * instead of opening some other file. An importer opens both files through
 * /proc/<pid>/fd/<n> (plat_peer_fd_open), which the kernel allows only to
 * processes of the same user; the files are the exporter's own descriptors,
 * so when it exits - even killed - they go away with it, and a file an
 * importer opened lives until the importer closes it.
 *
 * The allow-list lives in the control file, written only by the exporter:
 * a pid is written before npids counts it (release), and an importer reads
 * npids (acquire) before the pids. Withdrawing an export clears magic
 * before its descriptors close, and an importer checks magic again after
 * opening the data file, so it never keeps a descriptor number the
 * exporter reused for something else.
 *
 * Threads: any host thread. Locks: share_lock (rank: lockrank.h) guards
 * this process's list of exports.
 */
#include <string.h>

#include "../common/common.h"
#include "../platform/platform.h"
#include "share.h"

#define SHARE_MAGIC 0x61636c6370757368ull /* "aclcpush" */
#define TAG_BITS 12
#define FD_BITS 20

struct share_ctl {
    _Atomic uint64_t magic;         /* SHARE_MAGIC while published; 0 once withdrawn */
    uint32_t kind;
    uint32_t tag;
    int32_t owner;                  /* the exporter's pid */
    int32_t data_fd;                /* the data file's descriptor in the exporter */
    uint32_t check_pids;
    _Atomic uint32_t npids;
    uint8_t meta[SHARE_META_BYTES];
    int32_t pids[SHARE_MAX_PIDS];
};

struct share_export {
    struct share_export *next;
    struct share_ctl *ctl;          /* the control file, mapped writable */
    size_t ctl_span;
    int ctl_fd;
    uint64_t key;
};

static plat_mutex share_lock;
static struct share_export *exports;
static size_t nexports;
static _Atomic uint32_t next_tag;

__attribute__((constructor)) static void share_init(void) { plat_mutex_init(&share_lock, LOCK_SHARE); }

static size_t ctl_span(void) { return (sizeof(struct share_ctl) + 4095) & ~(size_t)4095; }

static uint64_t make_key(int32_t pid, int fd, uint32_t tag)
{
    return (uint64_t)(uint32_t)pid << 32 | (uint64_t)(uint32_t)fd << TAG_BITS | tag;
}

/* Maps a control file (ours or a peer's) at a fresh reservation. */
static struct share_ctl *ctl_map(int fd, bool writable)
{
    size_t span = ctl_span();
    void *at = plat_vm_reserve(span, 4096);
    if (at == NULL)
        return NULL;
    if (!plat_vm_map_file(at, span, fd, 0, writable)) {
        plat_vm_release(at, span);
        return NULL;
    }
    return at;
}

enum share_status share_publish(int data_fd, uint32_t kind, const void *meta, size_t meta_len, bool check_pids,
                                struct share_export **out, uint64_t *key)
{
    struct share_export *e = acl_calloc(1, sizeof(*e));
    uint32_t tag = (fetch_add_relaxed(&next_tag, 1) % ((1u << TAG_BITS) - 1)) + 1; /* never 0 */

    if (e == NULL || meta_len > SHARE_META_BYTES)
        goto fail;
    e->ctl_span = ctl_span();
    e->ctl_fd = plat_memfd("aclcpu-share", e->ctl_span);
    if (e->ctl_fd < 0 || e->ctl_fd >= (1 << FD_BITS) || data_fd < 0)
        goto fail;
    e->ctl = ctl_map(e->ctl_fd, true);
    if (e->ctl == NULL)
        goto fail;
    e->ctl->kind = kind;
    e->ctl->tag = tag;
    e->ctl->owner = plat_pid();
    e->ctl->data_fd = data_fd;
    e->ctl->check_pids = check_pids;
    memcpy(e->ctl->meta, meta, meta_len);
    /* Release: an importer that sees the magic sees the fields above. */
    store_release(&e->ctl->magic, SHARE_MAGIC);
    e->key = make_key(e->ctl->owner, e->ctl_fd, tag);
    plat_mutex_lock(&share_lock);
    e->next = exports;
    exports = e;
    nexports++;
    plat_mutex_unlock(&share_lock);
    *out = e;
    *key = e->key;
    return SHARE_OK;
fail:
    if (e != NULL && e->ctl_fd > 0)
        plat_close(e->ctl_fd);
    acl_free(e);
    return SHARE_NO_MEMORY;
}

struct share_export *share_find(uint64_t key, uint32_t kind)
{
    struct share_export *e;
    plat_mutex_lock(&share_lock);
    for (e = exports; e != NULL; e = e->next)
        if (e->key == key && e->ctl->kind == kind)
            break;
    plat_mutex_unlock(&share_lock);
    return e;
}

static bool pid_listed(const struct share_ctl *c, uint32_t n, int32_t pid)
{
    for (uint32_t i = 0; i < n; i++)
        if (c->pids[i] == pid)
            return true;
    return false;
}

enum share_status share_allow_pids(struct share_export *e, const int32_t *pids, size_t n)
{
    enum share_status st = SHARE_OK;
    plat_mutex_lock(&share_lock); /* one writer of the list at a time */
    uint32_t count = load_relaxed(&e->ctl->npids);
    for (size_t i = 0; i < n && st == SHARE_OK; i++) {
        if (pid_listed(e->ctl, count, pids[i]))
            continue;
        if (count == SHARE_MAX_PIDS) {
            st = SHARE_PIDS_FULL;
            break;
        }
        e->ctl->pids[count++] = pids[i];
        /* Release: an importer that counts the pid reads it written. */
        store_release(&e->ctl->npids, count);
    }
    plat_mutex_unlock(&share_lock);
    return st;
}

void share_unpublish(struct share_export *e)
{
    struct share_export **pp;
    plat_mutex_lock(&share_lock);
    for (pp = &exports; *pp != NULL; pp = &(*pp)->next) {
        if (*pp == e) {
            *pp = e->next;
            nexports--;
            break;
        }
    }
    plat_mutex_unlock(&share_lock);
    /* Release: cleared before the descriptors close and may be reused. */
    store_release(&e->ctl->magic, 0);
    plat_vm_release(e->ctl, e->ctl_span);
    plat_close(e->ctl_fd);
    acl_free(e);
}

size_t share_count(void)
{
    size_t n;
    plat_mutex_lock(&share_lock);
    n = nexports;
    plat_mutex_unlock(&share_lock);
    return n;
}

/* Checks a peer's control file against the key and this process's pid. */
static enum share_status ctl_check(const struct share_ctl *c, uint64_t key, uint32_t kind, int32_t self)
{
    /* Acquire: pairs with the publisher's release of the fields. */
    if (load_acquire(&c->magic) != SHARE_MAGIC || c->kind != kind || c->tag != (key & ((1u << TAG_BITS) - 1)) ||
        c->owner != (int32_t)(key >> 32))
        return SHARE_BAD_KEY;
    if (c->check_pids) {
        /* Acquire: pairs with share_allow_pids' release of npids. */
        uint32_t n = load_acquire(&c->npids);
        if (n > SHARE_MAX_PIDS || !pid_listed(c, n, self))
            return SHARE_DENIED;
    }
    return SHARE_OK;
}

enum share_status share_open(uint64_t key, uint32_t kind, int *data_fd, void *meta, size_t meta_len)
{
    int32_t owner = (int32_t)(key >> 32);
    int ctl_fd_no = (int)((key >> TAG_BITS) & ((1u << FD_BITS) - 1));
    struct share_ctl *c;
    enum share_status st;
    int ctl_fd, fd = -1;

    if (owner <= 0 || (key & ((1u << TAG_BITS) - 1)) == 0 || meta_len > SHARE_META_BYTES)
        return SHARE_BAD_KEY;
    if (owner == plat_pid())
        return share_find(key, kind) != NULL ? SHARE_SELF : SHARE_BAD_KEY;
    ctl_fd = plat_peer_fd_open(owner, ctl_fd_no);
    if (ctl_fd < 0)
        return SHARE_BAD_KEY;
    /* A key naming some other file must not map past its end (SIGBUS). */
    c = plat_fd_size(ctl_fd) == (int64_t)ctl_span() ? ctl_map(ctl_fd, false) : NULL;
    plat_close(ctl_fd); /* the mapping keeps the file */
    if (c == NULL)
        return SHARE_BAD_KEY; /* not a memory file of the right size */
    st = ctl_check(c, key, kind, plat_pid());
    if (st == SHARE_OK) {
        fd = plat_peer_fd_open(owner, c->data_fd);
        memcpy(meta, c->meta, meta_len);
        /* Withdrawn meanwhile: the descriptor number may name another file. */
        if (fd < 0 || ctl_check(c, key, kind, plat_pid()) != SHARE_OK)
            st = SHARE_BAD_KEY;
    }
    plat_vm_release(c, ctl_span());
    if (st != SHARE_OK && fd >= 0)
        plat_close(fd);
    if (st == SHARE_OK)
        *data_fd = fd;
    return st;
}
