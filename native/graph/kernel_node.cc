// Kernel nodes: the kernel, its launch shape and its packed arguments, in the
// form cuGraphAddNode and the per-type calls take. The argument bytes are
// copied by the driver when the node is made or updated; memory arguments'
// addresses are written here from their boxes, as for launches.
#include <cstring>

#include "args.h"
#include "graph/node_params.h"
#include "kernel.h"
#include "launch.h"
#include "launch_config.h"

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

}  // namespace

// fields: kernel (slot), record (native/launch.h KernelCall, as kernel
// launches take it), ordinal. The node's argument bytes are the record's, the
// memory arguments' addresses written into it in place: the driver copies
// them when the node is made or updated, within this native call.
void buildKernelNode(Napi::Env env, const KernelNodeFields& fields, NodeParams& out) {
  const SlotTable& table = slotTable(env);
  const KernelRef& kernel = Kernel::fromSlot(table, fields[0], "kernel");
  KernelCall& call = out.kernelCall;
  readKernelCall(fields[1], call);
  out.uses.reserve(call.pointerCount);
  writeMemoryArguments(env, table, call, call.args, [&out](MemoryRef memory) { out.uses.push_back(std::move(memory)); });
  const ParamLayout& layout = kernel->params;
  CUDA_KERNEL_NODE_PARAMS_v3& k = out.params.kernel;
  if (layout.known) {
    if (call.argBytes < layout.bytes) {
      rangeError(env, "args", "holds " + std::to_string(call.argBytes) + " bytes; the parameters of " + kernel->name +
                                  " take " + std::to_string(layout.bytes));
    }
    out.kernelArgPointers.reserve(layout.offsets.size());
    for (size_t offset : layout.offsets) out.kernelArgPointers.push_back(call.args + offset);
    k.kernelParams = out.kernelArgPointers.empty() ? nullptr : out.kernelArgPointers.data();
  } else if (call.argBytes != 0) {
    out.kernelArgBytes = call.argBytes;
    void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, call.args, CU_LAUNCH_PARAM_BUFFER_SIZE, &out.kernelArgBytes,
                     CU_LAUNCH_PARAM_END};
    std::memcpy(out.kernelExtra, extra, sizeof(extra));
    k.extra = out.kernelExtra;
  }
  const CUcontext library = kernel->function ? nullptr : primaryContext(env, intArg(fields[2], "ordinal"))->context;
  out.context = setKernelNodeLaunch(k, *kernel, call.plan.config, library);
  out.kernel = kernel;
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

// Attributes a launch configuration carries (cluster shape, cooperation,
// priority) become kernel node attributes.
void applyKernelAttributes(Napi::Env env, CUgraphNode node, NodeParams& p) {
  const CUlaunchConfig& config = p.kernelCall.plan.config;
  for (unsigned i = 0; i < config.numAttrs; ++i) {
    const CUlaunchAttribute& attribute = config.attrs[i];
    CU_CHECK_DETAIL(env, "attribute=" + std::to_string(attribute.id), cuGraphKernelNodeSetAttribute, node,
                    static_cast<CUkernelNodeAttrID>(attribute.id), &attribute.value);
  }
}

}  // namespace cudrv
