// CUDA user objects: a destructor that runs (on the JavaScript thread) once the
// last reference is gone, references being held by this object, by graphs, by
// executables made from them and by launches still in flight.
import { Disposable } from '../disposable';
import { native, NativeUserObject, Slot } from '../native';
import { checkInteger } from '../validate';

/**
 * A CUDA user object: a destructor the driver runs (here, on the JavaScript
 * thread) once its last reference is released. References are held by this
 * object, by graphs (graph.retainUserObject), by executables made from them
 * and by launches in flight.
 */
export class UserObject extends Disposable<NativeUserObject> {
  /** @internal */
  constructor(handle: Slot<NativeUserObject>) {
    super(handle);
  }

  /** A user object with one reference, held by this object (cuUserObjectCreate). */
  static create(destructor: () => void): UserObject {
    if (typeof destructor !== 'function') throw new TypeError('destructor must be a function');
    return new UserObject(native.createUserObject(destructor));
  }

  /** References this object holds (dispose() releases them). */
  get references(): number {
    return native.userObjectReferences(this.slot);
  }

  /** Takes more references for this object (cuUserObjectRetain); dispose() releases them all. */
  retain(count = 1): void {
    native.userObjectRetain(this.slot, checkInteger(count, 'count', 1, 2 ** 20));
  }

  /** Releases references this object holds; never more than it holds. */
  release(count = 1): void {
    native.userObjectRelease(this.slot, checkInteger(count, 'count', 1, 2 ** 20));
  }

  override toString(): string {
    return this.disposed ? 'UserObject(disposed)' : `UserObject(${this.references} references held)`;
  }
}
