// What to do about a failure the driver explains poorly: one table of the known
// cases, by driver function and result. A CudaError carries the hint of its case
// (CudaError.hint), next to what the driver itself logged (CudaError.driverLog).
import { CudaResult } from './generated/enums';

interface Hint {
  /** The driver functions whose failure it explains; undefined: any function. */
  readonly calls?: readonly string[];
  readonly results: readonly number[];
  readonly hint: string;
}

const instantiateCalls = ['cuGraphInstantiate', 'cuGraphInstantiateWithFlags', 'cuGraphInstantiateWithParams'];
const launchCalls = ['cuLaunchKernel', 'cuLaunchKernelEx', 'cuLaunchCooperativeKernel'];
const checkpointCalls = ['cuCheckpointProcessGetState', 'cuCheckpointProcessGetRestoreThreadId', 'cuCheckpointProcessLock',
  'cuCheckpointProcessCheckpoint', 'cuCheckpointProcessRestore', 'cuCheckpointProcessUnlock'];

const hints: readonly Hint[] = [
  {
    calls: instantiateCalls,
    results: [CudaResult.CUDA_ERROR_NOT_SUPPORTED],
    hint: 'a graph with memory allocation or free nodes can have one executable at a time: dispose() of the ' +
      'other executable (its launches must have finished) before instantiating the graph again',
  },
  {
    calls: launchCalls,
    results: [CudaResult.CUDA_ERROR_INVALID_CONTEXT],
    hint: "a Module's kernels run only in the context the module was loaded in: launch them on a stream of that " +
      'context (Module.load with options.context, Stream.create with the same context), or load the code as a ' +
      'Library, whose kernels run in every context',
  },
  {
    results: [CudaResult.CUDA_ERROR_PEER_ACCESS_NOT_ENABLED],
    hint: "this context may not use the peer's memory yet: call context.enablePeerAccess(peerContext) first " +
      '(Device.canAccessPeer says whether the two devices can)',
  },
  {
    calls: ['cuCtxEnablePeerAccess'],
    results: [CudaResult.CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED],
    hint: 'access to this peer is already enabled for the current context; enable it once per pair of contexts',
  },
  {
    results: [CudaResult.CUDA_ERROR_PEER_ACCESS_UNSUPPORTED],
    hint: "the two devices cannot reach each other's memory (Device.canAccessPeer is false): copy through " +
      'host memory instead',
  },
  {
    results: [CudaResult.CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED],
    hint: "the call is not allowed while a stream captures in 'threadLocal' or 'global' mode (synchronous copies " +
      'and fills, synchronizes, plain allocations and frees, queries of a capturing stream): queue the ' +
      "asynchronous form on the capturing stream, or begin the capture with { mode: 'relaxed' }",
  },
  {
    results: [CudaResult.CUDA_ERROR_STREAM_CAPTURE_IMPLICIT],
    hint: 'a capture cannot include the implicit synchronization of the legacy default stream: capture on ' +
      'streams created nonBlocking (the default of Stream.create) and keep the legacy stream out of the capture',
  },
  {
    calls: ['cuMemFreeAsync'],
    results: [CudaResult.CUDA_ERROR_INVALID_VALUE],
    hint: 'while its stream captures, a stream-ordered free becomes a graph node and may free only memory that ' +
      'graph allocated (allocAsync during the same capture); free other memory outside the capture',
  },
  {
    calls: ['cuMemAllocAsync', 'cuMemAllocFromPoolAsync', 'cuMemPoolCreate', 'cuGraphAddMemAllocNode'],
    results: [CudaResult.CUDA_ERROR_NOT_SUPPORTED],
    hint: "the device or system lacks stream-ordered memory pools (see the device's memoryPoolsSupported " +
      'attribute): use DeviceBuffer.alloc instead',
  },
  {
    calls: checkpointCalls,
    results: [CudaResult.CUDA_ERROR_ILLEGAL_STATE],
    hint: 'the process is not in the state this step starts from: lock a running process, checkpoint a locked one, ' +
      'restore a checkpointed one, unlock a locked one (checkpoint.state(pid) says where it is)',
  },
  {
    calls: ['cuCheckpointProcessLock'],
    results: [CudaResult.CUDA_ERROR_NOT_READY],
    hint: "the process's CUDA calls and GPU work did not finish within options.timeoutMs; it was left running: " +
      'lock it again, with a longer timeout or none',
  },
  {
    calls: checkpointCalls,
    results: [CudaResult.CUDA_ERROR_NOT_INITIALIZED],
    hint: 'pid must name a process of this machine (in this PID namespace) that has initialized CUDA',
  },
  {
    calls: checkpointCalls,
    results: [CudaResult.CUDA_ERROR_OPERATING_SYSTEM],
    hint: 'the operating system refused this process access to the other one: act on it as root or as its user',
  },
  {
    results: [CudaResult.CUDA_ERROR_UNSUPPORTED_PTX_VERSION],
    hint: 'the PTX was made by a newer toolkit than this driver can compile: install a newer driver, or ' +
      'generate PTX of an older version (or a cubin for this GPU)',
  },
  {
    results: [CudaResult.CUDA_ERROR_NO_BINARY_FOR_GPU],
    hint: "the image holds no code for this GPU's architecture and no PTX to compile: build it for this " +
      "device's compute capability, or include PTX",
  },
];

/** @internal Our hint for a failed call of the driver function call with result, or ''. */
export function errorHint(call: string | null, result: number): string {
  for (const h of hints) {
    if (!h.results.includes(result)) continue;
    if (h.calls && (call === null || !h.calls.includes(call))) continue;
    return h.hint;
  }
  return '';
}
