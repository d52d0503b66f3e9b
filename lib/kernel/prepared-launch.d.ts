import { Disposable } from '../disposable';
import { NativePreparedLaunch } from '../native';
import { ArgLayout, ArgValue } from './args';
import type { Kernel } from './kernel';
export declare class PreparedLaunch extends Disposable<NativePreparedLaunch> {
    #private;
    readonly kernel: Kernel;
    /** Where each argument goes, and whether it was checked against the driver's parameter layout. */
    readonly layout: ArgLayout;
    /** @internal */
    constructor(kernel: Kernel, handle: NativePreparedLaunch, layout: ArgLayout);
    /** Sets argument `index` in place; later launches use it. */
    set(index: number, value: ArgValue): this;
    /** Sets every argument, in order. */
    setAll(values: readonly ArgValue[]): this;
    /** The value argument `index` was last set to. */
    get(index: number): ArgValue | undefined;
    /** Queues the kernel on the stream with the arguments as they are now. */
    launch(): void;
    toString(): string;
}
