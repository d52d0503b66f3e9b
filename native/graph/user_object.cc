// CUDA user objects, usable directly: an object with a JavaScript destructor
// that runs once the last reference (held here, by graphs, by executables or by
// launches in flight) is gone. References are counted here so that JavaScript
// can never release one it does not hold.
#include <cstdint>
#include <unordered_map>

#include "core/non_copyable.h"
#include "core/args.h"
#include "generated/entries.h"
#include "graph/graph.h"
#include "core/js_thread.h"
#include "core/release.h"

namespace cudrv {

namespace {

struct Destructor {
  Napi::FunctionReference callback;
  std::shared_ptr<JsThreadPort> port;
};

void CUDA_CB runDestructor(void* data) {
  auto* destructor = static_cast<Destructor*>(data);
  std::shared_ptr<JsThreadPort> port = destructor->port;
  port->post([destructor](Napi::Env) {
    std::unique_ptr<Destructor> owned(destructor);
    owned->callback.Call({});
  });
}

struct UserObjectBox : NonCopyable {
  CUuserObject object = nullptr;
  unsigned int references = 0;  // held by this box
  std::unordered_map<CUgraph, unsigned int> graphReferences;  // held by graphs through this box

  ~UserObjectBox() {
    if (!object || references == 0) return;
    CUuserObject o = object;
    unsigned int n = references;
    releaseWhenSafe([o, n] { CU_CALL(cuUserObjectRelease, o, n); });
  }
};

class UserObject : public Handle<UserObject, UserObjectBox> {
 public:
  static constexpr const char* kName = "UserObject";
};

}  // namespace

Napi::Value UserObjectReferences(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), UserObject::fromSlot(info[0], "object")->references);
}

Napi::Value UserObjectRetain(const Napi::CallbackInfo& info) {
  unsigned int count = uintArg(info[1], "count");
  UserObjectBox& box = *UserObject::fromSlot(info[0], "object");
  if (count == 0 || count > 1u << 20) throwRangeError(info.Env(), "count must be between 1 and 2^20");
  // With none held here, the object may already be gone (its destructor run): retaining it would touch freed memory.
  if (box.references == 0) throwRangeError(info.Env(), "count cannot be retained: this object holds no references to the user object any more");
  // The driver counts in an int.
  if (count > static_cast<unsigned int>(INT32_MAX) - box.references) throwRangeError(info.Env(), "count would take the references past 2^31 - 1");
  CU_CHECK(info.Env(), cuUserObjectRetain, box.object, count);
  box.references += count;
  return info.Env().Undefined();
}

Napi::Value UserObjectRelease(const Napi::CallbackInfo& info) {
  unsigned int count = uintArg(info[1], "count");
  UserObjectBox& box = *UserObject::fromSlot(info[0], "object");
  if (count == 0 || count > box.references) {
    throwRangeError(info.Env(), "count must be between 1 and the " + std::to_string(box.references) + " references held");
  }
  CU_CHECK(info.Env(), cuUserObjectRelease, box.object, count);
  box.references -= count;
  return info.Env().Undefined();
}

// createUserObject(destructor): one reference, held by the new object.
Napi::Value CreateUserObject(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireDriver(env, Fn::cuUserObjectCreate);
  if (!info[0].IsFunction()) throwTypeError(env, "destructor must be a function");
  auto* destructor = new Destructor{Napi::Persistent(info[0].As<Napi::Function>()), JsThreadPort::open(env)};
  auto box = std::make_shared<UserObjectBox>();
  CUresult r = CU_CALL(cuUserObjectCreate, &box->object, destructor, runDestructor, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC);
  if (r != CUDA_SUCCESS) {
    delete destructor;
    throwCudaError(env, r, Fn::cuUserObjectCreate);
  }
  box->references = 1;
  return UserObject::newSlot(env, std::move(box));
}

// graphRetainUserObject(graph, object, count, move): the graph takes count new
// references, or (move) count of the object's own.
Napi::Value GraphRetainUserObject(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  unsigned int count = uintArg(info[2], "count");
  bool move = boolArg(info[3], "move");
  const SlotTable& table = slotTable(env);
  const GraphRef& graph = graphArg(table, info[0], "graph");
  UserObjectBox& object = *UserObject::fromSlot(table, info[1], "object");
  if (count == 0 || (move && count > object.references)) throwRangeError(env, "count exceeds the references the object holds");
  // Holding none, the object may be gone (the graphs that held it destroyed): a new reference would be to freed memory.
  if (object.references == 0) throwRangeError(env, "the object holds no references to the user object any more");
  CU_CHECK(env, cuGraphRetainUserObject, graph->graph, object.object, count, move ? CU_GRAPH_USER_OBJECT_MOVE : 0);
  if (move) object.references -= count;
  // The driver's references keep the object alive; the graph keeps no handle of
  // it (a long-lived graph would keep every user object it ever retained, released or not).
  object.graphReferences[graph->graph] += count;
  return env.Undefined();
}

// graphReleaseUserObject(graph, object, count): only references the graph took here.
Napi::Value GraphReleaseUserObject(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  unsigned int count = uintArg(info[2], "count");
  const SlotTable& table = slotTable(env);
  const GraphRef& graph = graphArg(table, info[0], "graph");
  UserObjectBox& object = *UserObject::fromSlot(table, info[1], "object");
  unsigned int& held = object.graphReferences[graph->graph];
  if (count == 0 || count > held) throwRangeError(env, "the graph holds " + std::to_string(held) + " references to the object");
  CU_CHECK(env, cuGraphReleaseUserObject, graph->graph, object.object, count);
  held -= count;
  if (held == 0) object.graphReferences.erase(graph->graph);
  return env.Undefined();
}

}  // namespace cudrv
