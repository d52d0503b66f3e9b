#include "graph/node_params.h"

#include <cstring>

#include "core/args.h"
#include "event.h"
#include "core/js_thread.h"
#include "memory/device_buffer.h"

namespace cudrv {

namespace {

uint64_t sizeField(const ObjectFields& params, const char* name) { return u64Arg(params[name], name); }

// A host node's callback: called by CUDA on its own thread at every launch, it
// only posts the call to the JavaScript thread.
struct HostNodeCall {
  std::shared_ptr<Napi::FunctionReference> callback;
  std::shared_ptr<JsThreadPort> port;
};

void CUDA_CB runHostNode(void* data) {
  auto* call = static_cast<HostNodeCall*>(data);
  // The call object lives in the graph's resource bag, which the launch keeps
  // while this runs; but the bag may be released (a synchronize, then disposal)
  // before the posted call runs, so the call holds the callback itself. It is
  // released on the JavaScript thread after the call (or leaked with the
  // channel, never released off that thread).
  call->port->post([callback = call->callback](Napi::Env) { callback->Call({}); });
}

void buildMemcpy(Napi::Env env, const ObjectFields& p, NodeParams& out) {
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

void buildMemset(Napi::Env env, const ObjectFields& p, NodeParams& out) {
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

void buildHost(Napi::Env env, const ObjectFields& p, NodeParams& out) {
  Napi::Value callback = p["callback"];
  if (!callback.IsFunction()) throwTypeError(env, "callback must be a function");
  auto call = std::make_shared<HostNodeCall>();
  call->callback = std::make_shared<Napi::FunctionReference>(Napi::Persistent(callback.As<Napi::Function>()));
  call->port = JsThreadPort::open(env);
  out.params.host.fn = runHostNode;
  out.params.host.userData = call.get();
  out.uses = {call};
}

void buildEvent(const ObjectFields& p, NodeParams& out, bool record) {
  const EventRef& event = Event::fromSlot(p["event"], "event");
  if (record) out.params.eventRecord.event = event->event;
  else out.params.eventWait.event = event->event;
  out.uses = {event};
}

void buildMemAlloc(Napi::Env env, const NodeFields& f, NodeParams& out) {
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

void buildMemFree(Napi::Env env, const ObjectFields& p, NodeParams& out) {
  Span allocation = deviceSpanOf(p["allocation"], "allocation", 0, 0);
  if (allocation.device == 0) throwTypeError(env, "allocation must be device memory");
  out.params.free.dptr = allocation.device;
}

// ops: [[operation, target, offset, value, flags], ...] as for Stream.batchMemoryOps.
void buildBatchMemOp(Napi::Env env, const NodeFields& f, NodeParams& out) {
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

// {graph, move}: cloned into the node, or (move) handed over to it.
void buildChildGraph(Napi::Env env, const ObjectFields& p, NodeParams& out) {
  bool move = boolArg(p["move"], "move");
  const GraphRef& child = graphArg(p["graph"], "graph");
  if (!child->owned) throwTypeError(env, "graph belongs to another graph (a moved child or a conditional body)");
  out.params.graph.graph = child->graph;
  out.params.graph.ownership = move ? CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE : CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE;
  if (move) out.movedChild = child;
  out.uses = {child};
}

}  // namespace

// Conditional handles and nodes, and kernel nodes, live in files of their own.
void buildConditional(Napi::Env env, const ObjectFields& params, NodeParams& out, GraphBox* graph);
void buildKernelNode(Napi::Env env, const KernelNodeFields& fields, NodeParams& out);

namespace {

std::unique_ptr<NodeParams> emptyNodeParams() {
  auto out = std::make_unique<NodeParams>();
  std::memset(&out->params, 0, sizeof(out->params));
  return out;
}

}  // namespace

namespace {

// The fields each node type has, as lib/graph/node-params.ts encodes them.
ObjectFields fieldsOf(Napi::Object p, CUgraphNodeType type) {
  switch (type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: return ObjectFields(p, {"kernel", "record"});
    case CU_GRAPH_NODE_TYPE_MEMCPY: return ObjectFields(p, {"bytes", "dst", "dstOffset", "src", "srcOffset"});
    case CU_GRAPH_NODE_TYPE_MEMSET:
      return ObjectFields(p, {"elementBytes", "width", "height", "pitch", "target", "offset", "value"});
    case CU_GRAPH_NODE_TYPE_HOST: return ObjectFields(p, {"callback"});
    case CU_GRAPH_NODE_TYPE_GRAPH: return ObjectFields(p, {"graph", "move"});
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: return ObjectFields(p, {"event"});
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC: return ObjectFields(p, {"ordinal", "bytes", "peers"});
    case CU_GRAPH_NODE_TYPE_MEM_FREE: return ObjectFields(p, {"allocation"});
    case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP: return ObjectFields(p, {"ops", "ordinal"});
    case CU_GRAPH_NODE_TYPE_CONDITIONAL: return ObjectFields(p, {"handle", "kind", "size"});
    default: return ObjectFields(p, {});
  }
}

}  // namespace

NodeFields readNodeFields(Napi::Env env, Napi::Value value) {
  if (!value.IsObject()) throwTypeError(env, "params must be an object");
  Napi::Object p = value.As<Napi::Object>();
  const auto type = static_cast<CUgraphNodeType>(uintArg(p.Get("type"), "type"));
  NodeFields out{type, fieldsOf(p, type), {}, std::nullopt};
  if (type == CU_GRAPH_NODE_TYPE_MEM_ALLOC) {
    Napi::Value peers = out.fields["peers"];
    if (peers.IsArray()) {
      Napi::Array list = peers.As<Napi::Array>();
      for (uint32_t i = 0; i < list.Length(); ++i) out.peers.push_back(list[i]);
    }
  } else if (type == CU_GRAPH_NODE_TYPE_BATCH_MEM_OP) {
    out.ops.emplace(arrayArg(out.fields["ops"], "ops", 1, 256, "must hold 1 to 256 operations"), 5,
                    "each operation must be an array");
  }
  return out;
}

std::unique_ptr<NodeParams> buildNodeParams(Napi::Env env, const NodeFields& f, GraphBox* graph) {
  const ObjectFields& p = f.fields;
  auto out = emptyNodeParams();
  out->params.type = f.type;
  switch (out->params.type) {
    case CU_GRAPH_NODE_TYPE_KERNEL:
      // {type, kernel, record}: the hot form's fields, by name.
      buildKernelNode(env, {p["kernel"], p["record"]}, *out);
      break;
    case CU_GRAPH_NODE_TYPE_MEMCPY: buildMemcpy(env, p, *out); break;
    case CU_GRAPH_NODE_TYPE_MEMSET: buildMemset(env, p, *out); break;
    case CU_GRAPH_NODE_TYPE_HOST: buildHost(env, p, *out); break;
    case CU_GRAPH_NODE_TYPE_GRAPH: buildChildGraph(env, p, *out); break;
    case CU_GRAPH_NODE_TYPE_EMPTY: break;
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: buildEvent(p, *out, false); break;
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: buildEvent(p, *out, true); break;
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC: buildMemAlloc(env, f, *out); break;
    case CU_GRAPH_NODE_TYPE_MEM_FREE: buildMemFree(env, p, *out); break;
    case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP: buildBatchMemOp(env, f, *out); break;
    case CU_GRAPH_NODE_TYPE_CONDITIONAL: buildConditional(env, p, *out, graph); break;
    default:
      throwRangeError(env, "node type " + std::to_string(out->params.type) + " cannot be built by this library");
  }
  return out;
}

}  // namespace cudrv
