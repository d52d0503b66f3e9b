/* Pinned host<->device copy bandwidth with the driver API: the C baseline of
 * bench/copy-bandwidth.js. Prints {"h2d": GB/s, "d2h": GB/s} (medians). */
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c11 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(call) do { CUresult r = (call); if (r != CUDA_SUCCESS) { fprintf(stderr, "%s failed: %d\n", #call, r); exit(1); } } while (0)

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  size_t bytes = argc > 1 ? strtoull(argv[1], NULL, 10) : (256u << 20);
  int reps = argc > 2 ? atoi(argv[2]) : 20;
  CUdevice dev;
  CUcontext ctx;
  CUdeviceptr d;
  void *h;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  CHECK(cuMemAlloc(&d, bytes));
  CHECK(cuMemAllocHost(&h, bytes));
  double *h2d = malloc(sizeof(double) * reps), *d2h = malloc(sizeof(double) * reps);
  CHECK(cuMemcpyHtoD(d, h, bytes)); /* warm-up */
  CHECK(cuMemcpyDtoH(h, d, bytes));
  for (int i = 0; i < reps; i++) {
    double t0 = seconds();
    CHECK(cuMemcpyHtoD(d, h, bytes));
    double t1 = seconds();
    CHECK(cuMemcpyDtoH(h, d, bytes));
    double t2 = seconds();
    h2d[i] = bytes / (t1 - t0) / 1e9;
    d2h[i] = bytes / (t2 - t1) / 1e9;
  }
  qsort(h2d, reps, sizeof(double), compare);
  qsort(d2h, reps, sizeof(double), compare);
  printf("{\"h2d\": %.3f, \"d2h\": %.3f}\n", h2d[reps / 2], d2h[reps / 2]);
  return 0;
}
