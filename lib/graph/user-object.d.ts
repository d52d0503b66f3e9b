import { Disposable } from '../disposable';
import { NativeUserObject } from '../native';
export declare class UserObject extends Disposable<NativeUserObject> {
    /** @internal */
    constructor(handle: NativeUserObject);
    /** A user object with one reference, held by this object (cuUserObjectCreate). */
    static create(destructor: () => void): UserObject;
    /** References this object holds (dispose() releases them). */
    get references(): number;
    retain(count?: number): void;
    /** Releases references this object holds; never more than it holds. */
    release(count?: number): void;
}
