#include "graph/node_params.h"

#include <cstring>

#include "core/args.h"
#include "graph/node_kinds.h"

namespace cudrv {

NodeFields readNodeFields(Napi::Env env, Napi::Value value) {
  if (!value.IsObject()) throwTypeError(env, "params must be an object");
  Napi::Object p = value.As<Napi::Object>();
  const auto type = static_cast<CUgraphNodeType>(uintArg(p.Get("type"), "type"));
  const NodeKind* kind = nodeKind(type);
  NodeFields out{type, kind ? kind->fields(p) : ObjectFields(p, {}), {}, std::nullopt};
  if (kind && kind->lists) kind->lists(out);
  return out;
}

std::unique_ptr<NodeParams> buildNodeParams(Napi::Env env, const NodeFields& f, GraphBox* graph) {
  const NodeKind* kind = nodeKind(f.type);
  if (!kind) throwRangeError(env, "node type " + std::to_string(f.type) + " cannot be built by this library");
  auto out = std::make_unique<NodeParams>();
  std::memset(&out->params, 0, sizeof(out->params));
  out->params.type = f.type;
  kind->build(env, f, *out, graph);
  return out;
}

NodeRef addBuiltNode(Napi::Env env, const GraphRef& graph, const Dependencies& deps, NodeParams& p,
                     Napi::Object* result) {
  if (p.context) makeCurrent(env, p.context);
  CUgraphNode node = addNodeCall(env, graph->graph, deps, p.params, p.movedChild != nullptr);
  for (auto& used : p.uses) graph->keep(env, used);
  if (p.kernel) graph->keep(env, p.kernel);
  NodeRef box = graph->nodes.add(graph, node);
  if (result) result->Set("node", nodeValue(env, box));
  const NodeKind* kind = nodeKind(p.params.type);
  if (kind->added) kind->added(env, graph, box, p, result);
  return box;
}

void setBuiltNode(Napi::Env env, const GraphRef& graph, const NodeBox& node, NodeParams& p) {
  if (p.context) makeCurrent(env, p.context);
  setNodeCall(env, node.node, p.params);
  for (auto& used : p.uses) graph->keep(env, used);
  if (p.kernel) graph->keep(env, p.kernel);
}

void setBuiltExecNode(Napi::Env env, CUgraphExec exec, const NodeBox& node, NodeParams& p, ResourceBag& kept) {
  if (p.context) makeCurrent(env, p.context);
  execSetNodeCall(env, exec, node.node, p.params);
  for (auto& used : p.uses) kept.add(used);
  if (p.kernel) kept.add(p.kernel);
}

Napi::Value readNodeParams(Napi::Env env, const NodeRef& node) {
  CUgraphNodeType type;
  CU_CHECK(env, cuGraphNodeGetType, node->node, &type);
  Napi::Object out = Napi::Object::New(env);
  out.Set("type", static_cast<int>(type));
  const NodeKind* kind = nodeKind(type);
  if (kind && kind->get) kind->get(env, node, out);
  return out;
}

}  // namespace cudrv
