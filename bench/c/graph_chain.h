/* A chain of kernel nodes built node by node with cuGraphAddNode, as the
 * JavaScript builder builds one: the graphs the C baselines time (graph.c, and
 * inprocess.c in the JavaScript process). Returns the driver's result, so that
 * a Node-API module can turn a failure into an exception. */
#ifndef GRAPH_CHAIN_H
#define GRAPH_CHAIN_H

#include <cuda.h>
#include <string.h>

/* Kernel node parameters: one block of 32 threads of kernel in ctx. */
static inline CUgraphNodeParams kernelNode(CUkernel kernel, CUcontext ctx, void **args) {
  CUgraphNodeParams p;
  memset(&p, 0, sizeof p);
  p.type = CU_GRAPH_NODE_TYPE_KERNEL;
  p.kernel.kern = kernel;
  p.kernel.ctx = ctx;
  p.kernel.gridDimX = p.kernel.gridDimY = p.kernel.gridDimZ = 1;
  p.kernel.blockDimX = 32;
  p.kernel.blockDimY = p.kernel.blockDimZ = 1;
  p.kernel.kernelParams = args;
  return p;
}

/* A new graph of n nodes of kernel, each after the one before. */
static inline CUresult buildChain(CUkernel kernel, CUcontext ctx, int n, CUgraph *graph) {
  CUresult r = cuGraphCreate(graph, 0);
  CUgraphNode previous = NULL, node;
  for (int i = 0; r == CUDA_SUCCESS && i < n; i++) {
    CUgraphNodeParams p = kernelNode(kernel, ctx, NULL);
    r = cuGraphAddNode(&node, *graph, previous ? &previous : NULL, NULL, previous ? 1 : 0, &p);
    previous = node;
  }
  return r;
}

#endif
