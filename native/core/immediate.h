// Running a function in a task of its own, after the current one: through
// setImmediate as the environment had it when the addon loaded.
#pragma once

#include <napi.h>

#include "core/addon_data.h"

namespace cudrv {

// Queues fn. False when the environment is closing: nothing is queued, and no
// exception is left pending.
inline bool queueImmediate(Napi::Env env, const Napi::FunctionReference& fn) {
  napi_value function = fn.Value();
  napi_value result = nullptr;
  if (napi_call_function(env, env.Undefined(), addonData(env).setImmediate.Value(), 1, &function, &result) == napi_ok) {
    return true;
  }
  napi_value error = nullptr;
  napi_get_and_clear_last_exception(env, &error);
  return false;
}

}  // namespace cudrv
