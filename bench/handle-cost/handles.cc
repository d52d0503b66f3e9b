// Three ways a binding can give JavaScript a handle, with nothing behind it
// (no driver call), to measure what the handle itself costs to make and release
// (bench/handle-cost.js):
//  - Wrapped: a native object per handle (Napi::ObjectWrap, as native/core/handle.h
//    does today): a construction through a function template, a wrap (a
//    private property and a reference with a finalizer), an unwrap per method;
//  - makeSlot/releaseSlot: the handle is a number naming a table entry; no
//    finalizer (the lower bound: only the two calls);
//  - makeSlotFor(object): the same, with a finalizer on the caller's own
//    JavaScript object that releases the entry if its generation still matches.
#include <napi.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace {

struct Box {
  int value = 0;
};

// Entries by index; a number is generation << 20 | index, so that a late
// finalizer of a released handle cannot release the entry's next owner.
struct Table {
  std::vector<std::shared_ptr<Box>> boxes;
  std::vector<uint32_t> generations;
  std::vector<uint32_t> unused;

  double add() {
    uint32_t index;
    if (!unused.empty()) {
      index = unused.back();
      unused.pop_back();
    } else {
      index = static_cast<uint32_t>(boxes.size());
      boxes.emplace_back();
      generations.push_back(0);
    }
    boxes[index] = std::make_shared<Box>();
    return static_cast<double>((static_cast<uint64_t>(generations[index]) << 20) | index);
  }
  void release(double id) {
    const uint64_t n = static_cast<uint64_t>(id);
    const uint32_t index = static_cast<uint32_t>(n & 0xFFFFF);
    if (index >= boxes.size() || !boxes[index] || generations[index] != (n >> 20)) return;
    boxes[index].reset();
    ++generations[index];
    unused.push_back(index);
  }
};
Table table;

class Wrapped : public Napi::ObjectWrap<Wrapped> {
 public:
  static Napi::FunctionReference constructor;
  explicit Wrapped(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Wrapped>(info), box_(std::make_shared<Box>()) {}
  Napi::Value Dispose(const Napi::CallbackInfo& info) {
    box_.reset();
    return info.Env().Undefined();
  }

 private:
  std::shared_ptr<Box> box_;
};
Napi::FunctionReference Wrapped::constructor;

Napi::Value MakeWrapped(const Napi::CallbackInfo&) { return Wrapped::constructor.New({}); }

Napi::Value MakeSlot(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), table.add()); }

Napi::Value MakeSlotFor(const Napi::CallbackInfo& info) {
  const double id = table.add();
  auto* held = new double(id);
  napi_status status = napi_add_finalizer(
      info.Env(), info[0], held,
      [](napi_env, void* data, void*) {
        table.release(*static_cast<double*>(data));
        delete static_cast<double*>(data);
      },
      nullptr, nullptr);
  if (status != napi_ok) {
    delete held;
    table.release(id);
    Napi::TypeError::New(info.Env(), "makeSlotFor takes an object").ThrowAsJavaScriptException();
    return info.Env().Undefined();
  }
  return Napi::Number::New(info.Env(), id);
}

Napi::Value ReleaseSlot(const Napi::CallbackInfo& info) {
  table.release(info[0].As<Napi::Number>().DoubleValue());
  return info.Env().Undefined();
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  Wrapped::constructor = Napi::Persistent(Wrapped::DefineClass(env, "Wrapped", {Wrapped::InstanceMethod("dispose", &Wrapped::Dispose)}));
  exports.Set("makeWrapped", Napi::Function::New(env, MakeWrapped));
  exports.Set("makeSlot", Napi::Function::New(env, MakeSlot));
  exports.Set("makeSlotFor", Napi::Function::New(env, MakeSlotFor));
  exports.Set("releaseSlot", Napi::Function::New(env, ReleaseSlot));
  return exports;
}

}  // namespace

NODE_API_MODULE(handles, Init)
