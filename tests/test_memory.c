/*
 * test_memory.c - device and host memory, synchronous and asynchronous
 * copies and memsets.
 *
 * Rules: spec/acl-api.md §5 "Memory" (aclrtMalloc NULL/size 0, rounding to
 * 32 bytes plus 32 bytes of padding, Free NULL, count == 0 succeeds before
 * any other check, NULL dst/src, invalid kind) as the reference orders them
 * (memory.cpp's checks, 100000, before api_error.cc's: count > destMax is
 * 107000, then the context), §2
 * (ACL_ERROR_RT_MEMORY_ALLOCATION); DESIGN "Errors and handles" (nothing a
 * caller passes may crash the library) and "Configuration"
 * (ACLCPU_DEVICE_MEMORY).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

#include "test.h"

#define MIB (1024u * 1024u)
#define BAD_STREAM ((aclrtStream)(uintptr_t)0x1234)

/* What aclrtMalloc charges for a block: round to 32, add 32 (spec §5). */
static size_t charge(size_t n) { return (n + 31) / 32 * 32 + 32; }

static void mem_info(size_t *free_b, size_t *total_b)
{
    ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, free_b, total_b));
}

/* ---- aclrtMalloc / aclrtFree ---------------------------------------------------- */

TEST(memory, malloc_argument_checks)
{
    void *p = NULL;
    t_setup();
    ASSERT_RC(aclrtMalloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMalloc(NULL, 0, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT(p != NULL);
    ASSERT_OK(aclrtFree(p));
    ASSERT_OK(aclrtMalloc(&p, 1, ACL_MEM_MALLOC_NORMAL_ONLY));
    ASSERT(p != NULL);
    ASSERT_OK(aclrtFree(p));
    t_teardown();
}

TEST(memory, get_mem_info_null)
{
    size_t f = 0, t = 0;
    t_setup();
    ASSERT_RC(aclrtGetMemInfo(ACL_HBM_MEM, NULL, &t), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetMemInfo(ACL_HBM_MEM, &f, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetMemInfo(ACL_DDR_MEM, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    mem_info(&f, &t);
    ASSERT(t > 0);
    ASSERT(f <= t);
    t_teardown();
}

TEST(memory, device_memory_cap_and_rounding)
{
    enum { CAP = 4096 };
    static void *blk[CAP];
    size_t f = 0, t = 0, used;
    void *p = NULL, *q = NULL, *r = NULL;
    int n = 0;
    aclError rc = ACL_SUCCESS;

    setenv("ACLCPU_DEVICE_MEMORY", "1M", 1);
    t_setup();
    mem_info(&f, &t);
    ASSERT_EQ(t, MIB);
    ASSERT_EQ(f, MIB);

    /* Rounded up to 32 bytes, plus 32 bytes of padding, per block. */
    ASSERT_OK(aclrtMalloc(&p, 100, ACL_MEM_MALLOC_HUGE_FIRST));
    mem_info(&f, &t);
    ASSERT_EQ(f, MIB - 160);
    ASSERT_OK(aclrtMalloc(&q, 1, ACL_MEM_MALLOC_HUGE_FIRST));
    mem_info(&f, &t);
    ASSERT_EQ(f, MIB - 160 - 64);
    ASSERT_OK(aclrtMalloc(&r, 32, ACL_MEM_MALLOC_HUGE_FIRST));
    mem_info(&f, &t);
    ASSERT_EQ(f, MIB - 160 - 64 - 64);
    ASSERT_EQ(t, MIB);
    ASSERT_OK(aclrtFree(q));
    ASSERT_OK(aclrtFree(r));
    mem_info(&f, &t);
    ASSERT_EQ(f, MIB - 160);
    ASSERT_OK(aclrtFree(p));
    mem_info(&f, &t);
    ASSERT_EQ(f, MIB);

    /* More than there is. */
    ASSERT_RC(aclrtMalloc(&p, 2 * MIB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    ASSERT_RC(aclrtMalloc(&p, MIB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION); /* + padding */
    ASSERT_RC(aclrtMalloc(&p, SIZE_MAX - 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    ASSERT_OK(aclrtMalloc(&p, MIB - 32, ACL_MEM_MALLOC_HUGE_FIRST)); /* exactly everything */
    mem_info(&f, &t);
    ASSERT_EQ(f, 0);
    ASSERT_RC(aclrtMalloc(&q, 1, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    ASSERT_OK(aclrtFree(p));

    /* Fill with 1000-byte blocks (1056 bytes each). */
    while (n < CAP && (rc = aclrtMalloc(&blk[n], 1000, ACL_MEM_MALLOC_HUGE_FIRST)) == ACL_SUCCESS)
        n++;
    ASSERT_RC(rc, ACL_ERROR_RT_MEMORY_ALLOCATION);
    ASSERT_EQ((size_t)n, MIB / charge(1000));
    used = (size_t)n * charge(1000);
    mem_info(&f, &t);
    ASSERT_EQ(f, MIB - used);
    /* What is left still serves a block that fits it exactly. */
    ASSERT_OK(aclrtMalloc(&p, f - 32, ACL_MEM_MALLOC_HUGE_FIRST));
    mem_info(&f, &t);
    ASSERT_EQ(f, 0);
    ASSERT_RC(aclrtMalloc(&q, 1, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    /* Freeing one block makes room for one again. */
    ASSERT_OK(aclrtFree(blk[n / 2]));
    ASSERT_OK(aclrtMalloc(&blk[n / 2], 1000, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_RC(aclrtMalloc(&q, 1000, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    for (int i = 0; i < n; i++)
        ASSERT_OK(aclrtFree(blk[i]));
    ASSERT_OK(aclrtFree(p));
    mem_info(&f, &t);
    ASSERT_EQ(f, MIB);
    t_teardown();
}

/* aclrtFree: NULL 100000, anything but the start of a live block 207002.
 * aclrtFreeHost: NULL 100000; device memory or a freed pinned block fail
 * the runtime's attribute check (107000); other memory that starts no
 * live aclrtMallocHost block is the driver's 207002. */
TEST(memory, free_bad_pointers)
{
    void *p = NULL, *h = NULL;
    int on_stack = 0;
    t_setup();
    ASSERT_RC(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtFreeHost(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT(aclrtFree(&on_stack) != ACL_SUCCESS);
    ASSERT(aclrtFree((void *)(uintptr_t)0x1000) != ACL_SUCCESS);
    ASSERT_OK(aclrtMalloc(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT(aclrtFree((char *)p + 8) != ACL_SUCCESS); /* not the start of the block */
    ASSERT_RC(aclrtFreeHost(p), ACL_ERROR_RT_PARAM_INVALID); /* device memory is not host memory */
    ASSERT_OK(aclrtFree(p));
    ASSERT(aclrtFree(p) != ACL_SUCCESS); /* double free */
    ASSERT_OK(aclrtMallocHost(&h, 128));
    ASSERT(aclrtFree(h) != ACL_SUCCESS);
    ASSERT_OK(aclrtFreeHost(h));
    ASSERT_RC(aclrtFreeHost(h), ACL_ERROR_RT_PARAM_INVALID); /* freed: its attributes cannot be read */
    ASSERT_RC(aclrtFreeHost(&on_stack), ACL_ERROR_RT_MEMORY_FREE);
    /* Still works afterwards. */
    ASSERT_OK(aclrtMalloc(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtFree(p));
    t_teardown();
}

TEST(memory, malloc_host_argument_checks)
{
    void *h = NULL;
    t_setup();
    ASSERT_RC(aclrtMallocHost(NULL, 64), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMallocHost(&h, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtMallocHost(&h, 64));
    ASSERT(h != NULL);
    memset(h, 0x5A, 64);
    ASSERT_OK(aclrtFreeHost(h));
    t_teardown();
}

/* ---- count == 0 --------------------------------------------------------------------------- */

TEST(memory, zero_count_succeeds_before_other_checks)
{
    /* Before any context exists, with NULL pointers, bad kinds and streams. */
    ASSERT_OK(aclrtMemcpy(NULL, 0, NULL, 0, ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_OK(aclrtMemcpy(NULL, 0, NULL, 0, (aclrtMemcpyKind)99));
    ASSERT_OK(aclrtMemcpyAsync(NULL, 0, NULL, 0, (aclrtMemcpyKind)-1, BAD_STREAM));
    ASSERT_OK(aclrtMemcpyAsync(NULL, 0, NULL, 0, ACL_MEMCPY_DEVICE_TO_HOST, NULL));
    ASSERT_OK(aclrtMemset(NULL, 0, 0, 0));
    ASSERT_OK(aclrtMemsetAsync(NULL, 0, 0, 0, BAD_STREAM));
    ASSERT_OK(aclrtMemsetAsync(NULL, 0, 0, 0, NULL));
    t_setup();
    {
        char host[16];
        ASSERT_OK(aclrtMemcpy(NULL, 0, host, 0, ACL_MEMCPY_HOST_TO_DEVICE));
        ASSERT_OK(aclrtMemcpy(host, 0, NULL, 0, (aclrtMemcpyKind)42));
        ASSERT_OK(aclrtMemcpy(host, 4, host, 0, ACL_MEMCPY_DEVICE_TO_DEVICE)); /* not device memory */
        ASSERT_OK(aclrtMemcpyAsync(NULL, 0, NULL, 0, (aclrtMemcpyKind)42, BAD_STREAM));
        ASSERT_OK(aclrtMemset(host, 0, 1, 0));
        ASSERT_OK(aclrtMemsetAsync(NULL, 0, 1, 0, BAD_STREAM));
    }
    t_teardown();
}

/* ---- argument checks ---------------------------------------------------------------------- */

TEST(memory, copy_argument_checks)
{
    void *dev = NULL;
    char host[64];
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    memset(host, 1, sizeof(host));

    /* NULL dst / src. */
    ASSERT_RC(aclrtMemcpy(NULL, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemcpy(dev, 64, NULL, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemcpyAsync(NULL, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemcpyAsync(dev, 64, NULL, 64, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_INVALID_PARAM);
    /* count > destMax: the runtime's check (107000). */
    ASSERT_RC(aclrtMemcpy(dev, 32, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemcpyAsync(dev, 32, host, 64, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemcpy(host, 1, dev, 2, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
    /* Invalid kind. */
    ASSERT_RC(aclrtMemcpy(dev, 64, host, 64, (aclrtMemcpyKind)8), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemcpy(dev, 64, host, 64, (aclrtMemcpyKind)99), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemcpy(dev, 64, host, 64, (aclrtMemcpyKind)-1), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemcpyAsync(dev, 64, host, 64, (aclrtMemcpyKind)8, s), ACL_ERROR_INVALID_PARAM);
    /* None of the refused copies touched anything. */
    {
        char back[64];
        memset(back, 9, sizeof(back));
        ASSERT_OK(aclrtSynchronizeStream(s));
        ASSERT_OK(aclrtMemset(dev, 64, 0, 64));
        ASSERT_OK(aclrtMemcpy(back, 64, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST));
        for (int i = 0; i < 64; i++)
            ASSERT_EQ(back[i], 0);
    }
    ASSERT_OK(aclrtFree(dev));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(memory, memset_argument_checks)
{
    void *dev = NULL;
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_RC(aclrtMemset(NULL, 64, 0, 64), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemsetAsync(NULL, 64, 0, 64, s), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemset(dev, 16, 0, 64), ACL_ERROR_RT_PARAM_INVALID); /* count > maxCount: the runtime's */
    ASSERT_RC(aclrtMemsetAsync(dev, 16, 0, 64, s), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtMemset(dev, 64, 0x11, 64));
    ASSERT_OK(aclrtMemsetAsync(dev, 64, 0x22, 64, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(((unsigned char *)dev)[63], 0x22);
    ASSERT_OK(aclrtFree(dev));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(memory, async_copy_stream_checks)
{
    void *dev = NULL;
    char host[32] = {0};
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtMalloc(&dev, 32, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_RC(aclrtMemcpyAsync(dev, 32, host, 32, ACL_MEMCPY_HOST_TO_DEVICE, BAD_STREAM),
              ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtMemsetAsync(dev, 32, 0, 32, BAD_STREAM), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_RC(aclrtMemcpyAsync(dev, 32, host, 32, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtMemsetAsync(dev, 32, 0, 32, s), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtFree(dev));
    t_teardown();
}

/* ---- pointers that are not what the kind says ------------------------------------------------- */

TEST(memory, copy_checks_device_side)
{
    void *dev = NULL;
    static char host[8192], host2[8192];
    t_setup();
    ASSERT_OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    /* H2D into memory that is not device memory. */
    ASSERT(aclrtMemcpy(host2, sizeof(host2), host, 64, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS);
    ASSERT(aclrtMemcpyAsync(host2, sizeof(host2), host, 64, ACL_MEMCPY_HOST_TO_DEVICE, NULL) != ACL_SUCCESS);
    /* D2H from memory that is not device memory. */
    ASSERT(aclrtMemcpy(host2, sizeof(host2), host, 64, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS);
    /* D2D with one side on the host. */
    ASSERT(aclrtMemcpy(dev, 64, host, 64, ACL_MEMCPY_DEVICE_TO_DEVICE) != ACL_SUCCESS);
    /* Overruns past the end of the block (far past its 32-byte padding). */
    ASSERT(aclrtMemcpy(host2, sizeof(host2), dev, 4096, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS);
    ASSERT(aclrtMemcpy(dev, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS);
    ASSERT(aclrtMemcpy(host2, sizeof(host2), (char *)dev + 32, 128, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS);
    ASSERT(aclrtMemcpyAsync(host2, sizeof(host2), dev, 4096, ACL_MEMCPY_DEVICE_TO_HOST, NULL) != ACL_SUCCESS);
    ASSERT(aclrtMemset(dev, 4096, 0, 4096) != ACL_SUCCESS);
    ASSERT(aclrtMemsetAsync(dev, 4096, 0, 4096, NULL) != ACL_SUCCESS);
    /* A freed block is no longer device memory. */
    ASSERT_OK(aclrtFree(dev));
    ASSERT(aclrtMemcpy(host2, sizeof(host2), dev, 16, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS);
    ASSERT(aclrtMemcpy(dev, 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS);
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    t_teardown();
}

TEST(memory, copies_move_data)
{
    enum { N = 1000 };
    void *a = NULL, *b = NULL, *h = NULL;
    static unsigned char src[N], dst[N], dst2[N];
    t_setup();
    for (int i = 0; i < N; i++)
        src[i] = (unsigned char)(i * 7 + 3);
    ASSERT_OK(aclrtMalloc(&a, N, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMalloc(&b, N, ACL_MEM_MALLOC_NORMAL_ONLY));
    ASSERT_OK(aclrtMallocHost(&h, N));
    ASSERT_OK(aclrtMemcpy(a, N, src, N, ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_OK(aclrtMemcpy(b, N, a, N, ACL_MEMCPY_DEVICE_TO_DEVICE));
    ASSERT_OK(aclrtMemcpy(dst, N, b, N, ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT(memcmp(src, dst, N) == 0);
    ASSERT_OK(aclrtMemcpy(h, N, b, N, ACL_MEMCPY_DEVICE_TO_HOST)); /* into pinned host memory */
    ASSERT(memcmp(src, h, N) == 0);
    ASSERT_OK(aclrtMemcpy(dst2, N, h, N, ACL_MEMCPY_HOST_TO_HOST));
    ASSERT(memcmp(src, dst2, N) == 0);
    ASSERT_OK(aclrtMemcpy(dst2, N, a, N, ACL_MEMCPY_DEFAULT));
    ASSERT(memcmp(src, dst2, N) == 0);
    /* A partial copy into the middle of a block. */
    ASSERT_OK(aclrtMemset(a, N, 0, N));
    ASSERT_OK(aclrtMemcpy((char *)a + 100, N - 100, src, 10, ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_OK(aclrtMemcpy(dst, N, a, N, ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT_EQ(dst[99], 0);
    ASSERT_EQ(dst[100], src[0]);
    ASSERT_EQ(dst[109], src[9]);
    ASSERT_EQ(dst[110], 0);
    /* Memset writes only count bytes. */
    ASSERT_OK(aclrtMemset(b, N, 0xAB, 10));
    ASSERT_OK(aclrtMemcpy(dst, N, b, N, ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT_EQ(dst[0], 0xAB);
    ASSERT_EQ(dst[9], 0xAB);
    ASSERT_EQ(dst[10], src[10]);
    ASSERT_OK(aclrtFree(a));
    ASSERT_OK(aclrtFree(b));
    ASSERT_OK(aclrtFreeHost(h));
    t_teardown();
}

/* ---- async ordering ------------------------------------------------------------------------------- */

struct add_args {
    unsigned char *p;
    int n;
};

static void k_add_one(void *args)
{
    const struct add_args *a = args;
    for (int i = 0; i < a->n; i++)
        a->p[i]++;
}

TEST(memory, async_copies_and_memsets_are_ordered)
{
    enum { N = 256 };
    static _Atomic int open;
    static unsigned char out[N], out2[N], in[N];
    unsigned char *dev = NULL;
    aclrtStream s = NULL;
    struct add_args add;

    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMalloc((void **)&dev, N, ACL_MEM_MALLOC_HUGE_FIRST));
    memset(out, 0xEE, N);
    memset(out2, 0xEE, N);
    memset(in, 40, N);
    add.p = dev;
    add.n = N;
    t_launch_flag_gate(&open, s);
    ASSERT_OK(aclrtMemsetAsync(dev, N, 1, N, s));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("memory_add_one", k_add_one), 1, &add, sizeof(add), s));
    ASSERT_OK(aclrtMemcpyAsync(out, N, dev, N, ACL_MEMCPY_DEVICE_TO_HOST, s));
    ASSERT_OK(aclrtMemsetAsync(dev, N, 7, N / 2, s));
    ASSERT_OK(aclrtMemcpyAsync(dev, N, in, N / 4, ACL_MEMCPY_HOST_TO_DEVICE, s));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("memory_add_one", k_add_one), 1, &add, sizeof(add), s));
    ASSERT_OK(aclrtMemcpyAsync(out2, N, dev, N, ACL_MEMCPY_DEVICE_TO_HOST, s));
    /* Nothing behind the gate has run. */
    ASSERT_EQ(out[0], 0xEE);
    ASSERT_EQ(out2[N - 1], 0xEE);
    atomic_store(&open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    for (int i = 0; i < N; i++)
        ASSERT_EQ(out[i], 2);
    for (int i = 0; i < N; i++) {
        int want = i < N / 4 ? 41 : i < N / 2 ? 8 : 3;
        ASSERT_EQ(out2[i], want);
    }
    ASSERT_OK(aclrtFree(dev));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(memory, async_copy_on_default_stream)
{
    static unsigned char out[64];
    unsigned char in[64];
    void *dev = NULL;
    t_setup();
    memset(in, 0x3C, sizeof(in));
    ASSERT_OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMemcpyAsync(dev, 64, in, 64, ACL_MEMCPY_HOST_TO_DEVICE, NULL));
    ASSERT_OK(aclrtMemcpyAsync(out, 64, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_EQ(out[0], 0x3C);
    ASSERT_EQ(out[63], 0x3C);
    ASSERT_OK(aclrtFree(dev));
    t_teardown();
}

TEST(memory, async_copy_without_context)
{
    char a[16] = {0}, b[16] = {0};
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtMemcpyAsync(a, 16, b, 16, ACL_MEMCPY_HOST_TO_HOST, NULL), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_OK(aclFinalize());
}

/* ---- sizes that would wrap (issue 17, bug 4) ---------------------------------------------- */

/* aclrtMalloc: the reference pads size by 32 + 32 bytes before rounding and
 * refuses (100000) a size for which that wraps, before any context check;
 * one just below is merely too large for the device (207001). The budget
 * is untouched either way. */
TEST(memory, malloc_refuses_sizes_whose_padding_would_wrap)
{
    static const size_t wrap[] = {SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 31, SIZE_MAX - 32, SIZE_MAX - 40,
                                  SIZE_MAX - 63};
    static const size_t huge[] = {SIZE_MAX - 64, SIZE_MAX - 65, SIZE_MAX - 95, SIZE_MAX / 2, (size_t)1 << 62};
    size_t f = 0, t = 0;
    void *p = NULL;

    setenv("ACLCPU_DEVICE_MEMORY", "1M", 1);
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtMalloc(&p, SIZE_MAX - 40, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM); /* no context */
    ASSERT_OK(aclrtSetDevice(0));
    for (int round = 0; round < 2; round++) { /* a second time is refused the same */
        for (size_t i = 0; i < sizeof(wrap) / sizeof(wrap[0]); i++) {
            p = NULL;
            ASSERT_RC(aclrtMalloc(&p, wrap[i], ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
            ASSERT(p == NULL);
            ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMalloc: argument 'size'");
        }
        for (size_t i = 0; i < sizeof(huge) / sizeof(huge[0]); i++)
            ASSERT_RC(aclrtMalloc(&p, huge[i], ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
        mem_info(&f, &t);
        ASSERT_EQ(f, MIB);
    }
    /* Still allocates, and the budget is exact. */
    ASSERT_OK(aclrtMalloc(&p, MIB - 32, ACL_MEM_MALLOC_HUGE_FIRST));
    mem_info(&f, &t);
    ASSERT_EQ(f, 0);
    ASSERT_OK(aclrtFree(p));
    mem_info(&f, &t);
    ASSERT_EQ(f, MIB);
    t_teardown();
}

/* aclrtMallocHost: the reference rounds size up to 32 bytes; a size for
 * which that wraps asks the driver for 0 bytes, which it refuses (107000);
 * a size that rounds but cannot be backed is out of memory (207001). Never
 * a small block for a huge size. */
TEST(memory, malloc_host_refuses_sizes_that_would_wrap)
{
    static const size_t wrap[] = {SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 30};
    static const size_t huge[] = {SIZE_MAX - 31, SIZE_MAX - 32, SIZE_MAX - 40, SIZE_MAX - 63, SIZE_MAX - 64,
                                  SIZE_MAX / 2, SIZE_MAX / 2 - 31}; /* none is allocated (ASan aborts on them) */
    void *h = NULL;

    t_setup();
    for (int round = 0; round < 2; round++) {
        for (size_t i = 0; i < sizeof(wrap) / sizeof(wrap[0]); i++) {
            h = NULL;
            ASSERT_RC(aclrtMallocHost(&h, wrap[i]), ACL_ERROR_RT_PARAM_INVALID);
            ASSERT(h == NULL);
            ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMallocHost: argument 'size'");
        }
        for (size_t i = 0; i < sizeof(huge) / sizeof(huge[0]); i++) {
            h = NULL;
            ASSERT_RC(aclrtMallocHost(&h, huge[i]), ACL_ERROR_RT_MEMORY_ALLOCATION);
            ASSERT(h == NULL);
            ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMallocHost");
        }
    }
    /* Still works afterwards. */
    ASSERT_OK(aclrtMallocHost(&h, 64));
    memset(h, 0x5A, 64);
    ASSERT_OK(aclrtFreeHost(h));
    t_teardown();
}

/* A pinned block may be touched up to its size rounded to 32 bytes (what
 * the reference allocates), not beyond: a memset past that is refused
 * instead of writing past the block. */
TEST(memory, pinned_block_bounds_are_its_rounded_size)
{
    static const size_t sizes[] = {1, 31, 32, 33, 63, 64, 65, 100};
    void *h = NULL;
    t_setup();
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        size_t usable = (sizes[i] + 31) / 32 * 32;
        ASSERT_OK(aclrtMallocHost(&h, sizes[i]));
        ASSERT_OK(aclrtMemset(h, usable, 0x11, usable));
        ASSERT_RC(aclrtMemset(h, usable + 1, 0x11, usable + 1), ACL_ERROR_RT_PARAM_INVALID);
        ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "runs past the end");
        ASSERT_RC(aclrtMemset((char *)h + usable - 1, 2, 0x11, 2), ACL_ERROR_RT_PARAM_INVALID);
        ASSERT_RC(aclrtMemset(h, sizes[i] + 32 + 1, 0x11, sizes[i] + 32 + 1), ACL_ERROR_RT_PARAM_INVALID);
        ASSERT_OK(aclrtFreeHost(h));
    }
    t_teardown();
}

/* The 2D height limit is inclusive: a copy of exactly 5242880 rows (of one
 * byte each here, 5 MiB a side) is accepted and copies every row. */
TEST(memory, a_2d_copy_of_exactly_the_maximum_height_is_accepted)
{
    const size_t rows = 5242880;
    unsigned char *h = malloc(rows), *d = NULL;
    ASSERT(h != NULL);
    t_setup();
    ASSERT_OK(aclrtMalloc((void **)&d, rows, ACL_MEM_MALLOC_HUGE_FIRST));
    for (size_t i = 0; i < rows; i++)
        h[i] = (unsigned char)(i * 7 + 1);
    memset(d, 0, rows);
    ASSERT_OK(aclrtMemcpy2d(d, 1, h, 1, 1, rows, ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT(memcmp(d, h, rows) == 0);
    ASSERT_OK(aclrtFree(d));
    t_teardown();
    free(h);
}

/* The 2D width limit is inclusive too: one row of exactly 5000000 bytes
 * is accepted and copied whole; a byte wider is refused (107000). */
TEST(memory, a_2d_copy_of_exactly_the_maximum_width_is_accepted)
{
    const size_t width = 5000000;
    unsigned char *h = malloc(width + 1), *d = NULL;
    ASSERT(h != NULL);
    t_setup();
    ASSERT_OK(aclrtMalloc((void **)&d, width + 1, ACL_MEM_MALLOC_HUGE_FIRST));
    for (size_t i = 0; i <= width; i++)
        h[i] = (unsigned char)(i * 7 + 1);
    memset(d, 0, width + 1);
    ASSERT_OK(aclrtMemcpy2d(d, width, h, width, width, 1, ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT(memcmp(d, h, width) == 0);
    ASSERT_RC(aclrtMemcpy2d(d, width + 1, h, width + 1, width + 1, 1, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'width' (5000001) is larger than 5000000");
    ASSERT_OK(aclrtFree(d));
    t_teardown();
    free(h);
}

/* aclrtMemcpy2d: the reference's limits (height <= 5242880, width <=
 * 5000000, 107000), and a pitch * (height - 1) + width that would wrap is
 * refused rather than checked as a small range and copied far past it. */
TEST(memory, memcpy2d_refuses_extents_that_would_wrap)
{
    enum { H = 3, W = 8, P = 16 };
    static char dst[P * H], src[P * H];
    size_t big = SIZE_MAX / 2 + 1;
    t_setup();
    for (int round = 0; round < 2; round++) {
        ASSERT_RC(aclrtMemcpy2d(dst, big, src, P, W, H, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID);
        ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemcpy2d: argument 'dpitch'");
        ASSERT_RC(aclrtMemcpy2d(dst, P, src, big, W, H, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID);
        ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemcpy2d: argument 'spitch'");
        ASSERT_RC(aclrtMemcpy2d(dst, SIZE_MAX, src, SIZE_MAX, W, H, ACL_MEMCPY_DEFAULT),
                  ACL_ERROR_RT_PARAM_INVALID);
    }
    /* At the wrap: (SIZE_MAX - W) / 2 * 2 + W fits with height 3; one more does not. */
    ASSERT_RC(aclrtMemcpy2d(dst, (SIZE_MAX - W) / 2 + 1, src, P, W, H, ACL_MEMCPY_DEFAULT),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "does not fit");
    ASSERT_RC(aclrtMemcpy2d(dst, P, src, P, W, 5242881, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'height'");
    ASSERT_RC(aclrtMemcpy2d(dst, 5000001, src, 5000001, 5000001, 1, ACL_MEMCPY_DEFAULT),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'width'");
    ASSERT_RC(aclrtMemcpy2d(NULL, big, src, P, W, H, ACL_MEMCPY_DEFAULT), ACL_ERROR_INVALID_PARAM);
    /* An ordinary 2D copy still copies. */
    {
        char *d = NULL;
        ASSERT_OK(aclrtMalloc((void **)&d, sizeof(dst), ACL_MEM_MALLOC_HUGE_FIRST));
        memset(src, 7, sizeof(src));
        memset(d, 0, sizeof(dst));
        ASSERT_OK(aclrtMemcpy2d(d, P, src, P, W, H, ACL_MEMCPY_DEFAULT));
        ASSERT_EQ(d[0], 7);
        ASSERT_EQ(d[P * 2 + W - 1], 7);
        ASSERT_EQ(d[W], 0);
        ASSERT_OK(aclrtFree(d));
    }
    t_teardown();
}

/* ---- memory across a device reset (issue 17, bug 9) ------------------------------------- */

/* The reference's driver frees a process's device memory when the device
 * closes (NpuDriver::DeviceClose -> drvMemDeviceClose): a reset that closes
 * the device takes its blocks with it, the budget is whole again, and a
 * later aclrtFree of such a block is an error that changes no counter.
 * Pinned host memory is not the device's and survives. */
TEST(memory, device_reset_frees_its_blocks)
{
    size_t f = 0, t = 0;
    void *q = NULL, *a = NULL, *b = NULL, *h = NULL;

    setenv("ACLCPU_DEVICE_MEMORY", "1M", 1);
    t_setup();
    ASSERT_OK(aclrtMalloc(&q, 100, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMallocHost(&h, 100));
    mem_info(&f, &t);
    ASSERT_EQ(f, MIB - charge(100));
    ASSERT_OK(aclrtResetDevice(0));
    ASSERT_OK(aclrtSetDevice(0));
    mem_info(&f, &t);
    ASSERT_EQ(f, MIB);
    ASSERT_RC(aclrtFree(q), ACL_ERROR_RT_MEMORY_FREE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtFree");
    mem_info(&f, &t);
    ASSERT_EQ(f, MIB);
    ASSERT_OK(aclrtFreeHost(h));

    /* Two blocks, two resets, then the frees: still errors, still exact. */
    ASSERT_OK(aclrtMalloc(&a, 1, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMalloc(&b, MIB - 32 - charge(1), ACL_MEM_MALLOC_HUGE_FIRST)); /* the rest, exactly */
    mem_info(&f, &t);
    ASSERT_EQ(f, 0);
    ASSERT_OK(aclrtResetDevice(0));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtResetDevice(0));
    ASSERT_OK(aclrtSetDevice(0));
    mem_info(&f, &t);
    ASSERT_EQ(f, MIB);
    ASSERT_RC(aclrtFree(a), ACL_ERROR_RT_MEMORY_FREE);
    ASSERT_RC(aclrtFree(b), ACL_ERROR_RT_MEMORY_FREE);
    ASSERT_RC(aclrtFree(b), ACL_ERROR_RT_MEMORY_FREE);
    mem_info(&f, &t);
    ASSERT_EQ(f, MIB);
    /* The whole budget serves again, and frees normally. */
    ASSERT_OK(aclrtMalloc(&a, MIB - 32, ACL_MEM_MALLOC_HUGE_FIRST));
    mem_info(&f, &t);
    ASSERT_EQ(f, 0);
    ASSERT_OK(aclrtFree(a));
    mem_info(&f, &t);
    ASSERT_EQ(f, MIB);
    t_teardown();
}

/* A force reset and aclFinalize free the blocks too; a new aclInit starts
 * with the whole budget, and an old pointer is still only an error. */
TEST(memory, force_reset_and_finalize_free_blocks)
{
    size_t f = 0, t = 0;
    void *p = NULL, *q = NULL;

    setenv("ACLCPU_DEVICE_MEMORY", "1M", 1);
    t_setup();
    ASSERT_OK(aclrtSetDevice(0)); /* two references: a force reset drops both */
    ASSERT_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtResetDeviceForce(0));
    ASSERT_OK(aclrtSetDevice(0));
    mem_info(&f, &t);
    ASSERT_EQ(f, MIB);
    ASSERT_RC(aclrtFree(p), ACL_ERROR_RT_MEMORY_FREE);
    ASSERT_OK(aclrtMalloc(&q, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclFinalize());
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtSetDevice(0));
    mem_info(&f, &t);
    ASSERT_EQ(f, MIB);
    ASSERT_RC(aclrtFree(q), ACL_ERROR_RT_MEMORY_FREE);
    mem_info(&f, &t);
    ASSERT_EQ(f, MIB);
    t_teardown();
}

/* ---- the arena: device memory apart from the host heap ---------------------------- */

/* What a block of n bytes spans in the arena: the charge, on 64 bytes. */
static size_t span(size_t n) { return (charge(n) + 63) / 64 * 64; }

/* Kernel args: waits on the gate, then writes `bytes` of 0x77 at p. */
struct late_write {
    struct t_gate *g;
    unsigned char *p;
    size_t bytes;
};

static void k_late_write(void *args)
{
    struct late_write *w = args;
    t_k_gate(&w->g);
    memset(w->p, 0x77, w->bytes);
}

static int all_bytes(const unsigned char *p, size_t n, unsigned char v)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != v)
            return 0;
    return 1;
}

/* The reference: aclrtMalloc aligns blocks to 64 bytes and pads 32
 * (api_ref 11-01); device memory is not the host heap. */
TEST(memory, arena_blocks_are_64_aligned_and_packed)
{
    unsigned char *a = NULL, *b = NULL, *c = NULL;
    t_setup();
    ASSERT_OK(aclrtMalloc((void **)&a, 1, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMalloc((void **)&b, 33, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMalloc((void **)&c, 1, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_EQ((uintptr_t)a % 64, 0);
    ASSERT_EQ(b - a, (long long)span(1));  /* 1 -> 32 + 32 = 64 */
    ASSERT_EQ(c - b, (long long)span(33)); /* 33 -> 64 + 32 -> 128 on 64 */
    ASSERT_OK(aclrtFree(a));
    ASSERT_OK(aclrtFree(b));
    ASSERT_OK(aclrtFree(c));
    t_teardown();
}

/* A caching allocator: the block just freed is the one handed out next
 * (its pages are warm), for a small and a large size. */
TEST(memory, arena_reuses_the_block_just_freed)
{
    size_t sizes[] = {4096, 4 * MIB};
    t_setup();
    for (size_t i = 0; i < 2; i++) {
        void *p = NULL, *q = NULL;
        ASSERT_OK(aclrtMalloc(&p, sizes[i], ACL_MEM_MALLOC_HUGE_FIRST));
        ASSERT_OK(aclrtFree(p));
        ASSERT_OK(aclrtMalloc(&q, sizes[i], ACL_MEM_MALLOC_HUGE_FIRST));
        ASSERT(p == q);
        ASSERT_OK(aclrtFree(q));
    }
    t_teardown();
}

/* Freed neighbours merge, whichever is freed first: a request the size of
 * two blocks is served where the two were. */
TEST(memory, arena_merges_free_neighbours_in_either_order)
{
    size_t two = 2 * span(4096) - 64; /* charges exactly the two blocks' span */
    t_setup();
    ASSERT_EQ(span(two), 2 * span(4096));
    for (int order = 0; order < 2; order++) {
        unsigned char *a = NULL, *b = NULL, *c = NULL, *d = NULL;
        ASSERT_OK(aclrtMalloc((void **)&a, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
        ASSERT_OK(aclrtMalloc((void **)&b, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
        ASSERT_OK(aclrtMalloc((void **)&c, 4096, ACL_MEM_MALLOC_HUGE_FIRST)); /* keeps a+b apart from the rest */
        ASSERT(b == a + span(4096));
        ASSERT_OK(aclrtFree(order == 0 ? a : b));
        ASSERT_OK(aclrtFree(order == 0 ? b : a));
        ASSERT_OK(aclrtMalloc((void **)&d, two, ACL_MEM_MALLOC_HUGE_FIRST));
        ASSERT(d == a);
        ASSERT_OK(aclrtFree(d));
        ASSERT_OK(aclrtFree(c));
    }
    t_teardown();
}

/* A request never takes a free block smaller than itself. Sizes above
 * 4 KiB share a bin with others up to 1/8 larger: a freed 4160-byte block
 * sits in the bin a 4480-byte request maps to, but cannot hold it; the
 * request must be served elsewhere, not by the small block running over
 * its neighbour. */
TEST(memory, arena_never_hands_out_a_free_block_smaller_than_the_request)
{
    const size_t small = 4128, large = 4448; /* spans of 65 and 70 units of 64 bytes */
    unsigned char *a = NULL, *b = NULL, *c = NULL;
    t_setup();
    ASSERT_EQ(span(small), 65 * 64);
    ASSERT_EQ(span(large), 70 * 64);
    ASSERT_OK(aclrtMalloc((void **)&a, small, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMalloc((void **)&b, 4096, ACL_MEM_MALLOC_HUGE_FIRST)); /* keeps a apart from the rest */
    ASSERT(b == a + span(small));
    memset(b, 0x5a, 4096);
    ASSERT_OK(aclrtFree(a));
    ASSERT_OK(aclrtMalloc((void **)&c, large, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT(c != a);
    ASSERT(c + span(large) <= b || c >= b + span(4096));
    memset(c, 0, large);
    ASSERT(all_bytes(b, 4096, 0x5a));
    ASSERT_OK(aclrtFree(c));
    ASSERT_OK(aclrtFree(b));
    t_teardown();
}

/* The second reproduction: a memset queued on a stream, its buffer
 * freed at once (legal: aclrtFree does not wait). The late memset lands in
 * the freed block, never in the block allocated after the free; once the
 * stream is done the freed block is handed out again. */
TEST(memory, free_while_memset_queued_holds_the_block_until_done)
{
    struct t_gate g = {0};
    aclrtStream s = NULL;
    unsigned char *tmp = NULL, *next = NULL, *again = NULL;
    size_t mem_free0 = 0, mem_free1 = 0, total = 0;

    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    t_launch_gate(&g, s);
    mem_info(&mem_free0, &total);
    ASSERT_OK(aclrtMalloc((void **)&tmp, MIB, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMemsetAsync(tmp, MIB, 0x5a, MIB, s));
    ASSERT_OK(aclrtFree(tmp));
    mem_info(&mem_free1, &total);
    ASSERT_EQ(mem_free1, mem_free0);           /* freed for the program at once */
    ASSERT_RC(aclrtFree(tmp), ACL_ERROR_RT_MEMORY_FREE); /* and only once */
    ASSERT_OK(aclrtMalloc((void **)&next, MIB, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT(next != tmp);                      /* held from reuse */
    memset(next, 0, MIB);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT(all_bytes(next, MIB, 0));          /* the late memset hit the held block */
    ASSERT(all_bytes(tmp, MIB, 0x5a));
    ASSERT_OK(aclrtMalloc((void **)&again, MIB, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT(again == tmp);                     /* released once its work was done */
    ASSERT_OK(aclrtFree(again));
    ASSERT_OK(aclrtFree(next));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* The first reproduction (the vendor's 2_multi_stream): a sync
 * with a timeout gives up, the buffer is freed, and the kernel still
 * running writes into it later - into the held block, not into memory
 * handed out since, and not into the host heap. Twice: a second held block
 * beside the first. */
TEST(memory, late_kernel_write_after_timed_out_sync_lands_in_held_block)
{
    struct t_gate g = {0};
    aclrtStream s = NULL;
    aclrtFuncHandle k = t_kernel("late_write", k_late_write);
    unsigned char *buf[2] = {NULL, NULL}, *fresh[2] = {NULL, NULL};

    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    for (int i = 0; i < 2; i++) {
        struct late_write w = {&g, NULL, 64 * 1024};
        ASSERT_OK(aclrtMalloc((void **)&buf[i], w.bytes, ACL_MEM_MALLOC_HUGE_FIRST));
        w.p = buf[i];
        ASSERT_OK(aclrtLaunchKernel(k, 1, &w, sizeof(w), s));
    }
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 10), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    for (int i = 0; i < 2; i++) {
        ASSERT_OK(aclrtFree(buf[i]));
        ASSERT_OK(aclrtMalloc((void **)&fresh[i], 64 * 1024, ACL_MEM_MALLOC_HUGE_FIRST));
        ASSERT(fresh[i] != buf[0] && fresh[i] != buf[1]);
        memset(fresh[i], 0, 64 * 1024);
    }
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    for (int i = 0; i < 2; i++) {
        ASSERT(all_bytes(fresh[i], 64 * 1024, 0));
        ASSERT(all_bytes(buf[i], 64 * 1024, 0x77));
        ASSERT_OK(aclrtFree(fresh[i]));
    }
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* The boundary of the hold: a stream with a single task queued (issued 1,
 * done 0) is busy too, so the block its kernel writes is held at the free
 * and handed out again only once that task is done. */
TEST(memory, a_stream_with_one_task_queued_holds_a_freed_block)
{
    struct t_gate g = {0};
    aclrtStream s = NULL;
    aclrtFuncHandle k = t_kernel("late_write", k_late_write);
    unsigned char *buf = NULL, *next = NULL, *again = NULL;
    struct late_write w = {&g, NULL, 64 * 1024};

    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMalloc((void **)&buf, w.bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    w.p = buf;
    ASSERT_OK(aclrtLaunchKernel(k, 1, &w, sizeof(w), s)); /* the stream's only task */
    ASSERT_OK(aclrtFree(buf));
    ASSERT_OK(aclrtMalloc((void **)&next, w.bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT(next != buf); /* held from reuse */
    memset(next, 0, w.bytes);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT(all_bytes(next, w.bytes, 0)); /* the late write hit the held block */
    ASSERT(all_bytes(buf, w.bytes, 0x77));
    ASSERT_OK(aclrtMalloc((void **)&again, w.bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT(again == buf); /* released once its task was done */
    ASSERT_OK(aclrtFree(again));
    ASSERT_OK(aclrtFree(next));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A memory task queued on one device's stream that writes into another
 * device's memory, which a reset took away meanwhile, fails with the DMA
 * engine's error (507013): the address range of a reset device stays
 * reserved and guarded, so the late write faults there instead of landing
 * in whatever the host maps next, and the process goes on. Twice (a memset,
 * then a copy), and the stream runs the work after them. */
TEST(memory, late_task_into_a_reset_devices_memory_fails_with_a_dma_error)
{
    struct t_gate g = {0};
    aclrtStream s1 = NULL;
    unsigned char *p = NULL, host[64] = {0};
    int64_t *x1 = NULL;
#ifdef T_TSAN
    SKIP("device faults are not taken under ThreadSanitizer");
#endif
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    t_setup();
    ASSERT_OK(aclrtMalloc((void **)&p, MIB, ACL_MEM_MALLOC_HUGE_FIRST)); /* device 0's */
    ASSERT_OK(aclrtSetDevice(1));
    x1 = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&s1));
    t_launch_gate(&g, s1);
    ASSERT_OK(aclrtMemsetAsync(p, MIB, 0x11, MIB, s1));
    ASSERT_OK(aclrtMemcpyAsync(p, sizeof(host), host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE, s1));
    t_launch_add(x1, 3, s1);
    ASSERT_OK(aclrtResetDeviceForce(0)); /* device 0's memory goes while s1 still holds its tasks */
    atomic_store(&g.open, 1);
    ASSERT_RC(aclrtSynchronizeStream(s1), ACL_ERROR_RT_SYS_DMA);
    ASSERT_EQ(x1[0], 3); /* the work after the failed tasks ran */
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtFree(x1));
    ASSERT_OK(aclrtResetDeviceForce(1));
    t_teardown();
}

/* A block held at a device reset goes with the device's memory: no leak
 * (the sanitizer and valgrind runs check), the budget whole again, and the
 * old pointer only an error. */
TEST(memory, held_block_goes_with_device_reset)
{
    struct t_gate g = {0};
    aclrtStream s = NULL;
    void *p = NULL;
    size_t f = 0, t = 0;

    setenv("ACLCPU_DEVICE_MEMORY", "1M", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    t_launch_gate(&g, s);
    ASSERT_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMemsetAsync(p, 4096, 1, 4096, s));
    ASSERT_OK(aclrtFree(p));
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtResetDeviceForce(0));
    ASSERT_OK(aclrtSetDevice(0));
    mem_info(&f, &t);
    ASSERT_EQ(f, MIB);
    ASSERT_RC(aclrtFree(p), ACL_ERROR_RT_MEMORY_FREE);
    t_teardown();
}

/* Lines of /proc/self/maps, or links in /proc/self/fd, naming the arenas'
 * memory files. */
static int arena_traces(void)
{
    char line[512], path[64], target[256];
    int n = 0;
    FILE *f = fopen("/proc/self/maps", "r");
    ASSERT(f != NULL);
    while (fgets(line, sizeof(line), f) != NULL)
        n += strstr(line, "aclcpu-device-memory") != NULL;
    fclose(f);
    for (int fd = 0; fd < 1024; fd++) {
        ssize_t len;
        snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
        len = readlink(path, target, sizeof(target) - 1);
        if (len <= 0)
            continue;
        target[len] = '\0';
        n += strstr(target, "aclcpu-device-memory") != NULL;
    }
    return n;
}

/* Nothing of the arenas outlives the device (a reset) or the library
 * (aclFinalize): no mapping, no memory file left open - twice, the second
 * time with a block held from reuse. */
TEST(memory, arenas_leave_no_mapping_or_file_behind)
{
    void *p = NULL, *h = NULL;
    t_setup();
    ASSERT_EQ(arena_traces(), 0);
    ASSERT_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMallocHost(&h, 4096));
    ASSERT(arena_traces() >= 2); /* a device's and the host's arena */
    ASSERT_OK(aclrtResetDeviceForce(0));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtFreeHost(h));
    ASSERT_OK(aclFinalize());
    ASSERT_EQ(arena_traces(), 0);

    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtSetDevice(0));
    {
        static struct t_gate g; /* the kernel reads it until aclFinalize */
        aclrtStream s = NULL;
        ASSERT_OK(aclrtCreateStream(&s));
        t_launch_gate(&g, s);
        ASSERT_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
        ASSERT_OK(aclrtMemsetAsync(p, 4096, 0, 4096, s));
        ASSERT_OK(aclrtFree(p));
        atomic_store(&g.open, 1);
    }
    ASSERT_OK(aclFinalize());
    ASSERT_EQ(arena_traces(), 0);
    ASSERT_OK(aclInit(NULL)); /* t_teardown finalises */
    t_teardown();
}

/* Resident bytes of this process (/proc/self/statm). */
static long long resident_bytes(void)
{
    long long size = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    ASSERT(f != NULL);
    ASSERT(fscanf(f, "%lld %lld", &size, &resident) == 2);
    fclose(f);
    return resident * sysconf(_SC_PAGESIZE);
}

/* Fresh blocks are backed when allocated, but only up to
 * ACLCPU_MEMORY_BACKED_MAX; above it allocation still works (pages fault
 * in when touched). */
TEST(memory, allocation_beyond_the_backed_limit_still_works)
{
    unsigned char *a = NULL, *b = NULL, *c = NULL;
    long long before;
    setenv("ACLCPU_MEMORY_BACKED_MAX", "4M", 1);
    t_setup();
    before = resident_bytes();
    ASSERT_OK(aclrtMalloc((void **)&c, 3 * MIB, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT(resident_bytes() - before >= 3 * MIB); /* backed at allocation */
    before = resident_bytes();
    ASSERT_OK(aclrtMalloc((void **)&a, 2 * MIB, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMalloc((void **)&b, 2 * MIB, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT(resident_bytes() - before < 2 * MIB);  /* the limit: at most 1 MiB more */
    ASSERT_OK(aclrtFree(c));
    memset(a, 1, 2 * MIB);
    memset(b, 2, 2 * MIB);
    ASSERT(all_bytes(a, 2 * MIB, 1) && all_bytes(b, 2 * MIB, 2));
    ASSERT_OK(aclrtFree(a));
    ASSERT_OK(aclrtFree(b));
    t_teardown();
}

/* A held block comes back once its stream is gone: destroyed after its
 * work ran, or force-destroyed with the work dropped. */
TEST(memory, held_block_released_when_its_stream_is_destroyed)
{
    t_setup();
    for (int force = 0; force < 2; force++) {
        struct t_gate g = {0};
        aclrtStream s = NULL;
        void *p = NULL, *q = NULL;
        ASSERT_OK(aclrtCreateStream(&s));
        t_launch_gate(&g, s);
        ASSERT_OK(aclrtMalloc(&p, 8192, ACL_MEM_MALLOC_HUGE_FIRST));
        ASSERT_OK(aclrtMemsetAsync(p, 8192, 3, 8192, s));
        ASSERT_OK(aclrtFree(p));
        ASSERT(t_wait_flag(&g.started, 1));
        atomic_store(&g.open, 1);
        if (force)
            ASSERT_OK(aclrtDestroyStreamForce(s));
        else
            ASSERT_OK(aclrtDestroyStream(s));
        ASSERT_OK(aclrtMalloc(&q, 8192, ACL_MEM_MALLOC_HUGE_FIRST));
        ASSERT(q == p);
        ASSERT_OK(aclrtFree(q));
    }
    t_teardown();
}

/* ---- the order of the copy and fill checks (conformance audit) ------------------------------- */

/* aclrtMemcpy(Async): the ACL layer's NULLs and kind (100000; INNER_ and
 * INTER_DEVICE_TO_DEVICE are not kinds it translates), then the stream
 * handle (async, 107017), then the runtime's count > destMax (107000),
 * then the context (107002); a synchronous copy onto itself succeeds
 * before the context is looked for; an async HOST_TO_HOST copy is 207000. */
TEST(memory, memcpy_checks_kind_then_handle_then_dest_max_then_context)
{
    char a[16] = {0}, b[16] = {0};
    aclrtStream gone = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&gone));
    ASSERT_OK(aclrtDestroyStream(gone));
    for (int k = ACL_MEMCPY_INNER_DEVICE_TO_DEVICE; k <= ACL_MEMCPY_INTER_DEVICE_TO_DEVICE; k++) {
        ASSERT_RC(aclrtMemcpy(a, 16, b, 16, (aclrtMemcpyKind)k), ACL_ERROR_INVALID_PARAM);
        ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemcpy: argument 'kind'");
        ASSERT_RC(aclrtMemcpyAsync(a, 16, b, 16, (aclrtMemcpyKind)k, NULL), ACL_ERROR_INVALID_PARAM);
    }
    /* Two bad arguments: the kind answers before count > destMax. */
    ASSERT_RC(aclrtMemcpy(a, 4, b, 16, (aclrtMemcpyKind)6), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemcpyAsync(a, 4, b, 16, (aclrtMemcpyKind)6, gone), ACL_ERROR_INVALID_PARAM);
    /* A dead stream answers before count > destMax. */
    ASSERT_RC(aclrtMemcpyAsync(a, 4, b, 16, ACL_MEMCPY_HOST_TO_HOST, gone), ACL_ERROR_RT_INVALID_HANDLE);
    /* count == destMax is taken; one more is the runtime's 107000, naming the argument. */
    ASSERT_OK(aclrtMemcpy(a, 16, b, 16, ACL_MEMCPY_HOST_TO_HOST));
    ASSERT_RC(aclrtMemcpy(a, 15, b, 16, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemcpy: argument 'count' (16) is larger than 'destMax' (15)");
    /* An async HOST_TO_HOST copy is refused when the host drives the
     * device (207000), before the copy onto itself is skipped. */
    ASSERT_RC(aclrtMemcpyAsync(a, 16, b, 16, ACL_MEMCPY_HOST_TO_HOST, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemcpyAsync: argument 'kind' is HOST_TO_HOST");
    ASSERT_RC(aclrtMemcpyAsync(a, 16, a, 16, ACL_MEMCPY_HOST_TO_HOST, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtMemcpyAsync(a, 16, a, 16, ACL_MEMCPY_DEFAULT, NULL));
    ASSERT_OK(aclrtResetDeviceForce(0));
    /* No context: count > destMax still answers first, then the context. */
    ASSERT_RC(aclrtMemcpy(a, 4, b, 16, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemcpyAsync(a, 4, b, 16, ACL_MEMCPY_HOST_TO_HOST, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemcpy(a, 16, b, 16, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemcpy");
    ASSERT_RC(aclrtMemcpyAsync(a, 16, b, 16, ACL_MEMCPY_HOST_TO_HOST, NULL), ACL_ERROR_RT_CONTEXT_NULL);
    /* A copy onto itself has nothing to do. */
    ASSERT_OK(aclrtMemcpy(a, 16, a, 16, ACL_MEMCPY_HOST_TO_HOST));
    ASSERT_OK(aclFinalize());
}

/* aclrtMemset: devPtr NULL (100000), then the context (107002), then
 * the driver's checks (count > maxCount, the memory: 107000).
 * aclrtMemsetAsync: devPtr NULL, a dead stream (107017), count > maxCount
 * (107000), then the context. */
TEST(memory, memset_checks_null_then_handle_then_max_count_then_context)
{
    void *dev = NULL;
    char host[16];
    aclrtStream gone = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&gone));
    ASSERT_OK(aclrtDestroyStream(gone));
    ASSERT_OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_RC(aclrtMemset(NULL, 8, 0, 16), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemsetAsync(NULL, 8, 0, 16, gone), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemsetAsync(dev, 8, 0, 16, gone), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtMemsetAsync(dev, 15, 0, 16, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemsetAsync: argument 'count' (16) is larger than 'maxCount' (15)");
    ASSERT_RC(aclrtMemset(dev, 15, 0, 16), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtMemset(dev, 16, 0, 16));
    ASSERT_OK(aclrtMemsetAsync(dev, 16, 0, 16, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    /* Ordinary host memory: the synchronous fill writes it (the driver's
     * drvMemsetD8 does; the vendor's 12_cross_server sample clears a
     * sockaddr with it), the queued one refuses it (a task cannot reach it). */
    memset(host, 7, sizeof(host));
    ASSERT_OK(aclrtMemset(host, 16, 0, 15));
    ASSERT(host[0] == 0 && host[14] == 0 && host[15] == 7); /* count bytes, not one more */
    ASSERT_RC(aclrtMemsetAsync(host, 16, 0, 16, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is not memory from aclrtMalloc/aclrtMallocHost");
    ASSERT_RC(aclrtMemset(host, 15, 0, 16), ACL_ERROR_RT_PARAM_INVALID); /* maxCount still bounds it */
    ASSERT_OK(aclrtResetDeviceForce(0));
    /* No context: the synchronous fill asks for it before the driver's checks. */
    ASSERT_RC(aclrtMemset(host, 8, 0, 16), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemset");
    ASSERT_RC(aclrtMemsetAsync(host, 8, 0, 16, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemsetAsync(host, 16, 0, 16, NULL), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_OK(aclFinalize());
}

/* aclrtMemcpy2d: the ACL layer takes HOST_TO_DEVICE, DEVICE_TO_HOST,
 * DEVICE_TO_DEVICE and DEFAULT (100000 for the others, before the
 * runtime's limits); the runtime's synchronous 2D copy refuses
 * DEVICE_TO_DEVICE (207000) and a DEFAULT that is not host to device or
 * device to host (107000); then the context (107002). */
struct no_ctx_2d {
    char *dev, *host;
    aclError rc_bad_kind, rc;
};

static void *memcpy2d_without_context(void *p)
{
    struct no_ctx_2d *a = p;
    a->rc_bad_kind = aclrtMemcpy2d(a->dev, 16, a->host, 16, 8, 2, ACL_MEMCPY_HOST_TO_HOST);
    a->rc = aclrtMemcpy2d(a->dev, 16, a->host, 16, 8, 2, ACL_MEMCPY_HOST_TO_DEVICE);
    return NULL;
}

TEST(memory, memcpy2d_sync_is_host_to_device_or_device_to_host)
{
    enum { H = 2, W = 8, P = 16 };
    char host[P * H], *d1 = NULL, *d2 = NULL;
    t_setup();
    ASSERT_OK(aclrtMalloc((void **)&d1, P * H, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMalloc((void **)&d2, P * H, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_RC(aclrtMemcpy2d(d1, P, host, P, W, H, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemcpy2d: argument 'kind'");
    ASSERT_RC(aclrtMemcpy2d(d1, P, host, P, W, H, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    /* The kind answers before the height limit. */
    ASSERT_RC(aclrtMemcpy2d(d1, P, host, P, W, 5242881, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemcpy2d(d1, P, host, P, W, 5242881, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemcpy2d(d1, P, d2, P, W, H, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtMemcpy2d(d1, P, d2, P, W, H, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "both sides are device memory");
    ASSERT_RC(aclrtMemcpy2d(host, P, host, P, W, H, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID);
    memset(host, 5, sizeof(host));
    ASSERT_OK(aclrtMemcpy2d(d1, P, host, P, W, H, ACL_MEMCPY_DEFAULT));
    ASSERT_EQ(d1[P + W - 1], 5);
    ASSERT_OK(aclrtMemcpy2d(host, P, d2, P, W, H, ACL_MEMCPY_DEVICE_TO_HOST));
    /* A thread with no current context: 107002, after every argument check. */
    {
        pthread_t th;
        struct no_ctx_2d arg = {d1, host, 0, 0};
        ASSERT_EQ(pthread_create(&th, NULL, memcpy2d_without_context, &arg), 0);
        ASSERT_EQ(pthread_join(th, NULL), 0);
        ASSERT_EQ(arg.rc_bad_kind, ACL_ERROR_INVALID_PARAM);
        ASSERT_EQ(arg.rc, ACL_ERROR_RT_CONTEXT_NULL);
    }
    ASSERT_OK(aclrtFree(d1));
    ASSERT_OK(aclrtFree(d2));
    t_teardown();
}

/* aclrtMallocHost: hostPtr NULL, size 0 (100000, the ACL layer's); then
 * the current context (107002: the runtime allocates for its device);
 * then a size whose rounding to 32 bytes wraps (107000). */
TEST(memory, malloc_host_checks_null_then_size_then_context_then_wrap)
{
    void *h = NULL;
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtMallocHost(NULL, 64), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMallocHost(&h, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMallocHost(&h, 64), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMallocHost");
    ASSERT_RC(aclrtMallocHost(&h, SIZE_MAX - 30), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT(h == NULL);
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_RC(aclrtMallocHost(&h, SIZE_MAX - 30), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMallocHost: argument 'size'");
    ASSERT_OK(aclrtMallocHost(&h, 64));
    ASSERT_OK(aclrtFreeHost(h));
    ASSERT_OK(aclrtResetDeviceForce(0));
    ASSERT_OK(aclFinalize());
}

struct stream_maker {
    atomic_int done;
};

/* Makes streams in slots never used before (their locks are made after
 * the slot appears), then destroys them. */
static void *make_fresh_streams(void *arg)
{
    struct stream_maker *mk = arg;
    aclrtStream s[1500];
    ASSERT_OK(aclrtSetDevice(0));
    for (int i = 0; i < 1500; i++)
        ASSERT_OK(aclrtCreateStream(&s[i]));
    for (int i = 0; i < 1500; i++)
        ASSERT_OK(aclrtDestroyStream(s[i]));
    atomic_store(&mk->done, 1);
    return NULL;
}

/* A free with work in flight scans every stream slot for its fence; a slot
 * whose first stream another thread is still making (no lock yet) has no
 * work and is skipped, never locked (Debug builds check each lock's rank). */
TEST(memory, free_with_work_in_flight_skips_streams_still_being_made)
{
    struct t_gate g = {0};
    struct stream_maker mk = {0};
    aclrtStream busy = NULL;
    pthread_t th;
    void *p = NULL;
    int frees = 0;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&busy));
    t_launch_gate(&g, busy); /* work in flight: every free takes a fence */
    ASSERT_EQ(pthread_create(&th, NULL, make_fresh_streams, &mk), 0);
    while ((!atomic_load(&mk.done) || frees < 100) && frees < 200000) {
        ASSERT_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
        ASSERT_OK(aclrtFree(p));
        frees++;
    }
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT(atomic_load(&mk.done));
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(busy));
    ASSERT_OK(aclrtDestroyStream(busy));
    t_teardown();
}

/* Among host memory that is not aclcpu's, a synchronous fill writes only
 * the caller's own stack (a local struct, as the vendor's 12_cross_server
 * sample clears): a heap or static buffer, or a stack range running past
 * the stack's top, is 107000, never a write through a wild pointer. */
TEST(memory, memset_fills_only_the_callers_stack_among_host_memory)
{
    static char static_buf[64];
    char local[64];
    char *heap = malloc(64);
    ASSERT(heap != NULL);
    t_setup();
    memset(local, 7, sizeof(local));
    ASSERT_OK(aclrtMemset(local, sizeof(local), 0, sizeof(local)));
    ASSERT(local[0] == 0 && local[63] == 0);
    memset(heap, 7, 64);
    ASSERT_RC(aclrtMemset(heap, 64, 0, 64), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is not memory from aclrtMalloc/aclrtMallocHost");
    ASSERT(heap[0] == 7);
    ASSERT_RC(aclrtMemset(static_buf, 64, 0, 64), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemset(local, (size_t)1 << 40, 0, (size_t)1 << 40), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemset((void *)(uintptr_t)0x10, 64, 0, 64), ACL_ERROR_RT_PARAM_INVALID);
    t_teardown();
    free(heap);
}

struct resetter {
    atomic_int stop;
    int resets;
};

static void *reset_device_0_repeatedly(void *arg)
{
    struct resetter *r = arg;
    while (!atomic_load(&r->stop) && r->resets < 100000) {
        (void)aclrtResetDevice(0);
        r->resets++;
    }
    return NULL;
}

/* A fresh block's cold pages are backed after the memory lock is dropped
 * (so other allocations go on meanwhile); a reset of the device on another
 * thread waits for that backing before it unmaps the arena, so the
 * allocation never stores into unmapped memory (fuzz seed 5017 faulted
 * there). The block is then the reset device's, dead, like any other. */
TEST(memory, device_reset_waits_for_a_concurrent_allocations_backing)
{
    struct resetter r = {0};
    pthread_t th;
    void *p = NULL;
    int allocs = 0;
    t_setup();
    ASSERT_EQ(pthread_create(&th, NULL, reset_device_0_repeatedly, &r), 0);
    while (allocs < 1000) {
        if (aclrtSetDevice(0) == ACL_SUCCESS && aclrtMalloc(&p, 8u << 20, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS)
            (void)aclrtFree(p); /* may be 107000 when a reset got there first */
        allocs++;
    }
    atomic_store(&r.stop, 1);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT(r.resets > 0);
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtFree(p));
    t_teardown();
}

/* ---- sweep 4: boundaries and codes nobody compared (2026-12-05) ----------------------------- */

/* aclrtGetMemInfo takes every aclrtMemAttr up to the last, ACL_MEM_P2P_HUGE1G,
 * and refuses the next value with the memory-type code
 * (ACL_ERROR_RT_INVALID_MEMORY_TYPE, 107016), not the plain 107000. */
TEST(memory, mem_info_takes_the_last_attribute_and_refuses_the_next_as_a_memory_type)
{
    size_t f = 0, t = 0;
    t_setup();
    ASSERT_OK(aclrtGetMemInfo(ACL_MEM_P2P_HUGE1G, &f, &t));
    ASSERT(t > 0);
    ASSERT_RC(aclrtGetMemInfo((aclrtMemAttr)(ACL_MEM_P2P_HUGE1G + 1), &f, &t), ACL_ERROR_RT_INVALID_MEMORY_TYPE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'attr'");
    t_teardown();
}

/* HOST_TO_BUF_TO_DEVICE is one of the kinds a 1D copy takes (memory.cpp
 * MemcpyKindTranslate): host memory into device memory. */
TEST(memory, memcpy_takes_host_to_buf_to_device_as_a_host_to_device_copy)
{
    int64_t src[4] = {1, 2, 3, 4}, back[4] = {0};
    void *dev = NULL;
    t_setup();
    ASSERT_OK(aclrtMalloc(&dev, sizeof(src), ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMemcpy(dev, sizeof(src), src, sizeof(src), ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE));
    ASSERT_OK(aclrtMemcpy(back, sizeof(back), dev, sizeof(back), ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT_EQ(back[3], 4);
    ASSERT_OK(aclrtFree(dev));
    t_teardown();
}

/* A 2D copy's width must fit each pitch: a width above spitch alone (dpitch
 * wide enough) is refused (100000), as one above dpitch is. */
TEST(memory, memcpy2d_refuses_a_width_above_the_source_pitch_alone)
{
    char host[64] = {0};
    void *dev = NULL;
    t_setup();
    ASSERT_OK(aclrtMalloc(&dev, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_RC(aclrtMemcpy2d(dev, 32, host, 8, 16, 2, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "exceeds a pitch");
    ASSERT_OK(aclrtMemcpy2d(dev, 32, host, 16, 16, 2, ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_OK(aclrtFree(dev));
    t_teardown();
}

/* ---- sweep 5 (2026-12-05): a hold fenced on two streams --------------------- */

/* A block freed while two streams have work queued is held until both are
 * done, whichever finishes first: one done is not enough. Twice, the
 * streams finishing in either order. */
TEST(memory, a_block_freed_while_two_streams_use_it_is_held_until_both_are_done)
{
    aclrtStream s[2] = {NULL, NULL};
    unsigned char *buf = NULL, *next = NULL, *again = NULL;

    t_setup();
    ASSERT_OK(aclrtCreateStream(&s[0]));
    ASSERT_OK(aclrtCreateStream(&s[1]));
    for (int first = 0; first < 2; first++) {
        _Atomic int open[2] = {0, 0};
        t_launch_flag_gate(&open[0], s[0]);
        t_launch_flag_gate(&open[1], s[1]);
        ASSERT_OK(aclrtMalloc((void **)&buf, 64 * 1024, ACL_MEM_MALLOC_HUGE_FIRST));
        ASSERT_OK(aclrtFree(buf)); /* both streams busy: held */
        atomic_store(&open[first], 1);
        ASSERT_OK(aclrtSynchronizeStream(s[first]));
        ASSERT_OK(aclrtMalloc((void **)&next, 64 * 1024, ACL_MEM_MALLOC_HUGE_FIRST));
        ASSERT(next != buf); /* the other stream still runs */
        atomic_store(&open[1 - first], 1);
        ASSERT_OK(aclrtSynchronizeStream(s[1 - first]));
        ASSERT_OK(aclrtMalloc((void **)&again, 64 * 1024, ACL_MEM_MALLOC_HUGE_FIRST));
        ASSERT(again == buf); /* released once both were done */
        ASSERT_OK(aclrtFree(again));
        ASSERT_OK(aclrtFree(next));
    }
    ASSERT_OK(aclrtDestroyStream(s[0]));
    ASSERT_OK(aclrtDestroyStream(s[1]));
    t_teardown();
}

/* A device's reset drops the blocks held for its own streams only: a block
 * of device 0 freed while device 0's stream uses it is released once that
 * stream is done, a reset of device 1 meanwhile notwithstanding. */
TEST(memory, a_reset_of_another_device_keeps_a_held_block)
{
    aclrtStream s = NULL;
    _Atomic int open = 0;
    unsigned char *buf = NULL, *again = NULL;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    t_launch_flag_gate(&open, s);
    ASSERT_OK(aclrtMalloc((void **)&buf, 64 * 1024, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtFree(buf)); /* held: s is busy */
    ASSERT_OK(aclrtSetDevice(1));
    ASSERT_OK(aclrtResetDevice(1));
    ASSERT_OK(aclrtSetDevice(0));
    atomic_store(&open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtMalloc((void **)&again, 64 * 1024, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT(again == buf); /* released once s was done */
    ASSERT_OK(aclrtFree(again));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}
