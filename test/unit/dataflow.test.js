"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
// Dependencies inferred from reads and writes: the hazard kinds, byte ranges,
// pruning, and on random programs the same edges as a naive oracle (every
// conflicting pair, then only the pairs no other path implies).
const dataflow_1 = require("../../lib/graph/dataflow");
const analysis_1 = require("../../lib/graph/analysis");
class FakeBuffer {
}
const dependencyIndices = (tracker, node, accesses) => tracker.add(node, accesses).map((d) => d.index);
const edgePairs = (edges) => edges.map((e) => `${e.from}>${e.to}`);
// mulberry32: a small seeded generator, so failures reproduce.
function random(seed) {
    let state = seed >>> 0;
    return () => {
        state = (state + 0x6d2b79f5) >>> 0;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}
describe('hazards', () => {
    test('read after write', () => {
        const x = new FakeBuffer();
        const tracker = new dataflow_1.DataflowTracker();
        expect(tracker.add('producer', { writes: [x] })).toEqual([]);
        const [dependency, ...others] = tracker.add('consumer', { reads: [x] });
        expect(others).toEqual([]);
        expect(dependency.node).toBe('producer');
        expect(dependency.index).toBe(0);
        expect(dependency.reasons).toHaveLength(1);
        expect(dependency.reasons[0].kind).toBe('read-after-write');
        expect(tracker.describe(dependency.reasons[0])).toBe('RAW FakeBuffer#0');
    });
    test('write after read, write after write', () => {
        const x = new FakeBuffer();
        const tracker = new dataflow_1.DataflowTracker();
        tracker.add('reader', { reads: [x] });
        const [war] = tracker.add('writer', { writes: [x] });
        expect(war.node).toBe('reader');
        expect(tracker.describe(war.reasons[0])).toBe('WAR FakeBuffer#0');
        const [waw] = tracker.add('rewriter', { writes: [x] });
        expect(waw.node).toBe('writer');
        expect(tracker.describe(waw.reasons[0])).toBe('WAW FakeBuffer#0');
    });
    test('reads after reads, and accesses to other resources, give no edge', () => {
        const [x, y] = [new FakeBuffer(), new FakeBuffer()];
        const tracker = new dataflow_1.DataflowTracker();
        expect(tracker.add('a', { reads: [x] })).toEqual([]);
        expect(tracker.add('b', { reads: [x] })).toEqual([]);
        expect(tracker.add('c', { writes: [y] })).toEqual([]);
        expect(tracker.add('d', { reads: [x], writes: [new FakeBuffer()] })).toEqual([]);
        expect(tracker.add('e', {})).toEqual([]);
        expect(tracker.add('f')).toEqual([]);
    });
    test('a node that reads and writes a buffer in place orders the ones around it', () => {
        const x = new FakeBuffer();
        const tracker = new dataflow_1.DataflowTracker();
        tracker.add('init', { writes: [x] });
        const inPlace = tracker.add('scale', { reads: [x], writes: [x] });
        expect(inPlace.map((d) => [d.node, d.reasons.map((r) => tracker.describe(r))])).toEqual([['init', ['RAW FakeBuffer#0', 'WAW FakeBuffer#0']]]);
        expect(dependencyIndices(tracker, 'read', { reads: [x] })).toEqual([1]);
        expect(dependencyIndices(tracker, 'overwrite', { writes: [x] })).toEqual([2]);
    });
});
describe('byte ranges', () => {
    test('disjoint ranges give no edge; a read across both depends on both writers', () => {
        const x = new FakeBuffer();
        const tracker = new dataflow_1.DataflowTracker();
        tracker.add('low', { writes: [new dataflow_1.ResourceRange(x, 0, 64)] });
        expect(tracker.add('high', { writes: [new dataflow_1.ResourceRange(x, 64, 64)] })).toEqual([]);
        expect(tracker.add('empty', { writes: [new dataflow_1.ResourceRange(x, 10, 0)] })).toEqual([]);
        const dependencies = tracker.add('middle', { reads: [new dataflow_1.ResourceRange(x, 32, 64)] });
        expect(dependencies.map((d) => [d.node, d.reasons.map((r) => tracker.describe(r))])).toEqual([
            ['low', ['RAW FakeBuffer#0[32, 64)']],
            ['high', ['RAW FakeBuffer#0[64, 96)']],
        ]);
        expect(tracker.add('beyond', { reads: [new dataflow_1.ResourceRange(x, 128)] })).toEqual([]);
    });
    test('overlapping ranges conflict on the overlap; a whole-buffer access overlaps every range', () => {
        const x = new FakeBuffer();
        const tracker = new dataflow_1.DataflowTracker();
        tracker.add('a', { writes: [new dataflow_1.ResourceRange(x, 0, 64)] });
        const [waw] = tracker.add('b', { writes: [new dataflow_1.ResourceRange(x, 32, 64)] });
        expect(tracker.describe(waw.reasons[0])).toBe('WAW FakeBuffer#0[32, 64)');
        expect(tracker.add('past the writes', { reads: [new dataflow_1.ResourceRange(x, 100n, 10n)] })).toEqual([]);
        const [raw] = tracker.add('c', { reads: [new dataflow_1.ResourceRange(x, 40n, 10n)] });
        expect(raw.node).toBe('b');
        expect(tracker.describe(raw.reasons[0])).toBe('RAW FakeBuffer#0[40, 50)');
        // b wrote [32, 96) after a wrote [0, 64): only [0, 32) is still a's.
        const whole = tracker.add('d', { reads: [x] });
        expect(whole.map((d) => [d.node, d.reasons.map((r) => tracker.describe(r))])).toEqual([['b', ['RAW FakeBuffer#0[32, 96)']]]);
        expect(tracker.add('e', { writes: [new dataflow_1.ResourceRange(x, 200)] }).map((d) => tracker.describe(d.reasons[0]))).toEqual(['WAR FakeBuffer#0[200, end)']);
    });
    test('a dependency across several adjacent pieces is described as one range', () => {
        const x = new FakeBuffer();
        const tracker = new dataflow_1.DataflowTracker();
        tracker.add('w0', { writes: [new dataflow_1.ResourceRange(x, 0, 50)] });
        tracker.add('w1', { writes: [new dataflow_1.ResourceRange(x, 50, 50)] });
        tracker.add('rAll', { reads: [new dataflow_1.ResourceRange(x, 0, 100)] });
        tracker.add('rMid', { reads: [new dataflow_1.ResourceRange(x, 20, 60)] });
        const dependencies = tracker.add('overwrite', { writes: [new dataflow_1.ResourceRange(x, 0, 100)] });
        expect(dependencies.map((d) => [d.node, d.reasons.map((r) => tracker.describe(r))])).toEqual([
            ['rAll', ['WAR FakeBuffer#0[0, 100)']],
            ['rMid', ['WAR FakeBuffer#0[20, 80)']],
        ]);
    });
});
describe('pruning', () => {
    test('a chain of writes gives a chain, not all pairs', () => {
        const x = new FakeBuffer();
        const tracker = new dataflow_1.DataflowTracker();
        for (let i = 0; i < 10; i++)
            tracker.add(`w${i}`, { reads: [x], writes: [x] });
        expect(edgePairs(tracker.edges())).toEqual(['0>1', '1>2', '2>3', '3>4', '4>5', '5>6', '6>7', '7>8', '8>9']);
    });
    test('a dependency implied through another resource is dropped', () => {
        const [x, y] = [new FakeBuffer(), new FakeBuffer()];
        const tracker = new dataflow_1.DataflowTracker();
        tracker.add('a', { writes: [x] });
        tracker.add('b', { reads: [x], writes: [y] });
        const dependencies = tracker.add('c', { reads: [x, y] });
        expect(dependencies.map((d) => [d.node, d.reasons.map((r) => tracker.describe(r))])).toEqual([['b', ['RAW FakeBuffer#1']]]);
    });
    test('a writer after many readers waits for each reader, not for the earlier writer', () => {
        const x = new FakeBuffer();
        const tracker = new dataflow_1.DataflowTracker();
        tracker.add('w', { writes: [x] });
        for (let i = 0; i < 5; i++)
            expect(dependencyIndices(tracker, `r${i}`, { reads: [x] })).toEqual([0]);
        expect(dependencyIndices(tracker, 'w2', { writes: [x] })).toEqual([1, 2, 3, 4, 5]);
        expect(tracker.edges()).toHaveLength(10);
    });
    test('explicit dependencies join in and are pruned like the others', () => {
        const [x, y] = [new FakeBuffer(), new FakeBuffer()];
        const tracker = new dataflow_1.DataflowTracker();
        tracker.add('a', { writes: [x] });
        tracker.add('b', { writes: [y] });
        const [explicit] = tracker.add('c', { after: ['b', 'b'] });
        expect(explicit.node).toBe('b');
        expect(explicit.reasons).toEqual([{ kind: 'explicit' }]);
        expect(tracker.describe(explicit.reasons[0])).toBe('explicit');
        // d reads what a wrote and must also follow c, which follows b: b is implied.
        expect(dependencyIndices(tracker, 'd', { reads: [x], after: ['c', 'b'] })).toEqual([0, 2]);
        // e follows a explicitly and reads y (written by b); d already follows a,
        // but e does not follow d, so both a and b stay.
        expect(dependencyIndices(tracker, 'e', { reads: [y], after: ['a'] })).toEqual([0, 1]);
    });
});
describe('bookkeeping', () => {
    test('nodes, indexOf and edges() report what was added', () => {
        const x = new FakeBuffer();
        const tracker = new dataflow_1.DataflowTracker({ nameOf: () => 'x' });
        const [a, b] = [{ name: 'a' }, { name: 'b' }];
        tracker.add(a, { writes: [x] });
        tracker.add(b, { reads: [new dataflow_1.ResourceRange(x, 8, 8)] });
        expect(tracker.nodes).toEqual([a, b]);
        expect(tracker.indexOf(b)).toBe(1);
        expect(tracker.indexOf({ name: 'b' })).toBe(-1);
        const edges = tracker.edges();
        expect(edges.map((e) => [e.from, e.to, e.reasons.map((r) => tracker.describe(r))])).toEqual([[0, 1, ['RAW x[8, 16)']]]);
    });
    test('resources without a constructor get a neutral name', () => {
        const tracker = new dataflow_1.DataflowTracker();
        const bare = Object.create(null);
        tracker.add(0, { writes: [{}] });
        tracker.add(1, { writes: [bare] });
        const [dependency] = tracker.add(2, { reads: [bare] });
        expect(tracker.describe(dependency.reasons[0])).toBe('RAW resource#1');
    });
});
describe('argument checks', () => {
    test('bad accesses are refused with the parameter named, and leave the tracker as it was', () => {
        const x = new FakeBuffer();
        const tracker = new dataflow_1.DataflowTracker();
        tracker.add('a', { writes: [x] });
        expect(() => tracker.add('a', {})).toThrow('node was already added to this tracker');
        expect(() => tracker.add('b', { reads: x })).toThrow(new TypeError('reads must be an array, got FakeBuffer'));
        expect(() => tracker.add('b', { reads: [x], writes: [x, 3] })).toThrow(new TypeError('writes[1] must be an object, got 3'));
        expect(() => tracker.add('b', { reads: [x], after: ['z'] })).toThrow(new RangeError('after[0] is not a node added to this tracker'));
        expect(() => tracker.add('b', null)).toThrow(/accesses must be an object/);
        expect(tracker.nodes).toEqual(['a']);
        expect(dependencyIndices(tracker, 'b', { writes: [x] })).toEqual([0]);
        expect(() => new dataflow_1.DataflowTracker({ nameOf: 'x' })).toThrow(TypeError);
    });
    test('ranges check their resource, offset and size', () => {
        const x = new FakeBuffer();
        expect(new dataflow_1.ResourceRange(x).size).toBe(Infinity);
        expect(new dataflow_1.ResourceRange(x, 4, 4).end).toBe(8);
        expect(() => new dataflow_1.ResourceRange(null)).toThrow(/resource must be an object/);
        expect(() => new dataflow_1.ResourceRange(new dataflow_1.ResourceRange(x))).toThrow(TypeError);
        expect(() => new dataflow_1.ResourceRange(x, -1)).toThrow(/offset must be between 0/);
        expect(() => new dataflow_1.ResourceRange(x, 0, 1.5)).toThrow(/size must be an integer/);
    });
});
function randomProgram(nodes, buffers, seed) {
    const next = random(seed);
    return Array.from({ length: nodes }, () => {
        const accesses = [];
        const count = 1 + Math.floor(next() * 3);
        for (let k = 0; k < count; k++) {
            const buffer = Math.floor(next() * buffers);
            const whole = next() < 0.3;
            const start = whole ? 0 : Math.floor(next() * 16);
            const end = whole ? Infinity : Math.min(16, start + 1 + Math.floor(next() * 8));
            accesses.push({ buffer, start, end, write: next() < 0.4 });
        }
        return accesses;
    });
}
function track(program, buffers) {
    const tracker = new dataflow_1.DataflowTracker();
    const range = (a) => a.end === Infinity ? new dataflow_1.ResourceRange(buffers[a.buffer], a.start) : new dataflow_1.ResourceRange(buffers[a.buffer], a.start, a.end - a.start);
    program.forEach((accesses, i) => {
        tracker.add(i, {
            reads: accesses.filter((a) => !a.write).map(range),
            writes: accesses.filter((a) => a.write).map(range),
        });
    });
    return tracker;
}
function conflictingPairs(program) {
    const conflict = (a, b) => a.buffer === b.buffer && (a.write || b.write) && a.start < b.end && b.start < a.end;
    const pairs = [];
    for (let j = 0; j < program.length; j++) {
        for (let i = 0; i < j; i++)
            if (program[i].some((a) => program[j].some((b) => conflict(a, b))))
                pairs.push({ from: i, to: j });
    }
    return pairs;
}
describe('random programs', () => {
    test('the kept edges are exactly the conflicts no other path implies', () => {
        for (let seed = 1; seed <= 40; seed++) {
            const program = randomProgram(5 + (seed % 30), 1 + (seed % 4), seed);
            const buffers = Array.from({ length: 4 }, () => new FakeBuffer());
            const pairs = conflictingPairs(program);
            const successors = new Map();
            for (const p of pairs)
                successors.set(p.from, [...(successors.get(p.from) ?? []), p.to]);
            const impliedElsewhere = (p) => {
                const stack = (successors.get(p.from) ?? []).filter((w) => w < p.to);
                const seen = new Set(stack);
                while (stack.length) {
                    const v = stack.pop();
                    if (v === p.to)
                        return true;
                    for (const w of successors.get(v) ?? [])
                        if (w <= p.to && !seen.has(w))
                            (seen.add(w), stack.push(w));
                }
                return false;
            };
            const expected = pairs.filter((p) => !impliedElsewhere(p)).map((p) => `${p.from}>${p.to}`).sort();
            expect(edgePairs(track(program, buffers).edges()).sort()).toEqual(expected);
        }
    });
    test('2000 nodes over 40 buffers: the same edges as reducing every conflict at once', () => {
        const program = randomProgram(2000, 40, 99);
        const buffers = Array.from({ length: 40 }, () => new FakeBuffer());
        const tracker = track(program, buffers);
        const expected = (0, analysis_1.transitiveReduction)(2000, conflictingPairs(program));
        expect(edgePairs(tracker.edges()).sort()).toEqual(edgePairs(expected).sort());
        for (const edge of tracker.edges())
            expect(edge.reasons.length).toBeGreaterThan(0);
    });
});
//# sourceMappingURL=dataflow.test.js.map