"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DataflowTracker = exports.ResourceRange = void 0;
// Edges inferred from what nodes read and write. Nodes arrive in program order;
// each new node must run after the earlier nodes whose accesses conflict with
// its own (read-after-write, write-after-read, write-after-write on
// overlapping bytes of one resource). Only the dependencies no other
// dependency already implies are kept, so the result is the transitive
// reduction of all the hazards, built one node at a time.
const validate_1 = require("../validate");
/**
 * A byte range of a resource (any object, compared by identity: a device
 * buffer, say). Accesses to disjoint ranges of one resource do not conflict.
 * A resource given without a range stands for all of it.
 */
class ResourceRange {
    /** The object accessed. */
    resource;
    /** First byte of the range. */
    offset;
    /** Bytes in the range; Infinity when it runs to the end of the resource. */
    size;
    /**
     * @param resource - the object accessed (not itself a ResourceRange).
     * @param offset - first byte (default 0).
     * @param size - number of bytes (default: up to the end of the resource).
     */
    constructor(resource, offset = 0, size) {
        (0, validate_1.checkObject)(resource, 'resource');
        if (resource instanceof ResourceRange)
            throw new TypeError('resource must be the accessed object, not a ResourceRange');
        this.resource = resource;
        this.offset = (0, validate_1.checkSize)(offset, 'offset');
        this.size = size === undefined ? Infinity : (0, validate_1.checkSize)(size, 'size');
    }
    /** One past the last byte (Infinity when the range runs to the end). */
    get end() {
        return this.offset + this.size;
    }
}
exports.ResourceRange = ResourceRange;
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
class DataflowTracker {
    addedNodes = [];
    indexByNode = new Map();
    incoming = [];
    // ancestors[i]: bitset over indices < i of the nodes node i runs after.
    ancestors = [];
    resources = new Map();
    nameOf;
    constructor(options = {}) {
        (0, validate_1.checkObject)(options, 'options');
        if (options.nameOf !== undefined && typeof options.nameOf !== 'function') {
            throw new TypeError('options.nameOf must be a function');
        }
        this.nameOf = options.nameOf;
    }
    /** The nodes added so far, in order of addition. */
    get nodes() {
        return this.addedNodes;
    }
    /**
     * Adds the next node in program order and returns the earlier nodes it must
     * run after, fewest needed, in order of addition. Nothing changes when it throws.
     *
     * @param node - the new node; each node may be added once.
     * @param accesses - what it reads and writes, and explicit `after` dependencies.
     */
    add(node, accesses = {}) {
        if (this.indexByNode.has(node))
            throw new Error('node was already added to this tracker');
        (0, validate_1.checkObject)(accesses, 'accesses');
        const reads = accessList(accesses.reads, 'reads');
        const writes = accessList(accesses.writes, 'writes');
        const after = accesses.after === undefined ? [] : (0, validate_1.checkArray)(accesses.after, 'after').map((earlier, i) => {
            const index = this.indexByNode.get(earlier);
            if (index === undefined)
                throw new RangeError(`after[${i}] is not a node added to this tracker`);
            return index;
        });
        const self = this.addedNodes.length;
        const candidates = new Map();
        for (const index of after) {
            const reasons = reasonsFor(candidates, index);
            if (reasons.length === 0)
                reasons.push(EXPLICIT); // `after` may name a node twice
        }
        for (const range of reads) {
            this.forEachSegment(range, (segment, start, end) => {
                if (segment.writer >= 0)
                    addHazard(candidates, segment.writer, 'read-after-write', range.resource, start, end);
            });
        }
        for (const range of writes) {
            this.forEachSegment(range, (segment, start, end) => {
                // Readers since the last write each run after that write already.
                if (segment.readers.length > 0) {
                    for (const reader of segment.readers)
                        addHazard(candidates, reader, 'write-after-read', range.resource, start, end);
                }
                else if (segment.writer >= 0) {
                    addHazard(candidates, segment.writer, 'write-after-write', range.resource, start, end);
                }
            });
        }
        // A candidate is redundant when another, later candidate runs after it.
        // Going from the latest down, the ancestors of those kept so far cover
        // every candidate that some later candidate implies.
        const covered = new Uint32Array((self + 31) >>> 5);
        const kept = [];
        for (const index of [...candidates.keys()].sort((a, b) => b - a)) {
            if (covered[index >>> 5] & (1 << (index & 31)))
                continue;
            const ancestors = this.ancestors[index];
            for (let k = 0; k < ancestors.length; k++)
                covered[k] |= ancestors[k];
            covered[index >>> 5] |= 1 << (index & 31);
            kept.push({ node: this.addedNodes[index], index, reasons: candidates.get(index) });
        }
        kept.reverse();
        for (const range of reads) {
            this.forEachSegment(range, (segment) => {
                if (segment.readers[segment.readers.length - 1] !== self)
                    segment.readers.push(self);
            });
        }
        for (const range of writes)
            this.overwrite(range, self);
        this.addedNodes.push(node);
        this.indexByNode.set(node, self);
        this.incoming.push(kept);
        this.ancestors.push(covered);
        return [...kept]; // a copy: the caller's changes must not reach edges()
    }
    /** The position of a node in order of addition (its id for the graph analysis functions), or -1. */
    indexOf(node) {
        return this.indexByNode.get(node) ?? -1;
    }
    /** Every kept dependency, grouped by the dependent node in order of addition. */
    edges() {
        const edges = [];
        this.incoming.forEach((dependencies, to) => {
            for (const { index, reasons } of dependencies)
                edges.push({ from: index, to, reasons });
        });
        return edges;
    }
    /** A short readable form of a reason: `RAW DeviceBuffer#0[0, 64)`, `WAW weights`, `explicit`. */
    describe(reason) {
        if (reason.kind === 'explicit')
            return 'explicit';
        const { resource, offset, size, end } = reason.range;
        const whole = offset === 0 && size === Infinity;
        return `${HAZARD_ABBREVIATION[reason.kind]} ${this.resourceName(resource)}${whole ? '' : `[${offset}, ${size === Infinity ? 'end' : end})`}`;
    }
    resourceName(resource) {
        if (this.nameOf)
            return this.nameOf(resource);
        const state = this.resources.get(resource);
        return `${resource.constructor?.name || 'resource'}#${state ? state.ordinal : '?'}`;
    }
    // Calls visit for each segment of the resource that the range overlaps, with
    // the overlap, splitting segments at the range's ends first.
    forEachSegment(range, visit) {
        if (range.size === 0)
            return;
        const state = this.stateOf(range.resource);
        const first = state.split(range.offset);
        const last = state.split(range.end);
        for (let i = first; i < last; i++) {
            visit(state.segments[i], state.starts[i], i + 1 < state.starts.length ? state.starts[i + 1] : Infinity);
        }
    }
    // A write replaces the overlapped segments by one: written by `writer`, unread since.
    overwrite(range, writer) {
        if (range.size === 0)
            return;
        const state = this.stateOf(range.resource);
        const first = state.split(range.offset);
        const last = state.split(range.end);
        state.starts.splice(first + 1, last - first - 1);
        state.segments.splice(first, last - first, { writer, readers: [] });
    }
    stateOf(resource) {
        let state = this.resources.get(resource);
        if (!state) {
            state = new ResourceState(this.resources.size);
            this.resources.set(resource, state);
        }
        return state;
    }
}
exports.DataflowTracker = DataflowTracker;
// A resource's bytes cut into segments with the same access history:
// segment i covers [starts[i], starts[i + 1]), the last one up to the end.
class ResourceState {
    ordinal;
    starts = [0];
    segments = [{ writer: -1, readers: [] }];
    constructor(ordinal) {
        this.ordinal = ordinal;
    }
    // The index of the segment that starts at `offset`, splitting the one containing it.
    split(offset) {
        if (offset === Infinity)
            return this.starts.length;
        let low = 0;
        let high = this.starts.length - 1;
        while (low < high) {
            const middle = (low + high + 1) >>> 1;
            if (this.starts[middle] <= offset)
                low = middle;
            else
                high = middle - 1;
        }
        if (this.starts[low] === offset)
            return low;
        const { writer, readers } = this.segments[low];
        this.starts.splice(low + 1, 0, offset);
        this.segments.splice(low + 1, 0, { writer, readers: readers.slice() });
        return low + 1;
    }
}
const EXPLICIT = { kind: 'explicit' };
const HAZARD_ABBREVIATION = {
    'read-after-write': 'RAW',
    'write-after-read': 'WAR',
    'write-after-write': 'WAW',
};
function accessList(value, name) {
    if (value === undefined)
        return [];
    return (0, validate_1.checkArray)(value, name).map((access, i) => access instanceof ResourceRange ? access : new ResourceRange((0, validate_1.checkObject)(access, `${name}[${i}]`)));
}
function reasonsFor(candidates, index) {
    let reasons = candidates.get(index);
    if (!reasons) {
        reasons = [];
        candidates.set(index, reasons);
    }
    return reasons;
}
// Records a hazard on [start, end) of a resource, joining it to the previous
// reason when that one is the same hazard on the bytes just before.
function addHazard(candidates, index, kind, resource, start, end) {
    const reasons = reasonsFor(candidates, index);
    const previous = reasons[reasons.length - 1];
    if (previous && previous.kind === kind && previous.range.resource === resource && previous.range.end === start) {
        reasons[reasons.length - 1] = { kind, range: rangeOf(resource, previous.range.offset, end) };
    }
    else {
        reasons.push({ kind, range: rangeOf(resource, start, end) });
    }
}
function rangeOf(resource, start, end) {
    return new ResourceRange(resource, start, end === Infinity ? undefined : end - start);
}
//# sourceMappingURL=dataflow.js.map