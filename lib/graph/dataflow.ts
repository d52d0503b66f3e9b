// Edges inferred from what nodes read and write. Nodes arrive in program order;
// each new node must run after the earlier nodes whose accesses conflict with
// its own (read-after-write, write-after-read, write-after-write on
// overlapping bytes of one resource). Only the dependencies no other
// dependency already implies are kept, so the result is the transitive
// reduction of all the hazards, built one node at a time.
import { checkArray, checkObject, checkSize, noItems, noOptions } from '../validate';

// Set while rangeOf makes a range of values known good: the constructor then
// skips its checks, which cost a sixth of add() where hazards are many.
let makingCheckedRange = false;

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
    if (makingCheckedRange) {
      this.resource = resource;
      this.offset = offset as number;
      this.size = size as number;
      return;
    }
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
  // The resource looked up last and its state: nodes often touch the same
  // buffer as the one before, and each access is visited twice.
  private lastResource: object | undefined;
  private lastState: ResourceState | undefined;
  // The nodes the node being added may depend on, candidateCount of them, and
  // by node index the reasons found for each (undefined outside add()).
  private readonly candidates: number[] = [];
  private candidateCount = 0;
  private readonly pendingReasons: (DependencyReason[] | undefined)[] = [];
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
    const reads = checkAccesses(accesses.reads, 'reads');
    const writes = checkAccesses(accesses.writes, 'writes');
    const after = accesses.after === undefined ? noItems : checkArray<N>(accesses.after, 'after');
    for (let i = 0; i < after.length; i++) {
      if (!this.indexByNode.has(after[i])) throw new RangeError(`after[${i}] is not a node added to this tracker`);
    }

    // Room for this node's row of ancestors. Past this point nothing throws:
    // the candidates found below are cleared only at the end.
    const self = this.addedNodes.length;
    const words = (self + 31) >>> 5;
    if (this.used + words > this.bits.length) {
      const grown = new Uint32Array(Math.max(2 * this.bits.length, this.used + words));
      grown.set(this.bits.subarray(0, this.used));
      this.bits = grown;
    }

    for (let i = 0; i < after.length; i++) {
      const reasons = this.reasonsFor(this.indexByNode.get(after[i])!);
      if (reasons.length === 0) reasons.push(EXPLICIT); // `after` may name a node twice
    }
    for (let i = 0; i < reads.length; i++) this.visit(reads[i], 'read hazards', self);
    for (let i = 0; i < writes.length; i++) this.visit(writes[i], 'write hazards', self);

    // A candidate is redundant when another, later candidate runs after it.
    // Going from the latest down, the ancestors of those kept so far cover
    // every candidate that some later candidate implies.
    const candidates = this.candidates;
    const count = this.candidateCount;
    // Insertion sort: there are seldom more than two, and a writer's readers come in increasing order.
    for (let i = 1; i < count; i++) {
      const index = candidates[i];
      let j = i - 1;
      for (; j >= 0 && candidates[j] > index; j--) candidates[j + 1] = candidates[j];
      candidates[j + 1] = index;
    }
    const bits = this.bits;
    // This node's row: its ancestors, built from those of the dependencies
    // kept. It is still zero: rows past `used` have never been written.
    const row = this.used;
    const kept: DataflowDependency<N>[] = [];
    for (let c = count - 1; c >= 0; c--) {
      const index = candidates[c];
      const reasons = this.pendingReasons[index]!;
      this.pendingReasons[index] = undefined;
      if (bits[row + (index >>> 5)] & (1 << (index & 31))) continue;
      const start = this.rowStart[index];
      const length = (index + 31) >>> 5;
      for (let k = 0; k < length; k++) bits[row + k] |= bits[start + k];
      bits[row + (index >>> 5)] |= 1 << (index & 31);
      kept.push({ node: this.addedNodes[index], index, reasons });
    }
    this.candidateCount = 0;
    kept.reverse();

    for (let i = 0; i < reads.length; i++) this.visit(reads[i], 'record read', self);
    for (let i = 0; i < writes.length; i++) this.visit(writes[i], 'record write', self);
    this.addedNodes.push(node);
    this.indexByNode.set(node, self);
    this.incoming.push(kept);
    this.rowStart.push(row);
    this.pendingReasons.push(undefined);
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

  // Splits the accessed resource's segments at the access's ends, then finds
  // the hazards of the access with earlier nodes or records it as the latest.
  // One method without callbacks: this runs twice per access of every node.
  private visit(access: object, step: VisitStep, self: number): void {
    let resource = access;
    let offset = 0;
    let end = Infinity;
    if (access instanceof ResourceRange) {
      if (access.size === 0) return;
      resource = access.resource;
      offset = access.offset;
      end = access.end;
    }
    const state = this.stateOf(resource);
    const first = state.split(offset);
    const last = state.split(end);
    const { starts, segments } = state;
    if (step === 'record write') {
      // The written segments become one, written by this node and unread
      // since; the first is reused, as segments are never handed out.
      if (last - first > 1) {
        starts.splice(first + 1, last - first - 1);
        segments.splice(first + 1, last - first - 1);
      }
      segments[first].writer = self;
      segments[first].readers = [];
      return;
    }
    for (let i = first; i < last; i++) {
      const segment = segments[i];
      if (step === 'record read') {
        // Not readers[-1] when empty: a slow named-property lookup.
        const readers = segment.readers;
        if (readers.length === 0 || readers[readers.length - 1] !== self) readers.push(self);
        continue;
      }
      const start = starts[i];
      const stop = i + 1 < starts.length ? starts[i + 1] : Infinity;
      if (step === 'read hazards') {
        if (segment.writer >= 0) this.addHazard(segment.writer, 'read-after-write', resource, start, stop);
      } else if (segment.readers.length > 0) {
        // Readers since the last write each run after that write already.
        for (const reader of segment.readers) this.addHazard(reader, 'write-after-read', resource, start, stop);
      } else if (segment.writer >= 0) {
        this.addHazard(segment.writer, 'write-after-write', resource, start, stop);
      }
    }
  }

  // Records a hazard on [start, end) of a resource, joining it to the previous
  // reason when that one is the same hazard on the bytes just before.
  private addHazard(index: number, kind: HazardKind, resource: object, start: number, end: number): void {
    const reasons = this.reasonsFor(index);
    const previous = reasons.length > 0 ? reasons[reasons.length - 1] : undefined; // not reasons[-1], as above
    if (previous && previous.kind === kind && previous.range.resource === resource && previous.range.end === start) {
      reasons[reasons.length - 1] = { kind, range: rangeOf(resource, previous.range.offset, end) };
    } else {
      reasons.push({ kind, range: rangeOf(resource, start, end) });
    }
  }

  // The reasons found so far in this add() for depending on node `index`,
  // making it a candidate.
  private reasonsFor(index: number): DependencyReason[] {
    let reasons = this.pendingReasons[index];
    if (reasons === undefined) {
      reasons = [];
      this.pendingReasons[index] = reasons;
      this.candidates[this.candidateCount++] = index;
    }
    return reasons;
  }

  private stateOf(resource: object): ResourceState {
    if (resource === this.lastResource) return this.lastState!;
    let state = this.resources.get(resource);
    if (!state) {
      state = new ResourceState(this.resources.size);
      this.resources.set(resource, state);
    }
    this.lastResource = resource;
    this.lastState = state;
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
    insertAt(this.starts, low + 1, offset);
    insertAt(this.segments, low + 1, { writer, readers: readers.slice() });
    return low + 1;
  }
}

// array.splice(index, 0, value) without its cost: about 3 times this loop's
// on arrays of a few elements, a fifth of add() where ranges split often.
function insertAt<T>(array: T[], index: number, value: T): void {
  for (let i = array.length; i > index; i--) array[i] = array[i - 1];
  array[index] = value;
}

const EXPLICIT: DependencyReason = { kind: 'explicit' };

// What DataflowTracker.visit does with the segments an access overlaps.
type VisitStep = 'read hazards' | 'write hazards' | 'record read' | 'record write';

const HAZARD_ABBREVIATION: Record<HazardKind, string> = {
  'read-after-write': 'RAW',
  'write-after-read': 'WAR',
  'write-after-write': 'WAW',
};

// A node's reads or writes: ResourceRanges and whole resources, as given.
function checkAccesses(value: readonly object[] | undefined, name: string): readonly object[] {
  if (value === undefined) return noItems;
  const accesses = checkArray<object>(value, name);
  for (let i = 0; i < accesses.length; i++) {
    if (!(accesses[i] instanceof ResourceRange)) checkObject(accesses[i], `${name}[${i}]`);
  }
  return accesses;
}

// A range of bytes the tracker holds (one per hazard reason), already checked:
// made by the constructor all the same, so it is shaped as any other.
function rangeOf(resource: object, start: number, end: number): ResourceRange {
  makingCheckedRange = true;
  const range = new ResourceRange(resource, start, end - start);
  makingCheckedRange = false;
  return range;
}
