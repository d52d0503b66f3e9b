// The boxes of a graph's nodes: what a GraphNode's slot holds (see NodeBox),
// made in blocks the graph holds. A box is shared through its block (an
// aliasing shared_ptr), so a node added costs no allocation of its own, and
// the index from CUgraphNode to box, which listings, clones and errors need
// and builds do not, is brought up to date when one of those looks a node up.
// A make_shared box and a hash-map entry per added node would be a large part
// of a node-by-node build's own cost.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "core/non_copyable.h"

namespace cudrv {

struct GraphBox;

// A node's box has one slot at a time, which the slot table owns from the
// start: lib's Graph makes the node's one object for it and frees it with the
// graph's own (lib/disposable.ts SlotGroup). A node object costs no adoption,
// no finalizer and no reference held here, which cost more than the driver's
// cuGraphAddNode; identity (the same object for the same node) is the graph
// object's lookup from slot to node.
struct NodeBox : NonCopyable {
  CUgraphNode node = nullptr;
  std::weak_ptr<GraphBox> graph;  // the graph the node belongs to
  // The same graph by address, for the check that a dependency belongs to a
  // live graph a call holds: while graph has not expired, no other graph can
  // have this address, and the check takes no reference.
  const GraphBox* owner = nullptr;
  bool alive = true;  // false once destroyed with cuGraphDestroyNode
  double slot = -1;   // its slot, while that still holds this box

  NodeBox() = default;
};
using NodeRef = std::shared_ptr<NodeBox>;

class NodeBoxes {
 public:
  // The box of a node the driver has just made in graph (none has one yet).
  NodeRef add(const std::shared_ptr<GraphBox>& graph, CUgraphNode node);
  // The box of a node of graph, made on first sight.
  NodeRef of(const std::shared_ptr<GraphBox>& graph, CUgraphNode node);
  // The node was destroyed: a node the driver makes later at its address gets a box of its own.
  void forget(CUgraphNode node) {
    index();
    index_.erase(node);
  }

 private:
  // Blocks grow with the graph (8 boxes, then as many as the graph has, up to
  // kLargestBlock): a small graph holds little, a large one few blocks.
  static constexpr uint32_t kLargestBlock = 1024;
  struct Block {
    std::shared_ptr<NodeBox[]> boxes;
    uint32_t size;
  };
  // Where a box is: its block and its place there.
  struct Place {
    uint32_t block, box;
  };
  NodeRef at(Place place) const {
    const Block& block = blocks_[place.block];
    return NodeRef(block.boxes, &block.boxes[place.box]);
  }
  // Indexes the live boxes made since the last lookup.
  void index();

  std::vector<Block> blocks_;
  uint32_t used_ = 0;  // boxes taken in the last block
  std::unordered_map<CUgraphNode, Place> index_;
  Place indexed_{0, 0};  // the first box not yet indexed
};

}  // namespace cudrv
