/* The few Node-API helpers the C modules that run in the JavaScript process
 * (inprocess.c, nccl-inprocess.c) share: errors, bigint handles, numbers and
 * exported functions. */
#ifndef NAPI_HELPERS_H
#define NAPI_HELPERS_H

#include <cuda.h>
#include <node_api.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

static inline napi_value fail(napi_env env, const char *message) {
  napi_throw_error(env, NULL, message);
  return NULL;
}

static inline bool handleArg(napi_env env, napi_value value, uint64_t *out) {
  bool lossless;
  return napi_get_value_bigint_uint64(env, value, out, &lossless) == napi_ok && lossless && *out != 0;
}

static inline napi_value number(napi_env env, double value) {
  napi_value result;
  napi_create_double(env, value, &result);
  return result;
}

static inline napi_value driverError(napi_env env, const char *call, CUresult r) {
  char message[64];
  snprintf(message, sizeof message, "%s failed: %d", call, (int)r);
  return fail(env, message);
}

static inline bool define(napi_env env, napi_value exports, const char *name, napi_callback callback) {
  napi_value fn;
  return napi_create_function(env, name, NAPI_AUTO_LENGTH, callback, NULL, &fn) == napi_ok &&
         napi_set_named_property(env, exports, name, fn) == napi_ok;
}

#endif
