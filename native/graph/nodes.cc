// Adding nodes to graphs, reading their parameters back and changing them:
// through the generic calls (cuGraphAddNode, cuGraphNodeSetParams), or the
// per-type calls of drivers before CUDA 12.3 (cuGraphAddKernelNode, ...).
#include <cstring>

#include "core/args.h"
#include "event.h"
#include "generated/entries.h"
#include "core/hot_call.h"
#include "graph/node_params.h"

namespace cudrv {

namespace {

// The per-type add call for what buildNodeParams made.
CUresult addPerType(CUgraphNode* node, CUgraph graph, const Dependencies& deps, NodeParams& p, Fn* fn) {
  const CUgraphNode* d = deps.nodes();
  size_t n = deps.count();
  CUgraphNodeParams& g = p.params;
  switch (g.type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: {
      *fn = Fn::cuGraphAddKernelNode;
      CUDA_KERNEL_NODE_PARAMS k = perTypeKernelParams(g);
      return CU_CALL(cuGraphAddKernelNode, node, graph, d, n, &k);
    }
    case CU_GRAPH_NODE_TYPE_MEMCPY:
      *fn = Fn::cuGraphAddMemcpyNode;
      return CU_CALL(cuGraphAddMemcpyNode, node, graph, d, n, &g.memcpy.copyParams, g.memcpy.copyCtx);
    case CU_GRAPH_NODE_TYPE_MEMSET: {
      *fn = Fn::cuGraphAddMemsetNode;
      CUDA_MEMSET_NODE_PARAMS m{g.memset.dst, g.memset.pitch, g.memset.value, g.memset.elementSize, g.memset.width,
                                g.memset.height};
      return CU_CALL(cuGraphAddMemsetNode, node, graph, d, n, &m, g.memset.ctx);
    }
    case CU_GRAPH_NODE_TYPE_HOST: {
      *fn = Fn::cuGraphAddHostNode;
      CUDA_HOST_NODE_PARAMS h{g.host.fn, g.host.userData};
      return CU_CALL(cuGraphAddHostNode, node, graph, d, n, &h);
    }
    case CU_GRAPH_NODE_TYPE_GRAPH:
      *fn = Fn::cuGraphAddChildGraphNode;
      return CU_CALL(cuGraphAddChildGraphNode, node, graph, d, n, g.graph.graph);
    case CU_GRAPH_NODE_TYPE_EMPTY:
      *fn = Fn::cuGraphAddEmptyNode;
      return CU_CALL(cuGraphAddEmptyNode, node, graph, d, n);
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
      *fn = Fn::cuGraphAddEventWaitNode;
      return CU_CALL(cuGraphAddEventWaitNode, node, graph, d, n, g.eventWait.event);
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
      *fn = Fn::cuGraphAddEventRecordNode;
      return CU_CALL(cuGraphAddEventRecordNode, node, graph, d, n, g.eventRecord.event);
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC: {
      *fn = Fn::cuGraphAddMemAllocNode;
      CUDA_MEM_ALLOC_NODE_PARAMS a;
      std::memcpy(&a, &g.alloc, sizeof(a));
      CUresult r = CU_CALL(cuGraphAddMemAllocNode, node, graph, d, n, &a);
      g.alloc.dptr = a.dptr;
      return r;
    }
    case CU_GRAPH_NODE_TYPE_MEM_FREE:
      *fn = Fn::cuGraphAddMemFreeNode;
      return CU_CALL(cuGraphAddMemFreeNode, node, graph, d, n, g.free.dptr);
    case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP: {
      *fn = Fn::cuGraphAddBatchMemOpNode;
      CUDA_BATCH_MEM_OP_NODE_PARAMS b{g.memOp.ctx, g.memOp.count, g.memOp.paramArray, g.memOp.flags};
      return CU_CALL(cuGraphAddBatchMemOpNode, node, graph, d, n, &b);
    }
    default:
      *fn = Fn::cuGraphAddNode;
      return CUDA_ERROR_NOT_SUPPORTED;  // conditional nodes exist only through cuGraphAddNode
  }
}

// Adds a node of parameters p to graph after deps: the driver call and what the graph keeps.
NodeRef addBuiltNode(Napi::Env env, const GraphRef& graph, const Dependencies& deps, NodeParams* p, bool perType) {
  if (perType && deps.hasEdgeData()) throwTypeError(env, "edge data needs cuGraphAddNode (perTypeCall false)");
  if (perType && p->movedChild) throwTypeError(env, "moving a child graph needs cuGraphAddNode (perTypeCall false)");
  if (p->context) makeCurrent(env, p->context);
  CUgraphNode node = nullptr;
  Fn fn = Fn::cuGraphAddNode;
  CUresult r = perType ? addPerType(&node, graph->graph, deps, *p, &fn)
                       : CU_CALL(cuGraphAddNode, &node, graph->graph, deps.nodes(), deps.edges(), deps.count(), &p->params);
  if (r != CUDA_SUCCESS) throwCudaError(env, r, fn);
  for (auto& used : p->uses) graph->keep(env, used);
  if (p->kernel) graph->keep(env, p->kernel);
  if (p->movedChild) {
    // The child's CUgraph now belongs to the new node, and so to this graph.
    p->movedChild->owned = false;
    p->movedChild->parent = graph;
  }
  NodeRef box = graph->nodes.add(graph, node);
  if (p->params.type == CU_GRAPH_NODE_TYPE_KERNEL) applyKernelAttributes(env, node, p->kernelCall.plan.config);
  return box;
}

}  // namespace

// addNode(graph, dependencies, edgeData | undefined, params, perTypeCall)
//   -> {node, allocation?: GraphAllocation, bodies?: Graph[]}
Napi::Value AddNode(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  // Every argument is read before any handle is looked up: reading the
  // dependencies and parameters may run JavaScript (getters) that disposes
  // the graph, a dependency or what the node would use.
  Dependencies deps(env, info[1], info[2]);
  const NodeFields fields = readNodeFields(env, info[3]);
  const bool perType = boolArg(info[4], "perTypeCall");
  GraphRef graph = graphArg(info[0], "graph");
  deps.resolve(env, *graph);
  std::unique_ptr<NodeParams> p = buildNodeParams(env, fields, graph.get());
  NodeRef box = addBuiltNode(env, graph, deps, p.get(), perType);
  Napi::Object out = Napi::Object::New(env);
  out.Set("node", nodeValue(env, box));
  if (p->params.type == CU_GRAPH_NODE_TYPE_MEM_ALLOC) {
    auto allocation = std::make_shared<GraphAllocationBox>();
    allocation->kind = MemoryKind::Device;
    allocation->device = p->params.alloc.dptr;
    allocation->size = p->params.alloc.bytesize;
    allocation->context = primaryContext(env, p->params.alloc.poolProps.location.id);
    allocation->node = box;
    out.Set("allocation", newGraphAllocationSlot(env, allocation));
  }
  if (p->params.type == CU_GRAPH_NODE_TYPE_CONDITIONAL) {
    Napi::Array bodies = Napi::Array::New(env, p->params.conditional.size);
    for (uint32_t i = 0; i < p->params.conditional.size; ++i) {
      bodies.Set(i, newGraphSlot(env, makeGraphBox(env, p->params.conditional.phGraph_out[i], graph)));
    }
    out.Set("bodies", bodies);
  }
  return out;
}

// addKernelNode(graph, dependencies, edgeData | undefined, kernel, record,
// perTypeCall) -> node: addNode for a kernel node, its parameters given one by
// one (see KernelNodeFields); a plain Node-API callback (core/hot_call.h), as
// launches are, the graph by slot.
napi_value AddKernelNode(Napi::Env env, SlotTable& table, const HotArgs<6>& args) {
  Dependencies deps(env, Napi::Value(env, args[1]), Napi::Value(env, args[2]));
  const bool perType = boolArg(Napi::Value(env, args[5]), "perTypeCall");
  GraphRef graph = graphArg(table, Napi::Value(env, args[0]), "graph");
  deps.resolve(env, *graph);
  return nodeValue(env, table, addKernelNodeFromFields(env, table, graph, deps, {Napi::Value(env, args[3]), Napi::Value(env, args[4])}, perType));
}

// setNodeParams(node, params, perTypeCall): new parameters for a node of the
// graph (not of executables already made from it). The types whose per-type
// setter exists use it when asked; cuGraphNodeSetParams otherwise.
Napi::Value SetNodeParams(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const NodeFields fields = readNodeFields(env, info[1]);
  const bool perType = boolArg(info[2], "perTypeCall");
  const NodeRef& node = nodeArg(info[0], "node");
  GraphRef graph = graphOf(env, *node);
  std::unique_ptr<NodeParams> p = buildNodeParams(env, fields, graph.get());
  if (p->context) makeCurrent(env, p->context);
  CUgraphNodeParams& g = p->params;
  CUresult r;
  Fn fn = Fn::cuGraphNodeSetParams;
  if (!perType) {
    r = CU_CALL(cuGraphNodeSetParams, node->node, &g);
  } else {
    switch (g.type) {
      case CU_GRAPH_NODE_TYPE_KERNEL: {
        fn = Fn::cuGraphKernelNodeSetParams;
        CUDA_KERNEL_NODE_PARAMS k = perTypeKernelParams(g);
        r = CU_CALL(cuGraphKernelNodeSetParams, node->node, &k);
        break;
      }
      case CU_GRAPH_NODE_TYPE_MEMCPY:
        fn = Fn::cuGraphMemcpyNodeSetParams;
        r = CU_CALL(cuGraphMemcpyNodeSetParams, node->node, &g.memcpy.copyParams);
        break;
      case CU_GRAPH_NODE_TYPE_MEMSET: {
        fn = Fn::cuGraphMemsetNodeSetParams;
        CUDA_MEMSET_NODE_PARAMS m{g.memset.dst, g.memset.pitch, g.memset.value, g.memset.elementSize, g.memset.width,
                                  g.memset.height};
        r = CU_CALL(cuGraphMemsetNodeSetParams, node->node, &m);
        break;
      }
      case CU_GRAPH_NODE_TYPE_HOST: {
        fn = Fn::cuGraphHostNodeSetParams;
        CUDA_HOST_NODE_PARAMS h{g.host.fn, g.host.userData};
        r = CU_CALL(cuGraphHostNodeSetParams, node->node, &h);
        break;
      }
      case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        fn = Fn::cuGraphEventWaitNodeSetEvent;
        r = CU_CALL(cuGraphEventWaitNodeSetEvent, node->node, g.eventWait.event);
        break;
      case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        fn = Fn::cuGraphEventRecordNodeSetEvent;
        r = CU_CALL(cuGraphEventRecordNodeSetEvent, node->node, g.eventRecord.event);
        break;
      case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP: {
        fn = Fn::cuGraphBatchMemOpNodeSetParams;
        CUDA_BATCH_MEM_OP_NODE_PARAMS b{g.memOp.ctx, g.memOp.count, g.memOp.paramArray, g.memOp.flags};
        r = CU_CALL(cuGraphBatchMemOpNodeSetParams, node->node, &b);
        break;
      }
      default:
        throwTypeError(env, "this node type has no per-type setter; use the generic one");
    }
  }
  if (r != CUDA_SUCCESS) throwCudaError(env, r, fn);
  for (auto& used : p->uses) graph->keep(env, used);
  if (p->kernel) graph->keep(env, p->kernel);
  return env.Undefined();
}

namespace {

Napi::Object memcpyObject(Napi::Env env, const CUDA_MEMCPY3D& c) {
  Napi::Object out = Napi::Object::New(env);
  out.Set("dst", bigint(env, c.dstDevice ? c.dstDevice : reinterpret_cast<CUdeviceptr>(c.dstHost)));
  out.Set("src", bigint(env, c.srcDevice ? c.srcDevice : reinterpret_cast<CUdeviceptr>(c.srcHost)));
  out.Set("bytes", static_cast<double>(c.WidthInBytes * c.Height * c.Depth));
  return out;
}

}  // namespace

// graphNodeParams(node): what the driver holds for the node, per type. The node is
// held: setting the result's properties may run setters JavaScript put on
// Object.prototype, which could dispose it.
Napi::Value GraphNodeParams(const Napi::CallbackInfo& info) {
  const NodeRef node = nodeArg(info[0], "node");
  return readNodeParams(info.Env(), node);
}

Napi::Value readNodeParams(Napi::Env env, const NodeRef& node) {
  CUgraphNodeType type;
  CU_CHECK(env, cuGraphNodeGetType, node->node, &type);
  Napi::Object out = Napi::Object::New(env);
  out.Set("type", static_cast<int>(type));
  switch (type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: {
      CUDA_KERNEL_NODE_PARAMS k;
      CU_CHECK(env, cuGraphKernelNodeGetParams, node->node, &k);
      Napi::Array grid = Napi::Array::New(env, 3), block = Napi::Array::New(env, 3);
      grid.Set(0u, k.gridDimX), grid.Set(1u, k.gridDimY), grid.Set(2u, k.gridDimZ);
      block.Set(0u, k.blockDimX), block.Set(1u, k.blockDimY), block.Set(2u, k.blockDimZ);
      out.Set("grid", grid);
      out.Set("block", block);
      out.Set("sharedMemoryBytes", k.sharedMemBytes);
      out.Set("function", handleValue(env, k.func ? static_cast<void*>(k.func) : static_cast<void*>(k.kern)));
      break;
    }
    case CU_GRAPH_NODE_TYPE_MEMCPY: {
      CUDA_MEMCPY3D c;
      CU_CHECK(env, cuGraphMemcpyNodeGetParams, node->node, &c);
      out.Set("copy", memcpyObject(env, c));
      break;
    }
    case CU_GRAPH_NODE_TYPE_MEMSET: {
      CUDA_MEMSET_NODE_PARAMS m;
      CU_CHECK(env, cuGraphMemsetNodeGetParams, node->node, &m);
      out.Set("target", bigint(env, m.dst));
      out.Set("value", m.value);
      out.Set("elementBytes", m.elementSize);
      out.Set("width", static_cast<double>(m.width));
      out.Set("height", static_cast<double>(m.height));
      out.Set("pitch", static_cast<double>(m.pitch));
      break;
    }
    case CU_GRAPH_NODE_TYPE_HOST: {
      CUDA_HOST_NODE_PARAMS h;
      CU_CHECK(env, cuGraphHostNodeGetParams, node->node, &h);
      out.Set("hasCallback", h.fn != nullptr);
      break;
    }
    case CU_GRAPH_NODE_TYPE_GRAPH: {
      CUgraph child = nullptr;
      CU_CHECK(env, cuGraphChildGraphNodeGetGraph, node->node, &child);
      out.Set("graph", newGraphSlot(env, makeGraphBox(env, child, graphOf(env, *node))));
      break;
    }
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: {
      CUevent event = nullptr;
      CU_CHECK(env, cuGraphEventWaitNodeGetEvent, node->node, &event);
      out.Set("event", handleValue(env, event));
      break;
    }
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: {
      CUevent event = nullptr;
      CU_CHECK(env, cuGraphEventRecordNodeGetEvent, node->node, &event);
      out.Set("event", handleValue(env, event));
      break;
    }
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC: {
      CUDA_MEM_ALLOC_NODE_PARAMS a;
      CU_CHECK(env, cuGraphMemAllocNodeGetParams, node->node, &a);
      out.Set("address", bigint(env, a.dptr));
      out.Set("bytes", static_cast<double>(a.bytesize));
      out.Set("ordinal", a.poolProps.location.id);
      out.Set("peers", static_cast<double>(a.accessDescCount));
      break;
    }
    case CU_GRAPH_NODE_TYPE_MEM_FREE: {
      CUdeviceptr address = 0;
      CU_CHECK(env, cuGraphMemFreeNodeGetParams, node->node, &address);
      out.Set("address", bigint(env, address));
      break;
    }
    case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP: {
      CUDA_BATCH_MEM_OP_NODE_PARAMS b;
      CU_CHECK(env, cuGraphBatchMemOpNodeGetParams, node->node, &b);
      Napi::Array ops = Napi::Array::New(env, b.count);
      for (uint32_t i = 0; i < b.count; ++i) {
        const CUstreamBatchMemOpParams& m = b.paramArray[i];
        Napi::Object op = Napi::Object::New(env);
        op.Set("operation", static_cast<int>(m.operation));
        if (m.operation != CU_STREAM_MEM_OP_BARRIER && m.operation != CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES) {
          op.Set("address", bigint(env, m.waitValue.address));
          op.Set("value", bigint(env, m.waitValue.value64));
        }
        ops.Set(i, op);
      }
      out.Set("ops", ops);
      break;
    }
    default:
      break;
  }
  return out;
}

Napi::Value newGraphAllocationSlot(Napi::Env env, const std::shared_ptr<GraphAllocationBox>& allocation) {
  return GraphAllocation::newSlot(env, allocation);
}

Napi::Value GraphAllocationAddress(const Napi::CallbackInfo& info) {
  return bigint(info.Env(), GraphAllocation::fromSlot(info[0], "allocation")->device);
}

Napi::Value GraphAllocationSize(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(GraphAllocation::fromSlot(info[0], "allocation")->size));
}

}  // namespace cudrv
