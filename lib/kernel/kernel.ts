// Kernels: a library's context-independent kernel or a module's function.
// Attributes, the parameter layout the driver reports, occupancy, and launches
// whose arguments are checked against that layout before the driver sees them.
import { CacheConfigName, cacheConfigNumber, Context } from '../context';
import { Device, DeviceLike, ordinalOf } from '../device';
import { Disposable } from '../disposable';
import { CudaResult, FunctionAttribute, FunctionAttributeName } from '../generated/enums';
import { KernelCallFieldsIndex, KernelCallHeader, LaunchConfigIndex, LaunchSlotsIndex, MemoryArgument, MemoryArgumentIndex } from '../generated/layouts';
import { native, NativeKernel, Slot } from '../native';
import { checkBoolean, checkEnum, checkInstance, checkInteger, checkObject, checkOptions, checkSize, noItems, noOptions } from '../validate';
import { argLayout, ArgLayout, ArgSlot, ArgType, ArgValue, KernelArg, KernelParam, MemoryPointer, writeAnyArg } from './args';
import { encodeLaunchShape, LaunchConfig, LaunchShapeMemo, launchStream, LaunchShape } from './launch-config';
import { PreparedLaunch } from './prepared-launch';

/** Options of the occupancy queries. */
export interface OccupancyOptions {
  /** Dynamic shared memory per block, in bytes (default 0). */
  dynamicSharedMemory?: number | bigint;
  /** CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE: assume global caching stays on. */
  disableCachingOverride?: boolean;
  /** The device asked about, in its primary context (a library kernel's default: device 0). */
  device?: DeviceLike;
  /** The context whose device is asked about, instead of a device's primary context. */
  context?: Context;
}

/** Where an occupancy query is asked: a device (in its primary context) or a context. */
export interface OccupancyPlace {
  /** The device asked about, in its primary context (a library kernel's default: device 0). */
  device?: DeviceLike;
  /** The context whose device is asked about, instead of a device's primary context. */
  context?: Context;
}

/** Options of {@link Kernel.maxPotentialBlockSize}. */
export interface BlockSizeOptions extends Omit<OccupancyOptions, 'dynamicSharedMemory'> {
  /** Dynamic shared memory per block in bytes, or a function of the block size. */
  dynamicSharedMemory?: number | bigint | ((blockSize: number) => number | bigint);
  /** The largest block size the kernel handles (default: the device's or kernel's limit). */
  blockSizeLimit?: number;
}

/**
 * @internal A kernel call packed for the native layer (Kernel.packCall): one
 * record that a launch or a kernel node reads with one N-API call
 * (native/kernel/layouts.txt): a KernelCallHeader (the encoded launch
 * configuration, the fields, and a plain launch's kernel and stream), the
 * parameter bytes, then from the next multiple of 8 a MemoryArgument for each
 * memory argument. The members are views of its parts.
 */
export interface PackedArgs {
  /** The whole record. */
  record: ArrayBuffer;
  /** The launch configuration's slots (encodeLaunchShape writes them). */
  config: Int32Array;
  /** The parameter bytes. */
  bytes: Uint8Array;
  /** A view of bytes. */
  view: DataView;
  /** The whole 8-byte words of bytes, for 64-bit integers at multiples of 8. */
  words: BigInt64Array;
  /** A MemoryArgument (MemoryArgumentIndex) for each memory argument. */
  pointers: Float64Array;
  /** The header's KernelCallFields (KernelCallFieldsIndex), which the native layer reads and checks. */
  fields: Int32Array;
  /** A plain launch's LaunchSlots (LaunchSlotsIndex; a kernel node names its kernel in its fields). */
  launch: Float64Array;
}

/** @internal A packed record for parameters of `bytes` and up to `pointerSlots` memory arguments. */
export function packedRecord(bytes: number, pointerSlots: number): PackedArgs {
  const align = Float64Array.BYTES_PER_ELEMENT;  // a MemoryArgument's
  const pairsAt = KernelCallHeader.bytes + Math.ceil(bytes / align) * align;
  const buffer = new ArrayBuffer(pairsAt + MemoryArgument.bytes * pointerSlots);
  const fields = new Int32Array(buffer, KernelCallHeader.fields, KernelCallFieldsIndex.count);
  fields[KernelCallFieldsIndex.argBytes] = bytes;
  return {
    record: buffer,
    config: new Int32Array(buffer, KernelCallHeader.config, LaunchConfigIndex.count),
    bytes: new Uint8Array(buffer, KernelCallHeader.bytes, bytes),
    view: new DataView(buffer, KernelCallHeader.bytes, bytes),
    words: new BigInt64Array(buffer, KernelCallHeader.bytes, Math.floor(bytes / 8)),
    pointers: new Float64Array(buffer, pairsAt, MemoryArgumentIndex.count * pointerSlots),
    fields,
    launch: new Float64Array(buffer, KernelCallHeader.launch, LaunchSlotsIndex.count),
  };
}

/**
 * A kernel: a library's context-independent CUkernel (Library.kernel) or a
 * module's CUfunction (Module.function). Launch it with launch() or prepare(),
 * or add it to a graph with Graph.addKernel.
 */
export class Kernel extends Disposable<NativeKernel> {
  /** The context of a module's function; undefined for a library's kernel. */
  readonly context: Context | undefined;
  #name: string | undefined;
  #params: readonly KernelParam[] | null | undefined;
  // Reused by plain launches and kernel nodes (packCall) while the argument
  // types stay the same: the layout's slots and packed record of the last
  // types. The slots are an unfrozen copy: V8 reads a frozen array's elements
  // through its generic keyed-load stub, a slow path on every read.
  #lastTypes: ArgType[] | undefined;
  #lastSlots: ArgSlot[] | undefined;
  // The same slots as numbers (fastKind, offset), which the hot loop reads
  // without comparing type names.
  #lastKinds: number[] = [];
  #lastOffsets: number[] = [];
  #packed: PackedArgs = packedRecord(0, 0);
  // What the record's configuration slots hold (a launch's or a kernel node's shape).
  readonly #launchShape = new LaunchShapeMemo();

  /** @internal */
  constructor(handle: Slot<NativeKernel>, context?: Context) {
    super(handle);
    this.context = context;
  }

  /** The kernel's (lowered) name. */
  get name(): string {
    return (this.#name ??= native.kernelName(this.slot));
  }

  /** 'library' for a context-independent CUkernel, 'module' for a module's CUfunction. */
  get kind(): 'library' | 'module' {
    return native.kernelIsLibraryKernel(this.slot) ? 'library' : 'module';
  }

  /** The CUkernel or CUfunction value, for logs and comparisons. */
  get handle(): bigint {
    return native.kernelHandle(this.slot);
  }

  /**
   * The parameters' offsets and sizes, as the driver reports them; null when
   * the installed driver cannot say (before CUDA 12.4), in which case launches
   * lay arguments out by C's rules and cannot check them.
   */
  get params(): readonly KernelParam[] | null {
    if (this.#params === undefined) {
      const raw = native.kernelParamInfo(this.slot);
      this.#params = raw && Object.freeze(raw.map(([offset, size]) => Object.freeze({ offset, size })));
    }
    return this.#params;
  }

  /** One attribute (registers, shared memory, max threads per block, ...) on a device (default 0; a module's function: its own). */
  attribute(name: FunctionAttributeName | number, device?: DeviceLike): number {
    return native.kernelAttribute(this.slot, checkEnum(name, FunctionAttribute, 'name'), this.#ordinal(device));
  }

  /** Every attribute the installed driver knows, on a device. */
  attributes(device?: DeviceLike): Partial<Record<FunctionAttributeName, number>> {
    const ordinal = this.#ordinal(device);
    const out: Partial<Record<FunctionAttributeName, number>> = {};
    for (const [name, value] of Object.entries(FunctionAttribute) as Array<[FunctionAttributeName, number]>) {
      try {
        out[name] = native.kernelAttribute(this.slot, value, ordinal);
      } catch (error) {
        // An attribute newer than the driver is left out rather than failing the rest.
        if ((error as { result?: number }).result !== CudaResult.CUDA_ERROR_INVALID_VALUE) throw error;
      }
    }
    return out;
  }

  /**
   * Sets a settable attribute (max dynamic shared memory, carveout, cluster
   * settings, ...), by name or by the driver's number. A number the headers
   * this package was built with do not name is refused with a RangeError: the
   * driver faults on some of them instead of refusing them.
   */
  setAttribute(name: FunctionAttributeName | number, value: number, device?: DeviceLike): void {
    native.kernelSetAttribute(this.slot, checkEnum(name, FunctionAttribute, 'name'), checkInteger(value, 'value', -(2 ** 31), 2 ** 31 - 1),
      this.#ordinal(device));
  }

  /** Lets launches use up to `bytes` of dynamic shared memory per block (above 48 KiB needs this). */
  setMaxDynamicSharedMemory(bytes: number, device?: DeviceLike): void {
    this.setAttribute('maxDynamicSharedSizeBytes', checkInteger(bytes, 'bytes', 0, 2 ** 31 - 1), device);
  }

  /**
   * The kernel's preferred split of L1 and shared memory (cuFuncSetCacheConfig
   * for a module's function; cuKernelSetCacheConfig on device, default 0, for a
   * library's kernel). It overrides the context's Context.setCacheConfig.
   */
  setCacheConfig(config: CacheConfigName, device?: DeviceLike): void {
    native.kernelSetCacheConfig(this.slot, cacheConfigNumber(config), this.#ordinal(device));
  }

  /** Whether the kernel's code is loaded in a context yet (lazy loading loads it at first launch). */
  isLoaded(context?: Context): boolean {
    return native.kernelIsLoaded(this.slot, this.#queryContext(context));
  }

  /** Loads the kernel's code in a context now, so that the first launch does not pay for it. */
  load(context?: Context): void {
    native.kernelLoad(this.slot, this.#queryContext(context));
  }

  /** How many blocks of blockSize threads can be resident on one multiprocessor. */
  maxActiveBlocksPerMultiprocessor(blockSize: number, options: OccupancyOptions = noOptions): number {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'maxActiveBlocksPerMultiprocessor', ['dynamicSharedMemory', 'disableCachingOverride', 'device', 'context']);
    return native.kernelMaxActiveBlocksPerMultiprocessor(this.slot, this.#occupancyContext(options), checkInteger(blockSize, 'blockSize', 1),
      checkSize(options.dynamicSharedMemory ?? 0, 'options.dynamicSharedMemory'), occupancyFlags(options));
  }

  /** The block size with the best occupancy, and the smallest grid that reaches it. */
  maxPotentialBlockSize(options: BlockSizeOptions = noOptions): {
    /** The smallest grid that reaches full occupancy. */
    minGridSize: number;
    /** The block size that maximizes occupancy. */
    blockSize: number;
  } {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'maxPotentialBlockSize', ['dynamicSharedMemory', 'disableCachingOverride', 'device', 'context', 'blockSizeLimit']);
    const shared = options.dynamicSharedMemory ?? 0;
    if (typeof shared !== 'function') checkSize(shared, 'options.dynamicSharedMemory');
    return native.kernelMaxPotentialBlockSize(this.slot, this.#occupancyContext(options), shared,
      checkInteger(options.blockSizeLimit ?? 0, 'options.blockSizeLimit', 0), occupancyFlags(options));
  }

  /** The dynamic shared memory a block can have when blocksPerMultiprocessor blocks of blockSize share a multiprocessor. */
  availableDynamicSharedMemoryPerBlock(blocksPerMultiprocessor: number, blockSize: number, options: OccupancyPlace = noOptions): number {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'availableDynamicSharedMemoryPerBlock', ['device', 'context']);
    return native.kernelAvailableDynamicSharedMemoryPerBlock(this.slot, this.#occupancyContext(options),
      checkInteger(blocksPerMultiprocessor, 'blocksPerMultiprocessor', 1), checkInteger(blockSize, 'blockSize', 1));
  }

  /** The largest cluster this launch shape could use (its cluster dimension is ignored). */
  maxPotentialClusterSize(shape: LaunchShape, options: OccupancyPlace = noOptions): number {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'maxPotentialClusterSize', ['device', 'context']);
    return native.kernelMaxPotentialClusterSize(this.slot, this.#occupancyContext(options), encodeLaunchShape(shape));
  }

  /** How many clusters of the shape's cluster dimension can be resident at once. */
  maxActiveClusters(shape: LaunchShape, options: OccupancyPlace = noOptions): number {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'maxActiveClusters', ['device', 'context']);
    return native.kernelMaxActiveClusters(this.slot, this.#occupancyContext(options), encodeLaunchShape(shape));
  }

  /**
   * Queues the kernel on config.stream with typed arguments, checked against
   * the kernel's parameters first: `kernel.launch({ grid, block, stream }, [arg.ptr(x), arg.u32(n)])`.
   * For launches repeated many times, prepare() once and launch that.
   */
  launch(config: LaunchConfig, args: readonly KernelArg[] = noItems): void {
    const stream = launchStream(config);
    const packed = this.packCall(args, config, 'args');
    const launch = packed.launch;
    launch[LaunchSlotsIndex.kernel] = this.slot;
    launch[LaunchSlotsIndex.stream] = stream.slot;
    native.kernelLaunch(packed.record);
  }

  /**
   * @internal Typed arguments checked and packed into this kernel's reused
   * buffers: the bytes, and memory arguments as [offset, memory slot] pairs
   * (the native layer writes their addresses); and the launch shape encoded,
   * unless the record holds it already (a launch's or a kernel node's). Valid
   * until the next packing: hand them to the native layer at once.
   */
  packCall(args: readonly KernelArg[], shape: LaunchShape, label: string): PackedArgs {
    const packed = this.#pack(args, label);
    this.#launchShape.encode(shape, packed.config);
    return packed;
  }

  /**
   * @internal A kernel node's packed record: the arguments and shape as
   * packCall packs them, and the node's device ordinal (a module function's
   * context's device; else shape.device, default 0). Valid until the next packing.
   * packCall's two steps are written out: before the engine optimizes a
   * process's first build, the call to it is a cost paid at every node.
   */
  nodeRecord(args: readonly KernelArg[], shape: LaunchShape & { device?: DeviceLike }): ArrayBuffer {
    const packed = this.#pack(args, 'params.args');
    this.#launchShape.encode(shape, packed.config);
    const context = this.context;
    const device = shape.device;
    packed.fields[KernelCallFieldsIndex.ordinal] = context !== undefined ? context.deviceOrdinal
      : device === undefined ? 0 : ordinalOf(device, 'params.device');
    return packed.record;
  }

  #pack(args: readonly KernelArg[], label: string): PackedArgs {
    if (this.#lastTypes !== undefined && Array.isArray(args) && args.length === this.#lastTypes.length) {
      // No arguments: nothing to write, and the record counts no memory. (#write,
      // too large to be inlined here, would cost a call.)
      if (args.length === 0) return this.#packed;
      try {
        if (this.#write(args, this.#lastSlots!, label, this.#lastTypes)) return this.#packed;
      } catch {
        // A value was refused: start over below, where every type is checked
        // before any value is written, so that the error is the same.
      }
    }
    this.#write(args, this.#slotsFor(args, label), label, undefined);
    return this.#packed;
  }

  // Writes the arguments' values at slots into the record. With types (the
  // last launch's), each argument's type is checked as its value is written,
  // one pass over them (two passes, types then values, cost more per
  // argument); false, the record left unfinished, at a type that differs.
  // The common values (memory, numbers, bigints in range) are written here;
  // anything else, and every error, goes through writeAnyArg.
  #write(args: readonly KernelArg[], slots: readonly ArgSlot[], label: string, types: readonly ArgType[] | undefined): boolean {
    const packed = this.#packed;
    const view = packed.view;
    const pointers = packed.pointers;
    const kinds = this.#lastKinds;
    const offsets = this.#lastOffsets;
    let pointerCount = 0;
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (types !== undefined && (!(a instanceof KernelArg) || (a.type !== types[i] && !sameType(a.type, types[i])))) return false;
      const value = a.value;
      const offset = offsets[i];
      switch (kinds[i]) {
        case fastKind.ptr:
          if (value instanceof Disposable) {
            const at = MemoryArgumentIndex.count * pointerCount++;
            pointers[at + MemoryArgumentIndex.offset] = offset;
            pointers[at + MemoryArgumentIndex.memory] = value.slot;
            pointers[at + MemoryArgumentIndex.byteOffset] = 0;
            continue;
          }
          break;
        case fastKind.f32:
          if (typeof value === 'number') {
            view.setFloat32(offset, value, true);
            continue;
          }
          break;
        case fastKind.f64:
          if (typeof value === 'number') {
            view.setFloat64(offset, value, true);
            continue;
          }
          break;
        case fastKind.i32:
          if (typeof value === 'number' && (value | 0) === value) {
            view.setInt32(offset, value, true);
            continue;
          }
          break;
        case fastKind.u32:
          if (typeof value === 'number' && value >>> 0 === value) {
            view.setUint32(offset, value, true);
            continue;
          }
          break;
        case fastKind.i64:
          // A typed array's element store (DataView's bigint setter is a call
          // out of V8's compiled code); it keeps the low 64 bits, which for a
          // u64 in range are its bits too.
          if (typeof value === 'bigint' && BigInt.asIntN(64, value) === value) {
            packed.words[offset >> 3] = value;
            continue;
          }
          break;
        case fastKind.u64:
          if (typeof value === 'bigint' && BigInt.asUintN(64, value) === value) {
            packed.words[offset >> 3] = value;
            continue;
          }
          break;
      }
      const memory = writeAnyArg(view, packed.bytes, slots[i], value, label, i);
      if (memory !== null) {
        const at = MemoryArgumentIndex.count * pointerCount++;
        pointers[at + MemoryArgumentIndex.offset] = offset;
        if (memory instanceof MemoryPointer) {
          pointers[at + MemoryArgumentIndex.memory] = memory.memory.slot;
          pointers[at + MemoryArgumentIndex.byteOffset] = memory.offset;
        } else {
          pointers[at + MemoryArgumentIndex.memory] = memory.slot;
          pointers[at + MemoryArgumentIndex.byteOffset] = 0;
        }
      }
    }
    packed.fields[KernelCallFieldsIndex.pointerCount] = pointerCount;
    return true;
  }

  // The layout's slots for the arguments' types: the last ones when the types
  // are the same (#write met a value it refused), else a new layout.
  #slotsFor(args: readonly KernelArg[], label: string): ArgSlot[] {
    const last = this.#lastTypes;
    if (last !== undefined && Array.isArray(args) && last.length === args.length) {
      let i = 0;
      for (; i < args.length; i++) {
        const a = args[i];
        if (!(a instanceof KernelArg) || (a.type !== last[i] && !sameType(a.type, last[i]))) break;
      }
      if (i === args.length) return this.#lastSlots!;
    }
    return this.#layOut(args, label);
  }

  #layOut(args: readonly KernelArg[], label: string): ArgSlot[] {
    if (!Array.isArray(args)) throw new TypeError(`${label} must be an array of arg.*() values`);
    const types = args.map((a, i) => {
      if (!(a instanceof KernelArg)) throw new TypeError(`${label}[${i}] must be made with arg.*() (arg.f32(1.5), arg.ptr(buffer), ...)`);
      return a.type;
    });
    const layout = argLayout(this.name, this.params, types);
    this.#lastTypes = types;
    this.#lastSlots = [...layout.slots];
    this.#lastKinds = layout.slots.map(fastKindOf);
    this.#lastOffsets = layout.slots.map((slot) => slot.offset);
    this.#packed = packedRecord(layout.bytes, layout.slots.filter((s) => s.type === 'ptr' || s.type === 'tensorMap').length);
    return this.#lastSlots;
  }

  /**
   * Fixes the stream, configuration and argument types for repeated launches;
   * the types are checked against the kernel's parameters here, once. Values
   * (optional here) are set in place with set() and used by every launch() after.
   */
  prepare(config: LaunchConfig, types: readonly ArgType[], values?: readonly ArgValue[]): PreparedLaunch {
    const stream = launchStream(config);
    const layout: ArgLayout = argLayout(this.name, this.params, types);
    const prepared = new PreparedLaunch(this, stream, native.kernelPrepare(this.slot, stream.slot, encodeLaunchShape(config), layout.bytes), layout);
    if (values !== undefined) prepared.setAll(values);
    return prepared;
  }

  #ordinal(device: DeviceLike): number {
    if (device !== undefined) return ordinalOf(device);
    return this.context ? this.context.deviceOrdinal : 0;
  }

  // The context of an occupancy query: the one given, or the device's primary
  // context (a library kernel belongs to none, and the driver answers in the
  // current one); a module's function answers in its own.
  #occupancyContext(options: OccupancyPlace) {
    if (options.device === undefined) return this.#queryContext(options.context);
    if (options.context !== undefined) throw new TypeError('options.device and options.context cannot both be given; a context names its device');
    const device = Device.get(ordinalOf(options.device, 'options.device'));
    if (this.context) {
      if (device.ordinal !== this.context.deviceOrdinal) {
        throw new RangeError(`${this.name} belongs to a module of device ${this.context.deviceOrdinal}; it cannot be asked about device ${device.ordinal}`);
      }
      return null;
    }
    return device.primaryContext.slot;
  }

  #queryContext(context: Context | undefined) {
    if (context !== undefined) return checkInstance(context, Context, 'context').slot;
    return this.context ? null : Device.get(0).primaryContext.slot;
  }

  protected override inspectSummary(): Record<string, unknown> {
    return { name: this.name, ...super.inspectSummary() };
  }

  override toString(): string {
    return this.disposed ? 'Kernel(disposed)' : `Kernel(${this.name}, ${this.kind})`;
  }
}

// The argument kinds Kernel.#write writes itself, by number.
const fastKind = { other: 0, ptr: 1, f32: 2, f64: 3, i32: 4, u32: 5, i64: 6, u64: 7 } as const;

function fastKindOf(slot: ArgSlot): number {
  // A 64-bit integer goes through the record's words only at a multiple of 8 (always, by C's rules).
  if ((slot.type === 'i64' || slot.type === 'u64') && slot.offset % 8 !== 0) return fastKind.other;
  return typeof slot.type === 'string' && Object.prototype.hasOwnProperty.call(fastKind, slot.type)
    ? fastKind[slot.type as keyof typeof fastKind] : fastKind.other;
}

function sameType(a: ArgType, b: ArgType): boolean {
  return a === b || (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null && a.bytes === b.bytes && a.align === b.align);
}

function occupancyFlags(options: { disableCachingOverride?: boolean }): number {
  return options.disableCachingOverride !== undefined && checkBoolean(options.disableCachingOverride, 'options.disableCachingOverride') ? 1 : 0;
}

/** @internal kernel, checked to be a Kernel, for the hot calls (see checkGraphNode). */
export function checkKernel(kernel: unknown, name: string): Kernel {
  return kernel instanceof Kernel ? kernel : checkInstance(kernel, Kernel, name);
}
