#include "graph/node_boxes.h"

#include <algorithm>

namespace cudrv {

NodeRef NodeBoxes::add(const std::shared_ptr<GraphBox>& graph, CUgraphNode node) {
  if (blocks_.empty() || used_ == blocks_.back().size) {
    uint32_t total = 0;
    for (const Block& block : blocks_) total += block.size;
    const uint32_t size = std::min(std::max<uint32_t>(8, total), kLargestBlock);
    blocks_.push_back({std::shared_ptr<NodeBox[]>(new NodeBox[size]), size});
    used_ = 0;
  }
  const Place place{static_cast<uint32_t>(blocks_.size() - 1), used_++};
  NodeRef box = at(place);
  box->node = node;
  box->graph = graph;
  box->owner = graph.get();
  return box;
}

NodeRef NodeBoxes::of(const std::shared_ptr<GraphBox>& graph, CUgraphNode node) {
  index();
  auto found = index_.find(node);
  if (found != index_.end()) return at(found->second);
  NodeRef box = add(graph, node);
  index_.emplace(node, Place{static_cast<uint32_t>(blocks_.size() - 1), used_ - 1});
  indexed_ = {static_cast<uint32_t>(blocks_.size() - 1), used_};
  return box;
}

void NodeBoxes::index() {
  while (indexed_.block < blocks_.size()) {
    const Block& block = blocks_[indexed_.block];
    const uint32_t end = indexed_.block + 1 == blocks_.size() ? used_ : block.size;
    for (; indexed_.box < end; ++indexed_.box) {
      const NodeBox& box = block.boxes[indexed_.box];
      if (box.alive) index_[box.node] = indexed_;
    }
    if (indexed_.block + 1 == blocks_.size()) return;
    indexed_ = {indexed_.block + 1, 0};
  }
}

}  // namespace cudrv
