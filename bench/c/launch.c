/* Host time per launch of an empty kernel with 0, 4 and 16 arguments: the C
 * baseline of bench/launch.js. The kernels come from the CUBIN the JavaScript
 * side compiled (argv[1]) and are launched as that side launches them: library
 * kernels (cuLibraryLoadFromFile, cuLibraryGetKernel) cast to CUfunction, with
 * cuLaunchKernel and a kernelParams array prepared once, on a non-blocking
 * stream of the primary context. Usage: launch <cubin> <batch> <rounds>.
 * Prints {"0": ns, "4": ns, "16": ns}: the median over rounds of a batch's
 * host time divided by the batch size (the stream is drained between batches). */
#include "timing.h"
#include "empty_args.h"

/* One launch: a block of 32 threads of f on stream with params. */
struct launch {
  CUfunction f;
  CUstream stream;
  void **params;
};

static void launchOnce(void *arg) {
  const struct launch *l = arg;
  CHECK(cuLaunchKernel(l->f, 1, 1, 1, 32, 1, 1, 0, l->stream, l->params, NULL));
}

static double perLaunch(CUfunction f, CUstream stream, void **params, int batch, int rounds) {
  struct launch l = {f, stream, params};
  return perBatch(launchOnce, &l, stream, batch, rounds);
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s <cubin> <batch> <rounds>\n", argv[0]);
    return 2;
  }
  int batch = atoi(argv[2]), rounds = atoi(argv[3]);
  CUstream stream;
  CUlibrary lib;
  CUkernel k0, k4, k16;
  primaryContext();
  CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CHECK(cuLibraryLoadFromFile(&lib, argv[1], NULL, NULL, 0, NULL, NULL, 0));
  CHECK(cuLibraryGetKernel(&k0, lib, "empty0"));
  CHECK(cuLibraryGetKernel(&k4, lib, "empty4"));
  CHECK(cuLibraryGetKernel(&k16, lib, "empty16"));
  CUdeviceptr buffer;
  CHECK(cuMemAlloc(&buffer, 1024));

  struct emptyArgs args;
  emptyArgsFor(&args, buffer, 0);

  double t0 = perLaunch((CUfunction)k0, stream, NULL, batch, rounds);
  double t4 = perLaunch((CUfunction)k4, stream, args.params4, batch, rounds);
  double t16 = perLaunch((CUfunction)k16, stream, args.params16, batch, rounds);
  printf("{\"0\": %.1f, \"4\": %.1f, \"16\": %.1f}\n", t0, t4, t16);
  CHECK(cuMemFree(buffer));
  CHECK(cuLibraryUnload(lib));
  CHECK(cuStreamDestroy(stream));
  return 0;
}
