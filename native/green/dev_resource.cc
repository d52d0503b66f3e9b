#include "green/dev_resource.h"

#include <vector>

#include "context.h"
#include "core/args.h"
#include "generated/entries.h"
#include "green/green_context.h"

namespace cudrv {

namespace {

Napi::Value newResource(Napi::Env env, const CUdevResource& resource, int ordinal, std::shared_ptr<const void> source) {
  auto box = std::make_shared<DevResourceBox>();
  box->resource = resource;
  box->ordinal = ordinal;
  box->source = std::move(source);
  return DevResource::newSlot(env, std::move(box));
}

}  // namespace

Napi::Value DeviceSmResource(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  CUdevice device = deviceOf(env, info[0], "ordinal");
  CUdevResource resource{};
  CU_CHECK(env, cuDeviceGetDevResource, device, &resource, CU_DEV_RESOURCE_TYPE_SM);
  return newResource(env, resource, intArg(info[0], "ordinal"), nullptr);
}

Napi::Value ContextSmResource(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const ContextRef& context = Context::fromSlot(info[0], "context");
  CUdevResource resource{};
  CU_CHECK(env, cuCtxGetDevResource, context->context, &resource, CU_DEV_RESOURCE_TYPE_SM);
  return newResource(env, resource, context->ordinal, context);
}

Napi::Value GreenContextSmResource(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const ContextRef& green = GreenContext::fromSlot(info[0], "green");
  CUdevResource resource{};
  CU_CHECK(env, cuGreenCtxGetDevResource, green->green, &resource, CU_DEV_RESOURCE_TYPE_SM);
  return newResource(env, resource, green->ordinal, green);
}

Napi::Value DevResourceInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const DevResourceBox& box = *DevResource::fromSlot(info[0], "resource");
  Napi::Object out = Napi::Object::New(env);
  out.Set("type", static_cast<double>(box.resource.type));
  out.Set("smCount", box.resource.sm.smCount);
  out.Set("minPartitionSize", box.resource.sm.minSmPartitionSize);
  out.Set("coscheduledAlignment", box.resource.sm.smCoscheduledAlignment);
  out.Set("ordinal", box.ordinal);
  return out;
}

// splitSmResource(input, groups | undefined, flags, minCount): the groups'
// slots, and the remainder's (null when it holds no SM).
Napi::Value SplitSmResource(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const bool asMany = info[1].IsUndefined();
  unsigned int groups = asMany ? 0 : uintArg(info[1], "groups");
  const unsigned int flags = uintArg(info[2], "flags");
  const unsigned int minCount = uintArg(info[3], "minCount");
  const DevResourceRef& input = DevResource::fromSlot(info[0], "input");
  if (asMany) {
    CU_CHECK_DETAIL(env, "minCount=" + std::to_string(minCount), cuDevSmResourceSplitByCount, nullptr, &groups,
                    &input->resource, nullptr, flags, minCount);
  }
  std::vector<CUdevResource> result(groups);
  CUdevResource remainder{};
  if (groups != 0) {
    CU_CHECK_DETAIL(env, "groups=" + std::to_string(groups) + " minCount=" + std::to_string(minCount),
                    cuDevSmResourceSplitByCount, result.data(), &groups, &input->resource, &remainder, flags,
                    minCount);
  } else {
    remainder = input->resource;  // no group: every SM is left over
  }
  Napi::Array slots = Napi::Array::New(env, groups);
  for (unsigned int i = 0; i < groups && i < result.size(); ++i) {
    slots[i] = newResource(env, result[i], input->ordinal, input->source);
  }
  Napi::Object out = Napi::Object::New(env);
  out.Set("groups", slots);
  out.Set("remainder", remainder.type == CU_DEV_RESOURCE_TYPE_SM && remainder.sm.smCount != 0
                           ? newResource(env, remainder, input->ordinal, input->source)
                           : env.Null());
  return out;
}

}  // namespace cudrv
