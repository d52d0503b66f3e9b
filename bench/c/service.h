/* The service benchmark's C baseline (bench/service.js says what a request
 * does and how its result is checked): the same requests with one thread per
 * request in flight, each on its own slot (a non-blocking stream, pinned input
 * and output from cuMemAllocHost, a device buffer and an executable of the
 * 20-node chain of `affine` from the CUBIN the JavaScript side compiled, built
 * with cuGraphAddNode), cuMemcpyHtoDAsync, cuGraphLaunch, cuMemcpyDtoHAsync
 * and cuStreamSynchronize. Threads take request numbers from a shared counter
 * and start together at a barrier, after their context is current. A wrong
 * result word ends the process with an error. Two programs run it: service.c,
 * a process of its own, and service-inprocess.c, inside the JavaScript
 * benchmark's process, in turn with the JavaScript service. */
#ifndef BENCH_SERVICE_H
#define BENCH_SERVICE_H
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

/* The slots of the most requests in flight, and what they were made from. */
struct service {
  CUcontext ctx;
  CUlibrary lib;
  CUkernel kernel;
  struct slot *slots;
  int most;
  double *latencies; /* room for `room` latencies */
  unsigned room;
};

/* One run's figures: requests per second, and the p50 and p99 latency in ns. */
struct serviceFigures {
  double throughput, p50, p99;
};

static unsigned warmupOf(int n) { return 4 * n > 200 ? 4 * (unsigned)n : 200; }

/* Loads cubin's `affine` in device 0's primary context and makes most slots;
 * runs of up to `requests` requests follow. identity: the stand-in's kernels
 * do nothing, so a result is its input. */
static void serviceOpen(struct service *svc, const char *cubin, int identity, int most, unsigned requests) {
  A = 1;
  B = 0;
  if (!identity) {
    for (unsigned k = 0; k < kNodes; k++) {
      uint32_t a, b;
      step(k, &a, &b);
      A = a * A;
      B = a * B + b;
    }
  }
  svc->ctx = primaryContext();
  CHECK(cuLibraryLoadFromFile(&svc->lib, cubin, NULL, NULL, 0, NULL, NULL, 0));
  CHECK(cuLibraryGetKernel(&svc->kernel, svc->lib, "affine"));
  unsigned room = requests > warmupOf(most) ? requests : warmupOf(most);
  svc->most = most;
  svc->room = room;
  svc->slots = malloc(sizeof(struct slot) * most);
  svc->latencies = malloc(sizeof(double) * room);
  if (!svc->slots || !svc->latencies) {
    fprintf(stderr, "malloc failed\n");
    exit(1);
  }
  for (int k = 0; k < most; k++) svc->slots[k] = makeSlot(svc->kernel, svc->ctx);
}

/* requests at n in flight on the first n slots, after a warm-up of max(200, 4n)
 * whose first request of each thread is checked at every word. */
static struct serviceFigures serviceRun(struct service *svc, int n, unsigned requests) {
  unsigned warmup = warmupOf(n);
  serveAll(svc->ctx, svc->slots, n, 0, warmup, 1, svc->latencies);
  double seconds = serveAll(svc->ctx, svc->slots, n, warmup, requests, 0, svc->latencies);
  qsort(svc->latencies, requests, sizeof(double), compareDoubles);
  return (struct serviceFigures){requests / seconds, quantile(svc->latencies, requests, 0.5),
                                 quantile(svc->latencies, requests, 0.99)};
}

static void serviceClose(struct service *svc) {
  for (int k = 0; k < svc->most; k++) {
    CHECK(cuGraphExecDestroy(svc->slots[k].exec));
    CHECK(cuMemFree(svc->slots[k].device));
    CHECK(cuMemFreeHost(svc->slots[k].input));
    CHECK(cuMemFreeHost(svc->slots[k].output));
    CHECK(cuStreamDestroy(svc->slots[k].stream));
  }
  CHECK(cuLibraryUnload(svc->lib));
  free(svc->slots);
  free(svc->latencies);
}

#endif
