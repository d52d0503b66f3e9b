// Kernel nodes: the kernel, its launch shape and its packed arguments, in the
// form cuGraphAddNode takes (node_kinds.cc makes the per-type calls' form). The argument bytes are
// copied by the driver when the node is made or updated; memory arguments'
// addresses are written here from their boxes, as for launches.
#include <cstring>

#include "core/args.h"
#include "graph/node_kinds.h"
#include "graph/node_params.h"
#include "kernel/kernel.h"
#include "kernel/launch.h"
#include "kernel/launch_config.h"

namespace cudrv {

namespace {

// A kernel node's kernel and launch shape; a library's CUkernel runs in
// libraryContext. Returns the context the node works in.
CUcontext setKernelNodeLaunch(CUDA_KERNEL_NODE_PARAMS_v3& k, const KernelBox& kernel, const CUlaunchConfig& config,
                              CUcontext libraryContext) {
  k.gridDimX = config.gridDimX;
  k.gridDimY = config.gridDimY;
  k.gridDimZ = config.gridDimZ;
  k.blockDimX = config.blockDimX;
  k.blockDimY = config.blockDimY;
  k.blockDimZ = config.blockDimZ;
  k.sharedMemBytes = config.sharedMemBytes;
  if (kernel.function) {
    k.func = kernel.function;
    return kernel.context();
  }
  k.kern = kernel.kernel;
  k.ctx = libraryContext;
  return libraryContext;
}

// What every build of a kernel node shares, once the call is read from the
// record (fields[1]): the kernel (by slot), the memory arguments' addresses
// written into the call's bytes in place (each memory handed to keep), and the
// launch shape in k. The node's argument bytes are the record's: the driver
// copies them when the node is made or updated, within the native call that
// built them. Returns the context the node works in.
template <typename Keep>
CUcontext readKernelNode(Napi::Env env, const SlotTable& table, const KernelNodeFields& fields, const KernelRef*& kernel,
                         const KernelCall& call, CUDA_KERNEL_NODE_PARAMS_v3& k, Keep keep) {
  kernel = &Kernel::fromSlot(table, fields[0], "kernel");
  writeMemoryArguments(env, table, call, call.args, keep);
  const KernelBox& box = **kernel;
  const CUcontext library = box.function ? nullptr : primaryContext(env, call.ordinal)->context;
  return setKernelNodeLaunch(k, box, call.plan.config, library);
}

// A kernel node's parameters in g, built on the stack from its fields (the
// hot form of Graph.addKernel and GraphExec.setParams), and its context made
// current; then call(kernel, launch configuration) makes the driver call while
// the argument pointers are valid. The kernel and the memory its arguments
// name go into kept (the graph's or executable's bag), the memory at once: if
// the driver refuses the call, it is only held until the bag's owner goes.
template <typename Call>
void withKernelNode(Napi::Env env, const SlotTable& table, const KernelNodeFields& fields, CUgraphNodeParams& g,
                    ResourceBag& kept, Call call) {
  std::memset(&g, 0, sizeof(g));
  g.type = CU_GRAPH_NODE_TYPE_KERNEL;
  CUDA_KERNEL_NODE_PARAMS_v3& k = g.kernel;
  const KernelRef* kernel = nullptr;
  KernelCall kernelCall;
  readKernelCall(fields[1], kernelCall);
  const CUcontext context = readKernelNode(env, table, fields, kernel, kernelCall, k, [&kept](const MemoryInSlot& memory) {
    kept.add(memory.box, [&memory] { return memory.ref(); });
  });
  KernelParams params(env, **kernel, kernelCall.args, kernelCall.argBytes);
  k.kernelParams = params.kernelParams();
  k.extra = params.extra();
  if (context) makeCurrent(env, context);
  call(*kernel, kernelCall.plan.config);
  kept.add(*kernel);
}

}  // namespace

// fields: kernel (slot), record (native/kernel/launch.h KernelCall, as kernel
// launches take it, the node's device ordinal in its header).
void buildKernelNode(Napi::Env env, const KernelNodeFields& fields, NodeParams& out) {
  const SlotTable& table = slotTable(env);
  const KernelRef* kernel = nullptr;
  KernelCall& call = out.kernelCall;
  CUDA_KERNEL_NODE_PARAMS_v3& k = out.params.kernel;
  readKernelCall(fields[1], call);
  out.context = readKernelNode(env, table, fields, kernel, call, k, [&out](const MemoryInSlot& memory) { out.uses.push_back(memory.ref()); });
  KernelParams& params = out.kernelParams.emplace(env, **kernel, call.args, call.argBytes);
  k.kernelParams = params.kernelParams();
  k.extra = params.extra();
  out.kernel = *kernel;
}

NodeRef addKernelNodeFromFields(Napi::Env env, const SlotTable& table, const GraphRef& graph, const Dependencies& deps,
                                const KernelNodeFields& fields) {
  NodeRef box;
  CUgraphNodeParams g;
  withKernelNode(env, table, fields, g, graph->rootBag(env), [&](const KernelRef& kernel, const CUlaunchConfig& config) {
    CUgraphNode node = addNodeCall(env, graph->graph, deps, g, false, &kernel->name);
    box = graph->nodes.add(graph, node);
    applyKernelAttributes(env, node, config);
  });
  return box;
}

void setExecKernelNode(Napi::Env env, const SlotTable& table, CUgraphExec exec, CUgraphNode node,
                       const KernelNodeFields& fields, ResourceBag& kept) {
  CUgraphNodeParams g;
  withKernelNode(env, table, fields, g, kept, [&](const KernelRef& kernel, const CUlaunchConfig&) {
    execSetNodeCall(env, exec, node, g, &kernel->name);
  });
}

// A prepared launch as a kernel node (the driver copies its arguments): a
// library's kernel runs in the stream's context, as its launches do.
CUcontext preparedKernelNode(Napi::Env env, PreparedLaunchBox& p, CUgraphNodeParams& g) {
  if (p.plan.config.numAttrs != 0 || p.plan.call != LaunchCall::Plain) {
    throwTypeError(env, "a prepared launch with launch attributes cannot update an executable's node "
                        "(an executable's kernel node attributes are fixed when it is instantiated)");
  }
  std::memset(&g, 0, sizeof(g));
  g.type = CU_GRAPH_NODE_TYPE_KERNEL;
  CUDA_KERNEL_NODE_PARAMS_v3& k = g.kernel;
  const bool packed = !p.kernel->params.known;
  k.kernelParams = packed || p.params.empty() ? nullptr : p.params.data();
  k.extra = packed && p.bytes ? p.extra : nullptr;
  return setKernelNodeLaunch(k, *p.kernel, p.plan.config, p.stream->context->context);
}

void applyKernelAttributes(Napi::Env env, CUgraphNode node, const CUlaunchConfig& config) {
  for (unsigned i = 0; i < config.numAttrs; ++i) {
    const CUlaunchAttribute& attribute = config.attrs[i];
    CU_CHECK_DETAIL(env, "attribute=" + std::to_string(attribute.id), cuGraphKernelNodeSetAttribute, node,
                    static_cast<CUkernelNodeAttrID>(attribute.id), &attribute.value);
  }
}

}  // namespace cudrv
