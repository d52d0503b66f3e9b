"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.UserObject = void 0;
// CUDA user objects: a destructor that runs (on the JavaScript thread) once the
// last reference is gone, references being held by this object, by graphs, by
// executables made from them and by launches still in flight.
const disposable_1 = require("../disposable");
const native_1 = require("../native");
const validate_1 = require("../validate");
class UserObject extends disposable_1.Disposable {
    /** @internal */
    constructor(handle) {
        super(handle);
    }
    /** A user object with one reference, held by this object (cuUserObjectCreate). */
    static create(destructor) {
        if (typeof destructor !== 'function')
            throw new TypeError('destructor must be a function');
        return new UserObject(native_1.native.createUserObject(destructor));
    }
    /** References this object holds (dispose() releases them). */
    get references() {
        return this.native.references;
    }
    retain(count = 1) {
        this.native.retain((0, validate_1.checkInteger)(count, 'count', 1, 2 ** 20));
    }
    /** Releases references this object holds; never more than it holds. */
    release(count = 1) {
        this.native.release((0, validate_1.checkInteger)(count, 'count', 1, 2 ** 20));
    }
}
exports.UserObject = UserObject;
//# sourceMappingURL=user-object.js.map