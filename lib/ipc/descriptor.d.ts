/** The descriptor format this version writes and reads. */
export declare const descriptorVersion = 1;
/** The format tag of shared-memory descriptors (a descriptor says what it describes). */
export declare const memoryDescriptorFormat = "cuda-driver/shared-memory";
/** The format tag of shared-event descriptors. */
export declare const eventDescriptorFormat = "cuda-driver/shared-event";
/** The most pieces (and so file descriptors) one shared-memory descriptor may name. */
export declare const maxDescriptorSegments = 64;
/** The process that exported: its pid, and a random token unique to it (pids repeat across containers). */
export interface ExporterIdentity {
    readonly pid: number;
    readonly token: string;
}
/** The device that owns the memory or event, by UUID (ordinals differ between processes). */
export interface DeviceIdentity {
    /** `GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, as Device.uuid gives it. */
    readonly uuid: string;
    /** The exporter's ordinal for it (informational). */
    readonly ordinal: number;
}
/** What every shared-memory descriptor has. */
interface MemoryDescriptorBase {
    readonly format: typeof memoryDescriptorFormat;
    readonly version: typeof descriptorVersion;
    /** Random id of this export (32 hex digits). */
    readonly id: string;
    readonly exporter: ExporterIdentity;
    readonly device: DeviceIdentity;
    /** Bytes shared: the importer sees exactly this many. */
    readonly size: number;
}
/** cuMemAlloc memory through legacy CUDA IPC. */
export interface LegacyMemoryDescriptor extends MemoryDescriptorBase {
    readonly kind: 'legacy';
    /** The allocation's CUipcMemHandle, base64 (64 bytes). */
    readonly handle: string;
    /** Where the shared bytes start in the allocation (an interior pointer's offset). */
    readonly offset: number;
}
/** A stream-ordered allocation from a shared memory pool. */
export interface PoolMemoryDescriptor extends MemoryDescriptorBase {
    readonly kind: 'pool';
    readonly handleType: 'posixFileDescriptor' | 'fabric';
    /** Names the exporter's pool (hex), so that an importer imports each pool once. */
    readonly pool: string;
    /** fabric: the pool's fabric handle, base64 (64 bytes); posixFileDescriptor: travels as a descriptor. */
    readonly poolHandle?: string;
    /** The allocation's CUmemPoolPtrExportData, base64 (64 bytes). */
    readonly pointer: string;
    /** Where the shared bytes start in the allocation. */
    readonly offset: number;
}
/** One physical allocation of shared virtual memory, as the exporter mapped it. */
export interface VmmSegment {
    readonly allocationSize: number;
    readonly allocationOffset: number;
    /** Bytes mapped; the segments are mapped one after another. */
    readonly bytes: number;
    /** fabric: the allocation's fabric handle, base64 (64 bytes). */
    readonly fabric?: string;
}
/** Virtual memory (cuMemCreate allocations) shared as POSIX descriptors or fabric handles. */
export interface VmmMemoryDescriptor extends MemoryDescriptorBase {
    readonly kind: 'vmm';
    readonly handleType: 'posixFileDescriptor' | 'fabric';
    readonly segments: readonly VmmSegment[];
    /** Where the shared bytes start in the segments mapped one after another. */
    readonly offset: number;
}
/** A shareable description of GPU memory: see shareMemory and openSharedMemory. */
export type SharedMemoryDescriptor = LegacyMemoryDescriptor | PoolMemoryDescriptor | VmmMemoryDescriptor;
/** A shareable description of an interprocess event: see shareEvent and openSharedEvent. */
export interface SharedEventDescriptor {
    readonly format: typeof eventDescriptorFormat;
    readonly version: typeof descriptorVersion;
    readonly id: string;
    readonly exporter: ExporterIdentity;
    readonly device: DeviceIdentity;
    /** The event's CUipcEventHandle, base64 (64 bytes). */
    readonly handle: string;
}
/** @internal This process as an exporter. */
export declare function thisProcess(): ExporterIdentity;
/** @internal True when a descriptor was made by this very process. */
export declare function exportedHere(exporter: ExporterIdentity): boolean;
/** @internal A fresh export id. */
export declare function newExportId(): string;
/** @internal Handle bytes as descriptor text. */
export declare function encodeBytes(bytes: Uint8Array): string;
/** @internal Descriptor text as handle bytes (validated already). */
export declare function decodeBytes(text: string): Uint8Array;
/** How many file descriptors travel beside a descriptor. */
export declare function descriptorFdCount(descriptor: SharedMemoryDescriptor): number;
/**
 * Checks a shared-memory descriptor received from elsewhere and returns a
 * normalized, frozen copy holding only the fields this version knows. Throws
 * InvalidDescriptorError naming the first bad field.
 */
export declare function validateMemoryDescriptor(value: unknown): SharedMemoryDescriptor;
/** Checks an event descriptor received from elsewhere (see validateMemoryDescriptor). */
export declare function validateEventDescriptor(value: unknown): SharedEventDescriptor;
export {};
