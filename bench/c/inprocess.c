/* C in the JavaScript process: a Node-API module, in C, that launches the very
 * executable graph the JavaScript side launches, on the same stream, in the
 * same process, between its batches (bench/graph.js). A separate C process
 * (bench/c/graph.c) meets another moment of the host and the GPU: on the GPU
 * host its own per-launch figure for a 1000-node graph moved from 2.1 to 5.3
 * us between runs a second apart, ten times what the binding adds; taken in
 * turn on one executable, the two sides see the same state.
 *
 * graphLaunches(exec, stream, count) -> ns: count cuGraphLaunch calls of the
 * CUgraphExec and CUstream handles (bigints, as GraphExec.handle and
 * Stream.handle give them), timed here with the clock the C baselines use.
 * The caller keeps both alive and their context current (any JavaScript call
 * on them has made it so). */
#include "timing.h"
#include <node_api.h>
#include <stdbool.h>

static napi_value fail(napi_env env, const char *message) {
  napi_throw_error(env, NULL, message);
  return NULL;
}

static bool handleArg(napi_env env, napi_value value, uint64_t *out) {
  bool lossless;
  return napi_get_value_bigint_uint64(env, value, out, &lossless) == napi_ok && lossless && *out != 0;
}

static napi_value graphLaunches(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  uint64_t exec, stream;
  uint32_t count;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3) return fail(env, "graphLaunches(exec, stream, count)");
  if (!handleArg(env, argv[0], &exec) || !handleArg(env, argv[1], &stream)) return fail(env, "exec and stream must be handles (bigint)");
  if (napi_get_value_uint32(env, argv[2], &count) != napi_ok) return fail(env, "count must be a number");
  double t0 = nanoseconds();
  for (uint32_t i = 0; i < count; i++) {
    CUresult r = cuGraphLaunch((CUgraphExec)(uintptr_t)exec, (CUstream)(uintptr_t)stream);
    if (r != CUDA_SUCCESS) {
      char message[64];
      snprintf(message, sizeof message, "cuGraphLaunch failed: %d", (int)r);
      return fail(env, message);
    }
  }
  double ns = nanoseconds() - t0;
  napi_value result;
  napi_create_double(env, ns, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  if (napi_create_function(env, "graphLaunches", NAPI_AUTO_LENGTH, graphLaunches, NULL, &fn) != napi_ok ||
      napi_set_named_property(env, exports, "graphLaunches", fn) != napi_ok) {
    return NULL;
  }
  return exports;
}
