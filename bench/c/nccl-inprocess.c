/* NCCL from C in the JavaScript process: the in-process baseline of
 * bench/nccl.js's host time per call. Each rank's Node process makes a second
 * communicator here, over the same two GPUs, and all-reduces with it on the
 * very stream and buffer the JavaScript side uses, batch by batch in turn with
 * it (common.js pairedPerCall). A C process of its own meets another moment of
 * the host, the GPUs and the peer; here both sides share them.
 *
 * uniqueId() -> Uint8Array(128): an id for init(), made by rank 0.
 * init(id, rank, size): ncclCommInitRank on the calling thread, in the context
 *   current on it (blocks until every rank has called it).
 * allReduces(stream, buffer, count, calls, comm?) -> ns: calls ncclAllReduce of
 *   count float32 in place (sum), timed here with the clock the C baselines
 *   use, on the communicator made by init(), or on comm (a bigint: the
 *   JavaScript side's Communicator.handle, so that both sides call into the
 *   very same NCCL state). stream, buffer and comm are bigints
 *   (Stream.handle, DeviceBuffer.address); the caller keeps them alive and
 *   their context current.
 * destroy(): ncclCommFinalize and ncclCommDestroy. */
#include "timing.h"
#include "napi_helpers.h"
#include "nccl_loader.h"

#include <string.h>

static ncclComm_t comm;

static napi_value ncclFailure(napi_env env, const char *call, ncclResult_t r) {
  char message[160];
  snprintf(message, sizeof message, "%s failed: %d (%s)", call, r, ncclGetErrorString(r));
  return fail(env, message);
}

static napi_value uniqueId(napi_env env, napi_callback_info info) {
  (void)info;
  const char *missing = loadNccl();
  if (missing) return fail(env, missing);
  ncclUniqueId id;
  ncclResult_t r = ncclGetUniqueId(&id);
  if (r != 0) return ncclFailure(env, "ncclGetUniqueId", r);
  void *data;
  napi_value buffer, array;
  if (napi_create_arraybuffer(env, sizeof id, &data, &buffer) != napi_ok) return fail(env, "no memory for the id");
  memcpy(data, &id, sizeof id);
  napi_create_typedarray(env, napi_uint8_array, sizeof id, buffer, 0, &array);
  return array;
}

static napi_value init(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  int32_t rank, size;
  napi_typedarray_type type;
  size_t length;
  void *bytes;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3 ||
      napi_get_typedarray_info(env, argv[0], &type, &length, &bytes, NULL, NULL) != napi_ok ||
      type != napi_uint8_array || length != sizeof(ncclUniqueId) ||
      napi_get_value_int32(env, argv[1], &rank) != napi_ok || napi_get_value_int32(env, argv[2], &size) != napi_ok) {
    return fail(env, "init(id: Uint8Array(128), rank, size)");
  }
  const char *missing = loadNccl();
  if (missing) return fail(env, missing);
  if (comm) return fail(env, "init() was called already");
  ncclUniqueId id;
  memcpy(&id, bytes, sizeof id);
  ncclResult_t r = ncclCommInitRank(&comm, size, id, rank);
  if (r != 0) return ncclFailure(env, "ncclCommInitRank", r);
  return NULL;
}

static napi_value allReduces(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  uint64_t stream, buffer, other = 0;
  uint32_t count, calls;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 4 ||
      !handleArg(env, argv[0], &stream) || !handleArg(env, argv[1], &buffer) ||
      napi_get_value_uint32(env, argv[2], &count) != napi_ok || napi_get_value_uint32(env, argv[3], &calls) != napi_ok ||
      (argc > 4 && !handleArg(env, argv[4], &other))) {
    return fail(env, "allReduces(stream: bigint, buffer: bigint, count, calls, comm?: bigint)");
  }
  ncclComm_t on = other ? (ncclComm_t)(uintptr_t)other : comm;
  if (!on) return fail(env, "call init() first, or pass a communicator");
  void *data = (void *)(uintptr_t)buffer;
  CUstream s = (CUstream)(uintptr_t)stream;
  double t0 = nanoseconds();
  for (uint32_t i = 0; i < calls; i++) {
    ncclResult_t r = ncclAllReduce(data, data, count, ncclFloat32, ncclSum, on, s);
    if (r != 0) return ncclFailure(env, "ncclAllReduce", r);
  }
  return number(env, nanoseconds() - t0);
}

static napi_value destroy(napi_env env, napi_callback_info info) {
  (void)info;
  if (!comm) return NULL;
  ncclResult_t r = ncclCommFinalize(comm);
  if (r == 0) r = ncclCommDestroy(comm);
  comm = NULL;
  return r != 0 ? ncclFailure(env, "ncclCommFinalize/ncclCommDestroy", r) : NULL;
}

NAPI_MODULE_INIT() {
  if (!define(env, exports, "uniqueId", uniqueId) || !define(env, exports, "init", init) ||
      !define(env, exports, "allReduces", allReduces) || !define(env, exports, "destroy", destroy)) {
    return NULL;
  }
  return exports;
}
