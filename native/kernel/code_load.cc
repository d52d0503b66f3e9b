#include "kernel/code_load.h"

#include "core/args.h"

namespace cudrv {

namespace {
constexpr size_t kLogBytes = 64 * 1024;
}

std::vector<char> codeImage(Napi::Value value, const char* name) {
  if (!value.IsTypedArray() || value.As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array) {
    typeError(value.Env(), name, "a Uint8Array");
  }
  Napi::Uint8Array bytes = value.As<Napi::Uint8Array>();
  if (bytes.ByteLength() == 0) rangeError(value.Env(), name, "must not be empty");
  std::vector<char> code(bytes.Data(), bytes.Data() + bytes.ByteLength());
  code.push_back('\0');
  return code;
}

Napi::Object variableSpan(Napi::Env env, CUdeviceptr address, size_t bytes) {
  Napi::Object out = Napi::Object::New(env);
  out.Set("address", bigint(env, address));
  out.Set("size", static_cast<double>(bytes));
  return out;
}

JitOptions::JitOptions(Napi::Value options) : info_(kLogBytes, '\0'), error_(kLogBytes, '\0') {
  add(CU_JIT_INFO_LOG_BUFFER, reinterpret_cast<uintptr_t>(info_.data()));
  add(CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, kLogBytes - 1);
  add(CU_JIT_ERROR_LOG_BUFFER, reinterpret_cast<uintptr_t>(error_.data()));
  add(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, kLogBytes - 1);
  if (options.IsUndefined() || options.IsNull()) return;
  if (!options.IsObject()) typeError(options.Env(), "jit", "an object");
  Napi::Object o = options.As<Napi::Object>();
  if (o.Has("maxRegisters") && !o.Get("maxRegisters").IsUndefined()) {
    add(CU_JIT_MAX_REGISTERS, uintArg(o.Get("maxRegisters"), "jit.maxRegisters"));
  }
  if (o.Has("optimizationLevel") && !o.Get("optimizationLevel").IsUndefined()) {
    add(CU_JIT_OPTIMIZATION_LEVEL, static_cast<uint32_t>(integerArg(o.Get("optimizationLevel"), "jit.optimizationLevel", 0, 4)));
  }
  if (o.Has("generateDebugInfo") && !o.Get("generateDebugInfo").IsUndefined()) {
    add(CU_JIT_GENERATE_DEBUG_INFO, boolArg(o.Get("generateDebugInfo"), "jit.generateDebugInfo"));
  }
  if (o.Has("generateLineInfo") && !o.Get("generateLineInfo").IsUndefined()) {
    add(CU_JIT_GENERATE_LINE_INFO, boolArg(o.Get("generateLineInfo"), "jit.generateLineInfo"));
  }
  if (o.Has("logVerbose") && !o.Get("logVerbose").IsUndefined()) {
    add(CU_JIT_LOG_VERBOSE, boolArg(o.Get("logVerbose"), "jit.logVerbose"));
  }
}

void JitOptions::add(CUjit_option key, uintptr_t value) {
  keys_.push_back(key);
  values_.push_back(reinterpret_cast<void*>(value));
}

std::string JitOptions::errorDetail(const std::string& base) const {
  std::string log = errorLog();
  while (!log.empty() && (log.back() == '\n' || log.back() == ' ')) log.pop_back();
  if (log.empty()) return base;
  return base + (base.empty() ? "" : "; ") + "JIT log: " + log;
}

}  // namespace cudrv
