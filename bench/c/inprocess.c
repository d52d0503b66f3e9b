/* C in the JavaScript process: a Node-API module, in C, that makes the calls
 * the JavaScript side times (bench/graph.js, bench/launch.js, bench/calls.js,
 * bench/copy-bandwidth.js) on the very handles it uses: the same executable
 * graph, kernel or event, on the same stream, the same buffers,
 * in the same process, between its batches (common.js pairedPerCall). A
 * separate C process (bench/c/graph.c, launch.c, calls.c) meets another moment of the
 * host and the GPU: on the GPU host its own per-launch figure for a
 * 1000-node graph moved from 2.1 to 5.3 us between runs a second apart, ten
 * times what the binding adds; taken in turn on one handle, the two sides
 * see the same state.
 *
 * graphLaunches(exec, stream, count) -> ns: count cuGraphLaunch calls.
 * kernelLaunches(kernel, stream, arity, buffer, count) -> ns: count
 * cuLaunchKernel calls of empty0, empty4 or empty16 (arity 0, 4 or 16; one
 * block of 32 threads) with a kernelParams array made once, as
 * bench/c/launch.c makes them, its pointers into the device buffer.
 * graphUpdate(exec, graph) -> ns: one cuGraphExecUpdate of exec from graph
 * (the graphs JavaScript built: the driver's work on them, without the binding).
 * copies(toDevice, device, host, bytes, count) -> ns: count synchronous
 * copies of bytes between device memory and page-locked host memory
 * (cuMemcpyHtoD when toDevice is true, else cuMemcpyDtoH), as
 * bench/c/bandwidth.c makes them, on the buffers JavaScript copies between
 * (bench/copy-bandwidth.js).
 * allocOne(stream, bytes) -> address and freeOne(stream, address): one
 * cuMemAllocAsync, one cuMemFreeAsync (the address as a number): the
 * allocation and the free as two calls from JavaScript, untimed, for the
 * control of alloc + free (bench/calls.js).
 * chainBuild(kernel, count) -> ns: a graph made, count kernel nodes of kernel
 * (a library kernel, one block of 32 threads, no arguments) added each after
 * the one before as bench/c/graph.c builds its chains, then the graph
 * destroyed, untimed. graphCreate() -> graph, chainNode(graph, kernel,
 * previous) -> node (previous 0n: none) and graphDestroy(graph): the same
 * build a call per node from JavaScript, untimed, for the control of builds
 * (bench/graph.js).
 * nodeUpdateTarget(exec, node, kernel, buffer), then nodeUpdates(count) ->
 * ns: count cuGraphExecNodeSetParams calls giving node, a kernel node of
 * exec, empty4 of the library kernel kernel, one block of 32 threads, its
 * last argument new each time, as bench/c/graph.c updates its node
 * (bench/graph.js). The target is set once, so that a call of nodeUpdates
 * from JavaScript reads one number: the control of updates is a bare crossing.
 * Handles are bigints (GraphExec.handle, Graph.handle, Kernel.handle of a library kernel,
 * Stream.handle, DeviceBuffer.address, HostBuffer.address); each call is timed here with the
 * clock the C baselines use. The caller keeps the handles alive and their
 * context current (any JavaScript call on them has made it so). */
#include "timing.h"
#include <string.h>
#include "empty_args.h"
#include "napi_helpers.h"

/* The arguments (a, b, count) of a loop over two handles: false, with an
 * exception naming usage pending, when they are not two handles (bigints) and
 * a number. */
static bool twoHandlesAndCount(napi_env env, napi_callback_info info, const char *usage, uint64_t *a, uint64_t *b,
                               uint32_t *count) {
  size_t argc = 3;
  napi_value argv[3];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3 || !handleArg(env, argv[0], a) ||
      !handleArg(env, argv[1], b) || napi_get_value_uint32(env, argv[2], count) != napi_ok) {
    fail(env, usage);
    return false;
  }
  return true;
}

/* The arguments (handle, n) of a call on one handle: false, with an exception
 * naming usage pending, when they are not a handle (bigint) and a number. */
static bool handleAndNumber(napi_env env, napi_callback_info info, const char *usage, uint64_t *handle, uint32_t *n) {
  size_t argc = 2;
  napi_value argv[2];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2 || !handleArg(env, argv[0], handle) ||
      napi_get_value_uint32(env, argv[1], n) != napi_ok) {
    fail(env, usage);
    return false;
  }
  return true;
}

static napi_value graphLaunches(napi_env env, napi_callback_info info) {
  uint64_t exec, stream;
  uint32_t count;
  if (!twoHandlesAndCount(env, info, "graphLaunches(exec, stream, count): two handles (bigint) and a number", &exec, &stream, &count)) {
    return NULL;
  }
  double t0 = nanoseconds();
  for (uint32_t i = 0; i < count; i++) {
    CUresult r = cuGraphLaunch((CUgraphExec)(uintptr_t)exec, (CUstream)(uintptr_t)stream);
    if (r != CUDA_SUCCESS) return driverError(env, "cuGraphLaunch", r);
  }
  return number(env, nanoseconds() - t0);
}

static napi_value kernelLaunches(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  uint64_t kernel, stream, buffer;
  uint32_t arity, count;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 5) {
    return fail(env, "kernelLaunches(kernel, stream, arity, buffer, count)");
  }
  if (!handleArg(env, argv[0], &kernel) || !handleArg(env, argv[1], &stream) || !handleArg(env, argv[3], &buffer)) {
    return fail(env, "kernel, stream and buffer must be handles (bigint)");
  }
  if (napi_get_value_uint32(env, argv[2], &arity) != napi_ok || (arity != 0 && arity != 4 && arity != 16)) {
    return fail(env, "arity must be 0, 4 or 16");
  }
  if (napi_get_value_uint32(env, argv[4], &count) != napi_ok) return fail(env, "count must be a number");
  struct emptyArgs args;
  void **params = emptyArgsFor(&args, buffer, (int)arity);
  CUfunction function = (CUfunction)(uintptr_t)kernel;
  CUstream s = (CUstream)(uintptr_t)stream;
  double t0 = nanoseconds();
  for (uint32_t i = 0; i < count; i++) {
    CUresult r = cuLaunchKernel(function, 1, 1, 1, 32, 1, 1, 0, s, params, NULL);
    if (r != CUDA_SUCCESS) return driverError(env, "cuLaunchKernel", r);
  }
  return number(env, nanoseconds() - t0);
}

static napi_value graphUpdate(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  uint64_t exec, graph;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2) return fail(env, "graphUpdate(exec, graph)");
  if (!handleArg(env, argv[0], &exec) || !handleArg(env, argv[1], &graph)) return fail(env, "exec and graph must be handles (bigint)");
  CUgraphExecUpdateResultInfo result;
  double t0 = nanoseconds();
  CUresult r = cuGraphExecUpdate((CUgraphExec)(uintptr_t)exec, (CUgraph)(uintptr_t)graph, &result);
  double ns = nanoseconds() - t0;
  if (r != CUDA_SUCCESS) return driverError(env, "cuGraphExecUpdate", r);
  return number(env, ns);
}

static napi_value copies(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  bool toDevice;
  uint64_t device, host;
  uint32_t bytes, count;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 5) {
    return fail(env, "copies(toDevice, device, host, bytes, count)");
  }
  if (napi_get_value_bool(env, argv[0], &toDevice) != napi_ok) return fail(env, "toDevice must be a boolean");
  if (!handleArg(env, argv[1], &device) || !handleArg(env, argv[2], &host)) return fail(env, "device and host must be addresses (bigint)");
  if (napi_get_value_uint32(env, argv[3], &bytes) != napi_ok || napi_get_value_uint32(env, argv[4], &count) != napi_ok) {
    return fail(env, "bytes and count must be numbers");
  }
  CUdeviceptr d = (CUdeviceptr)device;
  void *h = (void *)(uintptr_t)host;
  double t0 = nanoseconds();
  for (uint32_t i = 0; i < count; i++) {
    CUresult r = toDevice ? cuMemcpyHtoD(d, h, bytes) : cuMemcpyDtoH(h, d, bytes);
    if (r != CUDA_SUCCESS) return driverError(env, toDevice ? "cuMemcpyHtoD" : "cuMemcpyDtoH", r);
  }
  return number(env, nanoseconds() - t0);
}

static napi_value eventRecordQueries(napi_env env, napi_callback_info info) {
  uint64_t event, stream;
  uint32_t count;
  if (!twoHandlesAndCount(env, info, "eventRecordQueries(event, stream, count): two handles (bigint) and a number", &event, &stream,
                          &count)) {
    return NULL;
  }
  CUevent e = (CUevent)(uintptr_t)event;
  CUstream s = (CUstream)(uintptr_t)stream;
  double t0 = nanoseconds();
  for (uint32_t i = 0; i < count; i++) {
    CUresult r = cuEventRecord(e, s);
    if (r != CUDA_SUCCESS) return driverError(env, "cuEventRecord", r);
    r = cuEventQuery(e);
    if (r != CUDA_SUCCESS && r != CUDA_ERROR_NOT_READY) return driverError(env, "cuEventQuery", r);
  }
  return number(env, nanoseconds() - t0);
}

static napi_value allocFrees(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  uint64_t stream;
  uint32_t bytes, count;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3) return fail(env, "allocFrees(stream, bytes, count)");
  if (!handleArg(env, argv[0], &stream)) return fail(env, "stream must be a handle (bigint)");
  if (napi_get_value_uint32(env, argv[1], &bytes) != napi_ok || napi_get_value_uint32(env, argv[2], &count) != napi_ok) {
    return fail(env, "bytes and count must be numbers");
  }
  CUstream s = (CUstream)(uintptr_t)stream;
  double t0 = nanoseconds();
  for (uint32_t i = 0; i < count; i++) {
    CUdeviceptr p;
    CUresult r = cuMemAllocAsync(&p, bytes, s);
    if (r != CUDA_SUCCESS) return driverError(env, "cuMemAllocAsync", r);
    r = cuMemFreeAsync(p, s);
    if (r != CUDA_SUCCESS) return driverError(env, "cuMemFreeAsync", r);
  }
  return number(env, nanoseconds() - t0);
}

static napi_value allocOne(napi_env env, napi_callback_info info) {
  uint64_t stream;
  uint32_t bytes;
  if (!handleAndNumber(env, info, "allocOne(stream, bytes): a handle (bigint) and a number", &stream, &bytes)) return NULL;
  CUdeviceptr p;
  CUresult r = cuMemAllocAsync(&p, bytes, (CUstream)(uintptr_t)stream);
  if (r != CUDA_SUCCESS) return driverError(env, "cuMemAllocAsync", r);
  return number(env, (double)p);
}

static napi_value freeOne(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  uint64_t stream;
  double address;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2 || !handleArg(env, argv[0], &stream) ||
      napi_get_value_double(env, argv[1], &address) != napi_ok) {
    return fail(env, "freeOne(stream, address): a handle (bigint) and a number");
  }
  CUresult r = cuMemFreeAsync((CUdeviceptr)address, (CUstream)(uintptr_t)stream);
  if (r != CUDA_SUCCESS) return driverError(env, "cuMemFreeAsync", r);
  return NULL;
}

/* The parameters of a chain's kernel node, as bench/c/graph.c makes them; the
 * library kernel runs in the current context. */
static CUresult chainNodeParams(CUkernel kernel, CUgraphNodeParams *p) {
  memset(p, 0, sizeof *p);
  p->type = CU_GRAPH_NODE_TYPE_KERNEL;
  p->kernel.kern = kernel;
  p->kernel.gridDimX = p->kernel.gridDimY = p->kernel.gridDimZ = 1;
  p->kernel.blockDimX = 32;
  p->kernel.blockDimY = p->kernel.blockDimZ = 1;
  return cuCtxGetCurrent(&p->kernel.ctx);
}

static napi_value chainBuild(napi_env env, napi_callback_info info) {
  uint64_t kernel;
  uint32_t count;
  if (!handleAndNumber(env, info, "chainBuild(kernel, count): a handle (bigint) and a number", &kernel, &count)) return NULL;
  CUgraphNodeParams p;
  CUresult r = chainNodeParams((CUkernel)(uintptr_t)kernel, &p);
  if (r != CUDA_SUCCESS) return driverError(env, "cuCtxGetCurrent", r);
  CUgraph graph;
  CUgraphNode previous = NULL, node;
  double t0 = nanoseconds();
  r = cuGraphCreate(&graph, 0);
  for (uint32_t i = 0; r == CUDA_SUCCESS && i < count; i++) {
    r = cuGraphAddNode(&node, graph, previous ? &previous : NULL, NULL, previous ? 1 : 0, &p);
    previous = node;
  }
  double ns = nanoseconds() - t0;
  if (r != CUDA_SUCCESS) return driverError(env, "cuGraphAddNode", r);
  r = cuGraphDestroy(graph);
  if (r != CUDA_SUCCESS) return driverError(env, "cuGraphDestroy", r);
  return number(env, ns);
}

static napi_value bigint(napi_env env, uint64_t value) {
  napi_value result;
  napi_create_bigint_uint64(env, value, &result);
  return result;
}

static napi_value graphCreate(napi_env env, napi_callback_info info) {
  (void)info;
  CUgraph graph;
  CUresult r = cuGraphCreate(&graph, 0);
  if (r != CUDA_SUCCESS) return driverError(env, "cuGraphCreate", r);
  return bigint(env, (uint64_t)(uintptr_t)graph);
}

static napi_value chainNode(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  uint64_t graph, kernel, previous;
  bool lossless;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3 || !handleArg(env, argv[0], &graph) ||
      !handleArg(env, argv[1], &kernel) || napi_get_value_bigint_uint64(env, argv[2], &previous, &lossless) != napi_ok) {
    return fail(env, "chainNode(graph, kernel, previous): three handles (bigint; previous 0n for none)");
  }
  CUgraphNodeParams p;
  CUresult r = chainNodeParams((CUkernel)(uintptr_t)kernel, &p);
  if (r != CUDA_SUCCESS) return driverError(env, "cuCtxGetCurrent", r);
  CUgraphNode after = (CUgraphNode)(uintptr_t)previous, node;
  r = cuGraphAddNode(&node, (CUgraph)(uintptr_t)graph, after ? &after : NULL, NULL, after ? 1 : 0, &p);
  if (r != CUDA_SUCCESS) return driverError(env, "cuGraphAddNode", r);
  return bigint(env, (uint64_t)(uintptr_t)node);
}

/* The kernel node nodeUpdates updates, the parameters it gives it, and how
 * many updates it has made (the last argument's source). */
static struct {
  CUgraphExec exec;
  CUgraphNode node;
  CUgraphNodeParams params;
  struct emptyArgs args;
  unsigned count;
} updated;

static napi_value nodeUpdateTarget(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  uint64_t exec, node, kernel, buffer;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 4 || !handleArg(env, argv[0], &exec) ||
      !handleArg(env, argv[1], &node) || !handleArg(env, argv[2], &kernel) || !handleArg(env, argv[3], &buffer)) {
    return fail(env, "nodeUpdateTarget(exec, node, kernel, buffer): four handles (bigint)");
  }
  CUresult r = chainNodeParams((CUkernel)(uintptr_t)kernel, &updated.params);
  if (r != CUDA_SUCCESS) return driverError(env, "cuCtxGetCurrent", r);
  updated.params.kernel.kernelParams = emptyArgsFor(&updated.args, buffer, 4);
  updated.exec = (CUgraphExec)(uintptr_t)exec;
  updated.node = (CUgraphNode)(uintptr_t)node;
  return NULL;
}

static napi_value nodeUpdates(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  uint32_t count;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 ||
      napi_get_value_uint32(env, argv[0], &count) != napi_ok) {
    return fail(env, "nodeUpdates(count): a number");
  }
  if (updated.exec == NULL) return fail(env, "nodeUpdates: call nodeUpdateTarget first");
  double t0 = nanoseconds();
  for (uint32_t i = 0; i < count; i++) {
    updated.args.n = updated.count++ & 1023;
    CUresult r = cuGraphExecNodeSetParams(updated.exec, updated.node, &updated.params);
    if (r != CUDA_SUCCESS) return driverError(env, "cuGraphExecNodeSetParams", r);
  }
  return number(env, nanoseconds() - t0);
}

static napi_value graphDestroy(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  uint64_t graph;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 || !handleArg(env, argv[0], &graph)) {
    return fail(env, "graphDestroy(graph): a handle (bigint)");
  }
  CUresult r = cuGraphDestroy((CUgraph)(uintptr_t)graph);
  if (r != CUDA_SUCCESS) return driverError(env, "cuGraphDestroy", r);
  return NULL;
}

NAPI_MODULE_INIT() {
  if (!define(env, exports, "graphLaunches", graphLaunches) || !define(env, exports, "kernelLaunches", kernelLaunches) ||
      !define(env, exports, "graphUpdate", graphUpdate) ||
      !define(env, exports, "copies", copies) || !define(env, exports, "eventRecordQueries", eventRecordQueries) ||
      !define(env, exports, "allocFrees", allocFrees) || !define(env, exports, "allocOne", allocOne) ||
      !define(env, exports, "freeOne", freeOne) || !define(env, exports, "chainBuild", chainBuild) ||
      !define(env, exports, "graphCreate", graphCreate) || !define(env, exports, "chainNode", chainNode) ||
      !define(env, exports, "graphDestroy", graphDestroy) || !define(env, exports, "nodeUpdateTarget", nodeUpdateTarget) ||
      !define(env, exports, "nodeUpdates", nodeUpdates)) {
    return NULL;
  }
  return exports;
}
