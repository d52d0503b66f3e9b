// JavaScript callbacks CUDA calls on its own threads, where neither JavaScript
// nor CUDA calls may run: host functions queued on a stream (host_function.cc)
// and host nodes of graphs (graph/node_kinds.cc), a captured host function
// being one of those. They hand the call to the JavaScript thread
// (core/js_thread.h). A waiting callback, the default, keeps CUDA's thread
// until the JavaScript has run, so work after it waits as CUDA means it to;
// one that does not wait only hands the call over.
#pragma once

#include <napi.h>

#include <memory>

#include "core/js_thread.h"
#include "core/non_copyable.h"
#include "driver/call.h"

namespace cudrv {

// A callback that may run any number of times (at every launch of a graph):
// the graph's resource bag holds it.
struct HostCallback : NonCopyable {
  // Shared with each call posted, which lets go of it on the JavaScript thread:
  // a call may run after the graph has let go of this.
  std::shared_ptr<Napi::FunctionReference> function;
  std::shared_ptr<JsThreadPort> port;
};

// callback must be a function (a TypeError otherwise).
std::shared_ptr<HostCallback> makeHostCallback(Napi::Env env, Napi::Value callback);
// What CUDA calls with the callback as its data: the waiting or the handing-over form.
CUhostFn hostCallbackFn(bool wait);
// Whether fn is the waiting form.
bool hostCallbackWaits(CUhostFn fn);
bool holdsJavaScript(const HostCallback&);
// Calls function on the JavaScript thread with args. What it throws goes to
// process 'uncaughtException' (the process ends, as for a timer, when nothing
// listens); the driver's thread that handed the call over is not involved.
void callReporting(Napi::Env env, Napi::FunctionReference& function, const std::initializer_list<napi_value>& args);

}  // namespace cudrv
