/* What every C baseline of bench/ shares: failing loudly on a driver error,
 * the primary context, a monotonic clock, the median of a set of timings and
 * the timed batch loop. Every baseline includes it first: it sets the feature
 * macro that clock_gettime (and service.c's barriers) need under -std=c11. */
#ifndef BENCH_TIMING_H
#define BENCH_TIMING_H
#define _POSIX_C_SOURCE 200809L /* clock_gettime and pthread barriers under -std=c11 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(call) do { CUresult r = (call); if (r != CUDA_SUCCESS) { fprintf(stderr, "%s failed: %d\n", #call, r); exit(1); } } while (0)

/* Makes device 0's primary context current and returns it (as the JavaScript
 * and Python sides use it). */
static inline CUcontext primaryContext(void) {
  CUdevice dev;
  CUcontext ctx;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  return ctx;
}

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

/* The median nanoseconds per call of op(arg) over rounds of batch calls, after
 * a warm-up of batch * 10 calls; drain is synchronized after the warm-up and
 * after every round, outside the timing (NULL: nothing is; so the legacy
 * default stream cannot be drained here). bench/common.js perCall
 * and bench/python/common.py per_call do the same. */
static inline double perBatch(void (*op)(void *), void *arg, CUstream drain, int batch, int rounds) {
  double *times = malloc(sizeof(double) * rounds);
  if (!times) {
    fprintf(stderr, "malloc of %d timings failed\n", rounds);
    exit(1);
  }
  for (int i = 0; i < batch * 10; i++) op(arg);
  if (drain) CHECK(cuStreamSynchronize(drain));
  for (int r = 0; r < rounds; r++) {
    double t0 = nanoseconds();
    for (int i = 0; i < batch; i++) op(arg);
    times[r] = (nanoseconds() - t0) / batch;
    if (drain) CHECK(cuStreamSynchronize(drain));
  }
  double m = median(times, rounds);
  free(times);
  return m;
}
#endif
