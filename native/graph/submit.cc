// Batched submission: one call queues a list of prepared launches and graph
// launches on a stream, in order, where a call per item would cross into the
// native layer once per item. Every item is resolved before the first is
// queued (invariant 3): a list naming anything else, or anything disposed,
// queues nothing.
#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "core/args.h"
#include "core/hot_call.h"
#include "core/item_detail.h"
#include "generated/entries.h"
#include "graph/exec.h"
#include "kernel/launch.h"
#include "stream.h"

namespace cudrv {

namespace {

// An item of a batch: a prepared launch's box or an executable's, by address
// in its slot (valid until JavaScript runs, which it does not in the call),
// and an executable's CUgraphExec, read before the first launch.
struct SubmitItem {
  const std::shared_ptr<PreparedLaunchBox>* launch = nullptr;
  const ExecRef* exec = nullptr;
  CUgraphExec graphExec = nullptr;
};

SubmitItem resolveItem(Napi::Env env, const SlotTable& table, double id, const StreamBox& stream, uint32_t index) {
  const SlotTable::Entry* entry = table.find(id);
  if (const auto* exec = GraphExec::boxOf(entry)) return {nullptr, exec, (*exec)->exec};
  if (const auto* launch = PreparedLaunchHandle::boxOf(entry)) {
    // Its stream was fixed when it was prepared: queued on another, it would be out of the batch's order.
    if ((*launch)->stream.get() != &stream) {
      throwTypeError(env, "items[" + std::to_string(index) + "] was prepared for another stream than the one it is submitted to");
    }
    return {launch, nullptr};
  }
  if (entry && (entry->kind == &PreparedLaunchHandle::slotClass() || entry->kind == &GraphExec::slotClass())) {
    throwDisposed(env, entry->kind->name);
  }
  throwTypeError(env, "items[" + std::to_string(index) + "] must be a PreparedLaunch or a GraphExec");
}

// The executables of the batch's first `launched` items, stamped on the
// stream (once for a run of launches of one executable).
void keepLaunchedGraphs(StreamBox& stream, const std::vector<SubmitItem>& items, uint32_t launched) {
  for (uint32_t i = 0; i < launched; ++i) {
    if (items[i].exec && (i == 0 || items[i].exec != items[i - 1].exec)) stream.keepUntilIdle(*items[i].exec);
  }
}

}  // namespace

// streamSubmit(stream, items, count): items holds count slot numbers (float64).
napi_value StreamSubmit(Napi::Env env, SlotTable& table, const HotArgs<3>& args) {
  void* data = nullptr;
  size_t length = 0;
  if (napi_get_arraybuffer_info(env, args[1], &data, &length) != napi_ok) typeError(env, "items", "an ArrayBuffer");
  const uint32_t count = uintArg(Napi::Value(env, args[2]), "count");
  if (count > length / sizeof(double)) rangeError(env, "count", "exceeds the items");
  StreamBox& stream = *Stream::fromSlot(table, Napi::Value(env, args[0]), "stream");
  std::vector<SubmitItem> items(count);
  const auto* slots = static_cast<const unsigned char*>(data);
  uint32_t graphsEnd = 0;  // one past the last executable: stamps stop there
  for (uint32_t i = 0; i < count; ++i) {
    double id;
    std::memcpy(&id, slots + sizeof(double) * i, sizeof(id));  // the buffer may be shared with any view
    items[i] = resolveItem(env, table, id, stream, i);
    if (items[i].exec) graphsEnd = i + 1;
  }
  // A prepared launch makes current only a context the stream's work runs in.
  stream.makeContextCurrent(env);
  // Graph launches go back to back, as C's loop makes them: their executables
  // are stamped on the stream after the last launch (or after the one the
  // driver refused), so that nothing but the driver call runs between two.
  uint32_t launched = 0;
  try {
    for (; launched < count; ++launched) {
      const SubmitItem& item = items[launched];
      if (item.launch) {
        launchPrepared(env, *item.launch, launched);
        continue;
      }
      CU_CHECK_DETAIL(env, itemDetail(launched, ""), cuGraphLaunch, item.graphExec, stream.stream);
    }
  } catch (...) {
    keepLaunchedGraphs(stream, items, std::min(launched, graphsEnd));
    throw;
  }
  keepLaunchedGraphs(stream, items, graphsEnd);
  return nullptr;
}

}  // namespace cudrv
