/* The arguments the C baselines launch the empty kernels with (common.js
 * kernelSource): values the JavaScript side passes too, pointers into a device
 * buffer of at least 256 bytes. */
#ifndef BENCH_EMPTY_ARGS_H
#define BENCH_EMPTY_ARGS_H
#include <cuda.h>
#include <stddef.h>

struct emptyArgs {
  /* empty4(float* a, const float* b, float c, unsigned n) */
  CUdeviceptr a, b;
  float c;
  unsigned n;
  void *params4[4];
  /* empty16(4 pointers, 4 floats, 4 ints, 2 unsigned long longs, 2 doubles) */
  CUdeviceptr p[4];
  float f[4];
  int i[4];
  unsigned long long u[2];
  double d[2];
  void *params16[16];
};

/* Fills args for buffer; returns the kernelParams array of the kernel with
 * arity arguments (0, 4 or 16; NULL for 0). args must stay where it is while
 * the array is used. */
static inline void **emptyArgsFor(struct emptyArgs *args, CUdeviceptr buffer, int arity) {
  args->a = buffer;
  args->b = buffer + 256;
  args->c = 2.0f;
  args->n = 1000;
  void *four[] = {&args->a, &args->b, &args->c, &args->n};
  for (int k = 0; k < 4; k++) {
    args->p[k] = buffer + 64 * k;
    args->f[k] = (float)(k + 1);
    args->i[k] = k + 5;
    args->params4[k] = four[k];
  }
  args->u[0] = 9;
  args->u[1] = 10;
  args->d[0] = 11;
  args->d[1] = 12;
  void *sixteen[] = {&args->p[0], &args->p[1], &args->p[2], &args->p[3], &args->f[0], &args->f[1], &args->f[2], &args->f[3],
                     &args->i[0], &args->i[1], &args->i[2], &args->i[3], &args->u[0], &args->u[1], &args->d[0], &args->d[1]};
  for (int k = 0; k < 16; k++) args->params16[k] = sixteen[k];
  return arity == 0 ? NULL : arity == 4 ? args->params4 : args->params16;
}
#endif
