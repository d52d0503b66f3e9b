import { Disposable } from '../disposable';
import type { NativeConditionalHandle } from '../native';
export declare class ConditionalHandle extends Disposable<NativeConditionalHandle> {
    /** @internal Use graph.conditionalHandle(). */
    constructor(handle: NativeConditionalHandle);
    /** The cudaGraphConditionalHandle value device code receives. */
    get value(): bigint;
}
