// The DAG toolkit against hand-made graphs and, on random graphs, against
// naive oracles written here (path search, exhaustive enumeration).
import {
  criticalPath,
  GraphCycleError,
  levelSets,
  reaches,
  topologicalOrder,
  transitiveReduction,
  type GraphEdge,
} from '../../lib/graph/analysis';
import { seededRandom } from '../helpers/random';

const edge = (from: number, to: number): GraphEdge => ({ from, to });
const edgesOf = (...pairs: Array<[number, number]>): GraphEdge[] => pairs.map(([a, b]) => edge(a, b));
const pairs = (edges: readonly GraphEdge[]): Array<[number, number]> => edges.map((e) => [e.from, e.to]);

function shuffled(n: number, next: () => number): number[] {
  const ids = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [ids[i], ids[j]] = [ids[j], ids[i]];
  }
  return ids;
}

// A random DAG whose hidden order is a random permutation of the ids (so the
// ids are not already in dependency order); no duplicate edges.
function randomDag(n: number, density: number, seed: number): GraphEdge[] {
  const next = seededRandom(seed);
  const hidden = shuffled(n, next);
  const edges: GraphEdge[] = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (next() < density) edges.push(edge(hidden[i], hidden[j]));
  return shuffled(edges.length, next).map((k) => edges[k]);
}

function successorLists(n: number, edges: readonly GraphEdge[]): number[][] {
  const lists: number[][] = Array.from({ length: n }, () => []);
  for (const e of edges) lists[e.from].push(e.to);
  return lists;
}

// Is there a path from `from` to `to` that does not use the edge skipped?
function pathExists(lists: number[][], from: number, to: number, skip?: GraphEdge): boolean {
  const seen = new Set<number>([from]);
  const stack = [from];
  while (stack.length) {
    const v = stack.pop()!;
    if (v === to) return true;
    for (const w of lists[v]) {
      if (skip && v === skip.from && w === skip.to) continue;
      if (!seen.has(w)) {
        seen.add(w);
        stack.push(w);
      }
    }
  }
  return false;
}

function closure(n: number, edges: readonly GraphEdge[]): string[] {
  const lists = successorLists(n, edges);
  const reachable: string[] = [];
  for (let u = 0; u < n; u++) for (let v = 0; v < n; v++) if (u !== v && pathExists(lists, u, v)) reachable.push(`${u}>${v}`);
  return reachable;
}

function expectValidCycle(cycle: readonly number[], edges: readonly GraphEdge[]): void {
  expect(cycle.length).toBeGreaterThan(0);
  expect(new Set(cycle).size).toBe(cycle.length);
  const present = new Set(edges.map((e) => `${e.from}>${e.to}`));
  cycle.forEach((v, i) => expect(present.has(`${v}>${cycle[(i + 1) % cycle.length]}`)).toBe(true));
}

describe('topological order', () => {
  test('every edge goes forward; ready ids are taken smallest first', () => {
    expect(topologicalOrder(4, edgesOf([0, 1], [0, 2], [1, 3], [2, 3]))).toEqual([0, 1, 2, 3]);
    expect(topologicalOrder(4, edgesOf([3, 0], [2, 1]))).toEqual([2, 1, 3, 0]);
    expect(topologicalOrder(3, [])).toEqual([0, 1, 2]);
    expect(topologicalOrder(0, [])).toEqual([]);
  });

  test('random DAGs', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const n = 5 + seed * 3;
      const edges = randomDag(n, 0.2, seed);
      const order = topologicalOrder(n, edges);
      expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
      const position = new Map(order.map((v, p) => [v, p]));
      for (const e of edges) expect(position.get(e.from)!).toBeLessThan(position.get(e.to)!);
    }
  });

  test('a cycle is reported with its nodes in edge order, from the smallest id', () => {
    const edges = edgesOf([0, 1], [1, 4], [4, 2], [2, 1], [2, 3]);
    let error: unknown;
    try {
      topologicalOrder(5, edges);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GraphCycleError);
    expect((error as GraphCycleError).cycle).toEqual([1, 4, 2]);
    expect((error as GraphCycleError).message).toBe('the graph has a cycle: 1 → 4 → 2 → 1');
    expect((error as GraphCycleError).name).toBe('GraphCycleError');
  });

  test('a self-edge is a cycle of one node', () => {
    expect(() => topologicalOrder(3, edgesOf([0, 1], [2, 2]))).toThrow(expect.objectContaining({ cycle: [2] }));
  });

  test('a cycle downstream of others and a two-node cycle', () => {
    expect(() => levelSets(6, edgesOf([0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 3]))).toThrow(expect.objectContaining({ cycle: [3, 4, 5] }));
    expect(() => transitiveReduction(2, edgesOf([0, 1], [1, 0]))).toThrow(expect.objectContaining({ cycle: [0, 1] }));
    expect(() => criticalPath(2, edgesOf([1, 0], [0, 1]))).toThrow(GraphCycleError);
  });

  test('random graphs with a back edge report a real cycle', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const n = 10 + seed;
      const edges = randomDag(n, 0.3, seed);
      const order = topologicalOrder(n, edges);
      const cyclic = [...edges, edge(order[n - 1 - (seed % 3)], order[seed % 4])];
      if (!pathExists(successorLists(n, edges), order[seed % 4], order[n - 1 - (seed % 3)])) continue;
      try {
        topologicalOrder(n, cyclic);
        throw new Error('no cycle reported');
      } catch (e) {
        expect(e).toBeInstanceOf(GraphCycleError);
        expectValidCycle((e as GraphCycleError).cycle, cyclic);
      }
    }
  });

  test('the error can name nodes', () => {
    const names = ['load', 'scale', 'store'];
    expect(new GraphCycleError([0, 2], (id) => names[id]).message).toBe('the graph has a cycle: load → store → load');
  });
});

describe('transitive reduction', () => {
  test('a diamond with a shortcut loses the shortcut', () => {
    const edges = edgesOf([0, 1], [0, 2], [1, 3], [2, 3], [0, 3]);
    expect(pairs(transitiveReduction(4, edges))).toEqual([[0, 1], [0, 2], [1, 3], [2, 3]]);
  });

  test('a complete DAG becomes a chain; the kept edges are the caller\'s objects', () => {
    const edges: Array<GraphEdge & { label: string }> = [];
    for (let i = 0; i < 6; i++) for (let j = i + 1; j < 6; j++) edges.push({ from: i, to: j, label: `${i}-${j}` });
    const reduced = transitiveReduction(6, edges);
    expect(pairs(reduced)).toEqual([[0, 1], [1, 2], [2, 3], [3, 4], [4, 5]]);
    expect(reduced[0]).toBe(edges[0]);
    expect(reduced.map((e) => e.label)).toEqual(['0-1', '1-2', '2-3', '3-4', '4-5']);
  });

  test('duplicates are kept once, the first; nothing else changes an irreducible graph', () => {
    const edges = edgesOf([2, 0], [1, 0], [2, 0], [3, 1]);
    const reduced = transitiveReduction(4, edges);
    expect(reduced).toEqual([edges[0], edges[1], edges[3]]);
    expect(reduced[0]).toBe(edges[0]);
    expect(transitiveReduction(3, [])).toEqual([]);
  });

  test('long chains with skips reduce to the chain, in any id order', () => {
    const n = 50;
    const hidden = shuffled(n, seededRandom(7));
    const edges: GraphEdge[] = [];
    for (let i = 0; i + 1 < n; i++) for (let k = 1; k <= 4 && i + k < n; k++) edges.push(edge(hidden[i], hidden[i + k]));
    const reduced = transitiveReduction(n, edges);
    expect(reduced).toHaveLength(n - 1);
    for (const e of reduced) expect(hidden.indexOf(e.to) - hidden.indexOf(e.from)).toBe(1);
  });

  test('random DAGs: same reachability, and no kept edge is implied by another path', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const n = 4 + (seed % 25);
      const edges = randomDag(n, [0.1, 0.3, 0.6, 0.9][seed % 4], seed);
      const reduced = transitiveReduction(n, edges);
      expect(closure(n, reduced)).toEqual(closure(n, edges));
      const inputLists = successorLists(n, edges);
      const reducedLists = successorLists(n, reduced);
      for (const e of edges) {
        const implied = pathExists(inputLists, e.from, e.to, e);
        expect(reduced.includes(e)).toBe(!implied);
      }
      for (const e of reduced) expect(pathExists(reducedLists, e.from, e.to, e)).toBe(false);
    }
  });

  test('a dense 1200-node DAG (all 719,400 pairs) reduces to its chain', () => {
    const n = 1200;
    const hidden = shuffled(n, seededRandom(11));
    const edges: GraphEdge[] = [];
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) edges.push(edge(hidden[i], hidden[j]));
    const reduced = transitiveReduction(n, edges);
    expect(reduced).toHaveLength(n - 1);
    for (const e of reduced) expect(hidden.indexOf(e.to) - hidden.indexOf(e.from)).toBe(1);
  });

  test('a 20,000-node graph (reduced in several bounded-memory passes) matches a local path search', () => {
    // Edges reach at most 6 steps ahead in a hidden order, so "implied by
    // another path" can be searched for within that window.
    const n = 20000;
    const next = seededRandom(5);
    const hidden = shuffled(n, next);
    const position = new Int32Array(n);
    hidden.forEach((v, p) => (position[v] = p));
    const edges: GraphEdge[] = [];
    for (let i = 0; i < n; i++) for (let k = 1; k <= 6 && i + k < n; k++) if (next() < 0.45) edges.push(edge(hidden[i], hidden[i + k]));
    const lists = successorLists(n, edges);
    const implied = (e: GraphEdge): boolean => {
      const stack = lists[e.from].filter((w) => w !== e.to && position[w] < position[e.to]);
      const seen = new Set(stack);
      while (stack.length) {
        const v = stack.pop()!;
        for (const w of lists[v]) {
          if (w === e.to) return true;
          if (position[w] < position[e.to] && !seen.has(w)) {
            seen.add(w);
            stack.push(w);
          }
        }
      }
      return false;
    };
    const expected = edges.filter((e) => !implied(e));
    expect(expected.length).toBeLessThan(edges.length);
    expect(transitiveReduction(n, edges)).toEqual(expected);
  });
});

describe('level sets', () => {
  test('a diamond has three levels; a level is the longest path from a root', () => {
    expect(levelSets(4, edgesOf([0, 1], [0, 2], [1, 3], [2, 3]))).toEqual([[0], [1, 2], [3]]);
    expect(levelSets(5, edgesOf([0, 1], [1, 2], [0, 2], [3, 2]))).toEqual([[0, 3, 4], [1], [2]]);
    expect(levelSets(0, [])).toEqual([]);
  });

  test('random DAGs: edges go to later levels and each node is one past a predecessor', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const n = 5 + seed * 2;
      const edges = randomDag(n, 0.25, seed);
      const levels = levelSets(n, edges);
      const level = new Map<number, number>();
      levels.forEach((ids, l) => ids.forEach((v) => level.set(v, l)));
      expect(level.size).toBe(n);
      for (const e of edges) expect(level.get(e.to)!).toBeGreaterThan(level.get(e.from)!);
      for (let v = 0; v < n; v++) {
        const predecessorLevels = edges.filter((e) => e.to === v).map((e) => level.get(e.from)!);
        expect(level.get(v)).toBe(predecessorLevels.length ? Math.max(...predecessorLevels) + 1 : 0);
      }
    }
  });
});

describe('critical path', () => {
  test('by node count, and by weight', () => {
    const edges = edgesOf([0, 1], [1, 3], [0, 2], [2, 3], [3, 4]);
    expect(criticalPath(5, edges)).toEqual({ path: [0, 1, 3, 4], length: 4 });
    expect(criticalPath(5, edges, [1, 1, 5, 1, 0.5])).toEqual({ path: [0, 2, 3, 4], length: 7.5 });
    expect(criticalPath(3, [], [1, 4, 2])).toEqual({ path: [1], length: 4 });
    expect(criticalPath(0, [])).toEqual({ path: [], length: 0 });
  });

  test('random DAGs: the heaviest of all paths, found by enumerating them', () => {
    for (let seed = 1; seed <= 25; seed++) {
      const n = 3 + (seed % 10);
      const edges = randomDag(n, 0.35, seed);
      const next = seededRandom(seed * 31);
      const weights = Array.from({ length: n }, () => Math.floor(next() * 10));
      const lists = successorLists(n, edges);
      let best = 0;
      const walk = (v: number, sum: number): void => {
        best = Math.max(best, sum);
        for (const w of lists[v]) walk(w, sum + weights[w]);
      };
      for (let v = 0; v < n; v++) walk(v, weights[v]);
      const { path, length } = criticalPath(n, edges, weights);
      expect(length).toBe(best);
      expect(path.reduce((sum, v) => sum + weights[v], 0)).toBe(best);
      for (let i = 0; i + 1 < path.length; i++) expect(lists[path[i]]).toContain(path[i + 1]);
    }
  });
});

describe('reachability', () => {
  test('paths of any length, a node reaches itself', () => {
    const edges = edgesOf([0, 1], [1, 2], [3, 2]);
    expect(reaches(4, edges, 0, 2)).toBe(true);
    expect(reaches(4, edges, 2, 0)).toBe(false);
    expect(reaches(4, edges, 0, 3)).toBe(false);
    expect(reaches(4, edges, 3, 3)).toBe(true);
  });
});

describe('argument checks', () => {
  test('node counts, edges and weights are refused with the parameter named', () => {
    expect(() => topologicalOrder(-1, [])).toThrow(RangeError);
    expect(() => topologicalOrder(1.5, [])).toThrow(/nodeCount must be an integer/);
    expect(() => topologicalOrder(2, null as never)).toThrow(new TypeError('edges must be an array, got null'));
    expect(() => levelSets(2, [edge(0, 1), 7 as never])).toThrow(new TypeError('edges[1] must be an object, got 7'));
    expect(() => transitiveReduction(2, edgesOf([0, 1], [1, 2]))).toThrow(new RangeError('edges[1].to must be between 0 and 1, got 2'));
    expect(() => transitiveReduction(2, [{ from: '0', to: 1 } as never])).toThrow(/edges\[0\]\.from must be an integer/);
    expect(() => criticalPath(2, [], [1])).toThrow(new RangeError('weights must have one entry per node (2), got 1'));
    expect(() => criticalPath(2, [], [1, -1])).toThrow(/weights\[1\] must be between 0/);
    expect(() => criticalPath(2, [], [1, NaN])).toThrow(/weights\[1\] must be a finite number/);
    expect(() => reaches(2, [], 0, 2)).toThrow(/to must be between 0 and 1/);
  });
});
