"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.renderDot = renderDot;
// Graphviz DOT of a graph, made for people: each node says what it does, its
// shape and colour say what kind of node it is, edges can say why they exist,
// and nodes that may run together can be drawn side by side.
const analysis_1 = require("./analysis");
const validate_1 = require("../validate");
/**
 * The graph as Graphviz DOT text, one statement a line, with every label
 * escaped. Nodes and edges keep the order given.
 *
 * @throws GraphCycleError when `levels` is asked for and the graph has a cycle.
 */
function renderDot(graph, options = {}) {
    (0, validate_1.checkObject)(graph, 'graph');
    const nodes = (0, validate_1.checkArray)(graph.nodes, 'graph.nodes');
    const edges = (0, validate_1.checkArray)(graph.edges, 'graph.edges');
    (0, validate_1.checkObject)(options, 'options');
    const name = options.name === undefined ? 'graph' : (0, validate_1.checkString)(options.name, 'options.name');
    const direction = options.direction ?? 'TB';
    if (direction !== 'TB' && direction !== 'LR')
        throw new RangeError(`options.direction must be 'TB' or 'LR', got ${String(direction)}`);
    const levels = options.levels === undefined ? false : (0, validate_1.checkBoolean)(options.levels, 'options.levels');
    // Dense positions for the analysis functions, which number nodes 0..n-1.
    const positionById = new Map();
    const lines = [
        `digraph ${quote(name)} {`,
        `  graph [rankdir=${direction}, fontname="Helvetica"];`,
        `  node [fontname="Helvetica", fontsize=11, style="filled", fillcolor="white", color="#495057"];`,
        `  edge [fontname="Helvetica", fontsize=9, color="#495057"];`,
    ];
    nodes.forEach((node, i) => {
        (0, validate_1.checkObject)(node, `graph.nodes[${i}]`);
        const id = (0, validate_1.checkInteger)(node.id, `graph.nodes[${i}].id`, 0);
        if (positionById.has(id))
            throw new RangeError(`graph.nodes[${i}].id ${id} is already the id of graph.nodes[${positionById.get(id)}]`);
        positionById.set(id, i);
        const kind = node.kind;
        const style = Object.prototype.hasOwnProperty.call(NODE_STYLES, kind) ? NODE_STYLES[kind] : undefined;
        if (!style)
            throw new RangeError(`graph.nodes[${i}].kind must be one of ${Object.keys(NODE_STYLES).join(', ')}; got ${String(kind)}`);
        const label = node.label === undefined ? kind : `${(0, validate_1.checkString)(node.label, `graph.nodes[${i}].label`)}\n${kind}`;
        const text = node.detail === undefined ? label : `${label}\n${(0, validate_1.checkString)(node.detail, `graph.nodes[${i}].detail`)}`;
        lines.push(`  n${id} [label=${quote(text)}, shape=${style.shape}, fillcolor="${style.fill}"${style.extra ? `, ${style.extra}` : ''}];`);
    });
    const positionEdges = edges.map((edge, i) => {
        (0, validate_1.checkObject)(edge, `graph.edges[${i}]`);
        const from = positionById.get((0, validate_1.checkInteger)(edge.from, `graph.edges[${i}].from`, 0));
        const to = positionById.get((0, validate_1.checkInteger)(edge.to, `graph.edges[${i}].to`, 0));
        if (from === undefined)
            throw new RangeError(`graph.edges[${i}].from ${edge.from} is not the id of a node`);
        if (to === undefined)
            throw new RangeError(`graph.edges[${i}].to ${edge.to} is not the id of a node`);
        const attributes = [];
        if (edge.label !== undefined)
            attributes.push(`label=${quote((0, validate_1.checkString)(edge.label, `graph.edges[${i}].label`))}`);
        if (edge.style !== undefined) {
            if (!EDGE_STYLES.includes(edge.style))
                throw new RangeError(`graph.edges[${i}].style must be one of ${EDGE_STYLES.join(', ')}; got ${String(edge.style)}`);
            if (edge.style !== 'solid')
                attributes.push(`style=${edge.style}`);
        }
        lines.push(`  n${edge.from} -> n${edge.to}${attributes.length > 0 ? ` [${attributes.join(', ')}]` : ''};`);
        return { from, to };
    });
    if (levels) {
        for (const level of (0, analysis_1.levelSets)(nodes.length, positionEdges)) {
            if (level.length > 1)
                lines.push(`  { rank=same; ${level.map((p) => `n${nodes[p].id};`).join(' ')} }`);
        }
    }
    lines.push('}');
    return lines.join('\n') + '\n';
}
// Work on the GPU is boxes (kernels blue, copies and sets green), the host
// yellow, synchronisation houses, memory cylinders, structure purple.
const NODE_STYLES = {
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
const EDGE_STYLES = ['solid', 'dashed', 'dotted', 'bold'];
// A DOT double-quoted string. Backslashes are doubled so that the escapes
// Graphviz gives meaning to in labels (\N, \G, \l) stay literal text; line
// breaks become \n, which Graphviz draws as a centred line break.
function quote(text) {
    const escaped = text
        .replace(/\\/g, '\\\\')
        .replace(/"/g, '\\"')
        .replace(/\r\n|\r|\n/g, '\\n')
        .replace(/[\u0000-\u001f\u007f]/g, ' ');
    return `"${escaped}"`;
}
//# sourceMappingURL=dot.js.map