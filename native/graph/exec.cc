// Executable graphs: instantiation, upload, launch, whole-graph update and
// per-node updates. An executable holds its graph's resource bag
// (native/graph/graph.h); what per-node updates and updates from other graphs
// bring in goes into its own bag; and every launch stamps the executable on its
// stream, so nothing it uses is released while a launch may still run.
#include <cstring>

#include "core/non_copyable.h"
#include "core/args.h"
#include "graph/exec.h"
#include "graph/node_kinds.h"
#include "generated/entries.h"
#include "graph/node_params.h"
#include "core/hot_call.h"
#include "kernel/launch.h"
#include "core/release.h"
#include "stream.h"

namespace cudrv {

// instantiate(graph, flags, uploadStream | undefined, detailed) -> GraphExec, or
// when detailed (cuGraphInstantiateWithParams) and it fails:
// {error, result: CUgraphInstantiateResult, node?: GraphNode}.
Napi::Value Instantiate(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  // Held: the failure's properties are set (setters JavaScript put on
  // Object.prototype may run) before the graph is used again.
  uint64_t flags = u64Arg(info[1], "flags");
  bool detailed = boolArg(info[3], "detailed");
  const GraphRef graph = graphArg(info[0], "graph");
  StreamBox* upload = info[2].IsUndefined() ? nullptr : &streamArg(info[2], "uploadStream");
  auto box = std::make_shared<GraphExecBox>();
  if (upload) makeCurrent(env, upload->context);
  box->graphResources = graph->root()->bag;
  if (!detailed) {
    CU_CHECK(env, cuGraphInstantiate, &box->exec, graph->graph, flags);
    return GraphExec::newSlot(env, std::move(box));
  }
  CUDA_GRAPH_INSTANTIATE_PARAMS params;
  std::memset(&params, 0, sizeof(params));
  params.flags = flags;
  params.hUploadStream = upload ? upload->stream : nullptr;
  CUresult r = CU_CALL(cuGraphInstantiateWithParams, &box->exec, graph->graph, &params);
  if (r == CUDA_SUCCESS && params.result_out == CUDA_GRAPH_INSTANTIATE_SUCCESS) return GraphExec::newSlot(env, std::move(box));
  box->exec = nullptr;
  Napi::Object failure = Napi::Object::New(env);
  failure.Set("error", makeCudaError(env, r == CUDA_SUCCESS ? CUDA_ERROR_INVALID_VALUE : r, Fn::cuGraphInstantiateWithParams));
  failure.Set("result", static_cast<int>(params.result_out));
  if (params.hErrNode_out) failure.Set("node", nodeValue(env, nodeBoxOf(graph, params.hErrNode_out)));
  return failure;
}

// execSetKernelNodeParams(execSlot, nodeSlot, kernel, record):
// setNodeParams for a kernel node, the executable and node by slot and the
// parameters given one by one (see setExecKernelNode): the hot form, without
// unwrapping either object.
napi_value ExecSetKernelNodeParams(Napi::Env env, SlotTable& table, const HotArgs<4>& args) {
  GraphExecBox& exec = *GraphExec::fromSlot(table, Napi::Value(env, args[0]), "exec");
  const NodeRef& node = liveNode(env, GraphNode::fromSlot(table, Napi::Value(env, args[1]), "node"), "node");
  const KernelNodeFields fields{Napi::Value(env, args[2]), Napi::Value(env, args[3])};
  setExecKernelNode(env, table, exec.exec, node->node, fields, exec.extra);
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
  execSetNodeCall(env, exec.exec, node->node, g, &p.kernel->name);
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

Napi::Value GraphExecHandle(const Napi::CallbackInfo& info) {
  return handleValue(info.Env(), GraphExec::fromSlot(info[0], "exec")->exec);
}

Napi::Value GraphExecFlags(const Napi::CallbackInfo& info) {
  cuuint64_t flags = 0;
  CU_CHECK(info.Env(), cuGraphExecGetFlags, GraphExec::fromSlot(info[0], "exec")->exec, &flags);
  return Napi::Number::New(info.Env(), static_cast<double>(flags));
}

Napi::Value GraphExecUpload(const Napi::CallbackInfo& info) {
  const ExecRef& exec = GraphExec::fromSlot(info[0], "exec");
  StreamBox& stream = streamArg(info[1]);
  CU_CHECK(info.Env(), cuGraphUpload, exec->exec, stream.stream);
  stream.keepUntilIdle(exec);
  return info.Env().Undefined();
}

namespace {

// A device graph as a kernel argument. Launches, kernel nodes and prepared
// launches write a memory argument's device address into the parameters and
// keep its memory alive while the work may run; to them this box is memory
// whose address is the CUgraphExec (the handle device code gives
// cudaGraphLaunch), so the executable lives as long as a launch that may
// launch it from the device. It holds no bytes (size 0: no copy or fill
// reaches it), and the executable's resources may hold JavaScript values,
// as an executable's are assumed to (holdsJavaScript below).
struct GraphExecArgumentBox : MemoryBox {
  ExecRef exec;
};

class ExecArgument : public Handle<ExecArgument, GraphExecArgumentBox> {
 public:
  static constexpr const char* kName = "GraphExecArgument";
};

}  // namespace

// graphExecArgument(exec, context) -> the executable as a kernel argument;
// context: the one its device work runs in.
Napi::Value GraphExecArgument(const Napi::CallbackInfo& info) {
  const SlotTable& table = slotTable(info.Env());
  const ExecRef& exec = GraphExec::fromSlot(table, info[0], "exec");
  auto box = std::make_shared<GraphExecArgumentBox>();
  box->context = Context::fromSlot(table, info[1], "context");
  box->device = reinterpret_cast<CUdeviceptr>(exec->exec);
  box->holdsJavaScript = true;
  box->exec = exec;
  return ExecArgument::newSlot(info.Env(), box);
}

// graphExecUpdate(exec, graph) -> undefined, or when refused
// {result: CUgraphExecUpdateResult, error, node?, fromNode?}. On success the
// executable runs graph's nodes and keeps graph's resources; nothing is made
// for JavaScript then.
Napi::Value GraphExecUpdate(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  // Held: a refusal's properties are set (setters JavaScript put on
  // Object.prototype may run) before both are used again.
  const SlotTable& table = slotTable(env);
  const ExecRef exec = GraphExec::fromSlot(table, info[0], "exec");
  const GraphRef graph = graphArg(table, info[1], "graph");
  CUgraphExecUpdateResultInfo result;
  std::memset(&result, 0, sizeof(result));
  CUresult r = CU_CALL(cuGraphExecUpdate, exec->exec, graph->graph, &result);
  if (r == CUDA_SUCCESS) {
    exec->extra.add(graph);
    return env.Undefined();
  }
  Napi::Object out = Napi::Object::New(env);
  out.Set("result", static_cast<int>(result.result));
  out.Set("error", makeCudaError(env, r, Fn::cuGraphExecUpdate));
  if (result.errorNode) out.Set("node", nodeValue(env, nodeBoxOf(graph, result.errorNode)));
  if (result.errorFromNode) out.Set("fromNode", handleValue(env, result.errorFromNode));
  return out;
}

// graphExecSetNodeParams(exec, node, params): the executable's copy of a node.
Napi::Value GraphExecSetNodeParams(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const NodeFields fields = readNodeFields(env, info[2]);
  const SlotTable& table = slotTable(env);
  GraphExecBox& exec = *GraphExec::fromSlot(table, info[0], "exec");
  const NodeRef& node = nodeArg(table, info[1], "node", nullptr);
  std::unique_ptr<NodeParams> p = buildNodeParams(env, fields, nullptr);
  setBuiltExecNode(env, exec.exec, *node, *p, exec.extra);
  return env.Undefined();
}

// graphExecSetChildGraph(exec, node, graph): the child graph node now runs a copy of graph
// (same topology required; cuGraphExecChildGraphNodeSetParams).
Napi::Value GraphExecSetChildGraph(const Napi::CallbackInfo& info) {
  const SlotTable& table = slotTable(info.Env());
  GraphExecBox& exec = *GraphExec::fromSlot(table, info[0], "exec");
  const NodeRef& node = nodeArg(table, info[1], "node", nullptr);
  const GraphRef& child = graphArg(table, info[2], "graph");
  CU_CHECK(info.Env(), cuGraphExecChildGraphNodeSetParams, exec.exec, node->node, child->graph);
  exec.extra.add(child);
  return info.Env().Undefined();
}

Napi::Value GraphExecSetEnabled(const Napi::CallbackInfo& info) {
  const bool enabled = boolArg(info[2], "enabled");
  const SlotTable& table = slotTable(info.Env());
  GraphExecBox& exec = *GraphExec::fromSlot(table, info[0], "exec");
  const NodeRef& node = nodeArg(table, info[1], "node", nullptr);
  CU_CHECK(info.Env(), cuGraphNodeSetEnabled, exec.exec, node->node, enabled ? 1 : 0);
  return info.Env().Undefined();
}

Napi::Value GraphExecIsEnabled(const Napi::CallbackInfo& info) {
  const SlotTable& table = slotTable(info.Env());
  GraphExecBox& exec = *GraphExec::fromSlot(table, info[0], "exec");
  const NodeRef& node = nodeArg(table, info[1], "node", nullptr);
  unsigned int enabled = 0;
  CU_CHECK(info.Env(), cuGraphNodeGetEnabled, exec.exec, node->node, &enabled);
  return Napi::Boolean::New(info.Env(), enabled != 0);
}

// graphExecClearExternalSemaphores(exec, node, signal): the executable's external-semaphore node
// gets an empty set (native/graph/external_semaphore.cc says why only that).
Napi::Value GraphExecClearExternalSemaphores(const Napi::CallbackInfo& info) {
  const bool signal = boolArg(info[2], "signal");
  const SlotTable& table = slotTable(info.Env());
  GraphExecBox& exec = *GraphExec::fromSlot(table, info[0], "exec");
  const NodeRef& node = nodeArg(table, info[1], "node", nullptr);
  if (signal) {
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

}  // namespace cudrv
