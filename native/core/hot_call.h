// The hottest calls (launches, graph launches and updates, event record and
// query, handle making and disposal, synchronous copies between library
// memory) as plain Node-API callbacks.
// node-addon-api's wrapper reads six arguments, `this` and its data on every
// call, and adds a call of its own: a large part of a prepared launch's own
// cost (bench/binding-overhead.js --instructions). These read only the arguments they take (missing ones as
// undefined) and return a value or nullptr (undefined); a Napi::Error thrown
// inside becomes the JavaScript exception, as there.
#pragma once

#include <napi.h>

#include <cstddef>

#include "core/slots.h"

namespace cudrv {

template <size_t N>
using HotArgs = napi_value[N];

// A hot call gets the environment's slot table with its arguments, as its
// function's data: slotTable(env) would ask N-API for the instance data on
// every call.
// The table outlives every call: it goes with the environment.
template <size_t N>
using HotFunction = napi_value (*)(Napi::Env, SlotTable&, const HotArgs<N>&);

template <size_t N, HotFunction<N> Call>
napi_value hotCall(napi_env env, napi_callback_info info) {
  size_t argc = N;
  napi_value argv[N];
  void* table = nullptr;
  if (napi_get_cb_info(env, info, &argc, argv, nullptr, &table) != napi_ok) return nullptr;
  try {
    return Call(Napi::Env(env), *static_cast<SlotTable*>(table), argv);
  } catch (const Napi::Error& e) {
    e.ThrowAsJavaScriptException();
    return nullptr;
  }
}

// A function of the addon's exports whose callback is hotCall<N, Call>.
template <size_t N, HotFunction<N> Call>
Napi::Function hotFunction(Napi::Env env, const char* name) {
  napi_value fn = nullptr;
  NAPI_THROW_IF_FAILED(env, napi_create_function(env, name, NAPI_AUTO_LENGTH, hotCall<N, Call>, &slotTable(env), &fn),
                       Napi::Function());
  return Napi::Function(env, fn);
}

}  // namespace cudrv
