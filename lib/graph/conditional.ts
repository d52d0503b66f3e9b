// Conditional handles: the values that steer a graph's if, while and switch
// nodes. Device code sets one with cudaGraphSetConditional(handle, value); pass
// it to a kernel as arg.u64(handle.value).
import { Disposable } from '../disposable';
import { native, NativeConditionalHandle, Slot } from '../native';

/**
 * The value steering a graph's conditional nodes (CUgraphConditionalHandle),
 * made with graph.conditionalHandle(). Device code sets it with
 * cudaGraphSetConditional(handle, value); pass it to a kernel as arg.u64(handle.value).
 */
export class ConditionalHandle extends Disposable<NativeConditionalHandle> {
  /** @internal Use graph.conditionalHandle(). */
  constructor(handle: Slot<NativeConditionalHandle>) {
    super(handle);
  }

  /** The cudaGraphConditionalHandle value device code receives. */
  get value(): bigint {
    return native.conditionalHandleValue(this.slot);
  }

  override toString(): string {
    return this.disposed ? 'ConditionalHandle(disposed)' : `ConditionalHandle(${this.value})`;
  }
}
