"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ConditionalHandle = void 0;
// Conditional handles: the values that steer a graph's if, while and switch
// nodes. Device code sets one with cudaGraphSetConditional(handle, value); pass
// it to a kernel as arg.u64(handle.value).
const disposable_1 = require("../disposable");
class ConditionalHandle extends disposable_1.Disposable {
    /** @internal Use graph.conditionalHandle(). */
    constructor(handle) {
        super(handle);
    }
    /** The cudaGraphConditionalHandle value device code receives. */
    get value() {
        return this.native.value;
    }
}
exports.ConditionalHandle = ConditionalHandle;
//# sourceMappingURL=conditional.js.map