// Executable graphs (native/graph/exec.cc): the box behind a GraphExec, for
// the entries that launch graphs (graphLaunch, a batch of
// native/graph/submit.cc).
#pragma once

#include <napi.h>

#include <memory>

#include "core/handle.h"
#include "core/non_copyable.h"
#include "core/release.h"
#include "driver/call.h"
#include "graph/graph.h"

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

}  // namespace cudrv
