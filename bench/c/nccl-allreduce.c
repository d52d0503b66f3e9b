/* All-reduce with NCCL from C: the C baseline of bench/nccl.js. Two processes,
 * one GPU each: this process forks rank 1 before touching CUDA or NCCL, makes
 * the unique id as rank 0 and hands it to rank 1 through a pipe. NCCL is
 * opened by nccl_loader.h.
 *
 * Each rank: its device's primary context current, a non-blocking stream, one
 * buffer of the largest size (float32, all-reduced in place with ncclSum).
 * - bandwidth, for each size: iterations calls, then a stream sync, timed;
 *   after a warm-up; the median over repetitions of the time per call; busbw =
 *   bytes / time * 2(n-1)/n.
 * - host time per call (4 KiB, no sync in the loop): perBatch of timing.h,
 *   eagerly (ncclAllReduce) and captured (cuGraphLaunch of a graph holding one
 *   ncclAllReduce, captured in relaxed mode).
 * Refuses to run unless NCCL_NVLS_ENABLE=0 is in its environment (NVLink SHARP
 * stays off on shared hosts; bench/nccl.js sets it).
 * Usage: nccl-allreduce <repetitions> <batch> <rounds> <bytes>...
 * Rank 0 prints {"busbw": {"<bytes>": GB/s, ...}, "eager": ns, "captured": ns}. */
#include "timing.h"
#include "nccl_loader.h"

#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static ncclComm_t comm;
static CUstream stream;
static CUdeviceptr buffer;
static CUgraphExec exec;
static const size_t smallCount = 1024; /* 4 KiB of float32 */

static void eager(void *unused) {
  (void)unused;
  NCHECK(ncclAllReduce((void *)buffer, (void *)buffer, smallCount, ncclFloat32, ncclSum, comm, stream));
}

static void captured(void *unused) {
  (void)unused;
  CHECK(cuGraphLaunch(exec, stream));
}

static void fullRead(int fd, void *to, size_t n) {
  for (size_t got = 0; got < n;) {
    ssize_t r = read(fd, (char *)to + got, n - got);
    if (r <= 0) {
      fprintf(stderr, "rank 1: no unique id from rank 0\n");
      exit(1);
    }
    got += (size_t)r;
  }
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s <repetitions> <batch> <rounds> <bytes>...\n", argv[0]);
    return 2;
  }
  int reps = atoi(argv[1]), batch = atoi(argv[2]), rounds = atoi(argv[3]);
  size_t largest = 0;
  for (int a = 4; a < argc; a++) {
    size_t bytes = strtoull(argv[a], NULL, 10);
    if (bytes > largest) largest = bytes;
  }
  const char *nvls = getenv("NCCL_NVLS_ENABLE");
  if (!nvls || strcmp(nvls, "0") != 0) {
    fprintf(stderr, "set NCCL_NVLS_ENABLE=0: NVLink SHARP stays off\n");
    return 2;
  }
  int fds[2];
  if (pipe(fds) != 0) {
    perror("pipe");
    return 1;
  }
  fflush(stdout);
  pid_t child = fork();
  if (child < 0) {
    perror("fork");
    return 1;
  }
  /* Rank 1 must not outlive rank 0 (a timed-out run is killed through rank 0). */
  if (child == 0) prctl(PR_SET_PDEATHSIG, SIGKILL);
  int rank = child == 0 ? 1 : 0, size = 2;
  const char *missing = loadNccl();
  if (missing) {
    fprintf(stderr, "%s\n", missing);
    return 1;
  }
  ncclUniqueId id;
  if (rank == 0) {
    close(fds[0]);
    NCHECK(ncclGetUniqueId(&id));
    if (write(fds[1], &id, sizeof id) != (ssize_t)sizeof id) {
      perror("write");
      return 1;
    }
    close(fds[1]);
  } else {
    close(fds[1]);
    fullRead(fds[0], &id, sizeof id);
    close(fds[0]);
  }

  CUdevice dev;
  CUcontext ctx;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, rank));
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CHECK(cuMemAlloc(&buffer, largest));
  CHECK(cuMemsetD8(buffer, 0, largest));
  NCHECK(ncclCommInitRank(&comm, size, id, rank));

  double busFactor = 2.0 * (size - 1) / size;
  if (rank == 0) printf("{\"busbw\": {");
  for (int a = 4; a < argc; a++) {
    size_t bytes = strtoull(argv[a], NULL, 10);
    size_t count = bytes / 4;
    /* Enough calls per repetition that the sync after them weighs little. */
    int iterations = bytes <= (1 << 20) ? 50 : bytes <= (64 << 20) ? 10 : 2;
    for (int i = 0; i < 5; i++) NCHECK(ncclAllReduce((void *)buffer, (void *)buffer, count, ncclFloat32, ncclSum, comm, stream));
    CHECK(cuStreamSynchronize(stream));
    double *gbs = malloc(sizeof(double) * reps);
    if (!gbs) return 1;
    for (int r = 0; r < reps; r++) {
      double t0 = nanoseconds();
      for (int i = 0; i < iterations; i++) NCHECK(ncclAllReduce((void *)buffer, (void *)buffer, count, ncclFloat32, ncclSum, comm, stream));
      CHECK(cuStreamSynchronize(stream));
      gbs[r] = bytes / ((nanoseconds() - t0) / iterations) * busFactor;
    }
    if (rank == 0) printf("%s\"%zu\": %.4f", a > 4 ? ", " : "", bytes, median(gbs, reps));
    free(gbs);
  }

  double eagerNs = perBatch(eager, NULL, stream, batch, rounds);
  CUgraph graph;
  CHECK(cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_RELAXED));
  eager(NULL);
  CHECK(cuStreamEndCapture(stream, &graph));
  CHECK(cuGraphInstantiate(&exec, graph, 0));
  double capturedNs = perBatch(captured, NULL, stream, batch, rounds);
  if (rank == 0) printf("}, \"eager\": %.2f, \"captured\": %.2f}\n", eagerNs, capturedNs);
  fflush(stdout);

  CHECK(cuGraphExecDestroy(exec));
  CHECK(cuGraphDestroy(graph));
  NCHECK(ncclCommFinalize(comm));
  NCHECK(ncclCommDestroy(comm));
  CHECK(cuMemFree(buffer));
  CHECK(cuStreamDestroy(stream));
  if (rank == 1) return 0;
  int status = 0;
  if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fprintf(stderr, "rank 1 failed\n");
    return 1;
  }
  return 0;
}
