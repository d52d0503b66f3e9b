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

// fields: kernel (slot), record, argBytes, pointerCount (native/launch.h
// KernelCall, as kernel launches take them), ordinal.
void buildKernelNode(Napi::Env env, const KernelNodeFields& fields, NodeParams& out) {
  const SlotTable& table = slotTable(env);
  const KernelRef& kernel = Kernel::fromSlot(table, fields[0], "kernel");
  const KernelCall call = readKernelCall(fields[1], fields[2], fields[3]);
  const LaunchPlan& plan = call.plan;
  out.kernelArgs.assign(call.args, call.args + call.argBytes);
  out.uses.reserve(call.pointerCount);
  writeMemoryArguments(env, table, call, out.kernelArgs.data(), [&out](MemoryRef memory) { out.uses.push_back(std::move(memory)); });
  const ParamLayout& layout = kernel->params;
  CUDA_KERNEL_NODE_PARAMS_v3& k = out.params.kernel;
  if (layout.known) {
    if (out.kernelArgs.size() < layout.bytes) {
      rangeError(env, "args", "holds " + std::to_string(out.kernelArgs.size()) + " bytes; the parameters of " + kernel->name +
                                  " take " + std::to_string(layout.bytes));
    }
    out.kernelArgPointers.reserve(layout.offsets.size());
    for (size_t offset : layout.offsets) out.kernelArgPointers.push_back(out.kernelArgs.data() + offset);
    k.kernelParams = out.kernelArgPointers.empty() ? nullptr : out.kernelArgPointers.data();
  } else if (!out.kernelArgs.empty()) {
    out.kernelArgBytes = out.kernelArgs.size();
    void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, out.kernelArgs.data(), CU_LAUNCH_PARAM_BUFFER_SIZE,
                     &out.kernelArgBytes, CU_LAUNCH_PARAM_END};
    std::memcpy(out.kernelExtra, extra, sizeof(extra));
    k.extra = out.kernelExtra;
  }
  k.gridDimX = plan.config.gridDimX;
  k.gridDimY = plan.config.gridDimY;
  k.gridDimZ = plan.config.gridDimZ;
  k.blockDimX = plan.config.blockDimX;
  k.blockDimY = plan.config.blockDimY;
  k.blockDimZ = plan.config.blockDimZ;
  k.sharedMemBytes = plan.config.sharedMemBytes;
  if (kernel->function) {
    k.func = kernel->function;
    out.context = kernel->context();
  } else {
    k.kern = kernel->kernel;
    out.context = primaryContext(env, intArg(fields[4], "ordinal"))->context;
    k.ctx = out.context;
  }
  out.kernelAttributes.assign(plan.config.attrs, plan.config.attrs + plan.config.numAttrs);
  out.kernel = kernel;
}

// Attributes a launch configuration carries (cluster shape, cooperation,
// priority) become kernel node attributes.
void applyKernelAttributes(Napi::Env env, CUgraphNode node, NodeParams& p) {
  for (const CUlaunchAttribute& attribute : p.kernelAttributes) {
    CU_CHECK_DETAIL(env, "attribute=" + std::to_string(attribute.id), cuGraphKernelNodeSetAttribute, node,
                    static_cast<CUkernelNodeAttrID>(attribute.id), &attribute.value);
  }
}

}  // namespace cudrv
