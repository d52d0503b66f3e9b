/* Host time per call of events, streams and stream-ordered memory, and the
 * latency of a blocking wait: the C baseline of bench/calls.js and
 * bench/wait-latency.js. On a non-blocking stream of the primary context:
 *   eventRecordQuery     cuEventRecord + cuEventQuery (an event without timing)
 *   streamCreateDestroy  cuStreamCreate (non-blocking) + cuStreamDestroy
 *   allocFreeAsync       cuMemAllocAsync (256 bytes) + cuMemFreeAsync
 *   blockingWait         cuMemsetD8Async of 4 bytes + cuStreamSynchronize
 * Each is the median over rounds of a batch's host time divided by the batch
 * (the stream drained between batches, outside the timing); blockingWait is
 * the median of single waits (rounds * 5 of them).
 * Usage: calls <batch> <rounds> [calls|wait]: the per-call figures (default)
 * or the blocking wait. Prints {"eventRecordQuery": ns, "streamCreateDestroy": ns,
 * "allocFreeAsync": ns} or {"blockingWait": ns}. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c11 */
#include "timing.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static CUstream stream;
static CUevent event;

static void eventRecordQuery(void) {
  CHECK(cuEventRecord(event, stream));
  CUresult r = cuEventQuery(event);
  if (r != CUDA_SUCCESS && r != CUDA_ERROR_NOT_READY) CHECK(r);
}

static void streamCreateDestroy(void) {
  CUstream s;
  CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  CHECK(cuStreamDestroy(s));
}

static void allocFreeAsync(void) {
  CUdeviceptr p;
  CHECK(cuMemAllocAsync(&p, 256, stream));
  CHECK(cuMemFreeAsync(p, stream));
}

/* The median per-call host time of op, in nanoseconds. */
static double perCall(void (*op)(void), int batch, int rounds) {
  double *times = malloc(sizeof(double) * rounds);
  for (int i = 0; i < batch * 10; i++) op();
  CHECK(cuStreamSynchronize(stream));
  for (int r = 0; r < rounds; r++) {
    double t0 = nanoseconds();
    for (int i = 0; i < batch; i++) op();
    times[r] = (nanoseconds() - t0) / batch;
    CHECK(cuStreamSynchronize(stream));
  }
  double m = median(times, rounds);
  free(times);
  return m;
}

int main(int argc, char **argv) {
  int batch = argc > 1 ? atoi(argv[1]) : 200;
  int rounds = argc > 2 ? atoi(argv[2]) : 300;
  CUdevice dev;
  CUcontext ctx;
  CUdeviceptr word;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CHECK(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING));
  CHECK(cuMemAlloc(&word, 4));

  if (argc > 3 && strcmp(argv[3], "wait") == 0) {
    int waits = rounds * 5;
    double *times = malloc(sizeof(double) * waits);
    for (int i = 0; i < waits + 100; i++) {
      double t0 = nanoseconds();
      CHECK(cuMemsetD8Async(word, (unsigned char)i, 4, stream));
      CHECK(cuStreamSynchronize(stream));
      if (i >= 100) times[i - 100] = nanoseconds() - t0;
    }
    printf("{\"blockingWait\": %.1f}\n", median(times, waits));
    free(times);
  } else {
    double record = perCall(eventRecordQuery, batch, rounds);
    double create = perCall(streamCreateDestroy, batch, rounds);
    double alloc = perCall(allocFreeAsync, batch, rounds);
    printf("{\"eventRecordQuery\": %.1f, \"streamCreateDestroy\": %.1f, \"allocFreeAsync\": %.1f}\n", record, create, alloc);
  }
  CHECK(cuMemFree(word));
  CHECK(cuEventDestroy(event));
  CHECK(cuStreamDestroy(stream));
  return 0;
}
