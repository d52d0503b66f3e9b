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
 * 25 MB at 20,000 nodes). What is kept of a dependency (its node, and each
 * reason's kind, resource and byte range) takes a few words of typed arrays;
 * the objects {@link DataflowTracker.add}, {@link DataflowTracker.dependenciesOf}
 * and {@link DataflowTracker.edges} hand out are made from them for a node on
 * first demand, then kept.
 *
 * @typeParam N - what identifies a node for the caller (a builder's node object, a number).
 */
export class DataflowTracker<N = unknown> {
  private readonly addedNodes: N[] = [];
  private readonly indexByNode = new Map<N, number>();
  // Set by positional(): each node is its own position, and indexByNode stays
  // empty (its entry per node was a tenth of a data-flow graph build's time).
  private nodesArePositions = false;
  // What the tracker keeps of node i: NODE_FIELDS words of nodeTable from
  // NODE_FIELDS * i (the constants below name them). Typed arrays, and few of
  // them: an object per dependency, reason and range came to ~1,000 bytes of
  // heap per node of a chain, all long-lived, so that every scavenge copied
  // it again; but each ArrayBuffer made costs microseconds, several nodes'
  // worth of add().
  private nodeTable: Int32Array;
  // Node i's dependencies from nodeTable's KEPT_AT: their count, then for
  // each in order of addition its node index, its count of reasons and for
  // each reason its code (hazard kind + 4 × resource ordinal), start and end.
  private kept: Float64Array;
  private keptLength = 0;
  // The objects handed out for node i's dependencies, once asked for: add()
  // and dependenciesOf() give the same ones.
  private readonly handedOut: (readonly DataflowDependency<N>[] | undefined)[] = [];
  // The ancestor bitsets: row i (over indices < i, the nodes node i runs
  // after) is (i + 31) >>> 5 words from word ROW_START of chunk ROW_CHUNK.
  // A typed array per node cost more than the rest of add() together; one
  // array doubled and copied as it filled allocated twice its final size
  // (124 KB for the 62 KB of 1000 nodes), so a full chunk is followed by a
  // new one as large as all before it, and none is copied.
  // Chunks past `current` are a recycled tracker's, zeroed, taken in turn.
  private readonly chunks: Uint32Array[];
  private current = 0; // the chunk new rows go into
  private bits: Uint32Array; // chunks[current]
  private used = 0; // its words taken
  private readonly resources = new Map<object, ResourceState>();
  // The resources by ordinal, for the reasons' codes.
  private readonly resourceByOrdinal: object[] = [];
  // The resource looked up last and its state: nodes often touch the same
  // buffer as the one before, and each access is visited twice.
  private lastResource: object | undefined;
  private lastState: ResourceState | undefined;
  // Scratch of one add(), reused so that it makes no objects: the nodes the
  // new node may depend on, candidateCount of them, and the reasons found so
  // far, pendingCount of them, each candidate's a list from its node's
  // FIRST_PENDING to its LAST_PENDING linked through pendingNext (-1 ends it).
  private readonly candidates: number[] = [];
  private candidateCount = 0;
  private readonly pendingCode: number[] = [];
  private readonly pendingStart: number[] = [];
  private readonly pendingEnd: number[] = [];
  private readonly pendingNext: number[] = [];
  private pendingCount = 0;
  // What addQuick() returns.
  private readonly found: N[] = [];
  private readonly nameOf?: (resource: object) => string;

  constructor(options: DataflowTrackerOptions = noOptions) {
    checkObject(options, 'options');
    if (options.nameOf !== undefined && typeof options.nameOf !== 'function') {
      throw new TypeError('options.nameOf must be a function');
    }
    this.nameOf = options.nameOf;
    const reused = spare;
    spare = undefined;
    this.nodeTable = reused?.nodeTable ?? new Int32Array(NODE_FIELDS * INITIAL_NODES);
    this.kept = reused?.kept ?? new Float64Array((3 + 2 * REASON_FIELDS) * INITIAL_NODES);
    this.chunks = reused?.chunks ?? [new Uint32Array(1024)];
    this.bits = this.chunks[0];
  }

  /**
   * @internal Hands this tracker's typed arrays, cleared, to the next tracker
   * made (a disposed graph's tracker, never used again): a graph built after
   * another then makes none of the ArrayBuffers its tracker grows through.
   */
  recycle(): void {
    this.nodeTable.fill(0, 0, NODE_FIELDS * this.addedNodes.length);
    for (let c = 0; c <= this.current; c++) this.chunks[c].fill(0);
    spare = { nodeTable: this.nodeTable, kept: this.kept, chunks: this.chunks };
  }

  /**
   * @internal A tracker whose nodes are their positions in order of addition
   * (0, 1, 2, ...), as the graph builder numbers them: each add() names the
   * next position, and no node is looked up in a map.
   */
  static positional(options: DataflowTrackerOptions = noOptions): DataflowTracker<number> {
    const tracker = new DataflowTracker<number>(options);
    tracker.nodesArePositions = true;
    return tracker;
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
    this.checkNew(node);
    checkObject(accesses, 'accesses');
    this.insert(node, accesses.reads, accesses.writes, accesses.after);
    return this.dependencyList(this.addedNodes.length - 1).slice(); // a copy: the caller's changes must not reach dependenciesOf()
  }

  /**
   * @internal The graph builder's {@link DataflowTracker.add}: the same checks,
   * errors and stored state, but it returns only the dependencies' nodes, in
   * order of addition, in an array the tracker reuses: valid until the next
   * addQuick(). It makes no objects in the common case, where add() makes each
   * dependency, its reasons and their ranges.
   */
  addQuick(node: N, reads: readonly object[], writes: readonly object[], after: readonly N[]): readonly N[] {
    this.checkNew(node);
    this.insert(node, reads, writes, after);
    const kept = this.kept;
    let at = this.nodeTable[NODE_FIELDS * (this.addedNodes.length - 1) + KEPT_AT];
    const count = kept[at++];
    // Not found.length = 0: that drops the array's backing store, and the next call makes one.
    if (count === 0) return noItems;
    const found = this.found;
    for (let k = 0; k < count; k++, at += 2 + REASON_FIELDS * kept[at + 1]) found[k] = this.addedNodes[kept[at]];
    if (found.length !== count) found.length = count; // a call to the runtime, a twentieth of addQuick()
    return found;
  }

  /** The position of a node in order of addition (its id for the graph analysis functions), or -1. */
  indexOf(node: N): number {
    return this.positionOf(node) ?? -1;
  }

  /** The dependencies kept for a node when it was added (none for a node not added). */
  dependenciesOf(node: N): readonly DataflowDependency<N>[] {
    const index = this.indexOf(node);
    return index < 0 ? [] : this.dependencyList(index);
  }

  /** Every kept dependency, grouped by the dependent node in order of addition. */
  edges(): DataflowEdge[] {
    const edges: DataflowEdge[] = [];
    for (let to = 0; to < this.addedNodes.length; to++) {
      for (const { index, reasons } of this.dependencyList(to)) edges.push({ from: index, to, reasons });
    }
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

  private positionOf(node: N): number | undefined {
    if (!this.nodesArePositions) return this.indexByNode.get(node);
    const position = node as unknown as number;
    return Number.isInteger(position) && position >= 0 && position < this.addedNodes.length ? position : undefined;
  }

  private checkNew(node: N): void {
    if (this.nodesArePositions ? (node as unknown) !== this.addedNodes.length : this.indexByNode.has(node)) {
      throw new Error(this.nodesArePositions ? 'node must be the next position' : 'node was already added to this tracker');
    }
  }

  // add() past the node's own check: checks the accesses, then finds and
  // keeps the dependencies and records the accesses.
  private insert(node: N, readList: readonly object[] | undefined, writeList: readonly object[] | undefined, afterList: readonly N[] | undefined): void {
    const reads = checkAccesses(readList, 'reads');
    const writes = checkAccesses(writeList, 'writes');
    const after = afterList === undefined ? noItems : checkArray<N>(afterList, 'after');
    for (let i = 0; i < after.length; i++) {
      if (this.positionOf(after[i]) === undefined) throw new RangeError(`after[${i}] is not a node added to this tracker`);
    }

    // Room for this node. Past this point nothing throws: the candidates
    // found below are cleared only at the end.
    const self = this.addedNodes.length;
    this.nodeTable = withRoom(this.nodeTable, NODE_FIELDS * (self + 1));
    const words = (self + 31) >>> 5;
    if (this.used + words > this.bits.length) {
      const next = this.current + 1;
      if (next === this.chunks.length || this.chunks[next].length < words) {
        let total = 0;
        for (let c = 0; c < next; c++) total += this.chunks[c].length;
        this.chunks[next] = new Uint32Array(Math.max(total, words));
      }
      this.current = next;
      this.bits = this.chunks[next];
      this.used = 0;
    }

    for (let i = 0; i < after.length; i++) {
      const index = this.positionOf(after[i])!;
      if (this.nodeTable[NODE_FIELDS * index + FIRST_PENDING] === 0) this.addReason(index, EXPLICIT, 0, 0); // `after` may name a node twice
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
    const nodeTable = this.nodeTable;
    const bits = this.bits;
    // This node's row: its ancestors, built from those of the dependencies
    // kept. It is still zero: rows past `used` have never been written.
    const row = this.used;
    let keptCount = 0;
    for (let c = count - 1; c >= 0; c--) {
      const index = candidates[c];
      if (bits[row + (index >>> 5)] & (1 << (index & 31))) {
        nodeTable[NODE_FIELDS * index + FIRST_PENDING] = 0;
        continue;
      }
      const ancestors = this.chunks[nodeTable[NODE_FIELDS * index + ROW_CHUNK]];
      const start = nodeTable[NODE_FIELDS * index + ROW_START];
      const length = (index + 31) >>> 5;
      for (let k = 0; k < length; k++) bits[row + k] |= ancestors[start + k];
      bits[row + (index >>> 5)] |= 1 << (index & 31);
      candidates[count - ++keptCount] = index; // the kept gather at the end, in increasing order
    }
    this.keep(self, count - keptCount, count);
    this.candidateCount = 0;
    this.pendingCount = 0;

    for (let i = 0; i < reads.length; i++) this.visit(reads[i], 'record read', self);
    for (let i = 0; i < writes.length; i++) this.visit(writes[i], 'record write', self);
    this.addedNodes.push(node);
    if (!this.nodesArePositions) this.indexByNode.set(node, self);
    nodeTable[NODE_FIELDS * self + ROW_CHUNK] = this.current;
    nodeTable[NODE_FIELDS * self + ROW_START] = row;
    this.used += words;
  }

  // Stores candidates[from .. to) as node self's dependencies, with their
  // pending reasons, and makes them candidates no more.
  private keep(self: number, from: number, to: number): void {
    let at = this.keptLength;
    this.kept = withRoom(this.kept, at + 1 + 2 * (to - from) + REASON_FIELDS * this.pendingCount);
    const { kept, nodeTable } = this;
    nodeTable[NODE_FIELDS * self + KEPT_AT] = at;
    kept[at++] = to - from;
    for (let c = from; c < to; c++) {
      const index = this.candidates[c];
      kept[at++] = index;
      const countAt = at++;
      let reasons = 0;
      for (let r = nodeTable[NODE_FIELDS * index + FIRST_PENDING] - 1; r >= 0; r = this.pendingNext[r], reasons++) {
        kept[at++] = this.pendingCode[r];
        kept[at++] = this.pendingStart[r];
        kept[at++] = this.pendingEnd[r];
      }
      kept[countAt] = reasons;
      nodeTable[NODE_FIELDS * index + FIRST_PENDING] = 0;
    }
    this.keptLength = at;
  }

  // The objects for node `index`'s dependencies, made from what keep() stored
  // the first time they are asked for.
  private dependencyList(index: number): readonly DataflowDependency<N>[] {
    let list = this.handedOut[index];
    if (list === undefined) {
      // Arrays of their final length: a push onto [] makes room for 17.
      const kept = this.kept;
      let at = this.nodeTable[NODE_FIELDS * index + KEPT_AT];
      const made = new Array<DataflowDependency<N>>(kept[at++]);
      for (let d = 0; d < made.length; d++) {
        const dependency = kept[at++];
        const reasons = new Array<DependencyReason>(kept[at++]);
        for (let r = 0; r < reasons.length; r++, at += REASON_FIELDS) reasons[r] = this.reasonAt(at);
        made[d] = { node: this.addedNodes[dependency], index: dependency, reasons };
      }
      this.handedOut[index] = list = made;
    }
    return list;
  }

  // The reason stored at kept[at].
  private reasonAt(at: number): DependencyReason {
    const code = this.kept[at];
    if (code === EXPLICIT) return EXPLICIT_REASON;
    return { kind: HAZARD_KINDS[code & 3], range: rangeOf(this.resourceByOrdinal[code >>> 2], this.kept[at + 1], this.kept[at + 2]) };
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
      // since; the first is reused, as segments are never handed out, and so
      // is its readers array (a new one per write, and room for 17 on the first
      // read, were ~90 of the ~1,000 bytes add() made per node of a chain).
      if (last - first > 1) {
        removeAt(starts, first + 1, last - first - 1);
        removeAt(segments, first + 1, last - first - 1);
      }
      segments[first].writer = self;
      segments[first].readerCount = 0;
      return;
    }
    const resourceCode = 4 * state.ordinal;
    for (let i = first; i < last; i++) {
      const segment = segments[i];
      if (step === 'record read') {
        const count = segment.readerCount;
        if (count === 0 || segment.readers[count - 1] !== self) {
          // [self], not a push onto [], which makes room for 17.
          if (segment.readers === NO_READERS) segment.readers = [self];
          else segment.readers[count] = self;
          segment.readerCount = count + 1;
        }
        continue;
      }
      const start = starts[i];
      const stop = i + 1 < starts.length ? starts[i + 1] : Infinity;
      if (step === 'read hazards') {
        if (segment.writer >= 0) this.addHazard(segment.writer, resourceCode + RAW, start, stop);
      } else if (segment.readerCount > 0) {
        // Readers since the last write each run after that write already.
        for (let r = 0; r < segment.readerCount; r++) this.addHazard(segment.readers[r], resourceCode + WAR, start, stop);
      } else if (segment.writer >= 0) {
        this.addHazard(segment.writer, resourceCode + WAW, start, stop);
      }
    }
  }

  // Records a hazard (a reason code) on [start, end) of a resource, joining
  // it to the candidate's previous reason when that one is the same hazard on
  // the bytes just before.
  private addHazard(index: number, code: number, start: number, end: number): void {
    const previous = this.nodeTable[NODE_FIELDS * index + LAST_PENDING];
    if (this.nodeTable[NODE_FIELDS * index + FIRST_PENDING] !== 0 && this.pendingCode[previous] === code && this.pendingEnd[previous] === start) {
      this.pendingEnd[previous] = end;
    } else {
      this.addReason(index, code, start, end);
    }
  }

  // Appends a reason to depend on node `index`, making it a candidate.
  private addReason(index: number, code: number, start: number, end: number): void {
    const reason = this.pendingCount++;
    this.pendingCode[reason] = code;
    this.pendingStart[reason] = start;
    this.pendingEnd[reason] = end;
    this.pendingNext[reason] = -1;
    const fields = NODE_FIELDS * index;
    if (this.nodeTable[fields + FIRST_PENDING] === 0) {
      this.nodeTable[fields + FIRST_PENDING] = reason + 1;
      this.candidates[this.candidateCount++] = index;
    } else {
      this.pendingNext[this.nodeTable[fields + LAST_PENDING]] = reason;
    }
    this.nodeTable[fields + LAST_PENDING] = reason;
  }

  private stateOf(resource: object): ResourceState {
    if (resource === this.lastResource) return this.lastState!;
    let state = this.resources.get(resource);
    if (!state) {
      state = new ResourceState(this.resources.size);
      this.resources.set(resource, state);
      this.resourceByOrdinal.push(resource);
    }
    this.lastResource = resource;
    this.lastState = state;
    return state;
  }
}

// Room for this many nodes (with a dependency and two reasons each, as in a
// chain of in-place updates) before the typed arrays first grow; each then doubles.
const INITIAL_NODES = 32;

// The fields of node i in nodeTable, from NODE_FIELDS * i: its ancestor
// row's chunk and first word there, where its dependencies start in `kept`,
// and in add(), while it is a candidate, 1 + its first pending reason (0 when
// it is not a candidate) and its last.
const ROW_CHUNK = 0;
const ROW_START = 1;
const KEPT_AT = 2;
const FIRST_PENDING = 3;
const LAST_PENDING = 4;
const NODE_FIELDS = 5;

// Numbers per reason in `kept`: code, start, end.
const REASON_FIELDS = 3;

// A disposed graph's tracker's typed arrays (DataflowTracker.recycle), for the
// next tracker: each ArrayBuffer made costs microseconds, and a tracker of a
// 1000-node graph grows through some fifteen of them.
let spare: { nodeTable: Int32Array; kept: Float64Array; chunks: Uint32Array[] } | undefined;

// A typed array with room for `length` elements: itself, or a copy at least
// twice as long.
function withRoom<T extends Int32Array | Float64Array>(array: T, length: number): T {
  if (length <= array.length) return array;
  const copy = new (array.constructor as new (length: number) => T)(Math.max(2 * array.length, length));
  copy.set(array);
  return copy;
}

// The last writer of some bytes and the first readerCount of `readers`, the
// nodes that read them since: a write sets the count to 0 and keeps the array.
interface Segment {
  writer: number;
  readers: number[];
  readerCount: number;
}

// The readers of a segment never read, shared until its first reader
// replaces it (never written to): a split copies no empty array.
const NO_READERS: number[] = [];

// A resource's bytes cut into segments with the same access history:
// segment i covers [starts[i], starts[i + 1]), the last one up to the end.
class ResourceState {
  readonly starts: number[] = [0];
  readonly segments: Segment[] = [{ writer: -1, readers: NO_READERS, readerCount: 0 }];

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
    const { writer, readers, readerCount } = this.segments[low];
    insertAt(this.starts, low + 1, offset);
    insertAt(this.segments, low + 1, { writer, readers: readerCount === 0 ? NO_READERS : readers.slice(0, readerCount), readerCount });
    return low + 1;
  }
}

// array.splice(index, 0, value) without its cost: about 3 times this loop's
// on arrays of a few elements, a fifth of add() where ranges split often.
function insertAt<T>(array: T[], index: number, value: T): void {
  for (let i = array.length; i > index; i--) array[i] = array[i - 1];
  array[index] = value;
}

// array.splice(index, count) without the array of removed elements it makes.
function removeAt<T>(array: T[], index: number, count: number): void {
  for (let i = index; i + count < array.length; i++) array[i] = array[i + count];
  array.length -= count;
}

// Reason codes: the hazard kind (an index of HAZARD_KINDS), or EXPLICIT, plus
// 4 × the resource's ordinal.
const RAW = 0;
const WAR = 1;
const WAW = 2;
const EXPLICIT = 3;
const HAZARD_KINDS: readonly HazardKind[] = ['read-after-write', 'write-after-read', 'write-after-write'];

const EXPLICIT_REASON: DependencyReason = { kind: 'explicit' };

// What DataflowTracker.visit does with the segments an access overlaps.
type VisitStep = 'read hazards' | 'write hazards' | 'record read' | 'record write';

const HAZARD_ABBREVIATION: Record<HazardKind, string> = {
  'read-after-write': 'RAW',
  'write-after-read': 'WAR',
  'write-after-write': 'WAW',
};

// A node's reads or writes: ResourceRanges and whole resources, as given.
// Only a bad element pays for its name: making `reads[0]` for every element
// was 150 of the 1,000 bytes add() made per node of a chain.
function checkAccesses(value: readonly object[] | undefined, name: string): readonly object[] {
  if (value === undefined) return noItems;
  const accesses = checkArray<object>(value, name);
  for (let i = 0; i < accesses.length; i++) {
    const access: unknown = accesses[i];
    if (access === null || (typeof access !== 'object' && typeof access !== 'function')) checkObject(access, `${name}[${i}]`);
  }
  return accesses;
}

// A range of bytes a handed-out reason holds, already checked: made by the
// constructor all the same, so it is shaped as any other.
function rangeOf(resource: object, start: number, end: number): ResourceRange {
  makingCheckedRange = true;
  const range = new ResourceRange(resource, start, end - start);
  makingCheckedRange = false;
  return range;
}
