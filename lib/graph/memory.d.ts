import { DeviceLike } from '../device';
import { Disposable } from '../disposable';
import { NativeGraphAllocation } from '../native';
/**
 * Memory a graph's allocation node hands out. Usable by the nodes after the
 * allocation node (as an operand of copies, fills and kernel arguments) and,
 * after a launch, by stream work until it is freed; the graph, not this object,
 * frees it. dispose() only drops this handle.
 */
export declare class GraphAllocation extends Disposable<NativeGraphAllocation> {
    /** @internal */
    constructor(handle: NativeGraphAllocation);
    get address(): bigint;
    get size(): number;
}
declare const attributes: {
    usedMemCurrent: number;
    usedMemHigh: number;
    reservedMemCurrent: number;
    reservedMemHigh: number;
};
/** Bytes graphs use or reserve on a device (cuDeviceGetGraphMemAttribute). */
export declare function graphMemory(device?: DeviceLike): Record<keyof typeof attributes, number>;
/** Resets a high watermark to 0 (cuDeviceSetGraphMemAttribute). */
export declare function resetGraphMemoryHigh(which: 'usedMemHigh' | 'reservedMemHigh', device?: DeviceLike): void;
/** Returns memory graphs reserve but do not use to the system (cuDeviceGraphMemTrim). */
export declare function trimGraphMemory(device?: DeviceLike): void;
export {};
