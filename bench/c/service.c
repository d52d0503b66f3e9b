/* The service benchmark's C baseline (bench/service.js says what a request
 * does and how its result is checked): the same requests with one thread per
 * request in flight, each on its own slot (a non-blocking stream, pinned input
 * and output from cuMemAllocHost, a device buffer and an executable of the
 * 20-node chain of `affine` from the CUBIN the JavaScript side compiled, built
 * with cuGraphAddNode), cuMemcpyHtoDAsync, cuGraphLaunch, cuMemcpyDtoHAsync
 * and cuStreamSynchronize. Threads take request numbers from a shared counter
 * and start together at a barrier, after their context is current.
 * Usage: service <cubin> <identity: 1 over the stand-in> <requests> <concurrency>...
 * Prints {"N": {"throughput": requests/s, "p50": ns, "p99": ns}, ...}; a wrong
 * result word ends the program with an error. */
#include "timing.h"
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

enum { kWords = 1 << 18, kNodes = 20, kBlock = 256, kTags = 64, kStride = kWords / kTags };

static uint32_t hash(uint32_t i) { return i * 0x9E3779B1u; }

/* Node k's constants: it computes x * a + b. */
static void step(unsigned k, uint32_t *a, uint32_t *b) {
  *a = 2 * k + 3;
  *b = (k + 1) * 16777619u;
}

/* The chain's composition: x -> x * A + B. */
static uint32_t A = 1, B = 0;
static uint32_t transform(uint32_t x) { return x * A + B; }

struct slot {
  CUstream stream;
  uint32_t *input, *output;
  CUdeviceptr device;
  CUgraphExec exec;
};

static struct slot makeSlot(CUkernel kernel, CUcontext ctx) {
  struct slot s;
  CHECK(cuStreamCreate(&s.stream, CU_STREAM_NON_BLOCKING));
  CHECK(cuMemAllocHost((void **)&s.input, kWords * 4));
  CHECK(cuMemAllocHost((void **)&s.output, kWords * 4));
  CHECK(cuMemAlloc(&s.device, kWords * 4));
  for (uint32_t i = 0; i < kWords; i++) s.input[i] = hash(i);
  CUgraph graph;
  CUgraphNode previous = NULL, node;
  CHECK(cuGraphCreate(&graph, 0));
  for (unsigned k = 0; k < kNodes; k++) {
    uint32_t a, b, n = kWords;
    step(k, &a, &b);
    void *args[] = {&s.device, &a, &b, &n};
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_KERNEL;
    p.kernel.kern = kernel;
    p.kernel.ctx = ctx;
    p.kernel.gridDimX = kWords / kBlock;
    p.kernel.gridDimY = p.kernel.gridDimZ = 1;
    p.kernel.blockDimX = kBlock;
    p.kernel.blockDimY = p.kernel.blockDimZ = 1;
    p.kernel.kernelParams = args;
    CHECK(cuGraphAddNode(&node, graph, previous ? &previous : NULL, NULL, previous ? 1 : 0, &p));
    previous = node;
  }
  CHECK(cuGraphInstantiateWithFlags(&s.exec, graph, 0));
  CHECK(cuGraphDestroy(graph));
  return s;
}

static void wrong(unsigned id, unsigned i, uint32_t got, uint32_t expected) {
  fprintf(stderr, "service: request %u: word %u is %u, expected %u\n", id, i, got, expected);
  exit(1);
}

/* Exits unless the download of request id is its transformed input: at the sampled words, or every word. */
static void check(const struct slot *s, unsigned id, int every) {
  for (unsigned j = 0; j < kTags; j++) {
    unsigned tagged = j * kStride, last = tagged + kStride - 1;
    if (s->output[tagged] != transform(id * kTags + j)) wrong(id, tagged, s->output[tagged], transform(id * kTags + j));
    if (s->output[last] != transform(hash(last))) wrong(id, last, s->output[last], transform(hash(last)));
    if (every) {
      for (unsigned i = tagged + 1; i < last; i++) {
        if (s->output[i] != transform(hash(i))) wrong(id, i, s->output[i], transform(hash(i)));
      }
    }
  }
}

/* One closed-loop run: count requests numbered from first; with full, the
 * first of each thread is checked at every word. */
struct run {
  CUcontext ctx;
  unsigned first, count;
  int full;
  atomic_uint next;
  double *latencies;
  pthread_barrier_t start;
};

struct worker {
  struct run *run;
  struct slot *slot;
};

static void *serve(void *arg) {
  const struct worker *w = arg;
  struct run *run = w->run;
  struct slot *s = w->slot;
  CHECK(cuCtxSetCurrent(run->ctx));
  pthread_barrier_wait(&run->start);
  int every = run->full;
  for (unsigned i; (i = atomic_fetch_add(&run->next, 1)) < run->count; every = 0) {
    unsigned id = run->first + i;
    double t0 = nanoseconds();
    for (unsigned j = 0; j < kTags; j++) s->input[j * kStride] = id * kTags + j;
    CHECK(cuMemcpyHtoDAsync(s->device, s->input, kWords * 4, s->stream));
    CHECK(cuGraphLaunch(s->exec, s->stream));
    CHECK(cuMemcpyDtoHAsync(s->output, s->device, kWords * 4, s->stream));
    CHECK(cuStreamSynchronize(s->stream));
    run->latencies[i] = nanoseconds() - t0;
    check(s, id, every);
  }
  return NULL;
}

/* Runs count requests from first with n threads on the first n slots; returns the seconds from the start to the last result. */
static double serveAll(CUcontext ctx, struct slot *slots, int n, unsigned first, unsigned count, int full, double *latencies) {
  struct run run = {.ctx = ctx, .first = first, .count = count, .full = full, .latencies = latencies};
  atomic_init(&run.next, 0);
  pthread_barrier_init(&run.start, NULL, n + 1);
  pthread_t *threads = malloc(sizeof(pthread_t) * n);
  struct worker *workers = malloc(sizeof(struct worker) * n);
  if (!threads || !workers) {
    fprintf(stderr, "malloc of %d workers failed\n", n);
    exit(1);
  }
  for (int k = 0; k < n; k++) {
    workers[k] = (struct worker){&run, &slots[k]};
    if (pthread_create(&threads[k], NULL, serve, &workers[k]) != 0) {
      fprintf(stderr, "pthread_create failed\n");
      exit(1);
    }
  }
  pthread_barrier_wait(&run.start);
  double t0 = nanoseconds();
  for (int k = 0; k < n; k++) pthread_join(threads[k], NULL);
  double seconds = (nanoseconds() - t0) / 1e9;
  pthread_barrier_destroy(&run.start);
  free(threads);
  free(workers);
  return seconds;
}

/* The q-quantile of sorted values (nearest rank), as service.js takes it. */
static double quantile(const double *sorted, unsigned n, double q) {
  long at = (long)ceil(q * n) - 1;
  return sorted[at < 0 ? 0 : at];
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s <cubin> <identity> <requests> <concurrency>...\n", argv[0]);
    return 2;
  }
  int identity = atoi(argv[2]);
  unsigned requests = (unsigned)atoi(argv[3]);
  if (!identity) {
    for (unsigned k = 0; k < kNodes; k++) {
      uint32_t a, b;
      step(k, &a, &b);
      A = a * A;
      B = a * B + b;
    }
  }
  int most = 0;
  for (int i = 4; i < argc; i++) most = atoi(argv[i]) > most ? atoi(argv[i]) : most;
  CUcontext ctx = primaryContext();
  CUlibrary lib;
  CUkernel kernel;
  CHECK(cuLibraryLoadFromFile(&lib, argv[1], NULL, NULL, 0, NULL, NULL, 0));
  CHECK(cuLibraryGetKernel(&kernel, lib, "affine"));
  struct slot *slots = malloc(sizeof(struct slot) * most);
  unsigned warmups = 4 * most > 200 ? 4 * most : 200;
  double *latencies = malloc(sizeof(double) * (requests > warmups ? requests : warmups));
  if (!slots || !latencies) {
    fprintf(stderr, "malloc failed\n");
    return 1;
  }
  for (int k = 0; k < most; k++) slots[k] = makeSlot(kernel, ctx);

  printf("{");
  for (int i = 4; i < argc; i++) {
    int n = atoi(argv[i]);
    unsigned warmup = 4 * n > 200 ? 4 * n : 200;
    serveAll(ctx, slots, n, 0, warmup, 1, latencies);
    double seconds = serveAll(ctx, slots, n, warmup, requests, 0, latencies);
    qsort(latencies, requests, sizeof(double), compareDoubles);
    printf("%s\"%d\": {\"throughput\": %.1f, \"p50\": %.1f, \"p99\": %.1f}", i > 4 ? ", " : "", n, requests / seconds,
           quantile(latencies, requests, 0.5), quantile(latencies, requests, 0.99));
  }
  printf("}\n");

  for (int k = 0; k < most; k++) {
    CHECK(cuGraphExecDestroy(slots[k].exec));
    CHECK(cuMemFree(slots[k].device));
    CHECK(cuMemFreeHost(slots[k].input));
    CHECK(cuMemFreeHost(slots[k].output));
    CHECK(cuStreamDestroy(slots[k].stream));
  }
  CHECK(cuLibraryUnload(lib));
  free(slots);
  free(latencies);
  return 0;
}
