/* NCCL for the C baselines (nccl-allreduce.c, nccl-inprocess.c): opened with
 * dlopen (NCCL_LIBRARY, else libnccl.so.2 from the loader's path), with the few
 * types and prototypes used declared here, as native/nccl/api.h does. */
#ifndef NCCL_LOADER_H
#define NCCL_LOADER_H

#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef int ncclResult_t;
typedef struct ncclComm *ncclComm_t;
typedef struct { char internal[128]; } ncclUniqueId;
enum { ncclFloat32 = 7, ncclSum = 0 };

static ncclResult_t (*ncclGetUniqueId)(ncclUniqueId *);
static ncclResult_t (*ncclCommInitRank)(ncclComm_t *, int, ncclUniqueId, int);
static ncclResult_t (*ncclAllReduce)(const void *, void *, size_t, int, int, ncclComm_t, CUstream);
static ncclResult_t (*ncclCommFinalize)(ncclComm_t);
static ncclResult_t (*ncclCommDestroy)(ncclComm_t);
static const char *(*ncclGetErrorString)(ncclResult_t);

#define NCHECK(call) do { ncclResult_t r = (call); if (r != 0) { fprintf(stderr, "%s failed: %d (%s)\n", #call, r, ncclGetErrorString(r)); exit(1); } } while (0)

/* NULL when every symbol is found, else what is missing. */
static inline const char *loadNccl(void) {
  static char why[256];
  const char *path = getenv("NCCL_LIBRARY");
  void *lib = dlopen(path && *path ? path : "libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(why, sizeof why, "cannot open NCCL: %s", dlerror());
    return why;
  }
  const struct { void **to; const char *name; } symbols[] = {
    {(void **)&ncclGetUniqueId, "ncclGetUniqueId"}, {(void **)&ncclCommInitRank, "ncclCommInitRank"},
    {(void **)&ncclAllReduce, "ncclAllReduce"}, {(void **)&ncclCommFinalize, "ncclCommFinalize"},
    {(void **)&ncclCommDestroy, "ncclCommDestroy"}, {(void **)&ncclGetErrorString, "ncclGetErrorString"},
  };
  for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
    if (!(*symbols[i].to = dlsym(lib, symbols[i].name))) {
      snprintf(why, sizeof why, "NCCL has no %s", symbols[i].name);
      return why;
    }
  }
  return NULL;
}

#endif
