/*
 * peer_ocl.c - the PoCL side of every workload, through the OpenCL 1.2 API
 * on the CPU device: in-order queues without profiling, clFinish for
 * synchronisation, event wait lists for cross-queue dependencies.
 *
 * Compiled only when CMake found OpenCL (peer_none.c otherwise). At run
 * time peer_open() looks for a platform with a CPU device, PoCL first.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bench.h"
#include "peer.h"

#define INSTALL_HINT "apt-get install pocl-opencl-icd"

static const char *const kernel_source =
    "kernel void empty(void) { }\n"
    "kernel void saxpy(global const float *restrict x, global float *restrict y, float a, ulong n, uint nb)\n"
    "{\n"
    "    ulong b = get_global_id(0);\n"
    "    ulong lo = n * b / nb, hi = n * (b + 1) / nb;\n"
    "    for (ulong i = lo; i < hi; i++)\n"
    "        y[i] = a * x[i] + y[i];\n"
    "}\n";

static struct {
    bool ready;
    const char *name;
    char describe[400];
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_program program;
    cl_kernel empty, saxpy;
    cl_command_queue q[2];
    bool native;              /* the device runs native kernels */
    /* saxpy */
    cl_mem x, y;
    size_t n;
    unsigned blocks;
    float a;
    unsigned passes;
    /* streams_scale */
    cl_command_queue *queues;
    unsigned nqueues;
} P = {.name = "pocl"};

/* Reports a failed call once per call site kind; returns false on failure. */
static bool cl_ok(cl_int err, const char *what)
{
    if (err == CL_SUCCESS)
        return true;
    fprintf(stderr, "aclcpu-bench: %s: %s failed with OpenCL error %d\n", P.name, what, (int)err);
    return false;
}

bool peer_ready(void) { return P.ready; }
const char *peer_name(void) { return P.name; }
const char *peer_describe(void) { return P.describe; }

static bool is_pocl(cl_platform_id p)
{
    char name[256] = "";
    clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof(name), name, NULL);
    return strstr(name, "Portable Computing Language") != NULL || strcasestr(name, "pocl") != NULL;
}

/* Picks a platform with a CPU device, PoCL first. */
static bool find_cpu_device(char *why, size_t why_size)
{
    cl_platform_id plats[16];
    cl_uint np = 0;
    cl_int err = clGetPlatformIDs(16, plats, &np);
    char names[256] = "";

    if (err != CL_SUCCESS || np == 0) {
        snprintf(why, why_size,
                 "the OpenCL ICD loader finds no platform (error %d); install PoCL: " INSTALL_HINT, (int)err);
        return false;
    }
    for (int pass = 0; pass < 2; pass++) {
        for (cl_uint i = 0; i < np; i++) {
            cl_uint nd = 0;
            if ((pass == 0) != is_pocl(plats[i]))
                continue;
            if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_CPU, 1, &P.device, &nd) == CL_SUCCESS && nd > 0) {
                P.platform = plats[i];
                P.name = pass == 0 ? "pocl" : "opencl-cpu";
                return true;
            }
        }
    }
    for (cl_uint i = 0; i < np; i++) {
        char name[96] = "";
        clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof(name), name, NULL);
        snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s\"%s\"", i ? ", " : "", name);
    }
    snprintf(why, why_size, "no OpenCL platform has a CPU device (platforms: %s); install PoCL: " INSTALL_HINT,
             names);
    return false;
}

static bool build_program(char *why, size_t why_size)
{
    const char *src = kernel_source;
    cl_int err;
    P.program = clCreateProgramWithSource(P.context, 1, &src, NULL, &err);
    if (err != CL_SUCCESS) {
        snprintf(why, why_size, "clCreateProgramWithSource failed (%d)", (int)err);
        return false;
    }
    err = clBuildProgram(P.program, 1, &P.device, "", NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[2048] = "";
        clGetProgramBuildInfo(P.program, P.device, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
        snprintf(why, why_size, "the kernels do not build on the CPU device (%d): %s", (int)err, log);
        return false;
    }
    P.empty = clCreateKernel(P.program, "empty", &err);
    if (err == CL_SUCCESS)
        P.saxpy = clCreateKernel(P.program, "saxpy", &err);
    if (err != CL_SUCCESS) {
        snprintf(why, why_size, "clCreateKernel failed (%d)", (int)err);
        return false;
    }
    return true;
}

bool peer_open(char *why, size_t why_size)
{
    char pver[128] = "", dname[128] = "";
    cl_device_exec_capabilities caps = 0;
    cl_uint cus = 0;
    cl_int err;

    if (!find_cpu_device(why, why_size))
        return false;
    P.context = clCreateContext(NULL, 1, &P.device, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        snprintf(why, why_size, "clCreateContext on the CPU device failed (%d)", (int)err);
        return false;
    }
    for (int i = 0; i < 2; i++) {
        P.q[i] = clCreateCommandQueue(P.context, P.device, 0, &err);
        if (err != CL_SUCCESS) {
            snprintf(why, why_size, "clCreateCommandQueue failed (%d)", (int)err);
            peer_close();
            return false;
        }
    }
    if (!build_program(why, why_size)) {
        peer_close();
        return false;
    }
    clGetDeviceInfo(P.device, CL_DEVICE_EXECUTION_CAPABILITIES, sizeof(caps), &caps, NULL);
    P.native = (caps & CL_EXEC_NATIVE_KERNEL) != 0;
    clGetPlatformInfo(P.platform, CL_PLATFORM_VERSION, sizeof(pver), pver, NULL);
    clGetDeviceInfo(P.device, CL_DEVICE_NAME, sizeof(dname), dname, NULL);
    clGetDeviceInfo(P.device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cus), &cus, NULL);
    snprintf(P.describe, sizeof(P.describe), "%s (%s), device %s, %u compute units", P.name, pver, dname, cus);
    P.ready = true;
    return true;
}

void peer_close(void)
{
    if (P.queues != NULL)
        peer_queues_destroy();
    if (P.empty != NULL)
        clReleaseKernel(P.empty);
    if (P.saxpy != NULL)
        clReleaseKernel(P.saxpy);
    if (P.program != NULL)
        clReleaseProgram(P.program);
    for (int i = 0; i < 2; i++)
        if (P.q[i] != NULL)
            clReleaseCommandQueue(P.q[i]);
    if (P.context != NULL)
        clReleaseContext(P.context);
    P.empty = P.saxpy = NULL;
    P.program = NULL;
    P.q[0] = P.q[1] = NULL;
    P.context = NULL;
    P.ready = false;
}

static cl_int enqueue_empty(cl_command_queue q, cl_uint nwait, const cl_event *wait, cl_event *ev)
{
    static const size_t one = 1;
    return clEnqueueNDRangeKernel(q, P.empty, 1, NULL, &one, &one, nwait, wait, ev);
}

/* ---- launch_enqueue, launch_drain, sync_roundtrip -------------------------------- */

double peer_launch_enqueue(unsigned n)
{
    uint64_t t0, t1;
    t0 = now_ns();
    for (unsigned i = 0; i < n; i++) {
        if (!cl_ok(enqueue_empty(P.q[0], 0, NULL, NULL), "clEnqueueNDRangeKernel")) {
            clFinish(P.q[0]);
            return NAN;
        }
    }
    t1 = now_ns();
    if (!cl_ok(clFinish(P.q[0]), "clFinish"))
        return NAN;
    return (double)(t1 - t0) / n;
}

double peer_launch_drain(unsigned n)
{
    uint64_t t0 = now_ns();
    for (unsigned i = 0; i < n; i++) {
        if (!cl_ok(enqueue_empty(P.q[0], 0, NULL, NULL), "clEnqueueNDRangeKernel")) {
            clFinish(P.q[0]);
            return NAN;
        }
    }
    if (!cl_ok(clFinish(P.q[0]), "clFinish"))
        return NAN;
    return (double)(now_ns() - t0) / n;
}

double peer_sync_roundtrip(unsigned n)
{
    uint64_t t0 = now_ns();
    for (unsigned i = 0; i < n; i++) {
        if (!cl_ok(enqueue_empty(P.q[0], 0, NULL, NULL), "clEnqueueNDRangeKernel") ||
            !cl_ok(clFinish(P.q[0]), "clFinish"))
            return NAN;
    }
    return (double)(now_ns() - t0) / 1e3 / n;
}

/* ---- event_hop ------------------------------------------------------------------------ */

double peer_event_hop(unsigned hops, bool gated)
{
    cl_event prev = NULL, ev, gate = NULL;
    cl_int err = CL_SUCCESS;
    bool ok = true;
    uint64_t t0 = now_ns();

    if (gated) {
        gate = clCreateUserEvent(P.context, &err);
        if (!cl_ok(err, "clCreateUserEvent"))
            return NAN;
        prev = gate;
        clRetainEvent(gate);
    }
    for (unsigned i = 0; i < hops && ok; i++) {
        cl_command_queue q = P.q[i & 1];
        ok = cl_ok(enqueue_empty(q, prev != NULL, prev != NULL ? &prev : NULL, &ev), "clEnqueueNDRangeKernel") &&
             cl_ok(clFlush(q), "clFlush");
        if (prev != NULL)
            clReleaseEvent(prev);
        prev = ok ? ev : NULL;
    }
    if (gate != NULL) {
        t0 = now_ns();
        ok = cl_ok(clSetUserEventStatus(gate, ok ? CL_COMPLETE : -1), "clSetUserEventStatus") && ok;
        clReleaseEvent(gate);
    }
    ok = cl_ok(clFinish(P.q[(hops - 1) & 1]), "clFinish") && ok;
    ok = cl_ok(clFinish(P.q[hops & 1]), "clFinish") && ok;
    if (prev != NULL)
        clReleaseEvent(prev);
    return ok ? (double)(now_ns() - t0) / 1e3 / hops : NAN;
}

/* ---- host_func ---------------------------------------------------------------------- */

static _Atomic unsigned long host_calls;

struct native_args {
    _Atomic unsigned long *calls;
};

static void CL_CALLBACK native_fn(void *args)
{
    struct native_args *a = args;
    atomic_fetch_add_explicit(a->calls, 1, memory_order_relaxed);
}

static pthread_mutex_t cb_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cb_cond = PTHREAD_COND_INITIALIZER;
static bool cb_fired;

static void CL_CALLBACK complete_cb(cl_event ev, cl_int status, void *user)
{
    (void)ev;
    (void)status;
    (void)user;
    atomic_fetch_add_explicit(&host_calls, 1, memory_order_relaxed);
    pthread_mutex_lock(&cb_lock);
    cb_fired = true;
    pthread_cond_signal(&cb_cond);
    pthread_mutex_unlock(&cb_lock);
}

const char *peer_host_func_kind(void)
{
    if (!P.ready)
        return "n/a";
    return P.native ? "native kernel (clEnqueueNativeKernel) + clFinish"
                    : "marker + clSetEventCallback(CL_COMPLETE), host waits for the callback";
}

static bool host_func_once(void)
{
    if (P.native) {
        struct native_args a = {&host_calls};
        return cl_ok(clEnqueueNativeKernel(P.q[0], native_fn, &a, sizeof(a), 0, NULL, NULL, 0, NULL, NULL),
                     "clEnqueueNativeKernel") &&
               cl_ok(clFinish(P.q[0]), "clFinish");
    }
    cl_event ev;
    if (!cl_ok(clEnqueueMarkerWithWaitList(P.q[0], 0, NULL, &ev), "clEnqueueMarkerWithWaitList"))
        return false;
    pthread_mutex_lock(&cb_lock);
    cb_fired = false;
    pthread_mutex_unlock(&cb_lock);
    if (!cl_ok(clSetEventCallback(ev, CL_COMPLETE, complete_cb, NULL), "clSetEventCallback") ||
        !cl_ok(clFlush(P.q[0]), "clFlush")) {
        clReleaseEvent(ev);
        clFinish(P.q[0]);
        return false;
    }
    pthread_mutex_lock(&cb_lock);
    while (!cb_fired)
        pthread_cond_wait(&cb_cond, &cb_lock);
    pthread_mutex_unlock(&cb_lock);
    clReleaseEvent(ev);
    return true;
}

double peer_host_func(unsigned n)
{
    unsigned long before = atomic_load(&host_calls);
    uint64_t t0 = now_ns();
    for (unsigned i = 0; i < n; i++)
        if (!host_func_once())
            return NAN;
    double us = (double)(now_ns() - t0) / 1e3 / n;
    if (atomic_load(&host_calls) - before != n) {
        fprintf(stderr, "aclcpu-bench: %s: %lu host functions ran, %u expected\n", P.name,
                atomic_load(&host_calls) - before, n);
        return NAN;
    }
    return us;
}

/* ---- saxpy_bw ------------------------------------------------------------------------- */

bool peer_saxpy_setup(size_t n, unsigned blocks, float a)
{
    cl_int err;
    cl_ulong n64 = n;
    float one = 1.0f, two = 2.0f;
    size_t bytes = n * sizeof(float);

    P.n = n;
    P.blocks = blocks;
    P.a = a;
    P.passes = 0;
    P.x = clCreateBuffer(P.context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (!cl_ok(err, "clCreateBuffer"))
        return false;
    P.y = clCreateBuffer(P.context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (!cl_ok(err, "clCreateBuffer") ||
        !cl_ok(clEnqueueFillBuffer(P.q[0], P.x, &one, sizeof(one), 0, bytes, 0, NULL, NULL), "clEnqueueFillBuffer") ||
        !cl_ok(clEnqueueFillBuffer(P.q[0], P.y, &two, sizeof(two), 0, bytes, 0, NULL, NULL), "clEnqueueFillBuffer") ||
        !cl_ok(clFinish(P.q[0]), "clFinish") ||
        !cl_ok(clSetKernelArg(P.saxpy, 0, sizeof(cl_mem), &P.x), "clSetKernelArg") ||
        !cl_ok(clSetKernelArg(P.saxpy, 1, sizeof(cl_mem), &P.y), "clSetKernelArg") ||
        !cl_ok(clSetKernelArg(P.saxpy, 2, sizeof(float), &a), "clSetKernelArg") ||
        !cl_ok(clSetKernelArg(P.saxpy, 3, sizeof(cl_ulong), &n64), "clSetKernelArg") ||
        !cl_ok(clSetKernelArg(P.saxpy, 4, sizeof(cl_uint), &blocks), "clSetKernelArg")) {
        peer_saxpy_teardown();
        return false;
    }
    return true;
}

double peer_saxpy_pass(void)
{
    size_t global = P.blocks, local = 1;
    uint64_t t0 = now_ns();
    if (!cl_ok(clEnqueueNDRangeKernel(P.q[0], P.saxpy, 1, NULL, &global, &local, 0, NULL, NULL),
               "clEnqueueNDRangeKernel") ||
        !cl_ok(clFinish(P.q[0]), "clFinish"))
        return NAN;
    P.passes++;
    return (double)(now_ns() - t0) / 1e9;
}

bool peer_saxpy_check(void)
{
    size_t probe[3] = {0, P.n / 2 + 1, P.n - 1};
    float expect = 2.0f + (float)P.passes * P.a;
    for (int i = 0; i < 3; i++) {
        float v = 0;
        if (!cl_ok(clEnqueueReadBuffer(P.q[0], P.y, CL_TRUE, probe[i] * sizeof(float), sizeof(float), &v, 0, NULL,
                                       NULL),
                   "clEnqueueReadBuffer"))
            return false;
        if (v != expect) {
            fprintf(stderr, "aclcpu-bench: %s saxpy: y[%zu] is %g after %u passes, expected %g\n", P.name, probe[i],
                    (double)v, P.passes, (double)expect);
            return false;
        }
    }
    return true;
}

void peer_saxpy_teardown(void)
{
    if (P.x != NULL)
        clReleaseMemObject(P.x);
    if (P.y != NULL)
        clReleaseMemObject(P.y);
    P.x = P.y = NULL;
}

/* ---- streams_scale ---------------------------------------------------------------------- */

double peer_queues_create(unsigned n)
{
    uint64_t t0;
    cl_int err = CL_SUCCESS;

    if (P.queues != NULL)
        peer_queues_destroy();
    P.queues = calloc(n, sizeof(*P.queues));
    if (P.queues == NULL)
        return NAN;
    t0 = now_ns();
    for (P.nqueues = 0; P.nqueues < n; P.nqueues++) {
        P.queues[P.nqueues] = clCreateCommandQueue(P.context, P.device, 0, &err);
        if (err != CL_SUCCESS)
            break;
    }
    double ms = (double)(now_ns() - t0) / 1e6;
    return cl_ok(err, "clCreateCommandQueue") ? ms : NAN;
}

double peer_queues_destroy(void)
{
    uint64_t t0 = now_ns();
    for (unsigned i = 0; i < P.nqueues; i++)
        clReleaseCommandQueue(P.queues[i]);
    double ms = (double)(now_ns() - t0) / 1e6;
    free(P.queues);
    P.queues = NULL;
    P.nqueues = 0;
    return ms;
}

/* ---- mt_launch -------------------------------------------------------------------------------- */

struct mt_peer {
    cl_command_queue q[64];
    unsigned per_thread;
    _Atomic bool failed;
};

static void mt_body(unsigned i, void *p)
{
    struct mt_peer *m = p;
    for (unsigned k = 0; k < m->per_thread; k++) {
        if (enqueue_empty(m->q[i], 0, NULL, NULL) != CL_SUCCESS) {
            atomic_store(&m->failed, true);
            break;
        }
    }
    if (clFinish(m->q[i]) != CL_SUCCESS)
        atomic_store(&m->failed, true);
}

double peer_mt_launch(unsigned threads, unsigned per_thread)
{
    struct mt_peer m = {.per_thread = per_thread};
    cl_int err = CL_SUCCESS;
    unsigned made;
    double secs = NAN;

    atomic_init(&m.failed, false);
    if (threads > 64)
        return NAN;
    for (made = 0; made < threads; made++) {
        m.q[made] = clCreateCommandQueue(P.context, P.device, 0, &err);
        if (!cl_ok(err, "clCreateCommandQueue"))
            break;
    }
    if (made == threads)
        secs = run_threads(threads, NULL, mt_body, &m);
    for (unsigned i = 0; i < made; i++)
        clReleaseCommandQueue(m.q[i]);
    if (atomic_load(&m.failed)) {
        fprintf(stderr, "aclcpu-bench: %s: an enqueue or clFinish failed in mt_launch\n", P.name);
        return NAN;
    }
    return (double)threads * per_thread / secs;
}

double peer_buffer_cycle(size_t bytes, unsigned n)
{
    cl_int err = CL_SUCCESS;
    uint64_t t0 = now_ns();
    for (unsigned i = 0; i < n && err == CL_SUCCESS; i++) {
        cl_mem m = clCreateBuffer(P.context, CL_MEM_READ_WRITE, bytes, NULL, &err);
        if (err == CL_SUCCESS)
            clReleaseMemObject(m);
    }
    double ns = (double)(now_ns() - t0) / n;
    return cl_ok(err, "clCreateBuffer") ? ns : NAN;
}
