import { DeviceLike } from '../device';
import { Event } from '../event';
import { SharedEventDescriptor } from './descriptor';
/**
 * A JSON-safe descriptor of an interprocess event (cuIpcGetEventHandle), for
 * openSharedEvent in another process.
 */
export declare function shareEvent(event: Event): SharedEventDescriptor;
/**
 * Opens an event another process shared (cuIpcOpenEventHandle), after checking
 * the descriptor as untrusted input. The event behaves as one created with
 * timing off; dispose it when done. In the exporting process the result is a
 * second handle on the exported event itself.
 */
export declare function openSharedEvent(descriptor: unknown, options?: {
    device?: DeviceLike;
}): Event;
