// Graphviz DOT of a graph, made for people: each node says what it does, its
// shape and colour say what kind of node it is, edges can say why they exist,
// and nodes that may run together can be drawn side by side.
import { levelSets } from './analysis';
import { checkArray, checkBoolean, checkInteger, checkObject, checkOptions, checkString, describeValue, noOptions } from '../validate';

/** The kinds of graph node, as the driver has them (CU_GRAPH_NODE_TYPE_*). */
export type GraphNodeKind =
  | 'kernel'
  | 'memcpy'
  | 'memset'
  | 'host'
  | 'child'
  | 'empty'
  | 'event-wait'
  | 'event-record'
  | 'ext-semaphore-signal'
  | 'ext-semaphore-wait'
  | 'mem-alloc'
  | 'mem-free'
  | 'batch-mem-op'
  | 'conditional';

/** A node to draw. */
export interface DotNode {
  /** Its id, a non-negative integer that edges refer to; unique within the graph. */
  readonly id: number;
  /** What kind of node it is; decides shape and colour. */
  readonly kind: GraphNodeKind;
  /** Its name (a kernel's name, `copy x to host`); the kind is shown when absent. */
  readonly label?: string;
  /** More lines under the label (`grid 64×1×1, block 256`, `4096 bytes`). */
  readonly detail?: string;
}

/** An edge to draw. */
export interface DotEdge {
  /** Id of the node that runs first. */
  readonly from: number;
  /** Id of the node that depends on it. */
  readonly to: number;
  /** Text beside the edge (why it exists: `RAW x`, its edge type). */
  readonly label?: string;
  /** Line style (default solid). */
  readonly style?: 'solid' | 'dashed' | 'dotted' | 'bold';
}

/** Options of {@link renderDot}. */
export interface DotOptions {
  /** The graph's name (default `graph`). */
  readonly name?: string;
  /** Direction of the edges: top to bottom (default) or left to right. */
  readonly direction?: 'TB' | 'LR';
  /** Put the nodes of one level set, which may run together, side by side (default false; needs an acyclic graph). */
  readonly levels?: boolean;
}

/**
 * The graph as Graphviz DOT text, one statement a line, with every label
 * escaped. Nodes and edges keep the order given.
 *
 * @throws GraphCycleError when `levels` is asked for and the graph has a cycle.
 */
export function renderDot(graph: { readonly nodes: readonly DotNode[]; readonly edges: readonly DotEdge[] }, options: DotOptions = noOptions): string {
  checkObject(graph, 'graph');
  const nodes = checkArray<DotNode>(graph.nodes, 'graph.nodes');
  const edges = checkArray<DotEdge>(graph.edges, 'graph.edges');
  checkObject(options, 'options');
  checkOptions(options, 'options', 'toDot', ['name', 'direction', 'levels']);
  const name = options.name === undefined ? 'graph' : checkString(options.name, 'options.name');
  const direction = options.direction ?? 'TB';
  if (direction !== 'TB' && direction !== 'LR') throw new RangeError(`options.direction must be 'TB' or 'LR', got ${describeValue(direction)}`);
  const levels = options.levels === undefined ? false : checkBoolean(options.levels, 'options.levels');

  // Dense positions for the analysis functions, which number nodes 0..n-1.
  const positionById = new Map<number, number>();
  const lines = [
    `digraph ${quote(name)} {`,
    `  graph [rankdir=${direction}, fontname="Helvetica"];`,
    `  node [fontname="Helvetica", fontsize=11, style="filled", fillcolor="white", color="#495057"];`,
    `  edge [fontname="Helvetica", fontsize=9, color="#495057"];`,
  ];
  nodes.forEach((node, i) => {
    checkObject(node, `graph.nodes[${i}]`);
    const id = checkInteger(node.id, `graph.nodes[${i}].id`, 0);
    if (positionById.has(id)) throw new RangeError(`graph.nodes[${i}].id ${id} is already the id of graph.nodes[${positionById.get(id)}]`);
    positionById.set(id, i);
    const kind = node.kind;
    const style = Object.prototype.hasOwnProperty.call(NODE_STYLES, kind) ? NODE_STYLES[kind] : undefined;
    if (!style) throw new RangeError(`graph.nodes[${i}].kind must be one of ${Object.keys(NODE_STYLES).join(', ')}; got ${describeValue(kind)}`);
    const label = node.label === undefined ? kind : `${checkString(node.label, `graph.nodes[${i}].label`)}\n${kind}`;
    const text = node.detail === undefined ? label : `${label}\n${checkString(node.detail, `graph.nodes[${i}].detail`)}`;
    lines.push(`  n${id} [label=${quote(text)}, shape=${style.shape}, fillcolor="${style.fill}"${style.extra ? `, ${style.extra}` : ''}];`);
  });

  const positionEdges = edges.map((edge, i) => {
    checkObject(edge, `graph.edges[${i}]`);
    const from = positionById.get(checkInteger(edge.from, `graph.edges[${i}].from`, 0));
    const to = positionById.get(checkInteger(edge.to, `graph.edges[${i}].to`, 0));
    if (from === undefined) throw new RangeError(`graph.edges[${i}].from ${edge.from} is not the id of a node`);
    if (to === undefined) throw new RangeError(`graph.edges[${i}].to ${edge.to} is not the id of a node`);
    const attributes: string[] = [];
    if (edge.label !== undefined) attributes.push(`label=${quote(checkString(edge.label, `graph.edges[${i}].label`))}`);
    if (edge.style !== undefined) {
      if (!EDGE_STYLES.includes(edge.style)) throw new RangeError(`graph.edges[${i}].style must be one of ${EDGE_STYLES.join(', ')}; got ${describeValue(edge.style)}`);
      if (edge.style !== 'solid') attributes.push(`style=${edge.style}`);
    }
    lines.push(`  n${edge.from} -> n${edge.to}${attributes.length > 0 ? ` [${attributes.join(', ')}]` : ''};`);
    return { from, to };
  });

  if (levels) {
    for (const level of levelSets(nodes.length, positionEdges)) {
      if (level.length > 1) lines.push(`  { rank=same; ${level.map((p) => `n${nodes[p].id};`).join(' ')} }`);
    }
  }
  lines.push('}');
  return lines.join('\n') + '\n';
}

interface NodeStyle {
  readonly shape: string;
  readonly fill: string;
  readonly extra?: string;
}

// Work on the GPU is boxes (kernels blue, copies and sets green), the host
// yellow, synchronisation houses, memory cylinders, structure purple.
const NODE_STYLES: Readonly<Record<GraphNodeKind, NodeStyle>> = {
  kernel: { shape: 'box', fill: '#cfe2ff' },
  memcpy: { shape: 'box', fill: '#d1e7dd', extra: 'style="filled,rounded"' },
  memset: { shape: 'box', fill: '#e8f5e9', extra: 'style="filled,rounded"' },
  host: { shape: 'hexagon', fill: '#fff3cd' },
  child: { shape: 'box3d', fill: '#e0cffc' },
  empty: { shape: 'ellipse', fill: 'white', extra: 'style="dashed"' },
  'event-wait': { shape: 'invhouse', fill: '#ffe5d0' },
  'event-record': { shape: 'house', fill: '#ffe5d0' },
  'ext-semaphore-signal': { shape: 'house', fill: '#f7d6e6' },
  'ext-semaphore-wait': { shape: 'invhouse', fill: '#f7d6e6' },
  'mem-alloc': { shape: 'cylinder', fill: '#f8d7da' },
  'mem-free': { shape: 'cylinder', fill: '#e9ecef' },
  'batch-mem-op': { shape: 'octagon', fill: '#e9ecef' },
  conditional: { shape: 'diamond', fill: '#e0cffc' },
};

const EDGE_STYLES: readonly string[] = ['solid', 'dashed', 'dotted', 'bold'];

// A DOT double-quoted string. Backslashes are doubled so that the escapes
// Graphviz gives meaning to in labels (\N, \G, \l) stay literal text; line
// breaks become \n, which Graphviz draws as a centred line break.
function quote(text: string): string {
  const escaped = text
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\r\n|\r|\n/g, '\\n')
    .replace(/[\u0000-\u001f\u007f]/g, ' ');
  return `"${escaped}"`;
}
