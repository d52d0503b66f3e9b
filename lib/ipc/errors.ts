// Why memory or an event cannot be shared, and what is wrong with a descriptor
// that arrived from another process.

/** Why sharing cannot go ahead. */
export type SharingUnsupportedReason =
  | 'host-memory'
  | 'managed-memory'
  | 'imported-memory'
  | 'not-ipc-capable'
  | 'pool-not-exportable'
  | 'handle-type-not-requested'
  | 'fabric-unavailable'
  | 'too-many-pieces'
  | 'event-not-interprocess'
  | 'device-not-visible'
  | 'same-process';

/**
 * Memory (or an event) cannot be shared the way it was asked to be. `reason`
 * says why in a word; `remedy` says what to do instead.
 */
export class SharingUnsupportedError extends Error {
  /** 'ERR_CUDA_SHARING_UNSUPPORTED'. */
  readonly code = 'ERR_CUDA_SHARING_UNSUPPORTED';
  /** Why, in a word. */
  readonly reason: SharingUnsupportedReason;
  /** What to do instead, e.g. which allocation or export path fits. */
  readonly remedy: string;

  constructor(reason: SharingUnsupportedReason, message: string, remedy: string) {
    super(`${message}. ${remedy}`);
    this.name = 'SharingUnsupportedError';
    this.reason = reason;
    this.remedy = remedy;
  }
}

/**
 * A descriptor to open is not one this library made (or not of this version):
 * a field is missing, of the wrong type or out of range. Descriptors arrive from
 * other processes and are checked as untrusted input before anything reaches
 * the driver.
 */
export class InvalidDescriptorError extends Error {
  /** 'ERR_CUDA_INVALID_DESCRIPTOR'. */
  readonly code = 'ERR_CUDA_INVALID_DESCRIPTOR';
  /** The offending field's path, e.g. `segments[1].bytes` ('' for the whole value). */
  readonly field: string;

  constructor(field: string, problem: string) {
    super(`invalid shared-memory descriptor: ${field ? `${field} ` : ''}${problem}`);
    this.name = 'InvalidDescriptorError';
    this.field = field;
  }
}
