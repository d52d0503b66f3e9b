#include "slots.h"

#include "addon_data.h"
#include "errors.h"

namespace cudrv {

double SlotTable::add(const Entry& entry) {
  uint32_t index;
  if (!unused_.empty()) {
    index = unused_.back();
    unused_.pop_back();
  } else {
    if (entries_.size() >= kIndexSpan) return -1;  // 16M live handles: hot calls fall back to "not a handle"
    index = static_cast<uint32_t>(entries_.size());
    entries_.emplace_back();
  }
  Entry& slot = entries_[index];
  const uint32_t generation = slot.generation;
  slot = entry;
  slot.generation = generation;
  return static_cast<double>((static_cast<uint64_t>(generation) << kIndexBits) | index);
}

void SlotTable::remove(double id) {
  if (!find(id)) return;
  const uint64_t index = static_cast<uint64_t>(id) & (kIndexSpan - 1);
  Entry& slot = entries_[index];
  const uint32_t next = (slot.generation + 1) & ((1u << (53 - kIndexBits)) - 1);
  slot = Entry{};
  slot.generation = next;
  unused_.push_back(static_cast<uint32_t>(index));
}

const std::shared_ptr<SlotTable>& slotTable(Napi::Env env) {
  std::shared_ptr<SlotTable>& table = addonData(env).slots;
  if (!table) table = std::make_shared<SlotTable>();
  return table;
}

const SlotTable::Entry* entryOfObject(Napi::Value value) {
  void* wrapper = nullptr;
  if (!value.IsObject() || napi_unwrap(value.Env(), value, &wrapper) != napi_ok) return nullptr;
  return slotTable(value.Env())->entryOf(wrapper);
}

MemoryRef memoryOfEntry(Napi::Env env, const SlotTable::Entry* entry) {
  if (!entry || !entry->memory) return nullptr;
  MemoryRef memory = entry->memory(entry->object);
  if (!memory) throwDisposed(env, entry->name);
  return memory;
}

}  // namespace cudrv
