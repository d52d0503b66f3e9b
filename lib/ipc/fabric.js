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
exports.fabricSupport = fabricSupport;
exports.requireFabric = requireFabric;
// Whether fabric handles can be used: the device must support them and this
// user must have an IMEX channel (/dev/nvidia-caps-imex-channels/channelN), as
// cuMemCreate's documentation requires. Without both the driver answers
// CUDA_ERROR_NOT_SUPPORTED or CUDA_ERROR_NOT_PERMITTED; this says why first.
const fs = __importStar(require("fs"));
const path = __importStar(require("path"));
const device_1 = require("../device");
const errors_1 = require("./errors");
const imexChannels = '/dev/nvidia-caps-imex-channels';
/** Checks the device attribute and looks for an IMEX channel this process can open. */
function fabricSupport(device) {
    const d = device_1.Device.get((0, device_1.ordinalOf)(device));
    if (!d.capabilities.fabricHandles) {
        return { supported: false, reason: `${d} does not support fabric handles (CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED is 0)` };
    }
    let channels = [];
    try {
        channels = fs.readdirSync(imexChannels).filter((name) => /^channel\d+$/.test(name));
    }
    catch {
        // no such directory: no IMEX channels on this system
    }
    const usable = channels.some((name) => {
        try {
            fs.accessSync(path.join(imexChannels, name), fs.constants.R_OK | fs.constants.W_OK);
            return true;
        }
        catch {
            return false;
        }
    });
    if (!usable) {
        return {
            supported: false,
            reason: channels.length === 0
                ? `no IMEX channel exists: fabric handles need the nvidia-caps-imex-channels device and a channel file such as ${imexChannels}/channel0 (created with mknod; see cuMemCreate's documentation)`
                : `no IMEX channel in ${imexChannels} is readable and writable by this user`,
        };
    }
    return { supported: true, reason: '' };
}
/** @internal Throws SharingUnsupportedError unless fabric handles can be used on device. */
function requireFabric(device) {
    const support = fabricSupport(device);
    if (!support.supported) {
        throw new errors_1.SharingUnsupportedError('fabric-unavailable', `fabric handles cannot be used: ${support.reason}`, "Between processes of one host use handleType 'posixFileDescriptor' instead (the default)");
    }
}
//# sourceMappingURL=fabric.js.map