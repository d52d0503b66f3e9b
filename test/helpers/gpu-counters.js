"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
// For the GPU tiers: count driver calls in every test file and leave them for
// the global teardown, which prints which driver functions the run exercised.
const fs = __importStar(require("fs"));
const path = __importStar(require("path"));
const lib_1 = require("../../lib");
const tiers_1 = require("./tiers");
if (tiers_1.gpu.gpu) {
    beforeAll(() => lib_1.callCounters.enable());
    afterAll(() => {
        const dir = process.env.CUDA_DRIVER_COUNTERS_DIR;
        if (!dir)
            return;
        const file = path.join(dir, `${path.basename(expect.getState().testPath ?? 'unknown')}.${process.pid}.json`);
        fs.writeFileSync(file, JSON.stringify(lib_1.callCounters.read()));
    });
}
//# sourceMappingURL=gpu-counters.js.map