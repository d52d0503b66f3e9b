import { Device } from '../device';
export type Location = Device | number | 'host' | {
    hostNuma: number;
} | 'hostNumaCurrent';
/** The driver's CUmemLocation of a Location. */
export declare function locationOf(location: Location, name?: string): {
    type: number;
    id: number;
};
/** The Location of a driver CUmemLocation. */
export declare function locationFrom(type: number, id: number): Location;
