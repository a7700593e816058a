/*
 * test_symbol.c - device symbols: aclcpuRegisterSymbol and
 * aclcpuUnregisterSymbol, aclrtGetSymbolAddress/Size, the copies to and
 * from a symbol, and aclrtGetFuncBySymbol.
 *
 * Rules: docs/conformance.md "Device symbols" (each row names its test
 * here). Codes: 100000 the ACL layer's checks, 107002 no context, 107043
 * not a registered symbol, 107044 no kernel for the symbol, 500001 an
 * offset + count that wraps.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "test.h"

#define BAD_STREAM ((aclrtStream)(uintptr_t)0x1234)

/* The device globals of these tests: host variables, as on aclcpu. */
static int64_t g_val;
static uint8_t g_buf[64];
static int64_t g_other;

/* Kernel, args = {int64_t *out}: out[0] = g_val (what the kernel sees). */
static void k_read_val(void *args)
{
    int64_t *out = *(int64_t **)args;
    out[0] = g_val;
}

/* Kernel, args = {int64_t v}: g_val = v (a kernel writing its global). */
static void k_write_val(void *args)
{
    int64_t v;
    memcpy(&v, args, sizeof(v));
    g_val = v;
}

static void launch_read(int64_t *out, aclrtStream s)
{
    ASSERT_OK(aclrtLaunchKernel(t_kernel("sym_read_val", k_read_val), 1, &out, sizeof(out), s));
}

static void launch_write(int64_t v, aclrtStream s)
{
    ASSERT_OK(aclrtLaunchKernel(t_kernel("sym_write_val", k_write_val), 1, &v, sizeof(v), s));
}

/* ---- registration ------------------------------------------------------------------ */

TEST(symbol, register_checks_and_a_second_registration)
{
    size_t n = 0;
    t_setup();
    ASSERT_RC(aclcpuRegisterSymbol(NULL, 8, "g"), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclcpuRegisterSymbol: argument 'symbol' is NULL");
    ASSERT_RC(aclcpuRegisterSymbol(&g_val, 0, "g"), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'size' is 0");
    ASSERT_RC(aclcpuRegisterSymbol((void *)(UINTPTR_MAX - 3), 8, "wraps"), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "wraps the address space");
    ASSERT_OK(aclcpuRegisterSymbol(&g_val, sizeof(g_val), "g_val"));
    /* The same registration again succeeds; another size is refused and changes nothing. */
    ASSERT_OK(aclcpuRegisterSymbol(&g_val, sizeof(g_val), "g_val"));
    ASSERT_RC(aclcpuRegisterSymbol(&g_val, 4, "g_val"), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "already registered with size 8, not 4");
    ASSERT_OK(aclrtGetSymbolSize(&g_val, &n));
    ASSERT_EQ(n, sizeof(g_val));
    /* Unregistering: NULL, then one that is not registered, then the symbol twice. */
    ASSERT_RC(aclcpuUnregisterSymbol(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclcpuUnregisterSymbol(&g_other), ACL_ERROR_RT_INVALID_SYMBOL);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclcpuUnregisterSymbol: argument 'symbol'");
    ASSERT_OK(aclcpuUnregisterSymbol(&g_val));
    ASSERT_RC(aclcpuUnregisterSymbol(&g_val), ACL_ERROR_RT_INVALID_SYMBOL);
    ASSERT_RC(aclrtGetSymbolSize(&g_val, &n), ACL_ERROR_RT_INVALID_SYMBOL);
    /* Registered again after that, with another size: a fresh registration. */
    ASSERT_OK(aclcpuRegisterSymbol(&g_val, 4, NULL));
    ASSERT_OK(aclrtGetSymbolSize(&g_val, &n));
    ASSERT_EQ(n, 4);
    ASSERT_OK(aclcpuUnregisterSymbol(&g_val));
    t_teardown();
}

TEST(symbol, many_symbols_each_found_exactly)
{
    static int64_t many[100];
    size_t n = 0;
    void *p = NULL;
    t_setup();
    for (int i = 0; i < 100; i++) /* grows the table past its first allocation */
        ASSERT_OK(aclcpuRegisterSymbol(&many[i], (size_t)i + 1, "many"));
    for (int i = 0; i < 100; i++) {
        ASSERT_OK(aclrtGetSymbolSize(&many[i], &n));
        ASSERT_EQ(n, i + 1);
    }
    /* Lookups match the registered address exactly: an interior one is no symbol. */
    ASSERT_RC(aclrtGetSymbolAddress((char *)&many[0] + 1, &p), ACL_ERROR_RT_INVALID_SYMBOL);
    for (int i = 0; i < 100; i += 2)
        ASSERT_OK(aclcpuUnregisterSymbol(&many[i]));
    for (int i = 0; i < 100; i++)
        ASSERT_RC(aclrtGetSymbolSize(&many[i], &n), i % 2 ? ACL_SUCCESS : ACL_ERROR_RT_INVALID_SYMBOL);
    for (int i = 1; i < 100; i += 2)
        ASSERT_OK(aclcpuUnregisterSymbol(&many[i]));
    ASSERT_RC(aclrtGetSymbolSize(&many[1], &n), ACL_ERROR_RT_INVALID_SYMBOL);
    t_teardown();
}

/* ---- address and size ---------------------------------------------------------------- */

TEST(symbol, get_address_and_size_check_null_then_context_then_registration)
{
    void *p = NULL;
    size_t n = 0;
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclcpuRegisterSymbol(g_buf, sizeof(g_buf), "g_buf"));
    ASSERT_RC(aclrtGetSymbolAddress(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetSymbolAddress: argument 'symbol' is NULL");
    ASSERT_RC(aclrtGetSymbolAddress(g_buf, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'devPtr' is NULL");
    ASSERT_RC(aclrtGetSymbolSize(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetSymbolSize: argument 'symbol' is NULL");
    ASSERT_RC(aclrtGetSymbolSize(g_buf, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'size' is NULL");
    /* No current context: the runtime's lookup needs one, even for an unregistered pointer. */
    ASSERT_RC(aclrtGetSymbolAddress(&g_other, &p), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtGetSymbolSize(g_buf, &n), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_RC(aclrtGetSymbolAddress(&g_other, &p), ACL_ERROR_RT_INVALID_SYMBOL);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetSymbolAddress: argument 'symbol' (0x");
    ASSERT_RC(aclrtGetSymbolAddress(&g_other, &p), ACL_ERROR_RT_INVALID_SYMBOL);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is not a registered device symbol");
    ASSERT_RC(aclrtGetSymbolSize(&g_other, &n), ACL_ERROR_RT_INVALID_SYMBOL);
    ASSERT_OK(aclrtGetSymbolAddress(g_buf, &p));
    ASSERT(p == (void *)g_buf); /* the device address is the host one */
    ASSERT_OK(aclrtGetSymbolSize(g_buf, &n));
    ASSERT_EQ(n, sizeof(g_buf));
    ASSERT_OK(aclcpuUnregisterSymbol(g_buf));
    t_teardown();
}

/* ---- copies: checks in order ------------------------------------------------------------ */

TEST(symbol, memcpy_to_symbol_checks_in_order)
{
    uint8_t src[80] = {0};
    void *pin = NULL;
    aclrtMemcpyKind async_kind = ACL_MEMCPY_HOST_TO_DEVICE;
    t_setup();
    ASSERT_OK(aclcpuRegisterSymbol(g_buf, sizeof(g_buf), "g_buf"));
    /* count 0 succeeds before anything is looked at */
    ASSERT_OK(aclrtMemcpyToSymbol(NULL, NULL, 0, SIZE_MAX, (aclrtMemcpyKind)99));
    ASSERT_OK(aclrtMemcpyToSymbolAsync(NULL, NULL, 0, SIZE_MAX, (aclrtMemcpyKind)99, BAD_STREAM));
    /* symbol NULL before src NULL */
    ASSERT_RC(aclrtMemcpyToSymbol(NULL, NULL, 1, 0, (aclrtMemcpyKind)99), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemcpyToSymbol: argument 'symbol' is NULL");
    ASSERT_RC(aclrtMemcpyToSymbol(g_buf, NULL, 1, 0, (aclrtMemcpyKind)99), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'src' is NULL");
    /* the kind before the lookup: HOST_TO_DEVICE or DEFAULT only */
    ASSERT_RC(aclrtMemcpyToSymbol(&g_other, src, 1, 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "must be HOST_TO_DEVICE or DEFAULT");
    ASSERT_RC(aclrtMemcpyToSymbol(g_buf, src, 1, 0, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemcpyToSymbol(g_buf, src, 1, 0, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
    /* the lookup before the bounds */
    ASSERT_RC(aclrtMemcpyToSymbol(&g_other, src, 1, SIZE_MAX, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_INVALID_SYMBOL);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemcpyToSymbol: argument 'symbol'");
    /* offset + count that wraps, then past the symbol's end */
    ASSERT_RC(aclrtMemcpyToSymbol(g_buf, src, 2, SIZE_MAX, ACL_MEMCPY_DEFAULT), ACL_ERROR_FAILURE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "overflows");
    ASSERT_RC(aclrtMemcpyToSymbol(g_buf, src, 65, 0, ACL_MEMCPY_DEFAULT), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "symbol 'g_buf'");
    /* then the copy's own check: a source running past its pinned block */
    ASSERT_OK(aclrtMallocHost(&pin, 32));
    ASSERT_RC(aclrtMemcpyToSymbol(g_buf, (char *)pin + 16, 32, 0, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'src'");
    /* the async call has the same checks, then the stream's */
    ASSERT_RC(aclrtMemcpyToSymbolAsync(g_buf, src, 1, 0, ACL_MEMCPY_DEVICE_TO_HOST, BAD_STREAM),
              ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemcpyToSymbolAsync(&g_other, src, 1, 0, async_kind, BAD_STREAM), ACL_ERROR_RT_INVALID_SYMBOL);
    ASSERT_RC(aclrtMemcpyToSymbolAsync(g_buf, src, 65, 0, async_kind, BAD_STREAM), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemcpyToSymbolAsync(g_buf, src, 1, 0, async_kind, BAD_STREAM), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtFreeHost(pin));
    ASSERT_OK(aclcpuUnregisterSymbol(g_buf));
    t_teardown();
}

TEST(symbol, memcpy_from_symbol_checks_in_order)
{
    uint8_t dst[80] = {0};
    void *pin = NULL;
    t_setup();
    ASSERT_OK(aclcpuRegisterSymbol(g_buf, sizeof(g_buf), "g_buf"));
    ASSERT_OK(aclrtMemcpyFromSymbol(NULL, 0, NULL, 0, SIZE_MAX, (aclrtMemcpyKind)99));
    ASSERT_OK(aclrtMemcpyFromSymbolAsync(NULL, 0, NULL, 0, SIZE_MAX, (aclrtMemcpyKind)99, BAD_STREAM));
    /* symbol NULL before dst NULL */
    ASSERT_RC(aclrtMemcpyFromSymbol(NULL, 0, NULL, 1, 0, (aclrtMemcpyKind)99), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemcpyFromSymbol: argument 'symbol' is NULL");
    ASSERT_RC(aclrtMemcpyFromSymbol(NULL, 0, g_buf, 1, 0, (aclrtMemcpyKind)99), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'dst' is NULL");
    /* count > dstMax before the kind */
    ASSERT_RC(aclrtMemcpyFromSymbol(dst, 3, g_buf, 4, 0, (aclrtMemcpyKind)99), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'count' (4) is larger than 'dstMax' (3)");
    /* DEVICE_TO_HOST or DEFAULT only, before the lookup */
    ASSERT_RC(aclrtMemcpyFromSymbol(dst, 4, &g_other, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "must be DEVICE_TO_HOST or DEFAULT");
    ASSERT_RC(aclrtMemcpyFromSymbol(dst, 4, g_buf, 4, 0, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemcpyFromSymbol(dst, 4, &g_other, 4, SIZE_MAX, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_ERROR_RT_INVALID_SYMBOL);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemcpyFromSymbol: argument 'symbol'");
    ASSERT_RC(aclrtMemcpyFromSymbol(dst, 4, g_buf, 4, SIZE_MAX - 2, ACL_MEMCPY_DEFAULT), ACL_ERROR_FAILURE);
    ASSERT_RC(aclrtMemcpyFromSymbol(dst, 80, g_buf, 1, 64, ACL_MEMCPY_DEFAULT), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "must be at most the size of symbol 'g_buf'");
    ASSERT_OK(aclrtMallocHost(&pin, 32));
    ASSERT_RC(aclrtMemcpyFromSymbol((char *)pin + 16, 32, g_buf, 32, 0, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'dst'");
    ASSERT_RC(aclrtMemcpyFromSymbolAsync(dst, 3, g_buf, 4, 0, ACL_MEMCPY_DEFAULT, BAD_STREAM), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemcpyFromSymbolAsync(dst, 4, &g_other, 4, 0, ACL_MEMCPY_DEFAULT, BAD_STREAM),
              ACL_ERROR_RT_INVALID_SYMBOL);
    ASSERT_RC(aclrtMemcpyFromSymbolAsync(dst, 4, g_buf, 4, 0, ACL_MEMCPY_DEFAULT, BAD_STREAM),
              ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtFreeHost(pin));
    ASSERT_OK(aclcpuUnregisterSymbol(g_buf));
    t_teardown();
}

TEST(symbol, copies_need_a_context)
{
    uint8_t b[4] = {0};
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclcpuRegisterSymbol(g_buf, sizeof(g_buf), "g_buf"));
    ASSERT_RC(aclrtMemcpyToSymbol(g_buf, b, 4, 0, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtMemcpyFromSymbol(b, 4, g_buf, 4, 0, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtMemcpyToSymbolAsync(g_buf, b, 4, 0, ACL_MEMCPY_DEFAULT, NULL), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtMemcpyFromSymbolAsync(b, 4, g_buf, 4, 0, ACL_MEMCPY_DEFAULT, NULL), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_OK(aclcpuUnregisterSymbol(g_buf));
    ASSERT_OK(aclFinalize());
}

/* ---- copies: what they do ------------------------------------------------------------ */

TEST(symbol, offset_plus_count_up_to_the_size_copies_one_byte_more_is_refused)
{
    uint8_t src[64], dst[64];
    t_setup();
    for (int i = 0; i < 64; i++)
        src[i] = (uint8_t)(i + 1);
    memset(g_buf, 0, sizeof(g_buf));
    ASSERT_OK(aclcpuRegisterSymbol(g_buf, sizeof(g_buf), "g_buf"));
    ASSERT_OK(aclrtMemcpyToSymbol(g_buf, src, 16, 48, ACL_MEMCPY_HOST_TO_DEVICE)); /* 48 + 16 == 64 */
    ASSERT(memcmp(g_buf + 48, src, 16) == 0);
    ASSERT_RC(aclrtMemcpyToSymbol(g_buf, src, 17, 48, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemcpyToSymbol(g_buf, src, 1, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemcpyToSymbolAsync(g_buf, src, 17, 48, ACL_MEMCPY_DEFAULT, NULL), ACL_ERROR_INVALID_PARAM);
    memset(dst, 0, sizeof(dst));
    ASSERT_OK(aclrtMemcpyFromSymbol(dst, sizeof(dst), g_buf, 16, 48, ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT(memcmp(dst, src, 16) == 0);
    ASSERT_RC(aclrtMemcpyFromSymbol(dst, sizeof(dst), g_buf, 17, 48, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemcpyFromSymbolAsync(dst, sizeof(dst), g_buf, 17, 48, ACL_MEMCPY_DEFAULT, NULL),
              ACL_ERROR_INVALID_PARAM);
    /* The whole symbol, and nothing beside the copied bytes changed. */
    ASSERT_OK(aclrtMemcpyToSymbol(g_buf, src, 64, 0, ACL_MEMCPY_DEFAULT));
    ASSERT_OK(aclrtMemcpyFromSymbol(dst, 64, g_buf, 64, 0, ACL_MEMCPY_DEFAULT));
    ASSERT(memcmp(dst, src, 64) == 0);
    ASSERT_OK(aclcpuUnregisterSymbol(g_buf));
    t_teardown();
}

TEST(symbol, second_copy_to_a_symbol_replaces_the_first)
{
    int64_t v = 0;
    aclrtStream s;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclcpuRegisterSymbol(&g_val, sizeof(g_val), "g_val"));
    for (int64_t i = 1; i <= 2; i++) { /* twice, synchronously */
        ASSERT_OK(aclrtMemcpyToSymbol(&g_val, &i, sizeof(i), 0, ACL_MEMCPY_HOST_TO_DEVICE));
        ASSERT_OK(aclrtMemcpyFromSymbol(&v, sizeof(v), &g_val, sizeof(v), 0, ACL_MEMCPY_DEVICE_TO_HOST));
        ASSERT_EQ(v, i);
    }
    for (int64_t i = 3; i <= 4; i++) { /* twice, on a stream */
        ASSERT_OK(aclrtMemcpyToSymbolAsync(&g_val, &i, sizeof(i), 0, ACL_MEMCPY_DEFAULT, s));
        ASSERT_OK(aclrtMemcpyFromSymbolAsync(&v, sizeof(v), &g_val, sizeof(v), 0, ACL_MEMCPY_DEFAULT, s));
        ASSERT_OK(aclrtSynchronizeStream(s));
        ASSERT_EQ(v, i);
    }
    ASSERT_OK(aclcpuUnregisterSymbol(&g_val));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(symbol, async_copy_to_symbol_runs_in_stream_order)
{
    aclrtStream s;
    struct t_gate g = {0};
    int64_t *out, v = 42;
    t_setup();
    out = t_dev_i64(2);
    g_val = 7;
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclcpuRegisterSymbol(&g_val, sizeof(g_val), "g_val"));
    t_launch_gate(&g, s);
    launch_read(&out[0], s);                 /* before the copy: sees 7 */
    ASSERT_OK(aclrtMemcpyToSymbolAsync(&g_val, &v, sizeof(v), 0, ACL_MEMCPY_HOST_TO_DEVICE, s));
    launch_read(&out[1], s);                 /* after it: sees 42 */
    ASSERT(t_wait_flag(&g.started, 1));
    ASSERT_EQ(g_val, 7);                     /* queued behind the gate, not copied yet */
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&g.timed_out), 0);
    ASSERT_EQ(out[0], 7);
    ASSERT_EQ(out[1], 42);
    ASSERT_EQ(g_val, 42);
    ASSERT_OK(aclcpuUnregisterSymbol(&g_val));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtFree(out));
    t_teardown();
}

TEST(symbol, kernel_writes_the_symbol_then_memcpy_from_symbol_reads_it)
{
    aclrtStream s;
    struct t_gate g = {0};
    int64_t v = -1, w = -1;
    t_setup();
    g_val = 0;
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclcpuRegisterSymbol(&g_val, sizeof(g_val), "g_val"));
    launch_write(99, s);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtMemcpyFromSymbol(&v, sizeof(v), &g_val, sizeof(v), 0, ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT_EQ(v, 99);
    /* The async read is ordered after a kernel queued before it. */
    t_launch_gate(&g, s);
    launch_write(123, s);
    ASSERT_OK(aclrtMemcpyFromSymbolAsync(&w, sizeof(w), &g_val, sizeof(w), 0, ACL_MEMCPY_DEFAULT, s));
    ASSERT(t_wait_flag(&g.started, 1));
    ASSERT_EQ(w, -1); /* not read yet */
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(w, 123);
    ASSERT_OK(aclcpuUnregisterSymbol(&g_val));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(symbol, sync_copies_are_refused_while_capturing_async_ones_are_captured)
{
    aclrtStream s, run;
    aclmdlRI m = NULL;
    int64_t *out, v = 5;
    void *pin = NULL;
    t_setup();
    out = t_dev_i64(1);
    g_val = 0;
    ASSERT_OK(aclrtMallocHost(&pin, sizeof(int64_t)));
    memcpy(pin, &v, sizeof(v));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&run));
    ASSERT_OK(aclcpuRegisterSymbol(&g_val, sizeof(g_val), "g_val"));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclrtMemcpyToSymbolAsync(&g_val, pin, sizeof(v), 0, ACL_MEMCPY_HOST_TO_DEVICE, s));
    launch_read(out, s);
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_EQ(g_val, 0); /* captured, not run */
    ASSERT_OK(aclmdlRIExecuteAsync(m, run));
    ASSERT_OK(aclrtSynchronizeStream(run));
    ASSERT_EQ(g_val, 5);
    ASSERT_EQ(out[0], 5);
    ASSERT_OK(aclmdlRIDestroy(m));
    /* In global mode a synchronous copy is unsafe, and so is an async one from pageable memory. */
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_RC(aclrtMemcpyToSymbol(&g_val, &v, sizeof(v), 0, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemcpyToSymbol");
    ASSERT_RC(aclrtMemcpyFromSymbol(&v, sizeof(v), &g_val, sizeof(v), 0, ACL_MEMCPY_DEFAULT),
              ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    ASSERT_RC(aclrtMemcpyToSymbolAsync(&g_val, &v, sizeof(v), 0, ACL_MEMCPY_DEFAULT, s),
              ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
    ASSERT_OK(aclmdlRICaptureEnd(s, &m)); /* the refusals left the capture as it was */
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclcpuUnregisterSymbol(&g_val));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(run));
    ASSERT_OK(aclrtFree(out));
    ASSERT_OK(aclrtFreeHost(pin));
    t_teardown();
}

/* ---- kernels by symbol ----------------------------------------------------------------- */

static void k_unregistered(void *args) { (void)args; }

TEST(symbol, get_func_by_symbol_finds_a_registered_kernel)
{
    aclrtFuncHandle h = NULL, want;
    aclrtStream s;
    int64_t *out;
    ASSERT_OK(aclInit(NULL));
    want = t_kernel("sym_read_val", k_read_val);
    ASSERT_RC(aclrtGetFuncBySymbol(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetFuncBySymbol: argument 'symbol' is NULL");
    ASSERT_RC(aclrtGetFuncBySymbol((const void *)(uintptr_t)k_read_val, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'funcHandle' is NULL");
    ASSERT_RC(aclrtGetFuncBySymbol((const void *)(uintptr_t)k_read_val, &h), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_RC(aclrtGetFuncBySymbol((const void *)(uintptr_t)k_unregistered, &h), ACL_ERROR_RT_INVALID_DEVICE_FUNCTION);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetFuncBySymbol: argument 'symbol'");
    ASSERT_RC(aclrtGetFuncBySymbol(&g_val, &h), ACL_ERROR_RT_INVALID_DEVICE_FUNCTION); /* a variable is no kernel */
    ASSERT_OK(aclrtGetFuncBySymbol((const void *)(uintptr_t)k_read_val, &h));
    ASSERT(h == want);
    /* The handle launches the kernel. */
    out = t_dev_i64(1);
    g_val = 11;
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtLaunchKernel(h, 1, &out, sizeof(out), s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(out[0], 11);
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtFree(out));
    t_teardown();
}

/* ---- sweep 5 (2026-12-05): reuse and name limits ----------------------------- */

/* A registration without a name has none, also in a table slot an earlier,
 * named registration used: a too-large copy's message names no symbol. */
TEST(symbol, a_symbol_registered_without_a_name_in_a_reused_slot_has_none)
{
    uint8_t src[65] = {0};
    t_setup();
    ASSERT_OK(aclcpuRegisterSymbol(&g_val, sizeof(g_val), "first_symbol"));
    ASSERT_OK(aclcpuRegisterSymbol(&g_other, sizeof(g_other), "second_symbol"));
    ASSERT_OK(aclcpuUnregisterSymbol(&g_other)); /* its slot is free again */
    ASSERT_OK(aclcpuRegisterSymbol(g_buf, sizeof(g_buf), NULL));
    ASSERT_RC(aclrtMemcpyToSymbol(g_buf, src, 65, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    {
        const char *m = aclGetRecentErrMsg(); /* read once: reading it clears it */
        ASSERT_STR_CONTAINS(m, "must be at most the size of symbol (");
        ASSERT(strstr(m, "second_symbol") == NULL);
    }
    ASSERT_OK(aclcpuUnregisterSymbol(g_buf));
    ASSERT_OK(aclcpuUnregisterSymbol(&g_val));
    t_teardown();
}

/* A symbol's name keeps up to 63 bytes: one of exactly 63 is kept whole. */
TEST(symbol, a_symbol_name_of_63_bytes_is_kept_whole)
{
    char name[64];
    char quoted[80];
    uint8_t src[65] = {0};
    memset(name, 'n', 63);
    name[62] = 'Z'; /* its last byte */
    name[63] = '\0';
    snprintf(quoted, sizeof(quoted), "'%s' (", name);
    t_setup();
    ASSERT_OK(aclcpuRegisterSymbol(g_buf, sizeof(g_buf), name));
    ASSERT_RC(aclrtMemcpyToSymbol(g_buf, src, 65, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), quoted);
    ASSERT_OK(aclcpuUnregisterSymbol(g_buf));
    t_teardown();
}
