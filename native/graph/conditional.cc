// Conditional nodes (if/else, while, switch) and the handles that steer them:
// a handle belongs to one graph, starts each launch at its default value (when
// asked) and is set from device code with cudaGraphSetConditional.
#include "core/non_copyable.h"
#include "core/args.h"
#include "generated/entries.h"
#include "graph/node_params.h"

namespace cudrv {

struct ConditionalHandleBox : NonCopyable {
  CUgraphConditionalHandle handle = 0;
  std::weak_ptr<GraphBox> graph;  // the graph it was made for (named, not kept)
  ContextRef context;
};

class ConditionalHandle : public Handle<ConditionalHandle, ConditionalHandleBox> {
 public:
  static constexpr const char* kName = "ConditionalHandle";
};

// createConditionalHandle(graph, ordinal, defaultValue | undefined)
Napi::Value CreateConditionalHandle(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const int ordinal = intArg(info[1], "ordinal");
  unsigned int flags = info[2].IsUndefined() ? 0 : CU_GRAPH_COND_ASSIGN_DEFAULT;
  unsigned int value = info[2].IsUndefined() ? 0 : uintArg(info[2], "defaultValue");
  const GraphRef graph = graphArg(info[0], "graph");
  auto box = std::make_shared<ConditionalHandleBox>();
  box->graph = graph;
  box->context = primaryContext(env, ordinal);
  CU_CHECK(env, cuGraphConditionalHandleCreate, &box->handle, graph->graph, box->context->context, value, flags);
  return ConditionalHandle::newSlot(env, std::move(box));
}

// The 64-bit value device code receives as its cudaGraphConditionalHandle argument.
Napi::Value ConditionalHandleValue(const Napi::CallbackInfo& info) {
  return bigint(info.Env(), ConditionalHandle::fromSlot(info[0], "handle")->handle);
}

// {handle, kind: CUgraphConditionalNodeType, size}
void buildConditional(Napi::Env env, const ObjectFields& p, NodeParams& out, GraphBox* graph) {
  CUDA_CONDITIONAL_NODE_PARAMS& c = out.params.conditional;
  c.type = static_cast<CUgraphConditionalNodeType>(uintArg(p["kind"], "kind"));
  c.size = uintArg(p["size"], "size");
  if (c.size == 0 || c.size > 1024) throwRangeError(env, "size must be between 1 and 1024");
  const auto& handle = ConditionalHandle::fromSlot(p["handle"], "handle");
  GraphRef owner = handle->graph.lock();
  if (!owner || !owner->root()) throwDisposed(env, "the graph of this conditional handle");
  if (graph && owner->root() != graph->root()) throwTypeError(env, "handle was created for another graph");
  c.handle = handle->handle;
  c.ctx = handle->context->context;
  out.context = c.ctx;
  out.uses = {handle};
}

}  // namespace cudrv
