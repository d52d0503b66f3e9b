import { NativeStream } from '../native';
import { Stream } from '../stream';
/** A dimension: a count, [x, y?, z?], or { x, y?, z? }; missing parts are 1. */
export type Dim3 = number | readonly [number, number?, number?] | {
    readonly x: number;
    readonly y?: number;
    readonly z?: number;
};
/** The shape of a launch: everything but the stream. */
export interface LaunchShape {
    /** Blocks in the grid. */
    grid: Dim3;
    /** Threads in a block. */
    block: Dim3;
    /** Dynamic shared memory per block, in bytes (default 0). */
    sharedMemory?: number;
    /** A cooperative launch: all blocks resident at once, so the grid can synchronize (grid.sync()). */
    cooperative?: boolean;
    /** Thread-block cluster dimensions (compute capability 9.0+). */
    cluster?: Dim3;
    /** The launch's priority (see Context.streamPriorityRange; lower numbers run first). */
    priority?: number;
    /** Lets this kernel start before the previous one in the stream finishes, where that one allows it. */
    programmaticStreamSerialization?: boolean;
}
/** A launch: its shape and its stream. */
export interface LaunchConfig extends LaunchShape {
    stream: Stream;
}
/** Slots of the encoded configuration (native/launch_config.h, LaunchConfigSlot). */
export declare const LaunchConfigSlot: {
    readonly gridX: 0;
    readonly gridY: 1;
    readonly gridZ: 2;
    readonly blockX: 3;
    readonly blockY: 4;
    readonly blockZ: 5;
    readonly sharedMemoryBytes: 6;
    readonly cooperative: 7;
    readonly clusterX: 8;
    readonly clusterY: 9;
    readonly clusterZ: 10;
    readonly hasPriority: 11;
    readonly priority: 12;
    readonly programmaticStreamSerialization: 13;
    readonly count: 14;
};
/** Checks a launch shape and encodes it into out (a new Int32Array when not given). */
export declare function encodeLaunchShape(shape: LaunchShape, out?: Int32Array): Int32Array;
/** The native stream of a launch configuration. */
export declare function launchStream(config: LaunchConfig): NativeStream;
