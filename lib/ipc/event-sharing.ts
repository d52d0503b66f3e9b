// Sharing an event between processes (legacy IPC): an event created with
// Event.create({ interprocess: true }) (timing off) is exported as a 64-byte
// handle; another process opens it and can record it, wait for it on a stream,
// query or synchronize it, so GPU work in the two processes can be ordered.
// The exporter must keep its event alive while others use it (the driver's rule).
import { Device, DeviceLike, ordinalOf } from '../device';
import { Event } from '../event';
import { native } from '../native';
import { checkInstance, checkObject, checkOptions, noOptions } from '../validate';
import {
  decodeBytes,
  descriptorVersion,
  encodeBytes,
  eventDescriptorFormat,
  exportedHere,
  newExportId,
  SharedEventDescriptor,
  thisProcess,
  validateEventDescriptor,
} from './descriptor';
import { SharingUnsupportedError } from './errors';

// Events this process exported, by id, for opening them here as aliases.
const exportedEvents = new Map<string, WeakRef<Event>>();
const forgetEvent = new FinalizationRegistry<string>((id) => exportedEvents.delete(id));

/** @internal The event's CUipcEventHandle and device, once it is known to be an interprocess event without timing. */
export function ipcEventHandle(event: Event): { handle: Uint8Array; ordinal: number } {
  checkInstance(event, Event, 'event');
  if (!event.interprocess || event.timing) {
    throw new SharingUnsupportedError('event-not-interprocess', 'only an interprocess event without timing can be shared',
      'Create it with Event.create({ interprocess: true })');
  }
  return native.ipcEventHandle(event.slot);
}

/**
 * A JSON-safe descriptor of an interprocess event (cuIpcGetEventHandle), for
 * openSharedEvent in another process.
 */
export function shareEvent(event: Event): SharedEventDescriptor {
  const { handle, ordinal } = ipcEventHandle(event);
  const device = Device.get(ordinal);
  const id = newExportId();
  exportedEvents.set(id, new WeakRef(event));
  forgetEvent.register(event, id);
  return validateEventDescriptor({
    format: eventDescriptorFormat,
    version: descriptorVersion,
    id,
    exporter: thisProcess(),
    device: { uuid: device.uuid, ordinal },
    handle: encodeBytes(handle),
  });
}

/**
 * Opens an event another process shared (cuIpcOpenEventHandle), after checking
 * the descriptor as untrusted input. The event behaves as one created with
 * timing off; dispose it when done. In the exporting process the result is a
 * second handle on the exported event itself.
 */
export function openSharedEvent(descriptor: unknown, options: { device?: DeviceLike } = noOptions): Event {
  checkObject(options, 'options');
  checkOptions(options, 'options', 'openSharedEvent', ['device']);
  const checked = validateEventDescriptor(descriptor);
  if (exportedHere(checked.exporter)) {
    const event = exportedEvents.get(checked.id)?.deref();
    if (!event || event.disposed) {
      throw new SharingUnsupportedError('same-process', 'this event descriptor was exported by this process, and its event is gone',
        'Open descriptors in other processes; in the exporting process use the event itself');
    }
    return new Event(native.aliasEvent(event.slot));
  }
  let ordinal: number;
  if (options.device !== undefined) {
    ordinal = ordinalOf(options.device, 'options.device');
  } else {
    try {
      ordinal = Device.byUuid(checked.device.uuid).ordinal;
    } catch {
      throw new SharingUnsupportedError('device-not-visible', `the exporter's device ${checked.device.uuid} is not visible to this process`,
        'Make it visible (CUDA_VISIBLE_DEVICES), or pass options.device');
    }
  }
  return new Event(native.openIpcEvent(ordinal, decodeBytes(checked.handle)));
}
