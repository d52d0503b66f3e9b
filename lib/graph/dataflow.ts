// Edges inferred from what nodes read and write. Nodes arrive in program order;
// each new node must run after the earlier nodes whose accesses conflict with
// its own (read-after-write, write-after-read, write-after-write on
// overlapping bytes of one resource). Only the dependencies no other
// dependency already implies are kept, so the result is the transitive
// reduction of all the hazards, built one node at a time.
import { checkArray, checkObject, checkSize, noItems, noOptions } from '../validate';

/**
 * A byte range of a resource (any object, compared by identity: a device
 * buffer, say). Accesses to disjoint ranges of one resource do not conflict.
 * A resource given without a range stands for all of it.
 */
export class ResourceRange {
  /** The object accessed. */
  readonly resource: object;
  /** First byte of the range. */
  readonly offset: number;
  /** Bytes in the range; Infinity when it runs to the end of the resource. */
  readonly size: number;

  /**
   * @param resource - the object accessed (not itself a ResourceRange).
   * @param offset - first byte (default 0).
   * @param size - number of bytes (default: up to the end of the resource).
   */
  constructor(resource: object, offset: number | bigint = 0, size?: number | bigint) {
    checkObject(resource, 'resource');
    if (resource instanceof ResourceRange) throw new TypeError('resource must be the accessed object, not a ResourceRange');
    this.resource = resource;
    this.offset = checkSize(offset, 'offset');
    this.size = size === undefined ? Infinity : checkSize(size, 'size');
  }

  /** One past the last byte (Infinity when the range runs to the end). */
  get end(): number {
    return this.offset + this.size;
  }
}

/** The kinds of conflict that order two accesses to overlapping bytes. */
export type HazardKind = 'read-after-write' | 'write-after-read' | 'write-after-write';

/** Why a node depends on an earlier one. */
export type DependencyReason =
  /** The later node accesses `range` in a way that conflicts with the earlier node's access. */
  | {
      /** The kind of conflict. */
      readonly kind: HazardKind;
      /** The memory range both nodes touch. */
      readonly range: ResourceRange;
    }
  /** The caller asked for the dependency (`after`). */
  | {
      /** An explicit dependency. */
      readonly kind: 'explicit';
    };

/** An earlier node that a new node must run after, as returned by {@link DataflowTracker.add}. */
export interface DataflowDependency<N> {
  /** The earlier node. */
  readonly node: N;
  /** Its position in the order nodes were added (0 for the first). */
  readonly index: number;
  /** Why the dependency exists; more than one when several accesses conflict. */
  readonly reasons: readonly DependencyReason[];
}

/** A kept dependency between two tracked nodes, by their positions in order of addition. */
export interface DataflowEdge {
  /** Index of the node that runs first. */
  readonly from: number;
  /** Index of the node that depends on it. */
  readonly to: number;
  /** Why the dependency exists. */
  readonly reasons: readonly DependencyReason[];
}

/** What a node touches, given to {@link DataflowTracker.add}. */
export interface NodeAccesses<N> {
  /** Resources (whole objects or {@link ResourceRange}s) the node reads. */
  readonly reads?: readonly object[];
  /** Resources (whole objects or {@link ResourceRange}s) the node writes. */
  readonly writes?: readonly object[];
  /** Earlier nodes this node must run after whatever it accesses. */
  readonly after?: readonly N[];
}

/** Options of a {@link DataflowTracker}. */
export interface DataflowTrackerOptions {
  /** How {@link DataflowTracker.describe} names a resource (default: its class name and a number, `DeviceBuffer#0`). */
  readonly nameOf?: (resource: object) => string;
}

/**
 * Infers the dependencies of nodes added one by one in program order from the
 * resources they read and write, keeping only those no other dependency
 * implies. The dependencies kept over all nodes are exactly the transitive
 * reduction of every hazard between them.
 *
 * Cost per node: the accesses' byte-range lookups (logarithmic in the number
 * of distinct ranges of the resource) plus, for the reduction, a bitset of the
 * node's ancestors (n/32 words, so memory grows as n²/64 words overall: about
 * 25 MB at 20,000 nodes).
 *
 * @typeParam N - what identifies a node for the caller (a builder's node object, a number).
 */
export class DataflowTracker<N = unknown> {
  private readonly addedNodes: N[] = [];
  private readonly indexByNode = new Map<N, number>();
  private readonly incoming: DataflowDependency<N>[][] = [];
  // The ancestor bitsets, one row per node in one array: row i (over indices
  // < i, the nodes node i runs after) is (i + 31) >>> 5 words from rowStart[i].
  // A typed array per node cost more than the rest of add() together.
  private bits = new Uint32Array(1024);
  private readonly rowStart: number[] = [];
  private used = 0;
  private readonly resources = new Map<object, ResourceState>();
  private readonly nameOf?: (resource: object) => string;

  constructor(options: DataflowTrackerOptions = noOptions) {
    checkObject(options, 'options');
    if (options.nameOf !== undefined && typeof options.nameOf !== 'function') {
      throw new TypeError('options.nameOf must be a function');
    }
    this.nameOf = options.nameOf;
  }

  /** The nodes added so far, in order of addition. */
  get nodes(): readonly N[] {
    return this.addedNodes;
  }

  /**
   * Adds the next node in program order and returns the earlier nodes it must
   * run after, fewest needed, in order of addition. Nothing changes when it throws.
   *
   * @param node - the new node; each node may be added once.
   * @param accesses - what it reads and writes, and explicit `after` dependencies.
   */
  add(node: N, accesses: NodeAccesses<N> = noOptions): DataflowDependency<N>[] {
    if (this.indexByNode.has(node)) throw new Error('node was already added to this tracker');
    checkObject(accesses, 'accesses');
    const reads = accessList(accesses.reads, 'reads');
    const writes = accessList(accesses.writes, 'writes');
    const after = accesses.after === undefined ? noItems : checkArray<N>(accesses.after, 'after').map((earlier, i) => {
      const index = this.indexByNode.get(earlier);
      if (index === undefined) throw new RangeError(`after[${i}] is not a node added to this tracker`);
      return index;
    });

    const self = this.addedNodes.length;
    const candidates = new Map<number, DependencyReason[]>();
    for (const index of after) {
      const reasons = reasonsFor(candidates, index);
      if (reasons.length === 0) reasons.push(EXPLICIT); // `after` may name a node twice
    }
    // The segments each access overlaps, visited in loops written out here:
    // a callback per access made three closures a node.
    for (const range of reads) {
      if (range.size === 0) continue;
      const state = this.stateOf(range.resource);
      const last = state.splitAround(range);
      for (let i = state.splitAt; i < last; i++) {
        const segment = state.segments[i];
        if (segment.writer >= 0) addHazard(candidates, segment.writer, 'read-after-write', range.resource, state.starts[i], state.endOf(i));
      }
    }
    for (const range of writes) {
      if (range.size === 0) continue;
      const state = this.stateOf(range.resource);
      const last = state.splitAround(range);
      for (let i = state.splitAt; i < last; i++) {
        const segment = state.segments[i];
        // Readers since the last write each run after that write already.
        if (segment.readers.length > 0) {
          for (const reader of segment.readers) addHazard(candidates, reader, 'write-after-read', range.resource, state.starts[i], state.endOf(i));
        } else if (segment.writer >= 0) {
          addHazard(candidates, segment.writer, 'write-after-write', range.resource, state.starts[i], state.endOf(i));
        }
      }
    }

    // A candidate is redundant when another, later candidate runs after it.
    // Going from the latest down, the ancestors of those kept so far cover
    // every candidate that some later candidate implies.
    const words = (self + 31) >>> 5;
    if (this.used + words > this.bits.length) {
      const grown = new Uint32Array(Math.max(2 * this.bits.length, this.used + words));
      grown.set(this.bits.subarray(0, this.used));
      this.bits = grown;
    }
    const bits = this.bits;
    const row = this.used; // this node's row: its ancestors, built from those of the dependencies kept
    bits.fill(0, row, row + words);
    const kept: DataflowDependency<N>[] = [];
    const order = Array.from(candidates.keys());
    if (order.length > 1) order.sort(descending);
    for (const index of order) {
      if (bits[row + (index >>> 5)] & (1 << (index & 31))) continue;
      const start = this.rowStart[index];
      const length = (index + 31) >>> 5;
      for (let k = 0; k < length; k++) bits[row + k] |= bits[start + k];
      bits[row + (index >>> 5)] |= 1 << (index & 31);
      kept.push({ node: this.addedNodes[index], index, reasons: candidates.get(index)! });
    }
    kept.reverse();

    for (const range of reads) {
      if (range.size === 0) continue;
      const state = this.stateOf(range.resource);
      const last = state.splitAround(range);
      for (let i = state.splitAt; i < last; i++) {
        const readers = state.segments[i].readers;
        if (readers[readers.length - 1] !== self) readers.push(self);
      }
    }
    for (const range of writes) this.overwrite(range, self);
    this.addedNodes.push(node);
    this.indexByNode.set(node, self);
    this.incoming.push(kept);
    this.rowStart.push(row);
    this.used += words;
    return kept.slice(); // a copy: the caller's changes must not reach edges()
  }

  /** The position of a node in order of addition (its id for the graph analysis functions), or -1. */
  indexOf(node: N): number {
    return this.indexByNode.get(node) ?? -1;
  }

  /** The dependencies kept for a node when it was added (none for a node not added). */
  dependenciesOf(node: N): readonly DataflowDependency<N>[] {
    return this.incoming[this.indexOf(node)] ?? [];
  }

  /** Every kept dependency, grouped by the dependent node in order of addition. */
  edges(): DataflowEdge[] {
    const edges: DataflowEdge[] = [];
    this.incoming.forEach((dependencies, to) => {
      for (const { index, reasons } of dependencies) edges.push({ from: index, to, reasons });
    });
    return edges;
  }

  /** A short readable form of a reason: `RAW DeviceBuffer#0[0, 64)`, `WAW weights`, `explicit`. */
  describe(reason: DependencyReason): string {
    if (reason.kind === 'explicit') return 'explicit';
    const { resource, offset, size, end } = reason.range;
    const whole = offset === 0 && size === Infinity;
    return `${HAZARD_ABBREVIATION[reason.kind]} ${this.resourceName(resource)}${whole ? '' : `[${offset}, ${size === Infinity ? 'end' : end})`}`;
  }

  private resourceName(resource: object): string {
    if (this.nameOf) return this.nameOf(resource);
    const state = this.resources.get(resource);
    return `${resource.constructor?.name || 'resource'}#${state ? state.ordinal : '?'}`;
  }

  // A write replaces the overlapped segments by one: written by `writer`, unread since.
  private overwrite(range: ResourceRange, writer: number): void {
    if (range.size === 0) return;
    const state = this.stateOf(range.resource);
    const last = state.splitAround(range);
    const first = state.splitAt;
    state.starts.splice(first + 1, last - first - 1);
    state.segments.splice(first, last - first, { writer, readers: [] });
  }

  private stateOf(resource: object): ResourceState {
    let state = this.resources.get(resource);
    if (!state) {
      state = new ResourceState(this.resources.size);
      this.resources.set(resource, state);
    }
    return state;
  }
}

// The last writer of some bytes and the nodes that read them since.
interface Segment {
  writer: number;
  readers: number[];
}

// A resource's bytes cut into segments with the same access history:
// segment i covers [starts[i], starts[i + 1]), the last one up to the end.
class ResourceState {
  readonly starts: number[] = [0];
  readonly segments: Segment[] = [{ writer: -1, readers: [] }];

  constructor(readonly ordinal: number) {}

  // Where the last splitAround's range starts: set with its result, so that no pair is allocated.
  splitAt = 0;

  // Splits the segments at the range's ends; returns the index of the first
  // segment after it (splitAt: of its first segment).
  splitAround(range: ResourceRange): number {
    const first = this.split(range.offset);
    const last = this.split(range.end);
    this.splitAt = first;
    return last;
  }

  // The end of segment i: the next one's start, or Infinity for the last.
  endOf(i: number): number {
    return i + 1 < this.starts.length ? this.starts[i + 1] : Infinity;
  }

  // The index of the segment that starts at `offset`, splitting the one containing it.
  split(offset: number): number {
    if (offset === Infinity) return this.starts.length;
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (this.starts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    if (this.starts[low] === offset) return low;
    const { writer, readers } = this.segments[low];
    this.starts.splice(low + 1, 0, offset);
    this.segments.splice(low + 1, 0, { writer, readers: readers.slice() });
    return low + 1;
  }
}

const EXPLICIT: DependencyReason = { kind: 'explicit' };

const descending = (a: number, b: number): number => b - a;

const HAZARD_ABBREVIATION: Record<HazardKind, string> = {
  'read-after-write': 'RAW',
  'write-after-read': 'WAR',
  'write-after-write': 'WAW',
};

// The accesses as ranges; an element's name is formatted only for its error.
function accessList(value: readonly object[] | undefined, name: string): ResourceRange[] {
  if (value === undefined) return [];
  const accesses = checkArray<unknown>(value, name);
  const ranges: ResourceRange[] = [];
  for (let i = 0; i < accesses.length; i++) {
    const access = accesses[i];
    if (access instanceof ResourceRange) ranges.push(access);
    else if (access !== null && (typeof access === 'object' || typeof access === 'function')) ranges.push(new ResourceRange(access));
    else checkObject(access, `${name}[${i}]`); // throws
  }
  return ranges;
}

function reasonsFor(candidates: Map<number, DependencyReason[]>, index: number): DependencyReason[] {
  let reasons = candidates.get(index);
  if (!reasons) {
    reasons = [];
    candidates.set(index, reasons);
  }
  return reasons;
}

// Records a hazard on [start, end) of a resource, joining it to the previous
// reason when that one is the same hazard on the bytes just before.
function addHazard(candidates: Map<number, DependencyReason[]>, index: number, kind: HazardKind, resource: object, start: number, end: number): void {
  const reasons = reasonsFor(candidates, index);
  const previous = reasons[reasons.length - 1];
  if (previous && previous.kind === kind && previous.range.resource === resource && previous.range.end === start) {
    reasons[reasons.length - 1] = { kind, range: rangeOf(resource, previous.range.offset, end) };
  } else {
    reasons.push({ kind, range: rangeOf(resource, start, end) });
  }
}

function rangeOf(resource: object, start: number, end: number): ResourceRange {
  return new ResourceRange(resource, start, end === Infinity ? undefined : end - start);
}
