import { Device, DeviceLike } from '../device';
/** Whether fabric handles can be used on a device, and if not, why. */
export interface FabricSupport {
    readonly supported: boolean;
    /** Why not ('' when supported). */
    readonly reason: string;
}
/** Checks the device attribute and looks for an IMEX channel this process can open. */
export declare function fabricSupport(device?: DeviceLike): FabricSupport;
/** @internal Throws SharingUnsupportedError unless fabric handles can be used on device. */
export declare function requireFabric(device: Device): void;
