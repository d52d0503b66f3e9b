// Devices: found by ordinal, PCI bus id or UUID; their names, attributes and the
// capabilities a program checks before it relies on a feature.
import { AsyncNotificationInfo, AsyncNotificationRegistration } from './async-notification';
import { AtomicCapabilities, atomicCapabilityNames, atomicOperationNumbers } from './atomic-capabilities';
import { Context, ContextFlagInput, ContextFlagInputName, ExecAffinityType, ExecAffinityTypeName } from './context';
import { SmResource } from './dev-resource';
import {
  AtomicOperationName, ContextFlag, ContextFlagName, CudaResult, DeviceAttribute, DeviceAttributeName, P2PAttribute, P2PAttributeName,
} from './generated/enums';
import { native } from './native';
import { checkEnum, checkFlags, checkInstance, checkInteger, checkString, describeValue, flagNames } from './validate';

/** Features a program should check before relying on them. */
export interface DeviceCapabilities {
  /** cuMemCreate / cuMemMap and the rest of virtual memory management. */
  readonly virtualMemoryManagement: boolean;
  /** VMM allocations exportable as POSIX file descriptors. */
  readonly posixFileDescriptorHandles: boolean;
  /** VMM allocations exportable as fabric handles (also needs an IMEX channel). */
  readonly fabricHandles: boolean;
  /** Stream-ordered allocation and memory pools (cuMemAllocAsync, cuMemPool*). */
  readonly memoryPools: boolean;
  /** Handle types memory pools can be exported as. */
  readonly memoryPoolHandleTypes: Array<'posixFileDescriptor' | 'win32' | 'win32Kmt' | 'fabric'>;
  /** Legacy IPC of cuMemAlloc memory (cuIpcGetMemHandle); needs unified addressing. */
  readonly ipcMemory: boolean;
  /** Interprocess events (cuIpcGetEventHandle). */
  readonly ipcEvents: boolean;
  /** 64-bit stream memory operations (cuStreamWaitValue64 / WriteValue64). */
  readonly streamMemoryOps64: boolean;
  /** The NOR wait flag of cuStreamWaitValue*. */
  readonly streamWaitValueNor: boolean;
  /** Cooperative launches (grid-wide synchronization). */
  readonly cooperativeLaunch: boolean;
  /** Thread-block cluster launch (compute capability 9.0+). */
  readonly clusterLaunch: boolean;
  /** Managed memory (cuMemAllocManaged). */
  readonly managedMemory: boolean;
  /** The device and the host can access managed memory at the same time. */
  readonly concurrentManagedAccess: boolean;
  /** The device can access pageable host memory directly. */
  readonly pageableMemoryAccess: boolean;
  /** cuMemHostRegister of existing host memory. */
  readonly hostRegister: boolean;
  /** Registering host memory read-only (HostBuffer.register with readOnly). */
  readonly readOnlyHostRegister: boolean;
  /** One address space shared by the host and the devices. */
  readonly unifiedAddressing: boolean;
  /** Stream priorities. */
  readonly streamPriorities: boolean;
  /** Compute preemption. */
  readonly computePreemption: boolean;
  /** GPUDirect RDMA. */
  readonly gpuDirectRdma: boolean;
  /** Context.flushGpuDirectRdmaWrites (cuFlushGPUDirectRDMAWrites) works on this device. */
  readonly gpuDirectRdmaFlushWrites: boolean;
  /** dma_buf export of device memory (exportDmaBuf). */
  readonly dmaBuf: boolean;
  /** Compressible memory (AllocationOptions.compression). */
  readonly genericCompression: boolean;
  /** Timeline semaphore interop. */
  readonly timelineSemaphoreInterop: boolean;
  /** Reported for completeness; this package never uses multicast objects. */
  readonly multicast: boolean;
}

const poolHandleTypes = [
  [0x1, 'posixFileDescriptor'],
  [0x2, 'win32'],
  [0x4, 'win32Kmt'],
  [0x8, 'fabric'],
] as const;

const cache = new Map<number, Device>();

/**
 * A GPU as this process sees it (CUDA_VISIBLE_DEVICES applies): its name,
 * attributes, capabilities and primary context. Device.get(ordinal) returns
 * the same object for the same ordinal.
 */
export class Device {
  /** The device's ordinal among the devices this process sees (CUDA_VISIBLE_DEVICES applies). */
  readonly ordinal: number;
  #primary: Context | undefined;
  #capabilities: DeviceCapabilities | undefined;

  private constructor(ordinal: number) {
    this.ordinal = ordinal;
  }

  /** How many devices this process sees. Throws DriverUnavailableError without a usable driver. */
  static count(): number {
    return native.deviceCount();
  }

  /** The device with this ordinal (default 0). */
  static get(ordinal = 0): Device {
    // Only checked ordinals are cached, and the devices a process sees do not change.
    const known = cache.get(ordinal);
    if (known) return known;
    checkInteger(ordinal, 'ordinal', 0);
    const count = Device.count();
    if (ordinal >= count) {
      throw new RangeError(`ordinal ${ordinal} is out of range: ${count} device${count === 1 ? '' : 's'} visible`);
    }
    const device = new Device(ordinal);
    cache.set(ordinal, device);
    return device;
  }

  /** Every visible device. */
  static all(): Device[] {
    return Array.from({ length: Device.count() }, (_, i) => Device.get(i));
  }

  /** The device at a PCI bus id such as `0000:65:00.0` (domain:bus:device.function). */
  static byPciBusId(pciBusId: string): Device {
    return Device.get(native.deviceByPciBusId(checkString(pciBusId, 'pciBusId')));
  }

  /** The device with this UUID: `GPU-xxxxxxxx-…` as nvidia-smi prints it, bare hex, or 16 bytes. */
  static byUuid(uuid: string | Uint8Array): Device {
    const wanted = typeof uuid === 'string' ? normalizeUuid(uuid) : formatUuid(checkUuidBytes(uuid));
    const found = Device.all().find((d) => d.uuid === wanted);
    if (!found) throw new RangeError(`no visible device has UUID ${wanted}`);
    return found;
  }

  /** The product name, e.g. `NVIDIA H100 80GB HBM3`. */
  get name(): string {
    return native.deviceName(this.ordinal);
  }

  /** The UUID as nvidia-smi prints it: `GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`. */
  get uuid(): string {
    return formatUuid(this.uuidBytes);
  }

  /** The UUID's 16 bytes. */
  get uuidBytes(): Uint8Array {
    return new Uint8Array(native.deviceUuid(this.ordinal));
  }

  /** The PCI bus id, `domain:bus:device.function`. */
  get pciBusId(): string {
    return native.devicePciBusId(this.ordinal);
  }

  /** Total device memory in bytes. */
  get totalMemory(): number {
    return native.deviceTotalMemory(this.ordinal);
  }

  /** The compute capability, e.g. { major: 9, minor: 0 } for sm_90. */
  get computeCapability(): {
    /** The major version. */
    major: number;
    /** The minor version. */
    minor: number;
  } {
    return {
      major: this.attribute('computeCapabilityMajor'),
      minor: this.attribute('computeCapabilityMinor'),
    };
  }

  /** One attribute by name (see DeviceAttribute) or by the driver's number. */
  attribute(name: DeviceAttributeName | number): number {
    return native.deviceAttribute(this.ordinal, checkEnum(name, DeviceAttribute, 'name'));
  }

  /**
   * Every attribute this driver reports. An attribute newer than the installed
   * driver is left out rather than failing the whole query.
   */
  attributes(): Partial<Record<DeviceAttributeName, number>> {
    const out: Partial<Record<DeviceAttributeName, number>> = {};
    for (const name of Object.keys(DeviceAttribute) as DeviceAttributeName[]) {
      const value = this.#knownAttribute(name);
      if (value !== undefined) out[name] = value;
    }
    return out;
  }

  /** An attribute, or undefined when the installed driver does not know it (CUDA_ERROR_INVALID_VALUE). */
  #knownAttribute(name: DeviceAttributeName): number | undefined {
    try {
      return native.deviceAttribute(this.ordinal, DeviceAttribute[name]);
    } catch (error) {
      if ((error as { result?: number }).result === CudaResult.CUDA_ERROR_INVALID_VALUE) return undefined;
      throw error;
    }
  }

  /**
   * What this device supports, read once from its attributes. A capability the
   * installed driver has no attribute for is reported as false.
   */
  get capabilities(): DeviceCapabilities {
    if (this.#capabilities) return this.#capabilities;
    const a = (name: DeviceAttributeName) => (this.#knownAttribute(name) ?? 0) !== 0;
    const poolTypes = this.#knownAttribute('mempoolSupportedHandleTypes') ?? 0;
    this.#capabilities = Object.freeze({
      virtualMemoryManagement: a('virtualMemoryManagementSupported'),
      posixFileDescriptorHandles: a('handleTypePosixFileDescriptorSupported'),
      fabricHandles: a('handleTypeFabricSupported'),
      memoryPools: a('memoryPoolsSupported'),
      memoryPoolHandleTypes: poolHandleTypes.filter(([bit]) => (poolTypes & bit) !== 0).map(([, n]) => n),
      ipcMemory: a('unifiedAddressing'),
      ipcEvents: a('ipcEventSupported'),
      streamMemoryOps64: a('canUse64BitStreamMemOps'),
      streamWaitValueNor: a('canUseStreamWaitValueNor'),
      cooperativeLaunch: a('cooperativeLaunch'),
      clusterLaunch: a('clusterLaunch'),
      managedMemory: a('managedMemory'),
      concurrentManagedAccess: a('concurrentManagedAccess'),
      pageableMemoryAccess: a('pageableMemoryAccess'),
      hostRegister: a('hostRegisterSupported'),
      readOnlyHostRegister: a('readOnlyHostRegisterSupported'),
      unifiedAddressing: a('unifiedAddressing'),
      streamPriorities: a('streamPrioritiesSupported'),
      computePreemption: a('computePreemptionSupported'),
      gpuDirectRdma: a('gpuDirectRdmaSupported'),
      gpuDirectRdmaFlushWrites: ((this.#knownAttribute('gpuDirectRdmaFlushWritesOptions') ?? 0) & 0x1) !== 0,
      dmaBuf: a('dmaBufSupported'),
      genericCompression: a('genericCompressionSupported'),
      timelineSemaphoreInterop: a('timelineSemaphoreInteropSupported'),
      multicast: a('multicastSupported'),
    });
    return this.#capabilities;
  }

  /** Whether this device can map memory of peer directly. */
  canAccessPeer(peer: Device): boolean {
    return native.deviceCanAccessPeer(this.ordinal, checkInstance(peer, Device, 'peer').ordinal);
  }

  /** A property of the link from this device to peer. */
  p2pAttribute(peer: Device, name: P2PAttributeName | number): number {
    return native.deviceP2PAttribute(this.ordinal, checkInstance(peer, Device, 'peer').ordinal,
      checkEnum(name, P2PAttribute, 'name'));
  }

  /**
   * All of the device's SMs (cuDeviceGetDevResource), with the smallest group a
   * split may make and its alignment: split it with splitSmResource for green
   * contexts. smCount is the multiprocessor count.
   */
  smResource(): SmResource {
    return new SmResource(native.deviceSmResource(this.ordinal));
  }

  /**
   * Whether contexts of this device can be limited by this kind of execution
   * affinity (cuDeviceGetExecAffinitySupport); 'smCount': to a number of SMs.
   */
  supportsExecAffinity(type: ExecAffinityTypeName | number = 'smCount'): boolean {
    return native.deviceExecAffinitySupport(this.ordinal, checkEnum(type, ExecAffinityType, 'type'));
  }

  /**
   * Which atomic operations the link between this device and the host carries
   * natively, per operation (default: every {@link AtomicOperation}):
   * `device.hostAtomicCapabilities(['integer-add'])` gives
   * `{ 'integer-add': [...] }`, names of {@link AtomicCapability}. An empty
   * list means the operation is not native over that link. Needs a CUDA 13 driver.
   */
  hostAtomicCapabilities(operations?: readonly AtomicOperationName[]): AtomicCapabilities {
    const numbers = atomicOperationNumbers(operations);
    return atomicCapabilityNames(numbers, native.deviceHostAtomicCapabilities(this.ordinal, numbers));
  }

  /** The same for atomics this device makes on memory of peer (cuDeviceGetP2PAtomicCapabilities). */
  peerAtomicCapabilities(peer: Device, operations?: readonly AtomicOperationName[]): AtomicCapabilities {
    const peerOrdinal = checkInstance(peer, Device, 'peer').ordinal;
    const numbers = atomicOperationNumbers(operations);
    return atomicCapabilityNames(numbers, native.deviceP2PAtomicCapabilities(this.ordinal, peerOrdinal, numbers));
  }

  /**
   * Calls callback on the JavaScript thread for each notification the driver
   * sends about this device (cuDeviceRegisterAsyncNotification) until the
   * registration is disposed. Drivers that send none refuse the registration:
   * CudaNotSupportedError (docs/errors-and-lifetimes.md says which do).
   */
  onAsyncNotification(callback: (info: AsyncNotificationInfo) => void): AsyncNotificationRegistration {
    return AsyncNotificationRegistration.register(this.ordinal, callback);
  }

  /**
   * The primary context, retained on first use and shared with every handle made
   * on this device. The device keeps it for the life of the process unless it is
   * disposed; it is released once nothing uses it.
   */
  get primaryContext(): Context {
    if (!this.#primary || this.#primary.disposed) this.#primary = new Context(native.primaryContext(this.ordinal));
    return this.#primary;
  }

  /** The primary context's flags and whether it is active, without retaining it. */
  primaryContextState(): {
    /** The flags the primary context has or will be created with. */
    flags: ContextFlagName[];
    /** Whether it exists (is retained by anyone in this process). */
    active: boolean;
  } {
    const { flags, active } = native.primaryContextState(this.ordinal);
    return { flags: flagNames(flags, ContextFlag), active };
  }

  /** Sets the flags the primary context is (or will be) created with. */
  setPrimaryContextFlags(flags: ContextFlagInputName | ContextFlagInputName[] | number): void {
    native.setPrimaryContextFlags(this.ordinal, checkFlags(flags, ContextFlagInput, 'flags'));
  }

  /**
   * Destroys every allocation and module of the primary context. Refused while
   * any handle of this package lives on it, this device's own cached context included:
   * dispose that (device.primaryContext.dispose()) and the rest first.
   */
  resetPrimaryContext(): void {
    native.resetPrimaryContext(this.ordinal);
  }

  /**
   * A new context of its own (cuCtxCreate); most programs want the primary
   * context instead. flags: names of ContextFlagInput (`['schedBlockingSync', 'mapHost']`) or the driver's number.
   */
  createContext(flags: ContextFlagInputName | ContextFlagInputName[] | number = 0): Context {
    return new Context(native.createContext(this.ordinal, checkFlags(flags, ContextFlagInput, 'flags')));
  }

  /** `Device(ordinal)`. */
  toString(): string {
    return `Device(${this.ordinal})`;
  }

  /** What identifies the device, for logs and JSON.stringify. */
  toJSON(): {
    /** The ordinal in this process. */
    ordinal: number;
    /** The product name. */
    name: string;
    /** The UUID, as nvidia-smi prints it. */
    uuid: string;
    /** The PCI bus id. */
    pciBusId: string;
  } {
    return { ordinal: this.ordinal, name: this.name, uuid: this.uuid, pciBusId: this.pciBusId };
  }
}

/** Something that names a device: a Device, an ordinal, or nothing (device 0). */
export type DeviceLike = Device | number | undefined;

/** The ordinal of a DeviceLike, checked. */
export function ordinalOf(device: DeviceLike, name = 'device'): number {
  if (device === undefined) return 0;
  if (device instanceof Device) return device.ordinal;
  if (typeof device !== 'number') throw new TypeError(`${name} must be a Device or an ordinal`);
  return Device.get(device).ordinal;
}

/**
 * Where a call that allocates or creates something puts it: options.context (a
 * context of its own, from Device.createContext) or the primary context of
 * options.device (default 0); not both, since a context belongs to one device.
 * @internal
 */
export function placementOf(options: { device?: DeviceLike; context?: Context }): { ordinal: number; context: Context | undefined } {
  if (options.context === undefined) return { ordinal: ordinalOf(options.device, 'options.device'), context: undefined };
  const context = checkInstance(options.context, Context, 'options.context');
  if (options.device !== undefined) {
    throw new TypeError('give options.device or options.context, not both: a context belongs to one device');
  }
  return { ordinal: context.deviceOrdinal, context };
}

function formatUuid(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes).toString('hex');
  return `GPU-${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function uuidHex(text: string, name: string): string {
  const hex = text.replace(/^(GPU|MIG)-/i, '').replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new RangeError(`${name} must be 32 hex digits (optionally GPU-…), got '${text}'`);
  return hex;
}

function normalizeUuid(text: string): string {
  return formatUuid(Buffer.from(uuidHex(text, 'uuid'), 'hex'));
}

function checkUuidBytes(bytes: unknown): Uint8Array {
  if (!(bytes instanceof Uint8Array) || bytes.length !== 16) throw new TypeError('uuid must be a string or 16 bytes');
  return bytes;
}

/**
 * A GPU's UUID as its 16 bytes, from a Device, the text Device.uuid gives (or
 * bare hex), or the bytes; the GPU need not be visible here.
 * @internal
 */
export function uuidBytesOf(uuid: unknown, name: string): Uint8Array {
  if (uuid instanceof Device) return uuid.uuidBytes;
  if (typeof uuid === 'string') return new Uint8Array(Buffer.from(uuidHex(uuid, name), 'hex'));
  if (!(uuid instanceof Uint8Array) || uuid.length !== 16) {
    throw new TypeError(`${name} must be a Device, a UUID string or 16 bytes, got ${describeValue(uuid)}`);
  }
  return uuid.slice();
}
