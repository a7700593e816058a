/*
 * omp_saxpy.c - the OpenMP baseline of saxpy_bw: a plain parallel for over
 * the same arrays, with the default static schedule and thread count (one
 * per CPU). Without OpenMP it reports itself unavailable.
 */
#ifdef _OPENMP
#include <omp.h>
#endif

#include "bench.h"

bool omp_available(void)
{
#ifdef _OPENMP
    return true;
#else
    return false;
#endif
}

unsigned omp_threads(void)
{
#ifdef _OPENMP
    return (unsigned)omp_get_max_threads();
#else
    return 0;
#endif
}

double omp_saxpy_pass(const float *restrict x, float *restrict y, float a, size_t n)
{
    uint64_t t0 = now_ns();
    long len = (long)n;
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
    for (long i = 0; i < len; i++)
        y[i] = a * x[i] + y[i];
    return (double)(now_ns() - t0) / 1e9;
}
