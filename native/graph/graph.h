// Graphs (CUgraph): built node by node or captured from streams.
#pragma once

#include <napi.h>

#include "handle.h"

namespace cudrv {

struct GraphBox {
  CUgraph graph = nullptr;

  GraphBox() = default;
  GraphBox(const GraphBox&) = delete;
  GraphBox& operator=(const GraphBox&) = delete;
  ~GraphBox();
};
using GraphRef = std::shared_ptr<GraphBox>;

class Graph : public Handle<Graph, GraphBox> {
 public:
  static constexpr const char* kName = "Graph";
  using Base::Base;
  static void init(Napi::Env env, Napi::Object exports);

 private:
  Napi::Value HandleValue(const Napi::CallbackInfo& info);
  Napi::Value NodeCount(const Napi::CallbackInfo& info);
};

}  // namespace cudrv
