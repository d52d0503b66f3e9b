import { NativeImportedMemory, NativeMemory } from '../native';
import { LegacyMemoryDescriptor } from './descriptor';
/** @internal The handle and allocation offset of memory + offset. */
export declare function exportLegacy(memory: NativeMemory, offset: number): {
    handle: string;
    offset: number;
};
/** @internal Opens a legacy descriptor on a device. */
export declare function openLegacy(descriptor: LegacyMemoryDescriptor, ordinal: number): NativeImportedMemory;
