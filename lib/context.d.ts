import { Disposable } from './disposable';
import { ContextFlagName, ContextLimitName } from './generated/enums';
import { NativeContext } from './native';
export declare class Context extends Disposable<NativeContext> {
    /** @internal */
    constructor(handle: NativeContext);
    /** The CUcontext value, for logs and comparisons. */
    get handle(): bigint;
    /** The ordinal of the device this context belongs to. */
    get deviceOrdinal(): number;
    /** True for a device's primary context, false for one from Device.createContext(). */
    get isPrimary(): boolean;
    /** The CUdevice the driver reports for this context (cuCtxGetDevice_v2). */
    queryDevice(): number;
    /** The driver's unique id of this context. */
    get id(): bigint;
    /** The context's API version (cuCtxGetApiVersion). */
    get apiVersion(): number;
    /** Makes this context current on the calling thread (the library does this for you per call). */
    makeCurrent(): void;
    /** Pushes this context on the calling thread's context stack; undo with Context.popCurrent(). */
    pushCurrent(): void;
    /** Blocks the calling thread until all work in this context is done. */
    synchronize(): void;
    /** The context's flags, as names. */
    get flags(): ContextFlagName[];
    /** Sets the flags of this context (cuCtxSetFlags). */
    setFlags(flags: ContextFlagName | ContextFlagName[] | number): void;
    /** A resource limit of this context (stack size, printf FIFO, heap, ...), in the driver's units. */
    limit(name: ContextLimitName | number): number;
    setLimit(name: ContextLimitName | number, value: number | bigint): void;
    /** Stream priorities valid here: `greatest` is the highest priority (numerically lowest). */
    get streamPriorityRange(): {
        least: number;
        greatest: number;
    };
    /** Resets all persisting lines in the L2 cache to normal. */
    resetPersistingL2Cache(): void;
    /** Lets this context access memory of peer's context (see Device.canAccessPeer). */
    enablePeerAccess(peer: Context): void;
    disablePeerAccess(peer: Context): void;
    /** The calling thread's current CUcontext value (0n when none). */
    static currentHandle(): bigint;
    /** Pops the calling thread's current context; returns its CUcontext value. */
    static popCurrent(): bigint;
    toString(): string;
}
