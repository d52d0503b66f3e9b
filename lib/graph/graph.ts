// Graphs: work described once and launched many times.
import { Disposable } from '../disposable';
import { native, NativeGraph } from '../native';

export class Graph extends Disposable<NativeGraph> {
  /** @internal */
  constructor(handle: NativeGraph) {
    super(handle);
  }

  /** An empty graph (cuGraphCreate). */
  static create(): Graph {
    return new Graph(native.createGraph());
  }

  get handle(): bigint {
    return this.native.handle;
  }

  /** How many nodes the graph has (cuGraphGetNodes). */
  get nodeCount(): number {
    return this.native.nodeCount();
  }

  override toString(): string {
    return this.disposed ? 'Graph(disposed)' : `Graph(${this.nodeCount} nodes)`;
  }
}
