/* Graphs with the driver API: the C baseline of bench/graph.js. A chain of N
 * kernel nodes (an empty kernel from the CUBIN the JavaScript side compiled,
 * argv[1], loaded as a library), built node by node with cuGraphAddKernelNode.
 * Measures, for each N of argv[2..]: build time, instantiate time, whole-graph
 * update time (from a second graph of the same shape) and host time per
 * cuGraphLaunch (median over rounds of a batch, the stream drained between
 * batches). Prints {"N": {"build": ns, "instantiate": ns, "update": ns, "launch": ns}, ...}. */
#define _POSIX_C_SOURCE 199309L
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(call) do { CUresult r = (call); if (r != CUDA_SUCCESS) { fprintf(stderr, "%s failed: %d\n", #call, r); exit(1); } } while (0)

static double nanoseconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, n, sizeof(double), compare);
  return v[n / 2];
}

static void CUDA_CB nothing(void *data) { (void)data; }

/* With BENCH_USER_OBJECT set, each graph retains a CUDA user object, as the
 * JavaScript side's graphs do (to keep what their nodes use alive). */
static void maybeUserObject(CUgraph graph) {
  if (!getenv("BENCH_USER_OBJECT")) return;
  CUuserObject object;
  CHECK(cuUserObjectCreate(&object, NULL, nothing, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
  CHECK(cuGraphRetainUserObject(graph, object, 1, CU_GRAPH_USER_OBJECT_MOVE));
}

static CUgraph chain(CUkernel kernel, CUcontext ctx, int n, double *ns) {
  CUgraph graph;
  CUgraphNode previous = NULL, node;
  CUDA_KERNEL_NODE_PARAMS p = {0};
  p.kern = kernel;
  p.ctx = ctx;
  p.gridDimX = p.gridDimY = p.gridDimZ = 1;
  p.blockDimX = 32;
  p.blockDimY = p.blockDimZ = 1;
  double t0 = nanoseconds();
  CHECK(cuGraphCreate(&graph, 0));
  for (int i = 0; i < n; i++) {
    CHECK(cuGraphAddKernelNode(&node, graph, previous ? &previous : NULL, previous ? 1 : 0, &p));
    previous = node;
  }
  *ns = nanoseconds() - t0;
  maybeUserObject(graph);
  return graph;
}

int main(int argc, char **argv) {
  CUdevice dev;
  CUcontext ctx;
  CUlibrary lib;
  CUkernel kernel;
  CUstream stream;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  CHECK(cuLibraryLoadFromFile(&lib, argv[1], NULL, NULL, 0, NULL, NULL, 0));
  CHECK(cuLibraryGetKernel(&kernel, lib, "empty0"));
  CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  printf("{");
  for (int a = 2; a < argc; a++) {
    int n = atoi(argv[a]);
    int rounds = n >= 1000 ? 30 : 200, batch = n >= 1000 ? 5 : 50;
    double build, ignored;
    CUgraph graph = chain(kernel, ctx, n, &build);
    CUgraph other = chain(kernel, ctx, n, &ignored);
    CUgraphExec exec;
    double t0 = nanoseconds();
    CHECK(cuGraphInstantiate(&exec, graph, 0));
    double instantiate = nanoseconds() - t0;
    CUgraphExecUpdateResultInfo info;
    t0 = nanoseconds();
    CHECK(cuGraphExecUpdate(exec, other, &info));
    double update = nanoseconds() - t0;
    double *times = malloc(sizeof(double) * rounds);
    for (int i = 0; i < batch; i++) CHECK(cuGraphLaunch(exec, stream));
    CHECK(cuStreamSynchronize(stream));
    for (int r = 0; r < rounds; r++) {
      t0 = nanoseconds();
      for (int i = 0; i < batch; i++) CHECK(cuGraphLaunch(exec, stream));
      times[r] = (nanoseconds() - t0) / batch;
      CHECK(cuStreamSynchronize(stream));
    }
    printf("%s\"%d\": {\"build\": %.0f, \"instantiate\": %.0f, \"update\": %.0f, \"launch\": %.1f}", a > 2 ? ", " : "", n,
           build, instantiate, update, median(times, rounds));
    free(times);
    CHECK(cuGraphExecDestroy(exec));
    CHECK(cuGraphDestroy(graph));
    CHECK(cuGraphDestroy(other));
  }
  printf("}\n");
  return 0;
}
