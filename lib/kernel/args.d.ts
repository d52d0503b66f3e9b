import { MemoryHandle } from '../memory/bytes';
import type { KernelParam } from './kernel';
/** A scalar parameter type; f16 and bf16 are given as their 16-bit patterns (see toFloat16Bits). */
export type ScalarType = 'i8' | 'u8' | 'i16' | 'u16' | 'i32' | 'u32' | 'i64' | 'u64' | 'f16' | 'bf16' | 'f32' | 'f64' | 'ptr';
/** A struct or other aggregate passed by value: its size and (for layouts the driver cannot report) its alignment. */
export interface BytesType {
    readonly bytes: number;
    readonly align?: number;
}
export type ArgType = ScalarType | BytesType;
/**
 * A pointer: a DeviceBuffer (its address), a HostBuffer the device can reach
 * (its device pointer), a device address, or null.
 */
export type PointerValue = MemoryHandle | bigint | null;
export type ArgValue = number | bigint | PointerValue | ArrayBufferView;
/** One typed argument of a launch; make them with {@link arg}. */
export declare class KernelArg {
    readonly type: ArgType;
    readonly value: ArgValue;
    constructor(type: ArgType, value: ArgValue);
}
/** Typed arguments: `kernel.launch(config, [arg.ptr(x), arg.f32(2), arg.u32(n)])`. */
export declare const arg: {
    readonly i8: (value: number) => KernelArg;
    readonly u8: (value: number) => KernelArg;
    readonly i16: (value: number) => KernelArg;
    readonly u16: (value: number) => KernelArg;
    readonly i32: (value: number) => KernelArg;
    readonly u32: (value: number) => KernelArg;
    readonly i64: (value: number | bigint) => KernelArg;
    readonly u64: (value: number | bigint) => KernelArg;
    /** An f16 given as its bits (toFloat16Bits(x)). */
    readonly f16: (bits: number) => KernelArg;
    /** A bf16 given as its bits (toBFloat16Bits(x)). */
    readonly bf16: (bits: number) => KernelArg;
    readonly f32: (value: number) => KernelArg;
    readonly f64: (value: number) => KernelArg;
    readonly ptr: (value: PointerValue) => KernelArg;
    /** A struct by value: exactly its bytes, with the struct's alignment for layouts the driver cannot report. */
    readonly bytes: (data: ArrayBufferView, align?: number) => KernelArg;
};
/** An argument list does not match the kernel's parameters. */
export declare class KernelArgumentError extends TypeError {
    /** The kernel's name. */
    readonly kernel: string;
    /** The argument at fault, or -1 when the count is wrong. */
    readonly index: number;
    constructor(kernel: string, index: number, message: string);
}
/** Where one argument goes. */
export interface ArgSlot {
    readonly type: ArgType;
    readonly offset: number;
    readonly size: number;
}
/** The layout of an argument list in the parameter buffer. */
export interface ArgLayout {
    readonly slots: readonly ArgSlot[];
    /** The buffer's size: the end of the last parameter. */
    readonly bytes: number;
    /** True when the driver reported the parameters and the list was checked against them. */
    readonly checked: boolean;
}
/** The size and alignment of an argument type; TypeError for anything else. */
export declare function typeInfo(type: ArgType, name: string): {
    size: number;
    align: number;
};
/**
 * Lays out types for a kernel: at the driver's offsets when it reported the
 * parameters (after checking the count and every size), else by C's rules.
 */
export declare function argLayout(kernel: string, params: readonly KernelParam[] | null, types: readonly ArgType[]): ArgLayout;
/**
 * Writes one argument into the parameter buffer (view over it; bytes the same
 * as Uint8Array). A pointer to memory (DeviceBuffer, HostBuffer) is not written
 * here: it is returned, and the native layer writes its device address and
 * keeps the memory alive for the launch. Errors name the argument as
 * `${label}[${index}]`; nothing is formatted unless there is an error.
 */
export declare function writeArg(view: DataView, bytes: Uint8Array, slot: ArgSlot, value: unknown, label: string, index: number): MemoryHandle | null;
