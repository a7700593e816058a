// standin_kernels.cpp - the kernel side of the vendor's samples, for
// tools/vendor_samples.sh --run: the host launchers that the vendor's
// example/kernel_func/kernel_ops.h and kernel_add.h declare (EasyOP, ShortOP,
// LongOP, ErrorOP, WriteDo, ReadDo, PrintDo, AddDo), each launching a CPU
// kernel registered with aclcpuRegisterKernel, as a <<<blockDim, nullptr,
// stream>>> launch would (no return value; a refused launch is reported on
// stderr).
//
// A kernel's printf does not reach the terminal on the device: the runtime
// prints the device's print buffer at the device reset. The kernels here
// append to a buffer, and aclrtResetDevice, aclrtResetDeviceForce and
// aclFinalize, interposed by this object (it is linked into the sample),
// print it before calling aclcpu's.
#include <dlfcn.h>
#include <time.h>

#include <atomic>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "acl/acl.h"
#include "aclcpu/aclcpu.h"
#include "kernel_func/kernel_add.h"
#include "kernel_func/kernel_ops.h"

namespace {

// Kernel text waiting for the device reset; blocks of any stream append at once.
char g_printText[1 << 16];
std::atomic<size_t> g_printUsed{0};

void KernelPrintf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void KernelPrintf(const char* fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    if (n <= 0) {
        return;
    }
    size_t len = static_cast<size_t>(n) < sizeof(line) ? static_cast<size_t>(n) : sizeof(line) - 1;
    size_t at = g_printUsed.fetch_add(len, std::memory_order_relaxed);
    if (at < sizeof(g_printText) && len <= sizeof(g_printText) - at) {
        memcpy(g_printText + at, line, len);
    }
}

void FlushKernelPrints()
{
    size_t used = g_printUsed.exchange(0, std::memory_order_relaxed);
    if (used > sizeof(g_printText)) {
        used = sizeof(g_printText);
    }
    fwrite(g_printText, 1, used, stdout);
    fflush(stdout);
}

template <typename Fn>
Fn Next(const char* name)
{
    return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
}

struct PtrArgs {
    uint32_t* x;
};
struct ValueArgs {
    int* devPtr;
    int value;
};
struct AddArgs {
    float* a;
    float* b;
    float* out;
    uint32_t total;
};

double Seconds()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

void EasyKernel(void* args) { static_cast<PtrArgs*>(args)->x[aclcpuGetBlockIdx()] += 1; }
void ShortKernel(void* args) { static_cast<PtrArgs*>(args)->x[aclcpuGetBlockIdx()] *= 2; }
// Long enough (1.3 s) for the samples' 1000 ms timeouts to expire.
void LongKernel(void* args)
{
    double start = Seconds();
    volatile float sink = 0.0f;
    while (Seconds() - start < 1.3) {
        sink = sink + 1.0f;
    }
    static_cast<PtrArgs*>(args)->x[aclcpuGetBlockIdx()] += 1;
}
void ErrorKernel(void*) { aclcpuTrap(); }
void WriteKernel(void* args)
{
    ValueArgs* a = static_cast<ValueArgs*>(args);
    a->devPtr[aclcpuGetBlockIdx()] = a->value;
    KernelPrintf("Source data: %d\n", a->value);
}
void ReadKernel(void* args)
{
    ValueArgs* a = static_cast<ValueArgs*>(args);
    KernelPrintf("Destination data: %d\n", a->devPtr[aclcpuGetBlockIdx()]);
}
void PrintKernel(void*) { KernelPrintf("Hello World\n"); }
void AddKernel(void* args)
{
    AddArgs* a = static_cast<AddArgs*>(args);
    uint32_t blocks = aclcpuGetBlockNum();
    uint32_t per = (a->total + blocks - 1) / blocks;
    uint32_t begin = aclcpuGetBlockIdx() * per;
    for (uint32_t i = begin; i < a->total && i < begin + per; i++) {
        a->out[i] = a->a[i] + a->b[i];
    }
}

aclrtFuncHandle Register(const char* name, aclcpuKernelFn fn)
{
    aclrtFuncHandle handle = nullptr;
    if (aclcpuRegisterKernel(name, fn, &handle) != ACL_SUCCESS) {
        fprintf(stderr, "[standin] cannot register %s\n", name);
    }
    return handle;
}

template <typename Args>
void Launch(const char* name, aclrtFuncHandle fn, uint32_t blockDim, void* stream, Args args)
{
    aclError ret = aclrtLaunchKernel(fn, blockDim, &args, sizeof(args), static_cast<aclrtStream>(stream));
    if (ret != ACL_SUCCESS) {
        const char* msg = aclGetRecentErrMsg();
        fprintf(stderr, "[standin] launching %s returned %d: %s\n", name, static_cast<int>(ret), msg ? msg : "");
    }
}

} // namespace

extern "C" aclError aclrtResetDevice(int32_t deviceId)
{
    FlushKernelPrints();
    return Next<aclError (*)(int32_t)>("aclrtResetDevice")(deviceId);
}

extern "C" aclError aclrtResetDeviceForce(int32_t deviceId)
{
    FlushKernelPrints();
    return Next<aclError (*)(int32_t)>("aclrtResetDeviceForce")(deviceId);
}

extern "C" aclError aclFinalize(void)
{
    FlushKernelPrints();
    return Next<aclError (*)(void)>("aclFinalize")();
}

void EasyOP(uint32_t blockDim, void* stream, uint32_t* x)
{
    static aclrtFuncHandle fn = Register("EasyOPf", EasyKernel);
    Launch("EasyOP", fn, blockDim, stream, PtrArgs{x});
}

void ShortOP(uint32_t blockDim, void* stream, uint32_t* x)
{
    static aclrtFuncHandle fn = Register("ShortOPf", ShortKernel);
    Launch("ShortOP", fn, blockDim, stream, PtrArgs{x});
}

void LongOP(uint32_t blockDim, void* stream, uint32_t* x)
{
    static aclrtFuncHandle fn = Register("LongOPf", LongKernel);
    Launch("LongOP", fn, blockDim, stream, PtrArgs{x});
}

void ErrorOP(uint32_t blockDim, void* stream)
{
    static aclrtFuncHandle fn = Register("ErrorOPf", ErrorKernel);
    Launch("ErrorOP", fn, blockDim, stream, PtrArgs{nullptr});
}

void WriteDo(uint32_t blockDim, void* stream, int* devPtr, int value)
{
    static aclrtFuncHandle fn = Register("DeviceWrite", WriteKernel);
    Launch("WriteDo", fn, blockDim, stream, ValueArgs{devPtr, value});
}

void ReadDo(uint32_t blockDim, void* stream, int* devPtr)
{
    static aclrtFuncHandle fn = Register("DeviceRead", ReadKernel);
    Launch("ReadDo", fn, blockDim, stream, ValueArgs{devPtr, 0});
}

void PrintDo(uint32_t blockDim, void* stream)
{
    static aclrtFuncHandle fn = Register("KernelPrint", PrintKernel);
    Launch("PrintDo", fn, blockDim, stream, PtrArgs{nullptr});
}

void AddDo(uint32_t blockDim, void* stream, float* srcA, float* srcB, float* dst, uint32_t totalSize)
{
    static aclrtFuncHandle fn = Register("add_custom", AddKernel);
    Launch("AddDo", fn, blockDim, stream, AddArgs{srcA, srcB, dst, totalSize});
}
