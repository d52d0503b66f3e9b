// Executable graphs (native/graph/exec.cc): the box behind a GraphExec, and
// one launch of it, for the entries that launch graphs (graphLaunch, a batch
// of native/graph/submit.cc).
#pragma once

#include <napi.h>

#include <memory>

#include "core/errors.h"
#include "core/handle.h"
#include "core/item_detail.h"
#include "core/non_copyable.h"
#include "core/release.h"
#include "driver/call.h"
#include "graph/graph.h"
#include "stream.h"

namespace cudrv {

struct GraphExecBox : NonCopyable {
  CUgraphExec exec = nullptr;
  BagRef graphResources;  // the bag of the graph it was made from
  ResourceBag extra;      // what updates brought in

  GraphExecBox() = default;
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
};

// cuGraphLaunch of exec on stream (whose context the caller made current),
// the executable stamped on the stream. item: its index in a batch, said in
// the driver's error (itemDetail), or -1.
inline void launchGraph(Napi::Env env, StreamBox& stream, const ExecRef& exec, int64_t item = -1) {
  CUresult r = CU_CALL(cuGraphLaunch, exec->exec, stream.stream);
  if (r != CUDA_SUCCESS) throwCudaError(env, r, Fn::cuGraphLaunch, itemDetail(item, ""));
  stream.keepUntilIdle(exec);
}

}  // namespace cudrv
