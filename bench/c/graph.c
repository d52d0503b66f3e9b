/* Graphs with the driver API: the C baseline of bench/graph.js. A chain of N
 * kernel nodes (empty0 from the CUBIN the JavaScript side compiled, argv[1],
 * loaded as a library), built node by node with cuGraphAddNode as the
 * JavaScript builder does. First the process's first build, a chain of the
 * last N given, before any other graph work. Then for each N of argv[2..]:
 * build time (the median of seven builds), instantiate
 * time, whole-graph update time (from a second graph of the same shape) and
 * host time per cuGraphLaunch (median over rounds of a batch, the stream
 * drained between batches). Then the host time of a kernel-node parameter
 * update on an executable (cuGraphExecNodeSetParams on a one-node graph of
 * empty4, a new argument each time; median over rounds of a batch).
 * Prints {"firstBuild": {"nodes": N, "ns": ns},
 *         "chains": {"N": {"build": ns, "instantiate": ns, "update": ns, "launch": ns}, ...},
 *         "kernelNodeUpdate": ns}. */
#include "timing.h"
#include <string.h>

/* Kernel node parameters: one block of 32 threads of kernel in ctx. */
static CUgraphNodeParams kernelNode(CUkernel kernel, CUcontext ctx, void **args) {
  CUgraphNodeParams p;
  memset(&p, 0, sizeof p);
  p.type = CU_GRAPH_NODE_TYPE_KERNEL;
  p.kernel.kern = kernel;
  p.kernel.ctx = ctx;
  p.kernel.gridDimX = p.kernel.gridDimY = p.kernel.gridDimZ = 1;
  p.kernel.blockDimX = 32;
  p.kernel.blockDimY = p.kernel.blockDimZ = 1;
  p.kernel.kernelParams = args;
  return p;
}

/* A new graph of n nodes of kernel, each after the one before. */
static CUresult buildChain(CUkernel kernel, CUcontext ctx, int n, CUgraph *graph) {
  CUresult r = cuGraphCreate(graph, 0);
  CUgraphNode previous = NULL, node;
  for (int i = 0; r == CUDA_SUCCESS && i < n; i++) {
    CUgraphNodeParams p = kernelNode(kernel, ctx, NULL);
    r = cuGraphAddNode(&node, *graph, previous ? &previous : NULL, NULL, previous ? 1 : 0, &p);
    previous = node;
  }
  return r;
}

static CUgraph chain(CUkernel kernel, CUcontext ctx, int n, double *ns) {
  CUgraph graph;
  double t0 = nanoseconds();
  CHECK(buildChain(kernel, ctx, n, &graph));
  *ns = nanoseconds() - t0;
  return graph;
}

/* The build time of a chain of n: the median of kBuilds builds, as the
 * JavaScript and Python sides take theirs. */
enum { kBuilds = 7 };
static double buildTime(CUkernel kernel, CUcontext ctx, int n) {
  double times[kBuilds];
  for (int i = 0; i < kBuilds; i++) CHECK(cuGraphDestroy(chain(kernel, ctx, n, &times[i])));
  return median(times, kBuilds);
}

/* One launch of exec on stream. */
struct graphLaunch {
  CUgraphExec exec;
  CUstream stream;
};

static void launchGraph(void *arg) {
  const struct graphLaunch *l = arg;
  CHECK(cuGraphLaunch(l->exec, l->stream));
}

/* One update of a kernel node of exec to p, whose last argument *n changes
 * every time (from count, which counts the updates). */
struct nodeUpdate {
  CUgraphExec exec;
  CUgraphNode node;
  CUgraphNodeParams *p;
  unsigned *n;
  unsigned count;
};

static void updateNode(void *arg) {
  struct nodeUpdate *u = arg;
  *u->n = u->count++ & 1023;
  CHECK(cuGraphExecNodeSetParams(u->exec, u->node, u->p));
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s <cubin> <nodes>...\n", argv[0]);
    return 2;
  }
  CUlibrary lib;
  CUkernel kernel, kernel4;
  CUstream stream;
  CUdeviceptr buffer;
  CUcontext ctx = primaryContext();
  CHECK(cuLibraryLoadFromFile(&lib, argv[1], NULL, NULL, 0, NULL, NULL, 0));
  CHECK(cuLibraryGetKernel(&kernel, lib, "empty0"));
  CHECK(cuLibraryGetKernel(&kernel4, lib, "empty4"));
  CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CHECK(cuMemAlloc(&buffer, 1024));
  /* The process's first build, as the JavaScript side times its own: the
   * driver's first graph work is in it. */
  int firstNodes = atoi(argv[argc - 1]);
  double firstBuild;
  CHECK(cuGraphDestroy(chain(kernel, ctx, firstNodes, &firstBuild)));
  printf("{\"firstBuild\": {\"nodes\": %d, \"ns\": %.0f}, \"chains\": {", firstNodes, firstBuild);
  for (int a = 2; a < argc; a++) {
    int n = atoi(argv[a]);
    int rounds = n >= 1000 ? 30 : 200, batch = n >= 1000 ? 5 : 50;
    double ignored;
    double build = buildTime(kernel, ctx, n);
    CUgraph graph = chain(kernel, ctx, n, &ignored);
    CUgraph other = chain(kernel, ctx, n, &ignored);
    CUgraphExec exec;
    double t0 = nanoseconds();
    CHECK(cuGraphInstantiate(&exec, graph, 0));
    double instantiate = nanoseconds() - t0;
    CUgraphExecUpdateResultInfo info;
    t0 = nanoseconds();
    CHECK(cuGraphExecUpdate(exec, other, &info));
    double update = nanoseconds() - t0;
    struct graphLaunch l = {exec, stream};
    double launch = perBatch(launchGraph, &l, stream, batch, rounds);
    printf("%s\"%d\": {\"build\": %.0f, \"instantiate\": %.0f, \"update\": %.0f, \"launch\": %.1f}",
           a > 2 ? ", " : "", n, build, instantiate, update, launch);
    CHECK(cuGraphExecDestroy(exec));
    CHECK(cuGraphDestroy(graph));
    CHECK(cuGraphDestroy(other));
  }

  /* empty4(float* a, const float* b, float c, unsigned n): a new n at every update. */
  CUdeviceptr a4 = buffer, b4 = buffer + 256;
  float c4 = 2.0f;
  unsigned n4 = 1000;
  void *args4[] = {&a4, &b4, &c4, &n4};
  CUgraph single;
  CUgraphNode node;
  CUgraphExec exec;
  CUgraphNodeParams p = kernelNode(kernel4, ctx, args4);
  CHECK(cuGraphCreate(&single, 0));
  CHECK(cuGraphAddNode(&node, single, NULL, NULL, 0, &p));
  CHECK(cuGraphInstantiate(&exec, single, 0));
  struct nodeUpdate u = {exec, node, &p, &n4, 0};
  printf("}, \"kernelNodeUpdate\": %.1f}\n", perBatch(updateNode, &u, NULL, 100, 300));
  CHECK(cuGraphExecDestroy(exec));
  CHECK(cuGraphDestroy(single));
  CHECK(cuMemFree(buffer));
  CHECK(cuStreamDestroy(stream));
  CHECK(cuLibraryUnload(lib));
  return 0;
}
