// Dependencies inferred from reads and writes: the hazard kinds, byte ranges,
// pruning, and on random programs the same edges as a naive oracle (every
// conflicting pair, then only the pairs no other path implies).
import { DataflowTracker, ResourceRange, type DataflowDependency, type DataflowEdge, type DependencyReason, type HazardKind, type NodeAccesses } from '../../lib/graph/dataflow';
import { transitiveReduction } from '../../lib/graph/analysis';
import { seededRandom } from '../helpers/random';

class FakeBuffer {}
const noAccesses: readonly never[] = [];

const dependencyIndices = (tracker: DataflowTracker<string>, node: string, accesses: NodeAccesses<string>): number[] =>
  tracker.add(node, accesses).map((d) => d.index);
const edgePairs = (edges: readonly DataflowEdge[]): string[] => edges.map((e) => `${e.from}>${e.to}`);

describe('hazards', () => {
  test('read after write', () => {
    const x = new FakeBuffer();
    const tracker = new DataflowTracker<string>();
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
    const tracker = new DataflowTracker<string>();
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
    const tracker = new DataflowTracker<string>();
    expect(tracker.add('a', { reads: [x] })).toEqual([]);
    expect(tracker.add('b', { reads: [x] })).toEqual([]);
    expect(tracker.add('c', { writes: [y] })).toEqual([]);
    expect(tracker.add('d', { reads: [x], writes: [new FakeBuffer()] })).toEqual([]);
    expect(tracker.add('e', {})).toEqual([]);
    expect(tracker.add('f')).toEqual([]);
  });

  test('a node that reads and writes a buffer in place orders the ones around it', () => {
    const x = new FakeBuffer();
    const tracker = new DataflowTracker<string>();
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
    const tracker = new DataflowTracker<string>();
    tracker.add('low', { writes: [new ResourceRange(x, 0, 64)] });
    expect(tracker.add('high', { writes: [new ResourceRange(x, 64, 64)] })).toEqual([]);
    expect(tracker.add('empty', { writes: [new ResourceRange(x, 10, 0)] })).toEqual([]);
    const dependencies = tracker.add('middle', { reads: [new ResourceRange(x, 32, 64)] });
    expect(dependencies.map((d) => [d.node, d.reasons.map((r) => tracker.describe(r))])).toEqual([
      ['low', ['RAW FakeBuffer#0[32, 64)']],
      ['high', ['RAW FakeBuffer#0[64, 96)']],
    ]);
    expect(tracker.add('beyond', { reads: [new ResourceRange(x, 128)] })).toEqual([]);
  });

  test('overlapping ranges conflict on the overlap; a whole-buffer access overlaps every range', () => {
    const x = new FakeBuffer();
    const tracker = new DataflowTracker<string>();
    tracker.add('a', { writes: [new ResourceRange(x, 0, 64)] });
    const [waw] = tracker.add('b', { writes: [new ResourceRange(x, 32, 64)] });
    expect(tracker.describe(waw.reasons[0])).toBe('WAW FakeBuffer#0[32, 64)');
    expect(tracker.add('past the writes', { reads: [new ResourceRange(x, 100n, 10n)] })).toEqual([]);
    const [raw] = tracker.add('c', { reads: [new ResourceRange(x, 40n, 10n)] });
    expect(raw.node).toBe('b');
    expect(tracker.describe(raw.reasons[0])).toBe('RAW FakeBuffer#0[40, 50)');
    // b wrote [32, 96) after a wrote [0, 64): only [0, 32) is still a's.
    const whole = tracker.add('d', { reads: [x] });
    expect(whole.map((d) => [d.node, d.reasons.map((r) => tracker.describe(r))])).toEqual([['b', ['RAW FakeBuffer#0[32, 96)']]]);
    expect(tracker.add('e', { writes: [new ResourceRange(x, 200)] }).map((d) => tracker.describe(d.reasons[0]))).toEqual(['WAR FakeBuffer#0[200, end)']);
  });

  test('a dependency across several adjacent pieces is described as one range', () => {
    const x = new FakeBuffer();
    const tracker = new DataflowTracker<string>();
    tracker.add('w0', { writes: [new ResourceRange(x, 0, 50)] });
    tracker.add('w1', { writes: [new ResourceRange(x, 50, 50)] });
    tracker.add('rAll', { reads: [new ResourceRange(x, 0, 100)] });
    tracker.add('rMid', { reads: [new ResourceRange(x, 20, 60)] });
    const dependencies = tracker.add('overwrite', { writes: [new ResourceRange(x, 0, 100)] });
    expect(dependencies.map((d) => [d.node, d.reasons.map((r) => tracker.describe(r))])).toEqual([
      ['rAll', ['WAR FakeBuffer#0[0, 100)']],
      ['rMid', ['WAR FakeBuffer#0[20, 80)']],
    ]);
  });
});

describe('pruning', () => {
  test('a chain of writes gives a chain, not all pairs', () => {
    const x = new FakeBuffer();
    const tracker = new DataflowTracker<string>();
    for (let i = 0; i < 10; i++) tracker.add(`w${i}`, { reads: [x], writes: [x] });
    expect(edgePairs(tracker.edges())).toEqual(['0>1', '1>2', '2>3', '3>4', '4>5', '5>6', '6>7', '7>8', '8>9']);
  });

  test('a dependency implied through another resource is dropped', () => {
    const [x, y] = [new FakeBuffer(), new FakeBuffer()];
    const tracker = new DataflowTracker<string>();
    tracker.add('a', { writes: [x] });
    tracker.add('b', { reads: [x], writes: [y] });
    const dependencies = tracker.add('c', { reads: [x, y] });
    expect(dependencies.map((d) => [d.node, d.reasons.map((r) => tracker.describe(r))])).toEqual([['b', ['RAW FakeBuffer#1']]]);
  });

  test('a writer after many readers waits for each reader, not for the earlier writer', () => {
    const x = new FakeBuffer();
    const tracker = new DataflowTracker<string>();
    tracker.add('w', { writes: [x] });
    for (let i = 0; i < 5; i++) expect(dependencyIndices(tracker, `r${i}`, { reads: [x] })).toEqual([0]);
    expect(dependencyIndices(tracker, 'w2', { writes: [x] })).toEqual([1, 2, 3, 4, 5]);
    expect(tracker.edges()).toHaveLength(10);
  });

  test('explicit dependencies join in and are pruned like the others', () => {
    const [x, y] = [new FakeBuffer(), new FakeBuffer()];
    const tracker = new DataflowTracker<string>();
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
    const tracker = new DataflowTracker<{ name: string }>({ nameOf: () => 'x' });
    const [a, b] = [{ name: 'a' }, { name: 'b' }];
    tracker.add(a, { writes: [x] });
    tracker.add(b, { reads: [new ResourceRange(x, 8, 8)] });
    expect(tracker.nodes).toEqual([a, b]);
    expect(tracker.indexOf(b)).toBe(1);
    expect(tracker.indexOf({ name: 'b' })).toBe(-1);
    const edges = tracker.edges();
    expect(edges.map((e) => [e.from, e.to, e.reasons.map((r) => tracker.describe(r))])).toEqual([[0, 1, ['RAW x[8, 16)']]]);
  });

  test('a positional tracker (the graph builder\'s): each node names the next position, found without a map', () => {
    const x = new FakeBuffer();
    const tracker = DataflowTracker.positional({ nameOf: () => 'x' });
    expect(tracker.addQuick(0, noAccesses, [x], noAccesses)).toEqual([]);
    expect(tracker.addQuick(1, noAccesses, noAccesses, noAccesses)).toEqual([]);
    expect([...tracker.addQuick(2, [x], noAccesses, [1])]).toEqual([0, 1]);
    expect(() => tracker.addQuick(2, noAccesses, noAccesses, noAccesses)).toThrow('node must be the next position');
    expect(() => tracker.addQuick(4, noAccesses, noAccesses, noAccesses)).toThrow('node must be the next position');
    expect(() => tracker.addQuick(3, noAccesses, noAccesses, [3])).toThrow('after[0] is not a node added to this tracker');
    expect(() => tracker.addQuick(3, noAccesses, noAccesses, [0.5])).toThrow('after[0] is not a node added to this tracker');
    expect(tracker.nodes).toEqual([0, 1, 2]);
    expect([tracker.indexOf(2), tracker.indexOf(3), tracker.indexOf(-1)]).toEqual([2, -1, -1]);
    expect(tracker.dependenciesOf(2).map((d) => [d.node, d.reasons.map((r) => tracker.describe(r))])).toEqual([[0, ['RAW x']], [1, ['explicit']]]);
  });

  test('resources without a constructor get a neutral name', () => {
    const tracker = new DataflowTracker<number>();
    const bare = Object.create(null) as object;
    tracker.add(0, { writes: [{}] });
    tracker.add(1, { writes: [bare] });
    const [dependency] = tracker.add(2, { reads: [bare] });
    expect(tracker.describe(dependency.reasons[0])).toBe('RAW resource#1');
  });
});

describe('argument checks', () => {
  test('bad accesses are refused with the parameter named, and leave the tracker as it was', () => {
    const x = new FakeBuffer();
    const tracker = new DataflowTracker<string>();
    tracker.add('a', { writes: [x] });
    expect(() => tracker.add('a', {})).toThrow('node was already added to this tracker');
    expect(() => tracker.add('b', { reads: x as never })).toThrow(new TypeError('reads must be an array, got FakeBuffer'));
    expect(() => tracker.add('b', { reads: [x], writes: [x, 3 as never] })).toThrow(new TypeError('writes[1] must be an object, got 3'));
    expect(() => tracker.add('b', { reads: [x], after: ['z'] })).toThrow(new RangeError('after[0] is not a node added to this tracker'));
    expect(() => tracker.add('b', null as never)).toThrow(/accesses must be an object/);
    expect(tracker.nodes).toEqual(['a']);
    expect(dependencyIndices(tracker, 'b', { writes: [x] })).toEqual([0]);
    expect(() => new DataflowTracker({ nameOf: 'x' as never })).toThrow(TypeError);
  });

  test('ranges check their resource, offset and size', () => {
    const x = new FakeBuffer();
    expect(new ResourceRange(x).size).toBe(Infinity);
    expect(new ResourceRange(x, 4, 4).end).toBe(8);
    expect(() => new ResourceRange(null as never)).toThrow(/resource must be an object/);
    expect(() => new ResourceRange(new ResourceRange(x))).toThrow(TypeError);
    expect(() => new ResourceRange(x, -1)).toThrow(/offset must be between 0/);
    expect(() => new ResourceRange(x, 0, 1.5)).toThrow(/size must be an integer/);
  });
});

// Random programs over a few small buffers, compared with every pair of
// conflicting accesses reduced by searching for other paths.
interface Access {
  buffer: number;
  start: number;
  end: number;
  write: boolean;
}

function randomProgram(nodes: number, buffers: number, seed: number): Access[][] {
  const next = seededRandom(seed);
  return Array.from({ length: nodes }, () => {
    const accesses: Access[] = [];
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

function track(program: Access[][], buffers: object[], tracker = new DataflowTracker<number>()): DataflowTracker<number> {
  const range = (a: Access): ResourceRange =>
    a.end === Infinity ? new ResourceRange(buffers[a.buffer], a.start) : new ResourceRange(buffers[a.buffer], a.start, a.end - a.start);
  program.forEach((accesses, i) => {
    tracker.add(i, {
      reads: accesses.filter((a) => !a.write).map(range),
      writes: accesses.filter((a) => a.write).map(range),
    });
  });
  return tracker;
}

function conflictingPairs(program: Access[][]): Array<{ from: number; to: number }> {
  const conflict = (a: Access, b: Access): boolean => a.buffer === b.buffer && (a.write || b.write) && a.start < b.end && b.start < a.end;
  const pairs: Array<{ from: number; to: number }> = [];
  for (let j = 0; j < program.length; j++) {
    for (let i = 0; i < j; i++) if (program[i].some((a) => program[j].some((b) => conflict(a, b)))) pairs.push({ from: i, to: j });
  }
  return pairs;
}

describe('random programs', () => {
  test('the kept edges are exactly the conflicts no other path implies', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const program = randomProgram(5 + (seed % 30), 1 + (seed % 4), seed);
      const buffers = Array.from({ length: 4 }, () => new FakeBuffer());
      const pairs = conflictingPairs(program);
      const successors = new Map<number, number[]>();
      for (const p of pairs) successors.set(p.from, [...(successors.get(p.from) ?? []), p.to]);
      const impliedElsewhere = (p: { from: number; to: number }): boolean => {
        const stack = (successors.get(p.from) ?? []).filter((w) => w < p.to);
        const seen = new Set(stack);
        while (stack.length) {
          const v = stack.pop()!;
          if (v === p.to) return true;
          for (const w of successors.get(v) ?? []) if (w <= p.to && !seen.has(w)) (seen.add(w), stack.push(w));
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
    const expected = transitiveReduction(2000, conflictingPairs(program));
    expect(edgePairs(tracker.edges()).sort()).toEqual(edgePairs(expected as DataflowEdge[]).sort());
    for (const edge of tracker.edges()) expect(edge.reasons.length).toBeGreaterThan(0);
    // The graph builder's tracker, whose nodes are their positions, keeps the same.
    const positional = track(program, buffers, DataflowTracker.positional());
    expect(edgePairs(positional.edges())).toEqual(edgePairs(tracker.edges()));
  });

  test('a tracker made after another is recycled keeps the same edges as a new one', () => {
    const buffers = Array.from({ length: 40 }, () => new FakeBuffer());
    // A large program leaves every array grown and written; smaller and larger ones follow on the recycled arrays.
    const first = randomProgram(2000, 40, 7);
    const expectedFirst = edgePairs(track(first, buffers).edges());
    let previous = track(first, buffers, DataflowTracker.positional());
    expect(edgePairs(previous.edges())).toEqual(expectedFirst);
    for (const [size, seed] of [[50, 8], [2000, 9], [3000, 10]]) {
      const program = randomProgram(size, 40, seed);
      previous.recycle();
      const recycled = track(program, buffers, DataflowTracker.positional());
      expect(edgePairs(recycled.edges())).toEqual(edgePairs(track(program, buffers).edges()));
      previous = recycled;
    }
  });
});

// A byte-by-byte model of the tracker, for random programs with every kind of
// access and `after`: each buffer has 16 bytes plus one standing for [16, end).
// It gives every hazard with the reasons the tracker reports (adjacent bytes
// of one hazard joined, in the order the accesses and bytes come), keeps the
// candidates no other candidate runs after, and names buffers in order of
// first use, reads before writes.
describe('random programs against a byte-by-byte model', () => {
  const TAIL = 16;
  interface ModelAccess {
    buffer: number;
    start: number;
    end: number; // Infinity: to the end of the buffer
    form: 'whole' | 'to end' | 'range' | 'bigint range';
  }
  interface ModelNode {
    reads: ModelAccess[];
    writes: ModelAccess[];
    after: number[];
  }
  interface ExpectedReason {
    kind: HazardKind | 'explicit';
    buffer: number;
    start: number;
    end: number;
  }

  function randomNode(next: () => number, buffers: number, index: number): ModelNode {
    const access = (): ModelAccess => {
      const buffer = Math.floor(next() * buffers);
      const start = Math.floor(next() * 16);
      const form = next();
      if (form < 0.2) return { buffer, start: 0, end: Infinity, form: 'whole' };
      if (form < 0.35) return { buffer, start, end: Infinity, form: 'to end' };
      const end = form < 0.4 ? start : Math.min(16, start + 1 + Math.floor(next() * 8)); // some empty
      return { buffer, start, end, form: form < 0.9 ? 'range' : 'bigint range' };
    };
    const list = (): ModelAccess[] => Array.from({ length: Math.floor(next() * 3) }, access);
    const after = index > 0 && next() < 0.3 ? Array.from({ length: 1 + Math.floor(next() * 2) }, () => Math.floor(next() * index)) : [];
    return { reads: list(), writes: list(), after };
  }

  function resourceOf(a: ModelAccess, buffers: object[]): object {
    const buffer = buffers[a.buffer];
    if (a.form === 'whole') return buffer;
    if (a.form === 'to end') return new ResourceRange(buffer, a.start);
    if (a.form === 'bigint range') return new ResourceRange(buffer, BigInt(a.start), BigInt(a.end - a.start));
    return new ResourceRange(buffer, a.start, a.end - a.start);
  }

  function bytesOf(a: ModelAccess): number[] {
    const bytes: number[] = [];
    for (let b = a.start; b < Math.min(a.end, TAIL + 1); b++) bytes.push(b);
    return bytes;
  }

  class Model {
    writer: number[][];
    readers: number[][][];
    ancestors: Set<number>[] = [];
    ordinals = new Map<number, number>();

    constructor(buffers: number) {
      this.writer = Array.from({ length: buffers }, () => new Array<number>(TAIL + 1).fill(-1));
      this.readers = Array.from({ length: buffers }, () => Array.from({ length: TAIL + 1 }, () => []));
    }

    add(node: ModelNode): Array<{ index: number; reasons: ExpectedReason[] }> {
      const self = this.ancestors.length;
      const candidates = new Map<number, ExpectedReason[]>();
      const reasonsOf = (index: number): ExpectedReason[] => {
        if (!candidates.has(index)) candidates.set(index, []);
        return candidates.get(index)!;
      };
      const hazard = (index: number, kind: HazardKind, buffer: number, byte: number): void => {
        const reasons = reasonsOf(index);
        const previous = reasons[reasons.length - 1];
        const end = byte === TAIL ? Infinity : byte + 1;
        if (previous && previous.kind === kind && previous.buffer === buffer && previous.end === byte) previous.end = end;
        else reasons.push({ kind, buffer, start: byte, end });
      };
      for (const index of node.after) {
        const reasons = reasonsOf(index);
        if (reasons.length === 0) reasons.push({ kind: 'explicit', buffer: -1, start: 0, end: 0 });
      }
      for (const a of [...node.reads, ...node.writes]) {
        if (a.start < a.end && !this.ordinals.has(a.buffer)) this.ordinals.set(a.buffer, this.ordinals.size);
      }
      for (const a of node.reads) {
        for (const b of bytesOf(a)) if (this.writer[a.buffer][b] >= 0) hazard(this.writer[a.buffer][b], 'read-after-write', a.buffer, b);
      }
      for (const a of node.writes) {
        for (const b of bytesOf(a)) {
          const readers = this.readers[a.buffer][b];
          if (readers.length > 0) for (const r of readers) hazard(r, 'write-after-read', a.buffer, b);
          else if (this.writer[a.buffer][b] >= 0) hazard(this.writer[a.buffer][b], 'write-after-write', a.buffer, b);
        }
      }
      for (const a of node.reads) {
        for (const b of bytesOf(a)) if (!this.readers[a.buffer][b].includes(self)) this.readers[a.buffer][b].push(self);
      }
      for (const a of node.writes) {
        for (const b of bytesOf(a)) {
          this.writer[a.buffer][b] = self;
          this.readers[a.buffer][b] = [];
        }
      }
      const all = [...candidates.keys()];
      const kept = all.filter((c) => !all.some((other) => this.ancestors[other].has(c))).sort((x, y) => x - y);
      const ancestors = new Set<number>();
      for (const c of all) for (const a of [c, ...this.ancestors[c]]) ancestors.add(a);
      this.ancestors.push(ancestors);
      return kept.map((index) => ({ index, reasons: candidates.get(index)! }));
    }
  }

  const overlap = (a: ModelAccess, b: ModelAccess): boolean =>
    a.buffer === b.buffer && a.start < b.end && b.start < a.end && a.start < a.end && b.start < b.end;

  const asReason = (r: ExpectedReason, buffers: object[]): DependencyReason =>
    r.kind === 'explicit'
      ? { kind: 'explicit' }
      : { kind: r.kind, range: r.end === Infinity ? new ResourceRange(buffers[r.buffer], r.start) : new ResourceRange(buffers[r.buffer], r.start, r.end - r.start) };

  // A seeded random program's generator and its 1 to 4 buffers.
  const programOf = (seed: number) => {
    const bufferCount = 1 + (seed % 4);
    return { next: seededRandom(seed), bufferCount, buffers: Array.from({ length: bufferCount }, () => new FakeBuffer()) };
  };

  test('dependencies, reasons, names, edges, and refused adds that change nothing', () => {
    for (let seed = 1; seed <= 150; seed++) {
      const { next, bufferCount, buffers } = programOf(1000 + seed);
      const tracker = new DataflowTracker<number>();
      const model = new Model(bufferCount);
      const expected: DataflowDependency<number>[][] = [];
      const conflicts: Array<{ from: number; to: number }> = [];
      const nodes = 5 + (seed % 40);
      const program = Array.from({ length: nodes }, (_, i) => randomNode(next, bufferCount, i));
      program.forEach((node, i) => {
        const reads = node.reads.map((a) => resourceOf(a, buffers));
        const writes = node.writes.map((a) => resourceOf(a, buffers));
        if (next() < 0.1) {
          // Refused after reads that name a new buffer: no name, segment or candidate may stay behind.
          const bad = next() < 0.5 ? { reads, writes: [...writes, 7 as never] } : { reads, writes, after: [...node.after, -1] };
          expect(() => tracker.add(i, bad)).toThrow();
        }
        const accesses: NodeAccesses<number> = {};
        if (reads.length > 0 || next() < 0.5) Object.assign(accesses, { reads });
        if (writes.length > 0 || next() < 0.5) Object.assign(accesses, { writes });
        if (node.after.length > 0 || next() < 0.5) Object.assign(accesses, { after: node.after });
        const found = Object.keys(accesses).length === 0 && next() < 0.5 ? tracker.add(i) : tracker.add(i, accesses);
        const want = model.add(node).map(({ index, reasons }) => ({ node: index, index, reasons: reasons.map((r) => asReason(r, buffers)) }));
        expect(found).toStrictEqual(want);
        expected.push(want);
        for (const d of found) {
          for (const r of d.reasons) {
            if (r.kind === 'explicit') continue;
            const name = `FakeBuffer#${model.ordinals.get(buffers.indexOf(r.range.resource))}`;
            expect(tracker.describe(r).split(' ')[1].startsWith(name)).toBe(true);
          }
        }
        for (let j = 0; j < i; j++) {
          const earlier = program[j];
          const conflict =
            node.after.includes(j) ||
            earlier.writes.some((w) => [...node.reads, ...node.writes].some((a) => overlap(w, a))) ||
            earlier.reads.some((r) => node.writes.some((w) => overlap(r, w)));
          if (conflict) conflicts.push({ from: j, to: i });
        }
      });
      // Later adds change nothing handed out before.
      expected.forEach((want, i) => expect(tracker.dependenciesOf(i)).toStrictEqual(want));
      expect(edgePairs(tracker.edges()).sort()).toEqual(edgePairs(transitiveReduction(nodes, conflicts) as DataflowEdge[]).sort());
    }
  });

  // What a call throws, to compare addQuick()'s errors with add()'s.
  const thrown = (call: () => unknown): unknown => {
    try {
      call();
    } catch (error) {
      return error;
    }
    throw new Error('did not throw');
  };

  test('addQuick: the same nodes, errors and state as add(), in one reused array', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const { next, bufferCount, buffers } = programOf(5000 + seed);
      const viaAdd = new DataflowTracker<number>();
      const viaQuick = new DataflowTracker<number>();
      let reused: readonly number[] | undefined;
      for (let i = 0; i < 5 + (seed % 40); i++) {
        const node = randomNode(next, bufferCount, i);
        const reads = node.reads.map((a) => resourceOf(a, buffers));
        const writes = node.writes.map((a) => resourceOf(a, buffers));
        if (next() < 0.2) {
          // Refused after reads that name a new buffer: no name, segment or candidate may stay behind.
          const which = next();
          const bad: [number, object[], object[], number[]] =
            which < 0.25 && i > 0 ? [i - 1, reads, writes, node.after]
            : which < 0.5 ? [i, [...reads, new FakeBuffer()], [...writes, null as never], node.after]
            : which < 0.75 ? [i, [new FakeBuffer(), ...reads], writes, [...node.after, i + 1]]
            : [i, reads, 'writes' as never, node.after];
          const [badNode, badReads, badWrites, badAfter] = bad;
          expect(thrown(() => viaQuick.addQuick(badNode, badReads, badWrites, badAfter))).toStrictEqual(
            thrown(() => viaAdd.add(badNode, { reads: badReads, writes: badWrites, after: badAfter })),
          );
        }
        const want = viaAdd.add(i, { reads, writes, after: node.after }).map((d) => d.node);
        const found = viaQuick.addQuick(i, reads, writes, node.after);
        expect([...found]).toEqual(want);
        if (found.length > 0) {
          if (reused) expect(found).toBe(reused);
          reused = found;
        }
      }
      expect(viaQuick.nodes).toEqual(viaAdd.nodes);
      for (const n of viaAdd.nodes) expect(viaQuick.dependenciesOf(n)).toStrictEqual(viaAdd.dependenciesOf(n));
      expect(viaQuick.edges()).toStrictEqual(viaAdd.edges());
      const described = (tracker: DataflowTracker<number>): string[][] => tracker.edges().map((e) => e.reasons.map((r) => tracker.describe(r)));
      expect(described(viaQuick)).toEqual(described(viaAdd));
    }
  });
});

describe('fixed programs, as the tracker has always described them', () => {
  test('ranges split, joined and repeated, explicit dependencies, names in order of first use', () => {
    const [x, y, z] = [new FakeBuffer(), new FakeBuffer(), new FakeBuffer()];
    const kernelArgs = function kernelArgs(): void {};
    const tracker = new DataflowTracker<string>();
    const steps: Array<[string, NodeAccesses<string>]> = [
      ['a', { writes: [new ResourceRange(x, 0, 32), y] }],
      ['b', { reads: [new ResourceRange(x, 8, 0)], writes: [new ResourceRange(x, 32, 32)] }],
      ['c', { reads: [new ResourceRange(x, 16, 32), new ResourceRange(x, 0, 8)], writes: [kernelArgs] }],
      ['d', { reads: [x, y], after: ['c', 'a', 'c'] }],
      ['e', { writes: [new ResourceRange(x, 4n, 40n), new ResourceRange(y, 100)] }],
      ['f', { reads: [new ResourceRange(x, 60), kernelArgs], writes: [new ResourceRange(y, 0, 100)], after: ['b'] }],
      ['g', { reads: [z], writes: [new ResourceRange(x, 0, 64), new ResourceRange(z, 8, 8)] }],
      ['h', { writes: [x, new ResourceRange(x, 10, 10)], reads: [new ResourceRange(z, 0, 16)] }],
      ['i', {}],
      ['j', { reads: [x, x], writes: [new ResourceRange(z, 4, 8)], after: ['i'] }],
    ];
    const found = steps.map(([node, accesses]) => [node, tracker.add(node, accesses).map((d) => [d.node, d.reasons.map((r) => tracker.describe(r))])]);
    expect(found).toEqual([
      ['a', []],
      ['b', []],
      ['c', [['a', ['RAW FakeBuffer#0[16, 32)', 'RAW FakeBuffer#0[0, 8)']], ['b', ['RAW FakeBuffer#0[32, 48)']]]],
      ['d', [['c', ['explicit']]]],
      ['e', [['d', ['WAR FakeBuffer#0[4, 44)', 'WAR FakeBuffer#1[100, end)']]]],
      ['f', [['d', ['WAR FakeBuffer#1[0, 100)']]]],
      ['g', [['e', ['WAW FakeBuffer#0[4, 44)']], ['f', ['WAR FakeBuffer#0[60, 64)']]]],
      ['h', [['g', ['RAW FakeBuffer#3[8, 16)', 'WAW FakeBuffer#0[0, 64)', 'WAW FakeBuffer#0[10, 20)']]]],
      ['i', []],
      ['j', [['h', ['RAW FakeBuffer#0', 'RAW FakeBuffer#0', 'WAR FakeBuffer#3[4, 12)']], ['i', ['explicit']]]],
    ]);
    expect(tracker.edges().map((e) => `${e.from}>${e.to} ${e.reasons.map((r) => tracker.describe(r)).join(', ')}`)).toEqual([
      '0>2 RAW FakeBuffer#0[16, 32), RAW FakeBuffer#0[0, 8)',
      '1>2 RAW FakeBuffer#0[32, 48)',
      '2>3 explicit',
      '3>4 WAR FakeBuffer#0[4, 44), WAR FakeBuffer#1[100, end)',
      '3>5 WAR FakeBuffer#1[0, 100)',
      '4>6 WAW FakeBuffer#0[4, 44)',
      '5>6 WAR FakeBuffer#0[60, 64)',
      '6>7 RAW FakeBuffer#3[8, 16), WAW FakeBuffer#0[0, 64), WAW FakeBuffer#0[10, 20)',
      '7>9 RAW FakeBuffer#0, RAW FakeBuffer#0, WAR FakeBuffer#3[4, 12)',
      '8>9 explicit',
    ]);
  });

  test('reasons hold genuine ResourceRanges; callers get a copy of the list, and the same dependencies', () => {
    const x = new FakeBuffer();
    const tracker = new DataflowTracker<string>();
    tracker.add('w', { writes: [new ResourceRange(x, 0, 8), new ResourceRange(x, 8)] });
    const found = tracker.add('r', { reads: [x], after: ['w'] });
    expect(found).toStrictEqual([{ node: 'w', index: 0, reasons: [{ kind: 'explicit' }, { kind: 'read-after-write', range: new ResourceRange(x) }] }]);
    const range = (found[0].reasons[1] as { range: ResourceRange }).range;
    expect(range).toBeInstanceOf(ResourceRange);
    expect(Object.keys(range)).toEqual(['resource', 'offset', 'size']);
    expect(Object.keys(found[0].reasons[1])).toEqual(['kind', 'range']);
    expect(Object.keys(found[0])).toEqual(['node', 'index', 'reasons']);
    expect(found[0]).toBe(tracker.dependenciesOf('r')[0]);
    found.pop();
    expect(tracker.dependenciesOf('r')).toHaveLength(1);
    expect(tracker.edges()).toHaveLength(1);
  });
});

describe('addQuick and the stored form of dependencies', () => {
  test('addQuick refuses what add() refuses, with the same errors, and changes nothing', () => {
    const [x, y] = [new FakeBuffer(), new FakeBuffer()];
    const tracker = new DataflowTracker<string>();
    expect(tracker.addQuick('a', [], [x], [])).toEqual([]);
    expect(() => tracker.addQuick('a', [], [], [])).toThrow(new Error('node was already added to this tracker'));
    expect(() => tracker.addQuick('b', x as never, [], [])).toThrow(new TypeError('reads must be an array, got FakeBuffer'));
    expect(() => tracker.addQuick('b', [new FakeBuffer()], [x, 3 as never], [])).toThrow(new TypeError('writes[1] must be an object, got 3'));
    expect(() => tracker.addQuick('b', [new FakeBuffer()], [x], ['z'])).toThrow(new RangeError('after[0] is not a node added to this tracker'));
    expect(() => tracker.addQuick('b', [x], [], 'a' as never)).toThrow(/after must be an array/);
    expect(tracker.nodes).toEqual(['a']);
    // The refused calls' new buffers took no name: y is the second buffer seen.
    expect(tracker.addQuick('b', [y], [x], [])).toEqual(['a']);
    expect(tracker.addQuick('c', [], [y], [])).toEqual(['b']);
    expect(tracker.dependenciesOf('c').map((d) => d.reasons.map((r) => tracker.describe(r)))).toEqual([['WAR FakeBuffer#1']]);
  });

  test('the returned array holds the dependencies of the latest call only', () => {
    const x = new FakeBuffer();
    const tracker = new DataflowTracker<string>();
    tracker.addQuick('w', [], [x], []);
    const readers = ['r0', 'r1', 'r2'].map((r) => [...tracker.addQuick(r, [x], [], [])]);
    expect(readers).toEqual([['w'], ['w'], ['w']]);
    const found = tracker.addQuick('w2', [], [x], []);
    expect(found).toEqual(['r0', 'r1', 'r2']);
    expect(tracker.addQuick('alone', [new FakeBuffer()], [], [])).toEqual([]);
    expect(tracker.addQuick('r3', [x], [], ['alone'])).toBe(found);
    expect(found).toEqual(['w2', 'alone']);
    expect(tracker.addQuick('w3', [], [x], [])).toBe(found);
    expect(found).toEqual(['r3']);
  });

  test('dependencies are made from the stored form once, equal to what add() returned', () => {
    const [x, y] = [new FakeBuffer(), new FakeBuffer()];
    const steps: Array<[string, NodeAccesses<string>]> = [
      ['a', { writes: [new ResourceRange(x, 0, 32), y] }],
      ['b', { writes: [new ResourceRange(x, 32)] }],
      ['c', { reads: [x, new ResourceRange(y, 8n, 8n)], after: ['a', 'b'] }],
      ['d', { writes: [new ResourceRange(x, 16, 32)], after: ['a'] }],
    ];
    const viaAdd = new DataflowTracker<string>();
    const viaQuick = new DataflowTracker<string>();
    const returned = steps.map(([node, accesses]) => viaAdd.add(node, accesses));
    for (const [node, { reads = [], writes = [], after = [] }] of steps) viaQuick.addQuick(node, reads, writes, after);
    expect(returned[2]).toStrictEqual([
      { node: 'a', index: 0, reasons: [{ kind: 'explicit' }, { kind: 'read-after-write', range: new ResourceRange(x, 0, 32) }, { kind: 'read-after-write', range: new ResourceRange(y, 8, 8) }] },
      { node: 'b', index: 1, reasons: [{ kind: 'explicit' }, { kind: 'read-after-write', range: new ResourceRange(x, 32) }] },
    ]);
    steps.forEach(([node], i) => {
      const first = viaQuick.dependenciesOf(node);
      expect(first).toStrictEqual(returned[i]);
      expect(viaQuick.dependenciesOf(node)).toBe(first);
      expect(viaAdd.dependenciesOf(node)).toStrictEqual(returned[i]);
      for (const dependency of first) for (const reason of dependency.reasons) expect(viaQuick.describe(reason)).toBe(viaAdd.describe(reason));
    });
    expect(viaQuick.edges()).toStrictEqual(viaAdd.edges());
    expect(viaQuick.edges()[0].reasons).toBe(viaQuick.dependenciesOf('c')[0].reasons);
  });
});
