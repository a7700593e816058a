/*
 * peer.h - the peer side of every comparison: PoCL, driven through the
 * OpenCL 1.2 API on the CPU device (in-order queues, clFinish, events).
 *
 * peer_ocl.c implements it when CMake found OpenCL; peer_none.c otherwise,
 * where peer_open() fails with the packages to install. Every sample
 * function returns its figure, or NAN when an OpenCL call failed (the
 * failure is printed once; the bench goes on without that figure).
 */
#ifndef ACLCPU_BENCH_PEER_H
#define ACLCPU_BENCH_PEER_H

#include <stdbool.h>
#include <stddef.h>

/* Finds an OpenCL CPU platform (PoCL preferred) and builds the kernels.
 * On failure writes the reason, with what to install, to why. */
bool peer_open(char *why, size_t why_size);
void peer_close(void);
bool peer_ready(void);
/* "pocl", or "opencl-cpu" when the CPU platform found is not PoCL. */
const char *peer_name(void);
/* Platform and device, as one line. */
const char *peer_describe(void);

/* Host cost of n empty-kernel enqueues on an idle in-order queue, ns each
 * (the clFinish that drains them is not timed). */
double peer_launch_enqueue(unsigned n);
/* n enqueues plus clFinish, ns per kernel. */
double peer_launch_drain(unsigned n);
/* n times: one empty kernel + clFinish on an idle queue, us per round trip. */
double peer_sync_roundtrip(unsigned n);
/* A chain of hops empty kernels alternating between two queues, each
 * waiting on the previous one's event; us per hop. gated: the chain is
 * issued behind a user event first and timed from its completion. */
double peer_event_hop(unsigned hops, bool gated);
/* n times: one host function in the queue + clFinish, us per round trip.
 * The host function is a native kernel when the device runs them, else a
 * callback on a marker's completion. */
double peer_host_func(unsigned n);
const char *peer_host_func_kind(void);

/* saxpy: y = a * x + y over n floats split into blocks work-groups of one
 * work-item each, like aclcpu's blocks; x starts at 1 and y at 2. */
bool peer_saxpy_setup(size_t n, unsigned blocks, float a);
/* One pass (enqueue + clFinish); returns seconds, NAN on failure. */
double peer_saxpy_pass(void);
/* Checks a few elements of y against 2 + passes * a; false if wrong. */
bool peer_saxpy_check(void);
void peer_saxpy_teardown(void);

/* Creates n in-order queues (kept until peer_queues_destroy); returns ms. */
double peer_queues_create(unsigned n);
/* Releases the queues made by peer_queues_create; returns ms. */
double peer_queues_destroy(void);

/* threads host threads, each with its own queue, each enqueuing per_thread
 * empty kernels and then clFinish; aggregate kernels per second. */
double peer_mt_launch(unsigned threads, unsigned per_thread);
/* ns per clCreateBuffer + clReleaseMemObject of bytes, averaged over n. */
double peer_buffer_cycle(size_t bytes, unsigned n);

#endif
