"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.shareEvent = shareEvent;
exports.openSharedEvent = openSharedEvent;
// Sharing an event between processes (legacy IPC): an event created with
// Event.create({ interprocess: true }) (timing off) is exported as a 64-byte
// handle; another process opens it and can record it, wait for it on a stream,
// query or synchronize it, so GPU work in the two processes can be ordered.
// The exporter must keep its event alive while others use it (the driver's rule).
const device_1 = require("../device");
const event_1 = require("../event");
const native_1 = require("../native");
const validate_1 = require("../validate");
const descriptor_1 = require("./descriptor");
const errors_1 = require("./errors");
// Events this process exported, by id, for opening them here as aliases.
const exportedEvents = new Map();
const forgetEvent = new FinalizationRegistry((id) => exportedEvents.delete(id));
/**
 * A JSON-safe descriptor of an interprocess event (cuIpcGetEventHandle), for
 * openSharedEvent in another process.
 */
function shareEvent(event) {
    (0, validate_1.checkInstance)(event, event_1.Event, 'event');
    if (!event.interprocess || event.timing) {
        throw new errors_1.SharingUnsupportedError('event-not-interprocess', 'only an interprocess event without timing can be shared', 'Create it with Event.create({ interprocess: true })');
    }
    const { handle, ordinal } = native_1.native.ipcEventHandle(event.native);
    const device = device_1.Device.get(ordinal);
    const id = (0, descriptor_1.newExportId)();
    exportedEvents.set(id, new WeakRef(event));
    forgetEvent.register(event, id);
    return (0, descriptor_1.validateEventDescriptor)({
        format: descriptor_1.eventDescriptorFormat,
        version: descriptor_1.descriptorVersion,
        id,
        exporter: (0, descriptor_1.thisProcess)(),
        device: { uuid: device.uuid, ordinal },
        handle: (0, descriptor_1.encodeBytes)(handle),
    });
}
/**
 * Opens an event another process shared (cuIpcOpenEventHandle), after checking
 * the descriptor as untrusted input. The event behaves as one created with
 * timing off; dispose it when done. In the exporting process the result is a
 * second handle on the exported event itself.
 */
function openSharedEvent(descriptor, options = {}) {
    (0, validate_1.checkObject)(options, 'options');
    const checked = (0, descriptor_1.validateEventDescriptor)(descriptor);
    if ((0, descriptor_1.exportedHere)(checked.exporter)) {
        const event = exportedEvents.get(checked.id)?.deref();
        if (!event || event.disposed) {
            throw new errors_1.SharingUnsupportedError('same-process', 'this event descriptor was exported by this process, and its event is gone', 'Open descriptors in other processes; in the exporting process use the event itself');
        }
        return new event_1.Event(native_1.native.aliasEvent(event.native));
    }
    let ordinal;
    if (options.device !== undefined) {
        ordinal = (0, device_1.ordinalOf)(options.device, 'options.device');
    }
    else {
        try {
            ordinal = device_1.Device.byUuid(checked.device.uuid).ordinal;
        }
        catch {
            throw new errors_1.SharingUnsupportedError('device-not-visible', `the exporter's device ${checked.device.uuid} is not visible to this process`, 'Make it visible (CUDA_VISIBLE_DEVICES), or pass options.device');
        }
    }
    return new event_1.Event(native_1.native.openIpcEvent(ordinal, (0, descriptor_1.decodeBytes)(checked.handle)));
}
//# sourceMappingURL=event-sharing.js.map