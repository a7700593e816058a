/*
 * test_vmm.c - virtual memory (reserve, physical allocations, map/unmap,
 * access) and shareable handles between processes.
 *
 * Rules: the reference's checks, in order (acl layer: NULLs, size 0 and
 * reserved arguments are 100000; runtime layer: flags and share types are
 * 107000, device ids 107001; driver: ranges, handles and pids), and its
 * documented semantics (docs/conformance.md, "Virtual memory"). Two-process
 * tests fork before aclInit: the child is a fresh process that imports.
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

#define KIB ((size_t)1024)
#define MIB (1024 * KIB)

static aclrtPhysicalMemProp dev_prop(aclrtMemAttr attr)
{
    aclrtPhysicalMemProp p;
    memset(&p, 0, sizeof(p));
    p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    p.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    p.location.id = 0;
    p.memAttr = attr;
    return p;
}

static aclrtDrvMemHandle phys(size_t size)
{
    aclrtPhysicalMemProp p = dev_prop(ACL_HBM_MEM_HUGE);
    aclrtDrvMemHandle h = NULL;
    ASSERT_OK(aclrtMallocPhysical(&h, size, &p, 0));
    return h;
}

static void *reserve(size_t size)
{
    void *v = NULL;
    ASSERT_OK(aclrtReserveMemAddress(&v, size, 0, NULL, 0));
    return v;
}

static void set_access(void *v, size_t size, aclrtMemAccessFlags f)
{
    aclrtMemAccessDesc d;
    memset(&d, 0, sizeof(d));
    d.flags = f;
    d.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    d.location.id = 0;
    ASSERT_OK(aclrtMemSetAccess(v, size, &d, 1));
}

static size_t free_bytes(void)
{
    size_t f = 0, t = 0;
    ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t));
    return f;
}

/* ---- reserve / release ------------------------------------------------------ */

TEST(vmm, reserve_argument_checks)
{
    void *v = NULL;
    t_setup();
    ASSERT_RC(aclrtReserveMemAddress(NULL, MIB, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtReserveMemAddress: argument 'virPtr' is NULL");
    ASSERT_RC(aclrtReserveMemAddress(&v, 0, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'size' is 0");
    ASSERT_RC(aclrtReserveMemAddress(&v, MIB, 0, NULL, 2), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'flags' (2)");
    ASSERT_RC(aclrtReserveMemAddress(&v, MIB, 3, NULL, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'alignment' (3)");
    ASSERT_RC(aclrtReserveMemAddress(&v, MIB, 0, (void *)(uintptr_t)(16ull << 40), 0),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'expectPtr'");
    ASSERT_OK(aclrtReserveMemAddress(&v, 1, 0, NULL, 1)); /* flags 1 and a 1-byte size: kept for old callers */
    ASSERT(v != NULL && ((uintptr_t)v & (2 * MIB - 1)) == 0);
    ASSERT_OK(aclrtReleaseMemAddress(v));
    t_teardown();
}

TEST(vmm, release_requires_reserved_start)
{
    void *v;
    t_setup();
    v = reserve(4 * MIB);
    ASSERT_RC(aclrtReleaseMemAddress(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtReleaseMemAddress((char *)v + 4096), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtReleaseMemAddress: argument 'virPtr'");
    ASSERT_OK(aclrtReleaseMemAddress(v));
    ASSERT_RC(aclrtReleaseMemAddress(v), ACL_ERROR_RT_PARAM_INVALID); /* the second release */
    t_teardown();
}

TEST(vmm, release_with_mapping_fails)
{
    aclrtDrvMemHandle h;
    void *v;
    t_setup();
    h = phys(2 * MIB);
    v = reserve(2 * MIB);
    ASSERT_OK(aclrtMapMem(v, 2 * MIB, 0, h, 0));
    ASSERT_RC(aclrtReleaseMemAddress(v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "still has 1 mapping(s)");
    ASSERT_OK(aclrtUnmapMem(v));
    ASSERT_OK(aclrtReleaseMemAddress(v));
    ASSERT_OK(aclrtFreePhysical(h));
    t_teardown();
}

/* ---- physical allocations --------------------------------------------------- */

TEST(vmm, malloc_physical_argument_checks)
{
    aclrtPhysicalMemProp p = dev_prop(ACL_HBM_MEM_HUGE);
    aclrtDrvMemHandle h = NULL;
    t_setup();
    ASSERT_RC(aclrtMallocPhysical(NULL, MIB, &p, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMallocPhysical(&h, MIB, NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMallocPhysical: argument 'prop' is NULL");
    ASSERT_RC(aclrtMallocPhysical(&h, 0, &p, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMallocPhysical(&h, MIB, &p, 1), ACL_ERROR_INVALID_PARAM);
    p.handleType = ACL_MEM_HANDLE_TYPE_POSIX;
    ASSERT_RC(aclrtMallocPhysical(&h, MIB, &p, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "prop->handleType (2)");
    p = dev_prop(ACL_HBM_MEM_HUGE);
    p.allocationType = (aclrtMemAllocationType)1;
    ASSERT_RC(aclrtMallocPhysical(&h, MIB, &p, 0), ACL_ERROR_INVALID_PARAM);
    p = dev_prop(ACL_HBM_MEM_HUGE);
    p.location.type = ACL_MEM_LOCATION_TYPE_MANAGED;
    ASSERT_RC(aclrtMallocPhysical(&h, MIB, &p, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "MANAGED");
    p = dev_prop(ACL_DDR_MEM_HUGE); /* DDR pages are host pages */
    ASSERT_RC(aclrtMallocPhysical(&h, MIB, &p, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "DDR attribute");
    p = dev_prop(ACL_HBM_MEM); /* names no page size */
    ASSERT_RC(aclrtMallocPhysical(&h, MIB, &p, 0), ACL_ERROR_INVALID_PARAM);
    p = dev_prop(ACL_HBM_MEM_HUGE);
    p.location.id = 999;
    ASSERT_RC(aclrtMallocPhysical(&h, MIB, &p, 0), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "prop->location.id (999)");
    ASSERT(h == NULL);
    t_teardown();
}

/* A physical allocation's prop->location.id names a device: with 2
 * devices, id 1 (the last) is accepted and id 2 (the count) refused
 * (107001). */
TEST(vmm, a_physical_allocation_on_the_device_count_is_refused)
{
    aclrtPhysicalMemProp p = dev_prop(ACL_HBM_MEM_HUGE);
    aclrtDrvMemHandle h = NULL;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    t_setup();
    p.location.id = 2;
    ASSERT_RC(aclrtMallocPhysical(&h, MIB, &p, 0), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "prop->location.id (2)");
    ASSERT(h == NULL);
    ASSERT_OK(aclrtSetDevice(1)); /* an allocation needs its device open */
    p.location.id = 1;
    ASSERT_OK(aclrtMallocPhysical(&h, MIB, &p, 0));
    ASSERT_OK(aclrtFreePhysical(h));
    ASSERT_OK(aclrtResetDevice(1));
    t_teardown();
}

TEST(vmm, malloc_physical_charges_device_memory)
{
    size_t before, total = 0, f;
    aclrtDrvMemHandle h, big = NULL;
    aclrtPhysicalMemProp p = dev_prop(ACL_HBM_MEM_HUGE);
    t_setup();
    before = free_bytes();
    h = phys(1); /* rounded to the 2 MiB granularity */
    ASSERT_EQ(before - free_bytes(), 2 * MIB);
    ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &f, &total));
    ASSERT_RC(aclrtMallocPhysical(&big, f + 1, &p, 0), ACL_ERROR_RT_MEMORY_ALLOCATION);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMallocPhysical: argument 'size'");
    ASSERT_RC(aclrtMallocPhysical(&big, SIZE_MAX, &p, 0), ACL_ERROR_RT_MEMORY_ALLOCATION); /* no wrap */
    ASSERT(big == NULL);
    ASSERT_OK(aclrtFreePhysical(h));
    ASSERT_EQ(free_bytes(), before);
    ASSERT_RC(aclrtFreePhysical(h), ACL_ERROR_RT_PARAM_INVALID); /* the second free */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtFreePhysical: argument 'handle'");
    ASSERT_RC(aclrtFreePhysical((aclrtDrvMemHandle)(uintptr_t)0x1234), ACL_ERROR_RT_PARAM_INVALID);
    t_teardown();
}

/* A physical allocation that takes the device's free memory exactly fits
 * (the budget check is "more than what is left", not "as much"); one
 * granule more is then refused. */
TEST(vmm, a_physical_allocation_that_fills_device_memory_exactly_is_accepted)
{
    size_t f;
    aclrtDrvMemHandle h = NULL, more = NULL;
    aclrtPhysicalMemProp p = dev_prop(ACL_HBM_MEM_HUGE);
    setenv("ACLCPU_DEVICE_MEMORY", "64M", 1); /* a memory file of this size at most */
    t_setup();
    f = free_bytes();
    ASSERT(f > 0);
    ASSERT_EQ(f % (2 * MIB), 0); /* a whole number of granules: the request is not rounded up */
    ASSERT_OK(aclrtMallocPhysical(&h, f, &p, 0));
    ASSERT_EQ(free_bytes(), 0);
    ASSERT_RC(aclrtMallocPhysical(&more, 1, &p, 0), ACL_ERROR_RT_MEMORY_ALLOCATION);
    ASSERT_OK(aclrtFreePhysical(h));
    ASSERT_EQ(free_bytes(), f);
    t_teardown();
}

TEST(vmm, granularity_by_page_size)
{
    aclrtPhysicalMemProp p = dev_prop(ACL_HBM_MEM_NORMAL);
    size_t g = 0;
    t_setup();
    ASSERT_OK(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g));
    ASSERT_EQ(g, 4 * KIB);
    ASSERT_OK(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &g));
    ASSERT_EQ(g, 2 * MIB);
    p.memAttr = ACL_MEM_HUGE;
    ASSERT_OK(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g));
    ASSERT_EQ(g, 2 * MIB);
    p.memAttr = ACL_MEM_HUGE1G;
    ASSERT_OK(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g));
    ASSERT_EQ(g, 1024 * MIB);
    ASSERT_RC(aclrtMemGetAllocationGranularity(NULL, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g),
              ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, NULL),
              ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF, &g),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemGetAllocationGranularity: argument 'option'");
    p.memAttr = ACL_DDR_MEM_NORMAL;
    ASSERT_RC(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g),
              ACL_ERROR_INVALID_PARAM);
    p.location.type = ACL_MEM_LOCATION_TYPE_HOST; /* DDR is fine on the host */
    ASSERT_OK(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g));
    t_teardown();
}

TEST(vmm, properties_and_retain)
{
    aclrtPhysicalMemProp want = dev_prop(ACL_HBM_MEM_NORMAL), got;
    aclrtDrvMemHandle h = NULL, back = NULL;
    void *v;
    t_setup();
    ASSERT_OK(aclrtMallocPhysical(&h, 8 * KIB, &want, 0));
    ASSERT_OK(aclrtMemGetAllocationPropertiesFromHandle(h, &got));
    ASSERT_EQ(got.memAttr, ACL_HBM_MEM_NORMAL);
    ASSERT_EQ(got.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    ASSERT_EQ(got.location.id, 0);
    ASSERT_RC(aclrtMemGetAllocationPropertiesFromHandle(NULL, &got), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemGetAllocationPropertiesFromHandle(h, NULL), ACL_ERROR_INVALID_PARAM);
    v = reserve(2 * MIB);
    ASSERT_RC(aclrtMemRetainAllocationHandle(v, &back), ACL_ERROR_RT_PARAM_INVALID); /* not mapped */
    ASSERT_OK(aclrtMapMem(v, 8 * KIB, 0, h, 0));
    ASSERT_OK(aclrtMemRetainAllocationHandle(v, &back));
    ASSERT(back == h);
    ASSERT_RC(aclrtMemRetainAllocationHandle(NULL, &back), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemRetainAllocationHandle(v, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtUnmapMem(v));
    ASSERT_OK(aclrtFreePhysical(h));
    ASSERT_RC(aclrtMemGetAllocationPropertiesFromHandle(h, &got), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemGetAllocationPropertiesFromHandle: argument 'handle'");
    ASSERT_OK(aclrtReleaseMemAddress(v));
    t_teardown();
}

/* ---- mappings --------------------------------------------------------------- */

TEST(vmm, map_shows_same_bytes_at_two_addresses)
{
    aclrtDrvMemHandle h;
    int32_t *a, *b, host[4] = {1, 2, 3, 4}, out[4] = {0};
    t_setup();
    h = phys(2 * MIB);
    a = reserve(2 * MIB);
    b = reserve(4 * MIB);
    ASSERT_OK(aclrtMapMem(a, 2 * MIB, 0, h, 0));
    ASSERT_OK(aclrtMapMem((char *)b + 2 * MIB, 2 * MIB, 0, h, 0)); /* not at the reservation's start */
    ASSERT_OK(aclrtMemcpy(a, 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_OK(aclrtMemcpy(out, 16, (char *)b + 2 * MIB, 16, ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT_EQ(out[3], 4);
    a[100] = 77; /* a kernel's view: plain loads and stores */
    ASSERT_EQ(((int32_t *)((char *)b + 2 * MIB))[100], 77);
    ASSERT_OK(aclrtMemcpy(a + 8, 16, (char *)b + 2 * MIB, 16, ACL_MEMCPY_DEVICE_TO_DEVICE));
    ASSERT_EQ(a[9], 2);
    ASSERT_OK(aclrtUnmapMem(a));
    ASSERT_OK(aclrtUnmapMem((char *)b + 2 * MIB));
    ASSERT_OK(aclrtFreePhysical(h));
    ASSERT_OK(aclrtReleaseMemAddress(a));
    ASSERT_OK(aclrtReleaseMemAddress(b));
    t_teardown();
}

TEST(vmm, kernels_and_stream_tasks_use_mapped_memory)
{
    aclrtDrvMemHandle h;
    aclrtStream s = NULL;
    int64_t *v, out = 0;
    t_setup();
    h = phys(2 * MIB);
    v = reserve(2 * MIB);
    ASSERT_OK(aclrtMapMem(v, 2 * MIB, 0, h, 0));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMemsetAsync(v, 64, 0, 64, s));
    t_launch_add(v, 5, s);
    t_launch_add(v, 2, s);
    ASSERT_OK(aclrtMemcpyAsync(&out, 8, v, 8, ACL_MEMCPY_DEVICE_TO_HOST, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(out, 7);
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtUnmapMem(v));
    ASSERT_OK(aclrtReleaseMemAddress(v));
    ASSERT_OK(aclrtFreePhysical(h));
    t_teardown();
}

/* A store through a pointer a kernel was given (args: the pointer). */
static void store_one(void *args)
{
    volatile int64_t *p;
    memcpy(&p, args, sizeof(p));
    p[aclcpuGetBlockIdx()] = 1;
}

static aclError run_store(void *at, uint32_t blocks)
{
    aclrtStream s = NULL;
    aclError rc;
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("vmm_store_one", store_one), blocks, &at, sizeof(at), s));
    rc = aclrtSynchronizeStream(s);
    ASSERT_OK(aclrtDestroyStream(s));
    return rc;
}

/* A kernel's store into a range mapped READ, or into reserved space with
 * nothing mapped, fails that kernel with the vector core's exception as the
 * device reports a bad access; the process and the library go on (the
 * same kernel into READWRITE memory then succeeds, and a second bad store
 * is caught again). */
TEST(vmm, kernel_store_into_read_only_or_unmapped_range_fails_the_kernel)
{
    aclrtDrvMemHandle h;
    int64_t *v;
    char *bare;
#ifdef T_TSAN
    SKIP("device faults are not taken under ThreadSanitizer");
#endif
    t_setup();
    h = phys(2 * MIB);
    v = reserve(2 * MIB);
    ASSERT_OK(aclrtMapMem(v, 2 * MIB, 0, h, 0));
    set_access(v, 2 * MIB, ACL_RT_MEM_ACCESS_FLAGS_READ);
    ASSERT_RC(run_store(v, 1), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_RC(run_store(v, 4), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION); /* again, with several blocks */
    set_access(v, 2 * MIB, ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
    ASSERT_OK(run_store(v, 4));
    ASSERT_EQ(v[3], 1);
    bare = reserve(2 * MIB);
    ASSERT_RC(run_store(bare + 2 * MIB - 8, 1), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION); /* its last word */
    ASSERT_OK(aclrtReleaseMemAddress(bare));
    ASSERT_OK(aclrtUnmapMem(v));
    ASSERT_OK(aclrtReleaseMemAddress(v));
    ASSERT_OK(aclrtFreePhysical(h));
    t_teardown();
}

/* The boundary: only a kernel's faults are taken. The host's own store
 * into reserved space is the program's crash, as before (in a child). */
TEST(vmm, host_store_into_unmapped_range_still_faults)
{
    pid_t pid = fork();
    int status = 0;
    ASSERT(pid >= 0);
    if (pid == 0) {
        void *bare = NULL;
        if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
            aclrtReserveMemAddress(&bare, 2 * MIB, 0, NULL, 0) != ACL_SUCCESS)
            _exit(3);
        *(volatile char *)bare = 1;
        _exit(0); /* not reached: the store faults */
    }
    ASSERT(waitpid(pid, &status, 0) == pid);
#if T_SANITIZED
    ASSERT(!(WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 3))); /* the sanitizer reports it */
#else
    ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
#endif
}

/* The other side of the boundary: a memory task (here a copy from a wild
 * host pointer, which no call can check) faults outside every reserved
 * range, so its fault is not taken as the task's DMA error (507013) but
 * ends the process as it would without aclcpu (in a child). Reserved
 * device memory lies above the first page, so an address below a range
 * must not count as inside it. */
TEST(vmm, a_memory_task_faulting_below_device_memory_still_crashes)
{
    pid_t pid = fork();
    int status = 0;
    ASSERT(pid >= 0);
    if (pid == 0) {
        void *dev = NULL;
        aclrtStream s = NULL;
        if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
            aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS || aclrtCreateStream(&s) != ACL_SUCCESS)
            _exit(103);
        if (aclrtMemcpyAsync(dev, 4096, (const void *)(uintptr_t)64, 64, ACL_MEMCPY_HOST_TO_DEVICE, s) != ACL_SUCCESS)
            _exit(104);
        (void)aclrtSynchronizeStream(s);
        _exit(100); /* not reached: the copy faults */
    }
    ASSERT(waitpid(pid, &status, 0) == pid);
#if T_SANITIZED
    /* The sanitizer reports the fault and exits with its own code (1 for
     * ASan): anything but the child's own exits. */
    ASSERT(!(WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) >= 100)));
#else
    ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
#endif
}

TEST(vmm, map_argument_checks)
{
    aclrtDrvMemHandle h;
    void *v;
    t_setup();
    h = phys(2 * MIB);
    v = reserve(4 * MIB);
    ASSERT_RC(aclrtMapMem(NULL, 2 * MIB, 0, h, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMapMem(v, 2 * MIB, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMapMem(v, 0, 0, h, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMapMem(v, 2 * MIB, 0, h, 1), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMapMem(v, 2 * MIB, 0, (aclrtDrvMemHandle)(uintptr_t)0x4321, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMapMem(v, 2 * MIB, 2 * MIB, h, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'offset'");
    ASSERT_RC(aclrtMapMem(v, 4 * MIB, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID); /* not the physical size */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMapMem: argument 'size' (4194304)");
    ASSERT_RC(aclrtMapMem((char *)v + 4096, 2 * MIB, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID); /* off granularity */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "not aligned");
    ASSERT_OK(aclrtMapMem((char *)v + 2 * MIB, 2 * MIB, 0, h, 0)); /* the last granule: boundary */
    ASSERT_OK(aclrtUnmapMem((char *)v + 2 * MIB));
    ASSERT_OK(aclrtReleaseMemAddress(v));
    ASSERT_OK(aclrtFreePhysical(h));
    t_teardown();
}

TEST(vmm, map_into_unreserved_range_fails)
{
    aclrtDrvMemHandle h;
    static char not_reserved[4 * MIB];
    void *v, *dev = NULL;
    t_setup();
    h = phys(2 * MIB);
    ASSERT_RC(aclrtMapMem(not_reserved, 2 * MIB, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is not inside a range aclrtReserveMemAddress reserved");
    ASSERT_OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_RC(aclrtMapMem(dev, 2 * MIB, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID);
    v = reserve(2 * MIB);
    ASSERT_OK(aclrtReleaseMemAddress(v));
    ASSERT_RC(aclrtMapMem(v, 2 * MIB, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID); /* released: unreserved again */
    v = reserve(3 * MIB); /* 2 MiB fits at 0, not at 2 MiB: past the end */
    ASSERT_RC(aclrtMapMem((char *)v + 2 * MIB, 2 * MIB, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "runs past the end");
    ASSERT_OK(aclrtReleaseMemAddress(v));
    /* A range's end address is the first byte outside it (the only range). */
    v = reserve(4 * MIB);
    ASSERT_RC(aclrtMapMem((char *)v + 4 * MIB, 2 * MIB, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is not inside a range aclrtReserveMemAddress reserved");
    ASSERT_OK(aclrtReleaseMemAddress(v));
    ASSERT_OK(aclrtFree(dev));
    ASSERT_OK(aclrtFreePhysical(h));
    t_teardown();
}

TEST(vmm, map_into_mapped_range_fails)
{
    aclrtDrvMemHandle h, h2;
    aclrtPhysicalMemProp p = dev_prop(ACL_HBM_MEM_NORMAL);
    void *v;
    t_setup();
    h = phys(2 * MIB);
    ASSERT_OK(aclrtMallocPhysical(&h2, 4 * KIB, &p, 0));
    v = reserve(4 * MIB);
    ASSERT_OK(aclrtMapMem(v, 2 * MIB, 0, h, 0));
    ASSERT_RC(aclrtMapMem(v, 2 * MIB, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "overlaps the mapping");
    ASSERT_RC(aclrtMapMem((char *)v + 8 * KIB, 4 * KIB, 0, h2, 0), ACL_ERROR_RT_PARAM_INVALID); /* inside it */
    ASSERT_OK(aclrtMapMem((char *)v + 2 * MIB, 4 * KIB, 0, h2, 0)); /* right after it: no overlap */
    ASSERT_OK(aclrtUnmapMem(v));
    ASSERT_OK(aclrtUnmapMem((char *)v + 2 * MIB));
    ASSERT_OK(aclrtReleaseMemAddress(v));
    ASSERT_OK(aclrtFreePhysical(h));
    ASSERT_OK(aclrtFreePhysical(h2));
    t_teardown();
}

TEST(vmm, unmap_of_unmapped_fails)
{
    aclrtDrvMemHandle h;
    void *v;
    t_setup();
    h = phys(2 * MIB);
    v = reserve(2 * MIB);
    ASSERT_RC(aclrtUnmapMem(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtUnmapMem(v), ACL_ERROR_RT_PARAM_INVALID); /* reserved, never mapped */
    ASSERT_OK(aclrtMapMem(v, 2 * MIB, 0, h, 0));
    ASSERT_RC(aclrtUnmapMem((char *)v + 4096), ACL_ERROR_RT_PARAM_INVALID); /* inside, not the start */
    ASSERT_OK(aclrtUnmapMem(v));
    ASSERT_RC(aclrtUnmapMem(v), ACL_ERROR_RT_PARAM_INVALID); /* the second unmap */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtUnmapMem: argument 'virPtr'");
    ASSERT_OK(aclrtReleaseMemAddress(v));
    ASSERT_OK(aclrtFreePhysical(h));
    t_teardown();
}

TEST(vmm, unmapped_range_is_not_device_memory)
{
    aclrtDrvMemHandle h;
    char host[64] = {0};
    void *v;
    t_setup();
    h = phys(2 * MIB);
    v = reserve(2 * MIB);
    ASSERT_RC(aclrtMemcpy(v, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtMapMem(v, 2 * MIB, 0, h, 0));
    ASSERT_OK(aclrtMemcpy(v, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_OK(aclrtUnmapMem(v));
    ASSERT_RC(aclrtMemcpy(host, 64, v, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is not device memory");
    ASSERT_OK(aclrtReleaseMemAddress(v));
    ASSERT_OK(aclrtFreePhysical(h));
    t_teardown();
}

TEST(vmm, free_mapped_physical_defers_release)
{
    aclrtDrvMemHandle h;
    size_t before;
    int32_t *v;
    t_setup();
    before = free_bytes();
    h = phys(2 * MIB);
    v = reserve(2 * MIB);
    ASSERT_OK(aclrtMapMem(v, 2 * MIB, 0, h, 0));
    v[0] = 5;
    ASSERT_OK(aclrtFreePhysical(h)); /* legal: the memory stays while mapped */
    ASSERT_EQ(v[0], 5);
    ASSERT_EQ(before - free_bytes(), 2 * MIB);
    ASSERT_RC(aclrtFreePhysical(h), ACL_ERROR_RT_PARAM_INVALID); /* the handle is gone */
    ASSERT_OK(aclrtUnmapMem(v));
    ASSERT_EQ(free_bytes(), before); /* the last mapping took the memory with it */
    ASSERT_OK(aclrtReleaseMemAddress(v));
    t_teardown();
}

/* ---- access ----------------------------------------------------------------- */

TEST(vmm, set_access_flags)
{
    aclrtDrvMemHandle h;
    aclrtMemAccessDesc d;
    aclrtMemLocation loc = {0, ACL_MEM_LOCATION_TYPE_DEVICE};
    uint64_t flags = 99;
    char host[16] = {0};
    void *v;
    t_setup();
    h = phys(2 * MIB);
    v = reserve(2 * MIB);
    ASSERT_OK(aclrtMapMem(v, 2 * MIB, 0, h, 0));
    ASSERT_OK(aclrtMemGetAccess(v, &loc, &flags));
    ASSERT_EQ(flags, ACL_RT_MEM_ACCESS_FLAGS_READWRITE); /* aclrtMapMem gives access */
    set_access(v, 2 * MIB, ACL_RT_MEM_ACCESS_FLAGS_NONE);
    ASSERT_OK(aclrtMemGetAccess(v, &loc, &flags));
    ASSERT_EQ(flags, ACL_RT_MEM_ACCESS_FLAGS_NONE);
    ASSERT_RC(aclrtMemcpy(host, 16, v, 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
    set_access(v, 2 * MIB, ACL_RT_MEM_ACCESS_FLAGS_READ);
    ASSERT_OK(aclrtMemcpy(host, 16, v, 16, ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT_OK(aclrtMemGetAccess(v, &loc, &flags));
    ASSERT_EQ(flags, ACL_RT_MEM_ACCESS_FLAGS_READ);
    set_access(v, 2 * MIB, ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
    ((char *)v)[0] = 1;

    memset(&d, 0, sizeof(d));
    d.flags = (aclrtMemAccessFlags)2;
    d.location = loc;
    ASSERT_RC(aclrtMemSetAccess(v, 2 * MIB, &d, 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemSetAccess: desc[0].flags");
    d.flags = ACL_RT_MEM_ACCESS_FLAGS_READ;
    ASSERT_RC(aclrtMemSetAccess(NULL, 2 * MIB, &d, 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemSetAccess(v, 2 * MIB, NULL, 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemSetAccess(v, 2 * MIB, &d, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemSetAccess(v, MIB, &d, 1), ACL_ERROR_RT_PARAM_INVALID); /* not the mapping's size */
    d.location.id = 999;
    ASSERT_RC(aclrtMemSetAccess(v, 2 * MIB, &d, 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemGetAccess(NULL, &loc, &flags), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemGetAccess(v, NULL, &flags), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemGetAccess(v, &loc, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtUnmapMem(v));
    ASSERT_RC(aclrtMemGetAccess(v, &loc, &flags), ACL_ERROR_RT_PARAM_INVALID); /* unmapped */
    ASSERT_OK(aclrtReleaseMemAddress(v));
    ASSERT_OK(aclrtFreePhysical(h));
    t_teardown();
}

/* A mapping gives access to its allocation's own location only: another
 * location (the host, for device memory) that no aclrtMemSetAccess named
 * reads back NONE until one grants it. */
TEST(vmm, a_location_never_granted_access_reads_back_none)
{
    aclrtDrvMemHandle h;
    aclrtMemAccessDesc d;
    aclrtMemLocation host = {0, ACL_MEM_LOCATION_TYPE_HOST};
    uint64_t flags = 99;
    void *v;
    t_setup();
    h = phys(2 * MIB);
    v = reserve(2 * MIB);
    ASSERT_OK(aclrtMapMem(v, 2 * MIB, 0, h, 0));
    ASSERT_OK(aclrtMemGetAccess(v, &host, &flags));
    ASSERT_EQ(flags, ACL_RT_MEM_ACCESS_FLAGS_NONE);
    memset(&d, 0, sizeof(d));
    d.flags = ACL_RT_MEM_ACCESS_FLAGS_READ;
    d.location = host;
    ASSERT_OK(aclrtMemSetAccess(v, 2 * MIB, &d, 1));
    ASSERT_OK(aclrtMemGetAccess(v, &host, &flags));
    ASSERT_EQ(flags, ACL_RT_MEM_ACCESS_FLAGS_READ);
    ASSERT_OK(aclrtUnmapMem(v));
    ASSERT_OK(aclrtReleaseMemAddress(v));
    ASSERT_OK(aclrtFreePhysical(h));
    t_teardown();
}

/* ---- counts back to zero ---------------------------------------------------- */

/* Mappings of aclcpu's memory files in /proc/self/maps plus descriptors of them. */
static int memfile_count(void)
{
    char line[512], path[300], target[256];
    int n = 0;
    FILE *f = fopen("/proc/self/maps", "r");
    DIR *d;
    struct dirent *e;
    ASSERT(f != NULL);
    while (fgets(line, sizeof(line), f) != NULL)
        n += strstr(line, "memfd:aclcpu-physical") != NULL || strstr(line, "memfd:aclcpu-share") != NULL;
    fclose(f);
    d = opendir("/proc/self/fd");
    ASSERT(d != NULL);
    while ((e = readdir(d)) != NULL) {
        ssize_t len;
        snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
        len = readlink(path, target, sizeof(target) - 1);
        if (len > 0) {
            target[len] = '\0';
            n += strstr(target, "aclcpu-physical") != NULL || strstr(target, "aclcpu-share") != NULL;
        }
    }
    closedir(d);
    return n;
}

/* ---- mapping without access, mapping another's physical memory, links --------------------- */

TEST(vmm, reserve_no_uc_memory_checks_as_reserve_and_reserves)
{
    void *v = NULL;
    aclrtDrvMemHandle h;
    t_setup();
    ASSERT_RC(aclrtReserveMemAddressNoUCMemory(NULL, 0, 0, NULL, 7), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtReserveMemAddressNoUCMemory: argument 'virPtr' is NULL");
    ASSERT_RC(aclrtReserveMemAddressNoUCMemory(&v, 0, 0, NULL, 7), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'size' is 0");
    ASSERT_RC(aclrtReserveMemAddressNoUCMemory(&v, 2 * MIB, 0, NULL, 2), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'flags' (2)");
    ASSERT_OK(aclrtReserveMemAddressNoUCMemory(&v, 2 * MIB, 0, NULL, 1)); /* 1 is kept for older callers */
    ASSERT(v != NULL);
    h = phys(2 * MIB);
    ASSERT_OK(aclrtMapMem(v, 2 * MIB, 0, h, 0)); /* an ordinary reservation */
    ((char *)v)[5] = 5;
    ASSERT_OK(aclrtUnmapMem(v));
    ASSERT_OK(aclrtFreePhysical(h));
    ASSERT_OK(aclrtReleaseMemAddress(v));
    t_teardown();
}

TEST(vmm, map_no_access_checks_in_map_order)
{
    aclrtDrvMemHandle h;
    void *v;
    t_setup();
    h = phys(2 * MIB);
    v = reserve(4 * MIB);
    ASSERT_RC(aclrtMemMapNoAccess(NULL, 0, 0, NULL, 1), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemMapNoAccess: argument 'virPtr' is NULL");
    ASSERT_RC(aclrtMemMapNoAccess(v, 0, 0, NULL, 1), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'handle' is NULL");
    ASSERT_RC(aclrtMemMapNoAccess(v, 0, 0, h, 1), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'size' is 0");
    ASSERT_RC(aclrtMemMapNoAccess(v, 2 * MIB, 0, h, 1), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'flags' (1) is reserved");
    ASSERT_RC(aclrtMemMapNoAccess(v, 2 * MIB, 4096, h, 0), ACL_ERROR_RT_PARAM_INVALID); /* as aclrtMapMem */
    ASSERT_RC(aclrtMemMapNoAccess(v, MIB, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemMapNoAccess(v, 2 * MIB, 0, (aclrtDrvMemHandle)(uintptr_t)0x40, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is not a live physical allocation");
    ASSERT_OK(aclrtMemMapNoAccess(v, 2 * MIB, 0, h, 0));
    ASSERT_RC(aclrtMemMapNoAccess(v, 2 * MIB, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID); /* mapped already */
    ASSERT_OK(aclrtUnmapMem(v));
    ASSERT_OK(aclrtFreePhysical(h));
    ASSERT_OK(aclrtReleaseMemAddress(v));
    t_teardown();
}

TEST(vmm, map_no_access_gives_no_access_until_set_access)
{
    aclrtDrvMemHandle h;
    aclrtMemLocation loc = {0, ACL_MEM_LOCATION_TYPE_DEVICE};
    uint64_t flags = 99;
    char host[16] = "no access yet", out[16] = {0};
    void *v;
    t_setup();
    h = phys(2 * MIB);
    v = reserve(2 * MIB);
    ASSERT_OK(aclrtMemMapNoAccess(v, 2 * MIB, 0, h, 0));
    ASSERT_OK(aclrtMemGetAccess(v, &loc, &flags));
    ASSERT_EQ(flags, ACL_RT_MEM_ACCESS_FLAGS_NONE);
    ASSERT_RC(aclrtMemcpy(v, 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    set_access(v, 2 * MIB, ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
    ASSERT_OK(aclrtMemcpy(v, 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_OK(aclrtMemcpy(out, 16, v, 16, ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT(memcmp(out, host, 16) == 0);
    ASSERT_OK(aclrtUnmapMem(v));
    ASSERT_OK(aclrtFreePhysical(h));
    ASSERT_OK(aclrtReleaseMemAddress(v));
    t_teardown();
}

TEST(vmm, map_selected_link_checks_in_order)
{
    char x;
    t_setup();
    ASSERT_RC(aclrtMemMapSelectedLink(NULL, 0, NULL, 2), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemMapSelectedLink: argument 'virPtrDst' is NULL");
    ASSERT_RC(aclrtMemMapSelectedLink(&x, 0, NULL, 2), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'virPtrSrc' is NULL");
    ASSERT_RC(aclrtMemMapSelectedLink(&x, 0, &x, 2), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'size' is 0");
    ASSERT_RC(aclrtMemMapSelectedLink(&x, 1, &x, 2), ACL_ERROR_INVALID_PARAM); /* the first index refused */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'linkIdx' (2) must be 0 or 1");
    ASSERT_RC(aclrtMemMapSelectedLink(&x, 1, &x, 1), ACL_ERROR_RT_PARAM_INVALID); /* 1 passes: no mapping there */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is not the start of a mapping of a live physical allocation");
    t_teardown();
}

TEST(vmm, map_selected_link_maps_each_source_mapping_again)
{
    aclrtDrvMemHandle h1, h2;
    char *src, *dst;
    t_setup();
    h1 = phys(2 * MIB);
    h2 = phys(2 * MIB);
    src = reserve(4 * MIB);
    dst = reserve(4 * MIB);
    ASSERT_OK(aclrtMapMem(src, 2 * MIB, 0, h1, 0));
    ASSERT_OK(aclrtMapMem(src + 2 * MIB, 2 * MIB, 0, h2, 0));
    src[10] = 'a';
    src[2 * MIB + 10] = 'b';
    ASSERT_OK(aclrtMemMapSelectedLink(dst, 2 * MIB + 1, src, ACL_RT_MEM_LINK_IDX_1)); /* spans both */
    ASSERT_EQ(dst[10], 'a');
    ASSERT_EQ(dst[2 * MIB + 10], 'b');
    dst[11] = 'c'; /* the same physical memory */
    ASSERT_EQ(src[11], 'c');
    ASSERT_OK(aclrtUnmapMem(dst));
    ASSERT_OK(aclrtUnmapMem(dst + 2 * MIB));
    /* One byte of the first mapping maps it whole; the second stays free. */
    ASSERT_OK(aclrtMemMapSelectedLink(dst, 1, src, ACL_RT_MEM_LINK_IDX_0));
    ASSERT_RC(aclrtUnmapMem(dst + 2 * MIB), ACL_ERROR_RT_PARAM_INVALID);
    /* Mapped already at the destination: refused as aclrtMapMem refuses. */
    ASSERT_RC(aclrtMemMapSelectedLink(dst, 1, src, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "overlaps the mapping");
    ASSERT_OK(aclrtUnmapMem(dst));
    ASSERT_OK(aclrtUnmapMem(src));
    ASSERT_OK(aclrtUnmapMem(src + 2 * MIB));
    ASSERT_OK(aclrtFreePhysical(h1));
    ASSERT_OK(aclrtFreePhysical(h2));
    ASSERT_OK(aclrtReleaseMemAddress(src));
    ASSERT_OK(aclrtReleaseMemAddress(dst));
    t_teardown();
}

TEST(vmm, map_selected_link_stops_at_a_gap_keeping_what_it_mapped)
{
    aclrtDrvMemHandle h;
    char *src, *dst;
    t_setup();
    h = phys(2 * MIB);
    src = reserve(4 * MIB);
    dst = reserve(4 * MIB);
    ASSERT_OK(aclrtMapMem(src, 2 * MIB, 0, h, 0));
    ASSERT_RC(aclrtMemMapSelectedLink(dst, 4 * MIB, src, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'virPtrSrc' + 2097152");
    ASSERT_OK(aclrtUnmapMem(dst)); /* the first step stayed, as in the reference */
    ASSERT_OK(aclrtUnmapMem(src));
    ASSERT_OK(aclrtFreePhysical(h));
    ASSERT_OK(aclrtReleaseMemAddress(src));
    ASSERT_OK(aclrtReleaseMemAddress(dst));
    t_teardown();
}

TEST(vmm, map_set_link_checks_handle_then_link_then_live)
{
    aclrtDrvMemHandle h;
    t_setup();
    h = phys(2 * MIB);
    ASSERT_RC(aclrtMemMapSetLink(NULL, (aclrtMemLinkType)9), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemMapSetLink: argument 'handle' is NULL");
    ASSERT_RC(aclrtMemMapSetLink(h, (aclrtMemLinkType)4), ACL_ERROR_RT_PARAM_INVALID); /* the first refused */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'adviceLink' (4)");
    ASSERT_RC(aclrtMemMapSetLink(h, (aclrtMemLinkType)-1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtMemMapSetLink(h, ACL_RT_MEM_ACCESS_UB_MULTI_PORT_PATH)); /* the last accepted */
    ASSERT_OK(aclrtMemMapSetLink(h, ACL_RT_MEM_ACCESS_LINK_SIO));
    ASSERT_OK(aclrtFreePhysical(h));
    ASSERT_RC(aclrtMemMapSetLink(h, ACL_RT_MEM_ACCESS_LINK_HCCS), ACL_ERROR_RT_PARAM_INVALID); /* freed */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is not a live physical allocation");
    t_teardown();
}

TEST(vmm, counts_back_to_zero_after_reset_and_finalize)
{
    aclrtPhysicalMemProp hp = dev_prop(ACL_MEM_NORMAL);
    aclrtDrvMemHandle h, host = NULL;
    uint64_t key;
    void *v, *loose = NULL;
    size_t before;
    t_setup();
    before = free_bytes();
    h = phys(2 * MIB);
    v = reserve(2 * MIB);
    ASSERT_OK(aclrtMapMem(v, 2 * MIB, 0, h, 0));
    ASSERT_OK(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &key));
    ASSERT(memfile_count() >= 4); /* the data file: fd + mapping; the control file: fd + mapping */
    ASSERT_OK(aclrtResetDeviceForce(0));
    ASSERT_EQ(memfile_count(), 0);
    ASSERT_RC(aclrtReleaseMemAddress(v), ACL_ERROR_RT_PARAM_INVALID); /* the reservation went too */
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_EQ(free_bytes(), before);
    ASSERT_OK(aclrtResetDeviceForce(0));
    /* Host memory and a reservation made with no device: aclFinalize's. */
    hp.location.type = ACL_MEM_LOCATION_TYPE_HOST;
    ASSERT_OK(aclrtMallocPhysical(&host, 4 * KIB, &hp, 0));
    ASSERT_OK(aclrtReserveMemAddress(&loose, 2 * MIB, 0, NULL, 0));
    ASSERT_OK(aclrtMapMem(loose, 4 * KIB, 0, host, 0));
    ASSERT_EQ(memfile_count(), 2);
    ASSERT_OK(aclFinalize());
    ASSERT_EQ(memfile_count(), 0);
}

/* ---- shareable handles: one process ----------------------------------------- */

TEST(vmm, export_argument_checks)
{
    aclrtDrvMemHandle h;
    uint64_t key = 0, key2 = 0;
    t_setup();
    h = phys(2 * MIB);
    ASSERT_RC(aclrtMemExportToShareableHandle(NULL, ACL_MEM_HANDLE_TYPE_NONE, 0, &key), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_POSIX, 0, &key), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 2, &key), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemExportToShareableHandle: argument 'flags' (2)");
    ASSERT_RC(aclrtMemExportToShareableHandleV2(h, 0, (aclrtMemSharedHandleType)3, &key2),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemExportToShareableHandleV2(h, 0, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, &key2),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &key));
    ASSERT(key != 0);
    ASSERT_RC(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &key2), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is exported already");
    ASSERT_RC(aclrtMemExportToShareableHandleV2(h, 0, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &key2),
              ACL_ERROR_RT_PARAM_INVALID); /* V2 is the same handle: once */
    ASSERT_OK(aclrtFreePhysical(h));
    t_teardown();
}

TEST(vmm, set_pid_argument_checks)
{
    aclrtDrvMemHandle h;
    uint64_t key = 0;
    int32_t pids[2] = {1, 2}, bad = 0;
    t_setup();
    h = phys(2 * MIB);
    ASSERT_OK(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &key));
    ASSERT_RC(aclrtMemSetPidToShareableHandle(key, NULL, 1), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemSetPidToShareableHandle(key, pids, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemSetPidToShareableHandle(key ^ 1, pids, 2), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemSetPidToShareableHandle: argument 'shareableHandle'");
    ASSERT_RC(aclrtMemSetPidToShareableHandle(key, &bad, 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtMemSetPidToShareableHandle(key, pids, 2));
    ASSERT_OK(aclrtMemSetPidToShareableHandle(key, pids, 2)); /* again: kept once */
    ASSERT_RC(aclrtMemSetPidToShareableHandleV2(NULL, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, pids, 1),
              ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemSetPidToShareableHandleV2(&key, (aclrtMemSharedHandleType)0, pids, 1),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtMemSetPidToShareableHandleV2(&key, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, pids, 1));
    ASSERT_OK(aclrtFreePhysical(h));
    ASSERT_RC(aclrtMemSetPidToShareableHandle(key, pids, 1), ACL_ERROR_RT_PARAM_INVALID); /* freed: withdrawn */
    t_teardown();
}

TEST(vmm, pid_list_holds_a_thousand_pids)
{
    static int32_t pids[1001];
    aclrtDrvMemHandle h;
    uint64_t key = 0;
    t_setup();
    for (int i = 0; i < 1001; i++)
        pids[i] = 100000 + i;
    h = phys(2 * MIB);
    ASSERT_OK(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &key));
    ASSERT_OK(aclrtMemSetPidToShareableHandle(key, pids, 999));
    ASSERT_OK(aclrtMemSetPidToShareableHandle(key, pids + 998, 2)); /* one new: the list is full at 1000 */
    ASSERT_OK(aclrtMemSetPidToShareableHandle(key, pids, 10));      /* all listed already */
    ASSERT_RC(aclrtMemSetPidToShareableHandle(key, pids + 1000, 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "the pid list is full (1000 pids)");
    ASSERT_OK(aclrtFreePhysical(h));
    t_teardown();
}

/* An import names the device it imports to: with 2 devices, id 2 (the
 * count) is refused (107001) before the handle is looked at, and id 1
 * (the last) goes on to the handle's own check. */
TEST(vmm, an_import_to_the_device_count_is_refused)
{
    aclrtDrvMemHandle h, got = NULL;
    uint64_t key = 0;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    t_setup();
    h = phys(2 * MIB);
    ASSERT_OK(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 1, &key));
    ASSERT_RC(aclrtMemImportFromShareableHandle(key, 2, &got), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'deviceId' (2)");
    ASSERT_RC(aclrtMemImportFromShareableHandle(key, 1, &got), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "exported by this process");
    ASSERT(got == NULL);
    ASSERT_OK(aclrtFreePhysical(h));
    t_teardown();
}

TEST(vmm, import_argument_checks)
{
    aclrtDrvMemHandle h, got = NULL;
    uint64_t key = 0;
    t_setup();
    h = phys(2 * MIB);
    ASSERT_OK(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 1, &key));
    ASSERT_RC(aclrtMemImportFromShareableHandle(key, 0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemImportFromShareableHandle(key, 999, &got), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtMemImportFromShareableHandle(key, 0, &got), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "exported by this process");
    ASSERT_RC(aclrtMemImportFromShareableHandle(0, 0, &got), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemImportFromShareableHandle: argument 'shareableHandle'");
    ASSERT_RC(aclrtMemImportFromShareableHandle(0xffffffffffffffffull, 0, &got), ACL_ERROR_RT_PARAM_INVALID);
    /* A key naming a real descriptor of a live process that is no export:
     * the parent's stdout, whatever file that is. */
    ASSERT_RC(aclrtMemImportFromShareableHandle((uint64_t)getppid() << 32 | 1u << 12 | 1u, 0, &got),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemImportFromShareableHandleV2(NULL, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, &got),
              ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemImportFromShareableHandleV2(&key, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 1, &got),
              ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemImportFromShareableHandleV2(&key, (aclrtMemSharedHandleType)7, 0, &got),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT(got == NULL);
    ASSERT_OK(aclrtFreePhysical(h));
    t_teardown();
}

TEST(vmm, device_get_bare_tgid)
{
    int32_t pid = 0;
    ASSERT_RC(aclrtDeviceGetBareTgid(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtDeviceGetBareTgid(&pid));
    ASSERT_EQ(pid, getpid());
}

/* ---- shareable handles: two processes ----------------------------------------- */

/* What the child reports: the import's code, then what it read. */
struct child_report {
    int32_t import_rc, retry_rc, value;
};

struct peer {
    pid_t pid;
    int to_child, from_child;
};

static void write_all(int fd, const void *p, size_t n) { ASSERT(write(fd, p, n) == (ssize_t)n); }
static void read_all(int fd, void *p, size_t n) { ASSERT(read(fd, p, n) == (ssize_t)n); }

/* The child: imports the key the parent sends (twice if the parent sends a
 * second go), maps it, reads int 0, writes 456 to int 1. */
static void child_main(int in, int out, bool v2)
{
    struct child_report r = {-1, -1, -1};
    aclrtDrvMemHandle h = NULL;
    uint64_t key;
    int32_t again = 0;
    int32_t *v = NULL;

    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS)
        _exit(3);
    if (read(in, &key, sizeof(key)) != sizeof(key))
        _exit(4);
    r.import_rc = v2 ? aclrtMemImportFromShareableHandleV2(&key, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, &h)
                     : aclrtMemImportFromShareableHandle(key, 0, &h);
    if (r.import_rc != ACL_SUCCESS) {
        if (write(out, &r, sizeof(r)) != sizeof(r) || read(in, &again, sizeof(again)) != sizeof(again))
            _exit(5);
        if (again)
            r.retry_rc = aclrtMemImportFromShareableHandle(key, 0, &h);
    }
    if (h != NULL && aclrtReserveMemAddress((void **)&v, 2 * MIB, 0, NULL, 0) == ACL_SUCCESS &&
        aclrtMapMem(v, 2 * MIB, 0, h, 0) == ACL_SUCCESS) {
        int32_t host = 0;
        if (aclrtMemcpy(&host, 4, v, 4, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS)
            r.value = host;
        v[1] = 456;
        aclrtUnmapMem(v);
        aclrtReleaseMemAddress(v);
        aclrtFreePhysical(h);
    }
    if (write(out, &r, sizeof(r)) != sizeof(r))
        _exit(6);
    aclrtResetDeviceForce(0);
    aclFinalize();
    _exit(0);
}

static struct peer start_child(bool v2)
{
    int down[2], up[2];
    struct peer p;
    ASSERT(pipe(down) == 0 && pipe(up) == 0);
    p.pid = fork();
    ASSERT(p.pid >= 0);
    if (p.pid == 0) {
        close(down[1]);
        close(up[0]);
        child_main(down[0], up[1], v2);
    }
    close(down[0]);
    close(up[1]);
    p.to_child = down[1];
    p.from_child = up[0];
    return p;
}

static void end_child(struct peer *p)
{
    int status = 0;
    ASSERT(waitpid(p->pid, &status, 0) == p->pid);
    ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(p->to_child);
    close(p->from_child);
}

/* The parent's half: physical memory holding 123 at int 0, exported. */
static aclrtDrvMemHandle exported_123(uint64_t flags, uint64_t *key, int32_t **view)
{
    aclrtDrvMemHandle h = phys(2 * MIB);
    *view = reserve(2 * MIB);
    ASSERT_OK(aclrtMapMem(*view, 2 * MIB, 0, h, 0));
    (*view)[0] = 123;
    ASSERT_OK(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, flags, key));
    return h;
}

static void release_view(aclrtDrvMemHandle h, int32_t *view)
{
    ASSERT_OK(aclrtUnmapMem(view));
    ASSERT_OK(aclrtReleaseMemAddress(view));
    ASSERT_OK(aclrtFreePhysical(h));
}

TEST(vmm, share_between_processes_with_pid)
{
    struct peer c = start_child(false);
    struct child_report r;
    aclrtDrvMemHandle h;
    uint64_t key;
    int32_t *view, pid;
    t_setup();
    h = exported_123(ACL_RT_VMM_EXPORT_FLAG_DEFAULT, &key, &view);
    pid = (int32_t)c.pid;
    ASSERT_OK(aclrtMemSetPidToShareableHandle(key, &pid, 1));
    write_all(c.to_child, &key, sizeof(key));
    read_all(c.from_child, &r, sizeof(r));
    ASSERT_EQ(r.import_rc, ACL_SUCCESS);
    ASSERT_EQ(r.value, 123);
    ASSERT_EQ(view[1], 456); /* the child's write, in the same bytes */
    end_child(&c);
    release_view(h, view);
    t_teardown();
}

TEST(vmm, import_from_process_not_allowed)
{
    struct peer c = start_child(false);
    struct child_report r;
    aclrtDrvMemHandle h;
    uint64_t key;
    int32_t *view, pid, again = 1, other = 1;
    t_setup();
    h = exported_123(ACL_RT_VMM_EXPORT_FLAG_DEFAULT, &key, &view);
    ASSERT_OK(aclrtMemSetPidToShareableHandle(key, &other, 1)); /* someone else */
    write_all(c.to_child, &key, sizeof(key));
    read_all(c.from_child, &r, sizeof(r));
    ASSERT_EQ(r.import_rc, ACL_ERROR_RT_NO_PERMISSION);
    pid = (int32_t)c.pid;
    ASSERT_OK(aclrtMemSetPidToShareableHandle(key, &pid, 1)); /* now allowed: the retry imports */
    write_all(c.to_child, &again, sizeof(again));
    read_all(c.from_child, &r, sizeof(r));
    ASSERT_EQ(r.retry_rc, ACL_SUCCESS);
    ASSERT_EQ(r.value, 123);
    end_child(&c);
    release_view(h, view);
    t_teardown();
}

TEST(vmm, import_without_pid_validation)
{
    struct peer c = start_child(true);
    struct child_report r;
    aclrtDrvMemHandle h;
    uint64_t key;
    int32_t *view;
    t_setup();
    h = exported_123(ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION, &key, &view);
    write_all(c.to_child, &key, sizeof(key));
    read_all(c.from_child, &r, sizeof(r));
    ASSERT_EQ(r.import_rc, ACL_SUCCESS);
    ASSERT_EQ(r.value, 123);
    ASSERT_EQ(view[1], 456);
    end_child(&c);
    release_view(h, view);
    t_teardown();
}

TEST(vmm, import_after_exporter_freed_fails)
{
    struct peer c = start_child(false);
    struct child_report r;
    aclrtDrvMemHandle h;
    uint64_t key;
    int32_t *view, again = 0;
    t_setup();
    h = exported_123(ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION, &key, &view);
    release_view(h, view); /* the shareable handle dies with the allocation */
    write_all(c.to_child, &key, sizeof(key));
    read_all(c.from_child, &r, sizeof(r));
    ASSERT_EQ(r.import_rc, ACL_ERROR_RT_PARAM_INVALID);
    write_all(c.to_child, &again, sizeof(again));
    read_all(c.from_child, &r, sizeof(r));
    end_child(&c);
    t_teardown();
}

/* The importer's mapping keeps the memory after the exporter freed it:
 * the memory file lives while any process holds it. */
TEST(vmm, importer_keeps_memory_after_exporter_frees)
{
    int down[2], up[2];
    aclrtDrvMemHandle h;
    uint64_t key;
    int32_t *view, seen = -1, go = 1;
    pid_t pid;
    ASSERT(pipe(down) == 0 && pipe(up) == 0);
    pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        aclrtDrvMemHandle got = NULL;
        int32_t *v = NULL, value = -1;
        if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
            read(down[0], &key, sizeof(key)) != sizeof(key) ||
            aclrtMemImportFromShareableHandle(key, 0, &got) != ACL_SUCCESS ||
            aclrtReserveMemAddress((void **)&v, 2 * MIB, 0, NULL, 0) != ACL_SUCCESS ||
            aclrtMapMem(v, 2 * MIB, 0, got, 0) != ACL_SUCCESS)
            _exit(3);
        if (write(up[1], &value, sizeof(value)) != sizeof(value) || read(down[0], &go, sizeof(go)) != sizeof(go))
            _exit(4);
        value = v[0]; /* after the exporter's free */
        if (write(up[1], &value, sizeof(value)) != sizeof(value))
            _exit(5);
        aclrtUnmapMem(v);
        aclrtReleaseMemAddress(v);
        aclrtFreePhysical(got);
        aclFinalize();
        _exit(0);
    }
    t_setup();
    h = exported_123(ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION, &key, &view);
    write_all(down[1], &key, sizeof(key));
    read_all(up[0], &seen, sizeof(seen)); /* the child has mapped it */
    release_view(h, view);
    write_all(down[1], &go, sizeof(go));
    read_all(up[0], &seen, sizeof(seen));
    ASSERT_EQ(seen, 123);
    {
        int status = 0;
        ASSERT(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    t_teardown();
}

static int dev_shm_entries(void)
{
    int n = 0;
    DIR *d = opendir("/dev/shm");
    struct dirent *e;
    if (d == NULL)
        return 0;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

TEST(vmm, killed_exporter_leaves_nothing)
{
    int up[2], shm_before = dev_shm_entries();
    uint64_t key = 0;
    aclrtDrvMemHandle got = NULL;
    pid_t pid;
    ASSERT(pipe(up) == 0);
    pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) { /* the exporter: exports, says the key, waits to be killed */
        aclrtPhysicalMemProp p = dev_prop(ACL_HBM_MEM_HUGE);
        aclrtDrvMemHandle h;
        if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
            aclrtMallocPhysical(&h, 2 * MIB, &p, 0) != ACL_SUCCESS ||
            aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 1, &key) != ACL_SUCCESS)
            _exit(3);
        if (write(up[1], &key, sizeof(key)) != sizeof(key))
            _exit(4);
        for (;;)
            pause();
    }
    close(up[1]);
    read_all(up[0], &key, sizeof(key));
    close(up[0]);
    ASSERT_EQ(dev_shm_entries(), shm_before);
    ASSERT(kill(pid, SIGKILL) == 0);
    ASSERT(waitpid(pid, NULL, 0) == pid);
    ASSERT_EQ(dev_shm_entries(), shm_before);
    t_setup();
    ASSERT_RC(aclrtMemImportFromShareableHandle(key, 0, &got), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT(got == NULL);
    t_teardown();
}

/* ---- FABRIC handles: the server is this host ---- */

/* A child that imports the FABRIC handle it is sent, reads int 0 and
 * writes 456 to int 1. */
static void fabric_child(int in, int out)
{
    struct child_report r = {-1, -1, -1};
    aclrtMemFabricHandle fh;
    aclrtDrvMemHandle h = NULL;
    int32_t *v = NULL;
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS)
        _exit(3);
    if (read(in, &fh, sizeof(fh)) != sizeof(fh))
        _exit(4);
    r.import_rc = aclrtMemImportFromShareableHandleV2(&fh, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, 0, &h);
    if (h != NULL && aclrtReserveMemAddress((void **)&v, 2 * MIB, 0, NULL, 0) == ACL_SUCCESS &&
        aclrtMapMem(v, 2 * MIB, 0, h, 0) == ACL_SUCCESS) {
        r.value = v[0];
        v[1] = 456;
        aclrtUnmapMem(v);
        aclrtReleaseMemAddress(v);
        aclrtFreePhysical(h);
    }
    if (write(out, &r, sizeof(r)) != sizeof(r))
        _exit(6);
    aclrtResetDeviceForce(0);
    aclFinalize();
    _exit(0);
}

/* On an Atlas A3 (a device with a server id), a FABRIC handle exported on
 * this host imports in another process as a DEFAULT one does (the
 * runtime's same-server path), and both see one memory. */
TEST(vmm, fabric_handle_from_this_server_imports_in_another_process)
{
    int down[2], up[2];
    struct child_report r;
    struct peer c;
    aclrtMemFabricHandle fh;
    aclrtDrvMemHandle h;
    int32_t *view;
    setenv("ACLCPU_SOC", "Ascend910_9392", 1);
    ASSERT(pipe(down) == 0 && pipe(up) == 0);
    c.pid = fork();
    ASSERT(c.pid >= 0);
    if (c.pid == 0) {
        close(down[1]);
        close(up[0]);
        fabric_child(down[0], up[1]);
    }
    close(down[0]);
    close(up[1]);
    c.to_child = down[1];
    c.from_child = up[0];
    t_setup();
    h = phys(2 * MIB);
    view = reserve(2 * MIB);
    ASSERT_OK(aclrtMapMem(view, 2 * MIB, 0, h, 0));
    view[0] = 123;
    memset(&fh, 0xEE, sizeof(fh));
    ASSERT_OK(aclrtMemExportToShareableHandleV2(h, ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION,
                                                ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, &fh));
    ASSERT_EQ(fh.data[127], 0); /* the rest of the 128 bytes is cleared */
    write_all(c.to_child, &fh, sizeof(fh));
    read_all(c.from_child, &r, sizeof(r));
    ASSERT_EQ(r.import_rc, ACL_SUCCESS);
    ASSERT_EQ(r.value, 123);
    ASSERT_EQ(view[1], 456);
    end_child(&c);
    release_view(h, view);
    t_teardown();
    unsetenv("ACLCPU_SOC");
}

/* A handle of another server (its server field changed) cannot be
 * imported: aclcpu's servers share no memory (207000); bytes that are no
 * FABRIC handle are a bad value (107000); a device without a server id
 * (the Atlas A2 here) has no FABRIC at all (207000), export or import. */
TEST(vmm, fabric_handle_of_another_server_or_device_is_refused)
{
    aclrtMemFabricHandle fh, other, junk;
    aclrtDrvMemHandle h, got = NULL;
    uint64_t server;
    setenv("ACLCPU_SOC", "Ascend910_9392", 1);
    t_setup();
    h = phys(2 * MIB);
    ASSERT_OK(aclrtMemExportToShareableHandleV2(h, ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION,
                                                ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, &fh));
    other = fh;
    memcpy(&server, other.data + 8, sizeof(server));
    server ^= 1;
    memcpy(other.data + 8, &server, sizeof(server));
    ASSERT_RC(aclrtMemImportFromShareableHandleV2(&other, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, 0, &got),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "exported on another server");
    memset(&junk, 0, sizeof(junk));
    ASSERT_RC(aclrtMemImportFromShareableHandleV2(&junk, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, 0, &got),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT(got == NULL);
    ASSERT_OK(aclrtFreePhysical(h));
    t_teardown();
    setenv("ACLCPU_SOC", "Ascend910B1", 1);
    t_setup();
    h = phys(2 * MIB);
    ASSERT_RC(aclrtMemExportToShareableHandleV2(h, 0, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, &fh),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "Ascend910B1 does not support cross-server communication");
    ASSERT_RC(aclrtMemImportFromShareableHandleV2(&fh, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, 0, &got),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtFreePhysical(h));
    t_teardown();
    unsetenv("ACLCPU_SOC");
}

/* ---- sweep 4 (2026-12-05) ------------------------------------------------------------------ */

/* A physical allocation on a device this process has not opened is refused
 * with 107002 (the driver has no context there), though the id is valid. */
TEST(vmm, a_physical_allocation_on_a_device_not_opened_is_refused)
{
    aclrtPhysicalMemProp p = dev_prop(ACL_HBM_MEM_HUGE);
    aclrtDrvMemHandle h = NULL;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    t_setup();
    p.location.id = 1;
    ASSERT_RC(aclrtMallocPhysical(&h, MIB, &p, 0), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "device 1 is not open");
    ASSERT(h == NULL);
    t_teardown();
}

/* ---- sweep 4: boundaries of reserve alignment and access descriptors --------------------------- */

/* An alignment of exactly 1 GiB, the largest, is accepted; 2 GiB is not. */
TEST(vmm, a_reservation_aligned_to_exactly_1_gib_is_accepted)
{
    void *v = NULL;
    t_setup();
    ASSERT_OK(aclrtReserveMemAddress(&v, 2 * MIB, 1024 * MIB, NULL, 0));
    ASSERT(v != NULL && ((uintptr_t)v & (1024 * MIB - 1)) == 0);
    ASSERT_OK(aclrtReleaseMemAddress(v));
    ASSERT_RC(aclrtReserveMemAddress(&v, 2 * MIB, 2048 * MIB, NULL, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "of at most 1 GiB");
    t_teardown();
}

/* aclrtMemSetAccess takes up to 8 descriptors in one call (aclcpu's
 * access slots); the 9th is refused before any is applied. */
TEST(vmm, set_access_takes_eight_descriptors_and_refuses_nine)
{
    aclrtDrvMemHandle h;
    aclrtMemAccessDesc d[9];
    void *v;
    t_setup();
    h = phys(2 * MIB);
    v = reserve(2 * MIB);
    ASSERT_OK(aclrtMapMem(v, 2 * MIB, 0, h, 0));
    memset(d, 0, sizeof(d));
    for (int i = 0; i < 9; i++) {
        d[i].flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
        d[i].location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
        d[i].location.id = 0;
    }
    ASSERT_OK(aclrtMemSetAccess(v, 2 * MIB, d, 8));
    ASSERT_RC(aclrtMemSetAccess(v, 2 * MIB, d, 9), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is more than 8 descriptors");
    ASSERT_OK(aclrtUnmapMem(v));
    ASSERT_OK(aclrtReleaseMemAddress(v));
    ASSERT_OK(aclrtFreePhysical(h));
    t_teardown();
}

/* A device location's id must be below the device count: the last device
 * is taken, the id equal to the count is refused by set and get. */
TEST(vmm, an_access_location_of_the_device_count_is_refused)
{
    aclrtDrvMemHandle h;
    aclrtMemAccessDesc d;
    aclrtMemLocation loc = {1, ACL_MEM_LOCATION_TYPE_DEVICE};
    uint64_t flags = 99;
    void *v;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    t_setup();
    h = phys(2 * MIB);
    v = reserve(2 * MIB);
    ASSERT_OK(aclrtMapMem(v, 2 * MIB, 0, h, 0));
    memset(&d, 0, sizeof(d));
    d.flags = ACL_RT_MEM_ACCESS_FLAGS_READ;
    d.location = loc;
    ASSERT_OK(aclrtMemSetAccess(v, 2 * MIB, &d, 1));
    ASSERT_OK(aclrtMemGetAccess(v, &loc, &flags));
    ASSERT_EQ(flags, ACL_RT_MEM_ACCESS_FLAGS_READ);
    d.location.id = loc.id = 2;
    ASSERT_RC(aclrtMemSetAccess(v, 2 * MIB, &d, 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is neither the host nor a device");
    ASSERT_RC(aclrtMemGetAccess(v, &loc, &flags), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtUnmapMem(v));
    ASSERT_OK(aclrtReleaseMemAddress(v));
    ASSERT_OK(aclrtFreePhysical(h));
    t_teardown();
    unsetenv("ACLCPU_DEVICE_COUNT");
}

/* A mapping keeps access entries for 8 locations (its own device's, then
 * the ones aclrtMemSetAccess names): a 9th location finds no slot and
 * keeps reading back NONE, while the first 8 keep theirs. */
TEST(vmm, access_entries_stop_at_eight_locations_and_a_ninth_reads_back_none)
{
    aclrtDrvMemHandle h;
    aclrtMemAccessDesc d[7];
    aclrtMemLocation loc = {0, ACL_MEM_LOCATION_TYPE_HOST};
    uint64_t flags = 99;
    void *v;
    setenv("ACLCPU_DEVICE_COUNT", "8", 1);
    t_setup();
    h = phys(2 * MIB);
    v = reserve(2 * MIB);
    ASSERT_OK(aclrtMapMem(v, 2 * MIB, 0, h, 0)); /* slot 1: device 0 */
    memset(d, 0, sizeof(d));
    d[0].flags = ACL_RT_MEM_ACCESS_FLAGS_READ; /* slot 2: the host */
    d[0].location.type = ACL_MEM_LOCATION_TYPE_HOST;
    for (uint32_t i = 1; i < 7; i++) { /* slots 3-8: devices 1-6 */
        d[i].flags = ACL_RT_MEM_ACCESS_FLAGS_READ;
        d[i].location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
        d[i].location.id = i;
    }
    ASSERT_OK(aclrtMemSetAccess(v, 2 * MIB, d, 7));
    d[0].location.type = ACL_MEM_LOCATION_TYPE_DEVICE; /* device 7: no slot left */
    d[0].location.id = 7;
    ASSERT_OK(aclrtMemSetAccess(v, 2 * MIB, d, 1));
    loc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    loc.id = 7;
    ASSERT_OK(aclrtMemGetAccess(v, &loc, &flags));
    ASSERT_EQ(flags, ACL_RT_MEM_ACCESS_FLAGS_NONE);
    loc.id = 6;
    ASSERT_OK(aclrtMemGetAccess(v, &loc, &flags));
    ASSERT_EQ(flags, ACL_RT_MEM_ACCESS_FLAGS_READ);
    loc.id = 0;
    ASSERT_OK(aclrtMemGetAccess(v, &loc, &flags));
    ASSERT_EQ(flags, ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
    ASSERT_OK(aclrtUnmapMem(v));
    ASSERT_OK(aclrtReleaseMemAddress(v));
    ASSERT_OK(aclrtFreePhysical(h));
    t_teardown();
    unsetenv("ACLCPU_DEVICE_COUNT");
}

/* Host memory allocated as DDR pages reads back under the names the
 * reference reports for host memory: ACL_DDR_MEM_NORMAL as ACL_MEM_NORMAL
 * and ACL_DDR_MEM_HUGE as ACL_MEM_HUGE. */
TEST(vmm, host_ddr_pages_read_back_as_the_generic_names)
{
    aclrtPhysicalMemProp p = dev_prop(ACL_DDR_MEM_NORMAL), got;
    aclrtDrvMemHandle h = NULL;
    t_setup();
    p.location.type = ACL_MEM_LOCATION_TYPE_HOST;
    ASSERT_OK(aclrtMallocPhysical(&h, 2 * MIB, &p, 0));
    ASSERT_OK(aclrtMemGetAllocationPropertiesFromHandle(h, &got));
    ASSERT_EQ(got.memAttr, ACL_MEM_NORMAL);
    ASSERT_OK(aclrtFreePhysical(h));
    p.memAttr = ACL_DDR_MEM_HUGE;
    ASSERT_OK(aclrtMallocPhysical(&h, 2 * MIB, &p, 0));
    ASSERT_OK(aclrtMemGetAllocationPropertiesFromHandle(h, &got));
    ASSERT_EQ(got.memAttr, ACL_MEM_HUGE);
    ASSERT_OK(aclrtFreePhysical(h));
    t_teardown();
}

/* aclrtMemMapSelectedLink maps a source mapping again only while its
 * physical allocation lives: once aclrtFreePhysical freed it (the mapping
 * itself stays until unmapped), the link is refused. */
TEST(vmm, a_link_of_a_mapping_whose_allocation_was_freed_is_refused)
{
    aclrtDrvMemHandle h;
    char *src, *dst;
    t_setup();
    h = phys(2 * MIB);
    src = reserve(2 * MIB);
    dst = reserve(2 * MIB);
    ASSERT_OK(aclrtMapMem(src, 2 * MIB, 0, h, 0));
    ASSERT_OK(aclrtFreePhysical(h)); /* deferred: src still maps it */
    ASSERT_RC(aclrtMemMapSelectedLink(dst, 1, src, ACL_RT_MEM_LINK_IDX_0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is not the start of a mapping of a live physical allocation");
    ASSERT_RC(aclrtUnmapMem(dst), ACL_ERROR_RT_PARAM_INVALID); /* nothing was mapped there */
    ASSERT_OK(aclrtUnmapMem(src));
    ASSERT_OK(aclrtReleaseMemAddress(src));
    ASSERT_OK(aclrtReleaseMemAddress(dst));
    t_teardown();
}

/* ---- sweep 5 (2026-12-05): boundaries and second occurrences -------------- */

/* Two mappings overlap only if they share a byte: a mapping made below
 * another that ends exactly where the other starts is accepted (the
 * opposite order, a mapping right after another, is checked above). */
TEST(vmm, a_mapping_that_ends_where_another_starts_does_not_overlap_it)
{
    aclrtDrvMemHandle h, h2;
    aclrtPhysicalMemProp p = dev_prop(ACL_HBM_MEM_NORMAL);
    char *v;
    t_setup();
    h = phys(2 * MIB);
    ASSERT_OK(aclrtMallocPhysical(&h2, 4 * KIB, &p, 0));
    v = reserve(4 * MIB);
    ASSERT_OK(aclrtMapMem(v + 2 * MIB, 4 * KIB, 0, h2, 0)); /* the upper one first */
    ASSERT_OK(aclrtMapMem(v, 2 * MIB, 0, h, 0));            /* [v, v + 2 MiB) ends at its start */
    ASSERT_OK(aclrtUnmapMem(v));
    ASSERT_OK(aclrtUnmapMem(v + 2 * MIB));
    ASSERT_OK(aclrtReleaseMemAddress(v));
    ASSERT_OK(aclrtFreePhysical(h));
    ASSERT_OK(aclrtFreePhysical(h2));
    t_teardown();
}

/* A reservation covers whole 4 KiB pages: one of 4 KiB + 1 byte holds two
 * pages, so an 8 KiB allocation of normal pages maps at its start. */
TEST(vmm, a_reservation_is_rounded_up_to_whole_4_kib_pages)
{
    aclrtDrvMemHandle h;
    aclrtPhysicalMemProp p = dev_prop(ACL_HBM_MEM_NORMAL);
    void *v = NULL;
    t_setup();
    ASSERT_OK(aclrtMallocPhysical(&h, 8 * KIB, &p, 0));
    ASSERT_OK(aclrtReserveMemAddress(&v, 4 * KIB + 1, 0, NULL, 0));
    ASSERT_OK(aclrtMapMem(v, 8 * KIB, 0, h, 0));
    ASSERT_OK(aclrtUnmapMem(v));
    ASSERT_OK(aclrtReleaseMemAddress(v));
    ASSERT_OK(aclrtFreePhysical(h));
    t_teardown();
}

/* The host is one access location whatever id a descriptor gives it: the
 * flags set for the host with id 3 read back for the host with any id. */
TEST(vmm, the_host_is_one_access_location_whatever_its_id)
{
    aclrtDrvMemHandle h;
    aclrtMemAccessDesc d;
    aclrtMemLocation host0 = {0, ACL_MEM_LOCATION_TYPE_HOST}, host7 = {7, ACL_MEM_LOCATION_TYPE_HOST};
    uint64_t flags = 99;
    void *v;
    t_setup();
    h = phys(2 * MIB);
    v = reserve(2 * MIB);
    ASSERT_OK(aclrtMapMem(v, 2 * MIB, 0, h, 0));
    memset(&d, 0, sizeof(d));
    d.flags = ACL_RT_MEM_ACCESS_FLAGS_READ;
    d.location.type = ACL_MEM_LOCATION_TYPE_HOST;
    d.location.id = 3;
    ASSERT_OK(aclrtMemSetAccess(v, 2 * MIB, &d, 1));
    ASSERT_OK(aclrtMemGetAccess(v, &host0, &flags));
    ASSERT_EQ(flags, ACL_RT_MEM_ACCESS_FLAGS_READ);
    flags = 99;
    ASSERT_OK(aclrtMemGetAccess(v, &host7, &flags));
    ASSERT_EQ(flags, ACL_RT_MEM_ACCESS_FLAGS_READ);
    ASSERT_OK(aclrtUnmapMem(v));
    ASSERT_OK(aclrtReleaseMemAddress(v));
    ASSERT_OK(aclrtFreePhysical(h));
    t_teardown();
}

/* A device's reset unmaps every mapping of its memory, also one made in a
 * range another device reserved: that range is then free to release. */
TEST(vmm, a_reset_unmaps_its_memory_mapped_in_another_devices_reservation)
{
    aclrtPhysicalMemProp p = dev_prop(ACL_HBM_MEM_HUGE);
    aclrtDrvMemHandle h = NULL;
    void *v;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    t_setup();
    ASSERT_OK(aclrtMallocPhysical(&h, 2 * MIB, &p, 0)); /* device 0's memory */
    ASSERT_OK(aclrtSetDevice(1));
    v = reserve(2 * MIB); /* device 1's range */
    ASSERT_OK(aclrtMapMem(v, 2 * MIB, 0, h, 0));
    ASSERT_OK(aclrtResetDeviceForce(0));
    ASSERT_OK(aclrtReleaseMemAddress(v)); /* no mapping left in it */
    ASSERT_OK(aclrtResetDevice(1));
    t_teardown();
}

/* aclrtMemRetainAllocationHandle of a mapping whose physical allocation was
 * freed (the mapping stays until unmapped) is refused and gives no handle. */
TEST(vmm, retain_of_a_mapping_whose_allocation_was_freed_gives_no_handle)
{
    aclrtDrvMemHandle h, got = NULL;
    void *v;
    t_setup();
    h = phys(2 * MIB);
    v = reserve(2 * MIB);
    ASSERT_OK(aclrtMapMem(v, 2 * MIB, 0, h, 0));
    ASSERT_OK(aclrtFreePhysical(h)); /* deferred: v still maps it */
    ASSERT_RC(aclrtMemRetainAllocationHandle(v, &got), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT(got == NULL);
    ASSERT_OK(aclrtUnmapMem(v));
    ASSERT_OK(aclrtReleaseMemAddress(v));
    t_teardown();
}

/* Host physical memory mapped is host memory, not reserved device memory:
 * aclrtCheckMemType finds device physical memory mapped of the reserved
 * kind, host physical memory mapped not. */
TEST(vmm, host_physical_memory_mapped_is_not_reserved_device_memory)
{
    aclrtPhysicalMemProp hp = dev_prop(ACL_DDR_MEM_NORMAL);
    aclrtDrvMemHandle h, hh = NULL;
    void *v, *vh, *list[1];
    uint32_t res = 9;
    t_setup();
    hp.location.type = ACL_MEM_LOCATION_TYPE_HOST;
    h = phys(2 * MIB);
    ASSERT_OK(aclrtMallocPhysical(&hh, 2 * MIB, &hp, 0));
    v = reserve(2 * MIB);
    vh = reserve(2 * MIB);
    ASSERT_OK(aclrtMapMem(v, 2 * MIB, 0, h, 0));
    ASSERT_OK(aclrtMapMem(vh, 2 * MIB, 0, hh, 0));
    list[0] = v;
    ASSERT_OK(aclrtCheckMemType(list, 1, 0x20u, &res, 0));
    ASSERT_EQ(res, 1);
    list[0] = vh;
    ASSERT_OK(aclrtCheckMemType(list, 1, 0x20u, &res, 0));
    ASSERT_EQ(res, 0);
    ASSERT_OK(aclrtUnmapMem(v));
    ASSERT_OK(aclrtUnmapMem(vh));
    ASSERT_OK(aclrtReleaseMemAddress(v));
    ASSERT_OK(aclrtReleaseMemAddress(vh));
    ASSERT_OK(aclrtFreePhysical(h));
    ASSERT_OK(aclrtFreePhysical(hh));
    t_teardown();
}
