// What loading a module or library takes: the code image, and options for the
// driver's JIT compiler (they matter for PTX) with the two log buffers every
// load gets, so that a PTX the driver rejects comes back with the JIT's own
// explanation.
#pragma once

#include <napi.h>

#include <string>
#include <vector>

#include "driver/call.h"

namespace cudrv {

// A copy of code bytes (a Uint8Array) with a NUL after them, which PTX needs and
// CUBIN and fatbin images ignore.
std::vector<char> codeImage(Napi::Value value, const char* name);

// A variable of loaded code (__device__, __constant__, __managed__) as
// JavaScript sees it: { address: bigint, size: number }.
Napi::Object variableSpan(Napi::Env env, CUdeviceptr address, size_t bytes);

class JitOptions {
 public:
  // Reads { maxRegisters, optimizationLevel, generateDebugInfo, generateLineInfo,
  // logVerbose } (each optional) from a JavaScript object or undefined.
  explicit JitOptions(Napi::Value options);
  JitOptions(const JitOptions&) = delete;
  JitOptions& operator=(const JitOptions&) = delete;

  CUjit_option* keys() { return keys_.data(); }
  void** values() { return values_.data(); }
  unsigned int count() const { return static_cast<unsigned int>(keys_.size()); }

  // What the JIT wrote, after the load call.
  std::string infoLog() const { return std::string(info_.data()); }
  std::string errorLog() const { return std::string(error_.data()); }

  // "JIT log: ..." for an error's detail, or base alone when the JIT said nothing.
  std::string errorDetail(const std::string& base) const;

 private:
  void add(CUjit_option key, uintptr_t value);
  std::vector<CUjit_option> keys_;
  std::vector<void*> values_;
  std::vector<char> info_;
  std::vector<char> error_;
};

}  // namespace cudrv
