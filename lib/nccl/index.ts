// NCCL, as `nccl` of the package's main export: collectives across GPUs and
// machines on this package's streams and memory. NCCL is loaded on first use;
// importing never needs it.
export { Communicator, type CallOptions, type CommunicatorInitOptions, type PeerCallOptions, type ReduceCallOptions,
  type RootedCallOptions, type ShrinkOptions, type SplitOptions } from './communicator';
export { CtaPolicy, type CommunicatorConfig, type CtaPolicyName } from './config';
export { NcclError, NcclUnavailableError, ncclResultName } from './errors';
export { group, groupEnd, groupStart, ncclStatus, uniqueId, uniqueIdBytes, type NcclStatus } from './library';
export { DataType, ReduceOp, type DataTypeName, type ReduceOpName } from './types';
