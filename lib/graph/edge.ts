// Edge data (section 4.2.1.2 of the CUDA Graphs chapter): which port of the
// upstream node the edge leaves from and what kind of dependency it is.
// Programmatic edges let a kernel start before its upstream kernel finishes.
import type { NativeEdgeData } from '../native';
import { checkEnum, checkObject, nameOfValue } from '../validate';

const ports = { default: 0, programmatic: 1, launchOrder: 2 };
const types = { default: 0, programmatic: 1 };

/** The data of an edge: where it leaves the upstream node and what kind of dependency it is (CUgraphEdgeData). */
export interface EdgeData {
  /** Where the edge leaves the upstream node: at its end ('default'), or earlier for kernels. */
  fromPort?: 'default' | 'programmatic' | 'launchOrder';
  /** Where the edge enters the downstream node: only 'default' exists. */
  toPort?: 'default';
  /** 'default' (full dependency) or 'programmatic' (the downstream kernel may start early; see fromPort). */
  type?: 'default' | 'programmatic';
}

export function encodeEdge(edge: EdgeData, name = 'edge'): NativeEdgeData {
  checkObject(edge, name);
  return [checkEnum(edge.fromPort ?? 'default', ports, `${name}.fromPort`), checkEnum(edge.toPort ?? 'default', { default: 0 }, `${name}.toPort`),
    checkEnum(edge.type ?? 'default', types, `${name}.type`)];
}

export function decodeEdge([from, to, type]: NativeEdgeData): Required<EdgeData> {
  return {
    fromPort: nameOfValue(ports, from) ?? 'default',
    toPort: to === 0 ? 'default' : ('default' as const),
    type: nameOfValue(types, type) ?? 'default',
  };
}
