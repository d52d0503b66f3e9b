// Stream capture: the driver calls the capture scopes of lib/ are built on.
// Every capture the library begins is bracketed for the release rules
// (native/release.h), and is always ended, also when ending fails.
#include "args.h"
#include "graph/graph.h"
#include "release.h"
#include "stream.h"

namespace cudrv {

namespace {

// beginCapture(stream, mode, graph | undefined): into a new graph, or (graph
// given) into an existing one with cuStreamBeginCaptureToGraph.
Napi::Value BeginCapture(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  StreamBox& stream = streamArg(info[0]);
  auto mode = static_cast<CUstreamCaptureMode>(uintArg(info[1], "mode"));
  if (stream.capturing) throw Napi::Error::New(env, "the stream is already capturing");
  if (!stream.owned && stream.stream == CU_STREAM_LEGACY) {
    throw Napi::Error::New(env, "the legacy default stream cannot be captured; capture a stream you created");
  }
  makeCurrent(env, stream.context);
  if (info[2].IsUndefined()) {
    CU_CHECK(env, cuStreamBeginCapture, stream.stream, mode);
  } else {
    const GraphRef& graph = Graph::from(info[2], "graph");
    CU_CHECK(env, cuStreamBeginCaptureToGraph, stream.stream, graph->graph, nullptr, nullptr, 0, mode);
  }
  stream.capturing = true;
  captureStarted();
  return env.Undefined();
}

// endCapture(stream, intoExisting) -> the captured Graph (undefined when
// captured into an existing graph). The capture is over whatever happens; a
// failed capture's partial graph is destroyed here, once.
Napi::Value EndCapture(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  StreamBox& stream = streamArg(info[0]);
  bool intoExisting = boolArg(info[1], "intoExisting");
  if (!stream.capturing) throw Napi::Error::New(env, "the stream is not capturing");
  CUgraph graph = nullptr;
  CUresult result = CU_CALL(cuStreamEndCapture, stream.stream, &graph);
  stream.capturing = false;
  captureFinished();
  if (result != CUDA_SUCCESS) {
    if (graph && !intoExisting) CU_CALL(cuGraphDestroy, graph);
    throwCudaError(env, result, Fn::cuStreamEndCapture);
  }
  if (intoExisting) return env.Undefined();
  auto box = std::make_shared<GraphBox>();
  box->graph = graph;
  return Graph::wrap(env, box);
}

// captureStatus(stream) -> CUstreamCaptureStatus
Napi::Value CaptureStatus(const Napi::CallbackInfo& info) {
  StreamBox& stream = streamArg(info[0]);
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  CU_CHECK(info.Env(), cuStreamIsCapturing, stream.stream, &status);
  return Napi::Number::New(info.Env(), status);
}

// captureInfo(stream) -> {status, id, graph (handle), dependencies (count)}
Napi::Value CaptureInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  StreamBox& stream = streamArg(info[0]);
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  cuuint64_t id = 0;
  CUgraph graph = nullptr;
  const CUgraphNode* dependencies = nullptr;
  const CUgraphEdgeData* edges = nullptr;
  size_t count = 0;
  CU_CHECK(env, cuStreamGetCaptureInfo, stream.stream, &status, &id, &graph, &dependencies, &edges, &count);
  Napi::Object out = Napi::Object::New(env);
  out.Set("status", static_cast<int>(status));
  out.Set("id", bigint(env, id));
  out.Set("graph", handleValue(env, graph));
  out.Set("dependencies", static_cast<double>(count));
  return out;
}

// exchangeCaptureMode(mode) -> the calling thread's previous mode.
Napi::Value ExchangeCaptureMode(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireDriver(env, Fn::cuThreadExchangeStreamCaptureMode);
  auto mode = static_cast<CUstreamCaptureMode>(uintArg(info[0], "mode"));
  CU_CHECK(env, cuThreadExchangeStreamCaptureMode, &mode);
  return Napi::Number::New(env, mode);
}

}  // namespace

void initCapture(Napi::Env env, Napi::Object exports) {
  exports.Set("beginCapture", Napi::Function::New(env, BeginCapture));
  exports.Set("endCapture", Napi::Function::New(env, EndCapture));
  exports.Set("captureStatus", Napi::Function::New(env, CaptureStatus));
  exports.Set("captureInfo", Napi::Function::New(env, CaptureInfo));
  exports.Set("exchangeCaptureMode", Napi::Function::New(env, ExchangeCaptureMode));
}

}  // namespace cudrv
