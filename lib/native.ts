// The typed view of the C++ addon. Only lib/ imports this; users see the
// classes built on it.
import {
  MemorySlot, native as generatedNative, NativeAccessEntry, NativeAddon as GeneratedAddon, NativeBytes, NativeContext, NativeEvent,
  NativeHandle as HandleBrand, NativeImportedMemory, NativeMemoryPool, NativeReceivedFd, NativeSegment, NativeStream, NativeWait, Slot,
} from './generated/native';

export {
  MemorySlot, NativeAccessEntry, NativeBytes, NativeContext, NativeEvent, NativeImportedMemory, NativeMemoryPool, NativeReceivedFd, NativeSegment,
  NativeStream, NativeWait, Slot,
};

/** What every native handle object (a "view", native/core/handle.h) has. */
export interface NativeHandle extends HandleBrand {
  dispose(): void;
  readonly alive: boolean;
  /** The handle's number in the native slot table: calls name handles by it (native/core/slots.h). */
  readonly slot: number;
}


export interface NativeAddon extends GeneratedAddon {





}

export const native = generatedNative as NativeAddon;
