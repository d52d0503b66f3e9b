// Executable graphs: instantiation, upload, launch, whole-graph update and
// per-node updates. An executable holds its graph's resource bag
// (native/graph/graph.h); what per-node updates and updates from other graphs
// bring in goes into its own bag; and every launch stamps the executable on its
// stream, so nothing it uses is released while a launch may still run.
#include <cstring>

#include "core/args.h"
#include "graph/node_params.h"
#include "core/hot_call.h"
#include "kernel/launch.h"
#include "core/release.h"
#include "stream.h"

namespace cudrv {

struct GraphExecBox {
  CUgraphExec exec = nullptr;
  BagRef graphResources;  // the bag of the graph it was made from
  ResourceBag extra;      // what updates brought in

  GraphExecBox() = default;
  GraphExecBox(const GraphExecBox&) = delete;
  GraphExecBox& operator=(const GraphExecBox&) = delete;
  ~GraphExecBox() {
    if (!exec) return;
    CUgraphExec e = exec;
    releaseWhenSafe([e] { CU_CALL(cuGraphExecDestroy, e); });
  }
};
using ExecRef = std::shared_ptr<GraphExecBox>;

class GraphExec : public Handle<GraphExec, GraphExecBox> {
 public:
  static constexpr const char* kName = "GraphExec";
  using Base::Base;
  static void init(Napi::Env env, Napi::Object exports);

 private:
  Napi::Value HandleValue(const Napi::CallbackInfo& info);
  Napi::Value Flags(const Napi::CallbackInfo& info);
  Napi::Value Upload(const Napi::CallbackInfo& info);
  Napi::Value Update(const Napi::CallbackInfo& info);
  Napi::Value SetNodeParams(const Napi::CallbackInfo& info);
  Napi::Value SetChildGraph(const Napi::CallbackInfo& info);
  Napi::Value SetEnabled(const Napi::CallbackInfo& info);
  Napi::Value IsEnabled(const Napi::CallbackInfo& info);
  Napi::Value ClearExternalSemaphores(const Napi::CallbackInfo& info);
};

namespace {

// New parameters for node in exec: the driver call and what exec keeps.
void setExecNodeParams(Napi::Env env, GraphExecBox& exec, const NodeRef& node, NodeParams& params, bool perType) {
  if (params.context) makeCurrent(env, params.context);
  CUgraphNodeParams& g = params.params;
  CUresult r;
  Fn fn = Fn::cuGraphExecNodeSetParams;
  if (!perType) {
    r = CU_CALL(cuGraphExecNodeSetParams, exec.exec, node->node, &g);
  } else {
    switch (g.type) {
      case CU_GRAPH_NODE_TYPE_KERNEL: {
        fn = Fn::cuGraphExecKernelNodeSetParams;
        CUDA_KERNEL_NODE_PARAMS k = perTypeKernelParams(g);
        r = CU_CALL(cuGraphExecKernelNodeSetParams, exec.exec, node->node, &k);
        break;
      }
      case CU_GRAPH_NODE_TYPE_MEMCPY:
        fn = Fn::cuGraphExecMemcpyNodeSetParams;
        r = CU_CALL(cuGraphExecMemcpyNodeSetParams, exec.exec, node->node, &g.memcpy.copyParams, g.memcpy.copyCtx);
        break;
      case CU_GRAPH_NODE_TYPE_MEMSET: {
        fn = Fn::cuGraphExecMemsetNodeSetParams;
        CUDA_MEMSET_NODE_PARAMS m{g.memset.dst, g.memset.pitch, g.memset.value, g.memset.elementSize, g.memset.width,
                                  g.memset.height};
        r = CU_CALL(cuGraphExecMemsetNodeSetParams, exec.exec, node->node, &m, g.memset.ctx);
        break;
      }
      case CU_GRAPH_NODE_TYPE_HOST: {
        fn = Fn::cuGraphExecHostNodeSetParams;
        CUDA_HOST_NODE_PARAMS h{g.host.fn, g.host.userData};
        r = CU_CALL(cuGraphExecHostNodeSetParams, exec.exec, node->node, &h);
        break;
      }
      case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        fn = Fn::cuGraphExecEventWaitNodeSetEvent;
        r = CU_CALL(cuGraphExecEventWaitNodeSetEvent, exec.exec, node->node, g.eventWait.event);
        break;
      case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        fn = Fn::cuGraphExecEventRecordNodeSetEvent;
        r = CU_CALL(cuGraphExecEventRecordNodeSetEvent, exec.exec, node->node, g.eventRecord.event);
        break;
      case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP: {
        fn = Fn::cuGraphExecBatchMemOpNodeSetParams;
        CUDA_BATCH_MEM_OP_NODE_PARAMS b{g.memOp.ctx, g.memOp.count, g.memOp.paramArray, g.memOp.flags};
        r = CU_CALL(cuGraphExecBatchMemOpNodeSetParams, exec.exec, node->node, &b);
        break;
      }
      default:
        throwTypeError(env, "this node type has no per-type setter on executables; use the generic one");
    }
  }
  if (r != CUDA_SUCCESS) throwCudaError(env, r, fn);
  for (auto& used : params.uses) exec.extra.add(used);
  if (params.kernel) exec.extra.add(params.kernel);
}

// instantiate(graph, flags, uploadStream | undefined, detailed) -> GraphExec, or
// when detailed (cuGraphInstantiateWithParams) and it fails:
// {error, result: CUgraphInstantiateResult, node?: GraphNode}.
Napi::Value Instantiate(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  // Held: the failure's properties are set (setters JavaScript put on
  // Object.prototype may run) before the graph is used again.
  const GraphRef graph = graphArg(info[0], "graph");
  uint64_t flags = u64Arg(info[1], "flags");
  StreamBox* upload = info[2].IsUndefined() ? nullptr : &streamArg(info[2], "uploadStream");
  bool detailed = boolArg(info[3], "detailed");
  auto box = std::make_shared<GraphExecBox>();
  if (upload) makeCurrent(env, upload->context);
  box->graphResources = graph->root()->bag;
  if (!detailed) {
    CU_CHECK(env, cuGraphInstantiate, &box->exec, graph->graph, flags);
    return GraphExec::newSlot(env, box);
  }
  CUDA_GRAPH_INSTANTIATE_PARAMS params;
  std::memset(&params, 0, sizeof(params));
  params.flags = flags;
  params.hUploadStream = upload ? upload->stream : nullptr;
  CUresult r = CU_CALL(cuGraphInstantiateWithParams, &box->exec, graph->graph, &params);
  if (r == CUDA_SUCCESS && params.result_out == CUDA_GRAPH_INSTANTIATE_SUCCESS) return GraphExec::newSlot(env, box);
  box->exec = nullptr;
  Napi::Object failure = Napi::Object::New(env);
  failure.Set("error", makeCudaError(env, r == CUDA_SUCCESS ? CUDA_ERROR_INVALID_VALUE : r, Fn::cuGraphInstantiateWithParams));
  failure.Set("result", static_cast<int>(params.result_out));
  if (params.hErrNode_out) failure.Set("node", nodeValue(env, nodeBoxOf(graph, params.hErrNode_out)));
  return failure;
}

// execSetKernelNodeParams(execSlot, nodeSlot, kernel, record, perTypeCall):
// setNodeParams for a kernel node, the executable and node by slot and the
// parameters given one by one (see setExecKernelNode): the hot form, without
// unwrapping either object.
napi_value ExecSetKernelNodeParams(Napi::Env env, SlotTable& table, const HotArgs<5>& args) {
  GraphExecBox& exec = *GraphExec::fromSlot(table, Napi::Value(env, args[0]), "exec");
  const NodeRef& node = liveNode(env, GraphNode::fromSlot(table, Napi::Value(env, args[1]), "node"), "node");
  const KernelNodeFields fields{Napi::Value(env, args[2]), Napi::Value(env, args[3])};
  setExecKernelNode(env, table, exec.exec, node->node, fields, boolArg(Napi::Value(env, args[4]), "perTypeCall"), exec.extra);
  return nullptr;
}

// execSetPreparedKernelNode(execSlot, nodeSlot, launchSlot): a kernel node of
// the executable takes a prepared launch's kernel, configuration and arguments
// as they are now (the driver copies them), with nothing read or allocated per
// call: the hot form of a per-iteration update, as preparedLaunch is of a
// launch. The executable keeps the kernel and the memory the arguments name.
napi_value ExecSetPreparedKernelNode(Napi::Env env, SlotTable& table, const HotArgs<3>& args) {
  GraphExecBox& exec = *GraphExec::fromSlot(table, Napi::Value(env, args[0]), "exec");
  const NodeRef& node = liveNode(env, GraphNode::fromSlot(table, Napi::Value(env, args[1]), "node"), "node");
  PreparedLaunchBox& p = *PreparedLaunchHandle::fromSlot(table, Napi::Value(env, args[2]), "launch");
  CUgraphNodeParams g;
  makeCurrent(env, preparedKernelNode(env, p, g));
  CU_CHECK_DETAIL(env, p.kernel->name, cuGraphExecNodeSetParams, exec.exec, node->node, &g);
  exec.extra.add(p.kernel);
  for (const MemoryRef& memory : p.owners) exec.extra.add(memory);
  return nullptr;
}

// graphLaunch(execSlot, streamSlot): the hot path: handles found by slot (no
// unwrapping), one driver call, one stamp.
napi_value GraphLaunch(Napi::Env env, SlotTable& table, const HotArgs<2>& args) {
  const ExecRef& exec = GraphExec::fromSlot(table, Napi::Value(env, args[0]), "exec");
  StreamBox& stream = *Stream::fromSlot(table, Napi::Value(env, args[1]), "stream");
  stream.makeContextCurrent(env);
  CU_CHECK(env, cuGraphLaunch, exec->exec, stream.stream);
  stream.keepUntilIdle(exec);
  return nullptr;
}

}  // namespace

void GraphExec::init(Napi::Env env, Napi::Object exports) {
  exports.Set("GraphExec", define(env, {
      InstanceAccessor("handle", &GraphExec::HandleValue, nullptr),
      InstanceMethod("flags", &GraphExec::Flags),
      InstanceMethod("upload", &GraphExec::Upload),
      InstanceMethod("update", &GraphExec::Update),
      InstanceMethod("setNodeParams", &GraphExec::SetNodeParams),
      InstanceMethod("setChildGraph", &GraphExec::SetChildGraph),
      InstanceMethod("setEnabled", &GraphExec::SetEnabled),
      InstanceMethod("isEnabled", &GraphExec::IsEnabled),
      InstanceMethod("clearExternalSemaphores", &GraphExec::ClearExternalSemaphores),
  }));
  exports.Set("instantiate", Napi::Function::New(env, Instantiate));
  exports.Set("graphLaunch", hotFunction<2, GraphLaunch>(env, "graphLaunch"));
  exports.Set("execSetKernelNodeParams", hotFunction<5, ExecSetKernelNodeParams>(env, "execSetKernelNodeParams"));
  exports.Set("execSetPreparedKernelNode", hotFunction<3, ExecSetPreparedKernelNode>(env, "execSetPreparedKernelNode"));
}

Napi::Value GraphExec::HandleValue(const Napi::CallbackInfo& info) { return handleValue(info.Env(), live().exec); }

Napi::Value GraphExec::Flags(const Napi::CallbackInfo& info) {
  cuuint64_t flags = 0;
  CU_CHECK(info.Env(), cuGraphExecGetFlags, live().exec, &flags);
  return Napi::Number::New(info.Env(), static_cast<double>(flags));
}

Napi::Value GraphExec::Upload(const Napi::CallbackInfo& info) {
  const ExecRef& exec = shared();
  StreamBox& stream = streamArg(info[0]);
  CU_CHECK(info.Env(), cuGraphUpload, exec->exec, stream.stream);
  stream.keepUntilIdle(exec);
  return info.Env().Undefined();
}

// update(graph) -> {result: CUgraphExecUpdateResult, error?, node?, fromNode?}.
// On success the executable runs graph's nodes and keeps graph's resources.
Napi::Value GraphExec::Update(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  // Held: the result's properties are set (setters JavaScript put on
  // Object.prototype may run) before both are used again.
  const ExecRef exec = shared();
  const GraphRef graph = graphArg(info[0], "graph");
  CUgraphExecUpdateResultInfo result;
  std::memset(&result, 0, sizeof(result));
  CUresult r = CU_CALL(cuGraphExecUpdate, exec->exec, graph->graph, &result);
  Napi::Object out = Napi::Object::New(env);
  out.Set("result", static_cast<int>(result.result));
  if (r != CUDA_SUCCESS) {
    out.Set("error", makeCudaError(env, r, Fn::cuGraphExecUpdate));
    if (result.errorNode) out.Set("node", nodeValue(env, nodeBoxOf(graph, result.errorNode)));
    if (result.errorFromNode) out.Set("fromNode", handleValue(env, result.errorFromNode));
    return out;
  }
  exec->extra.add(graph);
  return out;
}

// setNodeParams(node, params, perTypeCall): the executable's copy of a node.
Napi::Value GraphExec::SetNodeParams(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const NodeFields fields = readNodeFields(env, info[1]);
  const bool perType = boolArg(info[2], "perTypeCall");
  GraphExecBox& exec = live();
  const NodeRef& node = nodeArg(info[0], "node");
  std::unique_ptr<NodeParams> p = buildNodeParams(env, fields, nullptr);
  setExecNodeParams(env, exec, node, *p, perType);
  return env.Undefined();
}

// setChildGraph(node, graph): the child graph node now runs a copy of graph
// (same topology required; cuGraphExecChildGraphNodeSetParams).
Napi::Value GraphExec::SetChildGraph(const Napi::CallbackInfo& info) {
  GraphExecBox& exec = live();
  const NodeRef& node = nodeArg(info[0], "node");
  const GraphRef& child = graphArg(info[1], "graph");
  CU_CHECK(info.Env(), cuGraphExecChildGraphNodeSetParams, exec.exec, node->node, child->graph);
  exec.extra.add(child);
  return info.Env().Undefined();
}

Napi::Value GraphExec::SetEnabled(const Napi::CallbackInfo& info) {
  GraphExecBox& exec = live();
  const NodeRef& node = nodeArg(info[0], "node");
  CU_CHECK(info.Env(), cuGraphNodeSetEnabled, exec.exec, node->node, boolArg(info[1], "enabled") ? 1 : 0);
  return info.Env().Undefined();
}

Napi::Value GraphExec::IsEnabled(const Napi::CallbackInfo& info) {
  GraphExecBox& exec = live();
  const NodeRef& node = nodeArg(info[0], "node");
  unsigned int enabled = 0;
  CU_CHECK(info.Env(), cuGraphNodeGetEnabled, exec.exec, node->node, &enabled);
  return Napi::Boolean::New(info.Env(), enabled != 0);
}

// clearExternalSemaphores(node, signal): the executable's external-semaphore node
// gets an empty set (native/graph/external_semaphore.cc says why only that).
Napi::Value GraphExec::ClearExternalSemaphores(const Napi::CallbackInfo& info) {
  GraphExecBox& exec = live();
  const NodeRef& node = nodeArg(info[0], "node");
  if (boolArg(info[1], "signal")) {
    CUDA_EXT_SEM_SIGNAL_NODE_PARAMS p{nullptr, nullptr, 0};
    CU_CHECK(info.Env(), cuGraphExecExternalSemaphoresSignalNodeSetParams, exec.exec, node->node, &p);
  } else {
    CUDA_EXT_SEM_WAIT_NODE_PARAMS p{nullptr, nullptr, 0};
    CU_CHECK(info.Env(), cuGraphExecExternalSemaphoresWaitNodeSetParams, exec.exec, node->node, &p);
  }
  return info.Env().Undefined();
}

// A graph's resources are kept without their kinds (host nodes' callbacks,
// registered buffers among them): assume the worst.
bool holdsJavaScript(const GraphExecBox&) { return true; }

void initGraphExec(Napi::Env env, Napi::Object exports) { GraphExec::init(env, exports); }

}  // namespace cudrv
