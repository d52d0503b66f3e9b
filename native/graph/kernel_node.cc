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

// fields: kernel (slot), config: Int32Array, args: Uint8Array, pointers:
// Float64Array of [offset, memory slot] pairs, pointerCount, ordinal, as
// kernel launches take them (handles found by slot).
void buildKernelNode(Napi::Env env, const KernelNodeFields& fields, NodeParams& out) {
  const KernelRef& kernel = Kernel::fromSlot(fields[0], "kernel");
  LaunchPlan plan = readLaunchPlan(fields[1], "config");
  size_t byteCount = 0;
  const uint8_t* bytes = typedArrayArg<uint8_t>(fields[2], napi_uint8_array, "args", "a Uint8Array", &byteCount);
  out.kernelArgs.assign(bytes, bytes + byteCount);
  size_t pointerLength = 0;
  const double* pointers =
      typedArrayArg<double>(fields[3], napi_float64_array, "pointers", "a Float64Array", &pointerLength);
  const uint32_t pointerCount = uintArg(fields[4], "pointerCount");
  if (pointerCount > pointerLength / 2) rangeError(env, "pointerCount", "exceeds the pointers given");
  out.uses.reserve(pointerCount);
  for (uint32_t i = 0; i < pointerCount; ++i) {
    const double offset = pointers[2 * i];
    if (!(offset >= 0) || offset > static_cast<double>(byteCount)) rangeError(env, "offset", "is outside the parameters");
    out.uses.push_back(writePointer(env, memoryOfSlot(env, pointers[2 * i + 1]), static_cast<uint64_t>(offset),
                                    out.kernelArgs.data(), out.kernelArgs.size()));
  }
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
    out.context = primaryContext(env, intArg(fields[5], "ordinal"))->context;
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
