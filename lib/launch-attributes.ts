// Launch attributes of streams and kernel nodes: typed values encoded to and
// decoded from the driver's 64-byte CUlaunchAttributeValue union (the native
// layer moves the bytes only).
import { AccessProperty, AccessPropertyName, LaunchAttribute, SynchronizationPolicy, SynchronizationPolicyName } from './generated/enums';
import { checkEnum, checkInteger, checkNumber, checkSize64, describeValue, nameOfValue } from './validate';

export const ATTRIBUTE_VALUE_BYTES = 64;

/** An L2 persistence window (cuda.h: CUaccessPolicyWindow). */
export interface AccessPolicyWindow {
  /** Start address of the window (a device address; the driver may align it). */
  base: bigint;
  /** Size of the window in bytes (read back as a number). */
  bytes: number | bigint;
  /** Fraction of accesses in the window that get hitProp, 0..1. */
  hitRatio: number;
  /** How hits in the window are cached: 'persisting' keeps them in L2 (or 'normal', 'streaming'). */
  hitProp: AccessPropertyName;
  /** How the rest of the accesses are cached (usually 'streaming' or 'normal'). */
  missProp: AccessPropertyName;
}

/** Which memory-synchronization domain work uses, and the map for remote domains. */
export interface MemSyncDomainMap {
  /** The domain of work launched normally. */
  default: number;
  /** The domain of work launched to be observed by other devices. */
  remote: number;
}

/** The attributes of a stream (CUstreamAttrValue, cuStreamSetAttribute), by name, with their value types. */
export interface StreamAttributes {
  /** An L2 persistence window for the stream's accesses. */
  accessPolicyWindow: AccessPolicyWindow;
  /** How a synchronize on the stream waits: 'auto', 'spin', 'yield' or 'blockingSync'. */
  synchronizationPolicy: SynchronizationPolicyName;
  /** The stream's priority. */
  priority: number;
  /** The memory-synchronization domain map. */
  memSyncDomainMap: MemSyncDomainMap;
  /** The memory-synchronization domain of the stream's work. */
  memSyncDomain: number;
}
/** A name of {@link StreamAttributes}. */
export type StreamAttributeName = keyof StreamAttributes;

/**
 * What Stream.setAttribute takes: the values {@link StreamAttributes} describes,
 * with the driver's numbers accepted where they are names.
 */
export interface StreamAttributeInput extends Omit<StreamAttributes, 'accessPolicyWindow' | 'synchronizationPolicy'> {
  /** An L2 persistence window; hitProp and missProp as names or the driver's numbers. */
  accessPolicyWindow: Omit<AccessPolicyWindow, 'hitProp' | 'missProp'> & {
    /** How hits in the window are cached. */
    hitProp: AccessPropertyName | number;
    /** How the rest of the accesses are cached. */
    missProp: AccessPropertyName | number;
  };
  /** How a synchronize on the stream waits, by name or the driver's number. */
  synchronizationPolicy: SynchronizationPolicyName | number;
}

/** Attributes of a graph's kernel node (cuGraphKernelNodeSetAttribute). */
export interface KernelNodeAttributes {
  /** An L2 persistence window for the kernel's accesses. */
  accessPolicyWindow: AccessPolicyWindow;
  /** Whether the kernel runs as a cooperative launch (grid-wide synchronization). */
  cooperative: boolean;
  /** The kernel's priority (with the executable's useNodePriority). */
  priority: number;
  /** The thread-block cluster shape. */
  clusterDimension: {
    /** Blocks per cluster along x. */
    x: number;
    /** Blocks per cluster along y. */
    y: number;
    /** Blocks per cluster along z. */
    z: number;
  };
  /** The memory-synchronization domain map. */
  memSyncDomainMap: MemSyncDomainMap;
  /** The memory-synchronization domain of the kernel. */
  memSyncDomain: number;
  /** The preferred shared-memory carveout, in percent of the maximum. */
  preferredSharedMemoryCarveout: number;
}
/** A name of {@link KernelNodeAttributes}. */
export type KernelNodeAttributeName = keyof KernelNodeAttributes;

type LaunchAttributes = StreamAttributes & KernelNodeAttributes;
type LaunchAttributeName = keyof LaunchAttributes;

const ids: Record<LaunchAttributeName, number> = {
  accessPolicyWindow: LaunchAttribute.accessPolicyWindow,
  synchronizationPolicy: LaunchAttribute.synchronizationPolicy,
  priority: LaunchAttribute.priority,
  memSyncDomainMap: LaunchAttribute.memSyncDomainMap,
  memSyncDomain: LaunchAttribute.memSyncDomain,
  cooperative: LaunchAttribute.cooperative,
  clusterDimension: LaunchAttribute.clusterDimension,
  preferredSharedMemoryCarveout: LaunchAttribute.preferredSharedMemoryCarveout,
};
const streamNames: readonly StreamAttributeName[] = ['accessPolicyWindow', 'synchronizationPolicy', 'priority', 'memSyncDomainMap', 'memSyncDomain'];
const kernelNodeNames: readonly KernelNodeAttributeName[] = ['accessPolicyWindow', 'cooperative', 'priority', 'clusterDimension', 'memSyncDomainMap', 'memSyncDomain', 'preferredSharedMemoryCarveout'];

const nameOf = <M extends Record<string, number>>(map: M, value: number): keyof M & string => {
  const name = nameOfValue(map, value);
  if (name === undefined) throw new RangeError(`the driver returned an unknown value ${value}`);
  return name;
};

function attributeId(name: unknown, allowed: readonly string[]): number {
  if (typeof name !== 'string' || !allowed.includes(name)) {
    throw new RangeError(`attribute must be one of ${allowed.join(', ')}; got ${describeValue(name)}`);
  }
  return ids[name as LaunchAttributeName];
}

/** The driver's id of a stream attribute. */
export function streamAttributeId(name: StreamAttributeName): number {
  return attributeId(name, streamNames);
}

/** The driver's id of a kernel node attribute. */
export function kernelNodeAttributeId(name: KernelNodeAttributeName): number {
  return attributeId(name, kernelNodeNames);
}

/** The 64-byte union of a stream or kernel node attribute's value. */
export function encodeLaunchAttribute<K extends LaunchAttributeName>(name: K, value: unknown): Uint8Array {
  const bytes = new Uint8Array(ATTRIBUTE_VALUE_BYTES);
  const view = new DataView(bytes.buffer);
  switch (name) {
    case 'accessPolicyWindow': {
      const w = value as StreamAttributeInput['accessPolicyWindow'];
      if (typeof w !== 'object' || w === null) throw new TypeError('accessPolicyWindow must be an object');
      if (typeof w.base !== 'bigint' || w.base < 0n) throw new TypeError('accessPolicyWindow.base must be a non-negative bigint');
      view.setBigUint64(0, w.base, true);
      view.setBigUint64(8, checkSize64(w.bytes, 'accessPolicyWindow.bytes'), true);
      const ratio = checkNumber(w.hitRatio, 'accessPolicyWindow.hitRatio');
      if (ratio < 0 || ratio > 1) throw new RangeError('accessPolicyWindow.hitRatio must be between 0 and 1');
      view.setFloat32(16, ratio, true);
      view.setUint32(20, checkEnum(w.hitProp, AccessProperty, 'accessPolicyWindow.hitProp'), true);
      view.setUint32(24, checkEnum(w.missProp, AccessProperty, 'accessPolicyWindow.missProp'), true);
      break;
    }
    case 'synchronizationPolicy':
      view.setUint32(0, checkEnum(value, SynchronizationPolicy, 'synchronizationPolicy'), true);
      break;
    case 'priority':
      view.setInt32(0, checkInteger(value, 'priority', -(2 ** 31), 2 ** 31 - 1), true);
      break;
    case 'memSyncDomainMap': {
      const m = value as MemSyncDomainMap;
      if (typeof m !== 'object' || m === null) throw new TypeError('memSyncDomainMap must be an object');
      view.setUint8(0, checkInteger(m.default, 'memSyncDomainMap.default', 0, 255));
      view.setUint8(1, checkInteger(m.remote, 'memSyncDomainMap.remote', 0, 255));
      break;
    }
    case 'memSyncDomain':
    case 'preferredSharedMemoryCarveout':
      view.setUint32(0, checkInteger(value, name, 0, 2 ** 32 - 1), true);
      break;
    case 'cooperative':
      if (typeof value !== 'boolean') throw new TypeError('cooperative must be a boolean');
      view.setInt32(0, value ? 1 : 0, true);
      break;
    case 'clusterDimension': {
      const d = value as { x: number; y: number; z: number };
      if (typeof d !== 'object' || d === null) throw new TypeError('clusterDimension must be { x, y, z }');
      view.setUint32(0, checkInteger(d.x, 'clusterDimension.x', 1, 2 ** 31 - 1), true);
      view.setUint32(4, checkInteger(d.y, 'clusterDimension.y', 1, 2 ** 31 - 1), true);
      view.setUint32(8, checkInteger(d.z, 'clusterDimension.z', 1, 2 ** 31 - 1), true);
      break;
    }
    default:
      attributeId(name, Object.keys(ids));
  }
  return bytes;
}

export function decodeLaunchAttribute<K extends LaunchAttributeName>(name: K, bytes: Uint8Array): LaunchAttributes[K] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decode = (): LaunchAttributes[LaunchAttributeName] => {
    switch (name) {
      case 'accessPolicyWindow':
        return {
          base: view.getBigUint64(0, true),
          bytes: Number(view.getBigUint64(8, true)),
          hitRatio: view.getFloat32(16, true),
          hitProp: nameOf(AccessProperty, view.getUint32(20, true)),
          missProp: nameOf(AccessProperty, view.getUint32(24, true)),
        };
      case 'synchronizationPolicy':
        return nameOf(SynchronizationPolicy, view.getUint32(0, true));
      case 'priority':
        return view.getInt32(0, true);
      case 'memSyncDomainMap':
        return { default: view.getUint8(0), remote: view.getUint8(1) };
      case 'cooperative':
        return view.getInt32(0, true) !== 0;
      case 'clusterDimension':
        return { x: view.getUint32(0, true), y: view.getUint32(4, true), z: view.getUint32(8, true) };
      default:
        return view.getUint32(0, true);
    }
  };
  return decode() as LaunchAttributes[K];
}
