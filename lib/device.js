"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Device = void 0;
exports.ordinalOf = ordinalOf;
// Devices: found by ordinal, PCI bus id or UUID; their names, attributes and the
// capabilities a program checks before it relies on a feature.
const context_1 = require("./context");
const enums_1 = require("./generated/enums");
const native_1 = require("./native");
const validate_1 = require("./validate");
const poolHandleTypes = [
    [0x1, 'posixFileDescriptor'],
    [0x2, 'win32'],
    [0x4, 'win32Kmt'],
    [0x8, 'fabric'],
];
const cache = new Map();
class Device {
    /** The device's ordinal among the devices this process sees (CUDA_VISIBLE_DEVICES applies). */
    ordinal;
    #primary;
    #capabilities;
    constructor(ordinal) {
        this.ordinal = ordinal;
    }
    /** How many devices this process sees. Throws DriverUnavailableError without a usable driver. */
    static count() {
        return native_1.native.deviceCount();
    }
    /** The device with this ordinal (default 0). */
    static get(ordinal = 0) {
        (0, validate_1.checkInteger)(ordinal, 'ordinal', 0);
        const count = Device.count();
        if (ordinal >= count) {
            throw new RangeError(`ordinal ${ordinal} is out of range: ${count} device${count === 1 ? '' : 's'} visible`);
        }
        let device = cache.get(ordinal);
        if (!device)
            cache.set(ordinal, (device = new Device(ordinal)));
        return device;
    }
    /** Every visible device. */
    static all() {
        return Array.from({ length: Device.count() }, (_, i) => Device.get(i));
    }
    /** The device at a PCI bus id such as `0000:65:00.0` (domain:bus:device.function). */
    static byPciBusId(pciBusId) {
        return Device.get(native_1.native.deviceByPciBusId((0, validate_1.checkString)(pciBusId, 'pciBusId')));
    }
    /** The device with this UUID: `GPU-xxxxxxxx-…` as nvidia-smi prints it, bare hex, or 16 bytes. */
    static byUuid(uuid) {
        const wanted = typeof uuid === 'string' ? normalizeUuid(uuid) : formatUuid(checkUuidBytes(uuid));
        const found = Device.all().find((d) => d.uuid === wanted);
        if (!found)
            throw new RangeError(`no visible device has UUID ${wanted}`);
        return found;
    }
    /** The product name, e.g. `NVIDIA H100 80GB HBM3`. */
    get name() {
        return native_1.native.deviceName(this.ordinal);
    }
    /** The UUID as nvidia-smi prints it: `GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`. */
    get uuid() {
        return formatUuid(this.uuidBytes);
    }
    get uuidBytes() {
        return new Uint8Array(native_1.native.deviceUuid(this.ordinal));
    }
    /** The PCI bus id, `domain:bus:device.function`. */
    get pciBusId() {
        return native_1.native.devicePciBusId(this.ordinal);
    }
    /** Total device memory in bytes. */
    get totalMemory() {
        return native_1.native.deviceTotalMemory(this.ordinal);
    }
    get computeCapability() {
        return {
            major: this.attribute('computeCapabilityMajor'),
            minor: this.attribute('computeCapabilityMinor'),
        };
    }
    /** One attribute by name (see DeviceAttribute) or by the driver's number. */
    attribute(name) {
        return native_1.native.deviceAttribute(this.ordinal, (0, validate_1.checkEnum)(name, enums_1.DeviceAttribute, 'name'));
    }
    /**
     * Every attribute this driver reports. An attribute newer than the installed
     * driver is left out rather than failing the whole query.
     */
    attributes() {
        const out = {};
        for (const name of Object.keys(enums_1.DeviceAttribute)) {
            const value = this.#knownAttribute(name);
            if (value !== undefined)
                out[name] = value;
        }
        return out;
    }
    /** An attribute, or undefined when the installed driver does not know it (CUDA_ERROR_INVALID_VALUE). */
    #knownAttribute(name) {
        try {
            return native_1.native.deviceAttribute(this.ordinal, enums_1.DeviceAttribute[name]);
        }
        catch (error) {
            if (error.code === enums_1.CudaResult.CUDA_ERROR_INVALID_VALUE)
                return undefined;
            throw error;
        }
    }
    /**
     * What this device supports, read once from its attributes. A capability the
     * installed driver has no attribute for is reported as false.
     */
    get capabilities() {
        if (this.#capabilities)
            return this.#capabilities;
        const a = (name) => (this.#knownAttribute(name) ?? 0) !== 0;
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
            dmaBuf: a('dmaBufSupported'),
            genericCompression: a('genericCompressionSupported'),
            timelineSemaphoreInterop: a('timelineSemaphoreInteropSupported'),
            multicast: a('multicastSupported'),
        });
        return this.#capabilities;
    }
    /** Whether this device can map memory of peer directly. */
    canAccessPeer(peer) {
        return native_1.native.deviceCanAccessPeer(this.ordinal, (0, validate_1.checkInstance)(peer, Device, 'peer').ordinal);
    }
    /** A property of the link from this device to peer. */
    p2pAttribute(peer, name) {
        return native_1.native.deviceP2PAttribute(this.ordinal, (0, validate_1.checkInstance)(peer, Device, 'peer').ordinal, (0, validate_1.checkEnum)(name, enums_1.P2PAttribute, 'name'));
    }
    /**
     * The primary context, retained on first use and shared with every handle made
     * on this device. The device keeps it for the life of the process unless it is
     * disposed; it is released once nothing uses it.
     */
    get primaryContext() {
        if (!this.#primary || this.#primary.disposed)
            this.#primary = new context_1.Context(native_1.native.primaryContext(this.ordinal));
        return this.#primary;
    }
    /** The primary context's flags and whether it is active, without retaining it. */
    primaryContextState() {
        const { flags, active } = native_1.native.primaryContextState(this.ordinal);
        return { flags: (0, validate_1.flagNames)(flags, enums_1.ContextFlag), active };
    }
    /** Sets the flags the primary context is (or will be) created with. */
    setPrimaryContextFlags(flags) {
        native_1.native.setPrimaryContextFlags(this.ordinal, (0, validate_1.checkFlags)(flags, enums_1.ContextFlag, 'flags'));
    }
    /**
     * Destroys every allocation and module of the primary context. Refused while
     * any handle of this package lives on it, this device's own cached context included:
     * dispose that (device.primaryContext.dispose()) and the rest first.
     */
    resetPrimaryContext() {
        native_1.native.resetPrimaryContext(this.ordinal);
    }
    /** A new context of its own (cuCtxCreate); most programs want the primary context instead. */
    createContext(flags = 0) {
        return new context_1.Context(native_1.native.createContext(this.ordinal, (0, validate_1.checkFlags)(flags, enums_1.ContextFlag, 'flags')));
    }
    toString() {
        return `Device(${this.ordinal})`;
    }
    toJSON() {
        return { ordinal: this.ordinal, name: this.name, uuid: this.uuid, pciBusId: this.pciBusId };
    }
}
exports.Device = Device;
/** The ordinal of a DeviceLike, checked. */
function ordinalOf(device, name = 'device') {
    if (device === undefined)
        return 0;
    if (device instanceof Device)
        return device.ordinal;
    if (typeof device !== 'number')
        throw new TypeError(`${name} must be a Device or an ordinal`);
    return Device.get(device).ordinal;
}
function formatUuid(bytes) {
    const hex = Buffer.from(bytes).toString('hex');
    return `GPU-${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
function normalizeUuid(text) {
    const hex = text.replace(/^(GPU|MIG)-/i, '').replace(/-/g, '').toLowerCase();
    if (!/^[0-9a-f]{32}$/.test(hex))
        throw new RangeError(`uuid must be 32 hex digits (optionally GPU-…), got '${text}'`);
    return formatUuid(Buffer.from(hex, 'hex'));
}
function checkUuidBytes(bytes) {
    if (!(bytes instanceof Uint8Array) || bytes.length !== 16)
        throw new TypeError('uuid must be a string or 16 bytes');
    return bytes;
}
//# sourceMappingURL=device.js.map