// The node kinds, one row each: see node_kinds.h.
#include "graph/node_kinds.h"

#include <cstdlib>
#include <cstring>
#include <iterator>

#include "core/args.h"
#include "event.h"
#include "host_function.h"
#include "memory/device_buffer.h"

namespace cudrv {

// Conditional and kernel nodes are built in files of their own.
void buildConditional(Napi::Env env, const ObjectFields& params, NodeParams& out, GraphBox* graph);
void buildKernelNode(Napi::Env env, const KernelNodeFields& fields, NodeParams& out);

namespace {

uint64_t sizeField(const ObjectFields& params, const char* name) { return u64Arg(params[name], name); }

// ---- kernel: {kernel, record} (the hot form's fields, by name)

void buildKernel(Napi::Env env, const NodeFields& f, NodeParams& out, GraphBox*) {
  buildKernelNode(env, {f.fields["kernel"], f.fields["record"]}, out);
}

void getKernel(Napi::Env env, const NodeRef& node, Napi::Object out) {
  CUDA_KERNEL_NODE_PARAMS k;
  CU_CHECK(env, cuGraphKernelNodeGetParams, node->node, &k);
  Napi::Array grid = Napi::Array::New(env, 3), block = Napi::Array::New(env, 3);
  grid.Set(0u, k.gridDimX), grid.Set(1u, k.gridDimY), grid.Set(2u, k.gridDimZ);
  block.Set(0u, k.blockDimX), block.Set(1u, k.blockDimY), block.Set(2u, k.blockDimZ);
  out.Set("grid", grid);
  out.Set("block", block);
  out.Set("sharedMemoryBytes", k.sharedMemBytes);
  out.Set("function", handleValue(env, k.func ? static_cast<void*>(k.func) : static_cast<void*>(k.kern)));
}

void kernelAdded(Napi::Env env, const GraphRef&, const NodeRef& node, NodeParams& p, Napi::Object*) {
  applyKernelAttributes(env, node->node, p.kernelCall.plan.config);
}

// ---- memcpy: {bytes, dst, dstOffset, src, srcOffset}

void buildMemcpy(Napi::Env env, const NodeFields& f, NodeParams& out, GraphBox*) {
  const ObjectFields& p = f.fields;
  uint64_t bytes = sizeField(p, "bytes");
  Span dst = deviceSpanOf(p["dst"], "dst", sizeField(p, "dstOffset"), bytes);
  Span src = deviceSpanOf(p["src"], "src", sizeField(p, "srcOffset"), bytes);
  if (bytes == 0) throwRangeError(env, "a copy node must move at least one byte");
  refuseOverlap(env, dst, src);
  CUDA_MEMCPY3D& c = out.params.memcpy.copyParams;
  auto side = [](const Span& s, CUmemorytype& type, const void** host, CUdeviceptr& device) {
    type = s.kind == MemoryKind::Host && !s.device ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_UNIFIED;
    *host = s.host;
    device = s.address();
  };
  const void* dstHost = nullptr;
  side(dst, c.dstMemoryType, &dstHost, c.dstDevice);
  c.dstHost = const_cast<void*>(dstHost);
  side(src, c.srcMemoryType, &c.srcHost, c.srcDevice);
  c.WidthInBytes = bytes;
  c.Height = 1;
  c.Depth = 1;
  out.context = (dst.owner->context ? dst.owner->context : src.owner->context)->context;
  out.params.memcpy.copyCtx = out.context;
  out.uses = {dst.owner, src.owner};
}

void getMemcpy(Napi::Env env, const NodeRef& node, Napi::Object out) {
  CUDA_MEMCPY3D c;
  CU_CHECK(env, cuGraphMemcpyNodeGetParams, node->node, &c);
  Napi::Object copy = Napi::Object::New(env);
  copy.Set("dst", bigint(env, c.dstDevice ? c.dstDevice : reinterpret_cast<CUdeviceptr>(c.dstHost)));
  copy.Set("src", bigint(env, c.srcDevice ? c.srcDevice : reinterpret_cast<CUdeviceptr>(c.srcHost)));
  copy.Set("bytes", static_cast<double>(c.WidthInBytes * c.Height * c.Depth));
  out.Set("copy", copy);
}

// ---- memset: {elementBytes, width, height, pitch, target, offset, value}

void buildMemset(Napi::Env env, const NodeFields& f, NodeParams& out, GraphBox*) {
  const ObjectFields& p = f.fields;
  unsigned int element = uintArg(p["elementBytes"], "elementBytes");
  if (element != 1 && element != 2 && element != 4) throwRangeError(env, "elementBytes must be 1, 2 or 4");
  uint64_t width = sizeField(p, "width"), height = sizeField(p, "height");
  uint64_t pitch = height > 1 ? sizeField(p, "pitch") : width * element;
  if (width == 0 || height == 0) throwRangeError(env, "a fill node must write at least one element");
  if (width > pitch / element) throwRangeError(env, "pitch must hold width elements");
  uint64_t extent = 0;
  if (__builtin_mul_overflow(height - 1, pitch, &extent) || __builtin_add_overflow(extent, width * element, &extent)) {
    throwRangeError(env, "region is too large");
  }
  Span target = deviceSpanOf(p["target"], "target", sizeField(p, "offset"), extent);
  if (target.device == 0) throwTypeError(env, "target must be memory the device can reach");
  if (target.device % element != 0 || pitch % element != 0) {
    throwRangeError(env, "the target address and pitch must be aligned to elementBytes");
  }
  CUDA_MEMSET_NODE_PARAMS_v2& m = out.params.memset;
  m.dst = target.device;
  m.pitch = pitch;
  m.value = uintArg(p["value"], "value");
  m.elementSize = element;
  m.width = width;
  m.height = height;
  out.context = target.owner->context->context;
  m.ctx = out.context;
  out.uses = {target.owner};
}

CUDA_MEMSET_NODE_PARAMS perTypeMemset(const CUgraphNodeParams& g) {
  return {g.memset.dst, g.memset.pitch, g.memset.value, g.memset.elementSize, g.memset.width, g.memset.height};
}

void getMemset(Napi::Env env, const NodeRef& node, Napi::Object out) {
  CUDA_MEMSET_NODE_PARAMS m;
  CU_CHECK(env, cuGraphMemsetNodeGetParams, node->node, &m);
  out.Set("target", bigint(env, m.dst));
  out.Set("value", m.value);
  out.Set("elementBytes", m.elementSize);
  out.Set("width", static_cast<double>(m.width));
  out.Set("height", static_cast<double>(m.height));
  out.Set("pitch", static_cast<double>(m.pitch));
}

// ---- host: {callback, wait} (host_function.h)

void buildHost(Napi::Env env, const NodeFields& f, NodeParams& out, GraphBox*) {
  const bool wait = boolArg(f.fields["wait"], "wait");
  std::shared_ptr<HostCallback> callback = makeHostCallback(env, f.fields["callback"]);
  out.params.host.fn = hostCallbackFn(wait);
  out.params.host.userData = callback.get();
  out.uses = {callback};
}

CUDA_HOST_NODE_PARAMS perTypeHost(const CUgraphNodeParams& g) { return {g.host.fn, g.host.userData}; }

void getHost(Napi::Env env, const NodeRef& node, Napi::Object out) {
  CUDA_HOST_NODE_PARAMS h;
  CU_CHECK(env, cuGraphHostNodeGetParams, node->node, &h);
  out.Set("hasCallback", h.fn != nullptr);
  out.Set("wait", hostCallbackWaits(h.fn));
}

// ---- graph (a child graph): {graph, move}: cloned into the node, or (move) handed over to it

void buildChildGraph(Napi::Env env, const NodeFields& f, NodeParams& out, GraphBox*) {
  const ObjectFields& p = f.fields;
  bool move = boolArg(p["move"], "move");
  const GraphRef& child = graphArg(p["graph"], "graph");
  if (!child->owned) throwTypeError(env, "graph belongs to another graph (a moved child or a conditional body)");
  out.params.graph.graph = child->graph;
  out.params.graph.ownership = move ? CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE : CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE;
  if (move) out.movedChild = child;
  out.uses = {child};
}

void getChildGraph(Napi::Env env, const NodeRef& node, Napi::Object out) {
  CUgraph child = nullptr;
  CU_CHECK(env, cuGraphChildGraphNodeGetGraph, node->node, &child);
  out.Set("graph", newGraphSlot(env, makeGraphBox(env, child, graphOf(env, *node))));
}

void childGraphAdded(Napi::Env, const GraphRef& graph, const NodeRef&, NodeParams& p, Napi::Object*) {
  if (!p.movedChild) return;
  // The child's CUgraph now belongs to the new node, and so to this graph.
  p.movedChild->owned = false;
  p.movedChild->parent = graph;
}

// ---- eventWait, eventRecord: {event}

template <bool record>
void buildEvent(Napi::Env, const NodeFields& f, NodeParams& out, GraphBox*) {
  const EventRef& event = Event::fromSlot(f.fields["event"], "event");
  if (record) {
    event->recordedElsewhere = true;  // each launch records it, unseen by the library
    out.params.eventRecord.event = event->event;
  } else {
    out.params.eventWait.event = event->event;
  }
  out.uses = {event};
}

void getEventWait(Napi::Env env, const NodeRef& node, Napi::Object out) {
  CUevent event = nullptr;
  CU_CHECK(env, cuGraphEventWaitNodeGetEvent, node->node, &event);
  out.Set("event", handleValue(env, event));
}

void getEventRecord(Napi::Env env, const NodeRef& node, Napi::Object out) {
  CUevent event = nullptr;
  CU_CHECK(env, cuGraphEventRecordNodeGetEvent, node->node, &event);
  out.Set("event", handleValue(env, event));
}

// ---- memAlloc: {ordinal, bytes, peers}

void memAllocLists(NodeFields& f) {
  Napi::Value peers = f.fields["peers"];
  if (!peers.IsArray()) return;
  Napi::Array list = peers.As<Napi::Array>();
  for (uint32_t i = 0; i < list.Length(); ++i) f.peers.push_back(list[i]);
}

void buildMemAlloc(Napi::Env env, const NodeFields& f, NodeParams& out, GraphBox*) {
  const ObjectFields& p = f.fields;
  int ordinal = intArg(p["ordinal"], "ordinal");
  ContextRef context = primaryContext(env, ordinal);
  CUDA_MEM_ALLOC_NODE_PARAMS_v2& a = out.params.alloc;
  a.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  a.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  a.poolProps.location.id = ordinal;
  a.bytesize = sizeField(p, "bytes");
  if (a.bytesize == 0) throwRangeError(env, "bytes must be at least 1");
  for (const Napi::Value& peer : f.peers) {
    CUmemAccessDesc desc{};
    desc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    desc.location.id = intArg(peer, "peer");
    desc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    out.access.push_back(desc);
  }
  a.accessDescs = out.access.empty() ? nullptr : out.access.data();
  a.accessDescCount = out.access.size();
  out.context = context->context;
  out.uses = {context};
}

CUresult addMemAlloc(CUgraphNode* node, CUgraph graph, const CUgraphNode* d, size_t n, CUgraphNodeParams& g) {
  CUDA_MEM_ALLOC_NODE_PARAMS a;
  std::memcpy(&a, &g.alloc, sizeof(a));
  CUresult r = CU_CALL(cuGraphAddMemAllocNode, node, graph, d, n, &a);
  g.alloc.dptr = a.dptr;
  return r;
}

void getMemAlloc(Napi::Env env, const NodeRef& node, Napi::Object out) {
  CUDA_MEM_ALLOC_NODE_PARAMS a;
  CU_CHECK(env, cuGraphMemAllocNodeGetParams, node->node, &a);
  out.Set("address", bigint(env, a.dptr));
  out.Set("bytes", static_cast<double>(a.bytesize));
  out.Set("ordinal", a.poolProps.location.id);
  out.Set("peers", static_cast<double>(a.accessDescCount));
}

// The memory the node hands out, for addNode's caller.
void memAllocAdded(Napi::Env env, const GraphRef&, const NodeRef& node, NodeParams& p, Napi::Object* result) {
  if (!result) return;
  auto allocation = std::make_shared<GraphAllocationBox>();
  allocation->kind = MemoryKind::Device;
  allocation->device = p.params.alloc.dptr;
  allocation->size = p.params.alloc.bytesize;
  allocation->context = primaryContext(env, p.params.alloc.poolProps.location.id);
  allocation->node = node;
  // Its address is the graph's: it ends with the graph, or with the node.
  allocation->ended = [](const MemoryBox& memory) {
    const NodeBox& allocating = *static_cast<const GraphAllocationBox&>(memory).node;
    const GraphRef graph = allocating.graph.lock();
    return !allocating.alive || !graph || !graph->root();
  };
  result->Set("allocation", newGraphAllocationSlot(env, allocation));
}

// ---- memFree: {allocation}

void buildMemFree(Napi::Env env, const NodeFields& f, NodeParams& out, GraphBox*) {
  Span allocation = deviceSpanOf(f.fields["allocation"], "allocation", 0, 0);
  if (allocation.device == 0) throwTypeError(env, "allocation must be device memory");
  out.params.free.dptr = allocation.device;
  out.freed = std::move(allocation.owner);
}

// Once a free node frees memory, the graph owns that free. Stream-ordered
// memory (a buffer allocated during a capture: a graph allocation) then frees
// nothing itself, which would free the address again, maybe another launch's
// allocation of it; a graph allocation its own graph frees is marked so that
// lib/ refuses to free it outside (every launch frees it).
void memFreeAdded(Napi::Env, const GraphRef& graph, const NodeRef&, NodeParams& p, Napi::Object*) {
  if (auto* buffer = dynamic_cast<DeviceMemoryBox*>(p.freed.get())) {
    if (buffer->allocation == DeviceMemoryBox::Allocation::StreamOrdered) buffer->freed = true;
  } else if (auto* allocation = dynamic_cast<GraphAllocationBox*>(p.freed.get())) {
    if (allocation->node && allocation->node->graph.lock() == graph) allocation->freedInGraph = true;
  }
}

void getMemFree(Napi::Env env, const NodeRef& node, Napi::Object out) {
  CUdeviceptr address = 0;
  CU_CHECK(env, cuGraphMemFreeNodeGetParams, node->node, &address);
  out.Set("address", bigint(env, address));
}

// ---- batchMemOp: {ops: [[operation, target, offset, value, flags], ...] as for Stream.batchMemoryOps, ordinal}

void batchMemOpLists(NodeFields& f) {
  f.ops.emplace(arrayArg(f.fields["ops"], "ops", 1, 256, "must hold 1 to 256 operations"), 5,
                "each operation must be an array");
}

void buildBatchMemOp(Napi::Env env, const NodeFields& f, NodeParams& out, GraphBox*) {
  const BatchValues& ops = *f.ops;
  ContextRef context;
  for (uint32_t i = 0; i < ops.size(); ++i) {
    CUstreamBatchMemOpParams m;
    std::memset(&m, 0, sizeof(m));
    m.operation = static_cast<CUstreamBatchMemOpType>(uintArg(ops(i, 0), "operation"));
    unsigned int flags = uintArg(ops(i, 4), "flags");
    switch (m.operation) {
      case CU_STREAM_MEM_OP_WAIT_VALUE_32:
      case CU_STREAM_MEM_OP_WRITE_VALUE_32:
      case CU_STREAM_MEM_OP_WAIT_VALUE_64:
      case CU_STREAM_MEM_OP_WRITE_VALUE_64: {
        bool wide = m.operation == CU_STREAM_MEM_OP_WAIT_VALUE_64 || m.operation == CU_STREAM_MEM_OP_WRITE_VALUE_64;
        Span word = deviceSpanOf(ops(i, 1), "target", u64Arg(ops(i, 2), "offset"), wide ? 8 : 4);
        if (word.device == 0 || word.device % (wide ? 8 : 4) != 0) {
          throwRangeError(env, "a memory operation's target must be device-reachable and aligned to its width");
        }
        m.waitValue.address = word.device;
        if (wide) m.waitValue.value64 = u64Arg(ops(i, 3), "value");
        else m.waitValue.value = uintArg(ops(i, 3), "value");
        m.waitValue.flags = flags;
        if (!context) context = word.owner->context;
        out.uses.push_back(word.owner);
        break;
      }
      case CU_STREAM_MEM_OP_BARRIER:
        m.memoryBarrier.flags = flags;
        break;
      case CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES:
        m.flushRemoteWrites.flags = flags;
        break;
      default:
        throwRangeError(env, "operation " + std::to_string(m.operation) + " is not a stream memory operation");
    }
    out.memOps.push_back(m);
  }
  if (!context) context = primaryContext(env, intArg(f.fields["ordinal"], "ordinal"));
  out.context = context->context;
  out.params.memOp.ctx = out.context;
  out.params.memOp.count = static_cast<unsigned int>(out.memOps.size());
  out.params.memOp.paramArray = out.memOps.data();
  out.params.memOp.flags = 0;
  out.uses.push_back(context);
}

CUDA_BATCH_MEM_OP_NODE_PARAMS perTypeBatch(const CUgraphNodeParams& g) {
  return {g.memOp.ctx, g.memOp.count, g.memOp.paramArray, g.memOp.flags};
}

void getBatchMemOp(Napi::Env env, const NodeRef& node, Napi::Object out) {
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
}

// ---- conditional: {handle, kind, size}

void buildConditionalNode(Napi::Env env, const NodeFields& f, NodeParams& out, GraphBox* graph) {
  buildConditional(env, f.fields, out, graph);
}

// The body graphs the driver made, for addNode's caller.
void conditionalAdded(Napi::Env env, const GraphRef& graph, const NodeRef&, NodeParams& p, Napi::Object* result) {
  if (!result) return;
  Napi::Array bodies = Napi::Array::New(env, p.params.conditional.size);
  for (uint32_t i = 0; i < p.params.conditional.size; ++i) {
    bodies.Set(i, newGraphSlot(env, makeGraphBox(env, p.params.conditional.phGraph_out[i], graph)));
  }
  result->Set("bodies", bodies);
}

void buildEmpty(Napi::Env, const NodeFields&, NodeParams&, GraphBox*) {}

// The parts of a row, named.
using Add = CUresult (*)(CUgraphNode*, CUgraph, const CUgraphNode*, size_t, CUgraphNodeParams&);
using Set = CUresult (*)(CUgraphNode, CUgraphNodeParams&);
using ExecSet = CUresult (*)(CUgraphExec, CUgraphNode, CUgraphNodeParams&);
#define CUDRV_FIELDS(...) [](Napi::Object p) { return ObjectFields(p, {__VA_ARGS__}); }
constexpr Fn kNone = Fn::Count;  // a per-type call the kind does not have

constexpr NodeKind kKinds[] = {
    {CU_GRAPH_NODE_TYPE_KERNEL, "kernel", CUDRV_FIELDS("kernel", "record"), nullptr, buildKernel,
     Fn::cuGraphAddKernelNode,
     [](CUgraphNode* node, CUgraph graph, const CUgraphNode* d, size_t n, CUgraphNodeParams& g) {
       CUDA_KERNEL_NODE_PARAMS k = perTypeKernelParams(g);
       return CU_CALL(cuGraphAddKernelNode, node, graph, d, n, &k);
     },
     Fn::cuGraphKernelNodeSetParams,
     [](CUgraphNode node, CUgraphNodeParams& g) {
       CUDA_KERNEL_NODE_PARAMS k = perTypeKernelParams(g);
       return CU_CALL(cuGraphKernelNodeSetParams, node, &k);
     },
     Fn::cuGraphExecKernelNodeSetParams,
     [](CUgraphExec exec, CUgraphNode node, CUgraphNodeParams& g) {
       CUDA_KERNEL_NODE_PARAMS k = perTypeKernelParams(g);
       return CU_CALL(cuGraphExecKernelNodeSetParams, exec, node, &k);
     },
     getKernel, kernelAdded},
    {CU_GRAPH_NODE_TYPE_MEMCPY, "memcpy", CUDRV_FIELDS("bytes", "dst", "dstOffset", "src", "srcOffset"), nullptr,
     buildMemcpy, Fn::cuGraphAddMemcpyNode,
     [](CUgraphNode* node, CUgraph graph, const CUgraphNode* d, size_t n, CUgraphNodeParams& g) {
       return CU_CALL(cuGraphAddMemcpyNode, node, graph, d, n, &g.memcpy.copyParams, g.memcpy.copyCtx);
     },
     Fn::cuGraphMemcpyNodeSetParams,
     [](CUgraphNode node, CUgraphNodeParams& g) { return CU_CALL(cuGraphMemcpyNodeSetParams, node, &g.memcpy.copyParams); },
     Fn::cuGraphExecMemcpyNodeSetParams,
     [](CUgraphExec exec, CUgraphNode node, CUgraphNodeParams& g) {
       return CU_CALL(cuGraphExecMemcpyNodeSetParams, exec, node, &g.memcpy.copyParams, g.memcpy.copyCtx);
     },
     getMemcpy, nullptr},
    {CU_GRAPH_NODE_TYPE_MEMSET, "memset",
     CUDRV_FIELDS("elementBytes", "width", "height", "pitch", "target", "offset", "value"), nullptr, buildMemset,
     Fn::cuGraphAddMemsetNode,
     [](CUgraphNode* node, CUgraph graph, const CUgraphNode* d, size_t n, CUgraphNodeParams& g) {
       CUDA_MEMSET_NODE_PARAMS m = perTypeMemset(g);
       return CU_CALL(cuGraphAddMemsetNode, node, graph, d, n, &m, g.memset.ctx);
     },
     Fn::cuGraphMemsetNodeSetParams,
     [](CUgraphNode node, CUgraphNodeParams& g) {
       CUDA_MEMSET_NODE_PARAMS m = perTypeMemset(g);
       return CU_CALL(cuGraphMemsetNodeSetParams, node, &m);
     },
     Fn::cuGraphExecMemsetNodeSetParams,
     [](CUgraphExec exec, CUgraphNode node, CUgraphNodeParams& g) {
       CUDA_MEMSET_NODE_PARAMS m = perTypeMemset(g);
       return CU_CALL(cuGraphExecMemsetNodeSetParams, exec, node, &m, g.memset.ctx);
     },
     getMemset, nullptr},
    {CU_GRAPH_NODE_TYPE_HOST, "host", CUDRV_FIELDS("callback", "wait"), nullptr, buildHost, Fn::cuGraphAddHostNode,
     [](CUgraphNode* node, CUgraph graph, const CUgraphNode* d, size_t n, CUgraphNodeParams& g) {
       CUDA_HOST_NODE_PARAMS h = perTypeHost(g);
       return CU_CALL(cuGraphAddHostNode, node, graph, d, n, &h);
     },
     Fn::cuGraphHostNodeSetParams,
     [](CUgraphNode node, CUgraphNodeParams& g) {
       CUDA_HOST_NODE_PARAMS h = perTypeHost(g);
       return CU_CALL(cuGraphHostNodeSetParams, node, &h);
     },
     Fn::cuGraphExecHostNodeSetParams,
     [](CUgraphExec exec, CUgraphNode node, CUgraphNodeParams& g) {
       CUDA_HOST_NODE_PARAMS h = perTypeHost(g);
       return CU_CALL(cuGraphExecHostNodeSetParams, exec, node, &h);
     },
     getHost, nullptr},
    {CU_GRAPH_NODE_TYPE_GRAPH, "graph", CUDRV_FIELDS("graph", "move"), nullptr, buildChildGraph,
     Fn::cuGraphAddChildGraphNode,
     [](CUgraphNode* node, CUgraph graph, const CUgraphNode* d, size_t n, CUgraphNodeParams& g) {
       return CU_CALL(cuGraphAddChildGraphNode, node, graph, d, n, g.graph.graph);
     },
     kNone, Set(nullptr), kNone, ExecSet(nullptr),  // an executable's child: GraphExec.setChildGraph
     getChildGraph, childGraphAdded},
    {CU_GRAPH_NODE_TYPE_EMPTY, "empty", CUDRV_FIELDS(), nullptr, buildEmpty, Fn::cuGraphAddEmptyNode,
     [](CUgraphNode* node, CUgraph graph, const CUgraphNode* d, size_t n, CUgraphNodeParams&) {
       return CU_CALL(cuGraphAddEmptyNode, node, graph, d, n);
     },
     kNone, Set(nullptr), kNone, ExecSet(nullptr), nullptr, nullptr},
    {CU_GRAPH_NODE_TYPE_WAIT_EVENT, "eventWait", CUDRV_FIELDS("event"), nullptr, buildEvent<false>,
     Fn::cuGraphAddEventWaitNode,
     [](CUgraphNode* node, CUgraph graph, const CUgraphNode* d, size_t n, CUgraphNodeParams& g) {
       return CU_CALL(cuGraphAddEventWaitNode, node, graph, d, n, g.eventWait.event);
     },
     Fn::cuGraphEventWaitNodeSetEvent,
     [](CUgraphNode node, CUgraphNodeParams& g) { return CU_CALL(cuGraphEventWaitNodeSetEvent, node, g.eventWait.event); },
     Fn::cuGraphExecEventWaitNodeSetEvent,
     [](CUgraphExec exec, CUgraphNode node, CUgraphNodeParams& g) {
       return CU_CALL(cuGraphExecEventWaitNodeSetEvent, exec, node, g.eventWait.event);
     },
     getEventWait, nullptr},
    {CU_GRAPH_NODE_TYPE_EVENT_RECORD, "eventRecord", CUDRV_FIELDS("event"), nullptr, buildEvent<true>,
     Fn::cuGraphAddEventRecordNode,
     [](CUgraphNode* node, CUgraph graph, const CUgraphNode* d, size_t n, CUgraphNodeParams& g) {
       return CU_CALL(cuGraphAddEventRecordNode, node, graph, d, n, g.eventRecord.event);
     },
     Fn::cuGraphEventRecordNodeSetEvent,
     [](CUgraphNode node, CUgraphNodeParams& g) { return CU_CALL(cuGraphEventRecordNodeSetEvent, node, g.eventRecord.event); },
     Fn::cuGraphExecEventRecordNodeSetEvent,
     [](CUgraphExec exec, CUgraphNode node, CUgraphNodeParams& g) {
       return CU_CALL(cuGraphExecEventRecordNodeSetEvent, exec, node, g.eventRecord.event);
     },
     getEventRecord, nullptr},
    {CU_GRAPH_NODE_TYPE_MEM_ALLOC, "memAlloc", CUDRV_FIELDS("ordinal", "bytes", "peers"), memAllocLists, buildMemAlloc,
     Fn::cuGraphAddMemAllocNode, addMemAlloc, kNone, Set(nullptr), kNone, ExecSet(nullptr), getMemAlloc, memAllocAdded},
    {CU_GRAPH_NODE_TYPE_MEM_FREE, "memFree", CUDRV_FIELDS("allocation"), nullptr, buildMemFree, Fn::cuGraphAddMemFreeNode,
     [](CUgraphNode* node, CUgraph graph, const CUgraphNode* d, size_t n, CUgraphNodeParams& g) {
       return CU_CALL(cuGraphAddMemFreeNode, node, graph, d, n, g.free.dptr);
     },
     kNone, Set(nullptr), kNone, ExecSet(nullptr), getMemFree, memFreeAdded},
    {CU_GRAPH_NODE_TYPE_BATCH_MEM_OP, "batchMemOp", CUDRV_FIELDS("ops", "ordinal"), batchMemOpLists, buildBatchMemOp,
     Fn::cuGraphAddBatchMemOpNode,
     [](CUgraphNode* node, CUgraph graph, const CUgraphNode* d, size_t n, CUgraphNodeParams& g) {
       CUDA_BATCH_MEM_OP_NODE_PARAMS b = perTypeBatch(g);
       return CU_CALL(cuGraphAddBatchMemOpNode, node, graph, d, n, &b);
     },
     Fn::cuGraphBatchMemOpNodeSetParams,
     [](CUgraphNode node, CUgraphNodeParams& g) {
       CUDA_BATCH_MEM_OP_NODE_PARAMS b = perTypeBatch(g);
       return CU_CALL(cuGraphBatchMemOpNodeSetParams, node, &b);
     },
     Fn::cuGraphExecBatchMemOpNodeSetParams,
     [](CUgraphExec exec, CUgraphNode node, CUgraphNodeParams& g) {
       CUDA_BATCH_MEM_OP_NODE_PARAMS b = perTypeBatch(g);
       return CU_CALL(cuGraphExecBatchMemOpNodeSetParams, exec, node, &b);
     },
     getBatchMemOp, nullptr},
    // Conditional nodes exist only through cuGraphAddNode.
    {CU_GRAPH_NODE_TYPE_CONDITIONAL, "conditional", CUDRV_FIELDS("handle", "kind", "size"), nullptr, buildConditionalNode,
     kNone, Add(nullptr), kNone, Set(nullptr), kNone, ExecSet(nullptr), nullptr, conditionalAdded},
};
#undef CUDRV_FIELDS

// Rows by CUgraphNodeType.
struct KindIndex {
  const NodeKind* byType[CU_GRAPH_NODE_TYPE_CONDITIONAL + 1] = {};
  template <size_t N>
  constexpr explicit KindIndex(const NodeKind (&rows)[N]) {
    for (const NodeKind& kind : rows) byType[kind.type] = &kind;
  }
};

// Which calls go to the driver's generic functions: those it has, unless
// CUDA_DRIVER_GRAPH_PER_TYPE_CALLS asks for the per-type ones. Read once,
// when the first node is added or set (after the graph's call loaded the driver).
struct GenericCalls {
  bool add, set, execSet;
};
const GenericCalls& genericCalls() {
  static const GenericCalls calls = [] {
    const char* forced = std::getenv("CUDA_DRIVER_GRAPH_PER_TYPE_CALLS");
    const bool perType = forced && *forced && std::strcmp(forced, "0") != 0;
    return GenericCalls{!perType && driver.cuGraphAddNode != nullptr, !perType && driver.cuGraphNodeSetParams != nullptr,
                        !perType && driver.cuGraphExecNodeSetParams != nullptr};
  }();
  return calls;
}

[[noreturn]] void throwCallError(Napi::Env env, CUresult r, Fn fn, const std::string* detail) {
  throwCudaError(env, r, fn, detail ? *detail : std::string());
}

}  // namespace

const NodeKind* nodeKind(CUgraphNodeType type) {
  static constexpr KindIndex index(kKinds);
  return static_cast<unsigned>(type) < std::size(index.byType) ? index.byType[type] : nullptr;
}

// The row whose per-type call serves g, or null where the generic call does:
// the common case asks no more than the driver's table.
static const NodeKind* perTypeKind(bool generic, const CUgraphNodeParams& g) { return generic ? nullptr : nodeKind(g.type); }

CUgraphNode addNodeCall(Napi::Env env, CUgraph graph, const Dependencies& deps, CUgraphNodeParams& g, bool genericOnly,
                        const std::string* detail) {
  CUgraphNode node = nullptr;
  const NodeKind* kind = perTypeKind(genericCalls().add || genericOnly || deps.hasEdgeData(), g);
  CUresult r;
  Fn fn;
  if (!kind || !kind->add) {
    fn = Fn::cuGraphAddNode;
    r = CU_CALL(cuGraphAddNode, &node, graph, deps.nodes(), deps.edges(), deps.count(), &g);
  } else {
    fn = kind->addFn;
    r = kind->add(&node, graph, deps.nodes(), deps.count(), g);
  }
  if (r != CUDA_SUCCESS) throwCallError(env, r, fn, detail);
  return node;
}

void setNodeCall(Napi::Env env, CUgraphNode node, CUgraphNodeParams& g) {
  const NodeKind* kind = perTypeKind(genericCalls().set, g);
  CUresult r;
  Fn fn;
  if (!kind || !kind->set) {
    fn = Fn::cuGraphNodeSetParams;
    r = CU_CALL(cuGraphNodeSetParams, node, &g);
  } else {
    fn = kind->setFn;
    r = kind->set(node, g);
  }
  if (r != CUDA_SUCCESS) throwCallError(env, r, fn, nullptr);
}

void execSetNodeCall(Napi::Env env, CUgraphExec exec, CUgraphNode node, CUgraphNodeParams& g, const std::string* detail) {
  const NodeKind* kind = perTypeKind(genericCalls().execSet, g);
  CUresult r;
  Fn fn;
  if (!kind || !kind->execSet) {
    fn = Fn::cuGraphExecNodeSetParams;
    r = CU_CALL(cuGraphExecNodeSetParams, exec, node, &g);
  } else {
    fn = kind->execSetFn;
    r = kind->execSet(exec, node, g);
  }
  if (r != CUDA_SUCCESS) throwCallError(env, r, fn, detail);
}

}  // namespace cudrv
