import { Context } from './context';
import { ContextFlagName, DeviceAttributeName, P2PAttributeName } from './generated/enums';
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
    readonly cooperativeLaunch: boolean;
    /** Thread-block cluster launch (compute capability 9.0+). */
    readonly clusterLaunch: boolean;
    readonly managedMemory: boolean;
    readonly concurrentManagedAccess: boolean;
    readonly pageableMemoryAccess: boolean;
    /** cuMemHostRegister of existing host memory. */
    readonly hostRegister: boolean;
    readonly readOnlyHostRegister: boolean;
    readonly unifiedAddressing: boolean;
    readonly streamPriorities: boolean;
    readonly computePreemption: boolean;
    readonly gpuDirectRdma: boolean;
    readonly dmaBuf: boolean;
    readonly genericCompression: boolean;
    readonly timelineSemaphoreInterop: boolean;
    /** Reported for completeness; this package never uses multicast objects. */
    readonly multicast: boolean;
}
export declare class Device {
    #private;
    /** The device's ordinal among the devices this process sees (CUDA_VISIBLE_DEVICES applies). */
    readonly ordinal: number;
    private constructor();
    /** How many devices this process sees. Throws DriverUnavailableError without a usable driver. */
    static count(): number;
    /** The device with this ordinal (default 0). */
    static get(ordinal?: number): Device;
    /** Every visible device. */
    static all(): Device[];
    /** The device at a PCI bus id such as `0000:65:00.0` (domain:bus:device.function). */
    static byPciBusId(pciBusId: string): Device;
    /** The device with this UUID: `GPU-xxxxxxxx-…` as nvidia-smi prints it, bare hex, or 16 bytes. */
    static byUuid(uuid: string | Uint8Array): Device;
    /** The product name, e.g. `NVIDIA H100 80GB HBM3`. */
    get name(): string;
    /** The UUID as nvidia-smi prints it: `GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`. */
    get uuid(): string;
    get uuidBytes(): Uint8Array;
    /** The PCI bus id, `domain:bus:device.function`. */
    get pciBusId(): string;
    /** Total device memory in bytes. */
    get totalMemory(): number;
    get computeCapability(): {
        major: number;
        minor: number;
    };
    /** One attribute by name (see DeviceAttribute) or by the driver's number. */
    attribute(name: DeviceAttributeName | number): number;
    /**
     * Every attribute this driver reports. An attribute newer than the installed
     * driver is left out rather than failing the whole query.
     */
    attributes(): Partial<Record<DeviceAttributeName, number>>;
    /**
     * What this device supports, read once from its attributes. A capability the
     * installed driver has no attribute for is reported as false.
     */
    get capabilities(): DeviceCapabilities;
    /** Whether this device can map memory of peer directly. */
    canAccessPeer(peer: Device): boolean;
    /** A property of the link from this device to peer. */
    p2pAttribute(peer: Device, name: P2PAttributeName | number): number;
    /**
     * The primary context, retained on first use and shared with every handle made
     * on this device. The device keeps it for the life of the process unless it is
     * disposed; it is released once nothing uses it.
     */
    get primaryContext(): Context;
    /** The primary context's flags and whether it is active, without retaining it. */
    primaryContextState(): {
        flags: ContextFlagName[];
        active: boolean;
    };
    /** Sets the flags the primary context is (or will be) created with. */
    setPrimaryContextFlags(flags: ContextFlagName | ContextFlagName[] | number): void;
    /**
     * Destroys every allocation and module of the primary context. Refused while
     * any handle of this package lives on it, this device's own cached context included:
     * dispose that (device.primaryContext.dispose()) and the rest first.
     */
    resetPrimaryContext(): void;
    /** A new context of its own (cuCtxCreate); most programs want the primary context instead. */
    createContext(flags?: ContextFlagName | ContextFlagName[] | number): Context;
    toString(): string;
    toJSON(): {
        ordinal: number;
        name: string;
        uuid: string;
        pciBusId: string;
    };
}
/** Something that names a device: a Device, an ordinal, or nothing (device 0). */
export type DeviceLike = Device | number | undefined;
/** The ordinal of a DeviceLike, checked. */
export declare function ordinalOf(device: DeviceLike, name?: string): number;
