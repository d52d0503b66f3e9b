// The driver's JIT linker (cuLink*): relocatable device code, PTX, CUBINs,
// fatbins, objects and libraries (the device runtime, libcudadevrt.a, among
// them) linked into one CUBIN. The linker's state keeps pointers to its log
// buffers, so the box holds them for as long as the state lives.

#include <memory>
#include <string>
#include <vector>

#include "context.h"
#include "core/args.h"
#include "core/non_copyable.h"
#include "core/release.h"
#include "generated/entries.h"
#include "kernel/code_load.h"

namespace cudrv {

namespace {

struct LinkerBox : NonCopyable {
  CUlinkState state = nullptr;
  ContextRef context;  // current for every call: the state belongs to the context it was made in
  std::shared_ptr<JitOptions> jit;  // its log buffers, written by every call until cuLinkDestroy

  LinkerBox() = default;
  ~LinkerBox() {
    if (!state) return;
    CUlinkState s = state;
    std::shared_ptr<JitOptions> buffers = jit;  // the driver may write its logs until the state goes
    releaseWhenSafe([s, buffers] { CU_CALL(cuLinkDestroy, s); });
  }
};

class Linker : public Handle<Linker, LinkerBox> {
 public:
  static constexpr const char* kName = "Linker";
};

constexpr uint32_t kInputPtx = CU_JIT_INPUT_PTX;

void checkInputType(Napi::Env env, uint32_t type) {
  if (type > CU_JIT_INPUT_LIBRARY) rangeError(env, "type", "must be a CUjitInputType from 0 (CUBIN) to 4 (LIBRARY)");
}

}  // namespace

// (context, jit options) -> Linker
Napi::Value LinkCreate(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto jit = std::make_shared<JitOptions>(info[1]);
  const ContextRef& context = Context::fromSlot(info[0], "context");
  auto box = std::make_shared<LinkerBox>();
  box->context = context;
  box->jit = jit;
  makeCurrent(env, context);
  CUresult r = CU_CALL(cuLinkCreate, jit->count(), jit->keys(), jit->values(), &box->state);
  if (r != CUDA_SUCCESS) {
    box->state = nullptr;
    throwCudaError(env, r, Fn::cuLinkCreate, jit->errorDetail(""));
  }
  return Linker::newSlot(env, std::move(box));
}

// (linker, type, data, name): the bytes are copied; PTX gets its terminating NUL.
Napi::Value LinkAddData(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const uint32_t type = uintArg(info[1], "type");
  std::vector<char> data = codeImage(info[2], "data");
  std::string name = stringArg(info[3], "name");
  checkInputType(env, type);
  const std::shared_ptr<LinkerBox>& linker = Linker::fromSlot(info[0], "linker");
  makeCurrent(env, linker->context);
  // codeImage appended a NUL: PTX needs it counted, binary inputs are their bytes alone.
  const size_t size = type == kInputPtx ? data.size() : data.size() - 1;
  CUresult r = CU_CALL(cuLinkAddData, linker->state, static_cast<CUjitInputType>(type), data.data(), size, name.c_str(), 0,
                       nullptr, nullptr);
  if (r != CUDA_SUCCESS) throwCudaError(env, r, Fn::cuLinkAddData, linker->jit->errorDetail(name));
  return env.Undefined();
}

// (linker, type, path)
Napi::Value LinkAddFile(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const uint32_t type = uintArg(info[1], "type");
  std::string path = stringArg(info[2], "path");
  checkInputType(env, type);
  const std::shared_ptr<LinkerBox>& linker = Linker::fromSlot(info[0], "linker");
  makeCurrent(env, linker->context);
  CUresult r = CU_CALL(cuLinkAddFile, linker->state, static_cast<CUjitInputType>(type), path.c_str(), 0, nullptr, nullptr);
  if (r != CUDA_SUCCESS) throwCudaError(env, r, Fn::cuLinkAddFile, linker->jit->errorDetail(path));
  return env.Undefined();
}

// (linker) -> the linked CUBIN, copied: the driver's copy goes with the state.
Napi::Value LinkComplete(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const std::shared_ptr<LinkerBox>& linker = Linker::fromSlot(info[0], "linker");
  makeCurrent(env, linker->context);
  void* cubin = nullptr;
  size_t size = 0;
  CUresult r = CU_CALL(cuLinkComplete, linker->state, &cubin, &size);
  if (r != CUDA_SUCCESS) throwCudaError(env, r, Fn::cuLinkComplete, linker->jit->errorDetail(""));
  if (!cubin || size == 0) throwCudaError(env, CUDA_ERROR_INVALID_IMAGE, Fn::cuLinkComplete, "the linker produced no image");
  return Napi::Buffer<char>::Copy(env, static_cast<const char*>(cubin), size);
}

Napi::Value LinkInfoLog(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), Linker::fromSlot(info[0], "linker")->jit->infoLog());
}

Napi::Value LinkErrorLog(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), Linker::fromSlot(info[0], "linker")->jit->errorLog());
}

}  // namespace cudrv
