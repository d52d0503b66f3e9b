"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.describeWithDriver = exports.describeGpu = exports.gpu = void 0;
// describe() for the GPU tier: skipped, with the reason printed once by the
// global setup, where no GPU is usable.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { gpuAvailability } = require('./availability');
exports.gpu = gpuAvailability();
exports.describeGpu = exports.gpu.gpu ? describe : describe.skip;
/** For tests that need a driver but must hide the devices themselves. */
exports.describeWithDriver = exports.gpu.driver ? describe : describe.skip;
//# sourceMappingURL=tiers.js.map