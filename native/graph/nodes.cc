// Adding nodes to graphs, reading their parameters back and changing them;
// each kind's part is its row in node_kinds.cc.
#include <cstring>

#include "core/args.h"
#include "generated/entries.h"
#include "event.h"
#include "core/hot_call.h"
#include "graph/node_params.h"

namespace cudrv {

// addNode(graph, dependencies, edgeData | undefined, params)
//   -> {node, allocation?: GraphAllocation, bodies?: Graph[]}
Napi::Value AddNode(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  // Every argument is read before any handle is looked up: reading the
  // dependencies and parameters may run JavaScript (getters) that disposes
  // the graph, a dependency or what the node would use.
  Dependencies deps(env, info[1], info[2]);
  const NodeFields fields = readNodeFields(env, info[3]);
  GraphRef graph = graphArg(info[0], "graph");
  deps.resolve(env, *graph);
  std::unique_ptr<NodeParams> p = buildNodeParams(env, fields, graph.get());
  Napi::Object out = Napi::Object::New(env);
  addBuiltNode(env, graph, deps, *p, &out);
  return out;
}

// addKernelNode(graph, dependencies, kernel, record) -> node: addNode for a
// kernel node without edge data (lib/ sends one with edge data to addNode),
// its parameters given one by one (see KernelNodeFields); a plain Node-API
// callback (core/hot_call.h), as launches are, the graph by slot. The graph's
// box is used by reference: no JavaScript runs after the arguments are read.
napi_value AddKernelNode(Napi::Env env, SlotTable& table, const HotArgs<4>& args) {
  Dependencies deps(env, Napi::Value(env, args[1]), Napi::Value());
  const GraphRef& graph = graphArg(table, Napi::Value(env, args[0]), "graph");
  deps.resolve(env, table, *graph);
  return nodeValue(env, table, addKernelNodeFromFields(env, table, graph, deps, {Napi::Value(env, args[2]), Napi::Value(env, args[3])}));
}

// setNodeParams(node, params): new parameters for a node of the graph (not of
// executables already made from it).
Napi::Value SetNodeParams(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const NodeFields fields = readNodeFields(env, info[1]);
  const NodeRef& node = nodeArg(info[0], "node");
  GraphRef graph = graphOf(env, *node);
  std::unique_ptr<NodeParams> p = buildNodeParams(env, fields, graph.get());
  setBuiltNode(env, graph, *node, *p);
  return env.Undefined();
}

// graphNodeParams(node): what the driver holds for the node, per type. The node is
// held: setting the result's properties may run setters JavaScript put on
// Object.prototype, which could dispose it.
Napi::Value GraphNodeParams(const Napi::CallbackInfo& info) {
  const NodeRef node = nodeArg(info[0], "node");
  return readNodeParams(info.Env(), node);
}

Napi::Value newGraphAllocationSlot(Napi::Env env, const std::shared_ptr<GraphAllocationBox>& allocation) {
  return GraphAllocation::newSlot(env, allocation);
}

}  // namespace cudrv
