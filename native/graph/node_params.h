// A graph node's parameters, built from the object lib/graph/node-params.ts
// encodes, in the form cuGraphAddNode / cuGraphNodeSetParams /
// cuGraphExecNodeSetParams take, plus the per-type structures of the older
// per-type calls, and the resources the node uses.
#pragma once

#include <napi.h>

#include <array>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "core/args.h"
#include "graph/graph.h"
#include "kernel/launch.h"
#include "memory/memory.h"

namespace cudrv {

struct PreparedLaunchBox;

struct NodeParams {
  CUgraphNodeParams params{};
  CUcontext context = nullptr;  // the context copies, fills and alloc nodes work in
  // Storage the driver structures point into, kept until the call is made.
  std::vector<CUstreamBatchMemOpParams> memOps;
  std::vector<CUmemAccessDesc> access;
  std::vector<CUgraph> bodies;             // conditional node: the body graphs the driver makes
  KernelCall kernelCall;                   // kernel node: the packed call (arguments, shape, attributes)
  std::optional<KernelParams> kernelParams;  // ... its parameters as the driver takes them
  std::shared_ptr<void> kernel;            // kernel node: the kernel (and so its code)
  GraphRef movedChild;                     // child graph node: a graph handed over to the node
  std::vector<std::shared_ptr<void>> uses; // resources the node uses, to keep alive
  MemoryRef freed;                         // free node: the memory it frees (not kept: see memFreeAdded)

  NodeParams() = default;
  NodeParams(const NodeParams&) = delete;
  NodeParams& operator=(const NodeParams&) = delete;
};

// A kernel node's parameters as the per-type calls take them
// (CUDA_KERNEL_NODE_PARAMS_v2), from the v3 structure CUgraphNodeParams holds:
// cuda.h gives the two the same fields in the same order.
inline CUDA_KERNEL_NODE_PARAMS perTypeKernelParams(const CUgraphNodeParams& g) {
  CUDA_KERNEL_NODE_PARAMS k;
  std::memcpy(&k, &g.kernel, sizeof(k));
  return k;
}

// A node's parameter object (lib/graph/node-params.ts) read in full: its type
// (a CUgraphNodeType), the fields that type has, and the elements of its lists.
// Reading may run JavaScript (getters): an entry reads the fields before it
// looks up any handle, and builds the parameters from them after.
struct NodeFields {
  CUgraphNodeType type;
  ObjectFields fields;
  std::vector<Napi::Value> peers;  // an allocation node's
  std::optional<BatchValues> ops;  // a batch memory operation node's
};
NodeFields readNodeFields(Napi::Env env, Napi::Value params);

// graph is the graph the node is or will be in (for graph-owned pieces such as
// conditional handles), or null when updating an executable.
std::unique_ptr<NodeParams> buildNodeParams(Napi::Env env, const NodeFields& fields, GraphBox* graph);

// Built parameters p made a node of graph after deps: the driver call (generic
// or per-type, node_kinds.h), what the graph keeps, what the kind does once
// added; result, when given, receives the node's slot ("node") and what the
// kind brings back ("allocation", "bodies"). The new node's box.
NodeRef addBuiltNode(Napi::Env env, const GraphRef& graph, const Dependencies& deps, NodeParams& p,
                     Napi::Object* result);
// New parameters p for a node of graph (not of executables already made from it).
void setBuiltNode(Napi::Env env, const GraphRef& graph, const NodeBox& node, NodeParams& p);
// New parameters p for an executable's copy of a node; what they use goes into kept.
void setBuiltExecNode(Napi::Env env, CUgraphExec exec, const NodeBox& node, NodeParams& p, ResourceBag& kept);
// A kernel node's parameters given one by one (the hot form: no object read by
// property name): kernel slot and record, as lib/graph/node-params.ts
// encodeKernelNode makes them.
using KernelNodeFields = std::array<Napi::Value, 2>;
// A kernel node added to graph after deps (the hot form of Graph.addKernel):
// its parameters built on the stack, the driver call made (node_kinds.h),
// its launch attributes applied, the kernel and the memory its
// arguments name kept by the graph. The new node's box.
NodeRef addKernelNodeFromFields(Napi::Env env, const SlotTable& table, const GraphRef& graph, const Dependencies& deps,
                                const KernelNodeFields& fields);

// Attributes a launch configuration carries (cluster shape, cooperation,
// priority) become kernel node attributes.
void applyKernelAttributes(Napi::Env env, CUgraphNode node, const CUlaunchConfig& config);

// An executable's kernel node takes a kernel call (the hot form of
// GraphExec.setParams): its parameters built on the stack, the driver call
// made (node_kinds.h), then the kernel and the memory its arguments
// name kept in kept. Launch attributes are fixed when an executable is made,
// so the call's are not applied.
void setExecKernelNode(Napi::Env env, const SlotTable& table, CUgraphExec exec, CUgraphNode node,
                       const KernelNodeFields& fields, ResourceBag& kept);

// A prepared launch's kernel, shape and current arguments as kernel node
// parameters (TypeError when it has launch attributes, which an executable's
// node cannot change); the context the node works in.
CUcontext preparedKernelNode(Napi::Env env, PreparedLaunchBox& p, CUgraphNodeParams& g);

// The parameters of an existing node, read back from the driver.
Napi::Value readNodeParams(Napi::Env env, const NodeRef& node);

// Memory that a graph's memory-allocation node hands out: valid while the graph
// has allocated it (between the allocation and free nodes, or until freed
// outside the graph); the driver, not this box, frees it.
struct GraphAllocationBox : MemoryBox {
  NodeRef node;  // the allocation node (and so its graph)
  bool freedInGraph = false;  // a free node of its own graph frees it at every launch
};

class GraphAllocation : public Handle<GraphAllocation, GraphAllocationBox> {
 public:
  static constexpr const char* kName = "GraphAllocation";
};

Napi::Value newGraphAllocationSlot(Napi::Env env, const std::shared_ptr<GraphAllocationBox>& allocation);

}  // namespace cudrv
