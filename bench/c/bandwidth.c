/* Host<->device copy bandwidth with the driver API: the C baseline of
 * bench/copy-bandwidth.js. Synchronous cuMemcpyHtoD / cuMemcpyDtoH between a
 * device buffer and pinned (cuMemAllocHost) or pageable (malloc) host memory,
 * for each size given. Each figure is the median over repetitions of one
 * copy's bandwidth; repetitions fall with the size (argv[2] at 256 MiB, more
 * for small copies, at most 2000). From pageable memory, cuMemcpyHtoD returns
 * once the bytes are staged, before the DMA has run; a copy without a stream
 * in the library returns once they have landed (lib/memory/copy.ts), so here
 * too the legacy stream is synchronized after each one, inside the timing.
 * Usage: bandwidth <pinned|pageable> <repetitions at 256 MiB> <bytes>...
 * Prints {"<bytes>": {"h2d": GB/s, "d2h": GB/s}, ...}. */
#include "timing.h"
#include <string.h>

/* The repetitions for a copy of bytes: base at 256 MiB, scaled up for smaller copies. */
static int repetitionsFor(size_t bytes, int base) {
  double scaled = (double)base * (double)((size_t)256 << 20) / (double)bytes;
  return scaled > 2000 ? 2000 : scaled < base ? base : (int)scaled;
}

int main(int argc, char **argv) {
  if (argc < 4 || (strcmp(argv[1], "pinned") != 0 && strcmp(argv[1], "pageable") != 0)) {
    fprintf(stderr, "usage: %s <pinned|pageable> <repetitions> <bytes>...\n", argv[0]);
    return 2;
  }
  int pinned = strcmp(argv[1], "pinned") == 0;
  int base = atoi(argv[2]);
  size_t largest = 0;
  for (int a = 3; a < argc; a++) {
    size_t bytes = strtoull(argv[a], NULL, 10);
    if (bytes > largest) largest = bytes;
  }
  CUdeviceptr d;
  void *h;
  primaryContext();
  CHECK(cuMemAlloc(&d, largest));
  if (pinned) {
    CHECK(cuMemAllocHost(&h, largest));
  } else if (!(h = malloc(largest))) {
    fprintf(stderr, "malloc of %zu bytes failed\n", largest);
    return 1;
  }
  memset(h, 1, largest); /* pageable pages exist before the first copy */
  printf("{");
  for (int a = 3; a < argc; a++) {
    size_t bytes = strtoull(argv[a], NULL, 10);
    int reps = repetitionsFor(bytes, base);
    double *h2d = malloc(sizeof(double) * reps), *d2h = malloc(sizeof(double) * reps);
    CHECK(cuMemcpyHtoD(d, h, bytes)); /* warm-up */
    CHECK(cuMemcpyDtoH(h, d, bytes));
    for (int i = 0; i < reps; i++) {
      double t0 = nanoseconds();
      CHECK(cuMemcpyHtoD(d, h, bytes));
      if (!pinned) CHECK(cuStreamSynchronize(CU_STREAM_LEGACY));
      double t1 = nanoseconds();
      CHECK(cuMemcpyDtoH(h, d, bytes));
      double t2 = nanoseconds();
      h2d[i] = bytes / (t1 - t0); /* bytes per ns = GB/s */
      d2h[i] = bytes / (t2 - t1);
    }
    printf("%s\"%zu\": {\"h2d\": %.4f, \"d2h\": %.4f}", a > 3 ? ", " : "", bytes, median(h2d, reps), median(d2h, reps));
    free(h2d);
    free(d2h);
  }
  printf("}\n");
  if (pinned) CHECK(cuMemFreeHost(h));
  else free(h);
  CHECK(cuMemFree(d));
  return 0;
}
