/* Host time per call of events, streams and stream-ordered memory, and the
 * latency of a blocking wait: the C baseline of bench/calls.js and
 * bench/wait-latency.js. On a non-blocking stream of the primary context:
 *   eventRecordQuery     cuEventRecord + cuEventQuery (an event without timing)
 *   streamCreateDestroy  cuStreamCreate (non-blocking) + cuStreamDestroy
 *   allocFreeAsync       cuMemAllocAsync (256 bytes) + cuMemFreeAsync
 *   blockingWait         cuMemsetD8Async of 4 bytes + cuStreamSynchronize
 * Each is the median over rounds of a batch's host time divided by the batch
 * (the stream drained between batches, outside the timing); blockingWait is
 * the median of single waits.
 * Usage: calls <batch> <rounds> [calls]: the per-call figures (default), or
 * calls <batch> <waits> wait: the blocking wait, over <waits> single waits.
 * Prints {"eventRecordQuery": ns, "streamCreateDestroy": ns, "allocFreeAsync": ns}
 * or {"blockingWait": ns}. */
#include "timing.h"
#include <string.h>

static CUstream stream;
static CUevent event;

static void eventRecordQuery(void *unused) {
  (void)unused;
  CHECK(cuEventRecord(event, stream));
  CUresult r = cuEventQuery(event);
  if (r != CUDA_SUCCESS && r != CUDA_ERROR_NOT_READY) CHECK(r);
}

static void streamCreateDestroy(void *unused) {
  (void)unused;
  CUstream s;
  CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  CHECK(cuStreamDestroy(s));
}

static void allocFreeAsync(void *unused) {
  (void)unused;
  CUdeviceptr p;
  CHECK(cuMemAllocAsync(&p, 256, stream));
  CHECK(cuMemFreeAsync(p, stream));
}

int main(int argc, char **argv) {
  int batch = argc > 1 ? atoi(argv[1]) : 200;
  /* The second argument: rounds of the per-call figures, or how many waits. */
  int rounds = argc > 2 ? atoi(argv[2]) : 300, waits = rounds;
  CUdeviceptr word;
  primaryContext();
  CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CHECK(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING));
  CHECK(cuMemAlloc(&word, 4));

  if (argc > 3 && strcmp(argv[3], "wait") == 0) {
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
    double record = perBatch(eventRecordQuery, NULL, stream, batch, rounds);
    double create = perBatch(streamCreateDestroy, NULL, stream, batch, rounds);
    double alloc = perBatch(allocFreeAsync, NULL, stream, batch, rounds);
    printf("{\"eventRecordQuery\": %.1f, \"streamCreateDestroy\": %.1f, \"allocFreeAsync\": %.1f}\n", record, create, alloc);
  }
  CHECK(cuMemFree(word));
  CHECK(cuEventDestroy(event));
  CHECK(cuStreamDestroy(stream));
  return 0;
}
