// Stream capture: the driver calls the capture scopes of lib/ are built on.
// Every capture the library begins is bracketed for the release rules
// (native/core/release.h), and is always ended, also when ending fails.
#include <optional>

#include "core/args.h"
#include "generated/entries.h"
#include "graph/graph.h"
#include "core/release.h"
#include "stream.h"

namespace cudrv {

// beginCapture(stream, mode, graph | undefined, after | undefined, edgeData | undefined):
// into a new graph, or (graph given) into an existing one after the given nodes
// with cuStreamBeginCaptureToGraph.
Napi::Value BeginCapture(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto mode = static_cast<CUstreamCaptureMode>(uintArg(info[1], "mode"));
  const bool intoGraph = !info[2].IsUndefined();
  std::optional<Dependencies> after;
  if (intoGraph) after.emplace(env, info[3], info[4]);
  StreamBox& stream = streamArg(info[0]);
  if (stream.capturing) throw Napi::Error::New(env, "the stream is already capturing");
  if (!stream.owned && stream.stream == CU_STREAM_LEGACY) {
    throw Napi::Error::New(env, "the legacy default stream cannot be captured; capture a stream you created");
  }
  makeCurrent(env, stream.context);
  if (!intoGraph) {
    CU_CHECK(env, cuStreamBeginCapture, stream.stream, mode);
  } else {
    const GraphRef& graph = graphArg(info[2], "graph");
    after->resolve(env, *graph);
    CU_CHECK(env, cuStreamBeginCaptureToGraph, stream.stream, graph->graph, after->nodes(), after->edges(), after->count(), mode);
  }
  // The capture's id files what captured work uses (native/graph/graph.h): without it that would never be let go.
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  cuuint64_t id = 0;
  CUresult r = CU_CALL(cuStreamGetCaptureInfo, stream.stream, &status, &id, nullptr, nullptr, nullptr, nullptr);
  if (r != CUDA_SUCCESS) {
    CUgraph graph = nullptr;
    CU_CALL(cuStreamEndCapture, stream.stream, &graph);
    if (graph && !intoGraph) CU_CALL(cuGraphDestroy, graph);
    throwCudaError(env, r, Fn::cuStreamGetCaptureInfo);
  }
  stream.capturing = true;
  stream.captureId = id;
  stream.captureGraph = intoGraph ? graphArg(info[2], "graph") : nullptr;
  captureStarted();
  return env.Undefined();
}

// endCapture(stream, into | undefined) -> the captured Graph (undefined when
// captured into an existing graph, which now also holds what the work uses).
// The capture is over whatever happens; a failed capture's partial graph is
// destroyed here, once.
Napi::Value EndCapture(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  StreamBox& stream = streamArg(info[0]);
  const GraphRef* into = info[1].IsUndefined() ? nullptr : &graphArg(info[1], "into");
  if (!stream.capturing) throw Napi::Error::New(env, "the stream is not capturing");
  CUgraph graph = nullptr;
  CUresult result = CU_CALL(cuStreamEndCapture, stream.stream, &graph);
  stream.capturing = false;
  captureFinished();
  ResourceBag used = takeCaptured(stream.captureId);
  GraphRef seen = std::move(stream.captureGraph);
  // The box JavaScript saw during the capture becomes the captured graph's
  // owner, so that its object and the nodes found through it stay valid.
  const bool adopt = !into && seen && seen->capturing && result == CUDA_SUCCESS && seen->graph == graph;
  if (seen && seen->capturing && !adopt) seen->retireCapture();
  if (result != CUDA_SUCCESS) {
    if (graph && !into) CU_CALL(cuGraphDestroy, graph);
    throwCudaError(env, result, Fn::cuStreamEndCapture);
  }
  if (adopt) {
    seen->capturing = false;
    seen->owned = true;
  }
  GraphRef box = into ? *into : adopt ? seen : makeGraphBox(env, graph);
  box->keepAll(env, used);
  if (into) return env.Undefined();
  return newGraphSlot(env, box);
}

// captureStatus(stream) -> CUstreamCaptureStatus
Napi::Value CaptureStatus(const Napi::CallbackInfo& info) {
  StreamBox& stream = streamArg(info[0]);
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  CU_CHECK(info.Env(), cuStreamIsCapturing, stream.stream, &status);
  return Napi::Number::New(info.Env(), status);
}

namespace {

// The box of the graph a capture the library began is building (see
// StreamBox::captureGraph); null when there is none.
GraphRef captureBox(Napi::Env env, StreamBox& stream, CUgraph graph) {
  if (!stream.capturing || !graph) return nullptr;
  if (stream.captureGraph && stream.captureGraph->graph != graph) {
    if (stream.captureGraph->capturing) stream.captureGraph->retireCapture();
    stream.captureGraph.reset();
  }
  if (!stream.captureGraph) {
    stream.captureGraph = makeGraphBox(env, graph);
    stream.captureGraph->owned = false;
    stream.captureGraph->capturing = true;
  }
  return stream.captureGraph;
}

}  // namespace

// captureInfo(stream, withNodes) -> {status, id, graph (handle), count, nodes?, edges?}:
// with withNodes, the current dependencies as nodes of the capture's graph
// (their slots, which the object of captureGraph() takes in) and their edge data.
Napi::Value CaptureInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const bool withNodes = boolArg(info[1], "withNodes");
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
  out.Set("count", static_cast<double>(count));
  GraphRef box = withNodes && status == CU_STREAM_CAPTURE_STATUS_ACTIVE ? captureBox(env, stream, graph) : nullptr;
  if (!box) return out;
  Napi::Array nodes = Napi::Array::New(env, count);
  for (size_t i = 0; i < count; ++i) nodes.Set(static_cast<uint32_t>(i), nodeValue(env, nodeBoxOf(box, dependencies[i])));
  out.Set("nodes", nodes);
  if (edges) {
    Napi::Array data = Napi::Array::New(env, count);
    for (size_t i = 0; i < count; ++i) {
      Napi::Array edge = Napi::Array::New(env, 3);
      edge.Set(0u, static_cast<double>(edges[i].from_port));
      edge.Set(1u, static_cast<double>(edges[i].to_port));
      edge.Set(2u, static_cast<double>(edges[i].type));
      data.Set(static_cast<uint32_t>(i), edge);
    }
    out.Set("edges", data);
  }
  return out;
}

// captureGraph(stream) -> the graph a capture the library began into a new
// graph is building, as a Graph that does not own it (until end() hands it over).
Napi::Value CaptureGraph(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  StreamBox& stream = streamArg(info[0]);
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  cuuint64_t id = 0;
  CUgraph graph = nullptr;
  CU_CHECK(env, cuStreamGetCaptureInfo, stream.stream, &status, &id, &graph, nullptr, nullptr, nullptr);
  GraphRef box = status == CU_STREAM_CAPTURE_STATUS_ACTIVE ? captureBox(env, stream, graph) : nullptr;
  if (!box) throw Napi::Error::New(env, "the stream is not capturing into a graph the library began");
  return newGraphSlot(env, box);
}

// updateCaptureDependencies(stream, graph, nodes, edgeData | undefined, flags): what the
// next captured work depends on (nodes of the graph captured into); flags add or set.
Napi::Value UpdateCaptureDependencies(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Dependencies deps(env, info[2], info[3]);
  const unsigned int flags = uintArg(info[4], "flags");
  StreamBox& stream = streamArg(info[0]);
  const GraphRef& graph = graphArg(info[1], "graph");
  deps.resolve(env, *graph);
  // The driver takes the list as non-const but only reads it.
  CU_CHECK(env, cuStreamUpdateCaptureDependencies, stream.stream, const_cast<CUgraphNode*>(deps.nodes()), deps.edges(),
           deps.count(), flags);
  return env.Undefined();
}

// exchangeCaptureMode(mode) -> the calling thread's previous mode.
Napi::Value ExchangeCaptureMode(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireDriver(env, Fn::cuThreadExchangeStreamCaptureMode);
  auto mode = static_cast<CUstreamCaptureMode>(uintArg(info[0], "mode"));
  CU_CHECK(env, cuThreadExchangeStreamCaptureMode, &mode);
  return Napi::Number::New(env, mode);
}

}  // namespace cudrv
