#include "core/driver_log.h"

#include <array>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstdint>
#include <mutex>
#include <vector>

#include "core/args.h"
#include "core/errors.h"
#include "driver/call.h"
#include "generated/entries.h"

namespace cudrv {

namespace {

using Clock = std::chrono::steady_clock;

// A line older than this is not blamed on a failure: it came from some earlier
// call whose failure nobody read (a release, a query), not from this one.
constexpr auto kMaxAge = std::chrono::seconds(5);
// The driver's lines are short; a runaway one is cut here.
constexpr size_t kMaxLineBytes = 2048;

struct Line {
  uint64_t thread = 0;  // 0: an empty slot
  Clock::time_point at;
  std::string text;
  bool taken = false;
};

uint64_t threadId() {
  static std::atomic<uint64_t> next{1};
  thread_local const uint64_t id = next.fetch_add(1, std::memory_order_relaxed);
  return id;
}

// Never destroyed: the driver may log from its own threads while the process exits.
struct Ring {
  std::mutex mutex;
  std::array<Line, 64> lines;
  size_t next = 0;  // the slot the next line goes to (the oldest line)
};
Ring& ring() {
  static Ring* instance = new Ring();
  return *instance;
}

// Runs on whichever thread the driver logs from, possibly one of its own: it
// only copies the line (invariant 13).
void CUDA_CB onDriverLog(void*, CUlogLevel, char* message, size_t length) {
  if (!message) return;
  while (length > 0 && (message[length - 1] == '\n' || message[length - 1] == '\0')) --length;
  std::string text(message, length < kMaxLineBytes ? length : kMaxLineBytes);
  uint64_t thread = threadId();
  Clock::time_point now = Clock::now();
  Ring& r = ring();
  std::lock_guard<std::mutex> lock(r.mutex);
  Line& slot = r.lines[r.next];
  r.next = (r.next + 1) % r.lines.size();
  slot.thread = thread;
  slot.at = now;
  slot.text = std::move(text);
  slot.taken = false;
}

std::atomic<bool> started{false};
CUlogsCallbackHandle registration = nullptr;

// The driver ends what it logs for a failed call with "Returning <code> (<name>)
// from <function>". Calls that failed without an error being made of them (a
// probe that stops at the first refusal, a release) leave lines too; only the
// last closed group belongs to the failure at hand.
bool closesCall(const std::string& line) { return line.rfind("Returning ", 0) == 0 && line.find(" from ") != std::string::npos; }

}  // namespace

void startDriverLog() {
  if (!driver.cuLogsRegisterCallback) return;
  // Kept until the process exits: the ring outlives every call. The exit
  // handler, registered after the driver loaded, runs before the driver's own.
  if (driver.cuLogsRegisterCallback(onDriverLog, nullptr, &registration) == CUDA_SUCCESS) {
    started.store(true, std::memory_order_release);
    std::atexit([] { stopDriverLog(); });
  }
}

void stopDriverLog() {
  if (!started.exchange(false, std::memory_order_acq_rel) || !registration) return;
  CU_CALL(cuLogsUnregisterCallback, registration);
  registration = nullptr;
}

DriverLogLines takeDriverLog() {
  DriverLogLines out;
  if (!started.load(std::memory_order_acquire)) return out;
  uint64_t thread = threadId();
  Clock::time_point oldest = Clock::now() - kMaxAge;
  Ring& r = ring();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (size_t k = 0; k < r.lines.size(); ++k) {
    Line& line = r.lines[(r.next + k) % r.lines.size()];
    if (line.thread != thread || line.taken) continue;
    line.taken = true;
    if (line.at < oldest) continue;
    // A closed group followed by more lines was an earlier call's.
    if (!out.empty() && closesCall(out.back())) out.clear();
    out.push_back(line.text);
  }
  return out;
}

// ---------------------------------------------------------------- the driver's own buffer

namespace {

// What the driver keeps: 25600 bytes at most, and a NUL.
constexpr size_t kDumpBytes = 25600 + 1;

// The optional starting position: undefined dumps all the driver keeps.
bool iteratorArg(Napi::Value value, CUlogIterator* out) {
  if (value.IsUndefined()) return false;
  *out = uintArg(value, "since");
  return true;
}

}  // namespace

// () -> the position the driver's next line will take (cuLogsCurrent).
Napi::Value DriverLogCurrent(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireDriver(env, Fn::cuLogsCurrent);
  CUlogIterator position = 0;
  CU_CHECK(env, cuLogsCurrent, &position, 0);
  return Napi::Number::New(env, position);
}

// (since | undefined) -> text: cuLogsDumpToMemory.
Napi::Value DriverLogDump(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  CUlogIterator position = 0;
  const bool from = iteratorArg(info[0], &position);
  requireDriver(env, Fn::cuLogsDumpToMemory);
  std::vector<char> buffer(kDumpBytes, '\0');
  size_t size = buffer.size();
  CU_CHECK(env, cuLogsDumpToMemory, from ? &position : nullptr, buffer.data(), &size, 0);
  if (size >= buffer.size()) size = buffer.size() - 1;
  return Napi::String::New(env, buffer.data(), size);
}

// (since | undefined, path): cuLogsDumpToFile.
Napi::Value DriverLogDumpToFile(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  CUlogIterator position = 0;
  const bool from = iteratorArg(info[0], &position);
  std::string path = stringArg(info[1], "path");
  if (path.find('\0') != std::string::npos) rangeError(env, "path", "must not contain NUL characters");
  requireDriver(env, Fn::cuLogsDumpToFile);
  CU_CHECK_DETAIL(env, path, cuLogsDumpToFile, from ? &position : nullptr, path.c_str(), 0);
  return env.Undefined();
}

}  // namespace cudrv
