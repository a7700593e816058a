/*
 * test_funcs.c - kernel and binary queries (aclrtGetFunction*,
 * aclrtFunctionGet*, aclrtBinaryGet*, aclrtRegisterCpuFunc), the operator
 * execution timeout, the saturation mode and the overflow status.
 *
 * Rules: docs/conformance.md "Functions, operator timeouts and overflow
 * status" (each row names its test here). Codes: 100000 the ACL layer's
 * checks, 107000 the runtime's, 107002 no context, 107003 a stream of
 * another context, 107017 a stale handle, 107027 a captured stream,
 * 207000 not on this SoC or kernel kind.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

#define LIB ACLCPU_BUILD_DIR "/libaclcpu.so"
#define BAD_STREAM ((aclrtStream)(uintptr_t)0x1234)
#define BAD_FUNC ((aclrtFuncHandle)(uintptr_t)0x5678)

static void k_plain(void *args) { (void)args; }

static aclrtBinHandle load_lib(bool cpu)
{
    aclrtBinHandle b = NULL;
    aclrtBinaryLoadOption opt;
    aclrtBinaryLoadOptions opts = {&opt, 1};
    opt.type = ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE;
    opt.value.cpuKernelMode = 1;
    ASSERT_OK(aclrtBinaryLoadFromFile(LIB, cpu ? &opts : NULL, &b));
    return b;
}

/* ---- kernel queries ------------------------------------------------------------------ */

TEST(funcs, function_name_needs_room_for_the_name_and_its_terminator)
{
    char name[64];
    aclrtFuncHandle f;
    t_setup();
    f = t_kernel("funcs_plain", k_plain);
    ASSERT_RC(aclrtGetFunctionName(f, sizeof(name), NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetFunctionName: argument 'name' is NULL");
    /* name before the handle: the ACL layer checks only name. */
    ASSERT_RC(aclrtGetFunctionName(NULL, sizeof(name), NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetFunctionName(NULL, sizeof(name), name), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtGetFunctionName(BAD_FUNC, sizeof(name), name), ACL_ERROR_RT_INVALID_HANDLE);
    /* "funcs_plain" is 11 bytes: 12 is the last length taken, 11 the first refused. */
    memset(name, 'x', sizeof(name));
    ASSERT_RC(aclrtGetFunctionName(f, 11, name), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'maxLen' is 11; it must be at least 12");
    ASSERT_EQ(name[0], 'x');
    ASSERT_OK(aclrtGetFunctionName(f, 12, name));
    ASSERT(strcmp(name, "funcs_plain") == 0);
    t_teardown();
}

TEST(funcs, function_addr_is_the_host_function_of_both_engines)
{
    void *aic = NULL, *aiv = NULL;
    aclrtFuncHandle f;
    t_setup();
    f = t_kernel("funcs_plain", k_plain);
    ASSERT_RC(aclrtGetFunctionAddr(NULL, &aic, &aiv), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetFunctionAddr(f, NULL, &aiv), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'aicAddr' is NULL");
    ASSERT_RC(aclrtGetFunctionAddr(f, &aic, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'aivAddr' is NULL");
    /* NULL out-pointers before the stale handle. */
    ASSERT_RC(aclrtGetFunctionAddr(BAD_FUNC, NULL, &aiv), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetFunctionAddr(BAD_FUNC, &aic, &aiv), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtGetFunctionAddr(f, &aic, &aiv));
    ASSERT(aic == (void *)(uintptr_t)k_plain);
    ASSERT(aiv == (void *)(uintptr_t)k_plain);
    t_teardown();
}

TEST(funcs, function_size_is_the_symbol_size_and_checks_are_the_runtimes)
{
    size_t aic = 0, aiv = 0;
    aclrtBinHandle b;
    aclrtFuncHandle f;
    t_setup();
    b = load_lib(false);
    ASSERT_OK(aclrtBinaryGetFunction(b, "aclcpuGetBlockIdx", &f));
    ASSERT_RC(aclrtGetFunctionSize(NULL, &aic, &aiv), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtGetFunctionSize(f, NULL, &aiv), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'aicSize' is NULL");
    ASSERT_RC(aclrtGetFunctionSize(f, &aic, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtGetFunctionSize(BAD_FUNC, &aic, &aiv), ACL_ERROR_RT_INVALID_HANDLE);
    /* The runtime's entry checks the handle before the NULLs. */
    ASSERT_RC(aclrtGetFunctionSize(BAD_FUNC, NULL, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtGetFunctionSize(f, &aic, &aiv));
    ASSERT(aic > 0 && aic < 4096);
    ASSERT_EQ(aic, aiv);
    ASSERT_OK(aclrtBinaryUnLoad(b));
    ASSERT_RC(aclrtGetFunctionSize(f, &aic, &aiv), ACL_ERROR_RT_INVALID_HANDLE);
    t_teardown();
}

/* The code size is that of the symbol starting at the kernel's address: a
 * kernel registered at an address inside a function (here one byte into
 * aclcpuGetBlockIdx; never launched) starts no symbol, so its size is 0,
 * not that of the function around it. */
TEST(funcs, function_size_of_an_address_inside_a_function_is_0)
{
    size_t aic = 1, aiv = 1;
    aclrtFuncHandle whole = NULL, inside = NULL;
    aclcpuKernelFn start = (aclcpuKernelFn)(uintptr_t)aclcpuGetBlockIdx;
    t_setup();
    ASSERT_OK(aclcpuRegisterKernel("funcs_whole", start, &whole));
    ASSERT_OK(aclrtGetFunctionSize(whole, &aic, &aiv));
    ASSERT(aic > 1);
    ASSERT_OK(aclcpuRegisterKernel("funcs_inside", (aclcpuKernelFn)((uintptr_t)start + 1), &inside));
    ASSERT_OK(aclrtGetFunctionSize(inside, &aic, &aiv));
    ASSERT_EQ(aic, 0);
    ASSERT_EQ(aiv, 0);
    t_teardown();
}

TEST(funcs, function_attribute_type_range_and_values)
{
    int64_t v = -1;
    uint16_t ratio[2];
    aclcpuKernelCost mix = {0};
    aclrtFuncHandle f;
    t_setup();
    f = t_kernel("funcs_plain", k_plain);
    ASSERT_RC(aclrtGetFunctionAttribute(NULL, ACL_FUNC_ATTR_KERNEL_TYPE, &v), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetFunctionAttribute(f, ACL_FUNC_ATTR_KERNEL_TYPE, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetFunctionAttribute(BAD_FUNC, (aclrtFuncAttribute)0, &v), ACL_ERROR_RT_INVALID_HANDLE);
    /* [1, 4): 0 and 4 are the first refused on each side. */
    ASSERT_RC(aclrtGetFunctionAttribute(f, (aclrtFuncAttribute)0, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'attrType' is 0; it must be in [1, 4)");
    ASSERT_RC(aclrtGetFunctionAttribute(f, (aclrtFuncAttribute)4, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtGetFunctionAttribute(f, ACL_FUNC_ATTR_KERNEL_TYPE, &v));
    ASSERT_EQ(v, ACL_KERNEL_TYPE_VECTOR);
    ASSERT_OK(aclrtGetFunctionAttribute(f, ACL_FUNC_ATTR_KERNEL_SCHED_MODE, &v));
    ASSERT_EQ(v, 0);
    v = -1;
    ASSERT_OK(aclrtGetFunctionAttribute(f, ACL_FUNC_ATTR_KERNEL_RATIO, &v));
    ASSERT_EQ(v, 0);
    /* A kernel declared a mix kernel is one, with one engine of each kind. */
    mix.mix = 1;
    ASSERT_OK(aclcpuSetKernelCost(f, &mix));
    ASSERT_OK(aclrtGetFunctionAttribute(f, ACL_FUNC_ATTR_KERNEL_TYPE, &v));
    ASSERT_EQ(v, ACL_KERNEL_TYPE_MIX);
    ASSERT_OK(aclrtGetFunctionAttribute(f, ACL_FUNC_ATTR_KERNEL_RATIO, &v));
    memcpy(ratio, &v, sizeof(ratio));
    ASSERT(ratio[0] == 1 && ratio[1] == 1);
    ASSERT_OK(aclcpuSetKernelCost(f, NULL));
    t_teardown();
}

TEST(funcs, function_ratio_and_size_are_not_on_910)
{
    int64_t v = 0;
    setenv("ACLCPU_SOC", "Ascend910A", 1);
    t_setup();
    ASSERT_RC(aclrtGetFunctionAttribute(t_kernel("funcs_plain", k_plain), ACL_FUNC_ATTR_KERNEL_RATIO, &v),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtGetFunctionAttribute(t_kernel("funcs_plain", k_plain), ACL_FUNC_ATTR_KERNEL_TYPE, &v));
    /* aclrtGetFunctionSize asks for the same feature, before anything else. */
    ASSERT_RC(aclrtGetFunctionSize(BAD_FUNC, NULL, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "no ACL graph feature");
    t_teardown();
}

TEST(funcs, function_get_binary_gives_the_binary_or_null)
{
    aclrtBinHandle b, got = (aclrtBinHandle)1;
    aclrtFuncHandle f;
    t_setup();
    b = load_lib(false);
    ASSERT_OK(aclrtBinaryGetFunction(b, "aclcpuGetBlockIdx", &f));
    ASSERT_RC(aclrtFunctionGetBinary(NULL, &got), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtFunctionGetBinary(f, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'binHandle' is NULL");
    ASSERT_RC(aclrtFunctionGetBinary(BAD_FUNC, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtFunctionGetBinary(f, &got));
    ASSERT(got == b);
    ASSERT_OK(aclrtFunctionGetBinary(t_kernel("funcs_plain", k_plain), &got));
    ASSERT(got == NULL);
    ASSERT_OK(aclrtBinaryUnLoad(b));
    ASSERT_RC(aclrtFunctionGetBinary(f, &got), ACL_ERROR_RT_INVALID_HANDLE);
    t_teardown();
}

TEST(funcs, param_queries_find_no_parameter_information)
{
    size_t n = 7, off = 0, size = 0;
    aclrtFuncHandle f;
    t_setup();
    f = t_kernel("funcs_plain", k_plain);
    ASSERT_RC(aclrtFunctionGetParamCount(NULL, &n), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtFunctionGetParamCount(f, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtFunctionGetParamCount(BAD_FUNC, &n), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtFunctionGetParamCount(f, &n), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "no parameter information");
    ASSERT_EQ(n, 7u);
    ASSERT_RC(aclrtFunctionGetParamInfo(NULL, 0, &off, &size), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtFunctionGetParamInfo(f, 0, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'paramOffset' and 'paramSize' are both NULL");
    /* One of the two is enough to pass the ACL layer. */
    ASSERT_RC(aclrtFunctionGetParamInfo(f, 0, &off, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtFunctionGetParamInfo(f, 0, NULL, &size), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtFunctionGetParamInfo(BAD_FUNC, 0, &off, &size), ACL_ERROR_RT_INVALID_HANDLE);
    t_teardown();
}

TEST(funcs, avail_dyn_ubuf_flags_must_be_zero_and_is_zero)
{
    size_t n = 99;
    aclrtFuncHandle f;
    t_setup();
    f = t_kernel("funcs_plain", k_plain);
    ASSERT_RC(aclrtFunctionGetAvailDynUbufPerBlock(NULL, 0, &n), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtFunctionGetAvailDynUbufPerBlock(f, 0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtFunctionGetAvailDynUbufPerBlock(f, 1, &n), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'flags' is 1; it must be 0");
    ASSERT_RC(aclrtFunctionGetAvailDynUbufPerBlock(BAD_FUNC, 1, &n), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtFunctionGetAvailDynUbufPerBlock(BAD_FUNC, 0, &n), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtFunctionGetAvailDynUbufPerBlock(f, 0, &n));
    ASSERT_EQ(n, 0u);
    t_teardown();
}

/* ---- binary queries ------------------------------------------------------------------- */

TEST(funcs, binary_dev_address_spans_the_loaded_object)
{
    void *base = NULL, *aic, *aiv;
    size_t size = 0;
    aclrtBinHandle b;
    aclrtFuncHandle f;
    t_setup();
    b = load_lib(false);
    ASSERT_RC(aclrtBinaryGetDevAddress(NULL, &base, &size), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtBinaryGetDevAddress(b, NULL, &size), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtBinaryGetDevAddress(b, &base, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'binSize' is NULL");
    ASSERT_RC(aclrtBinaryGetDevAddress((aclrtBinHandle)BAD_FUNC, NULL, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtBinaryGetDevAddress(b, &base, &size));
    ASSERT_OK(aclrtBinaryGetFunction(b, "aclcpuGetBlockIdx", &f));
    ASSERT_OK(aclrtGetFunctionAddr(f, &aic, &aiv));
    ASSERT((uintptr_t)aic >= (uintptr_t)base && (uintptr_t)aic < (uintptr_t)base + size);
    ASSERT_OK(aclrtBinaryUnLoad(b));
    ASSERT_RC(aclrtBinaryGetDevAddress(b, &base, &size), ACL_ERROR_RT_INVALID_HANDLE);
    t_teardown();
}

TEST(funcs, function_by_entry_finds_the_kernel_starting_there)
{
    void *aic, *aiv;
    aclrtBinHandle b;
    aclrtFuncHandle f, got = NULL;
    t_setup();
    b = load_lib(false);
    ASSERT_OK(aclrtBinaryGetFunction(b, "aclcpuGetBlockNum", &f));
    ASSERT_OK(aclrtGetFunctionAddr(f, &aic, &aiv));
    ASSERT_RC(aclrtBinaryGetFunctionByEntry(NULL, (uintptr_t)aic, &got), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtBinaryGetFunctionByEntry(b, (uintptr_t)aic, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtBinaryGetFunctionByEntry(b, (uintptr_t)aic, &got));
    ASSERT(got == f);
    /* One byte in, or a function of another object, is no entry of b. */
    ASSERT_RC(aclrtBinaryGetFunctionByEntry(b, (uintptr_t)aic + 1, &got), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'funcEntry'");
    ASSERT_RC(aclrtBinaryGetFunctionByEntry(b, (uintptr_t)abort, &got), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtBinaryGetFunctionByEntry(b, 0, &got), ACL_ERROR_RT_PARAM_INVALID);
    /* An entry found first here makes the same handle aclrtBinaryGetFunction gives. */
    ASSERT_OK(aclrtGetFunctionAddr(t_kernel("funcs_plain", k_plain), &aic, &aiv));
    ASSERT_RC(aclrtBinaryGetFunctionByEntry(b, (uintptr_t)aic, &got), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtBinaryUnLoad(b));
    ASSERT_RC(aclrtBinaryGetFunctionByEntry(b, 0, &got), ACL_ERROR_RT_INVALID_HANDLE);
    t_teardown();
}

TEST(funcs, function_by_entry_refuses_a_cpu_binary)
{
    aclrtBinHandle b;
    aclrtFuncHandle got;
    t_setup();
    b = load_lib(true);
    ASSERT_RC(aclrtBinaryGetFunctionByEntry(b, 0, &got), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "CPU kernel mode");
    ASSERT_OK(aclrtBinaryUnLoad(b));
    t_teardown();
}

TEST(funcs, binary_global_gives_address_and_size_of_a_global)
{
    void *p = NULL;
    size_t size = 0;
    aclrtBinHandle b = NULL;
    t_setup();
    /* The C library is a shared object with a known global: stdout. */
    ASSERT_OK(aclrtBinaryLoadFromFile("libc.so.6", NULL, &b));
    ASSERT_RC(aclrtBinaryGetGlobal(NULL, "stdout", &p, &size), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtBinaryGetGlobal(b, NULL, &p, &size), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtBinaryGetGlobal(b, "stdout", NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'dptr' and 'size' are both NULL");
    ASSERT_OK(aclrtBinaryGetGlobal(b, "stdout", &p, &size));
    /* libc's own stdout (the program may use a copy of it), pointing at the same stream. */
    ASSERT(p != NULL && *(FILE **)p == stdout);
    ASSERT_EQ(size, sizeof(FILE *));
    size = 0;
    ASSERT_OK(aclrtBinaryGetGlobal(b, "stdout", NULL, &size));
    ASSERT_EQ(size, sizeof(FILE *));
    ASSERT_RC(aclrtBinaryGetGlobal(b, "no_such_global_here", &p, &size), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is not a global exported by");
    ASSERT_OK(aclrtResetDeviceForce(0));
    ASSERT_RC(aclrtBinaryGetGlobal(b, "stdout", &p, &size), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_OK(aclrtBinaryUnLoad(b));
    ASSERT_RC(aclrtBinaryGetGlobal(b, "stdout", &p, &size), ACL_ERROR_RT_INVALID_HANDLE);
    aclFinalize();
}

TEST(funcs, binary_global_is_not_for_a_cpu_binary)
{
    void *p;
    aclrtBinHandle b;
    t_setup();
    b = load_lib(true);
    ASSERT_RC(aclrtBinaryGetGlobal(b, "aclcpuGetBlockIdx", &p, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtBinaryUnLoad(b));
    t_teardown();
}

TEST(funcs, register_cpu_func_needs_a_cpu_binary)
{
    aclrtBinHandle plain, cpu;
    aclrtFuncHandle f = NULL, f2 = NULL;
    void *aic, *aiv;
    size_t n;
    int64_t v = 0;
    t_setup();
    plain = load_lib(false);
    cpu = load_lib(true);
    ASSERT_RC(aclrtRegisterCpuFunc(NULL, "aclcpuGetBlockIdx", "op", &f), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtRegisterCpuFunc(cpu, NULL, "op", &f), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtRegisterCpuFunc(cpu, "aclcpuGetBlockIdx", NULL, &f), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'kernelName' is NULL");
    ASSERT_RC(aclrtRegisterCpuFunc(cpu, "aclcpuGetBlockIdx", "op", NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtRegisterCpuFunc(plain, "aclcpuGetBlockIdx", "op", &f), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "not loaded with a CPU kernel mode");
    ASSERT_RC(aclrtRegisterCpuFunc(cpu, "no_such_cpu_kernel", "op", &f), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtRegisterCpuFunc(cpu, "aclcpuGetBlockIdx", "op", &f));
    ASSERT_OK(aclrtRegisterCpuFunc(cpu, "aclcpuGetBlockIdx", "op", &f2));
    ASSERT(f != NULL && f2 == f);
    /* An AI CPU kernel: its type says so, and the AI Core properties are refused. */
    ASSERT_OK(aclrtGetFunctionAttribute(f, ACL_FUNC_ATTR_KERNEL_TYPE, &v));
    ASSERT_EQ(v, ACL_KERNEL_TYPE_AICPU);
    ASSERT_RC(aclrtGetFunctionAttribute(f, ACL_FUNC_ATTR_KERNEL_RATIO, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtGetFunctionAddr(f, &aic, &aiv), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "AI CPU kernel");
    ASSERT_RC(aclrtGetFunctionSize(f, &n, &n), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtFunctionGetParamCount(f, &n), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    /* It launches as any kernel. */
    ASSERT_OK(aclrtLaunchKernel(f, 2, NULL, 0, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_OK(aclrtBinaryUnLoad(cpu));
    ASSERT_OK(aclrtBinaryUnLoad(plain));
    ASSERT_RC(aclrtRegisterCpuFunc(cpu, "aclcpuGetBlockIdx", "op", &f), ACL_ERROR_RT_INVALID_HANDLE);
    t_teardown();
}

/* ---- operator execution timeout ------------------------------------------------------------ */

/* Kernel, args = {uint64_t ns}: runs (busy) for at least ns. */
static void k_busy(void *args)
{
    uint64_t ns, until;
    memcpy(&ns, args, sizeof(ns));
    for (until = t_now_ns() + ns; t_now_ns() < until;)
        ;
}

static aclError run_busy(uint64_t ns, const aclrtLaunchKernelAttr *attr)
{
    aclrtLaunchKernelAttr a;
    aclrtLaunchKernelCfg cfg = {&a, 1};
    if (attr != NULL)
        a = *attr;
    ASSERT_OK(aclrtLaunchKernelV2(t_kernel("funcs_busy", k_busy), 1, &ns, sizeof(ns), attr != NULL ? &cfg : NULL,
                                  NULL));
    return aclrtSynchronizeStream(NULL);
}

TEST(funcs, op_execute_timeout_fails_a_kernel_running_longer)
{
    aclrtLaunchKernelAttr longer;
    uint32_t ms = 7;
    t_setup();
    /* None by default: the kernel runs as long as it takes. */
    ASSERT_OK(aclrtGetOpExecuteTimeout(&ms));
    ASSERT_EQ(ms, 0u);
    ASSERT_OK(run_busy(5000000u, NULL));
    ASSERT_OK(aclrtSetOpExecuteTimeOutWithMs(1));
    ASSERT_RC(run_busy(20000000u, NULL), ACL_ERROR_RT_VECTOR_CORE_TIMEOUT);
    /* A TIMEOUT attribute of its own wins over the process's. */
    longer.id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT;
    longer.value.timeout = 60;
    ASSERT_OK(run_busy(20000000u, &longer));
    /* 0 is none again. */
    ASSERT_OK(aclrtSetOpExecuteTimeOut(0));
    ASSERT_OK(run_busy(20000000u, NULL));
    t_teardown();
}

TEST(funcs, op_execute_timeout_units_and_clamp)
{
    uint32_t ms = 0;
    uint64_t actual = 0;
    t_setup();
    ASSERT_RC(aclrtGetOpExecuteTimeout(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtSetOpExecuteTimeOut(3));
    ASSERT_OK(aclrtGetOpExecuteTimeout(&ms));
    ASSERT_EQ(ms, 3000u);
    /* 1000000 ms is the longest taken as is; above it is clamped to it. */
    ASSERT_OK(aclrtSetOpExecuteTimeOutWithMs(1000000u));
    ASSERT_OK(aclrtGetOpExecuteTimeout(&ms));
    ASSERT_EQ(ms, 1000000u);
    ASSERT_OK(aclrtSetOpExecuteTimeOutWithMs(1000001u));
    ASSERT_OK(aclrtGetOpExecuteTimeout(&ms));
    ASSERT_EQ(ms, 1000000u);
    /* V2 in microseconds; a part of a millisecond reads as a whole one. */
    ASSERT_RC(aclrtSetOpExecuteTimeOutV2(1500, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtSetOpExecuteTimeOutV2(1500, &actual));
    ASSERT_EQ(actual, 1500u);
    ASSERT_OK(aclrtGetOpExecuteTimeout(&ms));
    ASSERT_EQ(ms, 2u);
    ASSERT_OK(aclrtSetOpExecuteTimeOutV2(0, &actual));
    ASSERT_EQ(actual, UINT64_MAX);
    t_teardown();
}

TEST(funcs, op_timeout_v2_and_interval_need_a_context)
{
    uint64_t v = 0;
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtSetOpExecuteTimeOutV2(10, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSetOpExecuteTimeOutV2(10, &v), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtGetOpTimeOutInterval(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetOpTimeOutInterval(&v), ACL_ERROR_RT_CONTEXT_NULL);
    /* The seconds and milliseconds setters need none. */
    ASSERT_OK(aclrtSetOpExecuteTimeOut(1));
    ASSERT_OK(aclrtSetOpExecuteTimeOutWithMs(1));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtGetOpTimeOutInterval(&v));
    ASSERT_EQ(v, 1u);
    t_teardown();
}

/* ---- saturation mode ------------------------------------------------------------------ */

TEST(funcs, sat_mode_is_saturation_or_infnan)
{
    aclrtFloatOverflowMode m = ACL_RT_OVERFLOW_MODE_UNDEF;
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtGetDeviceSatMode(NULL), ACL_ERROR_INVALID_PARAM);
    /* INFNAN until set on an A2 (the default SoC). */
    ASSERT_OK(aclrtGetDeviceSatMode(&m));
    ASSERT_EQ(m, ACL_RT_OVERFLOW_MODE_INFNAN);
    ASSERT_RC(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_UNDEF), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'mode' is 2; it must be in [0, 2)");
    ASSERT_RC(aclrtSetDeviceSatMode((aclrtFloatOverflowMode)-1), ACL_ERROR_RT_PARAM_INVALID);
    /* No context needed. */
    ASSERT_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN));
    ASSERT_OK(aclrtGetDeviceSatMode(&m));
    ASSERT_EQ(m, ACL_RT_OVERFLOW_MODE_INFNAN);
    ASSERT_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION));
    ASSERT_OK(aclrtGetDeviceSatMode(&m));
    ASSERT_EQ(m, ACL_RT_OVERFLOW_MODE_SATURATION);
    aclFinalize();
}

TEST(funcs, sat_mode_starts_saturation_without_the_overflow_mode_feature)
{
    aclrtFloatOverflowMode m = ACL_RT_OVERFLOW_MODE_UNDEF;
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtGetDeviceSatMode(&m));
    ASSERT_EQ(m, ACL_RT_OVERFLOW_MODE_SATURATION);
    ASSERT_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN));
    ASSERT_OK(aclrtGetDeviceSatMode(&m));
    ASSERT_EQ(m, ACL_RT_OVERFLOW_MODE_INFNAN);
    aclFinalize();
}

/* ---- overflow status ------------------------------------------------------------------- */

static void k_overflow(void *args)
{
    (void)args;
    aclcpuSetOverflow();
}

static int status_set(const uint8_t *out)
{
    for (int i = 0; i < 64; i++)
        if (out[i] != 0)
            return 1;
    return 0;
}

TEST(funcs, overflow_status_is_set_by_a_kernel_and_reset_in_stream_order)
{
    uint8_t *out = NULL;
    aclrtStream s;
    t_setup();
    ASSERT_OK(aclrtMalloc((void **)&out, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtCreateStream(&s));
    memset(out, 0xee, 64);
    ASSERT_OK(aclrtGetOverflowStatus(out, 64, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT(!status_set(out));
    /* The stream's overflow switch is off: the kernel succeeds, and the status still says so. */
    ASSERT_OK(aclrtLaunchKernel(t_kernel("funcs_overflow", k_overflow), 2, NULL, 0, s));
    ASSERT_OK(aclrtGetOverflowStatus(out, 64, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT(status_set(out));
    /* The context's status: another stream of it (here the default) sees it too. */
    memset(out, 0, 64);
    ASSERT_OK(aclrtGetFloatOverflowStatus(out, 64, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT(status_set(out));
    ASSERT_OK(aclrtResetOverflowStatus(s));
    ASSERT_OK(aclrtGetOverflowStatus(out, 64, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT(!status_set(out));
    /* The other names do the same. */
    ASSERT_OK(aclrtLaunchKernel(t_kernel("funcs_overflow", k_overflow), 1, NULL, 0, s));
    ASSERT_OK(aclrtNpuGetFloatOverFlowStatus(out, 64, 0, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT(status_set(out));
    ASSERT_OK(aclrtNpuClearFloatOverFlowStatus(0, s));
    ASSERT_OK(aclrtNpuGetFloatOverFlowStatus(out, 64, 0, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT(!status_set(out));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("funcs_overflow", k_overflow), 1, NULL, 0, s));
    ASSERT_OK(aclrtResetFloatOverflowStatus(s));
    ASSERT_OK(aclrtGetOverflowStatus(out, 64, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT(!status_set(out));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtFree(out));
    t_teardown();
}

TEST(funcs, overflow_status_output_size_must_be_64)
{
    uint8_t *out = NULL;
    t_setup();
    ASSERT_OK(aclrtMalloc((void **)&out, 128, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_RC(aclrtGetOverflowStatus(NULL, 64, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetFloatOverflowStatus(NULL, 64, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtNpuGetFloatOverFlowStatus(NULL, 64, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtGetOverflowStatus(out, 63, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'outputSize' is 63; it must be 64");
    ASSERT_RC(aclrtGetOverflowStatus(out, 65, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtGetFloatOverflowStatus(out, 128, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtNpuGetFloatOverFlowStatus(out, 0, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtGetOverflowStatus(out, 64, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_OK(aclrtFree(out));
    t_teardown();
}

TEST(funcs, overflow_status_stream_checks_in_order)
{
    uint8_t *out = NULL;
    aclrtContext other, mine;
    aclrtStream foreign;
    t_setup();
    ASSERT_OK(aclrtMalloc((void **)&out, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    /* A stale stream before the runtime's argument checks (but after the ACL layer's). */
    ASSERT_RC(aclrtGetOverflowStatus(NULL, 64, BAD_STREAM), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetFloatOverflowStatus(NULL, 64, BAD_STREAM), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtGetOverflowStatus(out, 63, BAD_STREAM), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtResetOverflowStatus(BAD_STREAM), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtNpuClearFloatOverFlowStatus(0, BAD_STREAM), ACL_ERROR_RT_INVALID_HANDLE);
    /* A stream of another context. */
    ASSERT_OK(aclrtGetCurrentContext(&mine));
    ASSERT_OK(aclrtCreateContext(&other, 0));
    ASSERT_OK(aclrtCreateStream(&foreign));
    ASSERT_OK(aclrtSetCurrentContext(mine));
    ASSERT_RC(aclrtGetOverflowStatus(out, 64, foreign), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_RC(aclrtResetFloatOverflowStatus(foreign), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_RC(aclrtNpuGetFloatOverFlowStatus(out, 64, 0, foreign), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_OK(aclrtSetCurrentContext(other));
    ASSERT_OK(aclrtDestroyStream(foreign));
    ASSERT_OK(aclrtSetCurrentContext(mine));
    ASSERT_OK(aclrtDestroyContext(other));
    ASSERT_OK(aclrtSetCurrentContext(mine));
    ASSERT_OK(aclrtFree(out));
    t_teardown();
}

TEST(funcs, overflow_status_refuses_a_captured_stream)
{
    uint8_t *out = NULL;
    aclrtStream s;
    aclmdlRI model = NULL;
    t_setup();
    ASSERT_OK(aclrtMalloc((void **)&out, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_RC(aclrtGetOverflowStatus(out, 64, s), ACL_ERROR_RT_STREAM_CAPTURED);
    ASSERT_RC(aclrtResetOverflowStatus(s), ACL_ERROR_RT_STREAM_CAPTURED);
    ASSERT_RC(aclrtNpuClearFloatOverFlowStatus(0, s), ACL_ERROR_RT_STREAM_CAPTURED);
    /* The size check comes first. */
    ASSERT_RC(aclrtGetOverflowStatus(out, 1, s), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclmdlRICaptureEnd(s, &model));
    ASSERT_OK(aclmdlRIDestroy(model));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtFree(out));
    t_teardown();
}

TEST(funcs, overflow_status_needs_a_context)
{
    uint8_t out[64];
    void *addr = NULL;
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtGetOverflowStatus(out, 64, NULL), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtResetOverflowStatus(NULL), ACL_ERROR_RT_CONTEXT_NULL);
    /* The NPU clear looks for the stream first: with none and no context, 107000. */
    ASSERT_RC(aclrtNpuClearFloatOverFlowStatus(0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCtxGetFloatOverflowAddr(NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCtxGetFloatOverflowAddr(&addr), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtCtxGetFloatOverflowAddr(&addr));
    ASSERT(addr != NULL);
    t_teardown();
}

TEST(funcs, ctx_overflow_addr_holds_the_status)
{
    void *addr = NULL, *addr2 = NULL;
    aclrtContext other, mine;
    t_setup();
    ASSERT_OK(aclrtCtxGetFloatOverflowAddr(&addr));
    ASSERT(!status_set(addr));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("funcs_overflow", k_overflow), 1, NULL, 0, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT(status_set(addr));
    /* Each context has its own. */
    ASSERT_OK(aclrtGetCurrentContext(&mine));
    ASSERT_OK(aclrtCreateContext(&other, 0));
    ASSERT_OK(aclrtCtxGetFloatOverflowAddr(&addr2));
    ASSERT(addr2 != addr);
    ASSERT(!status_set(addr2));
    ASSERT_OK(aclrtDestroyContext(other));
    ASSERT_OK(aclrtSetCurrentContext(mine));
    t_teardown();
}

TEST(funcs, npu_float_status_is_not_on_310p)
{
    uint8_t out[64];
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    t_setup();
    /* Before the stream is even looked at. */
    ASSERT_RC(aclrtNpuGetFloatOverFlowStatus(out, 64, 0, BAD_STREAM), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtNpuClearFloatOverFlowStatus(0, BAD_STREAM), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "no NPU float status");
    t_teardown();
}

/* ---- sweep 4 (2026-12-05) ------------------------------------------------------------------------------- */

/* aclrtGetOpExecuteTimeout answers in 32-bit milliseconds: a V2 timeout
 * longer than UINT32_MAX ms reads as UINT32_MAX, not as its low bits. */
TEST(funcs, an_op_timeout_past_uint32_max_ms_reads_as_uint32_max)
{
    uint32_t ms = 0;
    uint64_t actual = 0;
    t_setup();
    ASSERT_OK(aclrtSetOpExecuteTimeOutV2(5000000000000ull, &actual)); /* 5e9 ms */
    ASSERT_EQ(actual, 5000000000000ull);
    ASSERT_OK(aclrtGetOpExecuteTimeout(&ms));
    ASSERT_EQ(ms, UINT32_MAX);
    ASSERT_OK(aclrtSetOpExecuteTimeOutV2(4294967295000ull, &actual)); /* exactly UINT32_MAX ms */
    ASSERT_OK(aclrtGetOpExecuteTimeout(&ms));
    ASSERT_EQ(ms, UINT32_MAX);
    ASSERT_OK(aclrtSetOpExecuteTimeOutV2(4294967294001ull, &actual)); /* a part of the last ms */
    ASSERT_OK(aclrtGetOpExecuteTimeout(&ms));
    ASSERT_EQ(ms, UINT32_MAX);
    t_teardown();
}

/* The Atlas 200I/500 A2 (Ascend310B1) has no ACL graph feature either:
 * no kernel ratio, no kernel size (207000); the kernel type is there. */
TEST(funcs, function_ratio_and_size_are_not_on_the_200i_500_a2)
{
    int64_t v = 0;
    size_t aic = 0, aiv = 0;
    setenv("ACLCPU_SOC", "Ascend310B1", 1);
    t_setup();
    ASSERT_RC(aclrtGetFunctionAttribute(t_kernel("funcs_plain", k_plain), ACL_FUNC_ATTR_KERNEL_RATIO, &v),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtGetFunctionAttribute(t_kernel("funcs_plain", k_plain), ACL_FUNC_ATTR_KERNEL_TYPE, &v));
    ASSERT_RC(aclrtGetFunctionSize(t_kernel("funcs_plain", k_plain), &aic, &aiv), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "no ACL graph feature");
    t_teardown();
}

/* The rounding up to whole milliseconds does not wrap: a V2 timeout of
 * UINT64_MAX microseconds reads as UINT32_MAX ms, not as 0 (none). */
TEST(funcs, an_op_timeout_of_uint64_max_us_reads_as_uint32_max_ms)
{
    uint32_t ms = 0;
    uint64_t actual = 0;
    t_setup();
    ASSERT_OK(aclrtSetOpExecuteTimeOutV2(UINT64_MAX, &actual));
    ASSERT_EQ(actual, UINT64_MAX);
    ASSERT_OK(aclrtGetOpExecuteTimeout(&ms));
    ASSERT_EQ(ms, UINT32_MAX);
    ASSERT_OK(aclrtSetOpExecuteTimeOutV2(UINT64_MAX - 998u, &actual)); /* its + 999 wrapped too */
    ASSERT_OK(aclrtGetOpExecuteTimeout(&ms));
    ASSERT_EQ(ms, UINT32_MAX);
    t_teardown();
}

/* Atlas A3 has the overflow mode and float status features as A2 does:
 * it starts in INFNAN and takes the Npu* status calls. */
TEST(funcs, a3_starts_in_infnan_and_has_the_npu_float_status)
{
    aclrtFloatOverflowMode m = ACL_RT_OVERFLOW_MODE_UNDEF;
    uint8_t *out = NULL;
    setenv("ACLCPU_SOC", "Ascend910_9392", 1);
    t_setup();
    ASSERT_OK(aclrtGetDeviceSatMode(&m));
    ASSERT_EQ(m, ACL_RT_OVERFLOW_MODE_INFNAN);
    ASSERT_OK(aclrtMalloc((void **)&out, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtNpuClearFloatOverFlowStatus(0, NULL));
    ASSERT_OK(aclrtNpuGetFloatOverFlowStatus(out, 64, 0, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_OK(aclrtFree(out));
    t_teardown();
}

/* A reset clears the whole 512-byte overflow area the context hands out
 * (aclrtCtxGetFloatOverflowAddr), not only the 64 bytes a status copy reads. */
TEST(funcs, a_status_reset_clears_the_whole_overflow_area)
{
    unsigned char *area = NULL;
    t_setup();
    ASSERT_OK(aclrtCtxGetFloatOverflowAddr((void **)&area));
    memset(area, 0xa5, 512); /* as the device would leave it */
    ASSERT_OK(aclrtResetOverflowStatus(NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    for (int i = 0; i < 512; i++)
        ASSERT_EQ(area[i], 0);
    t_teardown();
}

/* ---- sweep 4: rules of kernel.c tested at their second step ------------------------------------ */

/* aclcpuSetKernelCost(f, NULL) takes the declared cost back: the kernel is
 * a plain vector kernel again (its type no longer MIX). */
TEST(funcs, a_null_cost_clears_a_kernels_declared_cost)
{
    int64_t v = -1;
    aclcpuKernelCost mix = {0};
    aclrtFuncHandle f;
    t_setup();
    f = t_kernel("funcs_plain", k_plain);
    mix.mix = 1;
    ASSERT_OK(aclcpuSetKernelCost(f, &mix));
    ASSERT_OK(aclrtGetFunctionAttribute(f, ACL_FUNC_ATTR_KERNEL_TYPE, &v));
    ASSERT_EQ(v, ACL_KERNEL_TYPE_MIX);
    ASSERT_OK(aclcpuSetKernelCost(f, NULL));
    ASSERT_OK(aclrtGetFunctionAttribute(f, ACL_FUNC_ATTR_KERNEL_TYPE, &v));
    ASSERT_EQ(v, ACL_KERNEL_TYPE_VECTOR);
    t_teardown();
}

/* aclrtBinaryGetGlobal finds only the binary's own globals: the kernels'
 * module links the C library, whose stdout dlsym would also find through
 * it, but stdout is not the module's. */
TEST(funcs, a_global_of_a_library_the_binary_depends_on_is_not_the_binarys)
{
    void *p = NULL;
    size_t size = 0;
    aclrtBinHandle b;
    t_setup();
    b = load_lib(false);
    ASSERT_RC(aclrtBinaryGetGlobal(b, "stdout", &p, &size), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is not a global exported by");
    ASSERT(p == NULL);
    ASSERT_OK(aclrtBinaryUnLoad(b));
    t_teardown();
}

/* ---- sweep 5 (2026-12-05): a binary loaded in a recycled slot ---------------------------------- */

/* A binary is loaded whatever the binary that used its memory before: after
 * more unloads than are held back from reuse (64), each new load (in a
 * recycled slot) still finds its kernels. */
TEST(funcs, a_binary_loaded_in_a_recycled_slot_is_loaded)
{
    t_setup();
    for (int i = 0; i < 70; i++) {
        aclrtBinHandle b = load_lib(false);
        aclrtFuncHandle f = NULL;
        ASSERT_OK(aclrtBinaryGetFunction(b, "aclcpuGetBlockIdx", &f));
        ASSERT(f != NULL);
        ASSERT_OK(aclrtBinaryUnLoad(b));
    }
    t_teardown();
}
