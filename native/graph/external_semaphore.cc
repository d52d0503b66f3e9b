// External-semaphore nodes. Bound for completeness: external semaphores come
// from graphics and other APIs whose import is outside this package's scope, so
// only an empty set of semaphores can be passed, and the driver's answer says
// what it accepts.
#include <cstring>

#include "core/args.h"
#include "generated/entries.h"
#include "graph/graph.h"

namespace cudrv {

// addExternalSemaphoreNode(graph, dependencies, signal) -> GraphNode
Napi::Value AddExternalSemaphoreNode(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Dependencies deps(env, info[1], Napi::Value());
  const bool signal = boolArg(info[2], "signal");
  GraphRef graph = graphArg(info[0], "graph");
  deps.resolve(env, *graph);
  // The driver faults on a node named twice here, where the other node kinds'
  // calls refuse it (an edge that already exists).
  if (deps.repeatsANode()) rangeError(env, "dependencies", "must not name a node twice");
  CUgraphNode node = nullptr;
  if (signal) {
    CUDA_EXT_SEM_SIGNAL_NODE_PARAMS p{nullptr, nullptr, 0};
    CU_CHECK(env, cuGraphAddExternalSemaphoresSignalNode, &node, graph->graph, deps.nodes(), deps.count(), &p);
  } else {
    CUDA_EXT_SEM_WAIT_NODE_PARAMS p{nullptr, nullptr, 0};
    CU_CHECK(env, cuGraphAddExternalSemaphoresWaitNode, &node, graph->graph, deps.nodes(), deps.count(), &p);
  }
  return nodeValue(env, graph->nodes.add(graph, node));
}

// externalSemaphoreCount(node, signal) -> numExtSems (cuGraphExternalSemaphores*NodeGetParams)
Napi::Value ExternalSemaphoreCount(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const NodeRef& node = nodeArg(info[0], "node");
  if (boolArg(info[1], "signal")) {
    CUDA_EXT_SEM_SIGNAL_NODE_PARAMS p;
    std::memset(&p, 0, sizeof(p));
    CU_CHECK(env, cuGraphExternalSemaphoresSignalNodeGetParams, node->node, &p);
    return Napi::Number::New(env, p.numExtSems);
  }
  CUDA_EXT_SEM_WAIT_NODE_PARAMS p;
  std::memset(&p, 0, sizeof(p));
  CU_CHECK(env, cuGraphExternalSemaphoresWaitNodeGetParams, node->node, &p);
  return Napi::Number::New(env, p.numExtSems);
}

// clearExternalSemaphores(node, signal): sets an empty set (cuGraphExternalSemaphores*NodeSetParams).
Napi::Value ClearExternalSemaphores(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const NodeRef& node = nodeArg(info[0], "node");
  if (boolArg(info[1], "signal")) {
    CUDA_EXT_SEM_SIGNAL_NODE_PARAMS p{nullptr, nullptr, 0};
    CU_CHECK(env, cuGraphExternalSemaphoresSignalNodeSetParams, node->node, &p);
  } else {
    CUDA_EXT_SEM_WAIT_NODE_PARAMS p{nullptr, nullptr, 0};
    CU_CHECK(env, cuGraphExternalSemaphoresWaitNodeSetParams, node->node, &p);
  }
  return env.Undefined();
}

}  // namespace cudrv
