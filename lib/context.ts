// Contexts. Most programs never touch one: each device's primary context is
// retained on first use and made current for every call that needs it, on
// whichever thread (or worker_thread) makes the call.
import { SmResource } from './dev-resource';
import { Disposable, slotOf } from './disposable';
import type { Event } from './event';
import { ContextFlag, ContextFlagName, ContextLimit, ContextLimitName } from './generated/enums';
import type { GreenContext } from './green-context';
import { native, NativeContext, Slot } from './native';
import { checkEnum, checkFlags, checkInstance, checkSize, flagNames, nameOfValue } from './validate';

/**
 * How the on-chip memory shared by L1 and shared memory is split, as a
 * preference (CUfunc_cache): 'prefer-none' (the default), 'prefer-shared'
 * (more shared memory), 'prefer-l1' (more L1) or 'prefer-equal'. Devices whose
 * split is fixed accept it and ignore it.
 */
export const CacheConfig = {
  /** No preference (the default). */
  'prefer-none': 0,
  /** More shared memory, less L1. */
  'prefer-shared': 1,
  /** More L1, less shared memory. */
  'prefer-l1': 2,
  /** As much of each. */
  'prefer-equal': 3,
} as const;
/** A name of {@link CacheConfig}. */
export type CacheConfigName = keyof typeof CacheConfig;

/** A CacheConfig name, checked, as the driver's number. */
export function cacheConfigNumber(config: unknown, name = 'config'): number {
  if (typeof config !== 'string') throw new TypeError(`${name} must be one of ${Object.keys(CacheConfig).join(', ')}`);
  return checkEnum(config, CacheConfig, name);
}

/** The scopes of Context.flushGpuDirectRdmaWrites, with the driver's CUflushGPUDirectRDMAWritesScope numbers. */
export const RdmaFlushScope = {
  /** Until the writes are seen by the context that owns the memory. */
  owner: 100,
  /** Until every device's contexts see them. */
  'all-devices': 200,
} as const;
/** A name of {@link RdmaFlushScope}. */
export type RdmaFlushScopeName = keyof typeof RdmaFlushScope;

/**
 * The context flags a call takes by name: the header's (ContextFlag) and
 * mapHost (CU_CTX_MAP_HOST), which the header leaves out as deprecated (every
 * context maps host memory since CUDA 11) but which C code being ported passes.
 */
export const ContextFlagInput = {
  ...ContextFlag,
  /** CU_CTX_MAP_HOST: map pinned host memory into the device's address space (always so since CUDA 11). */
  mapHost: 0x08,
} as const;
/** A name of {@link ContextFlagInput}. */
export type ContextFlagInputName = keyof typeof ContextFlagInput;

/** Kinds of execution affinity (CUexecAffinityType): smCount, the SMs a context may use. */
export const ExecAffinityType = {
  /** CU_EXEC_AFFINITY_TYPE_SM_COUNT: the number of SMs a context may use. */
  smCount: 0,
} as const;
/** A name of {@link ExecAffinityType}. */
export type ExecAffinityTypeName = keyof typeof ExecAffinityType;

/**
 * A CUDA context. Most programs never need one: each device's primary context
 * (device.primaryContext) is retained on first use and made current for every
 * call that needs it. Device.createContext() makes a context of its own.
 */
export class Context extends Disposable<NativeContext> {
  /** @internal green: the green context this one is the conversion of (GreenContext.toContext()). */
  constructor(handle: Slot<NativeContext>, green?: GreenContext) {
    super(handle);
    this.#green = green;
  }

  // Held so that the green context's object outlives this one's.
  readonly #green: GreenContext | undefined;

  /** The green context this context is the conversion of (GreenContext.toContext()), else null. */
  get greenContext(): GreenContext | null {
    return this.#green ?? null;
  }

  /** The CUcontext value, for logs and comparisons. */
  get handle(): bigint {
    return native.contextHandle(this.slot);
  }

  /** The ordinal of the device this context belongs to. */
  get deviceOrdinal(): number {
    return native.contextOrdinal(this.slot);
  }

  /** True for a device's primary context, false for one from Device.createContext(). */
  get isPrimary(): boolean {
    return native.contextIsPrimary(this.slot);
  }

  /** The CUdevice the driver reports for this context (cuCtxGetDevice_v2). */
  queryDevice(): number {
    return native.contextDevice(this.slot);
  }

  /** The driver's unique id of this context. */
  get id(): bigint {
    return native.contextId(this.slot);
  }

  /** The context's API version (cuCtxGetApiVersion). */
  get apiVersion(): number {
    return native.contextApiVersion(this.slot);
  }

  /** Makes this context current on the calling thread (the library does this for you per call). */
  makeCurrent(): void {
    native.contextMakeCurrent(this.slot);
  }

  /** Pushes this context on the calling thread's context stack; undo with Context.popCurrent(). */
  pushCurrent(): void {
    native.contextPushCurrent(this.slot);
  }

  /** Blocks the calling thread until all work in this context is done. */
  synchronize(): void {
    native.contextSynchronize(this.slot);
  }

  /** The context's flags, as names. */
  get flags(): ContextFlagName[] {
    return flagNames(native.contextFlags(this.slot), ContextFlag);
  }

  /** Sets the flags of this context (cuCtxSetFlags). */
  setFlags(flags: ContextFlagInputName | ContextFlagInputName[] | number): void {
    native.contextSetFlags(this.slot, checkFlags(flags, ContextFlagInput, 'flags'));
  }

  /** A resource limit of this context (stack size, printf FIFO, heap, ...), in the driver's units. */
  limit(name: ContextLimitName | number): number {
    return native.contextGetLimit(this.slot, checkEnum(name, ContextLimit, 'name'));
  }

  /** Sets a resource limit of this context (cuCtxSetLimit), in the driver's units. */
  setLimit(name: ContextLimitName | number, value: number | bigint): void {
    native.contextSetLimit(this.slot, checkEnum(name, ContextLimit, 'name'), checkSize(value, 'value'));
  }

  /** Stream priorities valid here: `greatest` is the highest priority (numerically lowest). */
  get streamPriorityRange(): {
    /** The lowest priority (numerically highest; the default). */
    least: number;
    /** The highest priority (numerically lowest). */
    greatest: number;
  } {
    return native.contextStreamPriorityRange(this.slot);
  }

  /** Resets all persisting lines in the L2 cache to normal. */
  resetPersistingL2Cache(): void {
    native.contextResetPersistingL2Cache(this.slot);
  }

  /** Lets this context access memory of peer's context (see Device.canAccessPeer). */
  enablePeerAccess(peer: Context): void {
    native.contextEnablePeerAccess(this.slot, checkInstance(peer, Context, 'peer').slot);
  }

  /** Stops this context's access to memory of peer's context. */
  disablePeerAccess(peer: Context): void {
    native.contextDisablePeerAccess(this.slot, checkInstance(peer, Context, 'peer').slot);
  }

  /**
   * Records in event all the work queued so far in this context, on any of its
   * streams (cuCtxRecordEvent; CUDA 12.5+). For a green context's conversion,
   * that green context's work. The event must belong to this context or to
   * its device's primary context.
   */
  recordEvent(event: Event): void {
    native.contextRecordEvent(this.slot, slotOf(event, 'event', 'Event'));
  }

  /** Work queued in this context from now on, on any stream, waits for event (cuCtxWaitEvent; CUDA 12.5+). */
  waitEvent(event: Event): void {
    native.contextWaitEvent(this.slot, slotOf(event, 'event', 'Event'));
  }

  /**
   * The context's execution affinity (cuCtxGetExecAffinity): for 'smCount', the
   * number of SMs its work may use. CUDA 13.0 refuses it for a green context's
   * conversion (CUDA_ERROR_INVALID_CONTEXT): ask greenContext.smResource() instead.
   */
  execAffinity(type: ExecAffinityTypeName | number = 'smCount'): number {
    return native.contextExecAffinity(this.slot, checkEnum(type, ExecAffinityType, 'type'));
  }

  /** The SMs this context has (cuCtxGetDevResource), to split for green contexts. */
  smResource(): SmResource {
    return new SmResource(native.contextSmResource(this.slot));
  }

  /** The context's preferred cache configuration for launches (cuCtxGetCacheConfig). */
  get cacheConfig(): CacheConfigName {
    // The driver answers one of the four values it takes.
    return nameOfValue(CacheConfig, native.contextCacheConfig(this.slot)) as CacheConfigName;
  }

  /** Sets the preferred cache configuration for this context's launches (cuCtxSetCacheConfig); a kernel's own setting wins. */
  setCacheConfig(config: CacheConfigName): void {
    native.contextSetCacheConfig(this.slot, cacheConfigNumber(config));
  }

  /**
   * Waits until GPUDirect RDMA writes made so far into this context's memory are
   * visible (cuFlushGPUDirectRDMAWrites), to the owning context (scope 'owner',
   * the default) or to every device ('all-devices'). Where
   * `device.capabilities.gpuDirectRdmaFlushWrites` is false the driver refuses
   * it, and this throws CudaNotSupportedError or a CudaError with the driver's code.
   */
  flushGpuDirectRdmaWrites(scope: RdmaFlushScopeName = 'owner'): void {
    if (typeof scope !== 'string') throw new TypeError(`scope must be one of ${Object.keys(RdmaFlushScope).join(', ')}`);
    native.contextFlushGpuDirectRdmaWrites(this.slot, checkEnum(scope, RdmaFlushScope, 'scope'));
  }

  /** The calling thread's current CUcontext value (0n when none). */
  static currentHandle(): bigint {
    return native.currentContext();
  }

  /** Pops the calling thread's current context; returns its CUcontext value. */
  static popCurrent(): bigint {
    return native.popCurrentContext();
  }

  override toString(): string {
    if (this.disposed) return 'Context(disposed)';
    return `Context(${this.isPrimary ? 'primary, ' : this.#green ? 'green, ' : ''}device ${this.deviceOrdinal}, 0x${this.handle.toString(16)})`;
  }
}
