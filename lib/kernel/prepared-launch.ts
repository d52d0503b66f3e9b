// A prepared launch: kernel, stream, configuration and argument layout fixed
// once, checked once against the kernel's parameters; set() writes a value in
// place and launch() is one call into the driver with nothing allocated.
import { Disposable } from '../disposable';
import { DisposedError } from '../errors';
import { native, NativePreparedLaunch, Slot } from '../native';
import type { Stream } from '../stream';
import { setSubmitSlot, submitOther, submitSlot } from '../submission';
import { checkInteger } from '../validate';
import { ArgLayout, ArgSlot, ArgValue, KernelArgumentError, MemoryPointer, writeArg } from './args';
import type { Kernel } from './kernel';

/**
 * A launch fixed once (kernel.prepare): kernel, stream, shape and argument
 * layout, checked once. set() writes an argument in place; launch() is one
 * driver call with nothing allocated.
 */
export class PreparedLaunch extends Disposable<NativePreparedLaunch> {
  /** The kernel it launches. */
  readonly kernel: Kernel;
  /** The stream it launches on. */
  readonly stream: Stream;
  /** Where each argument goes, and whether it was checked against the driver's parameter layout. */
  readonly layout: ArgLayout;
  readonly #view: DataView;
  readonly #bytes: Uint8Array;
  // layout.slots unfrozen, for set() (see Kernel's #lastSlots).
  readonly #slots: ArgSlot[];
  // The values set, so that memory handles stay reachable while they are arguments.
  readonly #values: ArgValue[];
  #unset: number;

  /** @internal */
  constructor(kernel: Kernel, stream: Stream, handle: Slot<NativePreparedLaunch>, layout: ArgLayout) {
    super(handle);
    this.kernel = kernel;
    this.stream = stream;
    this.layout = layout;
    const buffer = native.preparedLaunchArguments(this.slot);
    if (buffer.byteLength < layout.bytes) throw new Error(`the parameter buffer of ${kernel.name} is smaller than its layout`);
    this.#view = new DataView(buffer);
    this.#bytes = new Uint8Array(buffer);
    this.#slots = [...layout.slots];
    this.#values = new Array(layout.slots.length).fill(undefined);
    this.#unset = layout.slots.length;
    setSubmitSlot(this, this.#unset === 0 ? handle : -1);
  }

  /**
   * Sets argument `index` in place; later launches use it. A pointer into
   * memory is `new MemoryPointer(memory, offset)` (or `arg.ptr(memory, offset).value`).
   * A TensorMap is taken as it is now: set it again after its replaceAddress().
   */
  set(index: number, value: ArgValue): this {
    // set() writes the parameter buffer from here, without the native layer: it checks disposal itself.
    if (this.released) throw new DisposedError('PreparedLaunch');
    const slot = Number.isInteger(index) ? this.#slots[index] : undefined;
    if (slot === undefined) {
      checkInteger(index, 'index', 0);
      throw new RangeError(`index ${index} is out of range: ${this.kernel.name} takes ${this.layout.slots.length} arguments`);
    }
    const memory = writeArg(this.#view, this.#bytes, slot, value, 'values', index);
    // Memory's address (a tensor map's descriptor) is written by the native layer, which also keeps it for the launches.
    if (slot.type === 'ptr' || slot.type === 'tensorMap') {
      if (memory instanceof MemoryPointer) native.preparedLaunchSetPointer(this.slot, slot.offset, memory.memory.slot, memory.offset);
      else native.preparedLaunchSetPointer(this.slot, slot.offset, memory !== null ? memory.slot : null, 0);
    }
    if (this.#values[index] === undefined) {
      this.#unset -= 1;
      if (this.#unset === 0) setSubmitSlot(this, this.slot);
    }
    this.#values[index] = value;
    return this;
  }

  /** Sets every argument, in order. */
  setAll(values: readonly ArgValue[]): this {
    if (!Array.isArray(values) || values.length !== this.layout.slots.length) {
      throw new KernelArgumentError(this.kernel.name, -1, `takes ${this.layout.slots.length} arguments; ` +
        `${Array.isArray(values) ? values.length : 'no array of values'} given`);
    }
    for (let i = 0; i < values.length; i++) this.set(i, values[i]);
    return this;
  }

  /** The value argument `index` was last set to. */
  get(index: number): ArgValue | undefined {
    return this.#values[index];
  }

  /**
   * Queues the kernel on the stream with the arguments as they are now. Once
   * the stream has been disposed it throws DisposedError: the stream would
   * otherwise keep this launch's kernel and memory for good.
   */
  launch(): void {
    native.preparedLaunch(this.readySlot());
  }

  /** @internal The slot, for a call that uses the arguments: once every one is set. */
  readySlot(): number {
    if (this.#unset !== 0) throw this.#unsetError();
    return this.slot;
  }

  #unsetError(): KernelArgumentError {
    const missing = this.#values.findIndex((v) => v === undefined);
    return new KernelArgumentError(this.kernel.name, missing, `argument ${missing} has not been set`);
  }

  /** @internal For Stream.submit(): the slot once every argument is set, until dispose(); -1 otherwise. */
  declare readonly [submitSlot]: number;

  /** @internal For Stream.submit(): reached while the slot is -1, it throws why. */
  [submitOther](): number {
    throw this.released ? new DisposedError('PreparedLaunch') : this.#unsetError();
  }

  override dispose(): void {
    setSubmitSlot(this, -1);
    super.dispose();
  }

  override toString(): string {
    return this.disposed ? 'PreparedLaunch(disposed)' : `PreparedLaunch(${this.kernel.name})`;
  }
}
