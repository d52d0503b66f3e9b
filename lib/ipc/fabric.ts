// Whether fabric handles can be used: the device must support them and this
// user must have an IMEX channel (/dev/nvidia-caps-imex-channels/channelN), as
// cuMemCreate's documentation requires. Without both the driver answers
// CUDA_ERROR_NOT_SUPPORTED or CUDA_ERROR_NOT_PERMITTED; this says why first.
import * as fs from 'fs';
import * as path from 'path';
import { Device, DeviceLike, ordinalOf } from '../device';
import { SharingUnsupportedError } from './errors';

const imexChannels = '/dev/nvidia-caps-imex-channels';

/** Whether fabric handles can be used on a device, and if not, why. */
export interface FabricSupport {
  /** True when fabric handles can be used. */
  readonly supported: boolean;
  /** Why not ('' when supported). */
  readonly reason: string;
}

/** Checks the device attribute and looks for an IMEX channel this process can open. */
export function fabricSupport(device?: DeviceLike): FabricSupport {
  const d = Device.get(ordinalOf(device));
  if (!d.capabilities.fabricHandles) {
    return { supported: false, reason: `${d} does not support fabric handles (CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED is 0)` };
  }
  let channels: string[] = [];
  try {
    channels = fs.readdirSync(imexChannels).filter((name) => /^channel\d+$/.test(name));
  } catch {
    // no such directory: no IMEX channels on this system
  }
  const usable = channels.some((name) => {
    try {
      fs.accessSync(path.join(imexChannels, name), fs.constants.R_OK | fs.constants.W_OK);
      return true;
    } catch {
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
export function requireFabric(device: Device): void {
  const support = fabricSupport(device);
  if (!support.supported) {
    throw new SharingUnsupportedError('fabric-unavailable', `fabric handles cannot be used: ${support.reason}`,
      "Between processes of one host use handleType 'posixFileDescriptor' instead (the default)");
  }
}
