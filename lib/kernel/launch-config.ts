// Launch configurations: grid, block, dynamic shared memory and the launch
// attributes, checked here and encoded into one Int32Array that the native
// layer reads without property lookups (native/launch_config.h mirrors the slots).
import { NativeStream } from '../native';
import { Stream, streamNative } from '../stream';
import { checkBoolean, checkInteger } from '../validate';

/** A dimension: a count, [x, y?, z?], or { x, y?, z? }; missing parts are 1. */
export type Dim3 = number | readonly [number, number?, number?] | { readonly x: number; readonly y?: number; readonly z?: number };

/** The shape of a launch: everything but the stream. */
export interface LaunchShape {
  /** Blocks in the grid. */
  grid: Dim3;
  /** Threads in a block. */
  block: Dim3;
  /** Dynamic shared memory per block, in bytes (default 0). */
  sharedMemory?: number;
  /** A cooperative launch: all blocks resident at once, so the grid can synchronize (grid.sync()). */
  cooperative?: boolean;
  /** Thread-block cluster dimensions (compute capability 9.0+). */
  cluster?: Dim3;
  /** The launch's priority (see Context.streamPriorityRange; lower numbers run first). */
  priority?: number;
  /** Lets this kernel start before the previous one in the stream finishes, where that one allows it. */
  programmaticStreamSerialization?: boolean;
}

/** A launch: its shape and its stream. */
export interface LaunchConfig extends LaunchShape {
  stream: Stream;
}

/** Slots of the encoded configuration (native/launch_config.h, LaunchConfigSlot). */
export const LaunchConfigSlot = {
  gridX: 0, gridY: 1, gridZ: 2,
  blockX: 3, blockY: 4, blockZ: 5,
  sharedMemoryBytes: 6,
  cooperative: 7,
  clusterX: 8, clusterY: 9, clusterZ: 10,
  hasPriority: 11, priority: 12,
  programmaticStreamSerialization: 13,
  count: 14,
} as const;

const S = LaunchConfigSlot;
const maxInt32 = 2 ** 31 - 1;

/** Checks a launch shape and encodes it into out (a new Int32Array when not given). */
export function encodeLaunchShape(shape: LaunchShape, out: Int32Array = new Int32Array(S.count)): Int32Array {
  if (shape === null || typeof shape !== 'object') throw new TypeError('config must be an object');
  writeDim3(shape.grid, 'config.grid', out, S.gridX, 1);
  writeDim3(shape.block, 'config.block', out, S.blockX, 1);
  out[S.sharedMemoryBytes] = shape.sharedMemory === undefined ? 0 : checkInteger(shape.sharedMemory, 'config.sharedMemory', 0, maxInt32);
  out[S.cooperative] = shape.cooperative !== undefined && checkBoolean(shape.cooperative, 'config.cooperative') ? 1 : 0;
  if (shape.cluster === undefined) out[S.clusterX] = out[S.clusterY] = out[S.clusterZ] = 0;
  else writeDim3(shape.cluster, 'config.cluster', out, S.clusterX, 1);
  out[S.hasPriority] = shape.priority === undefined ? 0 : 1;
  out[S.priority] = shape.priority === undefined ? 0 : checkInteger(shape.priority, 'config.priority', -(2 ** 31), maxInt32);
  out[S.programmaticStreamSerialization] = shape.programmaticStreamSerialization !== undefined &&
    checkBoolean(shape.programmaticStreamSerialization, 'config.programmaticStreamSerialization') ? 1 : 0;
  return out;
}

/** The native stream of a launch configuration. */
export function launchStream(config: LaunchConfig): NativeStream {
  if (config === null || typeof config !== 'object') throw new TypeError('config must be an object');
  return streamNative(config.stream, 'config.stream');
}

function writeDim3(dim: Dim3, name: string, out: Int32Array, at: number, min: number): void {
  let x: unknown, y: unknown = 1, z: unknown = 1;
  if (typeof dim === 'number') x = dim;
  else if (Array.isArray(dim)) {
    if (dim.length < 1 || dim.length > 3) throw new RangeError(`${name} must have 1 to 3 dimensions, got ${dim.length}`);
    [x, y = 1, z = 1] = dim;
  } else if (dim !== null && typeof dim === 'object') {
    ({ x, y = 1, z = 1 } = dim as { x: unknown; y?: unknown; z?: unknown });
  } else {
    throw new TypeError(`${name} must be a number, [x, y, z] or { x, y, z }`);
  }
  out[at] = checkInteger(x, `${name}.x`, min, maxInt32);
  out[at + 1] = checkInteger(y, `${name}.y`, min, maxInt32);
  out[at + 2] = checkInteger(z, `${name}.z`, min, maxInt32);
}
