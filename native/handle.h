// The base of every handle class: a JavaScript object that owns a shared "box"
// holding the driver handle and whatever its release needs (its context, its
// pool, ...). dispose() drops the object's reference; the box releases the
// driver handle when its last holder lets go, so no garbage-collection order can
// release a parent before a child, and dispose is idempotent by construction.
#pragma once

#include <napi.h>

#include <atomic>
#include <memory>
#include <string_view>
#include <type_traits>
#include <vector>

#include "addon_data.h"
#include "errors.h"
#include "slots.h"

namespace cudrv {

// Numbers classes for classNumber() below (classes are defined on the JavaScript threads; the
// first definition of each, at module init, is serialized by its function-local static).
inline std::atomic<size_t> nextClassNumber{0};

template <typename Self, typename Box>
class Handle : public Napi::ObjectWrap<Self> {
 public:
  using Base = Handle<Self, Box>;

  // Only wrap() constructs: it names the object it expects in `constructing`
  // (no JavaScript runs between its New() and this constructor), and takes
  // the new wrapper from there instead of unwrapping the object again.
  explicit Handle(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Self>(info) {
    if (constructing != &constructing) {
      throwTypeError(info.Env(), std::string(Self::kName) + " cannot be constructed directly");
    }
    constructing = this;
  }

  // Defines the JavaScript class with Self's members plus dispose() and `alive`.
  static Napi::Function define(Napi::Env env,
                               std::vector<typename Napi::ObjectWrap<Self>::PropertyDescriptor> members) {
    members.push_back(Napi::ObjectWrap<Self>::InstanceMethod("dispose", &Base::Dispose));
    members.push_back(Napi::ObjectWrap<Self>::InstanceAccessor("alive", &Base::Alive, nullptr));
    // A getter, not a property of each object: defining one per object cost
    // more than the whole of some calls; lib/ reads it once per handle.
    members.push_back(Napi::ObjectWrap<Self>::InstanceAccessor("slot", &Base::Slot, nullptr));
    Napi::Function ctor = Napi::ObjectWrap<Self>::DefineClass(env, Self::kName, members);
    AddonData& data = addonData(env);
    if (data.constructors.size() <= classNumber()) data.constructors.resize(classNumber() + 1);
    data.constructors[classNumber()] = Napi::Persistent(ctor);
    return ctor;
  }

  // A new JavaScript object owning (a reference to) box.
  static Napi::Object wrap(Napi::Env env, std::shared_ptr<Box> box) {
    AddonData& data = addonData(env);
    constructing = &constructing;
    napi_value value = nullptr;
    napi_status status = napi_new_instance(env, data.constructors.at(classNumber()).Value(), 0, nullptr, &value);
    void* made = constructing;
    constructing = nullptr;
    NAPI_THROW_IF_FAILED(env, status, Napi::Object());
    Napi::Object object(env, value);
    Self* self = static_cast<Self*>(static_cast<Base*>(made));
    self->box_ = std::move(box);
    self->slots_ = slotTable(env);
    SlotTable::Entry entry;
    entry.object = self;
    entry.classId = token();
    entry.name = Self::kName;
    if constexpr (std::is_base_of_v<MemoryBox, Box>) {
      entry.memory = [](void* object) -> MemoryRef { return static_cast<Self*>(object)->box_; };
    }
    self->slot_ = self->slots_->add(entry);
    if (self->slot_ < 0) {
      self->box_.reset();
      throwRangeError(env, std::string("too many live handles to make another ") + Self::kName);
    }
    self->slots_->addWrapper(wrapperOf(self), self->slot_);
    return object;
  }

  ~Handle() override {
    if (!slots_) return;
    slots_->remove(slot_);
    slots_->removeWrapper(wrapperOf(this));
  }

  // The live box a slot number names (see slots.h): TypeError when it names no
  // Self, the disposed error when it names a disposed one. Valid until JavaScript runs.
  static const std::shared_ptr<Box>& fromSlot(Napi::Value value, const char* param) {
    return fromSlot(*slotTable(value.Env()), value, param);
  }
  // The same with the table at hand: a call naming several handles looks it up once.
  static const std::shared_ptr<Box>& fromSlot(const SlotTable& table, Napi::Value value, const char* param) {
    const SlotTable::Entry* entry = table.find(slotArg(value));
    if (!entry || entry->classId != token()) throwTypeError(value.Env(), std::string(param) + " must be " + article() + Self::kName);
    Self* self = static_cast<Self*>(entry->object);
    if (!self->box_) throwDisposed(value.Env(), Self::kName);
    return self->box_;
  }

  // The live box behind an argument that must be a Self; TypeError if it is not
  // one, the disposed error if it was disposed.
  static const std::shared_ptr<Box>& from(Napi::Value value, const char* param) {
    const std::shared_ptr<Box>* box = tryFrom(value);
    if (!box) throwTypeError(value.Env(), std::string(param) + " must be " + article() + Self::kName);
    return *box;
  }

  // The same for an argument that may be one of several classes: nullptr when
  // it is not a Self; still the disposed error when it is a disposed one.
  // The object is proven to be a Self by its wrapper being listed in the slot
  // table with a Self's entry (cheaper than a type tag, which costs a BigInt and
  // a private property per object, and a private lookup per check).
  static const std::shared_ptr<Box>* tryFrom(Napi::Value value) {
    const SlotTable::Entry* entry = entryOfObject(value);
    if (!entry || entry->classId != token()) return nullptr;
    Self* self = static_cast<Self*>(entry->object);
    if (!self->box_) throwDisposed(value.Env(), Self::kName);
    return &self->box_;
  }

  // The box, or the disposed error. The class check guards methods called with
  // another handle class as `this` (Function.prototype.call tricks).
  Box& live() {
    checkClass();
    if (!box_) throwDisposed(this->Env(), Self::kName);
    return *box_;
  }
  const std::shared_ptr<Box>& shared() {
    live();
    return box_;
  }

 protected:
  // Called by dispose() while the box is still held; a class hides it to let go
  // of JavaScript-visible things first (views, ...).
  void disposing() {}

  const void* classId_ = token();
  std::shared_ptr<Box> box_;
  std::shared_ptr<SlotTable> slots_;
  double slot_ = -1;

 private:
  void checkClass() const {
    if (classId_ != token()) throwTypeError(this->Env(), std::string("this is not a ") + Self::kName);
  }
  static const char* article() {
    return std::string_view("AEIOU").find(Self::kName[0]) == std::string_view::npos ? "a " : "an ";
  }
  static void* token() {
    static char marker;
    return &marker;
  }
  // The pointer napi_wrap holds for self (ObjectWrap wraps itself).
  static const void* wrapperOf(Base* self) { return static_cast<Napi::ObjectWrap<Self>*>(self); }
  // This class's index in AddonData::constructors, numbered in order of first definition.
  static size_t classNumber() {
    static const size_t number = nextClassNumber++;
    return number;
  }
  // &constructing while wrap() constructs an object, then the wrapper made.
  static inline thread_local void* constructing = nullptr;
  Napi::Value Dispose(const Napi::CallbackInfo& info) {
    checkClass();
    if (box_) static_cast<Self*>(this)->disposing();
    box_.reset();
    return info.Env().Undefined();
  }
  Napi::Value Slot(const Napi::CallbackInfo& info) {
    live();  // a disposed handle's number names nothing a call could use
    return Napi::Number::New(info.Env(), slot_);
  }
  Napi::Value Alive(const Napi::CallbackInfo& info) {
    checkClass();
    return Napi::Boolean::New(info.Env(), box_ != nullptr);
  }
};

}  // namespace cudrv
