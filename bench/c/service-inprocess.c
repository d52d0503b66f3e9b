/* The service benchmark's C baseline inside the JavaScript benchmark's
 * process (service.h): bench/service.js runs it in turn with the JavaScript
 * service, so that both meet the same moment of the host and the GPU. A C
 * service in a process of its own ran at another moment, and its figures
 * moved by up to a tenth from one run to the next. While a run lasts, the
 * JavaScript thread waits in run() for C's threads.
 *
 * open(cubin, identity, most, requests): loads the kernel and makes most slots.
 * run(n, requests) -> {throughput, p50, p99}: requests per second and ns.
 * close(): frees what open() made. */
#include "service.h"
#include "napi_helpers.h"

static struct service svc;
static bool opened;

static napi_value openService(napi_env env, napi_callback_info info) {
  size_t argc = 4, length;
  napi_value argv[4];
  char cubin[4096];
  bool identity;
  int32_t most;
  uint32_t requests;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 4 ||
      napi_get_value_string_utf8(env, argv[0], cubin, sizeof cubin, &length) != napi_ok || length + 1 >= sizeof cubin ||
      napi_get_value_bool(env, argv[1], &identity) != napi_ok || napi_get_value_int32(env, argv[2], &most) != napi_ok ||
      most < 1 || napi_get_value_uint32(env, argv[3], &requests) != napi_ok) {
    return fail(env, "open(cubin: string, identity: boolean, most: positive integer, requests)");
  }
  if (opened) return fail(env, "open() was called already");
  serviceOpen(&svc, cubin, identity, most, requests);
  opened = true;
  return NULL;
}

static napi_value runService(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2], result;
  int32_t n;
  uint32_t requests;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2 ||
      napi_get_value_int32(env, argv[0], &n) != napi_ok || napi_get_value_uint32(env, argv[1], &requests) != napi_ok) {
    return fail(env, "run(n, requests)");
  }
  if (!opened) return fail(env, "run() needs open()");
  if (n < 1 || n > svc.most || requests < 1 || requests > svc.room) {
    return fail(env, "run(): n must be 1 to open()'s most, requests 1 to open()'s requests");
  }
  struct serviceFigures f = serviceRun(&svc, n, requests);
  napi_create_object(env, &result);
  napi_set_named_property(env, result, "throughput", number(env, f.throughput));
  napi_set_named_property(env, result, "p50", number(env, f.p50));
  napi_set_named_property(env, result, "p99", number(env, f.p99));
  return result;
}

static napi_value closeService(napi_env env, napi_callback_info info) {
  (void)env;
  (void)info;
  if (opened) serviceClose(&svc);
  opened = false;
  return NULL;
}

NAPI_MODULE_INIT() {
  if (!define(env, exports, "open", openService) || !define(env, exports, "run", runService) || !define(env, exports, "close", closeService)) {
    return NULL;
  }
  return exports;
}
