import type { NativeEdgeData } from '../native';
export interface EdgeData {
    /** Where the edge leaves the upstream node: at its end ('default'), or earlier for kernels. */
    fromPort?: 'default' | 'programmatic' | 'launchOrder';
    toPort?: 'default';
    type?: 'default' | 'programmatic';
}
export declare function encodeEdge(edge: EdgeData, name?: string): NativeEdgeData;
export declare function decodeEdge([from, to, type]: NativeEdgeData): Required<EdgeData>;
