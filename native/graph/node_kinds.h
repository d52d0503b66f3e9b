// The node kinds a graph can be given, one row each (node_kinds.cc): how a
// kind's parameter object is read and built, which driver calls add, set and
// update it, and how its parameters read back. Adding a kind is a row there
// and one in lib/graph/node-kinds.ts.
//
// The generic calls (cuGraphAddNode, cuGraphNodeSetParams,
// cuGraphExecNodeSetParams) take every kind; drivers before CUDA 12.2/12.3
// lack them and have a call per kind instead. The choice is made here, once,
// from the driver's table: a kind's per-type call is used when the driver
// lacks the generic one (or when CUDA_DRIVER_GRAPH_PER_TYPE_CALLS is set, so
// that tests reach the per-type calls on any driver). What only the generic
// call can express (edge data, a moved child graph, a kind without per-type
// calls) goes through the generic call, which then reports itself missing.
#pragma once

#include <string>

#include "graph/node_params.h"

namespace cudrv {

struct NodeKind {
  CUgraphNodeType type;
  const char* name;  // as lib/graph/node-kinds.ts names the kind
  // The parameter object's fields (reading may run JavaScript: no handle is
  // looked up here), and the elements of its lists when it has some.
  ObjectFields (*fields)(Napi::Object params);
  void (*lists)(NodeFields& fields);
  // The parameters, with what the node uses (NodeParams::uses: the graph or
  // executable keeps them alive). graph: see buildNodeParams.
  void (*build)(Napi::Env env, const NodeFields& fields, NodeParams& out, GraphBox* graph);
  // The per-type calls (null where the kind has none), from the generic parameters.
  Fn addFn;
  CUresult (*add)(CUgraphNode* node, CUgraph graph, const CUgraphNode* deps, size_t count, CUgraphNodeParams& g);
  Fn setFn;
  CUresult (*set)(CUgraphNode node, CUgraphNodeParams& g);
  Fn execSetFn;
  CUresult (*execSet)(CUgraphExec exec, CUgraphNode node, CUgraphNodeParams& g);
  // The driver's parameters of an existing node, set on out (the per-type get).
  void (*get)(Napi::Env env, const NodeRef& node, Napi::Object out);
  // After the node is added: what it changes (kernel attributes, a moved
  // child's owner) and what it brings back to addNode's caller (result: null
  // for the kernel node's hot form).
  void (*added)(Napi::Env env, const GraphRef& graph, const NodeRef& node, NodeParams& p, Napi::Object* result);
};

// The row of type; null for a kind this library does not build.
const NodeKind* nodeKind(CUgraphNodeType type);

// The driver calls for parameters g, generic or per-type (see above); they
// throw the driver's error, with detail when given.
CUgraphNode addNodeCall(Napi::Env env, CUgraph graph, const Dependencies& deps, CUgraphNodeParams& g, bool genericOnly,
                        const std::string* detail = nullptr);
void setNodeCall(Napi::Env env, CUgraphNode node, CUgraphNodeParams& g);
void execSetNodeCall(Napi::Env env, CUgraphExec exec, CUgraphNode node, CUgraphNodeParams& g,
                     const std::string* detail = nullptr);

}  // namespace cudrv
