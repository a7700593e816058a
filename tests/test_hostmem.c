/*
 * test_hostmem.c - host memory registered for device access
 * (aclrtHostRegister(V2), aclrtHostGetDevicePointer, aclrtHostUnregister,
 * aclrtHostMemMapCapabilities) and managed memory (aclrtMemAllocManaged,
 * aclrtMemManagedAdvise, aclrtMemManagedGetAttr(s),
 * aclrtMemManagedPrefetch(Batch)Async).
 *
 * Rules: the reference runtime's checks in order (src/acl/aclrt_impl/
 * memory.cpp, src/runtime/api/impl/api_error.cc and api_error_uvm.cc), its
 * registration table (src/runtime/core/src/common/register_memory.cc:
 * overlaps 507910, only a start ends one, 507911), its docs (11-05: UVM
 * rounds to 2 MiB, advice and prefetch on 2 MiB pages, A2/A3 only), and
 * the project's: nothing registered or allocated outlives its device.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include <acl/acl_prof.h>

#include "test.h"

#define MIB ((size_t)1 << 20)
#define PAGE2M (2 * MIB)

static aclrtMemManagedLocation dev_loc(int32_t id)
{
    return (aclrtMemManagedLocation){ACL_MEM_LOCATIONTYPE_DEVICE, id};
}
static aclrtMemManagedLocation host_loc(void) { return (aclrtMemManagedLocation){ACL_MEM_LOCATIONTYPE_HOST, 0}; }

/* A page-aligned host buffer of n bytes, not aclcpu's. */
static void *host_buf(size_t n)
{
    void *p = NULL;
    ASSERT(posix_memalign(&p, 4096, n) == 0);
    memset(p, 0, n);
    return p;
}

/* Whether p lies in a mapping of the process (/proc/self/maps). */
static int is_mapped(const void *p)
{
    FILE *f = fopen("/proc/self/maps", "r");
    unsigned long lo, hi, a = (unsigned long)(uintptr_t)p;
    char line[512];
    int found = 0;
    ASSERT(f != NULL);
    while (!found && fgets(line, sizeof(line), f) != NULL)
        found = sscanf(line, "%lx-%lx", &lo, &hi) == 2 && a >= lo && a < hi;
    fclose(f);
    return found;
}

/* ---- aclrtHostRegister ------------------------------------------------------------ */

TEST(hostmem, register_argument_checks_in_order)
{
    char *buf = host_buf(4096);
    void *dev = NULL;
    t_setup();
    ASSERT_RC(aclrtHostRegister(NULL, 0, 0x1, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtHostRegister: argument 'ptr' is NULL");
    ASSERT_RC(aclrtHostRegister(buf, 0, 0x1, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'devPtr' is NULL");
    ASSERT_RC(aclrtHostRegister(buf, 0, 0x1, &dev), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'size' is 0");
    ASSERT_RC(aclrtHostRegister(buf, 4096, (aclrtHostRegisterType)0x1, &dev), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'type' (0x1)");
    ASSERT_RC(aclrtHostRegister(buf, 4096, (aclrtHostRegisterType)0x10, &dev), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    /* Boundary: both valid bits together are accepted. */
    ASSERT_RC(aclrtHostRegister(buf, UINT64_MAX, ACL_HOST_REGISTER_MAPPED, &dev), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "runs past the end of the address space");
    ASSERT_OK(aclrtHostRegister(buf, 4096, (aclrtHostRegisterType)(ACL_HOST_REGISTER_IOMEMORY |
                                                                   ACL_HOST_REGISTER_READONLY), &dev));
    ASSERT_OK(aclrtHostUnregister(buf));
    t_teardown();
    free(buf);
}

TEST(hostmem, register_device_pointer_is_the_host_address)
{
    int64_t *buf = host_buf(4096), *dev = NULL;
    int64_t back = 0;
    t_setup();
    ASSERT_OK(aclrtHostRegister(buf, 4096, ACL_HOST_REGISTER_MAPPED, (void **)&dev));
    ASSERT(dev == buf);
    /* A kernel writes through the device address; the host sees it. */
    t_launch_add(dev, 7, NULL);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_EQ(buf[0], 7);
    /* Copies treat it as host memory the device reaches (pinned). */
    ASSERT_OK(aclrtMemcpy(&back, sizeof(back), dev, sizeof(back), ACL_MEMCPY_HOST_TO_HOST));
    ASSERT_EQ(back, 7);
    ASSERT_OK(aclrtHostUnregister(buf));
    t_teardown();
    free(buf);
}

TEST(hostmem, register_overlap_is_already_registered)
{
    char *buf = host_buf(3 * 4096);
    void *dev = NULL;
    t_setup();
    ASSERT_OK(aclrtHostRegister(buf + 4096, 4096, ACL_HOST_REGISTER_MAPPED, &dev));
    /* The same range twice, then ranges that overlap its first and last byte. */
    ASSERT_RC(aclrtHostRegister(buf + 4096, 4096, ACL_HOST_REGISTER_MAPPED, &dev),
              ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtHostRegister: [");
    ASSERT_RC(aclrtHostRegisterV2(buf + 1, 4096, ACL_HOST_REG_MAPPED), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    ASSERT_RC(aclrtHostRegisterV2(buf + 2 * 4096 - 1, 2, ACL_HOST_REG_PINNED),
              ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    /* Boundary: the neighbours that touch it without overlapping are free. */
    ASSERT_OK(aclrtHostRegisterV2(buf, 4096, ACL_HOST_REG_MAPPED));
    ASSERT_OK(aclrtHostRegisterV2(buf + 2 * 4096, 4096, ACL_HOST_REG_MAPPED));
    ASSERT_OK(aclrtHostUnregister(buf));
    ASSERT_OK(aclrtHostUnregister(buf + 4096));
    ASSERT_OK(aclrtHostUnregister(buf + 2 * 4096));
    t_teardown();
    free(buf);
}

TEST(hostmem, register_v2_flag_must_be_valid_bits)
{
    char *buf = host_buf(4096);
    const uint32_t good[] = {ACL_HOST_REG_MAPPED, ACL_HOST_REG_IOMEMORY, ACL_HOST_REG_READONLY, ACL_HOST_REG_PINNED,
                             ACL_HOST_REG_MAPPED | ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY |
                                 ACL_HOST_REG_PINNED};
    t_setup();
    ASSERT_RC(aclrtHostRegisterV2(NULL, 4096, ACL_HOST_REG_MAPPED), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtHostRegisterV2(buf, 0, ACL_HOST_REG_MAPPED), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtHostRegisterV2(buf, 4096, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtHostRegisterV2: argument 'flag' (0)");
    ASSERT_RC(aclrtHostRegisterV2(buf, 4096, 0x1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtHostRegisterV2(buf, 4096, ACL_HOST_REG_MAPPED | 0x20), ACL_ERROR_RT_PARAM_INVALID);
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        ASSERT_OK(aclrtHostRegisterV2(buf, 4096, good[i]));
        ASSERT_OK(aclrtHostUnregister(buf));
    }
    t_teardown();
    free(buf);
}

TEST(hostmem, get_device_pointer_needs_the_start_of_a_mapped_registration)
{
    char *buf = host_buf(8192);
    void *dev = NULL;
    t_setup();
    ASSERT_OK(aclrtHostRegisterV2(buf, 4096, ACL_HOST_REG_MAPPED));
    ASSERT_RC(aclrtHostGetDevicePointer(NULL, &dev, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtHostGetDevicePointer(buf, NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtHostGetDevicePointer(buf, &dev, 1), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'flag' (1) is reserved");
    ASSERT_OK(aclrtHostGetDevicePointer(buf, &dev, 0));
    ASSERT(dev == buf);
    /* An interior pointer is not a registration's start (the reference keys by start). */
    ASSERT_RC(aclrtHostGetDevicePointer(buf + 1, &dev, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'pHost'");
    /* Pinned only: no device address. */
    ASSERT_OK(aclrtHostRegisterV2(buf + 4096, 4096, ACL_HOST_REG_PINNED));
    ASSERT_RC(aclrtHostGetDevicePointer(buf + 4096, &dev, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtHostUnregister(buf));
    ASSERT_OK(aclrtHostUnregister(buf + 4096));
    /* Once unregistered, it has none either. */
    ASSERT_RC(aclrtHostGetDevicePointer(buf, &dev, 0), ACL_ERROR_RT_PARAM_INVALID);
    t_teardown();
    free(buf);
}

/* A V2 registration has a device address with MAPPED, IOMEMORY or
 * READONLY (each maps the range for the device); only PINNED alone has
 * none. READONLY and IOMEMORY each on their own, without MAPPED: */
TEST(hostmem, a_v2_iomemory_or_readonly_registration_has_a_device_address)
{
    char *buf = host_buf(8192);
    void *dev = NULL;
    t_setup();
    ASSERT_OK(aclrtHostRegisterV2(buf, 4096, ACL_HOST_REG_READONLY));
    ASSERT_OK(aclrtHostGetDevicePointer(buf, &dev, 0));
    ASSERT(dev == buf);
    dev = NULL;
    ASSERT_OK(aclrtHostRegisterV2(buf + 4096, 4096, ACL_HOST_REG_IOMEMORY));
    ASSERT_OK(aclrtHostGetDevicePointer(buf + 4096, &dev, 0));
    ASSERT(dev == buf + 4096);
    ASSERT_OK(aclrtHostUnregister(buf));
    ASSERT_OK(aclrtHostUnregister(buf + 4096));
    t_teardown();
    free(buf);
}

TEST(hostmem, unregister_twice_or_interior_is_not_registered)
{
    char *buf = host_buf(4096);
    t_setup();
    ASSERT_RC(aclrtHostUnregister(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtHostUnregister(buf), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
    ASSERT_OK(aclrtHostRegisterV2(buf, 4096, ACL_HOST_REG_MAPPED));
    ASSERT_RC(aclrtHostUnregister(buf + 8), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtHostUnregister: argument 'ptr'");
    ASSERT_OK(aclrtHostUnregister(buf));
    ASSERT_RC(aclrtHostUnregister(buf), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
    t_teardown();
    free(buf);
}

TEST(hostmem, register_malloc_host_memory_as_the_zero_copy_sample_does)
{
    void *host = NULL, *dev = NULL;
    t_setup();
    ASSERT_OK(aclrtMallocHost(&host, 32768));
    ASSERT_OK(aclrtHostRegisterV2(host, 32768, ACL_HOST_REG_MAPPED));
    ASSERT_RC(aclrtHostRegisterV2(host, 32768, ACL_HOST_REG_MAPPED), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    ASSERT_OK(aclrtHostGetDevicePointer(host, &dev, 0));
    ASSERT(dev == host);
    ASSERT_OK(aclrtHostUnregister(host));
    ASSERT_OK(aclrtFreeHost(host));
    t_teardown();
}

/* Registering pinned host memory needs the whole range inside its
 * aclrtMallocHost block: a range that starts inside one and runs past its
 * end is refused, and nothing is registered. */
TEST(hostmem, register_past_the_end_of_malloc_host_memory_is_refused)
{
    char *host = NULL;
    void *dev = NULL;
    t_setup();
    ASSERT_OK(aclrtMallocHost((void **)&host, 8192));
    ASSERT_RC(aclrtHostRegister(host + 4096, 8192, ACL_HOST_REGISTER_MAPPED, &dev), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtHostUnregister(host + 4096), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
    ASSERT_OK(aclrtHostRegister(host + 4096, 4096, ACL_HOST_REGISTER_MAPPED, &dev));
    ASSERT_OK(aclrtHostUnregister(host + 4096));
    ASSERT_OK(aclrtFreeHost(host));
    t_teardown();
}

TEST(hostmem, register_device_memory_is_refused)
{
    void *d = NULL, *dev = NULL;
    t_setup();
    ASSERT_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_RC(aclrtHostRegister(d, 4096, ACL_HOST_REGISTER_MAPPED, &dev), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "only host memory can be registered");
    ASSERT_RC(aclrtHostUnregister(d), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
    ASSERT_OK(aclrtFree(d));
    t_teardown();
}

TEST(hostmem, register_needs_a_context_and_a_soc_that_registers)
{
    char *buf = host_buf(4096);
    void *dev = NULL;
    aclrtHostMemMapCapability cap = ACL_RT_HOST_MEM_MAP_SUPPORTED;
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtHostRegisterV2(buf, 4096, ACL_HOST_REG_MAPPED), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtHostUnregister(buf), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_OK(aclFinalize());
    setenv("ACLCPU_SOC", "Ascend910A", 1);
    t_setup();
    ASSERT_RC(aclrtHostRegister(buf, 4096, ACL_HOST_REGISTER_MAPPED, &dev), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "Ascend910A cannot register host memory");
    ASSERT_RC(aclrtHostUnregister(buf), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_AIC, &cap));
    ASSERT_EQ(cap, ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED);
    t_teardown();
    free(buf);
}

TEST(hostmem, map_capabilities_checks_in_order)
{
    aclrtHostMemMapCapability cap = ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED;
    uint32_t n = 0;
    t_setup();
    ASSERT_OK(aclrtGetDeviceCount(&n));
    ASSERT_RC(aclrtHostMemMapCapabilities(9999, (aclrtHacType)99, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtHostMemMapCapabilities(n, (aclrtHacType)99, &cap), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtHostMemMapCapabilities: argument 'deviceId'");
    ASSERT_RC(aclrtHostMemMapCapabilities(0, (aclrtHacType)10, &cap), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'hacType' (10)");
    /* Boundaries: the last device and the last engine type. */
    ASSERT_OK(aclrtHostMemMapCapabilities(n - 1, ACL_RT_HAC_TYPE_CCU, &cap));
    ASSERT_EQ(cap, ACL_RT_HOST_MEM_MAP_SUPPORTED);
    t_teardown();
}

TEST(hostmem, registrations_end_with_their_device)
{
    char *buf = host_buf(4096);
    t_setup();
    ASSERT_OK(aclrtHostRegisterV2(buf, 4096, ACL_HOST_REG_MAPPED));
    ASSERT_OK(aclrtResetDeviceForce(0));
    ASSERT_OK(aclrtSetDevice(0));
    /* Gone with the device: not registered any more, and free to register again. */
    ASSERT_RC(aclrtHostUnregister(buf), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
    ASSERT_OK(aclrtHostRegisterV2(buf, 4096, ACL_HOST_REG_MAPPED));
    /* aclFinalize ends it too: a new session starts with none. */
    t_teardown();
    t_setup();
    ASSERT_RC(aclrtHostUnregister(buf), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
    t_teardown();
    free(buf);
}

/* ---- aclrtMemAllocManaged and aclrtFree ------------------------------------------- */

TEST(hostmem, managed_alloc_argument_checks_in_order)
{
    void *p = NULL;
    t_setup();
    ASSERT_RC(aclrtMemAllocManaged(NULL, 0, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemAllocManaged: argument 'ptr' is NULL");
    ASSERT_RC(aclrtMemAllocManaged(&p, 0, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'flag' (0)");
    ASSERT_RC(aclrtMemAllocManaged(&p, 64, 2), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemAllocManaged(&p, 0, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'size' is 0");
    ASSERT(p == NULL);
    t_teardown();
}

TEST(hostmem, managed_memory_is_whole_2mib_pages_reachable_from_both_sides)
{
    int64_t *a = NULL, *b = NULL;
    t_setup();
    ASSERT_OK(aclrtMemAllocManaged((void **)&a, 1, ACL_RT_MEM_ATTACH_GLOBAL));
    ASSERT_OK(aclrtMemAllocManaged((void **)&b, PAGE2M + 1, ACL_RT_MEM_ATTACH_GLOBAL));
    ASSERT_EQ((uintptr_t)a % PAGE2M, 0);
    ASSERT_EQ((uintptr_t)b % PAGE2M, 0);
    /* The last byte of the rounded size is usable (boundary), from the host and a kernel. */
    ((char *)a)[PAGE2M - 1] = 5;
    ((char *)b)[2 * PAGE2M - 1] = 6;
    a[0] = 1;
    t_launch_add(a, 41, NULL);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_EQ(a[0], 42);
    ASSERT_OK(aclrtFree(a));
    ASSERT_OK(aclrtFree(b));
    t_teardown();
}

TEST(hostmem, managed_free_twice_or_interior_is_refused)
{
    char *p = NULL;
    t_setup();
    ASSERT_OK(aclrtMemAllocManaged((void **)&p, 4096, ACL_RT_MEM_ATTACH_GLOBAL));
    ASSERT_RC(aclrtFree(p + 64), ACL_ERROR_RT_MEMORY_FREE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtFree");
    ASSERT_OK(aclrtFree(p));
    ASSERT_RC(aclrtFree(p), ACL_ERROR_RT_MEMORY_FREE);
    t_teardown();
}

/* aclrtFreeWithDevSync is a device sync and then aclrtFree, so it frees
 * managed memory as aclrtFree does (rtFreeWithDevSync: rtDeviceSynchronize,
 * rtFree); aclrtFreeHost and aclrtFreeHostWithDevSync refuse it: it is no
 * host address (107000). */
TEST(hostmem, free_with_dev_sync_frees_managed_memory_free_host_refuses_it)
{
    char *p = NULL;
    t_setup();
    ASSERT_OK(aclrtMemAllocManaged((void **)&p, 4096, ACL_RT_MEM_ATTACH_GLOBAL));
    ASSERT_RC(aclrtFreeHost(p), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtFreeHost: argument 'hostPtr'");
    ASSERT_RC(aclrtFreeHostWithDevSync(p), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtFreeWithDevSync(p + 64), ACL_ERROR_RT_MEMORY_FREE);
    ASSERT_OK(aclrtFreeWithDevSync(p));
    ASSERT_RC(aclrtFreeWithDevSync(p), ACL_ERROR_RT_MEMORY_FREE);
    t_teardown();
}

TEST(hostmem, managed_memory_is_an_a2_and_a3_feature)
{
    void *p = NULL;
    setenv("ACLCPU_SOC", "Ascend950PR", 1);
    t_setup();
    ASSERT_RC(aclrtMemAllocManaged(&p, 4096, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "Ascend950PR has no unified virtual memory");
    t_teardown();
    setenv("ACLCPU_SOC", "Ascend910_9392", 1);
    t_setup();
    ASSERT_OK(aclrtMemAllocManaged(&p, 4096, ACL_RT_MEM_ATTACH_GLOBAL));
    ASSERT_OK(aclrtFree(p));
    t_teardown();
}

/* Managed memory freed while a queued kernel still writes it stays mapped
 * until that work is done (unmapped at once, the late write could land in
 * whatever the host maps there next), is freed for the program at once (a
 * second free is refused), and is unmapped after; twice, and a hold still
 * standing at a device reset is unmapped with the device. */
TEST(hostmem, managed_free_while_in_use_is_held_until_its_work_is_done)
{
    struct t_gate g = {0};
    aclrtStream s = NULL;
    int64_t *a[2] = {NULL, NULL}, *late = NULL;
    void *poke = NULL;
    t_setup();
    /* The device's arena first: made later, it could take the freed range. */
    ASSERT_OK(aclrtMalloc(&poke, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtCreateStream(&s));
    t_launch_gate(&g, s);
    for (int i = 0; i < 2; i++) {
        ASSERT_OK(aclrtMemAllocManaged((void **)&a[i], 4096, ACL_RT_MEM_ATTACH_GLOBAL));
        a[i][0] = 1;
        t_launch_add(a[i], 41, s);
        ASSERT_OK(aclrtFree(a[i]));
        ASSERT_RC(aclrtFree(a[i]), ACL_ERROR_RT_MEMORY_FREE);
        ASSERT(is_mapped(a[i])); /* held: the queued add still writes it */
    }
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(a[0][0], 42); /* the late writes landed in the held pages */
    ASSERT_EQ(a[1][0], 42);
    ASSERT_OK(aclrtFree(poke)); /* a free polls the holds */
    ASSERT(!is_mapped(a[0]) && !is_mapped(a[1]));

    memset(&g, 0, sizeof(g));
    t_launch_gate(&g, s);
    ASSERT_OK(aclrtMemAllocManaged((void **)&late, 4096, ACL_RT_MEM_ATTACH_GLOBAL));
    t_launch_add(late, 1, s);
    ASSERT_OK(aclrtFree(late));
    ASSERT(is_mapped(late));
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtResetDeviceForce(0)); /* waits for or drops the work, then the hold goes */
    ASSERT(!is_mapped(late));
    t_teardown();
}

TEST(hostmem, managed_memory_ends_with_its_device)
{
    void *p = NULL, *q = NULL;
    t_setup();
    ASSERT_OK(aclrtMemAllocManaged(&p, 3 * PAGE2M, ACL_RT_MEM_ATTACH_GLOBAL));
    ASSERT_OK(aclrtMemAllocManaged(&q, 1, ACL_RT_MEM_ATTACH_GLOBAL));
    ASSERT(is_mapped(p) && is_mapped(q));
    ASSERT_OK(aclrtResetDeviceForce(0));
    ASSERT(!is_mapped(p) && !is_mapped(q)); /* both mappings went back */
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_RC(aclrtFree(p), ACL_ERROR_RT_MEMORY_FREE);
    t_teardown();
}

/* ---- advice and attributes ---------------------------------------------------------- */

TEST(hostmem, managed_advise_checks_in_order)
{
    char *p = NULL, *d = NULL;
    uint32_t n = 0;
    t_setup();
    ASSERT_OK(aclrtGetDeviceCount(&n));
    ASSERT_OK(aclrtMemAllocManaged((void **)&p, 2 * PAGE2M, ACL_RT_MEM_ATTACH_GLOBAL));
    ASSERT_OK(aclrtMalloc((void **)&d, PAGE2M, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_RC(aclrtMemManagedAdvise(NULL, 0, (aclrtMemManagedAdviseType)9, dev_loc(-1)), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemManagedAdvise(p, 0, (aclrtMemManagedAdviseType)9, dev_loc(-1)), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemManagedAdvise(p, PAGE2M, (aclrtMemManagedAdviseType)6, dev_loc(-1)), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemManagedAdvise: argument 'advise' (6)");
    ASSERT_RC(aclrtMemManagedAdvise(p, PAGE2M, ACL_MEM_ADVISE_SET_ACCESSED_BY, dev_loc(-1)),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemManagedAdvise(p, PAGE2M, ACL_MEM_ADVISE_SET_ACCESSED_BY, dev_loc((int32_t)n)),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'location.id'");
    ASSERT_RC(aclrtMemManagedAdvise(p, PAGE2M, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION,
                                    (aclrtMemManagedLocation){ACL_MEM_LOCATIONTYPE_INVALID, 0}),
              ACL_ERROR_RT_PARAM_INVALID);
    /* Whole 2 MiB pages of one allocation only. */
    ASSERT_RC(aclrtMemManagedAdvise(p, MIB, ACL_MEM_ADVISE_SET_READ_MOSTLY, host_loc()), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "not whole 2 MiB pages");
    ASSERT_RC(aclrtMemManagedAdvise(p + PAGE2M, 2 * PAGE2M, ACL_MEM_ADVISE_SET_READ_MOSTLY, host_loc()),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "not inside one allocation of aclrtMemAllocManaged");
    ASSERT_RC(aclrtMemManagedAdvise(d, PAGE2M, ACL_MEM_ADVISE_SET_READ_MOSTLY, host_loc()), ACL_ERROR_RT_PARAM_INVALID);
    /* Boundaries: the last device id, the last advice, the whole allocation. */
    ASSERT_OK(aclrtMemManagedAdvise(p, 2 * PAGE2M, ACL_MEM_ADVISE_UNSET_ACCESSED_BY, dev_loc((int32_t)n - 1)));
    ASSERT_OK(aclrtFree(p));
    ASSERT_RC(aclrtMemManagedAdvise(p, PAGE2M, ACL_MEM_ADVISE_SET_READ_MOSTLY, host_loc()), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtFree(d));
    t_teardown();
}

static int32_t attr_of(aclrtMemManagedRangeAttribute a, const void *p, size_t size)
{
    int32_t v = 12345;
    ASSERT_OK(aclrtMemManagedGetAttr(a, p, size, &v, sizeof(v)));
    return v;
}

TEST(hostmem, managed_get_attr_reports_what_was_advised)
{
    char *p = NULL;
    int32_t ids[4];
    t_setup();
    ASSERT_OK(aclrtMemAllocManaged((void **)&p, 2 * PAGE2M, ACL_RT_MEM_ATTACH_GLOBAL));
    ASSERT_EQ(attr_of(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, 2 * PAGE2M), 0);
    ASSERT_EQ(attr_of(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, p, 1), -2);
    ASSERT_OK(aclrtMemManagedAdvise(p, PAGE2M, ACL_MEM_ADVISE_SET_READ_MOSTLY, host_loc()));
    ASSERT_EQ(attr_of(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, PAGE2M), 1);
    /* The pages disagree: not read-mostly as a whole. */
    ASSERT_EQ(attr_of(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, 2 * PAGE2M), 0);
    ASSERT_EQ(attr_of(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p + PAGE2M - 1, 2), 0);
    ASSERT_OK(aclrtMemManagedAdvise(p, 2 * PAGE2M, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, dev_loc(0)));
    ASSERT_EQ(attr_of(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, p, 2 * PAGE2M), 0);
    ASSERT_EQ(attr_of(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, p, 2 * PAGE2M), ACL_MEM_LOCATIONTYPE_DEVICE);
    ASSERT_EQ(attr_of(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID, p, 2 * PAGE2M), 0);
    ASSERT_OK(aclrtMemManagedAdvise(p + PAGE2M, PAGE2M, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, host_loc()));
    ASSERT_EQ(attr_of(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, p + PAGE2M, 8), -1);
    ASSERT_EQ(attr_of(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, p, 2 * PAGE2M), ACL_MEM_LOCATIONTYPE_INVALID);
    ASSERT_OK(aclrtMemManagedAdvise(p, PAGE2M, ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION, host_loc()));
    ASSERT_EQ(attr_of(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID, p, PAGE2M), -2);
    /* Accessed by: an array of ids, the rest filled with -2. */
    ASSERT_OK(aclrtMemManagedAdvise(p, 2 * PAGE2M, ACL_MEM_ADVISE_SET_ACCESSED_BY, dev_loc(0)));
    ASSERT_OK(aclrtMemManagedAdvise(p, 2 * PAGE2M, ACL_MEM_ADVISE_SET_ACCESSED_BY, host_loc()));
    ASSERT_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, p, 2 * PAGE2M, ids, sizeof(ids)));
    ASSERT_EQ(ids[0], -1);
    ASSERT_EQ(ids[1], 0);
    ASSERT_EQ(ids[2], -2);
    ASSERT_OK(aclrtMemManagedAdvise(p, 2 * PAGE2M, ACL_MEM_ADVISE_UNSET_ACCESSED_BY, dev_loc(0)));
    ASSERT_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, p, 2 * PAGE2M, ids, sizeof(ids)));
    ASSERT_EQ(ids[1], -2);
    ASSERT_OK(aclrtFree(p));
    t_teardown();
}

/* A range's read-mostly and accessed-by answers hold only when every page
 * agrees: advice on the last page alone is not the range's. Unsetting one
 * device's access leaves the others'. */
TEST(hostmem, managed_range_attributes_hold_only_when_every_page_agrees)
{
    char *p = NULL;
    int32_t ids[4];
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    t_setup();
    ASSERT_OK(aclrtMemAllocManaged((void **)&p, 2 * PAGE2M, ACL_RT_MEM_ATTACH_GLOBAL));
    ASSERT_OK(aclrtMemManagedAdvise(p + PAGE2M, PAGE2M, ACL_MEM_ADVISE_SET_READ_MOSTLY, host_loc()));
    ASSERT_EQ(attr_of(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p + PAGE2M, PAGE2M), 1);
    ASSERT_EQ(attr_of(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, 2 * PAGE2M), 0);
    ASSERT_OK(aclrtMemManagedAdvise(p + PAGE2M, PAGE2M, ACL_MEM_ADVISE_SET_ACCESSED_BY, dev_loc(0)));
    ASSERT_OK(aclrtMemManagedAdvise(p + PAGE2M, PAGE2M, ACL_MEM_ADVISE_SET_ACCESSED_BY, host_loc()));
    ASSERT_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, p + PAGE2M, PAGE2M, ids, sizeof(ids)));
    ASSERT_EQ(ids[0], -1);
    ASSERT_EQ(ids[1], 0);
    ASSERT_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, p, 2 * PAGE2M, ids, sizeof(ids)));
    ASSERT_EQ(ids[0], -2);
    /* Two devices, one unset: the other stays. */
    ASSERT_OK(aclrtMemManagedAdvise(p, 2 * PAGE2M, ACL_MEM_ADVISE_SET_ACCESSED_BY, dev_loc(0)));
    ASSERT_OK(aclrtMemManagedAdvise(p, 2 * PAGE2M, ACL_MEM_ADVISE_SET_ACCESSED_BY, dev_loc(1)));
    ASSERT_OK(aclrtMemManagedAdvise(p, 2 * PAGE2M, ACL_MEM_ADVISE_UNSET_ACCESSED_BY, dev_loc(0)));
    ASSERT_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, p, 2 * PAGE2M, ids, sizeof(ids)));
    ASSERT_EQ(ids[0], 1);
    ASSERT_EQ(ids[1], -2);
    ASSERT_OK(aclrtFree(p));
    t_teardown();
}

TEST(hostmem, managed_get_attr_checks_in_order)
{
    char *p = NULL;
    int32_t v = 0;
    int64_t big = 0;
    t_setup();
    ASSERT_OK(aclrtMemAllocManaged((void **)&p, PAGE2M, ACL_RT_MEM_ATTACH_GLOBAL));
    ASSERT_RC(aclrtMemManagedGetAttr((aclrtMemManagedRangeAttribute)0, NULL, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemManagedGetAttr((aclrtMemManagedRangeAttribute)0, p, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'data' is NULL");
    ASSERT_RC(aclrtMemManagedGetAttr((aclrtMemManagedRangeAttribute)0, p, 0, &v, 4), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemManagedGetAttr((aclrtMemManagedRangeAttribute)0, p, 8, &v, 4), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'attribute' (0) is out of range [1, 8]");
    ASSERT_RC(aclrtMemManagedGetAttr((aclrtMemManagedRangeAttribute)9, p, 8, &v, 4), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, 8, &big, sizeof(big)),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "does not suit attribute 1");
    ASSERT_RC(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, p, 8, &v, 3), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, PAGE2M + 1, &v, 4),
              ACL_ERROR_RT_PARAM_INVALID);
    /* Boundaries: the first and last attribute, the allocation's last byte. */
    ASSERT_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p + PAGE2M - 1, 1, &v, 4));
    ASSERT_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID, p, PAGE2M, &v, 4));
    ASSERT_EQ(v, -2);
    ASSERT_OK(aclrtFree(p));
    t_teardown();
}

TEST(hostmem, managed_get_attrs_reads_each_and_checks_each)
{
    char *p = NULL;
    int32_t rm = -1, type = -1;
    void *data[2] = {&rm, &type};
    size_t sizes[2] = {4, 4};
    aclrtMemManagedRangeAttribute attrs[2] = {ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY,
                                              ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE};
    aclrtMemManagedRangeAttribute bad[2] = {ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, (aclrtMemManagedRangeAttribute)9};
    t_setup();
    ASSERT_OK(aclrtMemAllocManaged((void **)&p, PAGE2M, ACL_RT_MEM_ATTACH_GLOBAL));
    ASSERT_RC(aclrtMemManagedGetAttrs(attrs, 2, NULL, PAGE2M, data, sizes), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemManagedGetAttrs(NULL, 2, p, PAGE2M, data, sizes), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemManagedGetAttrs(attrs, 2, p, PAGE2M, NULL, sizes), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemManagedGetAttrs(attrs, 2, p, PAGE2M, data, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemManagedGetAttrs(attrs, 2, p, 0, data, sizes), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemManagedGetAttrs(bad, 2, p, PAGE2M, data, sizes), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'attributes[1]' (9)");
    ASSERT_OK(aclrtMemManagedAdvise(p, PAGE2M, ACL_MEM_ADVISE_SET_READ_MOSTLY, host_loc()));
    ASSERT_OK(aclrtMemManagedAdvise(p, PAGE2M, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, host_loc()));
    ASSERT_OK(aclrtMemManagedGetAttrs(attrs, 2, p, PAGE2M, data, sizes));
    ASSERT_EQ(rm, 1);
    ASSERT_EQ(type, ACL_MEM_LOCATIONTYPE_HOST);
    ASSERT_OK(aclrtFree(p));
    t_teardown();
}

/* ---- prefetch ------------------------------------------------------------------------ */

TEST(hostmem, managed_prefetch_is_a_stream_task)
{
    static _Atomic int open;
    char *p = NULL;
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMemAllocManaged((void **)&p, 2 * PAGE2M, ACL_RT_MEM_ATTACH_GLOBAL));
    atomic_store(&open, 0);
    t_launch_flag_gate(&open, s);
    ASSERT_OK(aclrtMemManagedPrefetchAsync(p, 2 * PAGE2M, dev_loc(0), 0, s));
    /* Not run yet: the gate holds the stream. */
    ASSERT_EQ(attr_of(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p, 2 * PAGE2M), -2);
    atomic_store(&open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(attr_of(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p, 2 * PAGE2M), 0);
    ASSERT_EQ(attr_of(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, p, 1), ACL_MEM_LOCATIONTYPE_DEVICE);
    ASSERT_OK(aclrtMemManagedPrefetchAsync(p + PAGE2M, PAGE2M, host_loc(), 0, NULL));
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_EQ(attr_of(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p + PAGE2M, PAGE2M), -1);
    ASSERT_EQ(attr_of(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p, 2 * PAGE2M), -2); /* mixed */
    /* A prefetch still queued when its memory is freed does nothing. */
    open = 0;
    t_launch_flag_gate(&open, s);
    ASSERT_OK(aclrtMemManagedPrefetchAsync(p, PAGE2M, dev_loc(0), 0, s));
    ASSERT_OK(aclrtFree(p));
    atomic_store(&open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(hostmem, managed_prefetch_checks_in_order)
{
    char *p = NULL;
    uint32_t n = 0;
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtGetDeviceCount(&n));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMemAllocManaged((void **)&p, PAGE2M, ACL_RT_MEM_ATTACH_GLOBAL));
    ASSERT_RC(aclrtMemManagedPrefetchAsync(NULL, 0, dev_loc(-1), 1, s), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemManagedPrefetchAsync(p, 0, dev_loc(-1), 1, s), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemManagedPrefetchAsync(p, PAGE2M, dev_loc(-1), 1, s), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'flags' (1) is reserved");
    ASSERT_RC(aclrtMemManagedPrefetchAsync(p, PAGE2M, dev_loc((int32_t)n), 0, s), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemManagedPrefetchAsync(p, PAGE2M, (aclrtMemManagedLocation){ACL_MEM_LOCATIONTYPE_INVALID, 0}, 0,
                                           s), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemManagedPrefetchAsync(p, 4096, dev_loc(0), 0, s), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemManagedPrefetchAsync(p, 2 * PAGE2M, dev_loc(0), 0, s), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemManagedPrefetchAsync");
    ASSERT_OK(aclrtMemManagedPrefetchAsync(p, PAGE2M, dev_loc((int32_t)n - 1), 0, s));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_RC(aclrtMemManagedPrefetchAsync(p, PAGE2M, dev_loc(0), 0, s), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtFree(p));
    t_teardown();
}

TEST(hostmem, managed_prefetch_batch_maps_locations_to_ranges)
{
    char *p = NULL;
    const void *ptrs[3];
    size_t sizes[3] = {PAGE2M, PAGE2M, PAGE2M};
    aclrtMemManagedLocation locs[2] = {dev_loc(0), host_loc()};
    size_t idxs[2] = {0, 2};
    t_setup();
    ASSERT_OK(aclrtMemAllocManaged((void **)&p, 3 * PAGE2M, ACL_RT_MEM_ATTACH_GLOBAL));
    for (int i = 0; i < 3; i++)
        ptrs[i] = p + i * PAGE2M;
    ASSERT_RC(aclrtMemManagedPrefetchBatchAsync(NULL, sizes, 3, locs, idxs, 2, 0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 0, locs, idxs, 2, 0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 3, locs, idxs, 2, 1, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 1, locs, idxs, 2, 0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'count' (1)");
    idxs[0] = 1;
    ASSERT_RC(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 3, locs, idxs, 2, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'prefetchLocIdxs[0]' (1) must be 0");
    idxs[0] = 0, idxs[1] = 0;
    ASSERT_RC(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 3, locs, idxs, 2, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'prefetchLocIdxs[1]' (0) must be greater");
    idxs[1] = 3;
    ASSERT_RC(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 3, locs, idxs, 2, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    idxs[1] = 2;
    sizes[2] = 4096; /* one bad range: nothing of the batch is queued */
    ASSERT_RC(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 3, locs, idxs, 2, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_EQ(attr_of(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p, PAGE2M), -2);
    sizes[2] = PAGE2M;
    ASSERT_OK(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 3, locs, idxs, 2, 0, NULL));
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_EQ(attr_of(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p, 2 * PAGE2M), 0);
    ASSERT_EQ(attr_of(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p + 2 * PAGE2M, PAGE2M), -1);
    ASSERT_OK(aclrtFree(p));
    t_teardown();
}

/* The modelled duration of the n-th (0-based) copy in a trace, or -1. */
static double nth_copy_dur(const char *trace, int n, long *bytes)
{
    const char *at = trace;
    for (int i = 0; i <= n; i++) {
        at = strstr(at, "\"name\":\"MEMCPY_ASYNC\"");
        if (at == NULL)
            return -1;
        at++;
    }
    *bytes = strtol(strstr(at, "\"size(B)\":") + 10, NULL, 10);
    return strtod(strstr(at, "\"dur\":") + 6, NULL);
}

TEST(hostmem, managed_prefetch_is_costed_as_a_copy_of_its_bytes)
{
    char dir[T_PATH_CAP], path[T_PATH_CAP + 64];
    uint32_t dev = 0;
    aclprofConfig *cfg;
    aclrtStream s = NULL;
    void *p = NULL, *d = NULL;
    char *trace;
    long n1 = 0, n2 = 0, len;
    double prefetch, copy;
    FILE *f;

    t_setup();
    t_tmpdir(dir, sizeof(dir), "aclcpu-prefetch");
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclprofInit(dir, strlen(dir)));
    ASSERT((cfg = aclprofCreateConfig(&dev, 1, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME)) != NULL);
    ASSERT_OK(aclprofStart(cfg));
    ASSERT_OK(aclrtMemAllocManaged(&p, 2 * PAGE2M, ACL_RT_MEM_ATTACH_GLOBAL));
    ASSERT_OK(aclrtMalloc(&d, 2 * PAGE2M, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMemManagedPrefetchAsync(p, 2 * PAGE2M, dev_loc(0), 0, s));
    ASSERT_OK(aclrtMemcpyAsync(d, 2 * PAGE2M, p, 2 * PAGE2M, ACL_MEMCPY_HOST_TO_DEVICE, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclprofStop(cfg));
    ASSERT_OK(aclprofDestroyConfig(cfg));
    ASSERT_OK(aclprofFinalize());
    snprintf(path, sizeof(path), "%s/ASCEND_PROFILER_OUTPUT/trace_view.json", dir);
    ASSERT((f = fopen(path, "rb")) != NULL);
    fseek(f, 0, SEEK_END);
    len = ftell(f);
    fseek(f, 0, SEEK_SET);
    ASSERT((trace = calloc(1, (size_t)len + 1)) != NULL);
    ASSERT_EQ(fread(trace, 1, (size_t)len, f), len);
    fclose(f);
    /* The prefetch (first) and a host-to-device copy of as many bytes take the same modelled time. */
    prefetch = nth_copy_dur(trace, 0, &n1);
    copy = nth_copy_dur(trace, 1, &n2);
    ASSERT_EQ(n1, 2 * PAGE2M);
    ASSERT_EQ(n2, 2 * PAGE2M);
    ASSERT(prefetch > 0 && prefetch == copy);
    free(trace);
    ASSERT_OK(aclrtFree(p));
    ASSERT_OK(aclrtFree(d));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

struct reg_race {
    aclrtContext ctx;
    void *buf;
    _Atomic int ok, taken;
};

static void *register_once(void *arg)
{
    struct reg_race *r = arg;
    aclError rc;
    ASSERT_OK(aclrtSetCurrentContext(r->ctx));
    rc = aclrtHostRegisterV2(r->buf, 4096, ACL_HOST_REG_MAPPED);
    if (rc == ACL_SUCCESS)
        atomic_fetch_add(&r->ok, 1);
    else if (rc == ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED)
        atomic_fetch_add(&r->taken, 1);
    return NULL;
}

TEST(hostmem, racing_registrations_of_one_range_let_exactly_one_win)
{
    enum { THREADS = 4 };
    struct reg_race r = {0};
    pthread_t th[THREADS];
    t_setup();
    r.buf = host_buf(4096);
    ASSERT_OK(aclrtGetCurrentContext(&r.ctx));
    for (int i = 0; i < THREADS; i++)
        ASSERT(pthread_create(&th[i], NULL, register_once, &r) == 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
    ASSERT_EQ(atomic_load(&r.ok), 1);
    ASSERT_EQ(atomic_load(&r.taken), THREADS - 1);
    ASSERT_OK(aclrtHostUnregister(r.buf));
    t_teardown();
    free(r.buf);
}

/* Managed memory is host memory: an allocation past what the host has is
 * refused (207001), whole or as the sum of live ones, and a freed one gives
 * its share back (a memset of a huge allocation would otherwise end the
 * process for want of memory). */
TEST(hostmem, managed_memory_past_the_hosts_memory_is_refused)
{
    void *big = NULL, *half = NULL, *more = NULL;
    size_t host = (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
    t_setup();
    ASSERT_RC(aclrtMemAllocManaged(&big, 2 * host, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_RT_MEMORY_ALLOCATION);
    ASSERT_OK(aclrtMemAllocManaged(&half, host / 2 + 4096, ACL_RT_MEM_ATTACH_GLOBAL));
    ASSERT_RC(aclrtMemAllocManaged(&more, host / 2 + 4096, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_RT_MEMORY_ALLOCATION);
    ASSERT_OK(aclrtFree(half));
    ASSERT_OK(aclrtMemAllocManaged(&more, host / 2 + 4096, ACL_RT_MEM_ATTACH_GLOBAL)); /* its share came back */
    ASSERT_OK(aclrtFree(more));
    t_teardown();
}

/* ---- sweep 4: managed memory boundaries (2026-12-05) ----------------------------------------- */

/* A batch prefetch may have as many locations as ranges (count equal to
 * numPrefetchLocs: one location each). */
TEST(hostmem, managed_prefetch_batch_takes_one_location_per_range)
{
    char *p = NULL;
    const void *ptrs[2];
    size_t sizes[2] = {PAGE2M, PAGE2M};
    aclrtMemManagedLocation locs[2] = {host_loc(), dev_loc(0)};
    size_t idxs[2] = {0, 1};
    t_setup();
    ASSERT_OK(aclrtMemAllocManaged((void **)&p, 2 * PAGE2M, ACL_RT_MEM_ATTACH_GLOBAL));
    ptrs[0] = p;
    ptrs[1] = p + PAGE2M;
    ASSERT_OK(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 2, locs, idxs, 2, 0, NULL));
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_EQ(attr_of(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p, PAGE2M), -1);
    ASSERT_EQ(attr_of(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p + PAGE2M, PAGE2M), 0);
    ASSERT_OK(aclrtFree(p));
    t_teardown();
}

/* A batch prefetch names a NULL range as such (107000), wherever it is in
 * the list, before any range is looked at. */
TEST(hostmem, managed_prefetch_batch_refuses_a_null_range)
{
    char *p = NULL;
    const void *ptrs[2];
    size_t sizes[2] = {PAGE2M, PAGE2M};
    aclrtMemManagedLocation locs[1] = {dev_loc(0)};
    size_t idxs[1] = {0};
    t_setup();
    ASSERT_OK(aclrtMemAllocManaged((void **)&p, 2 * PAGE2M, ACL_RT_MEM_ATTACH_GLOBAL));
    ptrs[0] = p;
    ptrs[1] = NULL;
    ASSERT_RC(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 2, locs, idxs, 1, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'ptrs[1]' is NULL");
    ASSERT_OK(aclrtFree(p));
    t_teardown();
}

/* The location types run up to HOST_NUMA_CURRENT, which is one; the next
 * value is not (107000). */
TEST(hostmem, managed_advise_takes_the_last_location_type_host_numa_current)
{
    char *p = NULL;
    t_setup();
    ASSERT_OK(aclrtMemAllocManaged((void **)&p, PAGE2M, ACL_RT_MEM_ATTACH_GLOBAL));
    ASSERT_OK(aclrtMemManagedAdvise(p, PAGE2M, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION,
                                    (aclrtMemManagedLocation){ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT, 0}));
    ASSERT_RC(aclrtMemManagedAdvise(p, PAGE2M, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION,
                                    (aclrtMemManagedLocation){
                                        (aclrtMemManagedLocationType)(ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT + 1), 0}),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'location.type'");
    ASSERT_OK(aclrtFree(p));
    t_teardown();
}

/* A range that ends exactly at the end of the address space does not run
 * past it: its size passes the check (the registration is bookkeeping;
 * nothing is touched), one byte more does not. */
TEST(hostmem, register_a_range_ending_at_the_end_of_the_address_space)
{
    void *top = (void *)(UINTPTR_MAX - 4096), *dev = NULL;
    t_setup();
    ASSERT_RC(aclrtHostRegister(top, 4097, ACL_HOST_REGISTER_MAPPED, &dev), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "runs past the end of the address space");
    ASSERT_OK(aclrtHostRegister(top, 4096, ACL_HOST_REGISTER_MAPPED, &dev));
    ASSERT(dev == top);
    ASSERT_OK(aclrtHostUnregister(top));
    t_teardown();
}
