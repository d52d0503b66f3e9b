// JavaScript callbacks queued on a stream (cuLaunchHostFunc, cuStreamAddCallback).
// CUDA calls them on its own thread, where neither JavaScript nor CUDA calls may
// run; they only hand the call to the JavaScript thread and return at once. So
// the stream goes on without waiting for the JavaScript to run.
#include "core/args.h"
#include "core/js_thread.h"
#include "generated/entries.h"
#include "stream.h"

namespace cudrv {

namespace {

struct HostCall {
  Napi::FunctionReference callback;
  JsThreadTicket ticket;
  bool withStatus;
};

void deliver(HostCall* call, CUresult status) {
  call->ticket.deliver([call, status](Napi::Env env) {
    std::unique_ptr<HostCall> owned(call);
    if (!call->withStatus) {
      call->callback.Call({});
      return;
    }
    call->callback.Call({status == CUDA_SUCCESS ? env.Null() : makeCudaError(env, status, Fn::cuStreamAddCallback)});
  });
}

void CUDA_CB onHostFunction(void* data) { deliver(static_cast<HostCall*>(data), CUDA_SUCCESS); }
void CUDA_CB onStreamCallback(CUstream, CUresult status, void* data) { deliver(static_cast<HostCall*>(data), status); }

// A callback queued while the stream is capturing would become a graph node
// that runs at every launch; that needs the graph's lifetime rules (graph host nodes).
void refuseCapturing(Napi::Env env, StreamBox& stream) {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  CU_CHECK(env, cuStreamIsCapturing, stream.stream, &status);
  if (status != CU_STREAM_CAPTURE_STATUS_NONE) {
    throw Napi::Error::New(env, "the stream is capturing: add host callbacks to a graph with a host node instead");
  }
}

std::unique_ptr<HostCall> hostCall(Napi::Env env, Napi::Value callback, bool withStatus) {
  if (!callback.IsFunction()) throwTypeError(env, "callback must be a function");
  return std::unique_ptr<HostCall>(
      new HostCall{Napi::Persistent(callback.As<Napi::Function>()), JsThreadTicket::take(env), withStatus});
}

}  // namespace

// launchHostFunction(stream, callback): cuLaunchHostFunc; callback() runs on the
// JavaScript thread after the work queued before it.
Napi::Value LaunchHostFunction(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  StreamBox& stream = streamArg(info[0]);
  refuseCapturing(env, stream);
  std::unique_ptr<HostCall> call = hostCall(env, info[1], false);
  CUresult result = CU_CALL(cuLaunchHostFunc, stream.stream, onHostFunction, call.get());
  if (result != CUDA_SUCCESS) {
    call->ticket.cancel(env);
    throwCudaError(env, result, Fn::cuLaunchHostFunc);
  }
  call.release();  // the driver will call it exactly once
  return env.Undefined();
}

// addStreamCallback(stream, callback): cuStreamAddCallback; callback(error | null).
Napi::Value AddStreamCallback(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  StreamBox& stream = streamArg(info[0]);
  refuseCapturing(env, stream);
  std::unique_ptr<HostCall> call = hostCall(env, info[1], true);
  CUresult result = CU_CALL(cuStreamAddCallback, stream.stream, onStreamCallback, call.get(), 0);
  if (result != CUDA_SUCCESS) {
    call->ticket.cancel(env);
    throwCudaError(env, result, Fn::cuStreamAddCallback);
  }
  call.release();
  return env.Undefined();
}

}  // namespace cudrv
