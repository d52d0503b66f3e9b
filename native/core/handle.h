// The base of every handle class. A handle is a slot of the slot table
// (core/slots.h) holding a shared "box": the driver handle and whatever its release
// needs (its context, its pool, ...). dispose() drops the slot's reference; the
// box releases the driver handle when its last holder lets go, so no
// garbage-collection order can release a parent before a child, and dispose is
// idempotent by construction (docs/design.md, invariants 6 to 8). A class is
// only a name and its hooks: every entry takes its handles by slot.
#pragma once

#include <napi.h>

#include <memory>
#include <new>
#include <string_view>
#include <type_traits>

#include "core/errors.h"
#include "core/slots.h"

namespace cudrv {

template <typename Self, typename Box>
class Handle {
 public:
  static_assert(sizeof(std::shared_ptr<Box>) == sizeof(SlotTable::Entry::box) &&
                    alignof(std::shared_ptr<Box>) <= alignof(SlotTable::Entry),
                "a slot stores any std::shared_ptr in place");

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

  // What the table knows of Self.
  static const SlotClass& slotClass() {
    static const SlotClass kind{Self::kName, &disposingOf, &collectingOf, &takeOf, memoryFunction(), memoryBoxFunction(), &permanentOf};
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

  // The live box slot id names, or nullptr when it names no live Self.
  static const std::shared_ptr<Box>* boxAt(const SlotTable& table, double id) { return boxOf(table.find(id)); }
  // The same for an entry already found (or nullptr): a slot that may name one of several classes is found once.
  static const std::shared_ptr<Box>* boxOf(const SlotTable::Entry* entry) {
    return entry && entry->kind == &slotClass() && entry->hasBox ? &boxIn(entry->box) : nullptr;
  }

  // Called by dispose() while the box is still held; a class hides it to let
  // go of JavaScript-visible things first (a stream's pending work, ...).
  static void disposing(Box&) {}
  // Called when the slot is freed with the box still in it (its object was
  // collected undisposed, or never adopted), before the slot lets go of it; a
  // class hides it to end what only its handle would have ended.
  static void collecting(Box&) {}
  // True for a box no dispose() may end: a class hides it for what the driver owns.
  static bool permanent(const Box&) { return false; }

 private:
  static std::shared_ptr<Box>& boxIn(const unsigned char* storage) {
    return *std::launder(reinterpret_cast<std::shared_ptr<Box>*>(const_cast<unsigned char*>(storage)));
  }
  static void disposingOf(void* storage) { Self::disposing(*boxIn(static_cast<unsigned char*>(storage))); }
  static void collectingOf(void* storage) { Self::collecting(*boxIn(static_cast<unsigned char*>(storage))); }
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
};

}  // namespace cudrv
