// JavaScript callbacks queued on a stream (cuLaunchHostFunc, cuStreamAddCallback)
// and the callbacks of graph host nodes: see host_function.h. A waiting call
// counts as pending for the deadlock guard (core/js_thread.h BlockingWait): from
// when it is queued on a stream, or, for a host node, from when a launch
// reaches it.
#include "host_function.h"

#include "core/args.h"
#include "generated/entries.h"
#include "graph/graph.h"
#include "stream.h"

namespace cudrv {

namespace {

// A call queued on a stream outside a capture: CUDA calls it once; it lives
// until then and is let go of on the JavaScript thread.
struct HostCall {
  Napi::FunctionReference callback;
  JsThreadTicket ticket;  // holds the event loop until the call has run
  bool withStatus;
};

template <bool wait>
void deliver(HostCall* call, CUresult status) {
  auto work = [call, status](Napi::Env env) {
    std::unique_ptr<HostCall> owned(call);
    if (!call->withStatus) {
      callReporting(env, call->callback, {});
      return;
    }
    callReporting(env, call->callback, {status == CUDA_SUCCESS ? env.Null() : makeCudaError(env, status, Fn::cuStreamAddCallback)});
  };
  if (wait) {
    call->ticket.deliverAndWait(std::move(work));
  } else {
    call->ticket.deliver(std::move(work));
  }
}

template <bool wait>
void CUDA_CB onHostFunction(void* data) {
  deliver<wait>(static_cast<HostCall*>(data), CUDA_SUCCESS);
}
template <bool wait>
void CUDA_CB onStreamCallback(CUstream, CUresult status, void* data) {
  deliver<wait>(static_cast<HostCall*>(data), status);
}

// A host node's callback, at every launch that reaches it.
void CUDA_CB runWaitingHostCallback(void* data) {
  auto* callback = static_cast<HostCallback*>(data);
  callback->port->postAndWait([function = callback->function](Napi::Env env) { callReporting(env, *function, {}); });
}
void CUDA_CB runHostCallback(void* data) {
  auto* callback = static_cast<HostCallback*>(data);
  callback->port->post([function = callback->function](Napi::Env env) { callReporting(env, *function, {}); });
}

Napi::Value checkedCallback(Napi::Env env, Napi::Value callback) {
  if (!callback.IsFunction()) throwTypeError(env, "callback must be a function");
  return callback;
}

// The id of the capture the stream's work goes into, or 0 when it is not capturing.
cuuint64_t captureOf(Napi::Env env, StreamBox& stream) {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  cuuint64_t id = 0;
  CU_CHECK(env, cuStreamGetCaptureInfo, stream.stream, &status, &id, nullptr, nullptr, nullptr, nullptr);
  return status == CU_STREAM_CAPTURE_STATUS_NONE ? 0 : id;
}

// Queues a call on a stream that is not capturing: returns once the driver has it.
template <typename Queue>
void queueOnce(Napi::Env env, Napi::Value callback, bool withStatus, bool wait, Fn fn, Queue queue) {
  auto call = std::unique_ptr<HostCall>(
      new HostCall{Napi::Persistent(callback.As<Napi::Function>()), JsThreadTicket::take(env), withStatus});
  if (wait) countWaitingHostCall(env);
  CUresult result = queue(call.get());
  if (result != CUDA_SUCCESS) {
    if (wait) uncountWaitingHostCall(env);
    call->ticket.cancel(env);
    throwCudaError(env, result, fn);
  }
  call.release();  // the driver will call it exactly once
}

}  // namespace

std::shared_ptr<HostCallback> makeHostCallback(Napi::Env env, Napi::Value callback) {
  checkedCallback(env, callback);
  auto made = std::make_shared<HostCallback>();
  made->function = std::make_shared<Napi::FunctionReference>(Napi::Persistent(callback.As<Napi::Function>()));
  made->port = JsThreadPort::open(env);
  return made;
}

CUhostFn hostCallbackFn(bool wait) { return wait ? runWaitingHostCallback : runHostCallback; }

bool hostCallbackWaits(CUhostFn fn) { return fn == runWaitingHostCallback; }

bool holdsJavaScript(const HostCallback&) { return true; }

// A host callback's GPU goes on however the callback ended: its thread is let go of.
void callReporting(Napi::Env env, Napi::FunctionReference& function, const std::initializer_list<napi_value>& args) {
  try {
    function.Call(args);
  } catch (const Napi::Error& e) {
    napi_fatal_exception(env, e.Value());
  }
}

// launchHostFunction(stream, callback, wait): cuLaunchHostFunc; callback() runs
// on the JavaScript thread after the work queued before it, and with wait the
// work queued after it waits until it has run. On a capturing stream it becomes
// a host node of the capture's graph, which then holds the callback.
Napi::Value LaunchHostFunction(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Value callback = checkedCallback(env, info[1]);
  const bool wait = boolArg(info[2], "wait");
  StreamBox& stream = streamArg(info[0]);
  const cuuint64_t capture = captureOf(env, stream);
  if (capture == 0) {
    queueOnce(env, callback, false, wait, Fn::cuLaunchHostFunc, [&stream, wait](HostCall* call) {
      return CU_CALL(cuLaunchHostFunc, stream.stream, wait ? onHostFunction<true> : onHostFunction<false>, call);
    });
    return env.Undefined();
  }
  // The graph keeps what its nodes use through the library's record of the
  // capture: one begun elsewhere would leave the callback to nobody.
  if (!anyCaptureActive()) {
    throw Napi::Error::New(env, "the stream is capturing into a capture this library did not begin: a host "
                                "function captured there would outlive its callback");
  }
  std::shared_ptr<HostCallback> node = makeHostCallback(env, callback);
  CU_CHECK(env, cuLaunchHostFunc, stream.stream, hostCallbackFn(wait), node.get());
  keepForCapture(capture, node);
  return env.Undefined();
}

// addStreamCallback(stream, callback, wait): cuStreamAddCallback; callback(error | null).
// Not capturable (the driver refuses it in a capture): refused up front.
Napi::Value AddStreamCallback(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Value callback = checkedCallback(env, info[1]);
  const bool wait = boolArg(info[2], "wait");
  StreamBox& stream = streamArg(info[0]);
  if (captureOf(env, stream) != 0) {
    throw Napi::Error::New(env, "the stream is capturing: stream callbacks cannot be captured; use launchHostFunction, "
                                "which becomes a host node");
  }
  queueOnce(env, callback, true, wait, Fn::cuStreamAddCallback, [&stream, wait](HostCall* call) {
    return CU_CALL(cuStreamAddCallback, stream.stream, wait ? onStreamCallback<true> : onStreamCallback<false>, call, 0);
  });
  return env.Undefined();
}

}  // namespace cudrv
