"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.native = void 0;
// The typed view of the C++ addon. Only lib/ imports this; users see the
// classes built on it.
const bindings_1 = __importDefault(require("bindings"));
const worker_threads_1 = require("worker_threads");
exports.native = (0, bindings_1.default)('cuda_driver');
if (worker_threads_1.isMainThread)
    exports.native.markMainThread();
//# sourceMappingURL=native.js.map