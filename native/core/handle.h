// The base of every handle class. A handle is a slot of the slot table
// (core/slots.h) holding a shared "box": the driver handle and whatever its release
// needs (its context, its pool, ...). dispose() drops the slot's reference; the
// box releases the driver handle when its last holder lets go, so no
// garbage-collection order can release a parent before a child, and dispose is
// idempotent by construction. The class's native objects ("views", made on
// demand) carry its methods and reach the box through the slot.
#pragma once

#include <napi.h>

#include <atomic>
#include <memory>
#include <new>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/addon_data.h"
#include "core/errors.h"
#include "core/slots.h"

namespace cudrv {

// Numbers classes for classNumber() below (classes are defined on the JavaScript threads; the
// first definition of each, at module init, is serialized by its function-local static).
inline std::atomic<size_t> nextClassNumber{0};

template <typename Self, typename Box>
class Handle : public Napi::ObjectWrap<Self> {
 public:
  using Base = Handle<Self, Box>;
  static_assert(sizeof(std::shared_ptr<Box>) == sizeof(SlotTable::Entry::box) &&
                    alignof(std::shared_ptr<Box>) <= alignof(SlotTable::Entry),
                "a slot stores any std::shared_ptr in place");

  // Only view() constructs: it names the object it expects in `constructing`
  // (no JavaScript runs between its New() and this constructor), and takes
  // the new wrapper from there instead of unwrapping the object again.
  explicit Handle(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Self>(info) {
    if (constructing != &constructing) {
      throwTypeError(info.Env(), std::string(Self::kName) + " cannot be constructed directly");
    }
    constructing = this;
  }

  // Defines the JavaScript class of Self's views: Self's members plus
  // dispose(), `alive` and `slot`.
  static Napi::Function define(Napi::Env env,
                               std::vector<typename Napi::ObjectWrap<Self>::PropertyDescriptor> members) {
    members.push_back(Napi::ObjectWrap<Self>::InstanceMethod("dispose", &Base::Dispose));
    members.push_back(Napi::ObjectWrap<Self>::InstanceAccessor("alive", &Base::Alive, nullptr));
    members.push_back(Napi::ObjectWrap<Self>::InstanceAccessor("slot", &Base::Slot, nullptr));
    Napi::Function ctor = Napi::ObjectWrap<Self>::DefineClass(env, Self::kName, members);
    AddonData& data = addonData(env);
    if (data.constructors.size() <= classNumber()) data.constructors.resize(classNumber() + 1);
    data.constructors[classNumber()] = Napi::Persistent(ctor);
    return ctor;
  }

  // A new handle holding box: its slot number, which the library's object
  // adopts (lib/disposable.ts). RangeError when the table is full.
  static Napi::Value newSlot(Napi::Env env, std::shared_ptr<Box> box) {
    return Napi::Number::New(env, newSlotNumber(env, std::move(box)));
  }
  static double newSlotNumber(Napi::Env env, std::shared_ptr<Box> box) {
    SlotTable& table = slotTable(env);
    const double id = table.add(slotClass(), std::move(box));
    if (id < 0) throwRangeError(env, std::string("too many live handles to make another ") + Self::kName);
    table.expectOwner(env, id);
    return id;
  }

  // A native object for slot id, whose methods reach the box through the slot.
  static Napi::Object view(Napi::Env env, double id) {
    AddonData& data = addonData(env);
    constructing = &constructing;
    napi_value value = nullptr;
    napi_status status = napi_new_instance(env, data.constructors.at(classNumber()).Value(), 0, nullptr, &value);
    void* made = constructing;
    constructing = nullptr;
    NAPI_THROW_IF_FAILED(env, status, Napi::Object());
    Self* self = static_cast<Self*>(static_cast<Base*>(made));
    SlotTable& table = slotTable(env);
    table.retain();
    self->table_ = &table;
    self->slot_ = id;
    table.addWrapper(wrapperOf(self), id);
    return Napi::Object(env, value);
  }

  ~Handle() override {
    if (!table_) return;
    table_->removeWrapper(wrapperOf(this));
    table_->release();
  }

  // What the table knows of Self.
  static const SlotClass& slotClass() {
    static const SlotClass kind{Self::kName,        &viewOf,     &disposingOf, &takeOf,
                                memoryFunction(),   memoryBoxFunction(), &permanentOf};
    return kind;
  }

  // The live box a slot number names: TypeError when it names no Self, the
  // disposed error when it names a disposed one. Valid until JavaScript runs.
  static const std::shared_ptr<Box>& fromSlot(Napi::Value value, const char* param) {
    return fromSlot(slotTable(value.Env()), value, param);
  }
  // The same with the table at hand: a call naming several handles looks it up once.
  static const std::shared_ptr<Box>& fromSlot(const SlotTable& table, Napi::Value value, const char* param) {
    return fromSlot(value.Env(), table, slotArg(value), param);
  }
  // The same for a slot number read from a record.
  static const std::shared_ptr<Box>& fromSlot(Napi::Env env, const SlotTable& table, double id, const char* param) {
    const SlotTable::Entry* entry = table.find(id);
    if (!entry || entry->kind != &slotClass()) throwTypeError(env, std::string(param) + " must be " + article() + Self::kName);
    if (!entry->hasBox) throwDisposed(env, Self::kName);
    return boxIn(entry->box);
  }

  // The live box an argument names by slot number or as a view: a number is
  // read in one call (a type check first cost as much again).
  static const std::shared_ptr<Box>& fromSlotOrView(const SlotTable& table, Napi::Value value, const char* param) {
    double id = -1;
    if (napi_get_value_double(value.Env(), value, &id) == napi_ok) return fromSlot(value.Env(), table, id, param);
    return from(value, param);
  }

  // The live box slot id names, or nullptr when it names no live Self.
  static const std::shared_ptr<Box>* boxAt(const SlotTable& table, double id) {
    const SlotTable::Entry* entry = table.find(id);
    return entry && entry->kind == &slotClass() && entry->hasBox ? &boxIn(entry->box) : nullptr;
  }

  // The live box behind an argument that must be a Self's view; TypeError if it
  // is not one, the disposed error if it was disposed.
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
    if (!entry || entry->kind != &slotClass()) return nullptr;
    if (!entry->hasBox) throwDisposed(value.Env(), Self::kName);
    return &boxIn(entry->box);
  }

  // The box, or the disposed error (also once the handle's owner is gone). The
  // class check guards methods called with another class's view as `this`
  // (Function.prototype.call tricks).
  Box& live() { return *shared(); }
  const std::shared_ptr<Box>& shared() {
    checkClass();
    const SlotTable::Entry* entry = table_->find(slot_);
    if (!entry || !entry->hasBox) throwDisposed(this->Env(), Self::kName);
    return boxIn(entry->box);
  }

  // Called by dispose() while the box is still held; a class hides it to let
  // go of JavaScript-visible things first (a stream's pending work, ...).
  static void disposing(Box&) {}
  // True for a box no dispose() may end, whichever way it is asked (a view's
  // method, disposeHandle): a class hides it for what the driver owns.
  static bool permanent(const Box&) { return false; }

 protected:
  // dispose(), from a method that ends the handle (a descriptor taken, ...).
  void disposeNow() { table_->dispose(slot_); }

 private:
  const SlotClass* class_ = &slotClass();
  SlotTable* table_ = nullptr;
  double slot_ = -1;

  void checkClass() const {
    if (class_ != &slotClass()) throwTypeError(this->Env(), std::string("this is not a ") + Self::kName);
  }
  static std::shared_ptr<Box>& boxIn(const unsigned char* storage) {
    return *std::launder(reinterpret_cast<std::shared_ptr<Box>*>(const_cast<unsigned char*>(storage)));
  }
  // undefined for a class whose calls are all entries (no view class defined).
  static napi_value viewOf(napi_env env, double id) {
    AddonData& data = addonData(Napi::Env(env));
    if (data.constructors.size() <= classNumber() || data.constructors[classNumber()].IsEmpty()) {
      return Napi::Env(env).Undefined();
    }
    return view(Napi::Env(env), id);
  }
  static void disposingOf(void* storage) { Self::disposing(*boxIn(static_cast<unsigned char*>(storage))); }
  static bool permanentOf(const void* storage) { return Self::permanent(*boxIn(static_cast<const unsigned char*>(storage))); }
  static std::shared_ptr<void> takeOf(void* storage) {
    std::shared_ptr<Box>& box = boxIn(static_cast<unsigned char*>(storage));
    std::shared_ptr<void> out = std::move(box);
    box.~shared_ptr<Box>();
    return out;
  }
  static constexpr MemoryRef (*memoryFunction())(const void*) {
    if constexpr (std::is_base_of_v<MemoryBox, Box>) {
      return [](const void* storage) -> MemoryRef { return boxIn(static_cast<const unsigned char*>(storage)); };
    } else {
      return nullptr;
    }
  }
  static constexpr const MemoryBox* (*memoryBoxFunction())(const void*) {
    if constexpr (std::is_base_of_v<MemoryBox, Box>) {
      return [](const void* storage) -> const MemoryBox* { return boxIn(static_cast<const unsigned char*>(storage)).get(); };
    } else {
      return nullptr;
    }
  }
  static const char* article() {
    return std::string_view("AEIOU").find(Self::kName[0]) == std::string_view::npos ? "a " : "an ";
  }
  // The pointer napi_wrap holds for self (ObjectWrap wraps itself).
  static const void* wrapperOf(Base* self) { return static_cast<Napi::ObjectWrap<Self>*>(self); }
  // This class's index in AddonData::constructors, numbered in order of first definition.
  static size_t classNumber() {
    static const size_t number = nextClassNumber++;
    return number;
  }
  // &constructing while view() constructs an object, then the wrapper made.
  static inline thread_local void* constructing = nullptr;
  Napi::Value Dispose(const Napi::CallbackInfo& info) {
    checkClass();
    disposeNow();
    return info.Env().Undefined();
  }
  Napi::Value Slot(const Napi::CallbackInfo& info) {
    live();  // a disposed handle's number names nothing a call could use
    return Napi::Number::New(info.Env(), slot_);
  }
  Napi::Value Alive(const Napi::CallbackInfo& info) {
    checkClass();
    const SlotTable::Entry* entry = table_->find(slot_);
    return Napi::Boolean::New(info.Env(), entry && entry->hasBox);
  }
};

}  // namespace cudrv
