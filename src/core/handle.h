/*
 * handle.h - checked user handles.
 *
 * A user handle is never a pointer: it encodes a tag, the object type, a
 * generation and a slot index. Resolving checks all four, so NULL, a
 * garbage value, a handle of another type or a destroyed object is caught
 * without touching memory the caller made up. Objects are type-stable: a
 * destroyed object's memory goes back to its type's free list (after a
 * quarantine of 64 newer frees) and is only
 * ever reused for an object of the same type, never returned to malloc.
 * A thread that raced with a destroy therefore still reads a valid object
 * of the right type and fails the generation check it repeats under the
 * object's lock.
 */
#ifndef ACLCPU_HANDLE_H
#define ACLCPU_HANDLE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum obj_type {
    OBJ_CONTEXT = 1,
    OBJ_STREAM,
    OBJ_EVENT,
    OBJ_NOTIFY,
    OBJ_BINARY,
    OBJ_FUNC,
    OBJ_MODEL,
    OBJ_ARGS,
    OBJ_TASKGRP,
    OBJ_BINDESC,   /* aclrtCreateBinary's descriptions (api/api_binary.c) */
    OBJ_DATABUF,   /* aclCreateDataBuffer's buffers (api/api_databuf.c) */
    OBJ_LABEL,     /* labels and label lists (core/label.c) */
    OBJ_LABELLIST,
    OBJ_COND,      /* a captured model's conditions (core/cond.c) */
    OBJ_MBUF,      /* aclrtAllocBuf's shared buffers (core/mbuf.c) */
    OBJ_CNT_NOTIFY, /* aclrtCntNotifyCreate's counting notifies (core/event.c) */
    OBJ_TYPE_COUNT
};

struct obj_header {
    /* Bumped when the object dies; a handle names one generation.
     * Written under the owning object's lock, read with acquire so a
     * resolver that sees the current generation also sees the fields the
     * creator initialised before publishing it. */
    _Atomic uint32_t gen;
    _Atomic bool live;
    uint8_t type;
    /* An internal object (a model's lane runner or completion event): set
     * before obj_publish, so a resolver that sees it live sees this too.
     * User handles never resolve to it (obj_resolve_user). Atomic: a
     * resolver holding a handle that died meanwhile may read it while the
     * slot is made anew (relaxed: the caller's later checks of the handle,
     * under the object's lock, decide). */
    _Atomic bool hidden;
    /* Published at least once (obj_publish), never cleared: the one-time
     * members (locks) are initialised. A scan of every slot (obj_header_at)
     * skips a slot without it: its first object is still being made. */
    _Atomic bool ready;
    uint32_t index;
    struct obj_header *free_next; /* type free list, under the table lock */
};

/* Allocates an object of size bytes and gives it a slot. Recycled memory
 * is zeroed from clear_from on (at least sizeof(struct obj_header));
 * *fresh says whether the memory is new (all zero, so one-time members such
 * as locks need initialising). NULL when out of memory or slots. */
void *obj_create(enum obj_type type, size_t size, size_t clear_from, bool *fresh);
#define OBJ_CLEAR_ALL sizeof(struct obj_header)
/* Publishes a created object: from here on its handle resolves. */
void obj_publish(struct obj_header *h);
/* Ends the object's life: its handle stops resolving at once. */
void obj_kill(struct obj_header *h);
/* Puts a killed object's memory on the free list for reuse. */
void obj_recycle(struct obj_header *h);

void *obj_handle(const struct obj_header *h);
uint32_t obj_count(enum obj_type type);
/* Slots made so far for type (live or not): indices below it may name one. */
uint32_t obj_slot_count(enum obj_type type);
/* The object memory of slot index, live or not (objects are type-stable:
 * it stays that type's), or NULL if the slot was never made. */
struct obj_header *obj_header_at(enum obj_type type, uint32_t index);
/* The handle of the live object in slot index (an id such as
 * aclmdlRIGetId's), or NULL. */
void *obj_handle_at(enum obj_type type, uint32_t index);

/* ---- resolving, inline: every API call does it at least once ---------- */

#define OBJ_HANDLE_TAG 0xACu
#define OBJ_CHUNK_SHIFT 10
#define OBJ_CHUNK_SIZE (1u << OBJ_CHUNK_SHIFT)
#define OBJ_MAX_CHUNKS 1024u /* 1M objects per type */
/* A handle: the tag (bits 56-63), the type (51-55), the generation (32-50)
 * and the slot (0-31). */
#define OBJ_TYPE_SHIFT 51
#define OBJ_TYPE_MASK 0x1Fu
#define OBJ_GEN_MASK 0x7FFFFu
_Static_assert(OBJ_TYPE_COUNT - 1 <= OBJ_TYPE_MASK, "object types must fit the handle's type field");

/* Per type, the chunks of slots (handle.c): set once, never moved. */
extern _Atomic(_Atomic(struct obj_header *) *) obj_chunks[OBJ_TYPE_COUNT][OBJ_MAX_CHUNKS];

/* True while h is still the object that handle named. */
static inline bool obj_same(const struct obj_header *h, const void *handle)
{
    uint64_t v = (uint64_t)(uintptr_t)handle;
    /* Acquire: seeing the published generation means seeing the fields. */
    uint32_t gen = load_acquire(&h->gen);
    return load_acquire(&h->live) && (gen & OBJ_GEN_MASK) == ((v >> 32) & OBJ_GEN_MASK);
}

/* Returns the live object named by handle, or NULL if it is not one. */
static inline struct obj_header *obj_resolve(const void *handle, enum obj_type type)
{
    uint64_t v = (uint64_t)(uintptr_t)handle;
    uint32_t idx = (uint32_t)v, c = idx >> OBJ_CHUNK_SHIFT;
    _Atomic(struct obj_header *) *chunk;
    struct obj_header *h;

    if ((v >> 56) != OBJ_HANDLE_TAG || ((v >> OBJ_TYPE_SHIFT) & OBJ_TYPE_MASK) != (uint64_t)type || c >= OBJ_MAX_CHUNKS)
        return NULL;
    /* Acquire: pairs with the release stores that publish a chunk and a
     * slot (new_slot), so a slot seen is seen initialised. */
    chunk = load_acquire(&obj_chunks[type][c]);
    if (chunk == NULL)
        return NULL;
    h = load_acquire(&chunk[idx & (OBJ_CHUNK_SIZE - 1)]);
    if (h == NULL || !obj_same(h, handle))
        return NULL;
    return h;
}

/* obj_resolve for a handle the user passed: an internal object is not
 * one, even when the handle is forged to name its slot. */
static inline struct obj_header *obj_resolve_user(const void *handle, enum obj_type type)
{
    struct obj_header *h = obj_resolve(handle, type);
    return h != NULL && !load_relaxed(&h->hidden) ? h : NULL;
}

#endif
