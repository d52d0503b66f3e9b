// Launch configurations: grid, block, dynamic shared memory and the launch
// attributes, checked here and encoded into one Int32Array that the native
// layer reads without property lookups (the LaunchConfig record of native/kernel/layouts.txt).
import { LaunchConfigIndex } from '../generated/layouts';
import { checkStream, Stream } from '../stream';
import { checkBoolean, checkInteger } from '../validate';

/** A dimension: a count, [x, y?, z?], or { x, y?, z? }; missing parts are 1. */
export type Dim3 = number | readonly [number, number?, number?] | {
  /** The x extent. */
  readonly x: number;
  /** The y extent (default 1). */
  readonly y?: number;
  /** The z extent (default 1). */
  readonly z?: number;
};

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
  /** The stream to queue the launch on. */
  stream: Stream;
}

const maxInt32 = 2 ** 31 - 1;

/** Checks a launch shape and encodes it into out (a new Int32Array when not given). */
export function encodeLaunchShape(shape: LaunchShape, out: Int32Array = new Int32Array(LaunchConfigIndex.count)): Int32Array {
  if (shape === null || typeof shape !== 'object') throw new TypeError('config must be an object');
  const { grid, block, sharedMemory, cooperative, cluster, priority, programmaticStreamSerialization } = shape;
  writeShape(grid, block, sharedMemory, cooperative, cluster, priority, programmaticStreamSerialization, out);
  return out;
}

/**
 * The encoding of the last shape a launch or kernel node wrote into its record, by the
 * values of its parts: a launch whose parts are the same numbers and flags as
 * the last one's, into the same array, is not checked or encoded again (that
 * was a fifth of a launch's own cost; comparing the parts costs far less). Dimensions
 * given as arrays or objects are encoded every time: they may have changed
 * inside. A shape of grid and block alone (the optional parts all undefined)
 * is compared by those two: before the engine optimizes a caller (a process's
 * first graph build), each comparison with a remembered part is a call into
 * the engine, and a test for undefined is not.
 */
export class LaunchShapeMemo {
  #out: Int32Array | undefined;
  #grid: unknown;
  #block: unknown;
  // True when the remembered optional parts are all undefined.
  #plain = false;
  #sharedMemory: unknown;
  #cooperative: unknown;
  #cluster: unknown;
  #priority: unknown;
  #programmaticStreamSerialization: unknown;

  /** encodeLaunchShape(shape, out), unless out holds this shape's encoding already. */
  encode(shape: LaunchShape, out: Int32Array): void {
    if (shape === null || typeof shape !== 'object') throw new TypeError('config must be an object');
    const { grid, block, sharedMemory, cooperative, cluster, priority, programmaticStreamSerialization } = shape;
    const plain = sharedMemory === undefined && cooperative === undefined && cluster === undefined && priority === undefined &&
      programmaticStreamSerialization === undefined;
    if (out !== this.#out || grid !== this.#grid || block !== this.#block || (plain ? !this.#plain
      : sharedMemory !== this.#sharedMemory || cooperative !== this.#cooperative || cluster !== this.#cluster ||
        priority !== this.#priority || programmaticStreamSerialization !== this.#programmaticStreamSerialization)) {
      this.#encodeAnew(grid, block, sharedMemory, cooperative, cluster, priority, programmaticStreamSerialization, plain, out);
    }
  }

  #encodeAnew(grid: Dim3, block: Dim3, sharedMemory: unknown, cooperative: unknown, cluster: Dim3 | undefined,
    priority: unknown, programmaticStreamSerialization: unknown, plain: boolean, out: Int32Array): void {
    this.#out = undefined;
    writeShape(grid, block, sharedMemory, cooperative, cluster, priority, programmaticStreamSerialization, out);
    if (typeof grid !== 'number' || typeof block !== 'number' || (cluster !== undefined && typeof cluster !== 'number')) return;
    this.#out = out;
    this.#grid = grid;
    this.#block = block;
    this.#plain = plain;
    this.#sharedMemory = sharedMemory;
    this.#cooperative = cooperative;
    this.#cluster = cluster;
    this.#priority = priority;
    this.#programmaticStreamSerialization = programmaticStreamSerialization;
  }
}

/** The stream of a launch configuration, checked. */
export function launchStream(config: LaunchConfig): Stream {
  if (config === null || typeof config !== 'object') throw new TypeError('config must be an object');
  return checkStream(config.stream, 'config.stream');
}

// Checks run on every launch: names are formatted only for an error.
function int32(value: unknown, min: number, name: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= maxInt32) return value;
  return checkInteger(value, name, min, maxInt32); // throws
}

// A dimension's part: the name (config.grid.x) is formatted only for an error.
function part(value: unknown, name: string, axis: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= maxInt32) return value;
  return checkInteger(value, `${name}.${axis}`, 1, maxInt32); // throws
}

// A shape's parts, checked in order and written to out.
function writeShape(grid: Dim3, block: Dim3, sharedMemory: unknown, cooperative: unknown, cluster: Dim3 | undefined,
  priority: unknown, programmaticStreamSerialization: unknown, out: Int32Array): void {
  writeDim3(grid, 'config.grid', out, LaunchConfigIndex.gridX);
  writeDim3(block, 'config.block', out, LaunchConfigIndex.blockX);
  out[LaunchConfigIndex.sharedMemoryBytes] = sharedMemory === undefined ? 0 : int32(sharedMemory, 0, 'config.sharedMemory');
  out[LaunchConfigIndex.cooperative] = cooperative === undefined ? 0 : flag(cooperative, 'config.cooperative');
  if (cluster === undefined) out[LaunchConfigIndex.clusterX] = out[LaunchConfigIndex.clusterY] = out[LaunchConfigIndex.clusterZ] = 0;
  else writeDim3(cluster, 'config.cluster', out, LaunchConfigIndex.clusterX);
  out[LaunchConfigIndex.hasPriority] = priority === undefined ? 0 : 1;
  out[LaunchConfigIndex.priority] = priority === undefined ? 0 : int32(priority, -(2 ** 31), 'config.priority');
  out[LaunchConfigIndex.programmaticStreamSerialization] = programmaticStreamSerialization === undefined ? 0
    : flag(programmaticStreamSerialization, 'config.programmaticStreamSerialization');
}

function flag(value: unknown, name: string): number {
  if (value === true) return 1;
  if (value === false) return 0;
  return checkBoolean(value, name) ? 1 : 0; // throws
}

// A count, the common case, here: small enough for V8 to inline into launches.
function writeDim3(dim: Dim3, name: string, out: Int32Array, at: number): void {
  if (typeof dim === 'number' && Number.isInteger(dim) && dim >= 1 && dim <= maxInt32) {
    out[at] = dim;
    out[at + 1] = out[at + 2] = 1;
  } else {
    writeAnyDim3(dim, name, out, at);
  }
}

function writeAnyDim3(dim: Dim3, name: string, out: Int32Array, at: number): void {
  if (typeof dim === 'number') {
    out[at] = part(dim, name, 'x');
    out[at + 1] = out[at + 2] = 1;
    return;
  }
  let x: unknown, y: unknown, z: unknown;
  if (Array.isArray(dim)) {
    if (dim.length < 1 || dim.length > 3) throw new RangeError(`${name} must have 1 to 3 dimensions, got ${dim.length}`);
    [x, y, z] = dim;
  } else if (dim !== null && typeof dim === 'object') {
    ({ x, y, z } = dim as { x: unknown; y?: unknown; z?: unknown });
  } else {
    throw new TypeError(`${name} must be a number, [x, y, z] or { x, y, z }`);
  }
  out[at] = part(x, name, 'x');
  out[at + 1] = y === undefined ? 1 : part(y, name, 'y');
  out[at + 2] = z === undefined ? 1 : part(z, name, 'z');
}
