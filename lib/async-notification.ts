// Notifications the driver sends about a device on its own (cuDeviceRegisterAsyncNotification),
// delivered on the JavaScript thread. Which notifications a driver sends, and
// whether it takes registrations at all, depends on the platform: see
// docs/errors-and-lifetimes.md.
import { Disposable } from './disposable';
import { native, NativeAsyncNotification, Slot } from './native';

/** One notification about a device. */
export interface AsyncNotificationInfo {
  /** 'over-budget': the process has allocated more device memory than its budget; 'unknown' for a type newer than this package. */
  readonly type: 'over-budget' | 'unknown';
  /** The driver's CUasyncNotificationType number. */
  readonly typeNumber: number;
  /** For 'over-budget': by how many bytes (0n otherwise). */
  readonly bytesOverBudget: bigint;
}

/**
 * A registration made by Device.onAsyncNotification: its callback runs until
 * dispose() (cuDeviceUnregisterAsyncNotification), on the JavaScript thread;
 * what it throws goes to process 'uncaughtException'. It does not keep the
 * process alive.
 */
export class AsyncNotificationRegistration extends Disposable<NativeAsyncNotification> {
  /** The device's ordinal. */
  readonly deviceOrdinal: number;

  /** @internal */
  constructor(handle: Slot<NativeAsyncNotification>, deviceOrdinal: number) {
    super(handle);
    this.deviceOrdinal = deviceOrdinal;
  }

  /** @internal */
  static register(ordinal: number, callback: (info: AsyncNotificationInfo) => void): AsyncNotificationRegistration {
    if (typeof callback !== 'function') throw new TypeError('callback must be a function');
    const slot = native.registerAsyncNotification(ordinal, (typeNumber, bytesOverBudget) => {
      callback(Object.freeze({ type: typeNumber === 1 ? 'over-budget' : 'unknown', typeNumber, bytesOverBudget }));
    });
    return new AsyncNotificationRegistration(slot, ordinal);
  }

  override toString(): string {
    return `AsyncNotificationRegistration(device ${this.deviceOrdinal}${this.disposed ? ', disposed' : ''})`;
  }
}
