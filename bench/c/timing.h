/* What every C baseline of bench/ shares: failing loudly on a driver error,
 * a monotonic clock and the median of a set of timings. */
#ifndef BENCH_TIMING_H
#define BENCH_TIMING_H
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(call) do { CUresult r = (call); if (r != CUDA_SUCCESS) { fprintf(stderr, "%s failed: %d\n", #call, r); exit(1); } } while (0)

static inline double nanoseconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static inline int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Sorts v in place. */
static inline double median(double *v, int n) {
  qsort(v, n, sizeof(double), compareDoubles);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
#endif
