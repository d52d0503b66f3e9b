// Compiling CUDA C++ with NVRTC, on the JavaScript thread or off it. A compile
// never throws for NVRTC's own failures: it returns what happened (the stage
// that failed, NVRTC's result and the full log), and the TypeScript layer
// turns a failure into a CompileError or NvrtcUnavailableError.

#include <string>
#include <utility>
#include <vector>

#include "core/args.h"
#include "generated/entries.h"
#include "nvrtc/loader.h"

namespace cudrv {

namespace {

using nvrtc::api;

struct CompileRequest {
  std::string source;
  std::string name;
  std::vector<std::string> headerNames;
  std::vector<std::string> headerSources;
  std::vector<std::string> options;
  std::vector<std::string> nameExpressions;
  bool cubin = false;  // else PTX
};

struct CompileOutcome {
  // "unavailable" | "create" | "name-expression" | "compile" | "lowered-name" | "output" | "done"
  std::string stage;
  nvrtc::Result result = nvrtc::kSuccess;
  std::string log;
  std::vector<char> code;
  std::vector<std::pair<std::string, std::string>> loweredNames;
  std::string libraryPath;
  std::string detail;
};

std::vector<const char*> pointers(const std::vector<std::string>& strings) {
  std::vector<const char*> out;
  out.reserve(strings.size());
  for (const std::string& s : strings) out.push_back(s.c_str());
  return out;
}

std::string programLog(nvrtc::Program program) {
  size_t size = 0;
  if (api.nvrtcGetProgramLogSize(program, &size) != nvrtc::kSuccess || size <= 1) return {};
  std::string log(size, '\0');
  if (api.nvrtcGetProgramLog(program, log.data()) != nvrtc::kSuccess) return {};
  log.resize(size - 1);  // the size counts the terminating NUL
  return log;
}

// The compiled PTX (without its terminating NUL) or CUBIN.
nvrtc::Result programCode(nvrtc::Program program, bool cubin, std::vector<char>& code) {
  size_t size = 0;
  nvrtc::Result r = cubin ? api.nvrtcGetCUBINSize(program, &size) : api.nvrtcGetPTXSize(program, &size);
  if (r != nvrtc::kSuccess) return r;
  // An empty output means NVRTC produced no code of this kind (CUBIN asked of a virtual architecture).
  if (size == 0) return nvrtc::kErrorInvalidInput;
  code.resize(size);
  r = cubin ? api.nvrtcGetCUBIN(program, code.data()) : api.nvrtcGetPTX(program, code.data());
  if (!cubin && r == nvrtc::kSuccess && !code.empty() && code.back() == '\0') code.pop_back();
  return r;
}

// Runs on any thread; touches no JavaScript.
CompileOutcome compile(const CompileRequest& request) {
  CompileOutcome out;
  const nvrtc::State& state = nvrtc::load();
  if (!state.loaded) {
    out.stage = "unavailable";
    out.libraryPath = state.libraryPath;
    out.detail = state.detail;
    return out;
  }
  out.libraryPath = state.libraryPath;
  std::vector<const char*> headerSources = pointers(request.headerSources);
  std::vector<const char*> headerNames = pointers(request.headerNames);
  nvrtc::Program program = nullptr;
  out.result = api.nvrtcCreateProgram(&program, request.source.c_str(), request.name.c_str(),
                                      static_cast<int>(headerSources.size()), headerSources.data(),
                                      headerNames.data());
  if (out.result != nvrtc::kSuccess) {
    out.stage = "create";
    return out;
  }
  struct Destroy {
    nvrtc::Program& program;
    ~Destroy() { api.nvrtcDestroyProgram(&program); }
  } destroy{program};

  for (const std::string& expression : request.nameExpressions) {
    out.result = api.nvrtcAddNameExpression(program, expression.c_str());
    if (out.result != nvrtc::kSuccess) {
      out.stage = "name-expression";
      out.detail = expression;
      return out;
    }
  }
  std::vector<const char*> options = pointers(request.options);
  out.result = api.nvrtcCompileProgram(program, static_cast<int>(options.size()), options.data());
  out.log = programLog(program);
  if (out.result != nvrtc::kSuccess) {
    out.stage = "compile";
    return out;
  }
  for (const std::string& expression : request.nameExpressions) {
    const char* lowered = nullptr;
    out.result = api.nvrtcGetLoweredName(program, expression.c_str(), &lowered);
    if (out.result != nvrtc::kSuccess || !lowered) {
      out.stage = "lowered-name";
      out.detail = expression;
      return out;
    }
    out.loweredNames.emplace_back(expression, lowered);
  }
  out.result = programCode(program, request.cubin, out.code);
  out.stage = out.result == nvrtc::kSuccess ? "done" : "output";
  return out;
}

std::vector<std::string> stringList(Napi::Value value, const char* name) {
  if (!value.IsArray()) typeError(value.Env(), name, "an array of strings");
  Napi::Array array = value.As<Napi::Array>();
  std::vector<std::string> out;
  out.reserve(array.Length());
  for (uint32_t i = 0; i < array.Length(); ++i) out.push_back(stringArg(array.Get(i), name));
  return out;
}

// Reads the request on the JavaScript thread; a worker gets its own copy.
CompileRequest readRequest(Napi::Value value) {
  Napi::Env env = value.Env();
  if (!value.IsObject()) typeError(env, "request", "an object");
  Napi::Object object = value.As<Napi::Object>();
  CompileRequest request;
  request.source = stringArg(object.Get("source"), "source");
  request.name = stringArg(object.Get("name"), "name");
  request.headerNames = stringList(object.Get("headerNames"), "headerNames");
  request.headerSources = stringList(object.Get("headerSources"), "headerSources");
  if (request.headerNames.size() != request.headerSources.size()) {
    rangeError(env, "headerSources", "must have one entry per header name");
  }
  request.options = stringList(object.Get("options"), "options");
  request.nameExpressions = stringList(object.Get("nameExpressions"), "nameExpressions");
  std::string output = stringArg(object.Get("output"), "output");
  if (output != "ptx" && output != "cubin") rangeError(env, "output", "must be 'ptx' or 'cubin'");
  request.cubin = output == "cubin";
  // NVRTC reads these as C strings: an embedded NUL would silently cut them short.
  auto checkNul = [&](const std::string& s, const char* name) {
    if (s.find('\0') != std::string::npos) rangeError(env, name, "must not contain NUL characters");
  };
  checkNul(request.source, "source");
  checkNul(request.name, "name");
  for (const auto& s : request.headerNames) checkNul(s, "headerNames");
  for (const auto& s : request.headerSources) checkNul(s, "headerSources");
  for (const auto& s : request.options) checkNul(s, "options");
  for (const auto& s : request.nameExpressions) checkNul(s, "nameExpressions");
  return request;
}

Napi::Object toJs(Napi::Env env, const CompileOutcome& outcome) {
  Napi::Object out = Napi::Object::New(env);
  out.Set("stage", outcome.stage);
  out.Set("result", outcome.result);
  out.Set("resultName", outcome.stage == "unavailable" ? std::string() : nvrtc::resultName(outcome.result));
  out.Set("log", outcome.log);
  if (outcome.stage == "done") out.Set("code", Napi::Buffer<char>::Copy(env, outcome.code.data(), outcome.code.size()));
  Napi::Array lowered = Napi::Array::New(env, outcome.loweredNames.size());
  for (size_t i = 0; i < outcome.loweredNames.size(); ++i) {
    Napi::Array pair = Napi::Array::New(env, 2);
    pair.Set(0u, outcome.loweredNames[i].first);
    pair.Set(1u, outcome.loweredNames[i].second);
    lowered.Set(static_cast<uint32_t>(i), pair);
  }
  out.Set("loweredNames", lowered);
  out.Set("libraryPath", outcome.libraryPath);
  out.Set("detail", outcome.detail);
  return out;
}

class CompileWorker : public Napi::AsyncWorker {
 public:
  CompileWorker(Napi::Env env, CompileRequest request)
      : Napi::AsyncWorker(env, "cuda-driver:nvrtc"), deferred_(Napi::Promise::Deferred::New(env)),
        request_(std::move(request)) {}

  Napi::Promise promise() { return deferred_.Promise(); }

 protected:
  void Execute() override { outcome_ = compile(request_); }
  void OnOK() override { deferred_.Resolve(toJs(Env(), outcome_)); }
  void OnError(const Napi::Error& error) override { deferred_.Reject(error.Value()); }

 private:
  Napi::Promise::Deferred deferred_;
  CompileRequest request_;
  CompileOutcome outcome_;
};

}  // namespace

Napi::Value NvrtcCompile(const Napi::CallbackInfo& info) {
  return toJs(info.Env(), compile(readRequest(info[0])));
}

Napi::Value NvrtcCompileAsync(const Napi::CallbackInfo& info) {
  auto* worker = new CompileWorker(info.Env(), readRequest(info[0]));
  Napi::Promise promise = worker->promise();
  worker->Queue();  // the worker deletes itself once settled
  return promise;
}

// Loads NVRTC if needed (never throws) and says what is there.
Napi::Value NvrtcStatus(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const nvrtc::State& state = nvrtc::load();
  Napi::Object out = Napi::Object::New(env);
  out.Set("available", state.loaded);
  out.Set("libraryPath", state.libraryPath);
  out.Set("detail", state.detail);
  if (!state.loaded) return out;
  Napi::Array version = Napi::Array::New(env, 2);
  version.Set(0u, state.major);
  version.Set(1u, state.minor);
  out.Set("version", version);
  int count = 0;
  std::vector<int> archs;
  if (api.nvrtcGetNumSupportedArchs(&count) == nvrtc::kSuccess && count > 0) {
    archs.resize(static_cast<size_t>(count));
    if (api.nvrtcGetSupportedArchs(archs.data()) != nvrtc::kSuccess) archs.clear();
  }
  Napi::Array supported = Napi::Array::New(env, archs.size());
  for (size_t i = 0; i < archs.size(); ++i) supported.Set(static_cast<uint32_t>(i), archs[i]);
  out.Set("supportedArchs", supported);
  return out;
}

}  // namespace cudrv
