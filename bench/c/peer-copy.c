/* Peer-copy bandwidth between devices 0 and 1 with the driver API: the C
 * baseline of bench/peer-copy.js. cuMemcpyPeerAsync between a buffer on each
 * device, each way, on a non-blocking stream of the source device, the stream
 * synchronized after each copy inside the timing; peer access is enabled both
 * ways where the devices allow it, as on the JavaScript side. Each figure is
 * the median over repetitions of one copy's bandwidth; repetitions fall with
 * the size (argv[1] at 256 MiB, more for small copies, at most 2000).
 * Usage: peer-copy <repetitions at 256 MiB> <bytes>...
 * Prints {"<bytes>": {"0to1": GB/s, "1to0": GB/s}, ...}. */
#include "timing.h"

/* The repetitions for a copy of bytes: base at 256 MiB, scaled up for smaller copies. */
static int repetitionsFor(size_t bytes, int base) {
  double scaled = (double)base * (double)((size_t)256 << 20) / (double)bytes;
  return scaled > 2000 ? 2000 : scaled < base ? base : (int)scaled;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s <repetitions> <bytes>...\n", argv[0]);
    return 2;
  }
  int base = atoi(argv[1]);
  size_t largest = 0;
  for (int a = 2; a < argc; a++) {
    size_t bytes = strtoull(argv[a], NULL, 10);
    if (bytes > largest) largest = bytes;
  }
  int count = 0;
  CHECK(cuInit(0));
  CHECK(cuDeviceGetCount(&count));
  if (count < 2) {
    fprintf(stderr, "two devices needed, %d visible\n", count);
    return 1;
  }
  CUdevice dev[2];
  CUcontext ctx[2];
  CUdeviceptr buf[2];
  CUstream stream[2];
  for (int k = 0; k < 2; k++) {
    CHECK(cuDeviceGet(&dev[k], k));
    CHECK(cuDevicePrimaryCtxRetain(&ctx[k], dev[k]));
  }
  for (int k = 0; k < 2; k++) {
    int can = 0;
    CHECK(cuDeviceCanAccessPeer(&can, dev[k], dev[1 - k]));
    CHECK(cuCtxSetCurrent(ctx[k]));
    if (can) {
      CUresult r = cuCtxEnablePeerAccess(ctx[1 - k], 0);
      if (r != CUDA_SUCCESS && r != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) CHECK(r);
    }
    CHECK(cuMemAlloc(&buf[k], largest));
    CHECK(cuMemsetD8(buf[k], 1, largest));
    CHECK(cuStreamCreate(&stream[k], CU_STREAM_NON_BLOCKING));
  }
  printf("{");
  for (int a = 2; a < argc; a++) {
    size_t bytes = strtoull(argv[a], NULL, 10);
    int reps = repetitionsFor(bytes, base);
    double *gbs = malloc(sizeof(double) * reps);
    double figure[2];
    for (int src = 0; src < 2; src++) {
      int dst = 1 - src;
      CHECK(cuCtxSetCurrent(ctx[src]));
      CHECK(cuMemcpyPeerAsync(buf[dst], ctx[dst], buf[src], ctx[src], bytes, stream[src])); /* warm-up */
      CHECK(cuStreamSynchronize(stream[src]));
      for (int i = 0; i < reps; i++) {
        double t0 = nanoseconds();
        CHECK(cuMemcpyPeerAsync(buf[dst], ctx[dst], buf[src], ctx[src], bytes, stream[src]));
        CHECK(cuStreamSynchronize(stream[src]));
        gbs[i] = bytes / (nanoseconds() - t0); /* bytes per ns = GB/s */
      }
      figure[src] = median(gbs, reps);
    }
    printf("%s\"%zu\": {\"0to1\": %.4f, \"1to0\": %.4f}", a > 2 ? ", " : "", bytes, figure[0], figure[1]);
    free(gbs);
  }
  printf("}\n");
  for (int k = 0; k < 2; k++) {
    CHECK(cuCtxSetCurrent(ctx[k]));
    CHECK(cuStreamDestroy(stream[k]));
    CHECK(cuMemFree(buf[k]));
    CHECK(cuDevicePrimaryCtxRelease(dev[k]));
  }
  return 0;
}
