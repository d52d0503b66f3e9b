#include "graph/graph.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>

#include "core/args.h"
#include "generated/entries.h"
#include "core/release.h"

namespace cudrv {

namespace {

std::mutex capturedMutex;
std::unordered_map<uint64_t, ResourceBag> captured;  // by capture id

}  // namespace

GraphBox::~GraphBox() {
  if (!owned || !graph) return;
  CUgraph g = graph;
  releaseWhenSafe([g] { CU_CALL(cuGraphDestroy, g); });
}

ResourceBag& GraphBox::rootBag(Napi::Env env) {
  GraphBox* owner = root();
  if (!owner) throwDisposed(env, "the graph that owns this one");
  if (!owner->bag) owner->bag = std::make_shared<ResourceBag>();
  return *owner->bag;
}

void GraphBox::keepAll(Napi::Env env, const ResourceBag& resources) {
  for (const auto& item : resources.items) keep(env, item);
}

void keepForCapture(uint64_t captureId, std::shared_ptr<void> resource) {
  std::lock_guard<std::mutex> lock(capturedMutex);
  captured[captureId].add(resource);
}

ResourceBag takeCaptured(uint64_t captureId) {
  std::lock_guard<std::mutex> lock(capturedMutex);
  auto it = captured.find(captureId);
  if (it == captured.end()) return {};
  ResourceBag bag = std::move(it->second);
  captured.erase(it);
  return bag;
}

GraphRef makeGraphBox(Napi::Env env, CUgraph graph, const GraphRef& parent) {
  auto box = std::make_shared<GraphBox>();
  box->graph = graph;
  box->env = env;
  box->owned = parent == nullptr;
  box->parent = parent;
  return box;
}

const GraphRef& graphArg(Napi::Value value, const char* param) { return graphArg(slotTable(value.Env()), value, param); }

const GraphRef& graphArg(const SlotTable& table, Napi::Value value, const char* param) {
  const GraphRef& graph = Graph::fromSlot(table, value, param);
  if (!graph->root()) throwDisposed(value.Env(), "the graph that owns this one");
  return graph;
}

GraphRef graphOf(Napi::Env env, const NodeBox& node) {
  GraphRef graph = node.graph.lock();
  if (!graph || !graph->root()) throwDisposed(env, "the graph of this node");
  return graph;
}

Napi::Value newGraphSlot(Napi::Env env, const GraphRef& graph) { return Graph::newSlot(env, graph); }

// The same number for a node while its slot holds it, so that lib's graph
// object finds the node's one object by it. A new slot is owned at once: its
// graph object frees it (NodeBox).
Napi::Value nodeValue(Napi::Env env, const NodeRef& node) { return nodeValue(env, slotTable(env), node); }

Napi::Value nodeValue(Napi::Env env, SlotTable& table, const NodeRef& node) {
  const std::shared_ptr<NodeBox>* held = GraphNode::boxAt(table, node->slot);
  if (!held || *held != node) {
    const double id = table.add(GraphNode::slotClass(), node);
    if (id < 0) throwRangeError(env, "too many live handles to make another GraphNode");
    table.own(id);
    node->slot = id;
  }
  return Napi::Number::New(env, node->slot);
}

const NodeRef& nodeArg(Napi::Value value, const char* param, const GraphBox* graph) {
  return nodeArg(slotTable(value.Env()), value, param, graph);
}

const NodeRef& nodeArg(const SlotTable& table, Napi::Value value, const char* param, const GraphBox* graph) {
  return liveNode(value.Env(), GraphNode::fromSlot(table, value, param), param, graph);
}

const NodeRef& liveNode(Napi::Env env, const NodeRef& node, const char* param, const GraphBox* graph) {
  if (!node->alive) throwTypeError(env, std::string(param) + " was destroyed (GraphNode.destroy)");
  // A node of the graph the call holds (and has checked is live).
  if (graph && node->owner == graph && !node->graph.expired()) return node;
  GraphRef owner = graphOf(env, *node);
  if (graph && owner.get() != graph) throwTypeError(env, std::string(param) + " belongs to another graph");
  return node;
}

Dependencies::Dependencies(Napi::Env env, Napi::Value nodes, Napi::Value edges) {
  if (napi_get_value_double(env, nodes, &one_) == napi_ok) {
    // One dependency by its slot: a chain's, with no list to make and read.
    single_ = true;
    count_ = 1;
  } else {
    const napi_valuetype type = nodes.Type();
    if (type != napi_undefined && type != napi_null) {
      if (!nodes.IsArray()) throwTypeError(env, "dependencies must be an array of GraphNodes");
      Napi::Array list = nodes.As<Napi::Array>();
      count_ = list.Length();
      if (count_ > kFew) moreValues_.resize(count_);
      napi_value* values = count_ <= kFew ? fewValues_ : moreValues_.data();
      for (uint32_t i = 0; i < count_; ++i) {
        Napi::Value value = list[i];
        values[i] = value;
      }
    }
  }
  const napi_valuetype edgesType = edges.Type();
  if (edgesType == napi_undefined || edgesType == napi_null) return;
  if (!edges.IsArray() || edges.As<Napi::Array>().Length() != count_) {
    throwTypeError(env, "edge data must be an array with one entry per dependency");
  }
  const BatchValues data(edges.As<Napi::Array>(), 3, "each edge's data must be [fromPort, toPort, type]");
  for (uint32_t i = 0; i < data.size(); ++i) {
    CUgraphEdgeData edge{};
    edge.from_port = static_cast<unsigned char>(integerArg(data(i, 0), "fromPort", 0, 255));
    edge.to_port = static_cast<unsigned char>(integerArg(data(i, 1), "toPort", 0, 255));
    edge.type = static_cast<unsigned char>(integerArg(data(i, 2), "type", 0, 255));
    edges_.push_back(edge);
  }
}

void Dependencies::resolve(Napi::Env env, const SlotTable& table, const GraphBox& graph) {
  if (count_ > kFew) more_.resize(count_);
  CUgraphNode* nodes = count_ <= kFew ? few_ : more_.data();
  for (size_t i = 0; i < count_; ++i) {
    const NodeRef& node = single_ ? GraphNode::fromSlot(env, table, one_, "dependency")
                                    : GraphNode::fromSlot(table, Napi::Value(env, valueAt(i)), "dependency");
    nodes[i] = liveNode(env, node, "dependency", &graph)->node;
  }
}

bool Dependencies::repeatsANode() const {
  std::vector<CUgraphNode> sorted(nodes(), nodes() + count_);
  std::sort(sorted.begin(), sorted.end());
  return std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end();
}

Napi::Value CreateGraph(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireDriver(env, Fn::cuGraphCreate);
  CUgraph graph = nullptr;
  CU_CHECK(env, cuGraphCreate, &graph, 0);
  return newGraphSlot(env, makeGraphBox(env, graph));
}

namespace {

// The nodes a listing call returns, as JavaScript objects.
Napi::Array nodeArray(Napi::Env env, const GraphRef& graph, const std::vector<CUgraphNode>& nodes) {
  Napi::Array out = Napi::Array::New(env, nodes.size());
  for (uint32_t i = 0; i < nodes.size(); ++i) out.Set(i, nodeValue(env, nodeBoxOf(graph, nodes[i])));
  return out;
}

Napi::Array edgeDataArray(Napi::Env env, const std::vector<CUgraphEdgeData>& edges) {
  Napi::Array out = Napi::Array::New(env, edges.size());
  for (uint32_t i = 0; i < edges.size(); ++i) {
    Napi::Array e = Napi::Array::New(env, 3);
    e.Set(0u, edges[i].from_port);
    e.Set(1u, edges[i].to_port);
    e.Set(2u, edges[i].type);
    out.Set(i, e);
  }
  return out;
}

// Both edge lists of cuGraphAddDependencies / cuGraphRemoveDependencies:
// (graph, from[], to[], edgeData[] | undefined).
struct EdgeList {
  Dependencies from, to;  // from's edge data is the edges'
};

// Read first (getters may run), then resolved against the graph.
EdgeList edgeListArg(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Dependencies from(env, info[1], info[3]);
  Dependencies to(env, info[2], Napi::Value());
  if (from.count() != to.count()) throwRangeError(env, "from and to must have the same length");
  return {std::move(from), std::move(to)};
}

}  // namespace

Napi::Value GraphHandle(const Napi::CallbackInfo& info) { return handleValue(info.Env(), graphArg(info[0], "graph")->graph); }

Napi::Value GraphNodeCount(const Napi::CallbackInfo& info) {
  size_t count = 0;
  CU_CHECK(info.Env(), cuGraphGetNodes, graphArg(info[0], "graph")->graph, nullptr, &count);
  return Napi::Number::New(info.Env(), static_cast<double>(count));
}

// The graph is held by the listing calls: setting the result's elements may run
// setters JavaScript put on Array.prototype, which could dispose it.
Napi::Value GraphNodes(const Napi::CallbackInfo& info) {
  const GraphRef graph = graphArg(info[0], "graph");
  size_t count = 0;
  CU_CHECK(info.Env(), cuGraphGetNodes, graph->graph, nullptr, &count);
  std::vector<CUgraphNode> nodes(count);
  CU_CHECK(info.Env(), cuGraphGetNodes, graph->graph, nodes.data(), &count);
  nodes.resize(count);
  return nodeArray(info.Env(), graph, nodes);
}

Napi::Value GraphRootNodes(const Napi::CallbackInfo& info) {
  const GraphRef graph = graphArg(info[0], "graph");
  size_t count = 0;
  CU_CHECK(info.Env(), cuGraphGetRootNodes, graph->graph, nullptr, &count);
  std::vector<CUgraphNode> nodes(count);
  CU_CHECK(info.Env(), cuGraphGetRootNodes, graph->graph, nodes.data(), &count);
  nodes.resize(count);
  return nodeArray(info.Env(), graph, nodes);
}

// {from: GraphNode[], to: GraphNode[], data: [fromPort, toPort, type][]}
Napi::Value GraphEdges(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const GraphRef graph = graphArg(info[0], "graph");
  size_t count = 0;
  CU_CHECK(env, cuGraphGetEdges, graph->graph, nullptr, nullptr, nullptr, &count);
  std::vector<CUgraphNode> from(count), to(count);
  std::vector<CUgraphEdgeData> data(count);
  CU_CHECK(env, cuGraphGetEdges, graph->graph, from.data(), to.data(), data.data(), &count);
  from.resize(count);
  to.resize(count);
  data.resize(count);
  Napi::Object out = Napi::Object::New(env);
  out.Set("from", nodeArray(env, graph, from));
  out.Set("to", nodeArray(env, graph, to));
  out.Set("data", edgeDataArray(env, data));
  return out;
}

Napi::Value GraphAddEdges(const Napi::CallbackInfo& info) {
  EdgeList edges = edgeListArg(info);
  GraphBox& graph = *graphArg(info[0], "graph");
  edges.from.resolve(info.Env(), graph);
  edges.to.resolve(info.Env(), graph);
  CU_CHECK(info.Env(), cuGraphAddDependencies, graph.graph, edges.from.nodes(), edges.to.nodes(), edges.from.edges(),
           edges.from.count());
  return info.Env().Undefined();
}

Napi::Value GraphRemoveEdges(const Napi::CallbackInfo& info) {
  EdgeList edges = edgeListArg(info);
  GraphBox& graph = *graphArg(info[0], "graph");
  edges.from.resolve(info.Env(), graph);
  edges.to.resolve(info.Env(), graph);
  CU_CHECK(info.Env(), cuGraphRemoveDependencies, graph.graph, edges.from.nodes(), edges.to.nodes(), edges.from.edges(),
           edges.from.count());
  return info.Env().Undefined();
}

// A new graph with the same nodes, holding the same resources.
Napi::Value GraphClone(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  GraphBox& graph = *graphArg(info[0], "graph");
  CUgraph clone = nullptr;
  CU_CHECK(env, cuGraphClone, &clone, graph.graph);
  GraphRef box = makeGraphBox(env, clone);
  if (graph.root()->bag) box->keepAll(env, *graph.root()->bag);
  return newGraphSlot(env, box);
}

// (clone, originalNode): the node original became in clone.
Napi::Value GraphFindInClone(const Napi::CallbackInfo& info) {
  const SlotTable& table = slotTable(info.Env());
  const GraphRef& clone = graphArg(table, info[0], "graph");
  const NodeRef& original = nodeArg(table, info[1], "node", nullptr);
  CUgraphNode found = nullptr;
  CU_CHECK(info.Env(), cuGraphNodeFindInClone, &found, original->node, clone->graph);
  return nodeValue(info.Env(), nodeBoxOf(clone, found));
}

// (graph, path, flags): the driver writes its DOT description to path.
Napi::Value GraphDebugDotPrint(const Napi::CallbackInfo& info) {
  std::string path = stringArg(info[1], "path");
  const unsigned int flags = uintArg(info[2], "flags");
  GraphBox& graph = *graphArg(info[0], "graph");
  CU_CHECK_DETAIL(info.Env(), "path=" + path, cuGraphDebugDotPrint, graph.graph, path.c_str(), flags);
  return info.Env().Undefined();
}

// How many resources the graph keeps alive (for tests and diagnostics).
Napi::Value GraphResourceCount(const Napi::CallbackInfo& info) {
  GraphBox* root = graphArg(info[0], "graph")->root();
  return Napi::Number::New(info.Env(), root && root->bag ? static_cast<double>(root->bag->items.size()) : 0);
}

Napi::Value GraphNodeHandle(const Napi::CallbackInfo& info) {
  return handleValue(info.Env(), GraphNode::fromSlot(info[0], "node")->node);
}

Napi::Value GraphNodeType(const Napi::CallbackInfo& info) {
  const NodeRef& node = nodeArg(info[0], "node");
  CUgraphNodeType type;
  CU_CHECK(info.Env(), cuGraphNodeGetType, node->node, &type);
  return Napi::Number::New(info.Env(), type);
}

namespace {

// {nodes, data} from cuGraphNodeGetDependencies / cuGraphNodeGetDependentNodes.
template <typename Query>
Napi::Value neighbours(Napi::Env env, const NodeRef& node, Query query) {
  size_t count = 0;
  query(node->node, nullptr, nullptr, &count);
  std::vector<CUgraphNode> nodes(count);
  std::vector<CUgraphEdgeData> data(count);
  query(node->node, nodes.data(), data.data(), &count);
  nodes.resize(count);
  data.resize(count);
  Napi::Object out = Napi::Object::New(env);
  out.Set("nodes", nodeArray(env, graphOf(env, *node), nodes));
  out.Set("data", edgeDataArray(env, data));
  return out;
}

}  // namespace

// The node is held: setting the result's elements may run setters that dispose it.
Napi::Value GraphNodeDependencies(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const NodeRef node = nodeArg(info[0], "node");
  return neighbours(env, node, [env](CUgraphNode n, CUgraphNode* out, CUgraphEdgeData* d, size_t* c) {
    CU_CHECK(env, cuGraphNodeGetDependencies, n, out, d, c);
  });
}

Napi::Value GraphNodeDependents(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const NodeRef node = nodeArg(info[0], "node");
  return neighbours(env, node, [env](CUgraphNode n, CUgraphNode* out, CUgraphEdgeData* d, size_t* c) {
    CU_CHECK(env, cuGraphNodeGetDependentNodes, n, out, d, c);
  });
}

// Removes the node (and its edges) from its graph; every reference to the node
// becomes unusable.
Napi::Value GraphNodeDestroy(const Napi::CallbackInfo& info) {
  const NodeRef& node = nodeArg(info[0], "node");
  CU_CHECK(info.Env(), cuGraphDestroyNode, node->node);
  node->alive = false;
  graphOf(info.Env(), *node)->nodes.forget(node->node);
  return info.Env().Undefined();
}

// A kernel node's launch attribute (cuGraphKernelNodeGetAttribute): the raw
// CUkernelNodeAttrValue union, which lib/ decodes (as for stream attributes).
Napi::Value GraphNodeGetKernelAttribute(const Napi::CallbackInfo& info) {
  unsigned int id = uintArg(info[1], "attribute");
  const NodeRef& node = nodeArg(info[0], "node");
  CUkernelNodeAttrValue value;
  std::memset(&value, 0, sizeof(value));
  CU_CHECK_DETAIL(info.Env(), "attribute=" + std::to_string(id), cuGraphKernelNodeGetAttribute, node->node,
                  static_cast<CUkernelNodeAttrID>(id), &value);
  return bytesValue(info.Env(), value);
}

Napi::Value GraphNodeSetKernelAttribute(const Napi::CallbackInfo& info) {
  unsigned int id = uintArg(info[1], "attribute");
  auto value = bytesArg<CUkernelNodeAttrValue>(info[2], "value");
  const NodeRef& node = nodeArg(info[0], "node");
  CU_CHECK_DETAIL(info.Env(), "attribute=" + std::to_string(id), cuGraphKernelNodeSetAttribute, node->node,
                  static_cast<CUkernelNodeAttrID>(id), &value);
  return info.Env().Undefined();
}

// (node, source): every launch attribute of source onto the kernel node.
Napi::Value GraphNodeCopyKernelAttributes(const Napi::CallbackInfo& info) {
  const SlotTable& table = slotTable(info.Env());
  const NodeRef& node = nodeArg(table, info[0], "node", nullptr);
  const NodeRef& source = nodeArg(table, info[1], "source", nullptr);
  CU_CHECK(info.Env(), cuGraphKernelNodeCopyAttributes, node->node, source->node);
  return info.Env().Undefined();
}

}  // namespace cudrv
