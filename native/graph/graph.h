// Graphs (CUgraph), their nodes, and what keeps the resources they use alive.
//
// Every resource a graph's nodes use (buffers, kernels and their code, events,
// host callbacks, child graphs) goes into the graph's ResourceBag. Each
// executable instantiated from the graph holds the bag, and every launch stamps
// its executable on its stream (StreamBox::keepUntilIdle), so a resource lives
// as long as the graph, an executable or a launch that may still use it.
//
// CUDA user objects could carry the same references, but a graph that retains
// one makes every launch cost the driver more host time, growing with the
// graph's size, so they are left to programs that want them (UserObject,
// native/graph/user_object.cc).
#pragma once

#include <napi.h>

#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/non_copyable.h"
#include "context.h"
#include "graph/node_boxes.h"
#include "core/handle.h"
#include "core/recent_keys.h"

namespace cudrv {

struct ResourceBag {
  std::vector<std::shared_ptr<void>> items;
  std::unordered_set<const void*> present;
  RecentKeys recent;

  // Copied in only when new: updates and launches add the same few resources
  // again and again, and each shared_ptr copy and release is an atomic operation.
  template <typename T>
  void add(const std::shared_ptr<T>& resource) {
    add(resource.get(), [&resource] { return resource; });
  }
  // The same by address: own() makes the reference, only when it is new.
  // Nothing leaves a bag, so a key in `recent` is present.
  template <typename Own>
  void add(const void* key, Own own) {
    if (!key || recent.has(key, 0)) return;
    if (present.insert(key).second) items.push_back(own());
    recent.note(key, 0);
  }
  void addAll(const ResourceBag& other) {
    for (const auto& item : other.items) add(item);
  }
};
using BagRef = std::shared_ptr<ResourceBag>;

// A graph's box belongs to its JavaScript object; dispose() destroys the
// CUgraph at once. Nodes, body graphs and conditional handles only name it
// (weakly): once it is gone they throw instead of reaching the driver.
struct GraphBox : NonCopyable {
  CUgraph graph = nullptr;
  bool owned = true;                    // false: a child or conditional body graph its parent owns
  // The graph of a capture in progress, which the driver owns until the
  // capture ends: end() hands it to this box (owned), a failure retires it.
  bool capturing = false;
  std::weak_ptr<GraphBox> parent;       // the owner of a graph that is not owned
  napi_env env = nullptr;
  BagRef bag;                           // created with the first resource
  NodeBoxes nodes;                      // one box per node

  GraphBox() = default;
  ~GraphBox();

  // Keeps resource alive for as long as this graph (or its root graph) or work
  // made from it may use it.
  template <typename T>
  void keep(Napi::Env env, const std::shared_ptr<T>& resource) {
    if (resource) rootBag(env).add(resource);
  }
  void keepAll(Napi::Env env, const ResourceBag& resources);
  // A capture's graph that did not become a graph (the capture failed or was
  // abandoned): its nodes and objects throw from now on, and what its nodes
  // used is let go.
  void retireCapture() {
    capturing = false;
    bag.reset();
  }
  // The bag of the graph that holds this one's resources (made on first use).
  ResourceBag& rootBag(Napi::Env env);
  // The graph whose bag holds the resources of this one; null
  // when an owner has been disposed (and with it this graph).
  GraphBox* root() {
    if (owned || capturing) return this;
    std::shared_ptr<GraphBox> owner = parent.lock();
    return owner ? owner->root() : nullptr;
  }
};
using GraphRef = std::shared_ptr<GraphBox>;

class Graph : public Handle<Graph, GraphBox> {
 public:
  static constexpr const char* kName = "Graph";
};

class GraphNode : public Handle<GraphNode, NodeBox> {
 public:
  static constexpr const char* kName = "GraphNode";
};

// A graph box owning (or, with a parent, naming) a CUgraph.
GraphRef makeGraphBox(Napi::Env env, CUgraph graph, const GraphRef& parent = nullptr);
Napi::Value newGraphSlot(Napi::Env env, const GraphRef& graph);
// A live graph argument, by slot: a Graph whose CUgraph (and owners) still exist.
const GraphRef& graphArg(Napi::Value value, const char* param);
const GraphRef& graphArg(const SlotTable& table, Napi::Value value, const char* param);
// The graph a live node belongs to.
GraphRef graphOf(Napi::Env env, const NodeBox& node);

// The one JavaScript-visible box of a node of graph (made on first sight).
inline NodeRef nodeBoxOf(const GraphRef& graph, CUgraphNode node) { return graph->nodes.of(graph, node); }
// The number of the node's slot (see NodeBox), made owned on first sight.
Napi::Value nodeValue(Napi::Env env, const NodeRef& node);
Napi::Value nodeValue(Napi::Env env, SlotTable& table, const NodeRef& node);
// A live node argument, by slot; it must belong to graph when graph is given.
const NodeRef& nodeArg(Napi::Value value, const char* param, const GraphBox* graph = nullptr);
const NodeRef& nodeArg(const SlotTable& table, Napi::Value value, const char* param, const GraphBox* graph);
// The same checks for a node found otherwise (by slot); graph, when given, is
// one the call has checked is live (graphArg).
const NodeRef& liveNode(Napi::Env env, const NodeRef& node, const char* param, const GraphBox* graph = nullptr);

// [node, ...] (or one node's slot) and, when given, [[fromPort, toPort, type], ...]
// (edge data), in two steps: the constructor reads every element (getters may
// run), resolve() looks the nodes up once the call has read all its other
// arguments too. A few nodes are held in place: a list allocated per node
// added cost a twentieth of a chain's native time.
class Dependencies {
 public:
  Dependencies(Napi::Env env, Napi::Value nodes, Napi::Value edges);
  // The nodes read, which must be live nodes of graph.
  void resolve(Napi::Env env, const GraphBox& graph) { resolve(env, slotTable(env), graph); }
  void resolve(Napi::Env env, const SlotTable& table, const GraphBox& graph);

  // The nodes (once resolved) and the edge data as the driver takes them (null when none).
  const CUgraphNode* nodes() const { return count_ == 0 ? nullptr : count_ <= kFew ? few_ : more_.data(); }
  const CUgraphEdgeData* edges() const { return edges_.empty() ? nullptr : edges_.data(); }
  size_t count() const { return count_; }
  bool hasEdgeData() const { return !edges_.empty(); }
  // Whether a node is named twice (once resolved).
  bool repeatsANode() const;

 private:
  static constexpr size_t kFew = 8;
  napi_value valueAt(size_t i) const { return count_ <= kFew ? fewValues_[i] : moreValues_[i]; }
  // One node given by its slot number (count_ 1, no values); any number, a
  // negative one or NaN too, which the lookup refuses.
  bool single_ = false;
  double one_ = 0;
  napi_value fewValues_[kFew];
  std::vector<napi_value> moreValues_;  // all of them, past kFew
  CUgraphNode few_[kFew];
  std::vector<CUgraphNode> more_;
  size_t count_ = 0;
  std::vector<CUgraphEdgeData> edges_;  // empty: no edge data
};

// The resources captured into a capture sequence (see StreamBox::keepUntilIdle).
void keepForCapture(uint64_t captureId, std::shared_ptr<void> resource);
ResourceBag takeCaptured(uint64_t captureId);

}  // namespace cudrv
