#include "graph/graph.h"

#include "args.h"
#include "release.h"

namespace cudrv {

GraphBox::~GraphBox() {
  if (!graph) return;
  CUgraph g = graph;
  releaseWhenSafe([g] { CU_CALL(cuGraphDestroy, g); });
}

namespace {

Napi::Value CreateGraph(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireDriver(env, Fn::cuGraphCreate);
  auto box = std::make_shared<GraphBox>();
  CU_CHECK(env, cuGraphCreate, &box->graph, 0);
  return Graph::wrap(env, box);
}

}  // namespace

void Graph::init(Napi::Env env, Napi::Object exports) {
  exports.Set("Graph", define(env, {
      InstanceAccessor("handle", &Graph::HandleValue, nullptr),
      InstanceMethod("nodeCount", &Graph::NodeCount),
  }));
  exports.Set("createGraph", Napi::Function::New(env, CreateGraph));
}

Napi::Value Graph::HandleValue(const Napi::CallbackInfo& info) { return handleValue(info.Env(), live().graph); }

Napi::Value Graph::NodeCount(const Napi::CallbackInfo& info) {
  size_t count = 0;
  CU_CHECK(info.Env(), cuGraphGetNodes, live().graph, nullptr, &count);
  return Napi::Number::New(info.Env(), static_cast<double>(count));
}

}  // namespace cudrv
