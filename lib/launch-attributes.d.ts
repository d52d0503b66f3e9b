import { AccessPropertyName, SynchronizationPolicyName } from './generated/enums';
export declare const ATTRIBUTE_VALUE_BYTES = 64;
/** An L2 persistence window (cuda.h: CUaccessPolicyWindow). */
export interface AccessPolicyWindow {
    /** Start address of the window (a device address; the driver may align it). */
    base: bigint;
    /** Size of the window in bytes. */
    bytes: number;
    /** Fraction of accesses in the window that get hitProp, 0..1. */
    hitRatio: number;
    hitProp: AccessPropertyName;
    missProp: AccessPropertyName;
}
/** Which memory-synchronization domain work uses, and the map for remote domains. */
export interface MemSyncDomainMap {
    default: number;
    remote: number;
}
/** Attributes a stream carries for the work queued on it (cuStreamSetAttribute). */
export interface StreamAttributes {
    accessPolicyWindow: AccessPolicyWindow;
    synchronizationPolicy: SynchronizationPolicyName;
    priority: number;
    memSyncDomainMap: MemSyncDomainMap;
    memSyncDomain: number;
}
export type StreamAttributeName = keyof StreamAttributes;
/** Attributes of a graph's kernel node (cuGraphKernelNodeSetAttribute). */
export interface KernelNodeAttributes {
    accessPolicyWindow: AccessPolicyWindow;
    cooperative: boolean;
    priority: number;
    clusterDimension: {
        x: number;
        y: number;
        z: number;
    };
    memSyncDomainMap: MemSyncDomainMap;
    memSyncDomain: number;
    preferredSharedMemoryCarveout: number;
}
export type KernelNodeAttributeName = keyof KernelNodeAttributes;
type LaunchAttributes = StreamAttributes & KernelNodeAttributes;
type LaunchAttributeName = keyof LaunchAttributes;
/** The driver's id of a stream attribute. */
export declare function streamAttributeId(name: StreamAttributeName): number;
/** The driver's id of a kernel node attribute. */
export declare function kernelNodeAttributeId(name: KernelNodeAttributeName): number;
export declare function encodeLaunchAttribute<K extends LaunchAttributeName>(name: K, value: unknown): Uint8Array;
export declare function decodeLaunchAttribute<K extends LaunchAttributeName>(name: K, bytes: Uint8Array): LaunchAttributes[K];
export {};
