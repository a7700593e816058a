/*
 * peer_none.c - the peer side when aclcpu-bench was built without OpenCL:
 * peer_open() says what to install, and every figure is NAN.
 */
#include <math.h>
#include <stdio.h>

#include "peer.h"

bool peer_open(char *why, size_t why_size)
{
#ifdef ACLCPU_BENCH_NO_PEER_REASON
    snprintf(why, why_size, "%s", ACLCPU_BENCH_NO_PEER_REASON);
#else
    snprintf(why, why_size,
             "aclcpu-bench was built without OpenCL (CMake found no OpenCL headers and ICD loader). "
             "Install them and PoCL with: apt-get install pocl-opencl-icd ocl-icd-opencl-dev, "
             "then reconfigure (cmake -S . -B build) and run make bench again");
#endif
    return false;
}

void peer_close(void) {}
bool peer_ready(void) { return false; }
const char *peer_name(void) { return "pocl"; }
const char *peer_describe(void) { return "none"; }
double peer_launch_enqueue(unsigned n) { (void)n; return NAN; }
double peer_launch_drain(unsigned n) { (void)n; return NAN; }
double peer_sync_roundtrip(unsigned n) { (void)n; return NAN; }
double peer_event_hop(unsigned hops, bool gated) { (void)hops; (void)gated; return NAN; }
double peer_host_func(unsigned n) { (void)n; return NAN; }
const char *peer_host_func_kind(void) { return "n/a"; }
bool peer_saxpy_setup(size_t n, unsigned blocks, float a) { (void)n; (void)blocks; (void)a; return false; }
double peer_saxpy_pass(void) { return NAN; }
bool peer_saxpy_check(void) { return false; }
void peer_saxpy_teardown(void) {}
double peer_queues_create(unsigned n) { (void)n; return NAN; }
double peer_queues_destroy(void) { return NAN; }
double peer_mt_launch(unsigned threads, unsigned per_thread) { (void)threads; (void)per_thread; return NAN; }
double peer_buffer_cycle(size_t bytes, unsigned n) { (void)bytes; (void)n; return NAN; }
