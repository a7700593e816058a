/*
 * mbuf.h - shared buffers (aclrtAllocBuf's mbufs): a buffer header with a
 * 96-byte user-data area and a valid-data length, pointing at a data block
 * that CopyBufRef shares between headers (the block goes when its last
 * header does), and chains of up to 128 headers that the chain's first
 * buffer owns. Each function checks what the driver checks, after the
 * caller's argument checks, and fails with a message naming fn.
 */
#ifndef ACLCPU_MBUF_H
#define ACLCPU_MBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"

#define MBUF_USER_DATA_SIZE 96u              /* the user-data (private) area of each header */
#define MBUF_CHAIN_MAX 128u                  /* buffers in one chain, its head included */
#define MBUF_SIZE_MAX (4ull * 1024 * 1024 * 1024) /* the largest data area */

/* A new buffer of size bytes (size > 0 checked by the caller): 107000
 * above MBUF_SIZE_MAX, 207001 out of memory. */
aclError mbuf_alloc(const char *fn, size_t size, aclrtMbuf *out);
/* Frees a chain's head and every buffer of its chain: 107017 for no live
 * buffer, 107000 for a buffer appended to another's chain. */
aclError mbuf_free(const char *fn, aclrtMbuf buf);
/* The data area and its size. */
aclError mbuf_data(const char *fn, aclrtMbuf buf, void **data, size_t *size);
aclError mbuf_get_len(const char *fn, aclrtMbuf buf, size_t *len);
/* len above the data area's size: 107000. */
aclError mbuf_set_len(const char *fn, aclrtMbuf buf, size_t len);
/* Copies size bytes at offset of the user-data area out (to_user) or in;
 * the caller has checked offset + size against MBUF_USER_DATA_SIZE. */
aclError mbuf_user_data(const char *fn, aclrtMbuf buf, void *user, size_t size, size_t offset, bool to_user);
/* A new header on buf's data block, with a copy of buf's length and user data. */
aclError mbuf_copy_ref(const char *fn, aclrtMbuf buf, aclrtMbuf *out);
aclError mbuf_chain_append(const char *fn, aclrtMbuf head, aclrtMbuf buf);
aclError mbuf_chain_num(const char *fn, aclrtMbuf head, uint32_t *num);
aclError mbuf_chain_get(const char *fn, aclrtMbuf head, uint32_t index, aclrtMbuf *out);

#endif
